//! `cargo xtask bench`: builds books of several sizes (the bundled book plus N deterministic
//! synthetic entries) with the release `kbook`, measures the build (wall, CPU, peak RSS, stage
//! timings), the output, the search assets, native and in-browser search with pasted errors,
//! Pagefind over the same HTML, Hugo's build of the same entries, and how many output files
//! one edited entry body changes, and prints one table. Results are printed, not asserted (the
//! machine decides the numbers).

mod builds;
mod files;
mod report;

use builds::{BuildRun, build_once, count_markdown, edited_entry_changes, hugo_build};
use files::{compressed_len, find_file, tree_size};
use report::print_table;

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

/// Everything measured for one book size.
#[derive(Default)]
struct SizeResult {
    pub(super) entries: usize,
    /// Entries of the base book besides the synthetic ones.
    pub(super) base_entries: usize,
    /// Hugo's build of the same entries (minimal templates, no search).
    pub(super) hugo: Option<Result<BuildRun, String>>,
    /// After one entry's body is edited: files whose bytes changed (added or removed
    /// included), in all and outside search/.
    pub(super) edit: Option<(usize, usize)>,
    pub(super) build: BuildRun,
    pub(super) output_bytes: u64,
    pub(super) files: usize,
    pub(super) index_bytes: u64,
    pub(super) module: (u64, u64, u64),
    pub(super) load_ms: f64,
    pub(super) native: (f64, f64),
    pub(super) browser: Option<serde_json::Value>,
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
