//! `cargo xtask bench`: builds deterministic synthetic books of several sizes with the release
//! `kbook`, measures the build (wall, CPU, peak RSS, stage timings), the output, the search
//! assets, native and in-browser search, and Pagefind over the same HTML, and prints one
//! table. Results are printed, not asserted (the machine decides the numbers).

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
        kbook: None,
        work: root.join("target/bench"),
        queries: root.join("tests/queries.jsonl"),
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
            "--kbook" => a.kbook = Some(PathBuf::from(value()?)),
            "--work" => a.work = PathBuf::from(value()?),
            "--queries" => a.queries = PathBuf::from(value()?),
            other => bail!(
                "unknown bench option {other}\nusage: cargo xtask bench [--sizes 1000,10000,100000] [--runs N] [--no-browser] [--no-pagefind] [--kbook BIN] [--work DIR] [--queries FILE.jsonl]"
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
    let stamp = format!("{n} entries, seed 42\n");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(stamp.as_str()) {
        let t = Instant::now();
        let _ = std::fs::remove_dir_all(&book);
        crate::synth::write_book(&book, n, 42)?;
        std::fs::write(&marker, &stamp)?;
        eprintln!(
            "bench:   generated {} in {:.1} s",
            book.display(),
            t.elapsed().as_secs_f64()
        );
    }
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
    Ok(SizeResult {
        entries: n,
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

/// Builds once under `/usr/bin/time` (wall, user+system CPU, peak RSS) with stage timings.
fn build_once(kbook: &Path, book: &Path, site: &Path) -> Result<BuildRun> {
    let time = Path::new("/usr/bin/time");
    let mut cmd = if time.exists() {
        let mut c = Command::new(time);
        c.args(["-f", "bench-time: %e %U %S %M"]).arg(kbook);
        c
    } else {
        Command::new(kbook)
    };
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
        if let Some(rest) = line.strip_prefix("bench-time: ") {
            let f: Vec<f64> = rest
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if let [w, u, s, m] = f.as_slice() {
                run.wall = *w;
                run.cpu = u + s;
                run.rss_kib = *m as u64;
            }
        } else if let Some(rest) = line.strip_prefix("timing: ") {
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
    row("entries", &|r| r.entries.to_string());
    row("build wall", &|r| format!("{:.2} s", r.build.wall));
    row("build CPU (user+sys)", &|r| format!("{:.2} s", r.build.cpu));
    row("peak RSS", &|r| mib(r.build.rss_kib as f64 * 1024.0));
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
    println!(
        "kbook bench ({} build run(s) per size, median shown; index time ratio uses kbook's whole build)",
        runs
    );
    for (name, cells) in &rows {
        let mut line = format!("{name:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            line.push_str(&format!(" | {c:>w$}"));
        }
        println!("{line}");
    }
}
