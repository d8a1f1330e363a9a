/**
 * The office's only script (served under a content hash). Every page works without it; it adds
 * the day's live update: every 3 seconds it asks the day's fingerprint (a 304 while nothing
 * changed) and only on a change fetches the columns again and puts them in place, positioning the
 * blocks through the CSSOM (the policy allows no style attributes). It waits while focus is in the
 * columns, so a keyboard user's place is never swapped away. Plain ES2017, no framework.
 */
export const officeScript = `(function () {
  "use strict";
  var place = function (root) {
    var items = root.querySelectorAll("[data-y]");
    for (var i = 0; i < items.length; i++) {
      var d = items[i].dataset;
      items[i].style.top = d.y + "px";
      items[i].style.height = d.h + "px";
      // Ids are by position: the page's first rules may still name this id with another's lane.
      items[i].style.left = d.x ? d.x + "%" : "0";
      items[i].style.width = d.x ? d.w + "%" : "100%";
    }
  };
  var live = document.querySelector("[data-live]");
  if (!live || !window.fetch) return;
  var etag = live.getAttribute("data-version");
  var say = document.querySelector("[data-announce]");
  var busy = false;
  var poll = function () {
    // Not while the tab is hidden, nor under a keyboard user's focus (a swap would drop it).
    if (busy || document.hidden || live.contains(document.activeElement)) return;
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(live.getAttribute("data-live"), { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (res) {
        if (res.status !== 200 || res.headers.get("ETag") === etag) return;
        return fetch(live.getAttribute("data-columns"), { credentials: "same-origin", cache: "no-store" }).then(
          function (page) {
            if (!page.ok) return;
            var next = page.headers.get("ETag");
            return page.text().then(function (html) {
              live.innerHTML = html;
              place(live);
              etag = next;
              if (say) say.textContent = say.getAttribute("data-changed");
            });
          },
        );
      })
      .catch(function () {})
      .then(function () { busy = false; });
  };
  setInterval(poll, 3000);
})();
`;
