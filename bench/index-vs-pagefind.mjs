#!/usr/bin/env node
// `kbook index` against Pagefind on the same built site, in the same run: indexing time and
// top-1 on labelled queries (pasted errors, traces, questions).
//
//   (cd bench/pagefind && npm ci)
//   cargo build --release -p kbook
//   cargo xtask bench --sizes 1000 --no-browser     # writes target/bench/hugo-1000-public
//   node bench/index-vs-pagefind.mjs --site target/bench/hugo-1000-public \
//        [--queries tests/realworld.jsonl ...] [--runs 3] [--kbook target/release/kbook]
//
// Both engines index the site as it is, with their default content selection (kbook: <main>,
// else <article>, else <body> without nav/header/footer; Pagefind: <body>). Each engine indexes
// its own copy of the site `--runs` times; the median wall time is reported. Result URLs map
// to entry ids by the page's directory (`<connector>/<id>/index.html`, as Hugo writes pages),
// so queries labelled with the bundled book's entry ids apply. kbook's queries run through
// `kbook search --site SITE/kbook` (the index the browser loads, read by the same code);
// Pagefind's through its JS API in headless Chromium (playwright-core with the system
// Chromium; no browser is downloaded).

import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

function parseArgs(argv) {
  const a = { site: null, queries: [], runs: 3, kbook: path.join(root, "target/release/kbook"), chromium: process.env.CHROMIUM || "/usr/bin/chromium" };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === "--site") a.site = v();
    else if (k === "--queries") a.queries.push(v());
    else if (k === "--runs") a.runs = Number(v());
    else if (k === "--kbook") a.kbook = v();
    else if (k === "--chromium") a.chromium = v();
    else throw new Error(`unknown option ${k}`);
  }
  if (!a.site) throw new Error("usage: node bench/index-vs-pagefind.mjs --site DIR [--queries FILE]... [--runs N] [--kbook BIN]");
  if (!a.queries.length) a.queries.push(path.join(root, "tests/realworld.jsonl"));
  return a;
}

const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

function timed(cmd, args, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 26, ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr || r.error}`);
  return ms;
}

/// `kafka/kafka-commit-offsets/index.html` (any prefix of `../` or `/`) → `kafka-commit-offsets`.
function idOf(url) {
  const parts = decodeURI(url).split(/[?#]/)[0].split("/").filter((p) => p && p !== "..");
  if (parts.length && /\.html$/.test(parts[parts.length - 1])) {
    const last = parts.pop();
    if (last !== "index.html") return last.replace(/\.html$/, "");
  }
  return parts.pop() || "";
}

const TYPES = { ".js": "text/javascript", ".html": "text/html", ".json": "application/json", ".css": "text/css", ".wasm": "application/wasm" };

function serve(dir) {
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let p = path.join(dir, path.normalize(rel).replace(/^(\.\.[/\\])+/, ""));
    if (rel.endsWith("/")) p = path.join(p, "index.html");
    fs.readFile(p, (err, data) => {
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

function readQueries(files) {
  const out = [];
  for (const f of files) {
    for (const line of fs.readFileSync(f, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const q = JSON.parse(line);
      if (q.expect && q.expect.length) out.push({ ...q, file: path.basename(f) });
    }
  }
  return out;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kbook-index-bench-"));
  const kbSite = path.join(tmp, "kbook-site");
  const pfSite = path.join(tmp, "pagefind-site");
  fs.cpSync(a.site, kbSite, { recursive: true });
  fs.cpSync(a.site, pfSite, { recursive: true });
  const pages = fs.readdirSync(kbSite, { recursive: true }).filter((f) => String(f).endsWith(".html")).length;

  const pfBin = path.join(here, "pagefind", "node_modules", ".bin", "pagefind");
  const havePf = fs.existsSync(pfBin);
  const kbTimes = [], pfTimes = [];
  for (let r = 0; r < a.runs; r++) {
    kbTimes.push(timed(a.kbook, ["index", kbSite]));
    if (havePf) pfTimes.push(timed(pfBin, ["--site", pfSite], { env: { ...process.env, PAGEFIND_SITE: pfSite } }));
  }
  console.log(`site: ${a.site} (${pages} HTML pages), ${a.runs} runs each`);
  console.log(`index time  kbook index: ${median(kbTimes).toFixed(0)} ms` +
    (havePf ? `   pagefind: ${median(pfTimes).toFixed(0)} ms   ratio kbook/pagefind: ${(median(kbTimes) / median(pfTimes)).toFixed(2)}` : "   pagefind: not installed (cd bench/pagefind && npm ci)"));

  const queries = readQueries(a.queries);
  const kb = queries.map((q) => {
    const r = spawnSync(a.kbook, ["search", "--json", "--limit", "10", "--site", path.join(kbSite, "kbook"), "--stdin"], { input: q.q, encoding: "utf8", maxBuffer: 1 << 26 });
    if (r.status !== 0) return [];
    return JSON.parse(r.stdout).hits.map((h) => idOf(h.url));
  });
  let pf = null;
  if (havePf) {
    const require = createRequire(path.join(here, "pagefind", "package.json"));
    const { chromium } = require("playwright-core");
    const server = await serve(pfSite);
    const browser = await chromium.launch({ executablePath: a.chromium });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
      const urls = await page.evaluate(async (qs) => {
        const m = await import("/pagefind/pagefind.js");
        await m.options({ excerptLength: 0 });
        await m.init();
        const out = [];
        for (const q of qs) {
          try {
            const s = await m.search(q);
            out.push((await Promise.all((s?.results || []).slice(0, 10).map((r) => r.data()))).map((d) => d.url));
          } catch (e) {
            out.push([]);
          }
        }
        return out;
      }, queries.map((q) => q.q));
      pf = urls.map((us) => us.map(idOf));
    } finally {
      await browser.close();
      server.close();
    }
  }

  const groups = new Map();
  queries.forEach((q, i) => {
    for (const key of [`${q.file} all`, `${q.file} ${q.style || "-"}`]) {
      if (!groups.has(key)) groups.set(key, { n: 0, kb: 0, pf: 0 });
      const g = groups.get(key);
      g.n++;
      if (q.expect.includes(kb[i][0])) g.kb++;
      if (pf && q.expect.includes(pf[i][0])) g.pf++;
    }
  });
  console.log("\ntop-1 on the same pages and queries (queries an entry answers)");
  console.log("set / style".padEnd(34) + "n".padStart(5) + "kbook".padStart(8) + "pagefind".padStart(10) + "diff".padStart(8));
  for (const [key, g] of [...groups].sort()) {
    const k = g.kb / g.n, p = pf ? g.pf / g.n : null;
    console.log(key.padEnd(34) + String(g.n).padStart(5) + k.toFixed(3).padStart(8) + (p === null ? "-" : p.toFixed(3)).padStart(10) + (p === null ? "-" : (k - p).toFixed(3)).padStart(8));
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
