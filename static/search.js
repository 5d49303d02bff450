// kbook search: loads the WebAssembly search module and the packed index on first use, and
// drives the search box on every page and the paste area on search.html. Pages load this
// script lazily (theme.js, on first focus of the search box); search.html loads it at once.
// In a single-file book (`kbook build --single-file`) it is inline, the module and index are
// base64 in <script type="text/plain"> data blocks, and results link to #<entry id>.
//
// No framework and no build step; every text from the index reaches the page through DOM
// text APIs (textContent, createTextNode), never innerHTML, and there are no inline styles
// or scripts, so a strict Content-Security-Policy works (it needs 'wasm-unsafe-eval').
//
// Module ABI (crates/search-wasm): alloc/dealloc, open_index(ptr, len) -> response,
// add_block(i, ptr, len) -> response, search(q, qlen, opts, optslen) -> response, where a response is
// [u32 LE length][UTF-8 JSON], read with result_len and released with free_result.
(function () {
  "use strict";

  if (window.kbook && window.kbook.searchLoaded) return;

  var BOX_LIMIT = 8;
  var RECENT_KEY = "kbook-recent";
  var PASTE_KEY = "kbook-paste-";
  var RECENT_MAX = 8;
  var PAGE_LIMIT = 20;
  var FACET_LIMIT = 60;
  var BOX_DELAY_MS = 120;
  var PAGE_DELAY_MS = 200;
  // Of a longer paste the module reads the first and last 128 KiB of UTF-8 (as `kbook search`
  // does); this many characters at each end always hold them, so passing only these changes
  // nothing and bounds the copy into the module.
  var KEEP_QUERY_CHARS = 131072;
  // Longer searches are not put in the address (servers refuse long URLs): the tab keeps
  // them in sessionStorage and the address names them by a hash.
  var URL_QUERY_CHARS = 2000;

  // The English texts of the search UI; the page may translate them (see theme.js).
  var STRINGS = {
    loading: "Loading search\u2026",
    unavailable: "Search is unavailable: {error}",
    failed: "Search failed: {error}",
    too_long: "this search needs more of the index than one search loads; search for the error lines only",
    recent: "Recent searches",
    results_label: "Search results",
    box_no_match: "No entries match. Try the exception message or its \u201cCaused by:\u201d line; the search page has more tips.",
    box_weak: "No confident match. The nearest entries:",
    box_all: "All results for this search on the search page \u2192",
    no_match: "No entries match.",
    no_match_filtered: "No entries match with these filters.",
    no_match_filtered_hint: "Clear a chip to widen the search.",
    no_confident: "No confident match.",
    no_confident_more: "The nearest entries are listed below.",
    best_match: "Best match",
    results: "Results",
    nearest: "Nearest entries",
    status_none: "No results",
    more_results: "Show {n} more",
    status_one: "{n} result in {ms} ms",
    status_many: "{n} results in {ms} ms",
    status_of: "{n} of {total} results in {ms} ms",
    announce_one: "{n} result",
    announce_many: "{n} results",
    announce_of: "{n} of {total} results",
    paste_missing: "This address names a long search that only the browser tab which ran it keeps. Paste the error again to search.",
    paste_cut: "This paste is long: its first and last {k}K characters were searched, where a log's failure usually is. Paste the part around the error for a closer match.",
    facet_connector: "Connector",
    facet_kind: "Kind",
    facet_label: "{name}:",
    tips_title: "Tips:",
    tip_paste: "Paste the exception message itself, or its \u201cCaused by:\u201d line, rather than the whole log.",
    tip_values: "Leave out values from your environment: host names, table names, ids and timestamps.",
    tip_fewer: "Try fewer words: the class name of the exception, or the error code.",
    tip_index: "Browse the {link} (every error message, A\u2013Z).",
    tip_index_link: "error index",
    version_mark_other: "Not your version",
    version_mark_other_fixed: "Not your version: fixed in {fixed}",
    version_mark_affected: "Affects {version}",
    version_mark_vague: "May affect {version}: depends on the exact release",
    version_mark_affected_fixed: "Affects {version}, fixed in {fixed}",
    version_help: "Pick your product and type or pick its version: entries that do not affect it are listed last and marked.",
    version_active: "Results for {version}: entries that do not affect it are listed last and marked.",
    version_invalid: "\u201c{text}\u201d is not a version: use numbers such as 8.0.7.",
    best_other_version: "The best match does not affect {version}: it is listed after the entries that may, marked.",
  };
  var kb = (window.kbook = window.kbook || {});
  if (kb.addStrings) kb.addStrings(STRINGS);
  // Without theme.js (a site `kbook index` searches, or a book that replaced theme.js with an
  // older copy), the page's kbook-strings meta still gives its language's texts.
  if (!kb.strings) {
    kb.strings = {};
    try {
      var meta = document.querySelector('meta[name="kbook-strings"]');
      var given = JSON.parse((meta && meta.getAttribute("content")) || "{}") || {};
      Object.keys(given).forEach(function (k) {
        if (typeof given[k] === "string") kb.strings[k] = given[k];
      });
    } catch (e) { /* English, then */ }
  }
  // kb.t comes from theme.js.
  function t(key, vars) {
    if (kb.t) return kb.t(key, vars);
    var text = kb.strings[key] || STRINGS[key] || key;
    return vars ? text.replace(/\{([a-z_]+)\}/g, function (m, n) { return n in vars ? String(vars[n]) : m; }) : text;
  }

  function kindLabel(kind) {
    var label = kb.strings && kb.strings["kind_" + kind];
    return typeof label === "string" ? label : kind;
  }

  // A connector's name as book.toml gives it (the page carries the names that differ from
  // the slug), else its slug.
  function connectorLabel(slug) {
    var label = kb.strings && kb.strings["connector_" + slug];
    return typeof label === "string" ? label : slug;
  }

  // A visually hidden live region: screen readers announce what it is given, once per
  // change (a search repeated as the reader types says nothing new).
  function liveRegion(parent) {
    var region = el("div", "kbook-live");
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    parent.appendChild(region);
    return function (text) {
      if (region.textContent !== text) region.textContent = text;
    };
  }

  // What goes between a sentence and the next: nothing after a full-width stop (`。`).
  function gapAfter(sentence) {
    return /[\u3002\uff01\uff1f\uff1a]$/.test(sentence) ? "" : " ";
  }

  function sentences(a, b) {
    return a + gapAfter(a) + b;
  }

  // What a live region says about results: their number (`of`: out of how many, when the
  // page shows fewer), and whether none is a confident match (the list shows that by its
  // place and marks, which a screen reader does not see).
  function resultsAnnouncement(res, n, of) {
    var count = of != null
      ? t("announce_of", { n: n, total: of })
      : t(n === 1 ? "announce_one" : "announce_many", { n: n });
    var moved = bestOtherVersion(res);
    if (moved) return sentences(moved, count);
    return res.confident ? count : sentences(t("no_confident"), count);
  }

  // The reader's version as the search module takes it (`vvr=8.0.7`), or "" (theme.js keeps it).
  function versionParam() {
    var c = kb.readerVersion ? kb.readerVersion() : null;
    return c ? c.param : "";
  }

  function metaContent(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") || "" : "";
  }

  var root = metaContent("kbook-root");
  var single = metaContent("kbook-mode") === "single-file";
  var SEARCH_SECTION = "kb-search";
  var assets = null; // search/manifest.*: where the module and the index are

  // ---------------------------------------------------------------- loading

  var enc = new TextEncoder();
  var dec = new TextDecoder();
  var loading = null; // Promise<Engine>

  function assetPath(key) {
    if (!assets || typeof assets[key] !== "string" || !assets[key]) {
      throw new Error("the search manifest names no " + key + " file");
    }
    return assets[key];
  }

  function fetchBytes(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) {
        var e = new Error("could not load " + url + ": HTTP " + r.status);
        e.status = r.status;
        throw e;
      }
      return r.arrayBuffer();
    });
  }

  function fetchModule(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("could not load " + url + ": HTTP " + r.status);
      // Streaming compiles as the bytes arrive but needs the application/wasm content type,
      // which plain servers may not send. The type decides up front: a cloned response kept
      // for a fallback would hold a second copy of the body that nothing reads.
      var type = (r.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
      if (typeof WebAssembly.compileStreaming === "function" && type === "application/wasm") {
        return WebAssembly.compileStreaming(r);
      }
      return r.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
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

  function base64Bytes(b64) {
    var raw = atob(b64);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out.buffer;
  }

  // Single-file book: the bytes are in <script type="text/plain" id="kbook-data-…"> blocks.
  function embeddedBytes(key) {
    var block = document.getElementById("kbook-data-" + key);
    if (!block) throw new Error("this single-file book has no embedded search " + key);
    return base64Bytes(block.textContent.replace(/\s+/g, ""));
  }

  function loadEmbedded() {
    return WebAssembly.compile(embeddedBytes("wasm")).then(function (module) {
      return [module, embeddedBytes("index")];
    });
  }

  // The manifest is the one search file with a fixed name (pages do not name the index, so
  // an edited entry changes no other page). Over http it is fetched past caches, as it may
  // change with any build; file:// pages load it as a script.
  function loadManifest(http) {
    var done = function (m) {
      if (!m || typeof m !== "object") throw new Error("search/manifest is not a search manifest");
      assets = m;
    };
    if (http) {
      return fetch(root + "search/manifest.json?t=" + Date.now(), { cache: "no-store" }).then(function (r) {
        if (!r.ok) throw new Error("could not load search/manifest.json: HTTP " + r.status);
        return r.json();
      }).then(done);
    }
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = root + "search/manifest.js";
      s.async = true;
      s.onload = function () { resolve(window.__kbookSearch); };
      s.onerror = function () { reject(new Error("could not load search/manifest.js")); };
      document.head.appendChild(s);
    }).then(done);
  }

  // Over http the index is split into blocks: the page loads the small head, and each search
  // fetches the blocks it needs (the module says which). Pages from older builds have no head.
  function loadOverHttp() {
    var lazy = assets && typeof assets.head === "string" && typeof assets.blocks === "string";
    return Promise.all([
      fetchModule(root + assetPath("wasm")),
      fetchBytes(root + assetPath(lazy ? "head" : "index")),
      lazy ? root + assets.blocks : null,
    ]);
  }

  function loadFromScripts() {
    return Promise.all([
      scriptBytes("wasm_js", "wasm").then(function (b) { return WebAssembly.compile(b); }),
      scriptBytes("index_js", "index"),
    ]);
  }

  // The exports this script calls, and the version of what they mean: a module from another
  // build (a stale cache) may lack them or give the same names other meanings.
  var ABI = ["memory", "abi_version", "alloc", "dealloc", "open_index", "add_block", "search", "result_len", "free_result"];
  var ABI_VERSION = 2;

  // blocksUrl: where the index blocks are (null when indexBytes is the whole index).
  function instantiate(module, indexBytes, blocksUrl) {
    return WebAssembly.instantiate(module, {}).then(function (inst) {
      var missing = ABI.filter(function (k) { return !(k in inst.exports); });
      if (missing.length) {
        throw new Error("the search module does not match this page (no " + missing.join(", ") + ")");
      }
      if (inst.exports.abi_version() !== ABI_VERSION) {
        throw new Error("the search module does not match this page (ABI " + inst.exports.abi_version() + ", not " + ABI_VERSION + ")");
      }
      var engine = new Engine(inst.exports, indexBytes, blocksUrl || null);
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
      setLoading((single ? Promise.resolve() : loadManifest(http))
        .then(single ? loadEmbedded : http ? loadOverHttp : loadFromScripts)
        .then(function (parts) { return instantiate(parts[0], new Uint8Array(parts[1]), parts[2]); })
        .catch(function (e) { throw unavailable(e); }));
    }
    return loading;
  }

  // A corrupt, truncated or mismatched module or index is fixed by rebuilding the site; say
  // so. (A network failure is not: fetch rejects with a TypeError then.)
  function unavailable(e) {
    var m = (e && e.message) || String(e);
    if (e instanceof TypeError) return e;
    if (!/rebuild/i.test(m)) m += " \u2014 rebuild the site (kbook build)";
    return new Error(m);
  }

  // One instance of the module with the index open in it.
  function Engine(exports, indexBytes, blocksUrl) {
    this.x = exports;
    this.indexBytes = indexBytes;
    this.blocksUrl = blocksUrl;
    this.pending = {}; // block index -> Promise of its addition
    this.loaded = {}; // block index -> true once the module holds it
    var n = indexBytes.length;
    var p = this.x.alloc(n);
    if (!p && n) throw new Error("out of memory loading the search index");
    new Uint8Array(this.x.memory.buffer, p, n).set(indexBytes);
    var opened = this.take(this.x.open_index(p, n)); // open_index owns the buffer either way
    if (!opened.ok) {
      throw new Error("cannot open the search index: " + (opened.error || "unknown error"));
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
        setLoading(instantiate(this.module, this.indexBytes, this.blocksUrl));
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

  // A search needs at most a few rounds (term dictionaries, postings, stored fields).
  var MAX_ROUNDS = 12;

  // Searches, fetching the index blocks the module asks for between attempts.
  Engine.prototype.search = function (q, opts) {
    var self = this;
    var rounds = 0;
    function attempt() {
      var res = self.query(q, opts);
      if (!res.need) return res;
      // Asked again for a block it already holds (never expected: a block from another build
      // fails its checksum in add_block): stop rather than fetch it forever.
      if (!self.blocksUrl || res.need.some(function (i) { return self.loaded[i]; })) {
        throw new Error("the search index is incomplete \u2014 rebuild the site (kbook build)");
      }
      if (++rounds > MAX_ROUNDS) {
        throw new Error(t("too_long"));
      }
      return Promise.all(res.need.map(function (i) { return self.block(i); })).then(attempt);
    }
    return Promise.resolve().then(attempt);
  };

  // Fetches block i once and hands it to the module.
  Engine.prototype.block = function (i) {
    var self = this;
    if (!self.pending[i]) {
      var p = fetchBytes(self.blocksUrl + i + ".bin").then(function (buf) {
        var bytes = new Uint8Array(buf);
        var ptr = self.put(bytes); // add_block owns the buffer either way
        var added = self.take(self.x.add_block(i, ptr, bytes.length));
        if (!added.ok) {
          throw new Error("cannot load search index block " + i + ": " + (added.error || "unknown error"));
        }
        self.loaded[i] = true;
      });
      // A failed fetch may be retried by a later search. A block that is gone belongs to an
      // index the site no longer has: it was built again since this page loaded.
      p = p.catch(function (e) {
        if (self.pending[i] === p) delete self.pending[i];
        if (e && (e.status === 404 || e.status === 410)) e.stale = true;
        throw e;
      });
      self.pending[i] = p;
    }
    return self.pending[i];
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

  // What the module reads of a paste (see KEEP_QUERY_CHARS).
  function clampQuery(text) {
    if (text.length <= 2 * KEEP_QUERY_CHARS) return text;
    return text.slice(0, KEEP_QUERY_CHARS) + "\n" + text.slice(text.length - KEEP_QUERY_CHARS);
  }

  // One search; when the index this page loaded has gone from the site (a new build), the
  // new one is loaded (the manifest names it) and the search runs once more on it.
  function searchOnce(text, opts, retried) {
    return load().then(function (engine) {
      return engine.search(text, opts);
    }).catch(function (e) {
      if (!e || !e.stale || retried) throw e;
      loading = null;
      return searchOnce(text, opts, true);
    });
  }

  function rawSearch(q, opts) {
    var text = clampQuery(String(q == null ? "" : q));
    return searchOnce(text, cleanOptions(opts), false).then(function (res) {
      res.hits.forEach(function (h) { h.url = single ? "#" + h.id : root + h.url; });
      return res;
    });
  }

  window.kbook = window.kbook || {};
  window.kbook.searchLoaded = true;
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
    // The heading of the passage's section leads it, as a label.
    if (snippet.section) {
      node.appendChild(el("span", "kbook-hit-section", snippet.section));
      node.appendChild(document.createTextNode(" \u2014 "));
    }
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
    b.appendChild(el("span", "badge connector", connectorLabel(hit.connector)));
    b.appendChild(document.createTextNode(" "));
    b.appendChild(el("span", "badge kind-" + String(hit.kind).replace(/[^a-z0-9-]/gi, ""), kindLabel(hit.kind)));
    return b;
  }

  // How a hit relates to the reader's version (searches with a version only): entries that do
  // not affect it are listed last, and say so.
  function versionMark(hit) {
    var m = hit.version_match;
    var choice = kb.readerVersion ? kb.readerVersion() : null;
    if (!m || m === "unknown" || !choice) return null;
    var vars = { version: choice.label, fixed: hit.fixed_in };
    if (m === "affected") {
      return el("span", "kbook-version-mark applies", t(hit.fixed_in ? "version_mark_affected_fixed" : "version_mark_affected", vars));
    }
    if (m === "vague") return el("span", "kbook-version-mark applies", t("version_mark_vague", vars));
    return el("span", "kbook-version-mark other", t(m === "fixed" && hit.fixed_in ? "version_mark_other_fixed" : "version_mark_other", vars));
  }

  // The search was confident in an entry that does not affect the reader's version: the
  // sentence that says so, or "" (it is listed last, and "no confident match" would read as
  // "not documented").
  function bestOtherVersion(res) {
    var choice = kb.readerVersion ? kb.readerVersion() : null;
    if (!res.best_other_version || !choice) return "";
    return t("best_other_version", { version: choice.label });
  }

  // Whether hit `i` of `res` is the one the search is confident in.
  function isBest(res, hit, i) {
    return res.confident ? i === 0 : !!res.best_other_version && hit.id === res.best_other_version;
  }

  function appliesToReader(hit) {
    return hit.version_match !== "fixed" && hit.version_match !== "not-affected";
  }

  // The body of one hit (used by the dropdown and the results page).
  // `best`: the search is confident in this hit (the first of a confident search).
  function hitContent(hit, container, titleTag, best) {
    var head = el("div", "kbook-hit-head");
    if (best) head.appendChild(el("span", "kbook-best-match", t("best_match")));
    head.appendChild(el(titleTag, "kbook-hit-title", hit.title));
    head.appendChild(badges(hit));
    var mark = versionMark(hit);
    if (mark) head.appendChild(mark);
    container.appendChild(head);
    if (hit.matched_error) container.appendChild(el("code", "kbook-hit-error", hit.matched_error));
    if (hit.snippet && hit.snippet.text) container.appendChild(snippetNode(hit.snippet, "kbook-hit-snippet"));
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function searchPageUrl(q) {
    if (single) return "#" + SEARCH_SECTION;
    return root + "search.html?" + queryParam(q).toString();
  }

  // `q=` with the search, or for a long one `paste=` with the key it is kept under in this
  // tab's sessionStorage (where storage fails, `q=` after all).
  function queryParam(q) {
    var params = new URLSearchParams();
    if (q.length > URL_QUERY_CHARS) {
      // Only what is searched is kept: a log of megabytes would not fit the storage.
      q = clampQuery(q);
      var h = 0x811c9dc5;
      for (var i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 16777619) >>> 0;
      var key = h.toString(16);
      // Each edit of a long paste keeps a new copy: when the storage is full, the older ones
      // go (their addresses then open an empty search).
      for (var attempt = 0; attempt < 2; attempt++) {
        try {
          window.sessionStorage.setItem(PASTE_KEY + key, q);
          params.set("paste", key);
          return params;
        } catch (e) {
          if (attempt === 0) forgetPastes();
        }
      }
      // No storage at all (a policy): the address carries it.
    }
    params.set("q", q);
    return params;
  }

  function forgetPastes() {
    try {
      var store = window.sessionStorage;
      for (var i = store.length - 1; i >= 0; i--) {
        var k = store.key(i);
        if (k && k.indexOf(PASTE_KEY) === 0) store.removeItem(k);
      }
    } catch (e) {
      // Nothing to free.
    }
  }

  // The search an address names (see `queryParam`).
  function queryFrom(params) {
    var q = params.get("q");
    if (q != null) return q;
    var key = params.get("paste");
    if (!key) return "";
    try {
      return window.sessionStorage.getItem(PASTE_KEY + key) || "";
    } catch (e) {
      return "";
    }
  }

  var searchPage = null;

  // Single-file book: "search page" is a section of the same document.
  function openSearchSection(q) {
    if (!searchPage) return;
    searchPage.area.value = q;
    if (location.hash !== "#" + SEARCH_SECTION) location.hash = SEARCH_SECTION;
    searchPage.update();
  }

  // ---------------------------------------------------------------- recent searches

  function recentSearches() {
    var list = [];
    try {
      list = JSON.parse(window.localStorage.getItem(RECENT_KEY) || "[]");
    } catch (e) {
      list = [];
    }
    return Array.isArray(list) ? list.filter(function (q) { return typeof q === "string" && q.trim(); }).slice(0, RECENT_MAX) : [];
  }

  function rememberSearch(q) {
    q = String(q || "").trim().slice(0, 2000);
    if (!q) return;
    var list = recentSearches().filter(function (old) { return old !== q; });
    list.unshift(q);
    try {
      window.localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_MAX)));
    } catch (e) {
      // Storage blocked or full: recent searches are a convenience.
    }
  }

  function recentLabel(q) {
    var line = q.split("\n")[0].trim();
    return line.length > 90 ? line.slice(0, 88) + "\u2026" : line + (q.indexOf("\n") >= 0 ? " \u2026" : "");
  }

  // ---------------------------------------------------------------- highlighting

  // The matched words of a hit (the marked parts of its snippet), for the entry page.
  function hitTerms(hit) {
    var out = [];
    var s = hit.snippet;
    if (s && s.text && s.highlights) {
      var chars = Array.from(s.text);
      s.highlights.forEach(function (r) {
        var t = chars.slice(r[0], r[1]).join("").trim().toLowerCase();
        if (t && out.indexOf(t) < 0) out.push(t);
      });
    }
    // theme.js knows which terms are worth marking; a page without it marks nothing.
    var terms = kb.markableTerms ? kb.markableTerms(out) : out.filter(function (w) { return w.length >= 2; });
    return terms.slice(0, 12);
  }

  // A result's link: the entry page, told the matched words to highlight, opened at the
  // heading of the passage shown (as mdBook's and Pagefind's results link a heading). Not for
  // a hit that matched an error text: that is at the top of the page.
  function hitHref(hit) {
    var anchor = !hit.matched_error && hit.snippet && hit.snippet.anchor;
    // The single file prefixes a page's ids with its section's (`#<entry>--<heading>`).
    if (single) return anchor ? hit.url + "--" + encodeURIComponent(anchor) : hit.url;
    var terms = hitTerms(hit);
    var href = hit.url;
    if (terms.length) href += (href.indexOf("?") < 0 ? "?" : "&") + "highlight=" + encodeURIComponent(terms.join(" "));
    return anchor ? href + "#" + encodeURIComponent(anchor) : href;
  }

  var pendingHighlight = null;

  // Following a result (`e`: the click or key): remember the search; in a single-file book,
  // highlight in place once the result is shown.
  function followed(hit, q, e) {
    rememberSearch(q);
    // A click that opens another tab or window, or downloads, leaves this page as it is.
    if (!single || (e && (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey || e.button === 1))) return;
    pendingHighlight = { id: hit.id, hash: hitHref(hit), terms: hitTerms(hit) };
    // The place already shown: no hashchange will come.
    if (decodedHash(location.hash) === decodedHash(pendingHighlight.hash)) setTimeout(applyPendingHighlight, 0);
  }

  // A malformed `%` sequence in a hand-typed address is compared as it is.
  function decodedHash(hash) {
    try {
      return decodeURIComponent(hash);
    } catch (e) {
      return hash;
    }
  }

  // The entry the last followed result highlighted, in a single-file book.
  var marked = null;

  function applyPendingHighlight() {
    var pending = pendingHighlight;
    pendingHighlight = null;
    var hl = window.kbook.highlightEntry;
    if (!hl) return;
    // The words belong to the visit a search led to: an entry left keeps none for later.
    var target = document.getElementById(decodedHash(location.hash).slice(1));
    var shown = target && target.closest(".kb-page");
    if (marked && !(shown && shown.contains(marked))) {
      hl(marked, []);
      marked = null;
    }
    // The reader went elsewhere than the result: its words belong to no later visit.
    if (!pending || decodedHash(location.hash) !== decodedHash(pending.hash)) return;
    var section = document.getElementById(pending.id);
    var article = section && section.querySelector("article.entry");
    if (article && hl(article, pending.terms)) marked = article;
  }

  // Tips for the empty and weak-match states.
  var TIPS = ["tip_paste", "tip_values", "tip_fewer"];

  function tipsNode() {
    var wrap = el("div", "kbook-tips");
    wrap.appendChild(el("p", "kbook-tips-title", t("tips_title")));
    var ul = el("ul");
    TIPS.forEach(function (key) { ul.appendChild(el("li", null, t(key))); });
    var li = el("li");
    var a = el("a", null, t("tip_index_link"));
    a.href = single ? "#kb-errors" : root + "errors.html";
    // The link sits where the translation puts {link}.
    var parts = t("tip_index").split("{link}");
    li.appendChild(document.createTextNode(parts[0]));
    li.appendChild(a);
    li.appendChild(document.createTextNode(parts.slice(1).join("")));
    ul.appendChild(li);
    wrap.appendChild(ul);
    return wrap;
  }

  function debounce(fn, ms) {
    var t = null;
    return function () {
      var args = arguments;
      clearTimeout(t);
      t = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  // Runs `run` when the text of `field` changes, but not while an input method composes
  // (pinyin `zhu'jian` is not yet the words 主键): once the composed text is committed.
  function onTyped(field, run) {
    field.addEventListener("input", function (e) {
      if (!e.isComposing) run();
    });
    field.addEventListener("compositionend", function () { run(); });
  }

  // Whether a key press belongs to an input method still composing (its Enter commits the
  // text, its Escape cancels it): not the page's to act on.
  function composing(e) {
    return e.isComposing || e.keyCode === 229;
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
    this.announce = liveRegion(form);

    var run = debounce(function () { self.update(); }, BOX_DELAY_MS);
    // A one-line field turns a pasted text's line breaks into spaces: search reads the paste
    // as it was copied for as long as the field still holds it (see `query`).
    this.pasted = null;
    this.input.addEventListener("paste", function (e) {
      var text = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
      self.pasted = /[\r\n]/.test(text) ? text : null;
    });
    this.input.addEventListener("focus", function () { self.focused(); });
    onTyped(this.input, run);
    this.input.addEventListener("keydown", function (e) {
      if (!composing(e)) self.key(e);
    });
    document.addEventListener("click", function (e) {
      if (!self.form.contains(e.target)) self.close();
    });
    // Tabbing out of the box closes its results (clicks on them keep focus inside the form).
    form.addEventListener("focusout", function (e) {
      if (!e.relatedTarget || !self.form.contains(e.relatedTarget)) {
        if (e.relatedTarget || !self.panel.matches(":hover")) self.close();
      }
    });
    this.panel.addEventListener("click", function (e) {
      var a = e.target && e.target.closest ? e.target.closest("a") : null;
      if (a) self.activate(a, e);
    });
    form.addEventListener("submit", function (e) {
      var q = self.query();
      rememberSearch(q);
      if (single) {
        e.preventDefault();
        self.close();
        openSearchSection(q);
      } else if (q !== self.input.value || q.length > URL_QUERY_CHARS) {
        // The search page gets the paste with its lines.
        e.preventDefault();
        window.location.href = searchPageUrl(q);
      }
    });
    // This script is loaded on the first focus: catch up with what happened before.
    if (document.activeElement === this.input) {
      if (this.input.value.trim()) this.update();
      else this.focused();
    }
  }

  // What the box searches for: the text as pasted when the field holds it with its line
  // breaks turned into spaces, else the field's value.
  SearchBox.prototype.query = function () {
    var value = this.input.value;
    var squash = function (s) { return s.replace(/\s+/g, " ").trim(); };
    return this.pasted && squash(this.pasted) === squash(value) ? this.pasted : value;
  };

  SearchBox.prototype.focused = function () {
    load().catch(function () { /* shown when the user types */ });
    if (!this.input.value.trim()) this.showRecent();
    else if (this.items.length) this.open();
  };

  // Opening a result or a recent search (mouse or keyboard).
  SearchBox.prototype.activate = function (a, e) {
    var recent = a.getAttribute("data-recent");
    if (recent != null) {
      if (e) e.preventDefault();
      this.input.value = recent;
      this.input.focus();
      this.update();
      return;
    }
    var i = this.items.indexOf(a);
    if (i >= 0 && this.hits && this.hits[i]) {
      followed(this.hits[i], this.query(), e);
      if (single) this.close();
    } else if (a.classList.contains("kbook-search-all")) {
      rememberSearch(this.query());
      if (single) {
        if (e) e.preventDefault();
        this.close();
        openSearchSection(this.query());
        return;
      }
    }
    if (e) return; // a click follows the link itself
    window.location.href = a.href;
  };

  SearchBox.prototype.showRecent = function () {
    var self = this;
    var list = recentSearches();
    clear(this.panel);
    this.items = [];
    this.hits = [];
    this.select(-1); // the old options are gone: none is current
    if (!list.length) {
      this.close();
      return;
    }
    this.panel.appendChild(el("div", "kbook-search-message", t("recent")));
    var ul = el("ul", "kbook-search-list");
    ul.setAttribute("role", "listbox");
    ul.setAttribute("aria-label", t("recent"));
    list.forEach(function (q, i) {
      var li = el("li", "kbook-search-item");
      li.setAttribute("role", "none");
      var a = el("a", "kbook-hit kbook-recent-item", recentLabel(q));
      a.href = searchPageUrl(q);
      a.id = self.uid + "-opt-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.setAttribute("data-recent", q);
      a.tabIndex = -1;
      li.appendChild(a);
      ul.appendChild(li);
      self.items.push(a);
    });
    this.panel.appendChild(ul);
    this.open();
  };

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
    this.select(-1); // the old options are gone: none is current
    this.panel.appendChild(el("div", "kbook-search-message" + (cls ? " " + cls : ""), text));
    this.open();
  };

  SearchBox.prototype.update = function () {
    var self = this;
    var q = this.query();
    var seq = ++this.seq;
    if (!q.trim()) {
      // Nothing is searched: the last search's count must not stay behind for a screen
      // reader to find, and the same search typed again is announced again.
      this.announce("");
      this.showRecent();
      if (document.activeElement !== this.input) this.close();
      return;
    }
    if (!loading) this.message(t("loading"));
    rawSearch(q, { limit: BOX_LIMIT, version: versionParam() }).then(
      function (res) { if (seq === self.seq) self.render(q, res); },
      function (err) {
        if (seq !== self.seq) return;
        var text = t("unavailable", { error: err.message });
        self.message(text, "kbook-search-error");
        self.announce(text);
      }
    );
  };

  SearchBox.prototype.render = function (q, res) {
    var self = this;
    clear(this.panel);
    this.items = [];
    this.hits = res.hits;
    this.select(-1); // the old options are gone: none is current
    var list = el("ul", "kbook-search-list");
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", res.confident ? t("results_label") : t("nearest"));
    var moved = bestOtherVersion(res);
    this.announce(res.hits.length ? resultsAnnouncement(res, res.hits.length) : t("box_no_match"));
    if (!res.hits.length) {
      this.panel.appendChild(el("div", "kbook-search-message kbook-no-match-box", t("box_no_match")));
    } else if (moved) {
      this.panel.appendChild(el("div", "kbook-search-message kbook-best-other-version", moved));
    } else if (!res.confident) {
      this.panel.appendChild(el("div", "kbook-search-message kbook-weak-box", t("box_weak")));
    }
    res.hits.forEach(function (hit, i) {
      var li = el("li", "kbook-search-item");
      li.setAttribute("role", "none");
      var a = el("a", "kbook-hit");
      a.href = hitHref(hit);
      a.id = self.uid + "-opt-" + i;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.tabIndex = -1;
      a.setAttribute("data-id", hit.id);
      hitContent(hit, a, "span", isBest(res, hit, i));
      li.appendChild(a);
      list.appendChild(li);
      self.items.push(a);
    });
    // No empty list of "nearest entries" under "No entries match".
    if (res.hits.length) this.panel.appendChild(list);
    var all = el("a", "kbook-search-all", t("box_all"));
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
        this.activate(this.items[this.active], null);
      }
    } else if (e.key === "Escape") {
      // The first closes the results, the second leaves the box: neither clears it (a
      // search field's own Escape would lose a pasted trace).
      e.preventDefault();
      if (!this.panel.hidden) this.close();
      else this.input.blur();
    }
  };

  // ---------------------------------------------------------------- version picker

  // search.html's "Your product version": a product <select> and a version <input> whose
  // suggestions (a <datalist> per product) are the releases the book names. A valid choice is
  // remembered (theme.js keeps it in localStorage) and `changed` runs the search again.
  function VersionPicker(form, changed) {
    var self = this;
    this.form = form;
    if (!form) return;
    this.select = form.querySelector("select");
    this.input = form.querySelector("input");
    this.note = document.getElementById("kbook-version-note");
    this.clear = document.getElementById("kbook-version-clear");
    this.changed = changed;
    if (!this.select || !this.input || !kb.setReaderVersion) return;
    var choice = kb.readerVersion();
    if (choice) {
      if (!this.option(choice.product)) {
        // A product this book does not name (remembered from another book): still offered.
        var o = el("option", null, choice.product);
        o.value = choice.product;
        this.select.appendChild(o);
      }
      this.select.value = choice.product;
      this.input.value = choice.param.slice(choice.product.length + 1);
    }
    this.suggest();
    this.describe();
    // While typing, a text that is not (yet) a version waits quietly; leaving the field or
    // pressing Enter says what is wrong with it.
    var apply = debounce(function () { self.apply(true); }, PAGE_DELAY_MS);
    // A product picked with the pointer leads on to its version; one reached with the arrow
    // keys (which change a closed list's value at each press) keeps the focus, or the
    // keyboard could never get past the first product.
    var keyed = false;
    this.select.addEventListener("keydown", function () { keyed = true; });
    this.select.addEventListener("pointerdown", function () { keyed = false; });
    this.select.addEventListener("change", function () {
      self.suggest();
      if (!keyed && self.select.value && !self.input.value.trim()) self.input.focus();
      self.apply();
    });
    onTyped(this.input, apply);
    this.input.addEventListener("change", function () { self.apply(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      self.apply();
    });
    if (this.clear) {
      this.clear.addEventListener("click", function () {
        self.select.value = "";
        self.input.value = "";
        self.suggest();
        self.apply();
      });
    }
  }

  VersionPicker.prototype.option = function (product) {
    for (var i = 0; i < this.select.options.length; i++) {
      if (this.select.options[i].value === product) return this.select.options[i];
    }
    return null;
  };

  // The version field suggests the chosen product's releases.
  VersionPicker.prototype.suggest = function () {
    var o = this.option(this.select.value);
    var list = o && o.getAttribute("data-list");
    if (list) this.input.setAttribute("list", list);
    else this.input.removeAttribute("list");
  };

  VersionPicker.prototype.describe = function (invalid) {
    if (!this.note) return;
    var choice = kb.readerVersion();
    var text;
    if (invalid != null) text = t("version_invalid", { text: invalid });
    else text = choice ? t("version_active", { version: choice.label }) : t("version_help");
    // An address whose ?version= is not a version: said until the reader picks one.
    if (invalid == null && kb.badVersionParam != null && !this.picked) {
      text = kb.badVersionNote() + " " + text;
    }
    this.note.textContent = text;
    // Only the standing help, which a phone leaves out to keep the results in view.
    this.note.classList.toggle("kbook-version-help", text === t("version_help"));
    this.input.setAttribute("aria-invalid", String(invalid != null));
  };

  VersionPicker.prototype.apply = function (typing) {
    var before = versionParam();
    var text = this.input.value.trim();
    if (typing && this.select.value && text && !kb.parseVersion(text)) return;
    var result = kb.setReaderVersion(this.select.value, text);
    if (result === false) {
      this.describe(text);
      return;
    }
    this.picked = true;
    this.describe();
    if (versionParam() !== before) this.changed();
  };

  // ---------------------------------------------------------------- search.html

  function SearchPage(form, results) {
    var self = this;
    this.form = form;
    this.area = form.querySelector("textarea");
    this.results = results;
    this.status = document.getElementById("kbook-search-status");
    this.facets = document.getElementById("kbook-facets");
    // The status line shows the time a search took; the live region says only what changed
    // for the reader (see `setStatus`).
    this.announce = liveRegion(this.status && this.status.parentNode ? this.status.parentNode : form);
    // What keeps the keyboard focus when the list is redrawn: the chip pressed, or the first
    // of the results "Show more" added.
    this.refocus = null;
    this.filters = { connector: "", kind: "" };
    this.seq = 0;
    this.limit = PAGE_LIMIT;
    this.shownKey = "";
    if (!this.area) return;

    var params = new URLSearchParams(location.search);
    this.area.value = queryFrom(params);
    // A long search is kept in the tab that ran it: elsewhere its address finds nothing.
    if (!this.area.value && params.get("paste")) this.setStatus(t("paste_missing"));
    this.filters.connector = params.get("connector") || "";
    this.filters.kind = params.get("kind") || "";

    this.recent = document.getElementById("kbook-recent");
    this.picker = new VersionPicker(document.getElementById("kbook-version"), function () {
      if (self.area.value.trim()) self.update();
      else self.syncUrl("");
    });
    var run = debounce(function () { self.update(); }, PAGE_DELAY_MS);
    onTyped(this.area, run);
    this.area.addEventListener("keydown", function (e) {
      if (composing(e)) return;
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        rememberSearch(self.area.value);
        self.update();
      }
    });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      rememberSearch(self.area.value);
      self.update();
    });
    results.addEventListener("click", function (e) {
      var a = e.target && e.target.closest ? e.target.closest("a.kbook-hit") : null;
      var i = a ? self.links.indexOf(a) : -1;
      if (i >= 0) followed(self.hits[i], self.area.value, e);
    });
    this.links = [];
    this.hits = [];
    var start = function () {
      // The page exists to search: load at once.
      load().catch(function (err) { self.setStatus(t("unavailable", { error: err.message })); });
      if (self.area.value.trim()) self.update();
      else {
        self.showRecent();
        self.area.focus();
      }
    };
    if (!single) {
      start();
    } else {
      // In a single-file book the search is one section among many: start when it is shown.
      var started = false;
      var check = function () {
        if (!started && location.hash === "#" + SEARCH_SECTION) {
          started = true;
          start();
        }
      };
      window.addEventListener("hashchange", check);
      check();
    }
  }

  SearchPage.prototype.showRecent = function () {
    if (!this.recent) return;
    clear(this.recent);
    var list = recentSearches();
    if (!list.length) return;
    this.recent.appendChild(el("h2", "small-heading", t("recent")));
    var ul = el("ul", "kbook-recent-list");
    var self = this;
    list.forEach(function (q) {
      var li = el("li");
      var a = el("a", null, recentLabel(q));
      a.href = searchPageUrl(q);
      a.addEventListener("click", function (e) {
        e.preventDefault();
        self.area.value = q;
        self.update();
      });
      li.appendChild(a);
      ul.appendChild(li);
    });
    this.recent.appendChild(ul);
  };

  // The status line's text, and what the live region says (`spoken`, else the same text).
  SearchPage.prototype.setStatus = function (text, spoken) {
    if (this.status) this.status.textContent = text;
    if (this.announce) this.announce(spoken == null ? text : spoken);
  };

  // Keeps ?q=&connector=&kind=&version= in the address bar so the search can be shared.
  SearchPage.prototype.syncUrl = function (q) {
    if (!window.history || !history.replaceState) return;
    var params = q ? queryParam(q) : new URLSearchParams();
    if (this.filters.connector) params.set("connector", this.filters.connector);
    if (this.filters.kind) params.set("kind", this.filters.kind);
    if (versionParam()) params.set("version", versionParam());
    var s = params.toString();
    try {
      history.replaceState(null, "", location.pathname + (s ? "?" + s : "") + location.hash);
    } catch (e) {
      // Some browsers refuse replaceState on file:// URLs; the search still works.
    }
  };

  SearchPage.prototype.update = function () {
    var self = this;
    var q = this.area.value;
    var seq = ++this.seq;
    this.syncUrl(q.trim() ? q : "");
    if (this.recent) clear(this.recent);
    if (!q.trim()) {
      clear(this.results);
      this.results.removeAttribute("aria-busy");
      if (this.facets) clear(this.facets);
      this.setStatus("");
      this.showRecent();
      return;
    }
    if (!loading) this.setStatus(t("loading"));
    var started = 0;
    var filters = this.filters;
    var version = versionParam();
    // A new search or filter starts from one page of results again.
    var key = [q, filters.connector, filters.kind, version].join("\u0000");
    if (key !== this.shownKey) {
      this.shownKey = key;
      this.limit = PAGE_LIMIT;
      // "Show more" was pressed for another search: the reader moved on.
      if (this.refocus && this.refocus.result != null) this.refocus = null;
    }
    var limit = this.limit;
    // The results shown are an earlier search's until this one ends: say so (dimmed, and
    // aria-busy for screen readers).
    this.results.setAttribute("aria-busy", "true");
    var done = function () {
      if (seq === self.seq) self.results.removeAttribute("aria-busy");
    };
    // Facets come from the unfiltered result set; the list honours the chosen chips. The
    // time shown is the search itself, not the first load of the module.
    load().then(function () {
      started = (window.performance || Date).now();
      return Promise.all([
        rawSearch(q, { limit: FACET_LIMIT }),
        rawSearch(q, { limit: limit, connector: filters.connector, kind: filters.kind, version: version }),
      ]);
    }).then(
      function (r) {
        if (seq !== self.seq) return;
        done();
        var ms = Math.round((window.performance || Date).now() - started);
        self.renderFacets(r[0]);
        self.render(r[1], ms, self.filteredTotal(r[0]) + (r[0].hits.length >= FACET_LIMIT ? "+" : ""));
        self.renderMore(r[0], r[1]);
      },
      function (err) {
        done();
        if (seq === self.seq) self.setStatus(t("failed", { error: err.message }));
      }
    );
  };

  // How many of the unfiltered results `all` the chosen chips keep.
  SearchPage.prototype.filteredTotal = function (all) {
    var filters = this.filters;
    return all.hits.filter(function (h) {
      return (!filters.connector || h.connector === filters.connector) && (!filters.kind || h.kind === filters.kind);
    }).length;
  };

  // The chips count the first FACET_LIMIT results; when they hold more than the list shows,
  // a button shows the next page of them.
  SearchPage.prototype.renderMore = function (all, shown) {
    var rest = this.filteredTotal(all) - shown.hits.length;
    if (rest <= 0 || this.limit >= FACET_LIMIT) return;
    var self = this;
    var more = el("button", "kbook-more", t("more_results", { n: Math.min(rest, PAGE_LIMIT) }));
    more.type = "button";
    more.addEventListener("click", function () {
      self.limit = Math.min(self.limit + PAGE_LIMIT, FACET_LIMIT);
      self.refocus = { result: shown.hits.length };
      self.update();
    });
    this.results.appendChild(more);
  };

  SearchPage.prototype.renderFacets = function (res) {
    var self = this;
    if (!this.facets) return;
    clear(this.facets);
    [["connector", t("facet_connector")], ["kind", t("facet_kind")]].forEach(function (f) {
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
      group.appendChild(el("span", "kbook-facet-label", t("facet_label", { name: f[1] })));
      values.forEach(function (v) {
        var chip = el("button", "kbook-chip");
        chip.type = "button";
        chip.setAttribute("data-facet", key);
        chip.setAttribute("data-value", v);
        chip.setAttribute("aria-pressed", String(chosen === v));
        chip.appendChild(document.createTextNode((key === "kind" ? kindLabel(v) : connectorLabel(v)) + " "));
        chip.appendChild(el("span", "count", String(counts[v])));
        chip.addEventListener("click", function () {
          self.filters[key] = self.filters[key] === v ? "" : v;
          self.refocus = { facet: key, value: v };
          self.update();
        });
        group.appendChild(chip);
        var r = self.refocus;
        if (r && r.facet === key && r.value === v) {
          self.refocus = null;
          // Focused once in the page, after the old chip left it.
          setTimeout(function () { chip.focus(); }, 0);
        }
      });
      self.facets.appendChild(group);
    });
  };

  // `total`: how many results the chips count for these filters (`60+` past the first 60).
  SearchPage.prototype.render = function (res, ms, total) {
    var self = this;
    clear(this.results);
    // What was left unread is said, not hidden (see clampQuery).
    if (this.area.value.length > 2 * KEEP_QUERY_CHARS) {
      this.results.appendChild(el("p", "kbook-paste-cut", t("paste_cut", { k: KEEP_QUERY_CHARS / 1024 })));
    }
    var hits = res.hits;
    this.hits = hits;
    this.links = [];
    var filtered = this.filters.connector || this.filters.kind;
    if (!hits.length) {
      var none = el("div", "kbook-no-match");
      none.appendChild(el("strong", null, filtered ? t("no_match_filtered") : t("no_match")));
      none.appendChild(document.createTextNode(filtered ? " " + t("no_match_filtered_hint") : ""));
      if (!filtered) none.appendChild(tipsNode());
      this.results.appendChild(none);
      this.setStatus(t("status_none"), filtered ? t("no_match_filtered") : t("no_match"));
      return;
    }
    var moved = bestOtherVersion(res);
    if (moved) {
      this.results.appendChild(el("div", "kbook-best-other-version", moved));
    } else if (!res.confident) {
      var note = el("div", "kbook-no-confident");
      note.appendChild(el("strong", null, t("no_confident")));
      note.appendChild(document.createTextNode(gapAfter(t("no_confident")) + t("no_confident_more")));
      note.appendChild(tipsNode());
      this.results.appendChild(note);
    }
    var list = el("ol", "kbook-results" + (res.confident ? "" : " kbook-results-weak"));
    list.setAttribute("aria-label", res.confident ? t("results") : t("nearest"));
    hits.forEach(function (hit, i) {
      var li = el("li", "kbook-result" + (appliesToReader(hit) ? "" : " kbook-result-other"));
      li.setAttribute("data-id", hit.id);
      var a = el("a", "kbook-hit");
      a.href = hitHref(hit);
      self.links.push(a);
      hitContent(hit, a, "span", isBest(res, hit, i));
      li.appendChild(a);
      list.appendChild(li);
    });
    this.results.appendChild(list);
    var n = hits.length;
    var of = total != null && String(total) !== String(n) ? total : null;
    var status = of != null
      ? t("status_of", { n: n, total: of, ms: ms })
      : t(n === 1 ? "status_one" : "status_many", { n: n, ms: ms });
    this.setStatus(status, resultsAnnouncement(res, n, of));
    var r = this.refocus;
    if (r && r.result != null && this.links[r.result]) {
      this.refocus = null;
      this.links[r.result].focus();
    }
  };

  // ---------------------------------------------------------------- wiring

  // ("/" to focus the search lives in theme.js, which is on every page from the start.)
  function init() {
    var pageForm = document.querySelector("form.kbook-search-page");
    var pageResults = document.getElementById("kbook-search-page-results");
    if (pageForm && pageResults) searchPage = new SearchPage(pageForm, pageResults);
    var forms = document.querySelectorAll("form.kbook-search");
    for (var i = 0; i < forms.length; i++) new SearchBox(forms[i]);
    if (single) window.addEventListener("hashchange", applyPendingHighlight);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
