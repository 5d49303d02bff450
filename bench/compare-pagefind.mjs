#!/usr/bin/env node
// Side-by-side relevance: kbook's own search vs Pagefind, on kbook's built HTML, same queries.
//
//   cd bench/pagefind && npm ci && cd ../..
//   cargo build --release -p kbook
//   target/release/kbook build --book . --dest /tmp/kb
//   node bench/compare-pagefind.mjs --book . --site /tmp/kb \
//        --queries tests/queries.jsonl [--queries more.jsonl ...]
//
// Pagefind (npm `pagefind`, pinned in bench/pagefind/package.json) indexes every entry page of
// the built site through its Node API; only each page's `<article class="entry">` is indexed
// (the same text kbook indexes, and Pagefind's own recommended `data-pagefind-body` setup).
// Its search runtime needs a browser (it uses `window`, `document` and a Web Worker), so the
// queries run through Pagefind's JS API in headless Chromium, driven by `playwright-core`
// with the system Chromium (/usr/bin/chromium, or $CHROMIUM): no browser is downloaded.
// kbook's side is `kbook eval --json` on the same book and query files.
//
// Prints one table: per query file and style, top-1, MRR@10 and recall@5 for both engines.

import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "pagefind", "package.json"));
// pagefind is ESM-only with an "import" export: load its entry file from bench/pagefind.
const pagefind = await import(
  pathToFileURL(path.join(here, "pagefind", "node_modules", "pagefind", "lib", "index.js")).href
);
const { chromium } = require("playwright-core");

function parseArgs(argv) {
  const a = {
    book: ".",
    site: null,
    queries: [],
    kbook: path.join(here, "..", "target", "release", "kbook"),
    chromium: process.env.CHROMIUM || "/usr/bin/chromium",
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
    else if (k === "--chromium") a.chromium = v();
    else if (k === "-h" || k === "--help") {
      console.log(
        "usage: node bench/compare-pagefind.mjs --book BOOK --site BUILT_SITE --queries FILE.jsonl [--queries ...] [--kbook BIN] [--chromium PATH]",
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${k}`);
  }
  if (!a.site) a.site = path.join(a.book, "book");
  if (a.queries.length === 0) a.queries.push(path.join(a.book, "tests", "queries.jsonl"));
  return a;
}

function* walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile() && e.name.endsWith(".html")) yield p;
  }
}

const ENTRY_RE = /<article\b[^>]*\bdata-entry-id="([^"]+)"/;

async function buildPagefindIndex(site, outDir) {
  const { index, errors } = await pagefind.createIndex({});
  if (errors.length) throw new Error(`pagefind: ${errors.join("; ")}`);
  const urlToId = new Map();
  for (const file of walk(site)) {
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
  fs.writeFileSync(path.join(outDir, "index.html"), "<!doctype html><meta charset=utf-8><title>bench</title>");
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

function readQueries(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .map((q) => ({ q: q.q, expect: q.expect, style: q.style || "unlabelled" }));
}

function metrics(rows) {
  const n = rows.length || 1;
  let top1 = 0, rr = 0, rec = 0;
  for (const { ids, expect } of rows) {
    const pos = ids.findIndex((id) => expect.includes(id));
    if (pos === 0) top1++;
    if (pos >= 0 && pos < 10) rr += 1 / (pos + 1);
    const top5 = ids.slice(0, 5);
    rec += expect.length ? expect.filter((e) => top5.includes(e)).length / expect.length : 0;
  }
  return { n: rows.length, top1: top1 / n, mrr10: rr / n, recall5: rec / n };
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

function runKbook(args, file) {
  const out = execFileSync(args.kbook, ["eval", "--queries", file, "--book", args.book, "--json"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}

const fmt = (x) => x.toFixed(3);

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kbook-pagefind-"));
  const t0 = Date.now();
  const urlToId = await buildPagefindIndex(args.site, tmp);
  console.error(`pagefind: indexed ${urlToId.size} entry pages in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const server = await serve(tmp);
  const browser = await chromium.launch({ executablePath: args.chromium, headless: true });
  const rows = [];
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    for (const file of args.queries) {
      const qs = readQueries(file);
      const pf = await runPagefind(page, qs, urlToId);
      const ours = runKbook(args, file);
      const styles = [...new Set(qs.map((q) => q.style))].sort();
      for (const style of [...styles, "all"]) {
        const sel = style === "all" ? pf : pf.filter((r) => r.style === style);
        const p = metrics(sel);
        const k = style === "all" ? ours : ours.by_style[style];
        rows.push([path.basename(file), style, p.n, k.top1, k.mrr10, k.recall5, p.top1, p.mrr10, p.recall5]);
      }
    }
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const head = ["queries", "style", "n", "kbook top1", "MRR@10", "R@5", "pagefind top1", "MRR@10", "R@5"];
  const table = [head, ...rows.map((r) => [r[0], r[1], String(r[2]), ...r.slice(3).map(fmt)])];
  const widths = head.map((_, c) => Math.max(...table.map((r) => r[c].length)));
  console.log(`site: ${args.site} (${urlToId.size} entries)`);
  for (const r of table) console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
}

main().catch((e) => {
  console.error(e?.stack || String(e));
  process.exit(1);
});
