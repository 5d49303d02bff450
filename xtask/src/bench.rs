//! `cargo xtask bench`: builds books of several sizes (the bundled book plus N deterministic
//! synthetic entries) with the release `kbook`, measures the build (wall, CPU, peak RSS, stage
//! timings), the output, the search assets, native and in-browser search with pasted errors,
//! Pagefind over the same HTML, Hugo's build of the same entries, and how many output files
//! one edited entry body changes, and prints one table. Results are printed, not asserted (the
//! machine decides the numbers).

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// What to run.
struct BenchArgs {
    sizes: Vec<usize>,
    runs: usize,
    browser: bool,
    pagefind: bool,
    hugo: bool,
    edit: bool,
    /// The book the synthetic entries are added to (`None`: synthetic entries only).
    base: Option<PathBuf>,
    kbook: Option<PathBuf>,
    work: PathBuf,
    queries: PathBuf,
}

fn parse(args: &[String], root: &Path) -> Result<BenchArgs> {
    let mut a = BenchArgs {
        sizes: vec![1_000, 10_000, 100_000],
        runs: 1,
        browser: true,
        pagefind: true,
        hugo: true,
        edit: true,
        base: Some(root.to_path_buf()),
        kbook: None,
        work: root.join("target/bench"),
        // Error lines, traces and log excerpts as systems print them: what readers paste.
        queries: root.join("tests/realworld.jsonl"),
    };
    let mut it = args.iter();
    while let Some(k) = it.next() {
        let mut value = || it.next().with_context(|| format!("{k} needs a value"));
        match k.as_str() {
            "--sizes" => {
                a.sizes = value()?
                    .split(',')
                    .map(|s| s.trim().replace('_', "").parse::<usize>())
                    .collect::<Result<_, _>>()
                    .context("--sizes takes numbers separated by commas, e.g. 1000,10000")?;
            }
            "--runs" => a.runs = value()?.parse().context("--runs takes a number")?,
            "--no-browser" => a.browser = false,
            "--no-pagefind" => a.pagefind = false,
            "--no-hugo" => a.hugo = false,
            "--no-edit" => a.edit = false,
            "--base" => {
                let v = value()?;
                a.base = (v != "none").then(|| PathBuf::from(v));
            }
            "--kbook" => a.kbook = Some(PathBuf::from(value()?)),
            "--work" => a.work = PathBuf::from(value()?),
            "--queries" => a.queries = PathBuf::from(value()?),
            other => bail!(
                "unknown bench option {other}\nusage: cargo xtask bench [--sizes 1000,10000,100000] [--runs N] [--no-browser] [--no-pagefind] [--no-hugo] [--no-edit] [--base BOOK|none] [--kbook BIN] [--work DIR] [--queries FILE.jsonl]"
            ),
        }
    }
    a.runs = a.runs.max(1);
    Ok(a)
}

/// One measured build.
#[derive(Default, Clone)]
struct BuildRun {
    wall: f64,
    cpu: f64,
    rss_kib: u64,
    stages: Vec<(String, u64, u64)>,
}

/// Everything measured for one book size.
#[derive(Default)]
struct SizeResult {
    entries: usize,
    /// Entries of the base book besides the synthetic ones.
    base_entries: usize,
    /// Hugo's build of the same entries (minimal templates, no search).
    hugo: Option<Result<BuildRun, String>>,
    /// After one entry's body is edited: files whose bytes changed (added or removed
    /// included), in all and outside search/.
    edit: Option<(usize, usize)>,
    build: BuildRun,
    output_bytes: u64,
    files: usize,
    index_bytes: u64,
    module: (u64, u64, u64),
    load_ms: f64,
    native: (f64, f64),
    browser: Option<serde_json::Value>,
}

/// `cargo xtask bench [...]`.
pub fn bench(args: &[String]) -> Result<ExitCode> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask has no parent directory")?
        .to_path_buf();
    let a = parse(args, &root)?;
    if cfg!(debug_assertions) {
        // Native search latency needs optimised code: run the bench from a release xtask.
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args(["run", "--quiet", "--release", "-p", "xtask", "--", "bench"])
            .args(args)
            .current_dir(&root)
            .status()
            .context("cannot run cargo run --release -p xtask")?;
        return Ok(if status.success() {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    std::fs::create_dir_all(&a.work)
        .with_context(|| format!("cannot create {}", a.work.display()))?;
    let kbook = match &a.kbook {
        Some(k) => k.clone(),
        None => {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "--release", "-p", "kbook"])
                .current_dir(&root)
                .status()
                .context("cannot run cargo build")?;
            if !status.success() {
                bail!("cargo build --release -p kbook failed");
            }
            root.join("target/release/kbook")
        }
    };
    let queries: Vec<String> = std::fs::read_to_string(&a.queries)
        .with_context(|| format!("cannot read {}", a.queries.display()))?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .ok()
                .and_then(|v| v["q"].as_str().map(str::to_string))
                .context("a query line without \"q\"")
        })
        .collect::<Result<_>>()?;
    let mut results = Vec::new();
    for &n in &a.sizes {
        eprintln!("bench: {n} entries");
        results.push(bench_size(&a, &kbook, n, &queries)?);
    }
    print_table(&results, a.runs);
    remove_set_aside(&a.work);
    Ok(ExitCode::SUCCESS)
}

/// Prefix of earlier outputs moved aside during a run (see [`bench_size`]).
const ASIDE: &str = ".aside-";

/// Deletes the outputs moved aside, after all timing is done.
fn remove_set_aside(work: &Path) {
    let Ok(items) = std::fs::read_dir(work) else {
        return;
    };
    for item in items.flatten() {
        if item.file_name().to_string_lossy().starts_with(ASIDE) {
            let _ = std::fs::remove_dir_all(item.path());
        }
    }
}

fn bench_size(a: &BenchArgs, kbook: &Path, n: usize, queries: &[String]) -> Result<SizeResult> {
    let book = a.work.join(format!("book-{n}"));
    let marker = book.join(".generated");
    let stamp = format!(
        "{n} entries, seed 42, base {}\n",
        a.base
            .as_ref()
            .map_or("none".into(), |b| b.display().to_string())
    );
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(stamp.as_str()) {
        let t = Instant::now();
        let _ = std::fs::remove_dir_all(&book);
        match &a.base {
            Some(base) => {
                crate::copy_tree(&base.join("content"), &book.join("content"), &[])?;
                std::fs::copy(base.join("book.toml"), book.join("book.toml"))
                    .context("cannot copy the base book's book.toml")?;
                crate::add_synthetic_connectors(&book.join("book.toml"))?;
                crate::synth::write_entries(&book.join("content"), n, 42, "synthetic")?;
            }
            None => crate::synth::write_book(&book, n, 42)?,
        }
        std::fs::write(&marker, &stamp)?;
        eprintln!(
            "bench:   generated {} in {:.1} s",
            book.display(),
            t.elapsed().as_secs_f64()
        );
    }
    let base_entries = count_markdown(&book.join("content"))?.saturating_sub(n);
    let site = a.work.join(format!("site-{n}"));
    let mut runs = Vec::new();
    for r in 0..a.runs {
        // Each build goes into an empty directory. The previous output is moved aside and
        // deleted after the whole bench: deleting tens of thousands of files right before a
        // build makes the kernel's inode allocator (ext4) scan them while the build creates its
        // files, which would time the deletion rather than the build.
        if site.exists() {
            let aside = a
                .work
                .join(format!("{ASIDE}site-{n}-{r}-{}", std::process::id()));
            std::fs::rename(&site, &aside)
                .with_context(|| format!("cannot move {} aside", site.display()))?;
        }
        runs.push(build_once(kbook, &book, &site)?);
        eprintln!(
            "bench:   built in {:.2} s wall, {:.2} s CPU, {} MiB peak RSS",
            runs.last().map_or(0.0, |r| r.wall),
            runs.last().map_or(0.0, |r| r.cpu),
            runs.last().map_or(0, |r| r.rss_kib / 1024)
        );
    }
    // The median run by wall time.
    runs.sort_by(|x, y| x.wall.total_cmp(&y.wall));
    let build = runs[runs.len() / 2].clone();
    let (output_bytes, files) = tree_size(&site)?;
    let search = site.join("search");
    let index = find_file(&search, "index.", ".bin")?;
    let wasm = find_file(&search, "kbook-search.", ".wasm")?;
    let index_bytes = std::fs::metadata(&index)?.len();
    let module_raw = std::fs::metadata(&wasm)?.len();
    let module = (
        module_raw,
        compressed_len("gzip", &["-9", "-c"], &wasm)?,
        compressed_len("brotli", &["-q", "11", "-c"], &wasm)?,
    );
    let (load_ms, native) = native_latency(&index, queries)?;
    let browser = if a.browser {
        let mut cmd = Command::new("node");
        cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/search-bench.mjs"))
            .arg("--site")
            .arg(&site)
            .arg("--queries")
            .arg(&a.queries);
        if a.pagefind {
            cmd.arg("--pagefind")
                .arg(a.work.join(format!("pagefind-{n}")));
        }
        let out = cmd
            .stderr(Stdio::inherit())
            .output()
            .context("cannot run node (install Node.js; bench/pagefind needs `npm ci`)")?;
        if !out.status.success() {
            bail!("bench/search-bench.mjs failed");
        }
        Some(serde_json::from_slice(&out.stdout).context("bad output of search-bench.mjs")?)
    } else {
        None
    };
    let hugo = a.hugo.then(|| hugo_build(&a.work, &book, n));
    let edit = if a.edit {
        Some(edited_entry_changes(kbook, &a.work, &book, &site, n)?)
    } else {
        None
    };
    Ok(SizeResult {
        entries: n,
        base_entries,
        hugo,
        edit,
        build,
        output_bytes,
        files,
        index_bytes,
        module,
        load_ms,
        native,
        browser,
    })
}

/// `program` under `/usr/bin/time` when it exists (wall, user+system CPU, peak RSS on stderr,
/// read back by [`read_time`]).
fn timed(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let time = Path::new("/usr/bin/time");
    if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "bench-time: %e %U %S %M"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Fills `run` from a `bench-time:` line of [`timed`]; false for other lines.
fn read_time(line: &str, run: &mut BuildRun) -> bool {
    let Some(rest) = line.strip_prefix("bench-time: ") else {
        return false;
    };
    let f: Vec<f64> = rest
        .split_whitespace()
        .filter_map(|x| x.parse().ok())
        .collect();
    if let [w, u, s, m] = f.as_slice() {
        run.wall = *w;
        run.cpu = u + s;
        run.rss_kib = *m as u64;
    }
    true
}

/// Builds once under `/usr/bin/time` (wall, user+system CPU, peak RSS) with stage timings.
fn build_once(kbook: &Path, book: &Path, site: &Path) -> Result<BuildRun> {
    let mut cmd = timed(kbook);
    let start = Instant::now();
    let out = cmd
        .arg("build")
        .arg("--book")
        .arg(book)
        .arg("--dest")
        .arg(site)
        .env("KBOOK_TIMINGS", "1")
        .stdout(Stdio::null())
        .output()
        .context("cannot run kbook")?;
    let wall = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        bail!(
            "kbook build failed:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    let mut run = BuildRun {
        wall,
        ..BuildRun::default()
    };
    for line in stderr.lines() {
        if read_time(line, &mut run) {
            continue;
        }
        if let Some(rest) = line.strip_prefix("timing: ") {
            // "NAME: W ms (cpu C ms)"
            if let Some((name, v)) = rest.rsplit_once(": ") {
                let nums: Vec<u64> = v
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|x| x.parse().ok())
                    .collect();
                run.stages.push((
                    name.to_string(),
                    nums.first().copied().unwrap_or(0),
                    nums.get(1).copied().unwrap_or(0),
                ));
            }
        }
    }
    Ok(run)
}

/// Markdown files under `dir`.
fn count_markdown(dir: &Path) -> Result<usize> {
    let mut n = 0;
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e?;
        if e.file_type()?.is_dir() {
            n += count_markdown(&e.path())?;
        } else if e.path().extension().is_some_and(|x| x == "md") {
            n += 1;
        }
    }
    Ok(n)
}

/// Builds the same entries with Hugo (Debian's `hugo`): the content folder as it is, minimal
/// templates (title and content), no taxonomies, feeds, sitemap or search. Err: why not.
fn hugo_build(work: &Path, book: &Path, n: usize) -> Result<BuildRun, String> {
    let ok = Command::new("hugo")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        return Err("hugo not installed (apt-get install hugo)".into());
    }
    let site = work.join(format!("hugo-{n}"));
    let out = work.join(format!("hugo-{n}-public"));
    let prepare = || -> Result<()> {
        let _ = std::fs::remove_dir_all(&site);
        crate::copy_tree(&book.join("content"), &site.join("content"), &[])?;
        std::fs::write(
            site.join("hugo.toml"),
            "baseURL = \"http://127.0.0.1/\"\ntitle = \"bench\"\ndisableKinds = [\"taxonomy\", \"term\", \"RSS\", \"sitemap\"]\n[markup.goldmark.renderer]\nunsafe = false\n",
        )?;
        let layouts = site.join("layouts/_default");
        std::fs::create_dir_all(&layouts)?;
        let page = "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>{{ .Content }}</body></html>\n";
        std::fs::write(layouts.join("single.html"), page)?;
        std::fs::write(
            layouts.join("list.html"),
            "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n",
        )?;
        Ok(())
    };
    prepare().map_err(|e| format!("cannot write the Hugo site: {e:#}"))?;
    if out.exists() {
        let aside = work.join(format!("{ASIDE}hugo-{n}-{}", std::process::id()));
        std::fs::rename(&out, &aside).map_err(|e| e.to_string())?;
    }
    let mut cmd = timed("hugo");
    let start = Instant::now();
    let o = cmd
        .arg("--quiet")
        .arg("--source")
        .arg(&site)
        .arg("--destination")
        .arg(&out)
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run hugo: {e}"))?;
    let mut run = BuildRun {
        wall: start.elapsed().as_secs_f64(),
        ..BuildRun::default()
    };
    let stderr = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        return Err(format!(
            "hugo failed: {}",
            stderr.lines().rev().take(5).collect::<Vec<_>>().join(" / ")
        ));
    }
    for line in stderr.lines() {
        read_time(line, &mut run);
    }
    eprintln!(
        "bench:   hugo built in {:.2} s wall, {:.2} s CPU, {} MiB peak RSS",
        run.wall,
        run.cpu,
        run.rss_kib / 1024
    );
    Ok(run)
}

/// Edits the body of one synthetic entry, builds into another folder and compares it with
/// `site` (built from the unedited book): (files changed, of them outside search/). The
/// entry is restored afterwards.
fn edited_entry_changes(
    kbook: &Path,
    work: &Path,
    book: &Path,
    site: &Path,
    n: usize,
) -> Result<(usize, usize)> {
    let entry = if n > 0 {
        let id = crate::synth::entry_id("synthetic", n / 2);
        let connector = crate::synth::CONNECTORS[(n / 2) % crate::synth::CONNECTORS.len()];
        book.join("content")
            .join(connector)
            .join(format!("{id}.md"))
    } else {
        // No synthetic entries: the first entry of the base book.
        first_markdown(&book.join("content"))?
            .with_context(|| format!("no entry under {}", book.join("content").display()))?
    };
    let original = std::fs::read_to_string(&entry)
        .with_context(|| format!("cannot read {}", entry.display()))?;
    std::fs::write(
        &entry,
        format!("{original}\nOne more paragraph, added to measure what an edit changes.\n"),
    )?;
    let edited = work.join(format!("site-{n}-edited"));
    if edited.exists() {
        let aside = work.join(format!("{ASIDE}edited-{n}-{}", std::process::id()));
        std::fs::rename(&edited, &aside)?;
    }
    let built = build_once(kbook, book, &edited);
    std::fs::write(&entry, original)?;
    built?;
    let (a, b) = (files_by_path(site)?, files_by_path(&edited)?);
    let mut changed = 0;
    let mut outside = 0;
    for path in a.keys().chain(b.keys().filter(|p| !a.contains_key(*p))) {
        let differs = match (a.get(path), b.get(path)) {
            (Some(x), Some(y)) => x.0 != y.0 || std::fs::read(&x.1)? != std::fs::read(&y.1)?,
            _ => true,
        };
        if differs {
            changed += 1;
            if !path.starts_with("search/") {
                outside += 1;
            }
        }
    }
    eprintln!("bench:   one edited entry body changed {changed} files ({outside} outside search/)");
    Ok((changed, outside))
}

/// The first Markdown file under `dir` (names sorted, depth first).
fn first_markdown(dir: &Path) -> Result<Option<PathBuf>> {
    let mut items: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    items.sort();
    for p in items {
        if p.is_dir() {
            if let Some(found) = first_markdown(&p)? {
                return Ok(Some(found));
            }
        } else if p.extension().is_some_and(|x| x == "md") {
            return Ok(Some(p));
        }
    }
    Ok(None)
}

/// Files under `dir`: relative path (with `/`) → (length, full path).
fn files_by_path(dir: &Path) -> Result<std::collections::BTreeMap<String, (u64, PathBuf)>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let e = e?;
            if e.file_type()?.is_dir() {
                stack.push(e.path());
            } else {
                let rel = e
                    .path()
                    .strip_prefix(dir)?
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, (e.metadata()?.len(), e.path()));
            }
        }
    }
    Ok(out)
}

fn tree_size(dir: &Path) -> Result<(u64, usize)> {
    let mut bytes = 0;
    let mut files = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let e = e?;
            let t = e.file_type()?;
            if t.is_dir() {
                stack.push(e.path());
            } else {
                bytes += e.metadata()?.len();
                files += 1;
            }
        }
    }
    Ok((bytes, files))
}

fn find_file(dir: &Path, prefix: &str, suffix: &str) -> Result<PathBuf> {
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let name = e?.file_name().to_string_lossy().to_string();
        if name.starts_with(prefix) && name.ends_with(suffix) {
            return Ok(dir.join(name));
        }
    }
    bail!("no {prefix}*{suffix} in {}", dir.display())
}

fn compressed_len(tool: &str, args: &[&str], file: &Path) -> Result<u64> {
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .output()
        .with_context(|| format!("cannot run {tool} (install it: apt-get install -y {tool})"))?;
    if !out.status.success() {
        bail!("{tool} failed on {}", file.display());
    }
    Ok(out.stdout.len() as u64)
}

/// Opens the packed index like `kbook search` does, then times each query (after one warm-up
/// pass, three passes): load time in ms, and (median, p95) per query in ms.
fn native_latency(index: &Path, queries: &[String]) -> Result<(f64, (f64, f64))> {
    let bytes = std::fs::read(index)?;
    let t = Instant::now();
    let book = kbook_search::BookIndex::open(bytes).context("cannot open the index")?;
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let opts = kbook_search::SearchOptions {
        limit: 10,
        ..Default::default()
    };
    for q in queries {
        book.search(q, &opts)?;
    }
    let mut times = Vec::new();
    for _ in 0..3 {
        for q in queries {
            let t = Instant::now();
            book.search(q, &opts)?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    Ok((load_ms, (quantile(&times, 0.5), quantile(&times, 0.95))))
}

fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    s[((q * (s.len() - 1) as f64).round() as usize).min(s.len() - 1)]
}

fn mib(b: f64) -> String {
    if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}

fn engine_str(r: &SizeResult, engine: &str, key: &str) -> Option<String> {
    r.browser
        .as_ref()
        .and_then(|b| b.get(engine))
        .and_then(|x| x.get(key))
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

fn print_table(results: &[SizeResult], runs: usize) {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |name: &str, f: &dyn Fn(&SizeResult) -> String| {
        rows.push((name.to_string(), results.iter().map(f).collect()));
    };
    let num = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let engine = |r: &SizeResult, e: &str, k: &str| -> Option<f64> {
        r.browser
            .as_ref()
            .and_then(|b| b.get(e))
            .and_then(|x| x.get(k))
            .map(num)
    };
    row("entries (base + synthetic)", &|r| {
        format!("{} + {}", r.base_entries, r.entries)
    });
    row("build wall", &|r| format!("{:.2} s", r.build.wall));
    row("build CPU (user+sys)", &|r| format!("{:.2} s", r.build.cpu));
    row("peak RSS", &|r| mib(r.build.rss_kib as f64 * 1024.0));
    if results.iter().any(|r| r.hugo.is_some()) {
        // Ratios are kbook / Hugo: below 1 means kbook is faster or smaller.
        let hugo = |r: &SizeResult, f: &dyn Fn(&BuildRun, &BuildRun) -> String| match &r.hugo {
            Some(Ok(h)) => f(&r.build, h),
            Some(Err(e)) => e.clone(),
            None => "-".into(),
        };
        row("hugo: build wall (kbook/hugo)", &|r| {
            hugo(r, &|k, h| {
                format!("{:.2} s (x{:.2})", h.wall, k.wall / h.wall)
            })
        });
        row("hugo: build CPU (kbook/hugo)", &|r| {
            hugo(r, &|k, h| format!("{:.2} s (x{:.2})", h.cpu, k.cpu / h.cpu))
        });
        row("hugo: peak RSS", &|r| {
            hugo(r, &|_, h| mib(h.rss_kib as f64 * 1024.0))
        });
    }
    if results.iter().any(|r| r.edit.is_some()) {
        row("one body edited: files changed (non-search)", &|r| {
            r.edit
                .map_or("-".into(), |(all, outside)| format!("{all} ({outside})"))
        });
    }
    let stage_names: Vec<String> = results
        .first()
        .map(|r| r.build.stages.iter().map(|s| s.0.clone()).collect())
        .unwrap_or_default();
    for name in &stage_names {
        row(&format!("  stage: {name} (wall/cpu)"), &|r| {
            r.build
                .stages
                .iter()
                .find(|s| &s.0 == name)
                .map_or("-".into(), |s| {
                    format!("{:.2}/{:.2} s", s.1 as f64 / 1e3, s.2 as f64 / 1e3)
                })
        });
    }
    row("output (files)", &|r| {
        format!("{} ({})", mib(r.output_bytes as f64), r.files)
    });
    row("packed index", &|r| mib(r.index_bytes as f64));
    row("module raw/gzip/brotli", &|r| {
        format!(
            "{}/{}/{}",
            mib(r.module.0 as f64),
            mib(r.module.1 as f64),
            mib(r.module.2 as f64)
        )
    });
    row("native: index load", &|r| format!("{:.0} ms", r.load_ms));
    row("native: query p50/p95", &|r| {
        format!("{:.2}/{:.2} ms", r.native.0, r.native.1)
    });
    let has_browser = results.iter().any(|r| r.browser.is_some());
    if has_browser {
        let b = |e: &'static str, k: &'static str| {
            move |r: &SizeResult| engine(r, e, k).map_or("-".into(), mib)
        };
        row("chromium: page load bytes", &b("kbook", "load_bytes"));
        row("chromium: first search bytes", &b("kbook", "first_bytes"));
        row(
            "chromium: each next search bytes",
            &b("kbook", "next_bytes"),
        );
        row(
            "chromium: next search bytes, max",
            &b("kbook", "next_bytes_max"),
        );
        row("chromium: first search", &|r| {
            engine(r, "kbook", "first_ms").map_or("-".into(), |v| format!("{v:.0} ms"))
        });
        row("chromium: next searches p50/p95", &|r| match (
            engine(r, "kbook", "next_ms_median"),
            engine(r, "kbook", "next_ms_p95"),
        ) {
            (Some(m), Some(p)) => format!("{m:.1}/{p:.1} ms"),
            _ => "-".into(),
        });
        // The same searches with their data loaded: what is left is the module's own time.
        row("chromium: same searches again p50/p95", &|r| match (
            engine(r, "kbook", "repeat_ms_median"),
            engine(r, "kbook", "repeat_ms_p95"),
        ) {
            (Some(m), Some(p)) => format!("{m:.1}/{p:.1} ms"),
            _ => "-".into(),
        });
    }
    let has_pf = results
        .iter()
        .any(|r| engine(r, "pagefind", "index_ms").is_some());
    if has_pf {
        // Ratios are kbook / Pagefind: below 1 means kbook is smaller or faster.
        let ratio = |ours: Option<f64>, theirs: Option<f64>, show: &dyn Fn(f64) -> String| match (
            ours, theirs,
        ) {
            (Some(o), Some(t)) if t > 0.0 => format!("{} (x{:.2})", show(t), o / t),
            (_, Some(t)) => show(t),
            _ => "-".into(),
        };
        row("pagefind: index time (kbook/pf)", &|r| {
            ratio(
                Some(r.build.wall * 1e3),
                engine(r, "pagefind", "index_ms"),
                &|v| format!("{:.2} s", v / 1e3),
            )
        });
        row("pagefind: index bytes (kbook/pf)", &|r| {
            ratio(
                Some(r.index_bytes as f64),
                engine(r, "pagefind", "index_bytes"),
                &mib,
            )
        });
        for (label, key) in [
            ("pagefind: first search bytes", "first_bytes"),
            ("pagefind: each next search bytes", "next_bytes"),
            ("pagefind: next search bytes, max", "next_bytes_max"),
        ] {
            row(label, &|r| {
                ratio(engine(r, "kbook", key), engine(r, "pagefind", key), &mib)
            });
        }
        row("pagefind: first search (kbook/pf)", &|r| {
            ratio(
                engine(r, "kbook", "first_ms"),
                engine(r, "pagefind", "first_ms"),
                &|v| format!("{v:.0} ms"),
            )
        });
        row("pagefind: next p50 (kbook/pf)", &|r| {
            ratio(
                engine(r, "kbook", "next_ms_median"),
                engine(r, "pagefind", "next_ms_median"),
                &|v| format!("{v:.1} ms"),
            )
        });
        row("pagefind: next p95 (kbook/pf)", &|r| {
            ratio(
                engine(r, "kbook", "next_ms_p95"),
                engine(r, "pagefind", "next_ms_p95"),
                &|v| format!("{v:.1} ms"),
            )
        });
        row("pagefind: same searches again p95 (kbook/pf)", &|r| {
            ratio(
                engine(r, "kbook", "repeat_ms_p95"),
                engine(r, "pagefind", "repeat_ms_p95"),
                &|v| format!("{v:.1} ms"),
            )
        });
    }
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..results.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.1[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let encoding = results
        .iter()
        .find_map(|r| engine_str(r, "kbook", "encoding"))
        .unwrap_or_else(|| "-".into());
    println!(
        "kbook bench ({runs} build run(s) per size, median shown; index time ratio uses kbook's whole build; browser bytes as transferred with {encoding})"
    );
    for (name, cells) in &rows {
        let mut line = format!("{name:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            line.push_str(&format!(" | {c:>w$}"));
        }
        println!("{line}");
    }
}
