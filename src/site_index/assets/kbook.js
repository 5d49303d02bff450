// kbook search on a site built by another generator (`kbook index`). Put
// <div data-kbook-search></div> where the search box goes and load this script from the
// directory `kbook index` wrote (it finds the index next to itself, over http(s) and from
// file://). A pasted error or stack trace finds the page that explains it.
(function () {
  "use strict";
  if (window.kbook && window.kbook.indexLoader) return;
  window.kbook = window.kbook || {};
  window.kbook.indexLoader = true;
  var me = document.currentScript;
  var base = me && me.src ? me.src.replace(/[?#].*$/, "").replace(/[^/]*$/, "") : "";

  function add(tag, props) {
    var e = document.createElement(tag);
    for (var k in props) e[k] = props[k];
    document.head.appendChild(e);
    return e;
  }

  // The texts of the search box and results in the site's language (`kbook index` fills
  // them in; null for English).
  var strings = /*kbook-strings*/null;
  var placeholder = /*kbook-placeholder*/"Search, or paste an error";

  // search.js resolves the index, the module and result links from this root.
  if (!document.querySelector('meta[name="kbook-root"]')) add("meta", { name: "kbook-root", content: base });
  if (strings && !document.querySelector('meta[name="kbook-strings"]')) {
    add("meta", { name: "kbook-strings", content: JSON.stringify(strings) });
  }
  add("link", { rel: "stylesheet", href: base + "search.css" });

  function boxes() {
    var slots = document.querySelectorAll("[data-kbook-search]");
    for (var i = 0; i < slots.length; i++) {
      if (slots[i].querySelector("form")) continue;
      var form = document.createElement("form");
      form.className = "kbook-search";
      form.setAttribute("role", "search");
      form.action = base + "search.html";
      var input = document.createElement("input");
      input.className = "kbook-search-input";
      input.type = "search";
      input.name = "q";
      input.placeholder = slots[i].getAttribute("data-placeholder") || placeholder;
      input.setAttribute("aria-label", input.placeholder);
      input.autocomplete = "off";
      input.spellcheck = false;
      var panel = document.createElement("div");
      panel.className = "kbook-search-results";
      panel.hidden = true;
      form.appendChild(input);
      form.appendChild(panel);
      slots[i].appendChild(form);
    }
    add("script", { src: base + "search/search.js" });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boxes);
  else boxes();
})();
