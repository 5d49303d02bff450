#!/usr/bin/env node
// Side-by-side relevance on the same book and the same labelled queries:
//   kbook     `kbook eval --json` (kbook's ranking)
//   bm25      `kbook eval --baseline bm25 --json` (plain BM25 over title and body)
//   mdbook    mdBook's built-in search (elasticlunr) on the book converted to an mdBook
//   pagefind  Pagefind on kbook's built HTML
//
//   (cd bench/pagefind && npm ci)
//   cargo build --release -p kbook
//   cargo install mdbook --version 0.5.4 --locked --root /somewhere   # optional
//   target/release/kbook build --book . --dest /tmp/kb
//   node bench/compare-search.mjs --book . --site /tmp/kb \
//        [--queries tests/queries.jsonl ...] [--mdbook /somewhere/bin/mdbook]
//   (without --queries: tests/queries.jsonl, tests/realworld.jsonl and, when present,
//   ../shared/kb/realworld-dev.jsonl beside the book)
//
// kbook and bm25: `kbook eval` on the book, searching the index of `--site`.
//
// mdBook (0.5.4; `--mdbook PATH`, else $MDBOOK, else `mdbook` on PATH; its column is skipped
// when it is not found): every entry `<src>/<connector>/<file>.md` becomes the chapter
// `src/<connector>/<id>.md` of a temporary mdBook: the front-matter is dropped, `# <title>`
// heads the chapter, the front-matter `errors` (their texts) follow as a list of code spans
// under an "Error messages" heading and the `symptoms` as a list under "Symptoms" (so mdBook
// indexes the text kbook indexes: title, error strings, symptoms, body), then the body. SUMMARY.md lists the chapters grouped by connector (part titles).
// `mdbook build` with the default search settings writes the elasticlunr index into
// `searchindex-<hash>.js`; the queries run the way mdBook's searcher.js runs them, in Node
// (elasticlunr needs no browser): the built book's own `elasticlunr*.min.js` and search index
// are evaluated unchanged, `elasticlunr.Index.load(index)`, then for each query
// `index.search(query.trim(), search_options)` with the `search_options` the book wrote
// (by default `{bool: "OR", expand: true, fields: {title: {boost: 2}, body: {boost: 1},
// breadcrumbs: {boost: 1}}}`), keeping the first `results_options.limit_results` (30)
// results as the searcher shows them. A result is a section (`<connector>/<id>.html#anchor`);
// each maps to its entry, and an entry ranks at its first section.
//
// Pagefind (npm `pagefind`, pinned in bench/pagefind/package.json) indexes every entry page of
// the built site through its Node API; only each page's `<article class="entry">` is indexed
// (the same text kbook indexes, and Pagefind's own recommended `data-pagefind-body` setup).
// Its search runtime needs a browser (it uses `window`, `document` and a Web Worker), so the
// queries run through Pagefind's JS API in headless Chromium, driven by `playwright-core`
// with the system Chromium (/usr/bin/chromium, or $CHROMIUM): no browser is downloaded.
// Its column is skipped when bench/pagefind/node_modules is missing. The search page carries
// the book's `language` as `<html lang>` (`--pagefind-page-lang LANG` sets another, "" none),
// as a real site's pages do: Pagefind picks its index by it and, for Chinese and Japanese,
// splits the query into words with the browser's Intl.Segmenter (a page without a language
// falls back to the largest index and leaves a CJK query unsplit). The mdBook copy gets the
// book's language too.
//
// Metrics as `kbook eval` defines them: top-1, MRR@10 and recall@5 over the queries that
// have expected ids (`n`); queries with `"expect": []` (`no-ans`) are answered by no entry.
// The second table is about confidence: `abstain` is the share of `no-ans` queries answered
// "no confident match", `conf-prec` the share of confident answers whose first hit is right
// (a confident answer to a `no-ans` query is wrong), `conf-rate` the share of the `n`
// queries answered confidently. Only kbook decides confidence; for bm25, mdBook and Pagefind
// any result counts as a confident answer (they abstain only by returning nothing).

import { createRequire } from "node:module";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
// The browser tests' flags (a quiet browser that never talks to the network).
const CHROMIUM_FLAGS = fs
  .readFileSync(path.join(here, "..", "tests", "common", "chromium-flags.txt"), "utf8")
  .split("\n")
  .filter((f) => f.trim());
const USAGE =
  "usage: node bench/compare-search.mjs --book BOOK --site BUILT_SITE --queries FILE.jsonl [--queries ...]\n" +
  "       [--kbook BIN] [--mdbook PATH] [--chromium PATH] [--pagefind-page-lang LANG]";

function parseArgs(argv) {
  const a = {
    book: ".",
    site: null,
    queries: [],
    kbook: path.join(here, "..", "target", "release", "kbook"),
    mdbook: process.env.MDBOOK || "mdbook",
    chromium: process.env.CHROMIUM || "/usr/bin/chromium",
    pageLang: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === "--book") a.book = v();
    else if (k === "--site") a.site = v();
    else if (k === "--queries") a.queries.push(v());
    else if (k === "--kbook") a.kbook = v();
    else if (k === "--mdbook") a.mdbook = v();
    else if (k === "--chromium") a.chromium = v();
    else if (k === "--pagefind-page-lang") a.pageLang = v();
    else if (k === "-h" || k === "--help") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${k}\n${USAGE}`);
  }
  if (!a.site) a.site = path.join(a.book, "book");
  if (a.pageLang === null) a.pageLang = bookSetting(a.book, "language", "en");
  if (a.queries.length === 0) {
    // The book's own sets, and the real-world development set beside the repository when present.
    for (const f of [
      path.join(a.book, "tests", "queries.jsonl"),
      path.join(a.book, "tests", "realworld.jsonl"),
      path.join(a.book, "..", "shared", "kb", "realworld-dev.jsonl"),
    ]) {
      if (fs.existsSync(f)) a.queries.push(f);
    }
  }
  return a;
}

function* walk(dir, ext) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p, ext);
    else if (e.isFile() && e.name.endsWith(ext)) yield p;
  }
}

function readQueries(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((q) => ({ q: q.q, expect: q.expect || [], style: q.style || "unlabelled" }));
}

// `kbook eval`'s metrics for an engine that returns ranked ids; any result is "confident".
function metrics(rows) {
  let n = 0, top1 = 0, rr = 0, rec = 0;
  let unanswered = 0, abstained = 0, confident = 0, confidentRight = 0, confidentAnswered = 0;
  for (const { ids, expect } of rows) {
    const conf = ids.length > 0;
    if (conf) confident++;
    if (expect.length === 0) {
      unanswered++;
      if (!conf) abstained++;
      continue;
    }
    n++;
    const pos = ids.findIndex((id) => expect.includes(id));
    if (pos === 0) {
      top1++;
      if (conf) confidentRight++;
    }
    if (conf) confidentAnswered++;
    if (pos >= 0 && pos < 10) rr += 1 / (pos + 1);
    const top5 = ids.slice(0, 5);
    rec += expect.filter((e) => top5.includes(e)).length / expect.length;
  }
  const share = (a, b) => (b > 0 ? a / b : null);
  const d = Math.max(n, 1);
  return {
    n,
    top1: top1 / d,
    mrr10: rr / d,
    recall5: rec / d,
    unanswered,
    abstain: share(abstained, unanswered),
    confident_precision: share(confidentRight, confident),
    confident_rate: share(confidentAnswered, n),
  };
}

// ---------------------------------------------------------------------------------------
// kbook

function runKbook(args, file, baseline) {
  const argv = ["eval", "--queries", file, "--book", args.book, "--site", args.site, "--json"];
  if (baseline) argv.push("--baseline", baseline);
  const out = execFileSync(args.kbook, argv, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out);
}

// ---------------------------------------------------------------------------------------
// Front-matter: the subset of YAML and TOML that entries use, enough for `id`, `title`,
// `connector`, `errors` (strings, lists of strings and of `{text, source}` mappings) and
// `symptoms`. Other keys are skipped.

function splitFrontMatter(text) {
  text = text.replace(/^\uFEFF/, "");
  const lines = text.split(/\r?\n/);
  const fence = lines[0]?.trimEnd();
  if (fence !== "---" && fence !== "+++") return null;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i].trimEnd();
    if (l === fence || (fence === "---" && l === "...")) {
      return { syntax: fence === "---" ? "yaml" : "toml", front: lines.slice(1, i), body: lines.slice(i + 1).join("\n") };
    }
  }
  throw new Error("front-matter is not closed");
}

const YAML_ESC = { "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b",
  " ": " ", '"': '"', "/": "/", "\\": "\\", N: "\x85", _: "\xa0", L: "\u2028", P: "\u2029" };

// Folds a whitespace run of a quoted YAML scalar: one line break is a space, n > 1 are
// n - 1 line breaks, whitespace without a line break stays.
function yamlFold(run) {
  const breaks = (run.match(/\n/g) || []).length;
  return breaks === 0 ? run : breaks === 1 ? " " : "\n".repeat(breaks - 1);
}

// The end (index after the closing quote) of the quoted scalar starting at src[i].
function yamlQuoteEnd(src, i) {
  const q = src[i];
  for (let j = i + 1; j < src.length; j++) {
    if (q === '"' && src[j] === "\\") j++;
    else if (q === "'" && src[j] === "'" && src[j + 1] === "'") j++;
    else if (src[j] === q) return j + 1;
  }
  throw new Error(`unclosed quote in ${src}`);
}

// A YAML scalar (plain, single- or double-quoted, possibly over several lines) or flow
// sequence of scalars, from its text with line breaks.
function yamlScalar(src) {
  src = src.trim();
  if (src.startsWith('"')) {
    const inner = src.slice(1, yamlQuoteEnd(src, 0) - 1);
    let out = "";
    for (let i = 0; i < inner.length; i++) {
      const c = inner[i];
      if (c === "\\") {
        const e = inner[++i];
        if (e === "\n") { // escaped line break: joined without a space
          while (inner[i + 1] === " " || inner[i + 1] === "\t") i++;
        } else if (e === "x" || e === "u" || e === "U") {
          const len = { x: 2, u: 4, U: 8 }[e];
          out += String.fromCodePoint(parseInt(inner.slice(i + 1, i + 1 + len), 16));
          i += len;
        } else if (e in YAML_ESC) out += YAML_ESC[e];
        else throw new Error(`bad escape \\${e} in ${src}`);
      } else if (/[ \t\n]/.test(c)) {
        const run = /^[ \t\n]+/.exec(inner.slice(i))[0];
        out += yamlFold(run);
        i += run.length - 1;
      } else out += c;
    }
    return out;
  }
  if (src.startsWith("'")) {
    const inner = src.slice(1, yamlQuoteEnd(src, 0) - 1);
    return inner.replace(/''/g, "'").replace(/[ \t\n]+/g, yamlFold);
  }
  if (src.startsWith("[")) {
    const items = [];
    let i = 1;
    for (;;) {
      while (i < src.length && /[\s,]/.test(src[i])) i++;
      if (i >= src.length || src[i] === "]") break;
      let j = i;
      if (src[i] === '"' || src[i] === "'") j = yamlQuoteEnd(src, i);
      else while (j < src.length && src[j] !== "," && src[j] !== "]") j++;
      items.push(yamlScalar(src.slice(i, j)));
      i = j;
    }
    return items;
  }
  // plain scalar: comments dropped, lines folded
  return src
    .split("\n")
    .map((l) => l.replace(/(^|\s)#.*$/, "").trim())
    .join("\n")
    .replace(/\n+/g, (br) => yamlFold(br))
    .trim();
}

// `lines`: the value's own block (more indented than its key or dash), `inline`: after `:`.
function yamlValue(inline, lines) {
  const t = inline.replace(/^\s+/, "");
  const m = /^([|>])([+-]?)\d*\s*(#.*)?$/.exec(t);
  if (m) {
    const ind = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
    let s = lines.map((l) => l.slice(ind)).join("\n").replace(/\n+$/, "");
    if (m[1] === ">") s = s.replace(/([^\n])\n(?=[^\n ])/g, "$1 ");
    return m[2] === "-" ? s : s + "\n";
  }
  if (t && !t.startsWith("#")) return yamlScalar([t, ...lines].join("\n"));
  const body = lines.filter((l) => l.trim() && !/^\s*#/.test(l));
  if (body.length === 0) return null;
  const ind = body[0].match(/^ */)[0].length;
  if (!/^\s*-(\s|$)/.test(body[0])) return null; // a nested mapping: not needed here
  const items = [];
  let cur = null;
  for (const l of lines) {
    const isItem = l.length > ind && l.slice(0, ind).trim() === "" && /^-(\s|$)/.test(l.slice(ind));
    if (isItem) {
      if (cur) items.push(cur);
      cur = { inline: l.slice(ind + 1), lines: [] };
    } else if (cur) cur.lines.push(l);
  }
  if (cur) items.push(cur);
  return items.map((it) =>
    /^\s*[\w-]+\s*:(\s|$)/.test(it.inline)
      ? // a mapping item (an `errors` item `{text, source}`, a `versions` item)
        parseYaml([it.inline.replace(/^\s+/, ""), ...it.lines.map((l) => l.replace(new RegExp(`^ {0,${ind + 2}}`), ""))])
      : yamlValue(it.inline, it.lines),
  );
}

function parseYaml(lines) {
  const out = {};
  for (let i = 0; i < lines.length; i++) {
    const m = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*))?$/.exec(lines[i].replace(/\s+$/, ""));
    if (!m) continue;
    const block = [];
    while (i + 1 < lines.length && (/^\s/.test(lines[i + 1]) || lines[i + 1] === "" || /^-(\s|$)/.test(lines[i + 1]))) {
      block.push(lines[++i]);
    }
    // a block sequence may sit at the key's own indentation
    const value = yamlValue(m[2] ?? "", block);
    out[m[1]] = value;
  }
  return out;
}

function parseToml(lines) {
  const s = lines.join("\n");
  const out = {};
  let i = 0;
  let root = true;
  const ws = () => {
    for (;;) {
      while (i < s.length && /[ \t\r\n]/.test(s[i])) i++;
      if (s[i] === "#") while (i < s.length && s[i] !== "\n") i++;
      else return;
    }
  };
  const str = () => {
    const ml = s.startsWith('"""', i) || s.startsWith("'''", i);
    const q = s[i];
    const literal = q === "'";
    const close = ml ? q.repeat(3) : q;
    i += ml ? 3 : 1;
    if (ml && s[i] === "\n") i++;
    let o = "";
    while (i < s.length && !(s.startsWith(close, i) && !(ml && s.startsWith(close + q, i)))) {
      const c = s[i++];
      if (c === "\\" && !literal) {
        const e = s[i++];
        if (e === "u" || e === "U") {
          const len = e === "u" ? 4 : 8;
          o += String.fromCodePoint(parseInt(s.slice(i, i + len), 16));
          i += len;
        } else if (ml && /[ \t\n]/.test(e)) while (/[ \t\r\n]/.test(s[i])) i++;
        else o += { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", e: "\x1b", '"': '"', "\\": "\\" }[e] ?? "";
      } else if (c === "\n" && !ml) throw new Error("newline in a TOML string");
      else o += c;
    }
    i += close.length;
    return o;
  };
  const value = () => {
    ws();
    if (s[i] === '"' || s[i] === "'") return str();
    if (s[i] === "[") {
      i++;
      const arr = [];
      for (;;) {
        ws();
        if (s[i] === "]") { i++; return arr; }
        arr.push(value());
        ws();
        if (s[i] === ",") i++;
      }
    }
    if (s[i] === "{") { // inline table: skipped
      let depth = 0;
      do {
        if (s[i] === '"' || s[i] === "'") { str(); continue; }
        if (s[i] === "{") depth++;
        if (s[i] === "}") depth--;
        i++;
      } while (depth > 0 && i < s.length);
      return null;
    }
    const m = /^[^\s,\]#}]+/.exec(s.slice(i));
    i += m ? m[0].length : 1;
    return m ? m[0] : null;
  };
  for (;;) {
    ws();
    if (i >= s.length) break;
    if (s[i] === "[") { // a table header: its keys are not the entry's own
      root = false;
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    const m = /^("[^"]*"|'[^']*'|[\w-]+)\s*=/.exec(s.slice(i));
    if (!m) throw new Error(`cannot read TOML at: ${s.slice(i, i + 40)}`);
    i += m[0].length;
    const v = value();
    if (root) out[m[1].replace(/^["']|["']$/g, "")] = v;
  }
  return out;
}

// `key = "value"` of book.toml's [book] table, or `fallback`.
function bookSetting(book, key, fallback) {
  const toml = fs.existsSync(path.join(book, "book.toml")) ? fs.readFileSync(path.join(book, "book.toml"), "utf8") : "";
  const bookTable = /^\[book\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? "";
  return new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m").exec(bookTable)?.[1] ?? fallback;
}

function readEntries(book) {
  const srcName = bookSetting(book, "src", "content");
  const src = path.join(book, srcName);
  const entries = [];
  for (const file of walk(src, ".md")) {
    const text = fs.readFileSync(file, "utf8");
    let fm;
    try {
      fm = splitFrontMatter(text);
    } catch (e) {
      throw new Error(`${file}: ${e.message}`);
    }
    if (!fm) throw new Error(`${file}: no front-matter`);
    const meta = fm.syntax === "yaml" ? parseYaml(fm.front) : parseToml(fm.front);
    const rel = path.relative(src, file).split(path.sep);
    const id = typeof meta.id === "string" && meta.id ? meta.id : path.basename(file, ".md");
    const connector = typeof meta.connector === "string" ? meta.connector : rel[0];
    // An errors item is a string or a mapping `{text, source}`: the text is what is searched.
    const errorText = (e) => (typeof e === "string" ? e : e && typeof e.text === "string" ? e.text : null);
    const errors = Array.isArray(meta.errors) ? meta.errors.map(errorText).filter((e) => e !== null) : typeof meta.errors === "string" ? [meta.errors] : [];
    const symptoms = Array.isArray(meta.symptoms) ? meta.symptoms.filter((e) => typeof e === "string") : [];
    if (typeof meta.title !== "string") throw new Error(`${file}: no title in the front-matter`);
    entries.push({ id, connector, title: meta.title, errors, symptoms, body: fm.body });
  }
  return entries;
}

// ---------------------------------------------------------------------------------------
// mdBook

function findMdbook(cmd) {
  const r = spawnSync(cmd, ["--version"], { encoding: "utf8" });
  if (r.error || r.status !== 0) return null;
  return r.stdout.trim();
}

// Backslash-escapes every ASCII punctuation character: the text shows as written.
const mdEscape = (s) => s.replace(/[\r\n]+/g, " ").replace(/[!-/:-@[-`{-~]/g, "\\$&");

function codeSpan(s) {
  s = s.replace(/\s+/g, " ").trim();
  const run = Math.max(0, ...(s.match(/`+/g) || []).map((r) => r.length));
  const fence = "`".repeat(run + 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${fence}${pad}${s}${pad}${fence}`;
}

function writeMdbook(entries, dir, lang) {
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "book.toml"),
    `[book]\ntitle = "bench"\nlanguage = "${lang}"\nsrc = "src"\n\n[build]\ncreate-missing = false\n\n[output.html.print]\nenable = false\n`,
  );
  const byConnector = new Map();
  const urlToId = new Map();
  for (const e of entries) {
    if (!byConnector.has(e.connector)) byConnector.set(e.connector, []);
    byConnector.get(e.connector).push(e);
    const rel = `${e.connector}/${e.id}.md`;
    fs.mkdirSync(path.join(dir, "src", e.connector), { recursive: true });
    let md = `# ${mdEscape(e.title)}\n\n`;
    if (e.errors.length) md += `## Error messages\n\n${e.errors.map((x) => `- ${codeSpan(x)}`).join("\n")}\n\n`;
    if (e.symptoms.length) md += `## Symptoms\n\n${e.symptoms.map((x) => `- ${x}`).join("\n")}\n\n`;
    md += e.body.replace(/^\s*\n/, "");
    fs.writeFileSync(path.join(dir, "src", rel), md);
    urlToId.set(`${e.connector}/${e.id}.html`, e.id);
  }
  let summary = "# Summary\n\n";
  for (const [connector, list] of byConnector) {
    summary += `# ${mdEscape(connector)}\n\n`;
    for (const e of list) summary += `- [${mdEscape(e.title)}](${e.connector}/${e.id}.md)\n`;
    summary += "\n";
  }
  fs.writeFileSync(path.join(dir, "src", "SUMMARY.md"), summary);
  return urlToId;
}

function buildMdbook(args, entries, tmp) {
  const dir = path.join(tmp, "mdbook");
  const urlToId = writeMdbook(entries, dir, bookSetting(args.book, "language", "en"));
  const r = spawnSync(args.mdbook, ["build", dir], { encoding: "utf8", env: { ...process.env, RUST_LOG: "warn" } });
  if (r.status !== 0) throw new Error(`mdbook build failed:\n${r.stderr}${r.stdout}`);
  const out = path.join(dir, "book");
  const files = fs.readdirSync(out);
  const pick = (re, what) => {
    const f = files.filter((n) => re.test(n));
    if (f.length !== 1) throw new Error(`mdbook: expected one ${what} in ${out}, found ${f.join(", ") || "none"}`);
    return path.join(out, f[0]);
  };
  // `window.search = Object.assign(window.search, JSON.parse('…'))`, as the searcher loads it
  const ctx = vm.createContext({ console, window: { search: {} } });
  vm.runInContext(fs.readFileSync(pick(/^elasticlunr.*\.js$/, "elasticlunr*.js"), "utf8"), ctx);
  vm.runInContext(fs.readFileSync(pick(/^searchindex.*\.js$/, "searchindex*.js"), "utf8"), ctx);
  const config = ctx.window.search;
  if (!ctx.elasticlunr || !config.index) throw new Error("mdbook: elasticlunr or the search index did not load");
  const index = ctx.elasticlunr.Index.load(config.index);
  return { urlToId, index, config, sections: config.doc_urls.length };
}

function runMdbook(md, queries) {
  const limit = md.config.results_options?.limit_results ?? 30;
  return queries.map((q) => {
    const term = q.q.trim();
    const results = term === "" ? [] : md.index.search(term, md.config.search_options).slice(0, limit);
    const ids = [];
    for (const r of results) {
      const page = md.config.doc_urls[r.ref].split("#")[0];
      const id = md.urlToId.get(page) ?? page;
      if (!ids.includes(id)) ids.push(id);
    }
    return { ...q, ids: ids.slice(0, 10) };
  });
}

// ---------------------------------------------------------------------------------------
// Pagefind

const ENTRY_RE = /<article\b[^>]*\bdata-entry-id="([^"]+)"/;

async function loadPagefindDeps() {
  const dir = path.join(here, "pagefind", "node_modules");
  if (!fs.existsSync(path.join(dir, "pagefind")) || !fs.existsSync(path.join(dir, "playwright-core"))) return null;
  const require = createRequire(path.join(here, "pagefind", "package.json"));
  // pagefind is ESM-only with an "import" export: load its entry file from bench/pagefind.
  const pagefind = await import(pathToFileURL(path.join(dir, "pagefind", "lib", "index.js")).href);
  const { chromium } = require("playwright-core");
  return { pagefind, chromium };
}

async function buildPagefindIndex(pagefind, site, outDir, lang) {
  const { index, errors } = await pagefind.createIndex({});
  if (errors.length) throw new Error(`pagefind: ${errors.join("; ")}`);
  const urlToId = new Map();
  for (const file of walk(site, ".html")) {
    const html = fs.readFileSync(file, "utf8");
    const m = ENTRY_RE.exec(html);
    if (!m) continue; // index, connector, tag and search pages are not entries
    const url = "/" + path.relative(site, file).split(path.sep).join("/");
    // Index only the entry article, as kbook does.
    const content = html.replace(ENTRY_RE, (tag) => tag.replace("<article", "<article data-pagefind-body"));
    const r = await index.addHTMLFile({ url, content });
    if (r.errors.length) throw new Error(`pagefind ${url}: ${r.errors.join("; ")}`);
    urlToId.set(url, m[1]);
  }
  const w = await index.writeFiles({ outputPath: path.join(outDir, "pagefind") });
  if (w.errors.length) throw new Error(`pagefind write: ${w.errors.join("; ")}`);
  await pagefind.close();
  // The search page's language picks the index and how Pagefind segments queries (CJK: by
  // word, with the browser's Intl.Segmenter).
  const html = lang ? `<html lang="${lang}">` : "<html>";
  fs.writeFileSync(path.join(outDir, "index.html"), `<!doctype html>${html}<meta charset=utf-8><title>bench</title>`);
  return urlToId;
}

const TYPES = { ".js": "text/javascript", ".html": "text/html", ".json": "application/json", ".css": "text/css" };

function serve(root) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const p = path.join(root, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
    fs.readFile(p.endsWith(path.sep) ? path.join(p, "index.html") : p, (err, data) => {
      if (err) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": TYPES[path.extname(p)] || "application/octet-stream" });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function runPagefind(page, queries, urlToId) {
  const urls = await page.evaluate(async (qs) => {
    const pf = await import("/pagefind/pagefind.js");
    await pf.options({ excerptLength: 0 });
    await pf.init();
    const out = [];
    for (const q of qs) {
      try {
        const s = await pf.search(q);
        const top = await Promise.all((s?.results || []).slice(0, 10).map((r) => r.data()));
        out.push(top.map((d) => d.url));
      } catch (e) {
        out.push([]); // a query Pagefind cannot handle finds nothing
      }
    }
    return out;
  }, queries.map((q) => q.q));
  return queries.map((q, i) => ({
    ...q,
    ids: urls[i].map((u) => urlToId.get(decodeURI(u)) ?? urlToId.get(u) ?? u),
  }));
}

// ---------------------------------------------------------------------------------------

const fmt = (x) => (x === null || x === undefined ? "-" : x.toFixed(3));

function printTable(head, rows) {
  const table = [head, ...rows];
  const widths = head.map((_, c) => Math.max(...table.map((r) => r[c].length)));
  for (const r of table) console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kbook-compare-"));
  const engines = ["kbook", "bm25"];
  let md = null, pf = null, browser = null, server = null, page = null;
  try {
    // mdBook
    const version = findMdbook(args.mdbook);
    if (!version) {
      console.error(
        `mdbook: \`${args.mdbook}\` not found: skipping the mdBook column ` +
          "(install it with `cargo install mdbook --version 0.5.4 --locked`, then pass --mdbook PATH or set $MDBOOK)",
      );
    } else {
      if (!/\bv?0\.5\.4\b/.test(version)) console.error(`mdbook: ${version} (the comparison was written for mdBook 0.5.4)`);
      const t0 = Date.now();
      const entries = readEntries(args.book);
      md = buildMdbook(args, entries, tmp);
      console.error(
        `mdbook: ${version}: ${entries.length} chapters, ${md.sections} sections indexed in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      engines.push("mdbook");
    }
    // Pagefind
    const deps = await loadPagefindDeps();
    if (!deps) {
      console.error("pagefind: bench/pagefind/node_modules is missing: skipping the Pagefind column (run `npm ci` in bench/pagefind)");
    } else {
      const t0 = Date.now();
      const urlToId = await buildPagefindIndex(deps.pagefind, args.site, tmp, args.pageLang);
      console.error(`pagefind: indexed ${urlToId.size} entry pages in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      server = await serve(tmp);
      browser = await deps.chromium.launch({ executablePath: args.chromium, headless: true, args: CHROMIUM_FLAGS });
      page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
      pf = { urlToId };
      engines.push("pagefind");
    }

    const rank = [], conf = [];
    for (const file of args.queries) {
      const qs = readQueries(file);
      const res = {
        kbook: runKbook(args, file, null),
        bm25: runKbook(args, file, "bm25"),
      };
      const rowsOf = {};
      if (md) rowsOf.mdbook = runMdbook(md, qs);
      if (pf) rowsOf.pagefind = await runPagefind(page, qs, pf.urlToId);
      const styles = [...new Set(qs.map((q) => q.style))].sort();
      for (const style of [...styles, "all"]) {
        const m = {};
        for (const e of ["kbook", "bm25"]) m[e] = style === "all" ? res[e] : res[e].by_style[style];
        for (const [e, rows] of Object.entries(rowsOf)) m[e] = metrics(style === "all" ? rows : rows.filter((r) => r.style === style));
        const n = m.kbook.n, u = m.kbook.unanswered ?? 0;
        for (const e of engines) {
          if (m[e].n !== n || (m[e].unanswered ?? 0) !== u) throw new Error(`${file} ${style}: ${e} counted other queries`);
        }
        const head = [path.basename(file), style, String(n), String(u)];
        rank.push([...head, ...engines.flatMap((e) => (n ? [m[e].top1, m[e].mrr10, m[e].recall5] : [null, null, null]).map(fmt))]);
        conf.push([...head, ...engines.flatMap((e) => [m[e].abstain, m[e].confident_precision, m[e].confident_rate].map(fmt))]);
      }
    }
    console.log(`book: ${args.book}, site: ${args.site}`);
    console.log("\nRanking (over the n queries with expected ids):");
    printTable(["queries", "style", "n", "no-ans", ...engines.flatMap((e) => [`${e} top1`, "MRR@10", "R@5"])], rank);
    console.log("\nConfidence (kbook's own; for the others any result counts as a confident answer):");
    printTable(["queries", "style", "n", "no-ans", ...engines.flatMap((e) => [`${e} abstain`, "conf-prec", "conf-rate"])], conf);
  } finally {
    if (browser) await browser.close();
    if (server) server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e?.stack || String(e));
  process.exit(1);
});
