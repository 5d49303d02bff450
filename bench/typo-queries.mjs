#!/usr/bin/env node
// Misspelt queries for measuring typo tolerance: the curated English keyword and question
// queries of tests/queries.jsonl with one edit (two letters swapped, one dropped or one
// doubled; never the first or the last letter) in every word of six or more letters. The
// edits are drawn from a fixed seed, so every run writes the same file.
//
//   node bench/typo-queries.mjs [--queries tests/queries.jsonl] [--seed 11] > /tmp/typo.jsonl
//   target/release/kbook eval --queries /tmp/typo.jsonl --site /tmp/kb
//   target/release/kbook eval --queries /tmp/typo.jsonl --site /tmp/kb --ablate typo
//
// Real users' sets are copied text, so typing errors are rare in them; this set measures
// the part they cannot.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = { queries: path.join(root, "tests", "queries.jsonl"), seed: 11 };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, "");
  const value = process.argv[i + 1];
  if (!(key in args) || value === undefined) {
    console.error(`usage: typo-queries.mjs [--queries FILE] [--seed N] (got ${process.argv[i]})`);
    process.exit(2);
  }
  args[key] = key === "seed" ? Number(value) : value;
}
if (!Number.isInteger(args.seed)) {
  console.error(`--seed must be an integer (got ${args.seed})`);
  process.exit(2);
}
// `| head` closes the pipe early: not an error.
process.stdout.on("error", (e) => {
  if (e.code === "EPIPE") process.exit(0);
  throw e;
});

// mulberry32: a small seeded generator (Math.random cannot be seeded).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(args.seed);
const pick = (n) => Math.floor(random() * n);

function misspell(word) {
  const i = 1 + pick(word.length - 3);
  const edit = pick(3);
  // Swapping two equal letters would change nothing: drop one instead.
  switch (edit === 0 && word[i] === word[i + 1] ? 1 : edit) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    default:
      return word.slice(0, i) + word[i] + word.slice(i);
  }
}

let written = 0;
for (const line of fs.readFileSync(args.queries, "utf8").split("\n")) {
  if (!line.trim()) continue;
  const q = JSON.parse(line);
  if (!["keyword", "question"].includes(q.style) || q.lang === "zh") continue;
  const typed = q.q.replace(/[A-Za-z]{6,}/g, misspell);
  if (typed === q.q) continue;
  process.stdout.write(JSON.stringify({ ...q, q: typed }) + "\n");
  written++;
}
console.error(`${written} misspelt queries`);
