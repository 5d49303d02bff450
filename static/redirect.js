// A moved page (an entry's `aliases`). The address's #anchor may name one of the entries the
// old page became (`aliases: ["old/faq/#q2"]`): it goes there. Otherwise the address's query
// and #anchor come along to the new page (`old.html#solution` → `new.html#solution`), as the
// page's refresh alone would drop them.
(function () {
  "use strict";
  var anchor = "";
  try {
    anchor = decodeURIComponent(location.hash.slice(1));
  } catch (e) {
    anchor = location.hash.slice(1);
  }
  var links = document.querySelectorAll("link[data-kbook-anchor]");
  for (var i = 0; anchor && i < links.length; i++) {
    if (links[i].getAttribute("data-kbook-anchor") === anchor) {
      location.replace(links[i].href);
      return;
    }
  }
  if (!location.search && !location.hash) return;
  // The page's refresh comes after this script; the script tag names the same target.
  var script = document.currentScript;
  var target = script && script.getAttribute("data-target");
  if (!target) return;
  if (location.search && target.indexOf("?") < 0) target = target.replace(/(#|$)/, location.search + "$1");
  if (location.hash && target.indexOf("#") < 0) target += location.hash;
  location.replace(target);
})();
