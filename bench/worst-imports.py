#!/usr/bin/env python3
"""Time `kbook import` on one long page built to be slow, against an ordinary long FAQ page;
then `kbook build` of one long entry full of problems, against one of plain paragraphs.

usage: bench/worst-imports.py KBOOK_BINARY [SIZE_KIB] [RUNS] [CAP_SECONDS]

Each case is a source tree of one generator with one page of SIZE_KIB (default 256): block
openers whose closers are missing (Hugo shortcodes, Zola and Docusaurus admonitions), HTML
comments never closed, many bold or `<details>` questions, many includes that are missing, and
so on. The baseline is an FAQ page of the same size, one question per heading. Prints the
median of RUNS runs (default 3) and its ratio to the baseline, and the median user CPU time: a
page of thousands of questions writes thousands of files, and the file system's share of the
wall time (system time) grows with the files the runs before deleted. A step that reads the
rest of the page once per line shows as a user time that grows with the square of the size. A run longer than
CAP_SECONDS (default 120) is stopped and shown as `> CAP`. A case whose page has nothing to
import, or whose entry has problems, ends with an error, which is timed all the same.
"""
import os, resource, statistics, subprocess, sys, tempfile, time

kbook = sys.argv[1]
size = (int(sys.argv[2]) if len(sys.argv) > 2 else 256) * 1024
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
cap = float(sys.argv[4]) if len(sys.argv) > 4 else 120.0


def fill(unit: str) -> str:
    """`unit` repeated to `size` bytes, `#N` numbered so that questions differ."""
    parts, n, total = [], 0, 0
    while total < size:
        part = unit.replace("#N", str(n))
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)[:size]


CONFIG = {
    "hugo": ("hugo.toml", 'title = "x"\n', "content/docs/faq.md"),
    "zola": ("config.toml", 'base_url = "x"\n', "content/docs/faq.md"),
    "docusaurus": ("docusaurus.config.js", "module.exports = {};\n", "docs/faq.md"),
    "mkdocs": ("mkdocs.yml", "site_name: x\n", "docs/faq.md"),
    "mdbook": ("book.toml", '[book]\ntitle = "x"\n', "src/faq.md"),
}

CASES = [
    ("docusaurus", "baseline: an FAQ of headings", "## Why does job #N fail?\n\nBecause of x.\n\n"),
    ("hugo", "note shortcodes never closed", "{{< note >}}\ntext\n"),
    ("hugo", "details shortcodes never closed", '{{< details summary="Why #N?" >}}\ntext\n'),
    ("zola", "notes never closed", "{% note() %}\ntext\n"),
    ("docusaurus", "::: admonitions never closed", ":::note\ntext\n"),
    ("docusaurus", "HTML comments never closed", "<!-- a\n\n"),
    ("mkdocs", "!!! admonitions", "!!! note\n    text\n"),
    ("mkdocs", "inline comments never closed", "text <!-- a\n"),
    ("docusaurus", "bold questions", "**Why does job #N fail?**\n\nAnswer.\n\n"),
    ("docusaurus", "details questions", "<details><summary>Why #N?</summary>\n\nA.\n\n</details>\n\n"),
    ("docusaurus", "same question repeated", "## Why does the job fail?\n\nBecause of x.\n\n"),
    ("docusaurus", "links to missing pages", "See [x](missing-#N.md) and ![y](gone-#N.png).\n"),
    ("mdbook", "includes that are missing", "{{#include missing.rs:a}}\n"),
]


def tree(root: str, gen: str, page: str) -> None:
    config, text, rel = CONFIG[gen]
    with open(os.path.join(root, config), "w") as f:
        f.write(text)
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path))
    front = '+++\ntitle = "FAQ"\n+++\n\n' if gen == "zola" else "---\ntitle: FAQ\n---\n\n"
    with open(path, "w") as f:
        f.write(front + page)
    if gen == "mdbook":
        with open(os.path.join(root, "src/SUMMARY.md"), "w") as f:
            f.write("# Summary\n\n- [FAQ](faq.md)\n")


def timed(prepare):
    """The median wall and user times of `runs` runs of the command `prepare(tmp)` writes its
    input for in a new directory and returns, or None when one ran longer than `cap`."""
    times, users = [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            cmd = prepare(tmp)
            t0 = time.perf_counter()
            u0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            try:
                subprocess.run(cmd, capture_output=True, check=False, timeout=cap)
            except subprocess.TimeoutExpired:
                return None
            times.append(time.perf_counter() - t0)
            users.append(resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - u0)
    return statistics.median(times), statistics.median(users)


def table(title: str, rows):
    """Times each (label, prepare) of `rows`; the first is the baseline of the ratios."""
    base = None
    print(f"{title:44} {'median s':>9} {'× baseline':>11} {'user s':>7}")
    for label, prepare in rows:
        t = timed(prepare)
        if t is None:
            print(f"{label:44} {'> ' + str(int(cap)):>9} {'> ' + str(int(cap / base)):>11}")
            continue
        wall, user = t
        base = base or wall
        print(f"{label:44} {wall:9.3f} {wall / base:11.2f} {user:7.3f}")


def import_of(gen: str, page: str):
    def prepare(tmp):
        src = os.path.join(tmp, "src")
        os.makedirs(src)
        tree(src, gen, page)
        return [kbook, "import", "--from", gen, src, "--into", os.path.join(tmp, "book"), "--json"]
    return prepare


BUILD_CASES = [
    ("baseline: paragraphs", "Some text about job #N failing.\n\n"),
    ("links to missing anchors, one line", "[a](#nope-#N) "),
    ("links to missing entries, one line", "[a](missing-#N.md) "),
    ("links to missing anchors, a line each", "[a](#nope-#N)\n\n"),
]
BOOK_TOML = """[book]
title = "x"
src = "content"

[[kbook.connectors]]
slug = "general"
name = "General"
description = "g"
"""


def build_of(body: str):
    def prepare(tmp):
        os.makedirs(os.path.join(tmp, "content/general"))
        with open(os.path.join(tmp, "book.toml"), "w") as f:
            f.write(BOOK_TOML)
        with open(os.path.join(tmp, "content/general/e.md"), "w") as f:
            f.write("---\nid: e\ntitle: E\nconnector: general\nkind: troubleshooting\n---\n\n")
            f.write(body)
        return [kbook, "build", "--book", tmp, "--dest", os.path.join(tmp, "out")]
    return prepare


kib = size // 1024
table(f"page ({kib} KiB)", [(f"{gen}: {name}", import_of(gen, fill(unit))) for gen, name, unit in CASES])
print()
table(f"kbook build, entry ({kib} KiB)", [(name, build_of(fill(unit))) for name, unit in BUILD_CASES])
