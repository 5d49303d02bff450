//! The site as readers use it, in Debian's headless Chromium: the bundled book built by the
//! real `kbook` binary (with `--bundle` and `--single-file`), served on 127.0.0.1, opened from
//! an unzipped bundle (`file://`) and as one HTML file. Navigation, pasted stack traces,
//! keyboard only, themes, a phone-sized viewport, printing, a strict CSP, axe-core and the
//! page-weight budget; screenshots go to `<target>/screenshots/`.
//!
//! axe-core comes from npm, pinned in tests/a11y/package-lock.json; `cargo xtask test` runs
//! `npm ci` there, and this test does too when node_modules is missing.

use crate::common::{Chromium, chromium, file_url, kbook, serve, serve_wasm_as, url_encode};
use headless_chrome::protocol::cdp::{Emulation, Input, Page};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// One build of a book and the three ways to open it.
struct Built {
    /// The site directory (served over http).
    site: PathBuf,
    http: String,
    /// The unzipped `--bundle` (the folder holding index.html).
    unzipped: PathBuf,
    /// The `--single-file` HTML.
    single: PathBuf,
}

struct Books {
    /// The bundled book as it is.
    plain: Built,
    /// The bundled book with `site-url` and `content-security-policy = true`.
    csp: Built,
    /// A multi-line stack trace and the entry it must find first.
    trace: (String, String),
    /// A short one-line error and its entry.
    short: (String, String),
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("reader")
}

/// Builds `book` into `scratch/name` with the bundle and the single file; unzips the bundle.
fn build(book: &Path, name: &str) -> Built {
    let dir = scratch().join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    let site = dir.join("site");
    let zip = dir.join("kb.zip");
    let single = dir.join("kb.html");
    let log = kbook(
        book,
        &[
            OsStr::new("build"),
            OsStr::new("--dest"),
            site.as_os_str(),
            OsStr::new("--bundle"),
            zip.as_os_str(),
            OsStr::new("--single-file"),
            single.as_os_str(),
        ],
    );
    assert!(log.contains("wrote bundle"), "{log}");
    let unzip_to = dir.join("unzipped");
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
    archive.extract(&unzip_to).unwrap();
    let http = serve(site.clone());
    Built {
        site,
        http,
        unzipped: unzip_to.join("kb"),
        single,
    }
}

fn books() -> &'static Books {
    static BOOKS: OnceLock<Books> = OnceLock::new();
    BOOKS.get_or_init(|| {
        let plain = build(manifest(), "plain");
        // The same book with a site-url (opensearch.xml) and the strict CSP switched on.
        let csp_book = scratch().join("csp-book");
        if csp_book.exists() {
            std::fs::remove_dir_all(&csp_book).unwrap();
        }
        copy_dir(&manifest().join("content"), &csp_book.join("content"));
        let toml = std::fs::read_to_string(manifest().join("book.toml")).unwrap();
        assert!(toml.contains("[output.html]\n"));
        let toml = toml.replace(
            "[output.html]\n",
            "[output.html]\nsite-url = \"https://kb.example.org/\"\ncontent-security-policy = true\n",
        );
        std::fs::write(csp_book.join("book.toml"), toml).unwrap();
        let csp = build(&csp_book, "csp");
        let index = std::fs::read_dir(plain.site.join("search"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "bin"))
            .unwrap();
        let native = kbook_search::BookIndex::open(std::fs::read(index).unwrap()).unwrap();
        let top = |q: &str| {
            native
                .search(
                    q,
                    &kbook_search::SearchOptions {
                        limit: 1,
                        ..Default::default()
                    },
                )
                .unwrap()
                .hits
                .first()
                .map(|h| h.id.clone())
        };
        let queries = labelled();
        // Answered both as pasted and with its lines joined by spaces, as a one-line search
        // field receives it.
        let trace = queries
            .iter()
            .filter(|(q, _)| q.lines().count() >= 3 && q.contains("\tat ") || q.contains("    at "))
            .find(|(q, e)| {
                q.lines().count() >= 2
                    && top(q).as_ref() == Some(e)
                    && top(&q.replace('\n', " ")).as_ref() == Some(e)
            })
            .cloned()
            .expect("no multi-line trace in tests/queries.jsonl that native search answers");
        let short = queries
            .iter()
            .filter(|(q, _)| !q.contains('\n') && q.len() < 70 && q.len() > 20)
            .find(|(q, e)| top(q).as_ref() == Some(e))
            .cloned()
            .expect("no short query that native search answers");
        Books {
            plain,
            csp,
            trace,
            short,
        }
    })
}

fn labelled() -> Vec<(String, String)> {
    std::fs::read_to_string(manifest().join("tests/queries.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["q"].as_str().unwrap().to_string(),
                v["expect"][0].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for item in std::fs::read_dir(from).unwrap() {
        let item = item.unwrap();
        let dest = to.join(item.file_name());
        if item.file_type().unwrap().is_dir() {
            copy_dir(&item.path(), &dest);
        } else {
            std::fs::copy(item.path(), dest).unwrap();
        }
    }
}

/// One browser at a time: the machines running this are small.
fn one_browser() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Origin {
    Http,
    File,
    Single,
}

fn start_url(built: &Built, origin: Origin) -> String {
    match origin {
        Origin::Http => format!("{}index.html", built.http),
        Origin::File => file_url(&built.unzipped.join("index.html")),
        Origin::Single => file_url(&built.single),
    }
}

impl Chromium {
    /// Clicks the first element matching `selector` and waits until the page (or, in the
    /// single file, the shown section) is the link's target.
    fn follow(&self, selector: &str) -> String {
        let href = self.wait_for(&format!(
            "(() => {{ const a = document.querySelector({s}); return a && a.href; }})()",
            s = js(selector)
        ));
        let href = href.as_str().unwrap().to_string();
        self.tab
            .find_element(selector)
            .unwrap()
            .scroll_into_view()
            .unwrap()
            .click()
            .unwrap();
        self.wait_for_location(&href);
        href
    }

    /// Waits until `location.href` is `href` and the document is complete, across navigations.
    fn wait_for_location(&self, href: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        let check = format!(
            "new Promise((resolve, reject) => {{ const t0 = Date.now(); (function tick() {{ \
             if (location.href === {h} && document.readyState === 'complete') resolve(true); \
             else if (Date.now() - t0 > 5000) reject(new Error('not yet: ' + location.href)); else setTimeout(tick, 20); }})(); }})",
            h = js(href)
        );
        loop {
            // The old page's context disappears mid-wait when the navigation commits.
            if let Ok(r) = self.tab.evaluate(&check, true)
                && r.value == Some(serde_json::Value::Bool(true))
            {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "never reached {href}; at {}",
                self.eval("location.href")
            );
        }
    }

    /// Types `text` as one paste (newlines kept) into the focused field.
    fn paste(&self, text: &str) {
        self.tab
            .call_method(Input::InsertText {
                text: text.to_string(),
            })
            .unwrap();
    }

    fn viewport(&self, width: u32, height: u32, mobile: bool) {
        self.tab
            .call_method(Emulation::SetDeviceMetricsOverride {
                width,
                height,
                device_scale_factor: if mobile { 2.0 } else { 1.0 },
                mobile,
                scale: None,
                screen_width: None,
                screen_height: None,
                position_x: None,
                position_y: None,
                dont_set_visible_size: None,
                screen_orientation: None,
                viewport: None,
                display_feature: None,
                device_posture: None,
            })
            .unwrap();
    }

    fn media(&self, media: &str) {
        self.tab
            .call_method(Emulation::SetEmulatedMedia {
                media: Some(media.to_string()),
                features: None,
            })
            .unwrap();
    }

    fn reload(&self) {
        self.tab.reload(false, None).unwrap();
        self.wait_for("document.readyState === 'complete'");
    }

    fn screenshot(&self, name: &str) {
        let png = self
            .tab
            .capture_screenshot(Page::CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap();
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// `<target dir>/screenshots` (CARGO_TARGET_TMPDIR is `<target dir>/tmp`).
fn screenshots_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("screenshots")
}

fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// Which `.kb-page` sections of the single file are visible.
const VISIBLE_SECTIONS: &str = "[...document.querySelectorAll('.kb-page')].filter(s => s.offsetParent !== null).map(s => s.id)";

/// Home → connector → entry → search page → paste a stack trace → open the first result,
/// which shows the matched terms highlighted.
fn reader_flow(c: &Chromium, built: &Built, origin: Origin, trace: &(String, String)) {
    c.open(&start_url(built, origin));
    if origin == Origin::Single {
        assert_eq!(c.eval(VISIBLE_SECTIONS), serde_json::json!(["kb-home"]));
    }
    assert!(
        c.eval("document.querySelectorAll('.card-grid a').length")
            .as_u64()
            > Some(3)
    );
    c.follow(".card-grid .card a");
    if origin == Origin::Single {
        let shown = c.eval(VISIBLE_SECTIONS);
        assert!(shown[0].as_str().unwrap().starts_with("kb-c-"), "{shown}");
        c.follow(".kb-page:target .entry-items a");
        let shown = c.eval(VISIBLE_SECTIONS);
        assert_eq!(shown.as_array().unwrap().len(), 1, "{shown}");
        assert_eq!(
            c.eval("location.hash.slice(1)"),
            c.eval("document.querySelector('.kb-page:target article.entry').dataset.entryId")
        );
    } else {
        assert!(
            c.eval("document.querySelector('h1').textContent.length")
                .as_u64()
                > Some(0)
        );
        c.follow(".entry-items a");
        // An entry: breadcrumb back to home and the connector, copy buttons, copy link.
        assert_eq!(
            c.eval("document.querySelectorAll('.breadcrumb a').length"),
            2
        );
        c.wait_for("document.querySelector('.copy-link-button')");
        assert_eq!(
            c.eval("document.querySelectorAll('.entry pre').length"),
            c.eval("document.querySelectorAll('.entry .copy-button').length")
        );
    }
    if origin == Origin::Http {
        // The search box every page has is one line: the browser joins a pasted trace's lines
        // with spaces, and search reads it as the trace.
        c.tab.wait_for_element("#kbook-q").unwrap().click().unwrap();
        // A paste is a `paste` event with the clipboard's text, then the text inserted.
        c.eval(&format!(
            "(() => {{ const d = new DataTransfer(); d.setData('text/plain', {t}); \
             document.getElementById('kbook-q').dispatchEvent(new ClipboardEvent('paste', {{clipboardData: d, bubbles: true}})); return true; }})()",
            t = js(&trace.0)
        ));
        c.paste(&trace.0);
        assert_eq!(
            c.eval("document.getElementById('kbook-q').value.includes('\\n')"),
            false,
            "a one-line field kept the paste's line breaks"
        );
        let first = c.wait_for(
            "(() => { const a = document.querySelector('#kbook-q-results .kbook-hit[data-id]'); return a && a.dataset.id; })()",
        );
        assert_eq!(
            first,
            trace.1.as_str(),
            "first result for the trace pasted into the search box"
        );
        // The box searched for the paste with its lines, and hands them to the search page.
        let all = c.eval("document.querySelector('#kbook-q-results .kbook-search-all').href");
        assert!(
            all.as_str().is_some_and(|href| href.contains("%0A")),
            "the search box lost the paste's lines: {all}"
        );
        c.eval("(() => { const q = document.getElementById('kbook-q'); q.value = ''; q.blur(); return true; })()");
    }
    // The search page, from the home page's hint link.
    c.follow(".site-title");
    c.follow(".hero .hint a");
    c.tab
        .wait_for_element("#kbook-paste")
        .unwrap()
        .click()
        .unwrap();
    c.paste(&trace.0);
    assert!(
        c.eval("document.getElementById('kbook-paste').value.split('\\n').length")
            .as_u64()
            > Some(1),
        "the paste lost its lines"
    );
    let first = c.wait_for(
        "(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()",
    );
    assert_eq!(
        first,
        trace.1.as_str(),
        "first result for the pasted trace ({origin:?})"
    );
    c.follow("#kbook-search-page-results .kbook-result a");
    let id = if origin == Origin::Single {
        c.eval("location.hash.slice(1)")
    } else {
        c.eval("document.querySelector('article.entry').dataset.entryId")
    };
    assert_eq!(id, trace.1.as_str());
    let marks = c.wait_for("document.querySelectorAll('article.entry mark.kbook-hl').length");
    assert!(marks.as_u64() > Some(0), "no highlighted terms");
    c.assert_no_errors(&format!("reader flow ({origin:?})"));
}

#[test]
fn reader_flow_over_http() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::Http, &b.trace);
}

#[test]
fn reader_flow_from_unzipped_bundle() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::File, &b.trace);
    // Deep links work from disk too.
    c.open(&format!(
        "{}?q={}",
        file_url(&b.plain.unzipped.join("search.html")),
        url_encode(&b.short.0)
    ));
    assert_eq!(
        c.wait_for("(() => { const li = document.querySelector('.kbook-result'); return li && li.dataset.id; })()"),
        b.short.1.as_str()
    );
    c.assert_no_errors("search.html?q= from the bundle");
}

#[test]
fn reader_flow_in_the_single_file() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::Single, &b.trace);
    // Entries are reachable by #id, and the header search links results to #id.
    c.open(&format!("{}#{}", file_url(&b.plain.single), b.short.1));
    assert_eq!(c.eval(VISIBLE_SECTIONS), serde_json::json!([b.short.1]));
    c.tab.find_element("#kbook-q").unwrap().click().unwrap();
    c.tab.type_str(&b.short.0).unwrap();
    let href = c.wait_for("(() => { const a = document.querySelector('.kbook-search-results .kbook-hit'); return a && a.getAttribute('href'); })()");
    assert_eq!(href, format!("#{}", b.short.1).as_str());
    c.assert_no_errors("single file");
}

#[test]
fn keyboard_only() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    let (q, expect) = &b.short;
    c.open(&format!("{}index.html", b.plain.http));
    // Tab reaches the skip link first; Enter moves focus to the content.
    c.tab.press_key("Tab").unwrap();
    assert_eq!(c.eval("document.activeElement.className"), "skip-link");
    c.tab.press_key("Enter").unwrap();
    c.wait_for("document.activeElement && document.activeElement.id === 'main'");
    // "/" focuses the search; arrows move through results; Enter opens the highlighted one.
    c.tab.press_key("/").unwrap();
    assert_eq!(c.eval("document.activeElement.id"), "kbook-q");
    c.tab.type_str(q).unwrap();
    c.wait_for("document.querySelectorAll('.kbook-search-results .kbook-hit').length > 1");
    for key in ["ArrowDown", "ArrowDown", "ArrowUp"] {
        c.tab.press_key(key).unwrap();
    }
    let active = c.eval(
        "(() => { const id = document.activeElement.getAttribute('aria-activedescendant'); const a = id && document.getElementById(id); return a && {id: a.dataset.id, first: a === document.querySelector('.kbook-search-results .kbook-hit'), href: a.href}; })()",
    );
    assert_eq!(active["first"], true, "{active}");
    assert_eq!(active["id"], expect.as_str());
    c.tab.press_key("Enter").unwrap();
    c.wait_for_location(active["href"].as_str().unwrap());
    // Escape closes the results, a second Escape leaves the box.
    c.tab.press_key("/").unwrap();
    c.tab.type_str(q).unwrap();
    c.wait_for("!document.querySelector('.kbook-search-results').hidden && document.querySelector('.kbook-search-results .kbook-hit')");
    c.tab.press_key("Escape").unwrap();
    assert_eq!(
        c.eval("document.querySelector('.kbook-search-results').hidden"),
        true
    );
    c.tab.press_key("Escape").unwrap();
    assert_ne!(c.eval("document.activeElement.id"), "kbook-q");
    // Recent searches: an empty box offers the last search; Enter runs it again.
    c.eval("(() => { const i = document.getElementById('kbook-q'); i.value = ''; })()");
    c.tab.press_key("/").unwrap();
    let recent = c.wait_for("(() => { const a = document.querySelector('.kbook-search-results .kbook-recent-item'); return a && a.dataset.recent; })()");
    assert_eq!(recent, q.as_str());
    c.tab.press_key("ArrowDown").unwrap();
    c.tab.press_key("Enter").unwrap();
    c.wait_for(&format!(
        "document.getElementById('kbook-q').value === {} && document.querySelector('.kbook-search-results .kbook-hit')",
        js(q)
    ));
    c.tab.press_key("Escape").unwrap();
    c.tab.press_key("Escape").unwrap();
    // Tab reaches the theme toggle; Enter switches the theme.
    let before = c.eval("document.documentElement.dataset.theme");
    let mut reached = false;
    for _ in 0..12 {
        c.tab.press_key("Tab").unwrap();
        if c.eval("document.activeElement.classList.contains('theme-toggle')") == true {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached the theme toggle");
    c.tab.press_key("Enter").unwrap();
    assert_ne!(c.eval("document.documentElement.dataset.theme"), before);
    c.assert_no_errors("keyboard only");
}

#[test]
fn theme_persists_phone_layout_and_print() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    for origin in [Origin::Http, Origin::File, Origin::Single] {
        c.open(&start_url(&b.plain, origin));
        let before = c.eval("document.documentElement.dataset.theme");
        c.tab
            .find_element(".theme-toggle")
            .unwrap()
            .click()
            .unwrap();
        let after = c.eval("document.documentElement.dataset.theme");
        assert_ne!(before, after, "{origin:?}");
        c.reload();
        assert_eq!(
            c.eval("document.documentElement.dataset.theme"),
            after,
            "theme not kept over a reload ({origin:?})"
        );
        c.assert_no_errors(&format!("theme ({origin:?})"));
    }

    // 375 px: no horizontal scroll anywhere; the sidebar folds away behind its toggle.
    c.viewport(375, 812, true);
    let entry = format!("{}{}", b.plain.http, entry_url(&b.plain, &b.short.1));
    let pages = [
        format!("{}index.html", b.plain.http),
        format!("{}kafka/index.html", b.plain.http),
        entry.clone(),
        format!("{}search.html?q={}", b.plain.http, url_encode(&b.trace.0)),
        format!("{}no-such-page.html", b.plain.http),
    ];
    for url in &pages {
        c.open(url);
        if url.contains("search.html") {
            c.wait_for("document.querySelector('.kbook-result')");
        }
        let widths = c.eval("[document.documentElement.scrollWidth, window.innerWidth]");
        assert!(
            widths[0].as_u64() <= widths[1].as_u64(),
            "{url}: horizontal scroll at 375 px: {widths}"
        );
    }
    c.open(&entry);
    assert_eq!(
        c.eval("getComputedStyle(document.getElementById('sidebar')).display"),
        "none"
    );
    c.tab.find_element(".nav-toggle").unwrap().click().unwrap();
    assert_ne!(
        c.eval("getComputedStyle(document.getElementById('sidebar')).display"),
        "none"
    );
    assert_eq!(
        c.eval("document.querySelector('.nav-toggle').getAttribute('aria-expanded')"),
        "true"
    );
    c.take_errors(); // the 404 page answered 404, which Chromium logs

    // Print: only the entry.
    c.viewport(1280, 800, false);
    c.open(&entry);
    c.media("print");
    let shown = c.eval(
        "['.site-header', '.sidebar', '.site-footer', '.copy-button', 'article.entry'].map(s => { const e = document.querySelector(s); return e ? getComputedStyle(e).display : 'none'; })",
    );
    assert_eq!(
        shown,
        serde_json::json!(["none", "none", "none", "none", "block"])
    );
    c.media("");
    c.assert_no_errors("phone and print");
}

/// The entry's page path, from the site's files.
fn entry_url(built: &Built, id: &str) -> String {
    for dir in std::fs::read_dir(&built.site).unwrap() {
        let dir = dir.unwrap().path();
        if dir.join(format!("{id}.html")).is_file() {
            return format!("{}/{id}.html", dir.file_name().unwrap().to_string_lossy());
        }
    }
    panic!("no page for {id}")
}

#[test]
fn strict_csp_over_http_from_disk_and_single_file() {
    let b = books();
    let _one = one_browser();
    let built = &b.csp;
    // opensearch.xml with the site-url; none without.
    let opensearch = std::fs::read_to_string(built.site.join("opensearch.xml")).unwrap();
    assert!(opensearch.contains("https://kb.example.org/search.html?q={searchTerms}"));
    assert!(!b.plain.site.join("opensearch.xml").exists());
    let c = chromium();
    for origin in [Origin::Http, Origin::File, Origin::Single] {
        c.open(&start_url(built, origin));
        assert!(
            c.eval("document.querySelector('meta[http-equiv=Content-Security-Policy]') !== null")
                == true,
            "no CSP meta tag ({origin:?})"
        );
        if origin != Origin::Single {
            assert_eq!(
                c.eval("!!document.querySelector('link[rel=search][type=\"application/opensearchdescription+xml\"]')"),
                true
            );
        }
        reader_flow(&c, built, origin, &b.trace);
        let hits = c.eval(&format!(
            "window.kbook.search({}, {{limit: 3}})",
            js(&b.short.0)
        ));
        assert_eq!(hits[0]["id"], b.short.1.as_str(), "{origin:?}");
        c.assert_no_errors(&format!("CSP on ({origin:?})"));
    }
    // The 404 page (with <base> from the site-url) and its search.
    c.open(&format!(
        "{}kafka/offset-out-of-range-gone.html",
        built.http
    ));
    c.wait_for("document.querySelector('.kbook-404-results li a')");
    assert_eq!(
        c.eval("getComputedStyle(document.querySelector('.site-header')).position"),
        "sticky",
        "the 404 page lost its styles"
    );
    let errors: Vec<String> = c
        .take_errors()
        .into_iter()
        .filter(|e| !e.contains("404"))
        .collect();
    assert!(errors.is_empty(), "404 page with CSP: {errors:#?}");
}

/// axe-core's minified source, installed from npm (tests/a11y, pinned) when missing.
fn axe_source() -> String {
    let dir = manifest().join("tests/a11y");
    let file = dir.join("node_modules/axe-core/axe.min.js");
    if !file.is_file() {
        let status = std::process::Command::new("npm")
            .args(["ci", "--ignore-scripts", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .expect(
                "npm is needed once to install axe-core into tests/a11y (cargo xtask test does it)",
            );
        assert!(status.success(), "npm ci in tests/a11y failed");
    }
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn accessibility_axe_finds_no_serious_violations() {
    let b = books();
    let axe = axe_source();
    let _one = one_browser();
    let c = chromium();
    let http = &b.plain.http;
    let pages = [
        ("home", format!("{http}index.html")),
        ("connector", format!("{http}kafka/index.html")),
        (
            "entry",
            format!("{http}{}", entry_url(&b.plain, &b.trace.1)),
        ),
        (
            "search",
            format!("{http}search.html?q={}", url_encode(&b.trace.0)),
        ),
        ("404", format!("{http}no-such-kafka-page.html")),
    ];
    let mut problems = Vec::new();
    for (name, url) in &pages {
        for theme in ["light", "dark"] {
            c.open(url);
            c.eval(&format!(
                "document.documentElement.setAttribute('data-theme', '{theme}')"
            ));
            match *name {
                "search" => {
                    c.wait_for("document.querySelector('.kbook-result')");
                }
                "404" => {
                    c.wait_for("document.querySelector('.kbook-404-results li')");
                }
                _ => {}
            }
            c.tab.evaluate(&axe, false).unwrap();
            let found = c.eval(
                "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' ' + JSON.stringify((n.any[0] || {}).data || ''))})))",
            );
            for v in found.as_array().unwrap() {
                problems.push(format!("{name} ({theme}): {v}"));
            }
        }
    }
    // The open dropdown of the header search, too.
    c.open(&format!("{http}index.html"));
    c.tab.press_key("/").unwrap();
    c.tab.type_str(&b.short.0).unwrap();
    c.wait_for("document.querySelector('.kbook-search-results .kbook-hit')");
    c.tab.evaluate(&axe, false).unwrap();
    let found = c.eval(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({id: v.id, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))})))",
    );
    for v in found.as_array().unwrap() {
        problems.push(format!("search dropdown: {v}"));
    }
    assert!(problems.is_empty(), "axe-core: {problems:#?}");
}

/// Bytes of the files a page loaded (documents and resources), read from the site on disk
/// so http and file:// count the same way; gzip sizes of its CSS and JS.
fn loaded(c: &Chromium, built: &Built) -> (Vec<String>, u64) {
    let urls = c.eval(
        // Resource Timing has no file:// entries: the elements that load files count as well.
        "[location.href, ...performance.getEntriesByType('resource').map(e => e.name), \
         ...[...document.querySelectorAll('script[src], link[rel=stylesheet][href], link[rel=icon][href]')].map(e => e.src || e.href)] \
         .map(u => u.split(/[?#]/)[0])",
    );
    let mut paths: Vec<String> = urls
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| {
            let u = u.as_str()?;
            let rel = u
                .strip_prefix(&built.http)
                .map(str::to_string)
                .or_else(|| {
                    u.strip_prefix(&file_url(&built.unzipped))
                        .map(|r| r.trim_start_matches('/').to_string())
                })?;
            Some(rel)
        })
        .collect();
    paths.sort();
    paths.dedup();
    let bytes = paths
        .iter()
        .map(|p| std::fs::metadata(built.site.join(p)).map_or(0, |m| m.len()))
        .sum();
    (paths, bytes)
}

fn gzip_len(bytes: &[u8]) -> u64 {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap().len() as u64
}

#[test]
fn search_loads_only_on_focus_within_budget_and_without_layout_shift() {
    let b = books();
    let _one = one_browser();
    let built = &b.plain;
    let entry = entry_url(built, &b.trace.1);
    let mut report = Vec::new();
    for origin in [Origin::Http, Origin::File] {
        let c = chromium();
        let url = match origin {
            Origin::Http => format!("{}{entry}", built.http),
            _ => file_url(&built.unzipped.join(&entry)),
        };
        c.open(&url);
        let (before, page_bytes) = loaded(&c, built);
        assert!(
            !before.iter().any(|p| p.starts_with("search/")),
            "{origin:?}: search loaded before focus: {before:?}"
        );
        let css_js_gzip: u64 = before
            .iter()
            .filter(|p| p.ends_with(".css") || p.ends_with(".js"))
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        assert!(
            css_js_gzip < 30 * 1024,
            "page CSS+JS is {css_js_gzip} bytes gzip"
        );
        // Focus, type, first result: as a reader does it, timed inside the page.
        let ms = c.eval(&format!(
            "new Promise(resolve => {{ const input = document.getElementById('kbook-q'); const t0 = performance.now(); \
             input.focus(); input.value = {q}; input.dispatchEvent(new Event('input', {{bubbles: true}})); \
             (function check() {{ if (document.querySelector('.kbook-search-results .kbook-hit')) resolve(performance.now() - t0); else requestAnimationFrame(check); }})(); }})",
            q = js(&b.short.0)
        ));
        let (after, all_bytes) = loaded(&c, built);
        let search_files: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
        assert!(
            !search_files.is_empty(),
            "{origin:?}: the search loaded nothing"
        );
        let search_gzip: u64 = search_files
            .iter()
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        let page_gzip: u64 = before
            .iter()
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        let line = format!(
            "{origin:?}: page view without search {page_bytes} B ({page_gzip} B gzip; {} files; CSS+JS {css_js_gzip} B gzip); first search loads {} B ({search_gzip} B gzip; {search_files:?}); time to first result {:.0} ms",
            before.len(),
            all_bytes - page_bytes,
            ms.as_f64().unwrap()
        );
        eprintln!("{line}");
        report.push(line);
        c.assert_no_errors(&format!("performance ({origin:?})"));
    }
    // No layout shift when results arrive (deep link: nothing the reader did moves the page).
    let c = chromium();
    c.open(&format!(
        "{}search.html?q={}",
        built.http,
        url_encode(&b.trace.0)
    ));
    c.wait_for("document.querySelector('.kbook-result')");
    let cls = c.eval(
        "new Promise(resolve => { let sum = 0; new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value; }).observe({type: 'layout-shift', buffered: true}); requestAnimationFrame(() => requestAnimationFrame(() => resolve(sum))); })",
    );
    report.push(format!(
        "search.html deep link: cumulative layout shift {cls}"
    ));
    assert!(cls.as_f64().unwrap() < 0.01, "layout shift {cls}");
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("measurements.txt"), report.join("\n") + "\n").unwrap();
}

/// Plain static servers send the module as `application/octet-stream`, which streaming
/// compilation refuses: the search then compiles it from its bytes, with the same first
/// result as from a server that sends `application/wasm`.
#[test]
fn search_works_from_a_server_without_the_wasm_content_type() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    for wasm_type in ["application/octet-stream", "application/wasm"] {
        let http = serve_wasm_as(b.plain.site.clone(), wasm_type);
        c.open(&format!("{http}search.html?q={}", url_encode(&b.trace.0)));
        let first = c.wait_for("(document.querySelector('.kbook-result') || {}).dataset?.id");
        assert_eq!(first, b.trace.1.as_str(), "first result with {wasm_type}");
        c.assert_no_errors(&format!("search with the module sent as {wasm_type}"));
    }
}

#[test]
fn screenshots_light_and_dark_desktop_and_phone() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    let http = &b.plain.http;
    let pages = [
        ("home", format!("{http}index.html")),
        (
            "entry",
            format!("{http}{}", entry_url(&b.plain, &b.trace.1)),
        ),
        (
            "search",
            format!("{http}search.html?q={}", url_encode(&b.trace.0)),
        ),
    ];
    for (device, (w, h, mobile)) in [("desktop", (1280, 800, false)), ("phone", (375, 812, true))] {
        c.viewport(w, h, mobile);
        for theme in ["light", "dark"] {
            for (name, url) in &pages {
                c.open(url);
                c.eval(&format!(
                    "document.documentElement.setAttribute('data-theme', '{theme}')"
                ));
                if *name == "search" {
                    c.wait_for("document.querySelector('.kbook-result')");
                }
                c.screenshot(&format!("{name}-{theme}-{device}"));
            }
        }
    }
    c.assert_no_errors("screenshots");
}

/// The native index of a built site.
fn native_index(built: &Built) -> kbook_search::BookIndex {
    let index = std::fs::read_dir(built.site.join("search"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "bin"))
        .unwrap();
    kbook_search::BookIndex::open(std::fs::read(index).unwrap()).unwrap()
}

fn version_opts(version: &str, limit: usize) -> kbook_search::SearchOptions {
    kbook_search::SearchOptions {
        limit,
        version: Some(kbook_search::version::parse_product_version(version).unwrap()),
        ..Default::default()
    }
}

/// Every entry page's version statements (`data-kbook-versions`), by page path.
fn entry_version_specs(built: &Built) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&built.site).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.ends_with("search") || dir.ends_with("static") {
            continue;
        }
        for page in std::fs::read_dir(&dir).unwrap() {
            let page = page.unwrap().path();
            let html = std::fs::read_to_string(&page).unwrap();
            let Some(rest) = html.split("data-kbook-versions=\"").nth(1) else {
                continue;
            };
            let json = rest.split('"').next().unwrap();
            let json = json
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            let rel = page.strip_prefix(&built.site).unwrap();
            out.push((rel.to_string_lossy().into_owned(), json));
        }
    }
    out.sort();
    out
}

/// The reader's product version: picked on the search page, remembered over a reload, set by
/// `?version=`; results for it list entries that do not affect it last, marked; entry pages
/// say whether they apply. Over http and from the unzipped bundle (file://).
#[test]
fn reader_version_marks_and_demotes_and_is_remembered() {
    use kbook_search::version::{VersionMatch, VersionSpec, classify, fix_release};
    let b = books();
    let _one = one_browser();
    let built = &b.plain;
    let native = native_index(built);
    let past_fix = "vvr=8.0.11";
    // A labelled query whose best entry was fixed before 8.0.11: with that version it moves
    // down the list but stays in it.
    let (q, id, fixed) = labelled()
        .into_iter()
        .filter(|(q, _)| q.len() < 160)
        .find_map(|(q, expect)| {
            let plain = native
                .search(
                    &q,
                    &kbook_search::SearchOptions {
                        limit: 20,
                        ..Default::default()
                    },
                )
                .ok()?;
            if plain.hits.first()?.id != expect {
                return None;
            }
            let with = native.search(&q, &version_opts(past_fix, 20)).ok()?;
            let pos = with.hits.iter().position(|h| h.id == expect)?;
            let hit = &with.hits[pos];
            (pos > 0 && hit.version_match == Some(VersionMatch::Fixed))
                .then(|| (q, expect, hit.fixed_in.clone().unwrap()))
        })
        .expect("no labelled query whose best entry is fixed before vvr 8.0.11");
    let entry = entry_url(built, &id);
    let specs: Vec<VersionSpec> = serde_json::from_str(
        &entry_version_specs(built)
            .into_iter()
            .find(|(p, _)| *p == entry)
            .unwrap()
            .1,
    )
    .unwrap();
    let results = "[...document.querySelectorAll('#kbook-search-page-results .kbook-result')]";
    for origin in [Origin::Http, Origin::File] {
        let c = chromium();
        let page = |path: &str| match origin {
            Origin::Http => format!("{}{path}", built.http),
            _ => file_url(&built.unzipped.join(path)),
        };
        let search = format!("{}?q={}", page("search.html"), url_encode(&q));
        c.open(&search);
        let first = c.wait_for(&format!(
            "(() => {{ const li = {results}[0]; return li && li.dataset.id; }})()"
        ));
        assert_eq!(first, id.as_str(), "{origin:?}: before a version is chosen");
        assert_eq!(
            c.eval("document.querySelectorAll('.kbook-version-mark').length"),
            0
        );

        // Pick the product, type the version.
        c.eval(
            "(() => { const s = document.getElementById('kbook-version-product'); s.value = 'vvr'; s.dispatchEvent(new Event('change')); })()",
        );
        assert_eq!(
            c.eval("document.activeElement.id"),
            "kbook-version-value",
            "choosing a product moves to the version field"
        );
        c.tab.type_str("8.0.11").unwrap();
        // Results for a version typed halfway (8.0.1) may show first: wait for the whole one.
        let shown = c.wait_for(&format!(
            "(() => {{ const li = {results}; const i = li.findIndex(l => l.dataset.id === {id}); \
             if (!location.search.includes('version=vvr%3D8.0.11') || \
                 !document.getElementById('kbook-version-note').textContent.includes('vvr 8.0.11')) return null; \
             if (i < 1 || !li[i].classList.contains('kbook-result-other')) return null; \
             return {{ index: i, ids: li.map(l => l.dataset.id), other: li.map(l => l.classList.contains('kbook-result-other')), \
             mark: li[i].querySelector('.kbook-version-mark.other').textContent, note: document.getElementById('kbook-version-note').textContent, \
             search: location.search }}; }})()",
            id = js(&id)
        ));
        let expected: Vec<String> = native
            .search(&q, &version_opts(past_fix, 20))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(shown["ids"], serde_json::json!(expected), "{origin:?}");
        let other: Vec<bool> = serde_json::from_value(shown["other"].clone()).unwrap();
        assert!(
            other.windows(2).all(|w| w[0] <= w[1]),
            "{origin:?}: an entry for the reader's version below one that is not: {other:?}"
        );
        assert_eq!(
            shown["mark"],
            format!("Not your version: fixed in {fixed}").as_str()
        );
        assert!(
            shown["note"].as_str().unwrap().contains("vvr 8.0.11"),
            "{shown}"
        );
        assert!(
            shown["search"]
                .as_str()
                .unwrap()
                .contains("version=vvr%3D8.0.11"),
            "{shown}"
        );
        if origin == Origin::Http {
            c.eval(
                "document.querySelector('.kbook-result-other').scrollIntoView({block: 'center'})",
            );
            c.screenshot("search-version-marks");
        }

        // Remembered: the same search without ?version= after a reload.
        c.open(&search);
        c.wait_for(&format!(
            "(() => {{ const li = {results}.find(l => l.dataset.id === {id}); return li && li.classList.contains('kbook-result-other'); }})()",
            id = js(&id)
        ));
        assert_eq!(
            c.eval("[document.getElementById('kbook-version-product').value, document.getElementById('kbook-version-value').value]"),
            serde_json::json!(["vvr", "8.0.11"]),
            "{origin:?}"
        );

        // The entry page says it does not affect the chosen version.
        c.open(&page(&entry));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && {text: p.textContent, match: p.dataset.match}; })()",
        );
        assert_eq!(line["match"], "fixed");
        assert_eq!(
            line["text"],
            format!("Does not affect vvr 8.0.11 (fixed in {fixed}) · Change version").as_str(),
            "{origin:?}"
        );

        // ?version= sets another version, on an entry page and on the search page.
        let v = kbook_search::version::Version::parse("8.0.1").unwrap();
        let m = classify(&specs, "vvr", &v);
        let fix = fix_release(&specs, "vvr", &v, m);
        c.open(&format!("{}?version=vvr=8.0.1", page(&entry)));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && {text: p.textContent, match: p.dataset.match}; })()",
        );
        assert_eq!(
            line["match"],
            serde_json::to_value(m).unwrap(),
            "{origin:?}"
        );
        let expect_line = match (m, &fix) {
            (VersionMatch::Affected, Some(f)) => {
                format!("Applies to your version vvr 8.0.1 (fixed in {f})")
            }
            (VersionMatch::Affected, None) => "Applies to your version vvr 8.0.1".to_string(),
            (VersionMatch::Fixed, Some(f)) => format!("Does not affect vvr 8.0.1 (fixed in {f})"),
            (VersionMatch::Unknown, _) => "This entry says nothing about vvr".to_string(),
            _ => "Does not affect vvr 8.0.1".to_string(),
        };
        assert_eq!(
            line["text"],
            format!("{expect_line} · Change version").as_str()
        );
        c.open(&format!("{search}&version=vvr%3D6.0.1"));
        let ids = c.wait_for(&format!(
            "(() => {{ const li = {results}; return document.getElementById('kbook-version-value').value === '6.0.1' && li.length && li.map(l => l.dataset.id); }})()"
        ));
        let expected: Vec<String> = native
            .search(&q, &version_opts("vvr=6.0.1", 20))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(ids, serde_json::json!(expected), "{origin:?}");
        // The header search marks its hits too.
        c.tab.find_element("#kbook-q").unwrap().click().unwrap();
        c.tab.type_str(&b.short.0).unwrap();
        c.wait_for("document.querySelector('.kbook-search-results .kbook-hit')");
        let box_hits = c.eval(
            "[...document.querySelectorAll('.kbook-search-results .kbook-hit')].map(a => [a.dataset.id, !!a.querySelector('.kbook-version-mark.other')])",
        );
        let native_box: Vec<serde_json::Value> = native
            .search(&b.short.0, &version_opts("vvr=6.0.1", 8))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| serde_json::json!([h.id, h.version_match.is_some_and(|m| !m.applies())]))
            .collect();
        assert_eq!(box_hits, serde_json::Value::Array(native_box), "{origin:?}");
        // Clearing the choice hides the line again.
        c.open(&page("search.html"));
        c.tab
            .find_element("#kbook-version-clear")
            .unwrap()
            .click()
            .unwrap();
        c.open(&page(&entry));
        assert_eq!(
            c.eval("document.querySelector('.kbook-version-status').hidden"),
            true
        );
        c.assert_no_errors(&format!("version choice ({origin:?})"));
    }

    // The page's classification (theme.js) agrees with the search core's for every entry.
    let c = chromium();
    c.open(&format!("{}index.html", built.http));
    let versions = [
        "0.1",
        "0.9",
        "0.10.0",
        "1",
        "5.1.46",
        "6.0.1",
        "6.0.2",
        "6.0.7",
        "6.0.7-flink-1.15",
        "8",
        "8.0",
        "8.0.4",
        "8.0.5",
        "8.0.7",
        "8.0.8",
        "8.0.9",
        "8.0.10",
        "8.0.11",
        "8.0.27",
        "9.1",
        "v8.0.9",
    ];
    let products = ["vvr", "hologres", "hudi", "mysql-jdbc", "flink"];
    let mut cases = Vec::new();
    for (_, json) in entry_version_specs(built) {
        for p in products {
            for v in versions {
                cases.push((json.clone(), p, v));
            }
        }
    }
    let in_page = c.eval(&format!(
        "{}.map(([specs, p, v]) => window.kbook.versionMatch(JSON.parse(specs), p, v))",
        serde_json::to_string(&cases).unwrap()
    ));
    for (i, (json, p, v)) in cases.iter().enumerate() {
        let specs: Vec<VersionSpec> = serde_json::from_str(json).unwrap();
        let version = kbook_search::version::Version::parse(v).unwrap();
        let m = classify(&specs, p, &version);
        let expect = serde_json::json!({
            "version_match": m,
            "fixed_in": fix_release(&specs, p, &version, m),
        });
        assert_eq!(in_page[i], expect, "{p} {v} against {json}");
    }
    assert!(cases.len() > 500, "{} cases", cases.len());
}
