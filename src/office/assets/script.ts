/**
 * The office's only script (served under a content hash). Every page works without it; it adds
 * the day's live update: every 3 seconds it asks the day's fingerprint (a 304 while nothing
 * changed) and only on a change fetches the columns again and puts them in place as they come (the
 * blocks are placed by the stylesheet's classes), keeping how far the board was scrolled sideways.
 * It waits while focus is in the columns, so a keyboard user's place is never swapped away. Plain
 * ES2017, no framework.
 */
export const officeScript = `(function () {
  "use strict";
  // How far the board is scrolled sideways (a phone shows a column or two at a time).
  var scrolled = function (to) {
    var board = live.querySelector(".board");
    if (!board) return 0;
    if (to !== undefined) board.scrollLeft = to;
    return board.scrollLeft;
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
              var left = scrolled();
              live.innerHTML = html;
              scrolled(left);
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
