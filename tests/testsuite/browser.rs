//! Browser tests: the bundled book, built by the real `kbook` binary, in Debian's headless
//! Chromium driven over CDP, served from a loopback server started here and opened from
//! disk (`file://`). Also checks that the WebAssembly module ranks exactly like the native
//! search (the parity test).
//!
//! Chromium is required, not optional: without it these tests fail and say how to install it.

use crate::common::{Chromium, build_site, chromium, serve, url_encode, walk};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// The synthetic book generator of `cargo xtask gen-book`.
#[allow(dead_code)]
#[path = "../../xtask/src/synth.rs"]
mod synth;

/// The built book and where it is served.
struct Site {
    dir: PathBuf,
    http: String,
    /// Labelled queries of the bundled book that native search answers right (top 1).
    answered: Vec<Labelled>,
}

#[derive(Clone, Debug)]
struct Labelled {
    q: String,
    expect: String,
}

/// Builds the bundled book once per test binary and serves it on 127.0.0.1.
fn site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-book");
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        let out = build_site(Path::new(env!("CARGO_MANIFEST_DIR")), &dir, &[]);
        assert!(
            out.status.success(),
            "kbook build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let http = serve(dir.clone());
        let answered = labelled_queries()
            .into_iter()
            .filter(|l| native_ids(&dir, &l.q, 1).first() == Some(&l.expect))
            .collect();
        Site {
            dir,
            http,
            answered,
        }
    })
}

/// The lines of a query file under tests/ (`{"q", "expect", ...}` per line).
fn query_file(name: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(name),
    )
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn labelled_queries() -> Vec<Labelled> {
    query_file("queries.jsonl")
        .into_iter()
        .map(|v| Labelled {
            q: v["q"].as_str().unwrap().to_string(),
            expect: v["expect"][0].as_str().unwrap().to_string(),
        })
        .collect()
}

fn index_bytes(dir: &Path) -> Vec<u8> {
    let search = dir.join("search");
    let file = std::fs::read_dir(&search)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(OsStr::to_str)
                .is_some_and(|n| n.starts_with("index.") && n.ends_with(".bin"))
        })
        .unwrap_or_else(|| panic!("no search/index.*.bin in {}", search.display()));
    std::fs::read(file).unwrap()
}

fn native_index(dir: &Path) -> &'static kbook_search::BookIndex {
    static INDEX: OnceLock<kbook_search::BookIndex> = OnceLock::new();
    INDEX.get_or_init(|| kbook_search::BookIndex::open(index_bytes(dir)).unwrap())
}

fn native_ids(dir: &Path, q: &str, limit: usize) -> Vec<String> {
    let opts = kbook_search::SearchOptions {
        limit,
        ..Default::default()
    };
    native_index(dir)
        .search(q, &opts)
        .unwrap()
        .hits
        .into_iter()
        .map(|h| h.id)
        .collect()
}

fn pick(site: &Site) -> &Labelled {
    // A short, pasted-error style query reads best in the box; any answered one will do.
    site.answered
        .iter()
        .filter(|l| l.q.len() < 80)
        .min_by_key(|l| l.q.len().abs_diff(40))
        .unwrap_or_else(|| panic!("native search answers none of tests/queries.jsonl right"))
}

/// The search box flow on one page: focus, type, see the right entry first, open it.
fn type_and_open(c: &Chromium, page_url: &str, query: &Labelled) {
    c.open(page_url);
    c.tab
        .wait_for_element("form.kbook-search input[type=search]")
        .unwrap()
        .click()
        .unwrap();
    c.tab.type_str(&query.q).unwrap();
    let first = c.wait_for(&format!(
        "(() => {{ const a = document.querySelector('.kbook-search-results .kbook-hit'); \
         return a && document.querySelector('.kbook-search input').value === {q} ? a.dataset.id : null; }})()",
        q = serde_json::to_string(&query.q).unwrap()
    ));
    assert_eq!(
        first,
        query.expect.as_str(),
        "first result for {:?}",
        query.q
    );
    // The hit shows a title, badges and no raw markup.
    let shown = c.eval(
        "(() => { const a = document.querySelector('.kbook-search-results .kbook-hit'); \
         return { title: a.querySelector('.kbook-hit-title').textContent, badges: a.querySelectorAll('.badge').length, \
         visible: !document.querySelector('.kbook-search-results').hidden }; })()",
    );
    assert!(
        shown["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{shown}"
    );
    assert_eq!(shown["badges"], 2);
    assert_eq!(shown["visible"], true);

    // For people reviewing the UI: the dropdown as rendered (target/tmp/search-box-*.png).
    let shot = c
        .tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .unwrap();
    let scheme = if page_url.starts_with("file:") {
        "file"
    } else {
        "http"
    };
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("search-box-{scheme}.png")),
        shot,
    )
    .unwrap();

    let expected_href = c.eval("document.querySelector('.kbook-search-results .kbook-hit').href");
    c.tab.press_key("ArrowDown").unwrap();
    c.tab.press_key("Enter").unwrap();
    c.wait_for(&format!(
        "location.href === {expected_href} && document.readyState === 'complete'"
    ));
    let path = c.eval("location.pathname");
    assert!(
        path.as_str()
            .is_some_and(|p| p.ends_with(".html") && p.contains(&query.expect)),
        "opened {path}"
    );

    // The page API answers too, with URLs relative to the current page.
    let hits = c.eval(&format!(
        "window.kbook.search({}, {{limit: 5}})",
        serde_json::to_string(&query.q).unwrap()
    ));
    let hits = hits.as_array().unwrap();
    assert_eq!(
        hits.first().and_then(|h| h["id"].as_str()),
        Some(query.expect.as_str())
    );
    for h in hits {
        for key in [
            "id",
            "url",
            "title",
            "connector",
            "kind",
            "score",
            "snippet",
        ] {
            assert!(h.get(key).is_some(), "hit without {key}: {h}");
        }
    }
}

#[test]
fn search_box_over_http_finds_and_opens_the_entry() {
    let site = site();
    let query = pick(site);
    let c = chromium();
    // Start on an entry page in a connector folder, so relative URLs are exercised.
    let entry_page = c_entry_page(site);
    type_and_open(&c, &format!("{}{entry_page}", site.http), query);
    // "/" focuses the box; Escape closes the dropdown.
    c.open(&format!("{}index.html", site.http));
    c.tab.press_key("/").unwrap();
    assert_eq!(
        c.eval("document.activeElement && document.activeElement.id"),
        "kbook-q"
    );
    c.tab.type_str(&query.q).unwrap();
    c.wait_for("document.querySelector('.kbook-search-results .kbook-hit')");
    c.tab.press_key("Escape").unwrap();
    assert_eq!(
        c.eval("document.querySelector('.kbook-search-results').hidden"),
        true
    );
    c.assert_no_errors("browser");
}

/// Some entry page below the site root (`<connector>/<id>.html`).
fn c_entry_page(site: &Site) -> String {
    let first = native_index(&site.dir)
        .search(
            &site.answered[0].q,
            &kbook_search::SearchOptions {
                limit: 1,
                ..Default::default()
            },
        )
        .unwrap();
    first.hits[0].url.clone()
}

#[test]
fn search_box_from_file_url_finds_and_opens_the_entry() {
    let site = site();
    let query = pick(site);
    let c = chromium();
    let index = site.dir.join("index.html");
    type_and_open(&c, &format!("file://{}", index.display()), query);
    c.assert_no_errors("browser");
}

#[test]
fn search_page_deep_link_facets_and_no_confident_match() {
    let site = site();
    let query = pick(site);
    let c = chromium();
    let q = url_encode(&query.q);
    c.open(&format!("{}search.html?q={q}", site.http));
    let first = c.wait_for("(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()");
    assert_eq!(first, query.expect.as_str());
    assert_eq!(
        c.eval("document.getElementById('kbook-paste').value"),
        query.q.as_str()
    );

    // A connector chip filters the list to that connector.
    let connector =
        c.eval("document.querySelector('.kbook-chip[data-facet=connector]').dataset.value");
    c.tab
        .find_element(".kbook-chip[data-facet=connector]")
        .unwrap()
        .click()
        .unwrap();
    c.wait_for("document.querySelector('.kbook-chip[data-facet=connector][aria-pressed=true]')");
    let connectors = c.wait_for(
        "(() => { const b = [...document.querySelectorAll('#kbook-search-page-results .badge.connector')].map(b => b.textContent); \
         return b.length ? b : null; })()",
    );
    assert!(
        connectors
            .as_array()
            .unwrap()
            .iter()
            .all(|c| *c == connector),
        "{connectors} vs {connector}"
    );
    assert!(
        c.eval("location.search")
            .as_str()
            .unwrap()
            .contains("connector=")
    );

    // A whole pasted trace in the textarea; then gibberish gives the "no match" states.
    c.open(&format!("{}search.html?q=qqqzzzvvvxxjj", site.http));
    c.wait_for("document.querySelector('.kbook-no-match, .kbook-no-confident')");
    c.assert_no_errors("browser");
}

#[test]
fn wasm_ranks_exactly_like_native_search() {
    let site = site();
    let c = chromium();
    c.open(&format!("{}search.html", site.http));
    c.eval("window.kbook.ready()");
    // The curated queries and real users' pastes (long traces, log lines, CJK).
    let queries = labelled_queries();
    let realworld: Vec<String> = query_file("realworld.jsonl")
        .into_iter()
        .map(|v| v["q"].as_str().unwrap().to_string())
        .collect();
    assert!(realworld.len() >= 60, "tests/realworld.jsonl is missing");
    let qs: Vec<&str> = queries
        .iter()
        .map(|l| l.q.as_str())
        .chain(realworld.iter().map(String::as_str))
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
    let native = |q: &str| -> Vec<String> {
        let opts = kbook_search::SearchOptions {
            limit: 10,
            ..Default::default()
        };
        site.index
            .search(q, &opts)
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect()
    };

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
