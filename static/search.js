// kbook search: loads the WebAssembly search module and the packed index on first use, and
// drives the search box on every page and the paste area on search.html.
//
// No framework and no build step; every text from the index reaches the page through DOM
// text APIs (textContent, createTextNode), never innerHTML, and there are no inline styles
// or scripts, so a strict Content-Security-Policy works (it needs 'wasm-unsafe-eval').
//
// Module ABI (crates/search-wasm): alloc/dealloc, open_index(ptr, len) -> 0 | -1,
// last_error() -> response, search(q, qlen, opts, optslen) -> response, where a response is
// [u32 LE length][UTF-8 JSON], read with result_len and released with free_result.
(function () {
  "use strict";

  var BOX_LIMIT = 8;
  var PAGE_LIMIT = 20;
  var FACET_LIMIT = 60;
  var BOX_DELAY_MS = 120;
  var PAGE_DELAY_MS = 200;
  // A pasted log beyond this is cut: the root cause is near the top, and it bounds the work.
  var MAX_QUERY_CHARS = 100000;

  function metaContent(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") || "" : "";
  }

  var root = metaContent("kbook-root");
  var assets = null;
  try {
    assets = JSON.parse(metaContent("kbook-search") || "null");
  } catch (e) {
    assets = null;
  }

  // ---------------------------------------------------------------- loading

  var enc = new TextEncoder();
  var dec = new TextDecoder();
  var loading = null; // Promise<Engine>

  function assetPath(key) {
    if (!assets || typeof assets[key] !== "string" || !assets[key]) {
      throw new Error("search is not configured on this page (missing " + key + " in the kbook-search meta tag)");
    }
    return assets[key];
  }

  function fetchBytes(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("could not load " + url + ": HTTP " + r.status);
      return r.arrayBuffer();
    });
  }

  function fetchModule(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("could not load " + url + ": HTTP " + r.status);
      if (typeof WebAssembly.compileStreaming !== "function") {
        return r.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
      }
      // Streaming needs the application/wasm content type; plain servers may not send it.
      var copy = r.clone();
      return WebAssembly.compileStreaming(r).catch(function () {
        return copy.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
      });
    });
  }

  // file:// blocks fetch, so the build also writes each binary as a script that stores its
  // base64 in window.__kbookAssets[<binary path as in the meta tag>].
  function scriptBytes(jsKey, binKey) {
    var bin = assetPath(binKey);
    var src = assetPath(jsKey);
    return new Promise(function (resolve, reject) {
      var store = window.__kbookAssets;
      if (store && typeof store[bin] === "string") {
        resolve(store[bin]);
        return;
      }
      var s = document.createElement("script");
      s.src = root + src;
      s.async = true;
      s.onload = function () {
        var data = window.__kbookAssets && window.__kbookAssets[bin];
        if (typeof data === "string") resolve(data);
        else reject(new Error(src + " did not define the search data for " + bin));
      };
      s.onerror = function () { reject(new Error("could not load " + src)); };
      document.head.appendChild(s);
    }).then(function (b64) {
      var raw = atob(b64);
      var out = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
      if (window.__kbookAssets) delete window.__kbookAssets[bin]; // free the string
      return out.buffer;
    });
  }

  function loadOverHttp() {
    return Promise.all([fetchModule(root + assetPath("wasm")), fetchBytes(root + assetPath("index"))]);
  }

  function loadFromScripts() {
    return Promise.all([
      scriptBytes("wasm_js", "wasm").then(function (b) { return WebAssembly.compile(b); }),
      scriptBytes("index_js", "index"),
    ]);
  }

  function instantiate(module, indexBytes) {
    return WebAssembly.instantiate(module, {}).then(function (inst) {
      var engine = new Engine(inst.exports, indexBytes);
      engine.module = module;
      return engine;
    });
  }

  // A failed load may be retried on the next use (e.g. after a network hiccup).
  function setLoading(p) {
    loading = p;
    p.catch(function () { if (loading === p) loading = null; });
  }

  function load() {
    if (!loading) {
      var http = location.protocol === "http:" || location.protocol === "https:";
      setLoading(Promise.resolve()
        .then(http ? loadOverHttp : loadFromScripts)
        .then(function (parts) { return instantiate(parts[0], new Uint8Array(parts[1])); }));
    }
    return loading;
  }

  // One instance of the module with the index open in it.
  function Engine(exports, indexBytes) {
    this.x = exports;
    this.indexBytes = indexBytes;
    var n = indexBytes.length;
    var p = this.x.alloc(n);
    if (!p && n) throw new Error("out of memory loading the search index");
    new Uint8Array(this.x.memory.buffer, p, n).set(indexBytes);
    if (this.x.open_index(p, n) !== 0) { // open_index owns the buffer either way
      var err = this.take(this.x.last_error());
      throw new Error("cannot open the search index: " + (err.error || "unknown error"));
    }
  }

  // Copies bytes into module memory; the caller deallocs.
  Engine.prototype.put = function (bytes) {
    var p = bytes.length ? this.x.alloc(bytes.length) : 0;
    if (bytes.length && !p) throw new Error("out of memory");
    if (bytes.length) new Uint8Array(this.x.memory.buffer, p, bytes.length).set(bytes);
    return p;
  };

  // Reads and frees a response.
  Engine.prototype.take = function (ptr) {
    if (!ptr) throw new Error("out of memory");
    var len = this.x.result_len(ptr);
    // A fresh view: memory.buffer is replaced whenever the module's memory grows.
    var text = dec.decode(new Uint8Array(this.x.memory.buffer, ptr + 4, len).slice());
    this.x.free_result(ptr);
    return JSON.parse(text);
  };

  Engine.prototype.query = function (q, opts) {
    try {
      return this.run(q, opts);
    } catch (e) {
      // A trap (the module should never panic) leaves this instance unusable: the next
      // search gets a fresh one; this one is reported as failed.
      if (e instanceof WebAssembly.RuntimeError) {
        var bytes = this.indexBytes;
        var module = this.module;
        setLoading(instantiate(module, bytes));
        throw new Error("search failed: " + e.message);
      }
      throw e;
    }
  };

  Engine.prototype.run = function (q, opts) {
    var qb = enc.encode(q);
    var ob = enc.encode(JSON.stringify(opts));
    var qp = this.put(qb);
    var op = this.put(ob);
    var res;
    try {
      res = this.take(this.x.search(qp, qb.length, op, ob.length));
    } finally {
      if (qb.length) this.x.dealloc(qp, qb.length);
      if (ob.length) this.x.dealloc(op, ob.length);
    }
    if (res.error) throw new Error(res.error);
    return res;
  };

  // ---------------------------------------------------------------- public API

  function cleanOptions(opts) {
    opts = opts || {};
    var out = {};
    if (opts.limit != null) out.limit = Math.max(0, Math.floor(Number(opts.limit)) || 0);
    ["connector", "kind", "version"].forEach(function (k) {
      if (opts[k] != null && String(opts[k]) !== "") out[k] = String(opts[k]);
    });
    return out;
  }

  function rawSearch(q, opts) {
    var text = String(q == null ? "" : q).slice(0, MAX_QUERY_CHARS);
    return load().then(function (engine) {
      var res = engine.query(text, cleanOptions(opts));
      res.hits.forEach(function (h) { h.url = root + h.url; });
      return res;
    });
  }

  window.kbook = window.kbook || {};
  /** Starts loading the module and index; resolves when search is ready. */
  window.kbook.ready = function () { return load().then(function () { return true; }); };
  /** Searches; hits as [{id, url (relative to this page), title, connector, kind, score, matched_error, snippet}]. */
  window.kbook.search = function (q, opts) {
    return rawSearch(q, opts).then(function (res) { return res.hits; });
  };
  /** Like search, with the "confident" flag: {hits, confident}. */
  window.kbook.searchResults = rawSearch;

  // ---------------------------------------------------------------- rendering

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // Snippet text with <mark>s; highlights are [start, end) in Unicode code points.
  function snippetNode(snippet, cls) {
    var node = el("div", cls);
    if (!snippet || !snippet.text) return node;
    var chars = Array.from(snippet.text);
    var ranges = (snippet.highlights || []).slice().sort(function (a, b) { return a[0] - b[0]; });
    var pos = 0;
    ranges.forEach(function (r) {
      var start = Math.max(pos, Math.min(r[0], chars.length));
      var end = Math.max(start, Math.min(r[1], chars.length));
      if (start > pos) node.appendChild(document.createTextNode(chars.slice(pos, start).join("")));
      if (end > start) node.appendChild(el("mark", null, chars.slice(start, end).join("")));
      pos = Math.max(pos, end);
    });
    if (pos < chars.length) node.appendChild(document.createTextNode(chars.slice(pos).join("")));
    return node;
  }

  function badges(hit) {
    var b = el("span", "kbook-hit-badges");
    b.appendChild(el("span", "badge connector", hit.connector));
    b.appendChild(document.createTextNode(" "));
    b.appendChild(el("span", "badge kind-" + String(hit.kind).replace(/[^a-z0-9-]/gi, ""), hit.kind));
    return b;
  }

  // The body of one hit (used by the dropdown and the results page).
  function hitContent(hit, container, titleTag) {
    var head = el("div", "kbook-hit-head");
    head.appendChild(el(titleTag, "kbook-hit-title", hit.title));
    head.appendChild(badges(hit));
    container.appendChild(head);
    if (hit.matched_error) container.appendChild(el("code", "kbook-hit-error", hit.matched_error));
    if (hit.snippet && hit.snippet.text) container.appendChild(snippetNode(hit.snippet, "kbook-hit-snippet"));
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function searchPageUrl(q) {
    return root + "search.html?q=" + encodeURIComponent(q);
  }

  function debounce(fn, ms) {
    var t = null;
    return function () {
      var args = arguments;
      clearTimeout(t);
      t = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  // ---------------------------------------------------------------- header search box

  var boxCount = 0;

  function SearchBox(form) {
    var self = this;
    this.form = form;
    this.input = form.querySelector('input[type="search"]');
    this.panel = form.querySelector(".kbook-search-results");
    if (!this.input || !this.panel) return;
    this.uid = "kbook-box-" + boxCount++;
    this.items = [];
    this.active = -1;
    this.seq = 0;
    this.panel.id = this.panel.id || this.uid + "-results";
    this.input.setAttribute("role", "combobox");
    this.input.setAttribute("aria-autocomplete", "list");
    this.input.setAttribute("aria-controls", this.panel.id);
    this.input.setAttribute("aria-expanded", "false");

    var run = debounce(function () { self.update(); }, BOX_DELAY_MS);
    this.input.addEventListener("focus", function () {
      load().catch(function () { /* shown when the user types */ });
      if (self.input.value.trim() && self.items.length) self.open();
    });
    this.input.addEventListener("input", run);
    this.input.addEventListener("keydown", function (e) { self.key(e); });
    document.addEventListener("click", function (e) {
      if (!self.form.contains(e.target)) self.close();
    });
  }

  SearchBox.prototype.open = function () {
    this.panel.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
  };

  SearchBox.prototype.close = function () {
    this.panel.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.select(-1);
  };

  SearchBox.prototype.message = function (text, cls) {
    clear(this.panel);
    this.items = [];
    this.active = -1;
    this.panel.appendChild(el("div", "kbook-search-message" + (cls ? " " + cls : ""), text));
    this.open();
  };

  SearchBox.prototype.update = function () {
    var self = this;
    var q = this.input.value;
    var seq = ++this.seq;
    if (!q.trim()) {
      this.close();
      clear(this.panel);
      this.items = [];
      return;
    }
    if (!loading) this.message("Loading search…");
    rawSearch(q, { limit: BOX_LIMIT }).then(
      function (res) { if (seq === self.seq) self.render(q, res); },
      function (err) { if (seq === self.seq) self.message("Search is unavailable: " + err.message, "kbook-search-error"); }
    );
  };

  SearchBox.prototype.render = function (q, res) {
    var self = this;
    clear(this.panel);
    this.items = [];
    this.active = -1;
    var list = el("ul", "kbook-search-list");
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Search results");
    if (!res.hits.length) {
      this.panel.appendChild(el("div", "kbook-search-message", "No entries match."));
    } else if (!res.confident) {
      this.panel.appendChild(el("div", "kbook-search-message", "No confident match; closest entries:"));
    }
    res.hits.forEach(function (hit, i) {
      var li = el("li", "kbook-search-item");
      var a = el("a", "kbook-hit");
      a.href = hit.url;
      a.id = self.uid + "-opt-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.tabIndex = -1;
      a.setAttribute("data-id", hit.id);
      hitContent(hit, a, "span");
      li.appendChild(a);
      list.appendChild(li);
      self.items.push(a);
    });
    this.panel.appendChild(list);
    var all = el("a", "kbook-search-all", "All results for this search on the search page →");
    all.href = searchPageUrl(q);
    this.panel.appendChild(all);
    this.open();
  };

  SearchBox.prototype.select = function (i) {
    if (this.active >= 0 && this.items[this.active]) {
      this.items[this.active].setAttribute("aria-selected", "false");
      this.items[this.active].classList.remove("active");
    }
    this.active = i;
    if (i >= 0 && this.items[i]) {
      this.items[i].setAttribute("aria-selected", "true");
      this.items[i].classList.add("active");
      this.input.setAttribute("aria-activedescendant", this.items[i].id);
      if (this.items[i].scrollIntoView) this.items[i].scrollIntoView({ block: "nearest" });
    } else {
      this.input.removeAttribute("aria-activedescendant");
    }
  };

  SearchBox.prototype.key = function (e) {
    var n = this.items.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      if (!n) return;
      e.preventDefault();
      if (this.panel.hidden) this.open();
      var step = e.key === "ArrowDown" ? 1 : -1;
      this.select(this.active < 0 ? (step > 0 ? 0 : n - 1) : (this.active + step + n) % n);
    } else if (e.key === "Enter") {
      // With a highlighted result, open it; otherwise the form goes to search.html?q=.
      if (this.active >= 0 && this.items[this.active] && !this.panel.hidden) {
        e.preventDefault();
        window.location.href = this.items[this.active].href;
      }
    } else if (e.key === "Escape") {
      if (!this.panel.hidden) {
        e.preventDefault();
        this.close();
      } else {
        this.input.blur();
      }
    }
  };

  // ---------------------------------------------------------------- search.html

  function SearchPage(form, results) {
    var self = this;
    this.form = form;
    this.area = form.querySelector("textarea");
    this.results = results;
    this.status = document.getElementById("kbook-search-status");
    this.facets = document.getElementById("kbook-facets");
    this.filters = { connector: "", kind: "" };
    this.seq = 0;
    if (!this.area) return;

    var params = new URLSearchParams(location.search);
    this.area.value = params.get("q") || "";
    this.filters.connector = params.get("connector") || "";
    this.filters.kind = params.get("kind") || "";

    var run = debounce(function () { self.update(); }, PAGE_DELAY_MS);
    this.area.addEventListener("input", run);
    this.area.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        self.update();
      }
    });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      self.update();
    });
    // The page exists to search: load at once.
    load().catch(function (err) { self.setStatus("Search is unavailable: " + err.message); });
    if (this.area.value.trim()) this.update();
    else this.area.focus();
  }

  SearchPage.prototype.setStatus = function (text) {
    if (this.status) this.status.textContent = text;
  };

  // Keeps ?q=&connector=&kind= in the address bar so the search can be shared.
  SearchPage.prototype.syncUrl = function (q) {
    if (!window.history || !history.replaceState) return;
    var params = new URLSearchParams();
    if (q) params.set("q", q);
    if (this.filters.connector) params.set("connector", this.filters.connector);
    if (this.filters.kind) params.set("kind", this.filters.kind);
    var s = params.toString();
    try {
      history.replaceState(null, "", location.pathname + (s ? "?" + s : ""));
    } catch (e) {
      // Some browsers refuse replaceState on file:// URLs; the search still works.
    }
  };

  SearchPage.prototype.update = function () {
    var self = this;
    var q = this.area.value;
    var seq = ++this.seq;
    this.syncUrl(q.trim() ? q : "");
    if (!q.trim()) {
      clear(this.results);
      if (this.facets) clear(this.facets);
      this.setStatus("");
      return;
    }
    if (!loading) this.setStatus("Loading search…");
    var started = 0;
    var filters = this.filters;
    // Facets come from the unfiltered result set; the list honours the chosen chips. The
    // time shown is the search itself, not the first load of the module.
    load().then(function () {
      started = (window.performance || Date).now();
      return Promise.all([
        rawSearch(q, { limit: FACET_LIMIT }),
        rawSearch(q, { limit: PAGE_LIMIT, connector: filters.connector, kind: filters.kind }),
      ]);
    }).then(
      function (r) {
        if (seq !== self.seq) return;
        var ms = Math.round((window.performance || Date).now() - started);
        self.renderFacets(r[0]);
        self.render(r[1], ms);
      },
      function (err) {
        if (seq === self.seq) self.setStatus("Search failed: " + err.message);
      }
    );
  };

  SearchPage.prototype.renderFacets = function (res) {
    var self = this;
    if (!this.facets) return;
    clear(this.facets);
    [["connector", "Connector"], ["kind", "Kind"]].forEach(function (f) {
      var key = f[0];
      var counts = {};
      res.hits.forEach(function (h) { counts[h[key]] = (counts[h[key]] || 0) + 1; });
      var chosen = self.filters[key];
      if (chosen && !(chosen in counts)) counts[chosen] = 0;
      var values = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
      if (!values.length) return;
      var group = el("div", "kbook-facet-group");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", f[1]);
      group.appendChild(el("span", "kbook-facet-label", f[1] + ":"));
      values.forEach(function (v) {
        var chip = el("button", "kbook-chip");
        chip.type = "button";
        chip.setAttribute("data-facet", key);
        chip.setAttribute("data-value", v);
        chip.setAttribute("aria-pressed", String(chosen === v));
        chip.appendChild(document.createTextNode(v + " "));
        chip.appendChild(el("span", "count", String(counts[v])));
        chip.addEventListener("click", function () {
          self.filters[key] = self.filters[key] === v ? "" : v;
          self.update();
        });
        group.appendChild(chip);
      });
      self.facets.appendChild(group);
    });
  };

  SearchPage.prototype.render = function (res, ms) {
    clear(this.results);
    var hits = res.hits;
    var filtered = this.filters.connector || this.filters.kind;
    if (!hits.length) {
      this.results.appendChild(el("p", "kbook-no-match", filtered
        ? "No entries match with these filters. Clear a chip to widen the search."
        : "No entries match. Try the first line of the error or its \u201cCaused by:\u201d line."));
      this.setStatus("No results");
      return;
    }
    if (!res.confident) {
      var note = el("div", "kbook-no-confident");
      note.appendChild(el("strong", null, "No confident match."));
      note.appendChild(document.createTextNode(
        " These entries are the closest; paste the exception message or its \u201cCaused by:\u201d line for a better match."));
      this.results.appendChild(note);
    }
    var list = el("ol", "kbook-results" + (res.confident ? "" : " kbook-results-weak"));
    hits.forEach(function (hit) {
      var li = el("li", "kbook-result");
      li.setAttribute("data-id", hit.id);
      var a = el("a", "kbook-hit");
      a.href = hit.url;
      hitContent(hit, a, "span");
      li.appendChild(a);
      list.appendChild(li);
    });
    this.results.appendChild(list);
    this.setStatus(hits.length + (hits.length === 1 ? " result" : " results") + " in " + ms + " ms");
  };

  // ---------------------------------------------------------------- wiring

  function isTyping(target) {
    if (!target) return false;
    var tag = target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || target.isContentEditable;
  }

  function init() {
    var forms = document.querySelectorAll("form.kbook-search");
    for (var i = 0; i < forms.length; i++) new SearchBox(forms[i]);
    var pageForm = document.querySelector("form.kbook-search-page");
    var pageResults = document.getElementById("kbook-search-page-results");
    if (pageForm && pageResults) new SearchPage(pageForm, pageResults);

    // "/" focuses the search (the paste area on search.html).
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      var target = (pageForm && pageForm.querySelector("textarea")) || document.querySelector("form.kbook-search input[type=search]");
      if (target) {
        e.preventDefault();
        target.focus();
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
