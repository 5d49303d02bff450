// A moved page whose parts became separate entries (`aliases: ["old/faq/#q2"]`): the
// address's #anchor picks the entry; without a known anchor the page's refresh goes to the
// default one.
(function () {
  "use strict";
  var anchor = decodeURIComponent(location.hash.slice(1));
  if (!anchor) return;
  var links = document.querySelectorAll("link[data-kbook-anchor]");
  for (var i = 0; i < links.length; i++) {
    if (links[i].getAttribute("data-kbook-anchor") === anchor) {
      location.replace(links[i].href);
      return;
    }
  }
})();
