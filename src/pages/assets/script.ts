/**
 * The pages' only script (served by assets.ts under a content hash). Everything works without it;
 * it adds: the visitor's own time zone (Intl) where the address names none, a countdown of the
 * hold, and, inside an embed's iframe, the page's height and the new booking's id posted to the
 * parent window. Plain ES2017, no framework.
 */
export const script = `(function () {
  "use strict";
  var root = document.documentElement;
  var data = root.dataset;
  var framed = window.parent !== window;

  // The visitor's zone, where the address named none: carried on by every link and form.
  var zone;
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone; } catch (e) {}
  if (zone && data.tzAuto === "1" && zone !== data.tz) {
    if (data.times === "1") {
      var here = new URL(location.href);
      here.searchParams.set("tz", zone);
      location.replace(here.href);
      return;
    }
    var links = document.querySelectorAll("a[href]");
    for (var i = 0; i < links.length; i++) {
      var url = new URL(links[i].href);
      if (url.origin === location.origin && url.pathname.indexOf("/_assets/") < 0) {
        url.searchParams.set("tz", zone);
        links[i].href = url.href;
      }
    }
    var fields = document.querySelectorAll("[name=tz]");
    for (var j = 0; j < fields.length; j++) {
      if (fields[j].tagName !== "SELECT") fields[j].value = zone;
      else if (fields[j].querySelector("option[value='" + zone + "']")) fields[j].value = zone;
    }
  }

  // The hold's countdown: minutes and seconds, spoken only at one minute left and at the end.
  var hold = document.querySelector("[data-expires]");
  if (hold) {
    var ends = Date.parse(hold.getAttribute("data-expires"));
    var shown = hold.querySelector("[data-left]");
    var say = document.querySelector("[data-announce]");
    var warned = false;
    var tick = function () {
      var left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      var seconds = left % 60;
      if (shown) shown.textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
      if (say && left <= 60 && !warned) { warned = true; say.textContent = say.getAttribute("data-minute"); }
      if (left === 0) {
        clearInterval(timer);
        if (say) say.textContent = say.getAttribute("data-expired");
      }
    };
    var timer = setInterval(tick, 1000);
    tick();
  }

  // Inside an embed: the parent sizes the iframe to the page, and learns of a new booking.
  if (framed) {
    var post = function (message) { window.parent.postMessage(message, "*"); };
    var last = 0;
    var size = function () {
      var height = Math.ceil(document.documentElement.scrollHeight);
      if (height !== last) { last = height; post({ type: "booking.resize", height: height }); }
    };
    if (window.ResizeObserver) new ResizeObserver(size).observe(document.body);
    window.addEventListener("load", size);
    size();
    var booked = document.querySelector("[data-booking-id]");
    if (booked) post({ type: "booking.scheduled", bookingId: booked.getAttribute("data-booking-id") });
  }
})();
`;

/**
 * The embed script (`/book/{slug}/embed.js`): put where the page should appear. It adds an
 * iframe of the page right after itself, sized to the page's height (so the host page scrolls,
 * not a box inside it, which phones handle badly), and passes on the page's messages as DOM
 * events on the script element as well. `data-lang` and `data-service` preselect.
 */
export const embedScript = `(function () {
  "use strict";
  var me = document.currentScript;
  if (!me) return;
  var page = new URL(me.src);
  page.pathname = page.pathname.replace(/\\/embed\\.js$/, "");
  page.search = "";
  page.searchParams.set("embed", "1");
  if (me.dataset.lang) page.searchParams.set("lang", me.dataset.lang);
  if (me.dataset.service) page.searchParams.set("service", me.dataset.service);
  var frame = document.createElement("iframe");
  frame.src = page.href;
  frame.title = me.dataset.title || "Book an appointment";
  frame.style.width = "100%";
  frame.style.minHeight = "420px";
  frame.style.border = "0";
  frame.style.display = "block";
  me.parentNode.insertBefore(frame, me.nextSibling);
  window.addEventListener("message", function (event) {
    if (event.source !== frame.contentWindow || event.origin !== page.origin) return;
    var message = event.data || {};
    if (message.type === "booking.resize" && message.height > 0) frame.style.height = message.height + "px";
    if (message.type === "booking.scheduled") {
      me.dispatchEvent(new CustomEvent("booking.scheduled", { detail: { bookingId: message.bookingId } }));
    }
  });
})();
`;
