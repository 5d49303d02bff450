//! The site as readers use it, in Debian's headless Chromium: the bundled book built by the
//! real `kbook` binary (with `--bundle` and `--single-file`), served on 127.0.0.1, opened from
//! an unzipped bundle (`file://`) and as one HTML file. Navigation, pasted stack traces,
//! keyboard only, themes, a phone-sized viewport, printing, a strict CSP, axe-core and the
//! page-weight budget; screenshots go to `<target>/screenshots/`.
//!
//! axe-core comes from npm, pinned in tests/a11y/package-lock.json; `cargo xtask test` runs
//! `npm ci` there, and this test does too when node_modules is missing.

mod budget;
mod flow;
mod redirects;
mod versions;

use crate::common::{
    Chromium, chromium, copy_dir, file_url, kbook, serve, serve_wasm_as, url_encode,
};
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

    /// Emulates the system's light or dark colour scheme.
    fn color_scheme(&self, scheme: &str) {
        self.tab
            .call_method(Emulation::SetEmulatedMedia {
                media: None,
                features: Some(vec![Emulation::MediaFeature {
                    name: "prefers-color-scheme".to_string(),
                    value: scheme.to_string(),
                }]),
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
