// kbook page script: everything a page needs without search. Loaded blocking in <head> so the
// stored or system theme applies before first paint (it is small, and external so a strict
// Content-Security-Policy works); the rest is wired on DOMContentLoaded:
// theme toggle, sidebar toggle, copy buttons, "copy link", the highlighting of search terms
// after following a result, the 404 page's search, the reader's product version (remembered,
// or set by ?version=) and whether an entry applies to it, and a lazy loader for search: the search
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
  function storageRemove(key) {
    try { window.localStorage.removeItem(key); } catch (e) { /* nothing stored */ }
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

  // ------------------------------------------------------------ strings

  // The English texts this script shows. A book in another language, or one that overrides
  // texts in book.toml, puts its own in the page's kbook-strings meta tag (no second fetch).
  var STRINGS = {
    copy: "Copy",
    copied: "Copied",
    copy_failed: "Copy failed",
    copy_title: "Copy to clipboard",
    copy_link: "Copy link",
    copy_link_title: "Copy a link to this entry",
    highlight_note: "Search terms are highlighted.",
    highlight_clear: "Remove highlighting",
    nav_show: "Show navigation",
    nav_hide: "Hide navigation",
    not_found_search: "Search for \u201c{q}\u201d",
    version_applies: "Applies to your version {version}",
    version_applies_fixed: "Applies to your version {version} (fixed in {fixed})",
    version_fixed: "Does not affect {version} (fixed in {fixed})",
    version_not_affected: "Does not affect {version}",
    version_unknown: "This entry says nothing about {product}",
    version_vague: "Whether it applies to {version} depends on the exact release",
    version_change: "Change version",
    version_param_invalid: "The address asks for version \u201c{text}\u201d, which is not a product and version (product=1.2.3), so it is ignored.",
    version_param_unknown: "The address asks for version \u201c{text}\u201d, but no entry of this book names product \u201c{product}\u201d, so it is ignored.",
  };
  var pageStrings = {};
  try {
    pageStrings = JSON.parse(meta("kbook-strings") || "{}") || {};
  } catch (e) {
    pageStrings = {};
  }
  kb.strings = {};
  Object.keys(pageStrings).forEach(function (k) {
    if (typeof pageStrings[k] === "string") kb.strings[k] = pageStrings[k];
  });
  /** Adds texts (key -> English default) unless the page translated them; search.js adds its own. */
  kb.addStrings = function (defaults) {
    Object.keys(defaults).forEach(function (k) {
      if (typeof kb.strings[k] !== "string") kb.strings[k] = defaults[k];
    });
  };
  kb.addStrings(STRINGS);
  /** The text for `key` with {name} placeholders filled from `vars`. */
  kb.t = function (key, vars) {
    var s = kb.strings && typeof kb.strings[key] === "string" ? kb.strings[key] : key;
    return vars ? s.replace(/\{([a-z_]+)\}/g, function (m, name) { return name in vars ? String(vars[name]) : m; }) : s;
  };
  var t = kb.t;

  // ------------------------------------------------------------ the reader's version

  // The model of crates/search/src/version.rs (which the search module runs): a version is
  // numeric parts plus a suffix; entries carry parsed statements. A browser test checks that
  // both sides classify alike.
  var VERSION_KEY = "kbook-version";

  /** Parses `8.0.7`, `v2.0`, `vvr-6.0.7-flink-1.15`; null when it is not a version. */
  function parseVersion(text) {
    var s = String(text == null ? "" : text).trim();
    var start = s.search(/[0-9]/);
    if (!s || start < 0 || !/^[A-Za-z_-]*$/.test(s.slice(0, start))) return null;
    var rest = s.slice(start);
    var dash = rest.indexOf("-");
    var nums = (dash < 0 ? rest : rest.slice(0, dash)).split(".");
    var parts = [];
    for (var i = 0; i < nums.length; i++) {
      if (!/^\+?[0-9]{1,15}$/.test(nums[i])) return null;
      parts.push(Number(nums[i]));
    }
    return { parts: parts, suffix: dash < 0 ? "" : rest.slice(dash + 1).toLowerCase() };
  }

  function versionText(v) {
    return v.parts.join(".") + (v.suffix ? "-" + v.suffix : "");
  }

  function cmpVersion(a, b) {
    for (var i = 0; i < Math.max(a.parts.length, b.parts.length); i++) {
      var x = a.parts[i] || 0;
      var y = b.parts[i] || 0;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  }

  function clauseMatches(c, v) {
    var o = cmpVersion(v, c.version);
    var n = c.version.parts.length;
    var head = v.parts.length >= n && c.version.parts.every(function (p, i) { return v.parts[i] === p; });
    switch (c.op) {
      case "Ge": return o >= 0;
      case "Gt": return o > 0;
      case "Le": return o <= 0;
      case "Lt": return o < 0;
      case "Eq": return head && (!c.version.suffix || c.version.suffix === v.suffix);
      case "Prefix": return head;
      default: return false;
    }
  }

  /** How an entry's statements relate to `product` at version `v`, with the fix to show. */
  function versionMatch(specs, product, v) {
    var p = String(product).toLowerCase();
    var mine = (specs || []).filter(function (s) { return s && String(s.product).toLowerCase() === p; });
    var fixes = mine.map(function (s) { return s.fixed; }).filter(Boolean);
    var pick = function (keep, better) {
      var best = null;
      fixes.forEach(function (f) { if (keep(cmpVersion(f, v)) && (!best || better(cmpVersion(f, best)))) best = f; });
      return best ? versionText(best) : null;
    };
    // A version less precise than a bound it shares its parts with (8.0 against >=8.0.5)
    // names releases on both sides: it may apply (as the search module decides).
    // A bound that only adds zeros leaves every release on one side (>=8.0.0, <8.0.0, a fix in 8.0.0).
    var finer = function (b, op) {
      return b.parts.length > v.parts.length && v.parts.every(function (x, i) { return b.parts[i] === x; }) &&
        !(b.parts.slice(v.parts.length).every(function (p) { return p === 0; }) && (!op || op === "Ge" || op === "Lt"));
    };
    var m;
    if (!mine.length) m = "unknown";
    else if (mine.some(function (s) {
      return (s.fixed && finer(s.fixed)) || (s.affected && s.affected.clauses.some(function (c) { return finer(c.version, c.op); }));
    })) m = "vague";
    else if (mine.some(function (s) { return s.affected && s.affected.clauses.every(function (c) { return clauseMatches(c, v); }); })) m = "affected";
    else if (fixes.some(function (f) { return cmpVersion(v, f) >= 0; })) m = "fixed";
    else if (mine.every(function (s) { return !s.affected; })) m = "affected";
    else m = "not-affected";
    var fixed = m === "affected" ? pick(function (o) { return o > 0; }, function (o) { return o < 0; })
      : m === "fixed" ? pick(function (o) { return o <= 0; }, function (o) { return o > 0; }) : null;
    return { version_match: m, fixed_in: fixed };
  }

  /** `product=version` as typed; null unless both parts are valid. */
  function parseChoice(text) {
    var s = String(text || "");
    var eq = s.indexOf("=");
    if (eq < 0) return null;
    var product = s.slice(0, eq).trim().toLowerCase();
    var v = parseVersion(s.slice(eq + 1));
    if (!product || !v || !/^[a-z0-9_-]+$/.test(product)) return null;
    return { product: product, version: v, label: product + " " + versionText(v), param: product + "=" + versionText(v) };
  }

  /** The reader's chosen version ({product, version, label, param}) or null. */
  kb.readerVersion = function () { return parseChoice(storageGet(VERSION_KEY)); };
  /** Remembers `product` at `version` (text); clears the choice when either is empty. Returns
   *  the choice, null when cleared, or false when the version is not a version. */
  kb.setReaderVersion = function (product, version) {
    if (!product || !String(version || "").trim()) {
      storageRemove(VERSION_KEY);
      return null;
    }
    var c = parseChoice(product + "=" + version);
    if (!c) return false;
    storageSet(VERSION_KEY, c.param);
    return c;
  };
  kb.parseVersion = parseVersion;
  kb.versionMatch = function (specs, product, version) {
    var v = typeof version === "string" ? parseVersion(version) : version;
    return v ? versionMatch(specs, product, v) : null;
  };
  // ?version=vvr=8.0.7 chooses a version (remembered like a choice made in the picker). One
  // that is not a version is ignored, and the page says so (kb.badVersionParam).
  kb.badVersionParam = null;
  kb.badVersionProduct = null;
  (function () {
    var param = null;
    try { param = new URLSearchParams(location.search).get("version"); } catch (e) { param = null; }
    if (param === null) return;
    var c = parseChoice(param);
    // A product the book names no release of is no choice here (as `kbook search` refuses it).
    var known = meta("kbook-products");
    var unknown = null;
    if (c && known && known.split(",").indexOf(c.product) < 0) {
      unknown = c.product;
      c = null;
    }
    if (c) storageSet(VERSION_KEY, c.param);
    else if (!param.trim()) storageRemove(VERSION_KEY);
    else {
      kb.badVersionParam = param;
      kb.badVersionProduct = unknown;
    }
  })();

  /** What the page says of an address's `?version=` it ignored (see above), or "". */
  kb.badVersionNote = function () {
    if (kb.badVersionParam === null) return "";
    return kb.badVersionProduct
      ? t("version_param_unknown", { text: kb.badVersionParam, product: kb.badVersionProduct })
      : t("version_param_invalid", { text: kb.badVersionParam });
  };

  /** Fills each entry's "applies to your version" line from the remembered choice. */
  function showVersionStatus() {
    var choice = kb.readerVersion();
    var sections = doc.querySelectorAll("[data-kbook-versions]");
    for (var i = 0; i < sections.length; i++) {
      var line = sections[i].querySelector(".kbook-version-status");
      var specs = null;
      try { specs = JSON.parse(sections[i].getAttribute("data-kbook-versions") || "null"); } catch (e) { specs = null; }
      if (!line) continue;
      while (line.firstChild) line.removeChild(line.firstChild);
      var bad = kb.badVersionParam;
      if ((!choice && bad === null) || !Array.isArray(specs)) {
        line.hidden = true;
        continue;
      }
      var text = bad === null ? "" : kb.badVersionNote() + " ";
      if (choice) {
        var r = versionMatch(specs, choice.product, choice.version);
        var vars = { version: choice.label, product: choice.product, fixed: r.fixed_in };
        var key = r.version_match === "affected" ? (r.fixed_in ? "version_applies_fixed" : "version_applies")
          : r.version_match === "fixed" ? (r.fixed_in ? "version_fixed" : "version_not_affected")
          : r.version_match === "not-affected" ? "version_not_affected"
          : r.version_match === "vague" ? "version_vague" : "version_unknown";
        line.className = "kbook-version-status " + (r.version_match === "fixed" || r.version_match === "not-affected" ? "other" : "applies");
        line.setAttribute("data-match", r.version_match);
        text += t(key, vars);
      } else {
        line.className = "kbook-version-status other";
        line.setAttribute("data-match", "invalid");
      }
      line.appendChild(doc.createTextNode(text.trim() + " \u00b7 "));
      var change = doc.createElement("a");
      change.href = meta("kbook-mode") === "single-file" ? "#kb-search" : meta("kbook-root") + "search.html#kbook-version";
      change.textContent = t("version_change");
      line.appendChild(change);
      line.hidden = false;
    }
  }
  kb.showVersionStatus = showVersionStatus;

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
      copyText(getText()).then(function () { btn.textContent = t("copied"); }, function () { btn.textContent = t("copy_failed"); });
      clearTimeout(timer);
      timer = setTimeout(function () { btn.textContent = label; }, 2000);
    });
    return btn;
  }

  // ------------------------------------------------------------ highlighting

  function escapeRegExp(s) {
    return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  // One character of a script written without spaces (Han, kana, Hangul) is a word.
  var ONE_CHAR_WORD = /^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]$/;

  /**
   * The terms worth marking, lower-cased, each once: two characters or more; one Han, kana or
   * Hangul character only when nothing longer matched (a search for `慢`), since the lone
   * characters of a longer search would mark every 的 of the page.
   */
  function markableTerms(terms) {
    var words = [];
    (terms || []).forEach(function (t) {
      t = String(t).trim().toLowerCase();
      if (t && words.indexOf(t) < 0) words.push(t);
    });
    var long = words.filter(function (w) { return w.length >= 2; });
    return long.length ? long : words.filter(function (w) { return ONE_CHAR_WORD.test(w); });
  }
  kb.markableTerms = markableTerms;

  /** Wraps occurrences of `terms` inside `scope` in <mark class="kbook-hl">; returns the count. */
  function highlight(scope, terms) {
    var words = markableTerms(terms);
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
    note.appendChild(doc.createTextNode(t("highlight_note") + " "));
    var clear = doc.createElement("button");
    clear.type = "button";
    clear.className = "kbook-hl-clear";
    clear.textContent = t("highlight_clear");
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
    // The host's path of the site (the 404 page's <base>, from site-url) names no page.
    var base = doc.querySelector("base[href]");
    if (base) {
      var prefix = new URL(base.href).pathname;
      if (path.indexOf(prefix) === 0) path = path.slice(prefix.length);
    }
    try { path = decodeURIComponent(path); } catch (e) { /* keep it encoded */ }
    var skip = { html: 1, htm: 1, index: 1, md: 1, php: 1, aspx: 1 };
    var words = path.split(/[^A-Za-z0-9\u00C0-\uFFFF]+/).filter(function (w) {
      return w.length > 1 && !skip[w.toLowerCase()];
    });
    // The 404 page opened by its own name names no missing page.
    if (/(^|\/)404\.html?$/.test(path)) return;
    // A file:// path starts with the folders of the disk: keep the last few words only.
    words = words.slice(-6);
    if (!words.length) return;
    var q = words.join(" ");
    var link = box.querySelector("a.kbook-404-link");
    if (link) {
      link.href = link.getAttribute("href") + "?q=" + encodeURIComponent(q);
      link.textContent = t("not_found_search", { q: q });
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

  // The single file shows one section at a time (`#<entry>`): the tab, history and bookmarks
  // get its heading as the title, as the site's pages have their own.
  function singleFileTitle() {
    var book = doc.title;
    var update = function () {
      var id = decodeURIComponent(location.hash.slice(1));
      var target = id ? doc.getElementById(id) : null;
      var section = target && target.closest ? target.closest(".kb-page") : null;
      var h1 = section && section.id !== "kb-home" ? section.querySelector("h1") : null;
      var heading = h1 ? h1.textContent.trim() : "";
      doc.title = heading ? heading + " \u00b7 " + book : book;
    };
    update();
    window.addEventListener("hashchange", update);
  }

  function init() {
    if (meta("kbook-mode") === "single-file") singleFileTitle();
    // With a <base> (the 404 page), `#main` would resolve against the site's root and leave
    // the page: the skip link moves the focus itself.
    var skip = doc.querySelector(".skip-link");
    var main = doc.getElementById("main");
    if (skip && main && doc.querySelector("base[href]")) {
      skip.addEventListener("click", function (e) {
        e.preventDefault();
        main.focus();
      });
    }
    var toggle = doc.querySelector(".theme-toggle");
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(root.getAttribute("data-theme") === "dark"));
      var follows = preset !== "light" && preset !== "dark";
      toggle.addEventListener("click", function () {
        var next = root.getAttribute("data-theme") === "dark" ? "light" : "dark";
        root.setAttribute("data-theme", next);
        toggle.setAttribute("aria-pressed", String(next === "dark"));
        // Back to the system's theme is back to following the system.
        if (follows && next === system()) storageRemove(KEY);
        else storageSet(KEY, next);
      });
      // Without a choice of the reader's, the page follows the system as it changes.
      var scheme = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)");
      if (follows && scheme && scheme.addEventListener) {
        scheme.addEventListener("change", function () {
          var stored = storageGet(KEY);
          if (stored === "light" || stored === "dark") return;
          root.setAttribute("data-theme", system());
          toggle.setAttribute("aria-pressed", String(system() === "dark"));
        });
      }
    }
    var nav = doc.querySelector(".nav-toggle");
    var sidebar = doc.getElementById("sidebar");
    if (nav && sidebar) {
      var setOpen = function (open) {
        sidebar.classList.toggle("open", open);
        nav.setAttribute("aria-expanded", String(open));
        nav.setAttribute("aria-label", open ? t("nav_hide") : t("nav_show"));
      };
      nav.addEventListener("click", function () { setOpen(!sidebar.classList.contains("open")); });
      // Escape closes the open panel, as it closes the search results.
      doc.addEventListener("keydown", function (e) {
        if (e.key !== "Escape" || !sidebar.classList.contains("open")) return;
        if (e.target && e.target.closest && e.target.closest(".kbook-search")) return;
        setOpen(false);
        nav.focus();
      });
    }
    // Copy buttons on code blocks and error strings.
    var blocks = doc.querySelectorAll(".entry pre");
    for (var i = 0; i < blocks.length; i++) {
      (function (pre) {
        var code = pre.querySelector("code") || pre;
        var btn = copyButton(t("copy"), function () { return code.textContent; });
        btn.setAttribute("title", t("copy_title"));
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
        var btn = copyButton(t("copy_link"), function () {
          var href = holder.getAttribute("data-href");
          return href && href !== "#" ? href : location.href.split("?")[0];
        });
        btn.className = "copy-link-button";
        btn.setAttribute("title", t("copy_link_title"));
        holder.appendChild(btn);
        holder.hidden = false;
      })(links[j]);
    }
    // Terms of the search that led here (search.js adds ?highlight= to result links).
    var hl = null;
    try { hl = new URLSearchParams(location.search).get("highlight"); } catch (e) { hl = null; }
    if (hl && highlightEntry(doc.querySelector("article.entry"), hl.split(/\s+/)) && location.hash) {
      // The note added above the heading a result linked moved it down: back to it.
      var target = null;
      try { target = doc.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { target = null; }
      if (target) target.scrollIntoView();
    }

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
    showVersionStatus();
    var missing = doc.getElementById("kbook-404-search");
    if (missing) notFoundSearch(missing);
  }

  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", init);
  else init();
})();
