// kbook page script: everything a page needs without search. Loaded blocking in <head> so the
// stored or system theme applies before first paint (it is small, and external so a strict
// Content-Security-Policy works); the rest is wired on DOMContentLoaded:
// theme toggle, sidebar toggle, copy buttons, "copy link", the highlighting of search terms
// after following a result, the 404 page's search, and a lazy loader for search: the search
// script, module and index are loaded only when the reader focuses the search box (or presses
// "/", or calls window.kbook.search).
(function () {
  "use strict";
  var doc = document;
  var root = doc.documentElement;
  var KEY = "kbook-theme";
  var kb = (window.kbook = window.kbook || {});

  // Storage may be blocked (privacy settings, some file:// setups): never let it break a page.
  function storageGet(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }
  function storageSet(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* not persisted */ }
  }
  kb.storageGet = storageGet;
  kb.storageSet = storageSet;

  function system() {
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  var preset = root.getAttribute("data-default-theme");
  var storedTheme = storageGet(KEY);
  var theme = storedTheme === "light" || storedTheme === "dark" ? storedTheme
    : preset === "light" || preset === "dark" ? preset : system();
  root.setAttribute("data-theme", theme);

  function meta(name) {
    var el = doc.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") || "" : "";
  }

  // ------------------------------------------------------------ lazy search

  var searchScript = null;
  /** Loads search.js once; resolves when window.kbook's search functions are the real ones. */
  function loadSearchScript() {
    if (kb.searchLoaded) return Promise.resolve();
    if (!searchScript) {
      searchScript = new Promise(function (resolve, reject) {
        var src = meta("kbook-search-js");
        if (!src) {
          reject(new Error("search is not available on this page"));
          return;
        }
        var s = doc.createElement("script");
        s.src = src;
        s.async = true;
        s.onload = function () { resolve(); };
        s.onerror = function () {
          searchScript = null;
          reject(new Error("could not load the search script"));
        };
        doc.head.appendChild(s);
      });
    }
    return searchScript;
  }
  kb.loadSearch = loadSearchScript;
  // Until search.js replaces them, the public functions load it and then delegate.
  ["ready", "search", "searchResults"].forEach(function (name) {
    if (kb[name]) return;
    var stub = function () {
      var args = arguments;
      return loadSearchScript().then(function () {
        if (kb[name] === stub) throw new Error("search did not initialise");
        return kb[name].apply(null, args);
      });
    };
    kb[name] = stub;
  });

  function isTyping(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  // ------------------------------------------------------------ clipboard

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // Plain-http hosts: the old way, through a temporary off-screen textarea.
    return new Promise(function (resolve, reject) {
      var area = doc.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "visually-hidden";
      doc.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = doc.execCommand("copy"); } catch (e) { ok = false; }
      doc.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }

  function copyButton(label, getText) {
    var btn = doc.createElement("button");
    btn.type = "button";
    btn.className = "copy-button";
    btn.textContent = label;
    var timer = null;
    btn.addEventListener("click", function () {
      copyText(getText()).then(function () { btn.textContent = "Copied"; }, function () { btn.textContent = "Copy failed"; });
      clearTimeout(timer);
      timer = setTimeout(function () { btn.textContent = label; }, 2000);
    });
    return btn;
  }

  // ------------------------------------------------------------ highlighting

  function escapeRegExp(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  /** Wraps occurrences of `terms` inside `scope` in <mark class="kbook-hl">; returns the count. */
  function highlight(scope, terms) {
    var words = [];
    (terms || []).forEach(function (t) {
      t = String(t).trim();
      if (t.length >= 2 && words.indexOf(t.toLowerCase()) < 0) words.push(t.toLowerCase());
    });
    if (!scope || !words.length) return 0;
    words.sort(function (a, b) { return b.length - a.length; });
    var re = new RegExp(words.map(escapeRegExp).join("|"), "gi");
    var walker = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        var p = n.parentNode;
        if (!p || p.nodeName === "MARK" || p.nodeName === "SCRIPT" || p.nodeName === "BUTTON") return NodeFilter.FILTER_REJECT;
        return n.nodeValue.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      },
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    var count = 0;
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      re.lastIndex = 0;
      if (!re.test(text)) return;
      re.lastIndex = 0;
      var frag = doc.createDocumentFragment();
      var pos = 0;
      var m;
      while ((m = re.exec(text)) !== null) {
        if (!m[0]) { re.lastIndex++; continue; }
        if (m.index > pos) frag.appendChild(doc.createTextNode(text.slice(pos, m.index)));
        var mark = doc.createElement("mark");
        mark.className = "kbook-hl";
        mark.textContent = m[0];
        frag.appendChild(mark);
        count++;
        pos = m.index + m[0].length;
      }
      if (pos < text.length) frag.appendChild(doc.createTextNode(text.slice(pos)));
      node.parentNode.replaceChild(frag, node);
    });
    return count;
  }

  function clearHighlights(scope) {
    var marks = (scope || doc).querySelectorAll("mark.kbook-hl");
    for (var i = 0; i < marks.length; i++) {
      var m = marks[i];
      m.parentNode.replaceChild(doc.createTextNode(m.textContent), m);
    }
    var notes = (scope || doc).querySelectorAll(".kbook-hl-note");
    for (var j = 0; j < notes.length; j++) notes[j].parentNode.removeChild(notes[j]);
    if (scope && scope.normalize) scope.normalize();
  }

  /** Highlights `terms` in an entry (article element) and adds a note with a "clear" button. */
  function highlightEntry(article, terms) {
    if (!article) return 0;
    clearHighlights(article);
    var n = 0;
    var parts = article.querySelectorAll(".entry-header h1, .error-strings, .entry-body");
    for (var i = 0; i < parts.length; i++) n += highlight(parts[i], terms);
    if (!n) return 0;
    var note = doc.createElement("p");
    note.className = "kbook-hl-note";
    note.appendChild(doc.createTextNode("Search terms are highlighted. "));
    var clear = doc.createElement("button");
    clear.type = "button";
    clear.className = "kbook-hl-clear";
    clear.textContent = "Remove highlighting";
    clear.addEventListener("click", function () { clearHighlights(article); });
    note.appendChild(clear);
    var header = article.querySelector(".entry-header");
    if (header) header.appendChild(note);
    return n;
  }
  kb.highlightEntry = highlightEntry;

  // ------------------------------------------------------------ 404

  function notFoundSearch(box) {
    var path = location.pathname;
    try { path = decodeURIComponent(path); } catch (e) { /* keep it encoded */ }
    var skip = { html: 1, htm: 1, index: 1, md: 1, php: 1, aspx: 1 };
    var words = path.split(/[^A-Za-z0-9\u00C0-\uFFFF]+/).filter(function (w) {
      return w.length > 1 && !skip[w.toLowerCase()];
    });
    // A file:// path starts with the folders of the disk: keep the last few words only.
    words = words.slice(-6);
    if (!words.length) return;
    var q = words.join(" ");
    var link = box.querySelector("a.kbook-404-link");
    if (link) {
      link.href = link.getAttribute("href") + "?q=" + encodeURIComponent(q);
      link.textContent = "Search for \u201c" + q + "\u201d";
    }
    box.hidden = false;
    var list = box.querySelector(".kbook-404-results");
    if (!list) return;
    kb.searchResults(q, { limit: 5 }).then(function (res) {
      res.hits.forEach(function (h) {
        var li = doc.createElement("li");
        var a = doc.createElement("a");
        a.href = h.url;
        a.textContent = h.title;
        li.appendChild(a);
        list.appendChild(li);
      });
    }, function () { /* the link above still works */ });
  }

  // ------------------------------------------------------------ wiring

  function init() {
    var toggle = doc.querySelector(".theme-toggle");
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(root.getAttribute("data-theme") === "dark"));
      toggle.addEventListener("click", function () {
        var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        toggle.setAttribute("aria-pressed", String(next === "dark"));
        storageSet(KEY, next);
      });
    }
    var nav = doc.querySelector(".nav-toggle");
    var sidebar = doc.getElementById("sidebar");
    if (nav && sidebar) {
      nav.addEventListener("click", function () {
        var open = sidebar.classList.toggle("open");
        nav.setAttribute("aria-expanded", String(open));
        nav.setAttribute("aria-label", open ? "Hide navigation" : "Show navigation");
      });
    }
    // Copy buttons on code blocks and error strings.
    var blocks = doc.querySelectorAll(".entry pre");
    for (var i = 0; i < blocks.length; i++) {
      (function (pre) {
        var code = pre.querySelector("code") || pre;
        var btn = copyButton("Copy", function () { return code.textContent; });
        btn.setAttribute("title", "Copy to clipboard");
        pre.parentNode.insertBefore(btn, pre);
      })(blocks[i]);
    }
    // Code and tables that scroll sideways must be reachable by keyboard.
    var wide = doc.querySelectorAll(".content pre, .content table");
    for (var w = 0; w < wide.length; w++) {
      if (wide[w].scrollWidth > wide[w].clientWidth + 1 && !wide[w].hasAttribute("tabindex")) wide[w].setAttribute("tabindex", "0");
    }
    // "Copy link to this entry": the canonical URL when the book has a site-url.
    var links = doc.querySelectorAll(".copy-link[data-href]");
    for (var j = 0; j < links.length; j++) {
      (function (holder) {
        var btn = copyButton("Copy link", function () {
          var href = holder.getAttribute("data-href");
          return href && href !== "#" ? href : location.href.split("?")[0];
        });
        btn.className = "copy-link-button";
        btn.setAttribute("title", "Copy a link to this entry");
        holder.appendChild(btn);
        holder.hidden = false;
      })(links[j]);
    }
    // Terms of the search that led here (search.js adds ?highlight= to result links).
    var hl = null;
    try { hl = new URLSearchParams(location.search).get("highlight"); } catch (e) { hl = null; }
    if (hl) highlightEntry(doc.querySelector("article.entry"), hl.split(/\s+/));

    // Search loads on first focus of a search field, or on "/".
    doc.addEventListener("focusin", function (e) {
      var t = e.target;
      if (t && t.closest && t.closest("form.kbook-search, form.kbook-search-page")) {
        loadSearchScript().catch(function () { /* search.js reports when the user types */ });
      }
    });
    doc.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      var target = doc.querySelector("form.kbook-search-page textarea") || doc.querySelector("form.kbook-search input[type=search]");
      if (target) {
        e.preventDefault();
        target.focus();
      }
    });
    var missing = doc.getElementById("kbook-404-search");
    if (missing) notFoundSearch(missing);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
