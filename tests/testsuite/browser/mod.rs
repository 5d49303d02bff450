//! Browser tests: the bundled book, built by the real `kbook` binary, in Debian's headless
//! Chromium driven over CDP, served from a loopback server started here and opened from
//! disk (`file://`). Also checks that the WebAssembly module ranks exactly like the native
//! search (the parity test).
//!
//! Chromium is required, not optional: without it these tests fail and say how to install it.

mod parity;

use crate::common::{Chromium, build_site, chromium, serve, url_encode, walk};
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// The synthetic book generator of `cargo xtask gen-book`.
#[allow(dead_code)]
#[path = "../../../xtask/src/synth.rs"]
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

/// The query texts of a query file under tests/.
fn query_texts(name: &str) -> Vec<String> {
    query_file(name)
        .into_iter()
        .map(|v| v["q"].as_str().unwrap().to_string())
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
    ids_of(native_index(dir), q, limit)
}

/// The ids `index` ranks first for `q`, up to `limit`.
fn ids_of(index: &kbook_search::BookIndex, q: &str, limit: usize) -> Vec<String> {
    let opts = kbook_search::SearchOptions {
        limit,
        ..Default::default()
    };
    index
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

/// An input method's text still being composed (pinyin `zhu'jian` before it becomes 主键) is
/// not searched; the committed text is. Its Enter and Escape are the input method's.
#[test]
fn text_an_input_method_is_composing_is_not_searched() {
    use headless_chrome::protocol::cdp::Input;
    let site = site();
    let c = chromium();
    let compose = |text: &str| {
        c.tab
            .call_method(Input::ImeSetComposition {
                text: text.into(),
                selection_start: text.chars().count() as u32,
                selection_end: text.chars().count() as u32,
                replacement_start: None,
                replacement_end: None,
            })
            .unwrap();
    };
    let commit = |text: &str| {
        c.tab
            .call_method(Input::InsertText { text: text.into() })
            .unwrap();
    };
    for (page, field) in [
        ("index.html", "form.kbook-search input[type=search]"),
        ("search.html", "#kbook-paste"),
    ] {
        c.open(&format!("{}{page}", site.http));
        c.tab.wait_for_element(field).unwrap().click().unwrap();
        // A result list or a status: whatever a search of the field's text shows.
        let searched = "(() => { const p = document.querySelector('.kbook-search-results');              return location.search.includes('q=') || (p && !p.hidden); })()";
        compose("zhu'jian");
        std::thread::sleep(std::time::Duration::from_millis(800));
        assert_eq!(
            c.eval(&format!("document.querySelector('{field}').value")),
            "zhu'jian"
        );
        assert_eq!(c.eval(searched), false, "{page}: searched while composing");
        commit("主键");
        c.wait_for(searched);
        if page == "search.html" {
            assert!(
                c.eval("location.search")
                    .as_str()
                    .is_some_and(|q| q.contains(&url_encode("主键"))),
                "{}",
                c.eval("location.search")
            );
        }
    }
    c.assert_no_errors("browser");
}

/// A page opened before the site was built again still searches: the index blocks it would
/// fetch are gone with the old build, so it loads the new index (no reload needed).
#[test]
fn a_page_opened_before_a_rebuild_still_searches() {
    use crate::common::write_generated_book;
    let dir = tempfile::tempdir().unwrap();
    let (book, out) = (dir.path().join("book"), dir.path().join("out"));
    std::fs::create_dir_all(&book).unwrap();
    let write = |extra: &str| {
        write_generated_book(&book, "Rebuilt", 200, 4, |i, c| {
            format!(
                "---\ntitle: \"Entry {i}\"\nconnector: c{c}\nkind: error\nerrors:\n  - \"org.example.Error{i}: failure {i}\"\n---\n## Symptom\n\nThe job fails with error {i}.{}\n",
                if i == 7 { extra } else { "" }
            )
        })
    };
    write("");
    let built = |what: &str| {
        let o = build_site(&book, &out, &[]);
        assert!(
            o.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    built("first build");
    let http = serve(out.clone());
    let c = chromium();
    c.open(&format!("{http}index.html"));
    // The page has read the manifest and the index's head; its blocks come with searches.
    assert_eq!(c.eval("window.kbook.ready()"), true);
    write(" Zanzibar checkpoint.");
    built("second build");
    let hits = c.eval("window.kbook.search('org.example.Error7: failure 7 Zanzibar')");
    assert_eq!(hits[0]["id"], "entry-7", "{hits}");
    let hits = c.eval("window.kbook.search('Zanzibar checkpoint')");
    assert_eq!(hits[0]["id"], "entry-7", "{hits}");
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

/// A confident search marks its first hit "Best match", and only that one; a search that is
/// not confident marks none (confidence as the native search decides it).
#[test]
fn a_confident_search_marks_its_first_hit() {
    let site = site();
    let confident = |q: &str| {
        native_index(&site.dir)
            .search(q, &kbook_search::SearchOptions::default())
            .unwrap()
            .confident
    };
    let sure = site.answered.iter().find(|l| confident(&l.q));
    let unsure = site.answered.iter().find(|l| !confident(&l.q));
    let (Some(sure), Some(unsure)) = (sure, unsure) else {
        panic!("tests/queries.jsonl needs confident and not confident queries answered right");
    };
    let c = chromium();
    for (query, marked) in [(sure, true), (unsure, false)] {
        c.open(&format!(
            "{}search.html?q={}",
            site.http,
            url_encode(&query.q)
        ));
        let marks = c.wait_for(
            "(() => { const li = [...document.querySelectorAll('#kbook-search-page-results .kbook-result')]; \
             return li.length ? li.map(l => l.querySelectorAll('.kbook-best-match').length) : null; })()",
        );
        let marks: Vec<u64> = marks
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_u64().unwrap())
            .collect();
        assert_eq!(marks[0], u64::from(marked), "{}: {marks:?}", query.q);
        assert!(marks[1..].iter().all(|&m| m == 0), "{}: {marks:?}", query.q);
        let warned = c.eval("document.querySelector('.kbook-no-confident') !== null");
        assert_eq!(warned, serde_json::Value::Bool(!marked), "{}", query.q);
    }
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

    // A connector chip filters the list to that connector. Chips and badges name it as
    // book.toml does, not by its slug.
    let connector = c.eval(
        "document.querySelector('.kbook-chip[data-facet=connector]').firstChild.textContent.trim()",
    );
    let slug = c.eval("document.querySelector('.kbook-chip[data-facet=connector]').dataset.value");
    assert_ne!(connector, slug, "the chip shows the connector's name");
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

/// A paste longer than an address should hold: the search page keeps it out of the URL (the
/// tab's storage keeps what is searched of it, and the address names it), a reload brings it
/// back, and a log whose error is at its end, longer than the part the module reads, ranks as
/// `kbook search` ranks it.
#[test]
fn a_long_paste_stays_out_of_the_address_and_its_end_is_searched() {
    let site = site();
    let query = pick(site);
    let noise = "2024-05-01 10:00:00,123 INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Completed checkpoint 17 for job 0a1b2c3d (81234 bytes, checkpointDuration=12 ms).\n";
    let log = format!("{}{}\n", noise.repeat(300_000 / noise.len()), query.q);
    assert!(
        log.chars().count() > 262_144,
        "longer than the module reads"
    );
    let native = native_ids(&site.dir, &log, 1);
    assert_eq!(
        native.first(),
        Some(&query.expect),
        "native search of the log's end"
    );
    let c = chromium();
    c.open(&format!("{}search.html", site.http));
    c.wait_for("document.getElementById('kbook-paste')");
    // Whether the results were marked busy while the search ran.
    c.eval(
        "(() => { window.__busy = false; new MutationObserver(() => { \
         if (document.getElementById('kbook-search-page-results').getAttribute('aria-busy') === 'true') window.__busy = true; }) \
         .observe(document.getElementById('kbook-search-page-results'), { attributes: true }); return 1; })()",
    );
    let set = format!(
        "(() => {{ const a = document.getElementById('kbook-paste'); a.value = {}; \
         a.dispatchEvent(new Event('input')); return 1; }})()",
        serde_json::to_string(&log).unwrap()
    );
    c.eval(&set);
    let first = c.wait_for("(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()");
    assert_eq!(first, query.expect.as_str());
    assert_eq!(
        c.eval("[window.__busy, document.getElementById('kbook-search-page-results').hasAttribute('aria-busy')]"),
        serde_json::json!([true, false])
    );
    // The reader is told that the middle of the paste was not read.
    let cut = c.eval("(document.querySelector('#kbook-search-page-results .kbook-paste-cut') || {}).textContent || ''");
    assert!(
        cut.as_str().is_some_and(|t| t.contains("128K characters")),
        "{cut}"
    );
    let address = c.wait_for("location.search.includes('paste=') && location.href");
    let address = address.as_str().unwrap_or_default().to_string();
    assert!(address.len() < 200, "{address}");
    c.open(&address);
    let first = c.wait_for("(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()");
    assert_eq!(first, query.expect.as_str());
    // What the tab kept is what is searched: the first and last 131,072 characters.
    assert_eq!(
        c.eval("document.getElementById('kbook-paste').value.length"),
        2 * 131_072 + 1
    );
    assert!(log.encode_utf16().count() > 2 * 131_072 + 1);
    // Each edit keeps a new copy; more edits than the storage holds still keep the latest.
    for i in 0..24 {
        let before = c.eval("location.href");
        c.eval(&format!(
            "(() => {{ const a = document.getElementById('kbook-paste'); a.value = 'edit {i} ' + a.value;              a.dispatchEvent(new Event('input')); return 1; }})()"
        ));
        c.wait_for(&format!(
            "location.href !== {before} && location.search.includes('paste=')"
        ));
    }
    let address = c.eval("location.href");
    c.open(address.as_str().unwrap_or_default());
    let kept = c.wait_for("document.getElementById('kbook-paste').value");
    assert!(
        kept.as_str()
            .unwrap_or_default()
            .starts_with("edit 23 edit 22 ")
    );
    c.assert_no_errors("long paste");
}

/// The chips count more results than one page lists: a button lists the next ones, up to
/// what the chips count.
#[test]
fn more_results_than_a_page_are_one_click_away() {
    let site = site();
    let c = chromium();
    c.open(&format!(
        "{}search.html?q={}",
        site.http,
        url_encode("the job fails with an exception when writing data to the sink table")
    ));
    let count = "document.querySelectorAll('#kbook-search-page-results .kbook-result').length";
    c.wait_for(&format!("{count} > 0"));
    let chips = c.eval(
        "[...document.querySelectorAll('.kbook-chip[data-facet=connector] .count')].reduce((s, e) => s + Number(e.textContent), 0)",
    );
    let chips = chips.as_u64().unwrap_or(0);
    assert!(
        chips > 20,
        "the query should match more than a page: {chips}"
    );
    assert_eq!(c.eval(count), 20);
    c.tab.find_element(".kbook-more").unwrap().click().unwrap();
    let more = c.wait_for(&format!("{count} > 20 && {count}"));
    assert_eq!(more.as_u64(), Some(chips.min(40)));
    c.assert_no_errors("more results");
}
