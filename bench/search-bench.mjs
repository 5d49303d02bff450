#!/usr/bin/env node
// Browser side of `cargo xtask bench`: bytes transferred and latency of searches in headless
// Chromium, for kbook's built site and (with --pagefind) for Pagefind over the same HTML.
//
//   node bench/search-bench.mjs --site BUILT_SITE --queries FILE.jsonl [--delay-ms MS] [--pagefind DIR]
//
// --delay-ms holds back each response by MS, as a round trip to a static host would.
//
// Prints one JSON object on stdout:
//   {"kbook": {...}, "pagefind": {...}} with, per engine: load_bytes (the page itself),
//   first_bytes and first_ms (the first search, including whatever it loads lazily),
//   next_bytes / next_bytes_max (mean and largest bytes of each following search), next_ms_median / next_ms_p95 (each
//   following search, in the page: performance.now() around the call), repeat_ms_median /
//   repeat_ms_p95 (the same searches again, all their data loaded), and for Pagefind
//   index_ms / index_bytes (its indexing time and the size of its bundle).
//
// Bytes are the response bodies the server sent while the step ran (counted at the server:
// Pagefind fetches from a Web Worker, whose requests the page's DevTools session misses). The server compresses like a static host with precompressed files
// (brotli when the browser accepts it, else gzip), so bytes are what readers download. Chromium is Debian's (/usr/bin/chromium or $CHROMIUM), driven by
// playwright-core from bench/pagefind (no browser download), with a fresh profile each run.
// The sites are served from 127.0.0.1 by a small static server in this process.

import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "pagefind", "package.json"));
const { chromium } = require("playwright-core");

// The browser tests' flags (a quiet browser that never talks to the network).
const FLAGS = fs
  .readFileSync(path.join(here, "..", "tests", "common", "chromium-flags.txt"), "utf8")
  .split("\n")
  .filter((f) => f.trim());

function parseArgs(argv) {
  const a = { site: null, queries: null, pagefind: null, limit: 10, delayMs: 0, chromium: process.env.CHROMIUM || "/usr/bin/chromium" };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${k} needs a value`);
      return argv[++i];
    };
    if (k === "--site") a.site = v();
    else if (k === "--queries") a.queries = v();
    else if (k === "--pagefind") a.pagefind = v();
    else if (k === "--chromium") a.chromium = v();
    else if (k === "--limit") a.limit = Math.max(1, Number(v()) || 10);
    else if (k === "--delay-ms") {
      a.delayMs = Number(v());
      if (!Number.isFinite(a.delayMs) || a.delayMs < 0) throw new Error("--delay-ms needs a number of milliseconds");
    }
    else throw new Error(`unknown argument ${k}`);
  }
  if (!a.site || !a.queries) throw new Error("usage: search-bench.mjs --site DIR --queries FILE [--limit N] [--delay-ms MS] [--pagefind WORKDIR]");
  return a;
}

const TYPES = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".html": "text/html",
  ".json": "application/json",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
};

const COMPRESSED = new Map(); // "<encoding> <file>" -> bytes
const encodingsUsed = new Set();

function compress(file, data, encoding) {
  const key = `${encoding} ${file}`;
  if (!COMPRESSED.has(key)) {
    COMPRESSED.set(
      key,
      encoding === "br"
        ? zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })
        : zlib.gzipSync(data, { level: 9 }),
    );
  }
  return COMPRESSED.get(key);
}

// `delayMs` holds back every response, as a network round trip would: a search that fetches
// in several rounds then pays for each.
function serve(root, sent, delayMs = 0) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const p = path.join(root, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
    const file = rel.endsWith("/") ? path.join(p, "index.html") : p;
    fs.readFile(file, (err, data) => {
      if (err) {
        setTimeout(() => {
          res.writeHead(404);
          res.end();
        }, delayMs);
        return;
      }
      const accept = String(req.headers["accept-encoding"] || "");
      const encoding = /\bbr\b/.test(accept) ? "br" : /\bgzip\b/.test(accept) ? "gzip" : null;
      const headers = { "content-type": TYPES[path.extname(file)] || "application/octet-stream" };
      if (encoding) {
        encodingsUsed.add(encoding);
        headers["content-encoding"] = encoding;
        data = compress(file, data, encoding);
      }
      sent.bytes += data.length;
      setTimeout(() => {
        res.writeHead(200, headers);
        res.end(data);
      }, delayMs);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const quantile = (xs, q) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round(q * (s.length - 1)))];
};

// Runs `steps` (async functions evaluated in the page) with a fresh Chromium profile and
// counts the bytes each step transferred.
// Runs the steps twice and keeps the second run: the first fills the server's compression
// cache, so compressing files (brotli 11 takes milliseconds per block) is not timed.
async function measure(...a) {
  await measureOnce(...a);
  return measureOnce(...a);
}

async function measureOnce(args, root, startPage, init, search, queries) {
  const sent = { bytes: 0 };
  const server = await serve(root, sent, args.delayMs);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "kbook-bench-chromium-"));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: args.chromium,
    headless: true,
    args: FLAGS,
  });
  try {
    const page = ctx.pages()[0] || (await ctx.newPage());
    let bytes = 0;
    const counted = () => {
      bytes += sent.bytes;
      sent.bytes = 0;
    };
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await page.goto(`http://127.0.0.1:${server.address().port}/${startPage}`, { waitUntil: "load" });
    await settle();
    counted();
    const load_bytes = bytes;
    if (init) await page.evaluate(init);
    counted();
    bytes = 0;
    const first_ms = await page.evaluate(search, [queries[0], args.limit]);
    await settle();
    counted();
    const first_bytes = bytes;
    const times = [];
    const sizes = [];
    for (const q of queries.slice(1)) {
      bytes = 0;
      times.push(await page.evaluate(search, [q, args.limit]));
      await settle();
      counted();
      sizes.push(bytes);
    }
    // The same searches again, with everything they read already loaded: the engine's own
    // time, without fetching (the difference to next_ms is what fetch rounds cost).
    const repeat = [];
    for (const q of queries.slice(1)) repeat.push(await page.evaluate(search, [q, args.limit]));
    return {
      load_bytes,
      first_bytes,
      first_ms,
      next_bytes: sizes.length ? sizes.reduce((a, b) => a + b, 0) / sizes.length : 0,
      next_bytes_max: sizes.length ? Math.max(...sizes) : 0,
      encoding: [...encodingsUsed].sort().join("+") || "identity",
      next_ms_median: quantile(times, 0.5),
      next_ms_p95: quantile(times, 0.95),
      repeat_ms_median: quantile(repeat, 0.5),
      repeat_ms_p95: quantile(repeat, 0.95),
      queries: queries.length,
    };
  } finally {
    await ctx.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

function* walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile() && e.name.endsWith(".html")) yield p;
  }
}

function dirBytes(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return n;
}

const ENTRY_RE = /<article\b[^>]*\bdata-entry-id="([^"]+)"/;

// Pagefind over kbook's entry pages (only the entry article, as kbook indexes), as in
// bench/compare-search.mjs.
async function buildPagefind(site, outDir) {
  const pagefind = await import(
    pathToFileURL(path.join(here, "pagefind", "node_modules", "pagefind", "lib", "index.js")).href
  );
  const t0 = performance.now();
  const { index, errors } = await pagefind.createIndex({});
  if (errors.length) throw new Error(`pagefind: ${errors.join("; ")}`);
  for (const file of walk(site)) {
    const html = fs.readFileSync(file, "utf8");
    if (!ENTRY_RE.test(html)) continue;
    const url = "/" + path.relative(site, file).split(path.sep).join("/");
    const content = html.replace(ENTRY_RE, (tag) => tag.replace("<article", "<article data-pagefind-body"));
    const r = await index.addHTMLFile({ url, content });
    if (r.errors.length) throw new Error(`pagefind ${url}: ${r.errors.join("; ")}`);
  }
  const w = await index.writeFiles({ outputPath: path.join(outDir, "pagefind") });
  if (w.errors.length) throw new Error(`pagefind write: ${w.errors.join("; ")}`);
  const index_ms = performance.now() - t0;
  await pagefind.close();
  fs.writeFileSync(path.join(outDir, "index.html"), "<!doctype html><meta charset=utf-8><title>bench</title>");
  return { index_ms, index_bytes: dirBytes(path.join(outDir, "pagefind")) };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const queries = fs
    .readFileSync(args.queries, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l).q);
  const out = {};
  // kbook: the search page, then window.kbook.search (the page-level API) per query.
  out.kbook = await measure(
    args,
    args.site,
    "search.html",
    null,
    async ([q, limit]) => {
      const t = performance.now();
      await window.kbook.search(q, { limit });
      return performance.now() - t;
    },
    queries,
  );
  if (args.pagefind) {
    fs.rmSync(args.pagefind, { recursive: true, force: true });
    fs.mkdirSync(args.pagefind, { recursive: true });
    const built = await buildPagefind(args.site, args.pagefind);
    // A search, and the data (title, URL, excerpt) of its top results: what a result list shows.
    const m = await measure(
      args,
      args.pagefind,
      "index.html",
      null,
      async ([q, limit]) => {
        const t = performance.now();
        window.__pf = window.__pf || (await import("/pagefind/pagefind.js"));
        let s = null;
        try {
          s = await window.__pf.search(q);
        } catch (e) {
          s = null; // a query Pagefind cannot handle finds nothing
        }
        await Promise.all((s?.results || []).slice(0, limit).map((r) => r.data()));
        return performance.now() - t;
      },
      queries,
    );
    out.pagefind = { ...built, ...m };
  }
  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(`search-bench: ${e.stack || e}`);
  process.exit(1);
});
