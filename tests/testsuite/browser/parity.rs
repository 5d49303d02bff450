//! The WebAssembly module ranks exactly like the native search: the curated sets (English and
//! Chinese) and the machine texts on the bundled book, and a generated book whose index blocks
//! load on demand.

use super::*;

#[test]
fn wasm_ranks_exactly_like_native_search() {
    let site = site();
    let c = chromium();
    c.open(&format!("{}search.html", site.http));
    c.eval("window.kbook.ready()");
    // The curated queries and real users' pastes (long traces, log lines, CJK).
    let queries = labelled_queries();
    let realworld = query_texts("realworld.jsonl");
    assert!(realworld.len() >= 60, "tests/realworld.jsonl is missing");
    // And Chinese questions and keywords with English words in them (two scripts, Han bigrams).
    let chinese = query_texts("queries-zh.jsonl");
    assert!(chinese.len() >= 80, "tests/queries-zh.jsonl is missing");
    let qs: Vec<&str> = queries
        .iter()
        .map(|l| l.q.as_str())
        .chain(realworld.iter().map(String::as_str))
        .chain(chinese.iter().map(String::as_str))
        .collect();
    // The same pastes broken by a mail client and cut by a terminal: the joining reads
    // widths in columns, which the module computes itself.
    let rewrapped: Vec<String> = realworld
        .iter()
        .flat_map(|q| {
            [
                crate::relevance::break_at_spaces(q, 76),
                crate::relevance::cut_at_columns(q, 80),
            ]
        })
        .filter(|f| !realworld.contains(f))
        .collect();
    assert!(
        rewrapped.len() > realworld.len(),
        "few pastes were rewrapped"
    );
    let qs_all: Vec<&str> = qs
        .iter()
        .copied()
        .chain(rewrapped.iter().map(String::as_str))
        .collect();
    let browser = c.eval(&format!(
        "(async () => {{ const out = []; const times = []; for (const q of {}) {{ const t = performance.now(); \
         const hits = await window.kbook.search(q, {{limit: 10}}); times.push(performance.now() - t); out.push(hits.map(h => h.id)); }} \
         return {{ out, times }}; }})()",
        serde_json::to_string(&qs_all).unwrap()
    ));
    let mut native_times = Vec::new();
    for (i, q) in qs_all.iter().enumerate() {
        let t = Instant::now();
        let native = native_ids(&site.dir, q, 10);
        native_times.push(t.elapsed().as_secs_f64() * 1000.0);
        let wasm: Vec<String> = serde_json::from_value(browser["out"][i].clone()).unwrap();
        assert_eq!(wasm, native, "query {q:?}");
    }
    // With a reader's version: the same ids in the same order (entries that do not affect it
    // last) and the same marks.
    for version in ["vvr=8.0.7", "vvr=8.0.11", "vvr=6.0.1", "hudi=0.9"] {
        let in_page = c.eval(&format!(
            "(async () => {{ const out = []; for (const q of {}) {{              const hits = await window.kbook.search(q, {{limit: 10, version: {}}});              out.push(hits.map(h => [h.id, h.version_match, h.fixed_in || null])); }} return out; }})()",
            serde_json::to_string(&qs).unwrap(),
            serde_json::to_string(version).unwrap()
        ));
        let (product, v) = kbook_search::version::parse_product_version(version).unwrap();
        let opts = kbook_search::SearchOptions {
            limit: 10,
            version: Some((product, v)),
            ..Default::default()
        };
        let mut demoted = 0;
        for (i, q) in qs.iter().enumerate() {
            let native: Vec<serde_json::Value> = native_index(&site.dir)
                .search(q, &opts)
                .unwrap()
                .hits
                .into_iter()
                .map(|h| {
                    if h.version_match.is_some_and(|m| !m.applies()) {
                        demoted += 1;
                    }
                    serde_json::json!([h.id, h.version_match, h.fixed_in])
                })
                .collect();
            assert_eq!(
                in_page[i],
                serde_json::Value::Array(native),
                "{version}, query {q:?}"
            );
        }
        eprintln!("parity with {version}: {demoted} hits marked as not for that version");
    }
    let browser_times: Vec<f64> = serde_json::from_value(browser["times"].clone()).unwrap();
    eprintln!(
        "parity: {} queries; latency ms median/p95: chromium {:.2}/{:.2}, native (debug build) {:.2}/{:.2}",
        qs_all.len(),
        percentile(&browser_times, 0.5),
        percentile(&browser_times, 0.95),
        percentile(&native_times, 0.5),
        percentile(&native_times, 0.95)
    );
    c.assert_no_errors("browser");
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(((v.len() as f64 - 1.0) * p).round() as usize)
        .copied()
        .unwrap_or(0.0)
}

/// Entries of the generated book: enough for many index blocks.
const GENERATED_ENTRIES: usize = 3000;

/// A generated book, built and served, with queries taken from its entries.
struct GeneratedSite {
    dir: PathBuf,
    http: String,
    queries: Vec<String>,
    index: kbook_search::BookIndex,
}

fn generated_site() -> &'static GeneratedSite {
    static SITE: OnceLock<GeneratedSite> = OnceLock::new();
    SITE.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let src = tmp.join("generated-book-src");
        let dir = tmp.join("generated-book");
        for d in [&src, &dir] {
            if d.exists() {
                std::fs::remove_dir_all(d).unwrap();
            }
        }
        synth::write_book(&src, GENERATED_ENTRIES, 7).unwrap();
        let out = build_site(&src, &dir, &[]);
        assert!(
            out.status.success(),
            "kbook build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Error strings and titles of a spread of entries, as readers paste or type them.
        let mut queries = Vec::new();
        for i in (0..GENERATED_ENTRIES).step_by(GENERATED_ENTRIES / 6) {
            let id = synth::entry_id("synthetic", i);
            let file = walk(&src.join("content"))
                .into_iter()
                .find(|p| p.file_name().and_then(OsStr::to_str) == Some(&format!("{id}.md")))
                .unwrap();
            let text = std::fs::read_to_string(file).unwrap();
            for line in text.lines() {
                if let Some(rest) = line.strip_prefix("  - \"") {
                    queries.push(rest.trim_end_matches('"').to_string());
                    break;
                }
            }
            if let Some(t) = text.lines().find_map(|l| l.strip_prefix("title: \"")) {
                queries.push(t.trim_end_matches('"').to_string());
            }
        }
        queries.push("checkpoint timeout".to_string());
        queries.push("qqqzzzvvvxxjj".to_string());
        let index = kbook_search::BookIndex::open(index_bytes(&dir)).unwrap();
        let http = serve(dir.clone());
        GeneratedSite {
            dir,
            http,
            queries,
            index,
        }
    })
}

/// Runs `queries` in the page; returns the ids per query and the block files fetched per query.
fn run_in_page(c: &Chromium, queries: &[String]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let v = c.eval(&format!(
        "(async () => {{ performance.setResourceTimingBufferSize(100000); const ids = []; const fetched = []; \
         const blocks = () => performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/blocks.')); \
         for (const q of {}) {{ const before = new Set(blocks()); const hits = await window.kbook.search(q, {{limit: 10}}); \
         ids.push(hits.map(h => h.id)); fetched.push(blocks().filter(n => !before.has(n))); }} return {{ ids, fetched }}; }})()",
        serde_json::to_string(queries).unwrap()
    ));
    (
        serde_json::from_value(v["ids"].clone()).unwrap(),
        serde_json::from_value(v["fetched"].clone()).unwrap(),
    )
}

#[test]
fn generated_book_loads_index_blocks_on_demand_and_ranks_like_native() {
    let site = generated_site();
    let blocks_total = std::fs::read_dir(site.dir.join("search"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("blocks.")
        })
        .map(|d| std::fs::read_dir(d).unwrap().count())
        .unwrap();
    let native = |q: &str| ids_of(&site.index, q, 10);

    // Over http: the head first, then only the blocks each search needs.
    let c = chromium();
    c.open(&format!("{}search.html", site.http));
    c.eval("window.kbook.ready()");
    let loaded = c.eval(
        "performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/search/'))",
    );
    let loaded: Vec<String> = serde_json::from_value(loaded).unwrap();
    assert!(
        loaded.iter().any(|n| n.ends_with(".head")) && !loaded.iter().any(|n| n.ends_with(".bin")),
        "ready() should load the module and the index head only: {loaded:?}"
    );
    let (ids, fetched) = run_in_page(&c, &site.queries);
    let mut all: Vec<&String> = fetched.iter().flatten().collect();
    all.sort();
    all.dedup();
    eprintln!(
        "generated book ({GENERATED_ENTRIES} entries, {blocks_total} blocks): blocks per search {:?}; {} distinct in all",
        fetched.iter().map(Vec::len).collect::<Vec<_>>(),
        all.len()
    );
    for (i, q) in site.queries.iter().enumerate() {
        assert_eq!(ids[i], native(q), "http, query {q:?}");
    }
    assert!(
        fetched[0].len() < blocks_total / 4,
        "the first search fetched {} of {blocks_total} blocks",
        fetched[0].len()
    );
    assert!(
        all.len() < blocks_total / 2,
        "{} queries fetched {} of {blocks_total} blocks",
        site.queries.len(),
        all.len()
    );
    // The same search again needs nothing new.
    let (_, again) = run_in_page(&c, &site.queries[..1]);
    assert!(again[0].is_empty(), "repeat search fetched {:?}", again[0]);
    c.assert_no_errors("browser");

    // From disk: the same answers.
    let c = chromium();
    c.open(&format!(
        "file://{}",
        site.dir.join("search.html").display()
    ));
    c.eval("window.kbook.ready()");
    let (ids, _) = run_in_page(&c, &site.queries);
    for (i, q) in site.queries.iter().enumerate() {
        assert_eq!(ids[i], native(q), "file://, query {q:?}");
    }
    c.assert_no_errors("browser");
}

/// Transfer and latency on any built site: `KBOOK_MEASURE_SITE=<site dir>
/// KBOOK_MEASURE_QUERIES=<file, one query a line> cargo test --test browser measure --
/// --ignored --nocapture`. Prints the files each search fetched (sizes as served, and brotli
/// sizes are computed by the caller) and the latency of warm searches.
#[test]
#[ignore = "measurement on a built site"]
fn measure_lazy_search() {
    let (Some(dir), Some(queries)) = (
        std::env::var_os("KBOOK_MEASURE_SITE"),
        std::env::var_os("KBOOK_MEASURE_QUERIES"),
    ) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let queries: Vec<String> = std::fs::read_to_string(queries)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    let http = serve(dir.clone());
    let c = chromium();
    c.open(&format!("{http}search.html"));
    let v = c.eval(&format!(
        "(async () => {{ performance.setResourceTimingBufferSize(100000); \
         const names = () => performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/search/')); \
         await window.kbook.ready(); const ready = names(); const per = []; const cold = []; \
         for (const q of {qs}) {{ const before = new Set(names()); const t = performance.now(); \
           await window.kbook.search(q, {{limit: 10}}); cold.push(performance.now() - t); \
           per.push(names().filter(n => !before.has(n))); }} \
         const warm = []; for (let pass = 0; pass < 3; pass++) for (const q of {qs}) {{ const t = performance.now(); \
           await window.kbook.search(q, {{limit: 10}}); warm.push(performance.now() - t); }} \
         return {{ ready, per, cold, warm }}; }})()",
        qs = serde_json::to_string(&queries).unwrap()
    ));
    let rel = |u: &serde_json::Value| u.as_str().unwrap().trim_start_matches(&http).to_string();
    let ready: Vec<String> = v["ready"].as_array().unwrap().iter().map(rel).collect();
    println!("READY {}", ready.join(" "));
    for files in v["per"].as_array().unwrap() {
        let files: Vec<String> = files.as_array().unwrap().iter().map(rel).collect();
        println!("SEARCH {}", files.join(" "));
    }
    let cold: Vec<f64> = serde_json::from_value(v["cold"].clone()).unwrap();
    let warm: Vec<f64> = serde_json::from_value(v["warm"].clone()).unwrap();
    println!(
        "LATENCY cold median/p95 {:.1}/{:.1} ms; warm (blocks loaded) median/p95 {:.2}/{:.2} ms over {} searches",
        percentile(&cold, 0.5),
        percentile(&cold, 0.95),
        percentile(&warm, 0.5),
        percentile(&warm, 0.95),
        warm.len()
    );
    c.assert_no_errors("browser");
}
