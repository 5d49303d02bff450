//! Helpers shared by the integration tests (tests/testsuite) and, for the Chromium flags, the
//! browser benchmarks: building a book with the real `kbook` binary, serving
//! a directory on a loopback port, and a headless Debian Chromium driven over CDP that records
//! console errors, failed requests and CSP violations.
#![allow(dead_code)]

use headless_chrome::protocol::cdp::Log::LogEntryLevel;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Flags for a quiet, reproducible browser that never talks to the network, one per line;
/// the browser benchmarks (bench/*.mjs) read the same file.
pub const CHROMIUM_FLAGS: &str = include_str!("chromium-flags.txt");
/// Upper bound for anything the page does (first load compiles the module). Generous: the
/// browser tests share two cores with the other tests of the suite, some of which build
/// thousand-entry books, and a navigation can then take well over 30 s.
pub const PAGE_TIMEOUT_MS: u64 = 120_000;

/// Runs the real `kbook` binary in `dir` with `args`; panics with its stderr on failure.
pub fn kbook(dir: &Path, args: &[&OsStr]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kbook"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "kbook {args:?} failed:\n{stderr}");
    stderr
}

/// Serves `root` on an ephemeral loopback port. Missing files get `404.html` with status 404,
/// as static hosts do. Each connection is answered on a thread of its own, as static hosts
/// answer requests side by side: a connection left open (a browser of an earlier test going
/// away) must not hold up the next browser's requests.
pub fn serve(root: PathBuf) -> String {
    serve_wasm_as(root, "application/wasm")
}

/// [`serve`], sending `.wasm` files with the content type `wasm_type` (plain servers send
/// `application/octet-stream`).
pub fn serve_wasm_as(root: PathBuf, wasm_type: &'static str) -> String {
    let server = kbook::http::HttpServer::bind("127.0.0.1:0").unwrap();
    let addr = server.local_addr().unwrap();
    std::thread::spawn(move || {
        server.run(move |request, _| {
            kbook::http::Reply::Send(respond(&root, &request.url, wasm_type))
        })
    });
    format!("http://{addr}/")
}

/// Answers one request of [`serve_wasm_as`].
fn respond(root: &Path, url: &str, wasm_type: &str) -> kbook::http::Response {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or("/")
        .trim_start_matches('/')
        .to_string();
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path
    };
    let file = root.join(&path);
    let found = if path.split('/').any(|p| p == "..") {
        None
    } else {
        std::fs::read(&file).ok()
    };
    let (bytes, status, ext) = match found {
        Some(b) => (
            b,
            200,
            file.extension()
                .and_then(OsStr::to_str)
                .unwrap_or("")
                .to_string(),
        ),
        None => match std::fs::read(root.join("404.html")) {
            Ok(b) => (b, 404, "html".to_string()),
            Err(_) => (b"not found".to_vec(), 404, String::new()),
        },
    };
    let mime = match ext.as_str() {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript",
        "css" => "text/css",
        "wasm" => wasm_type,
        "svg" => "image/svg+xml",
        "xml" => "application/xml",
        _ => "application/octet-stream",
    };
    kbook::http::Response::new(status, mime, bytes)
}

/// A `file://` URL of a local path.
pub fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A Chromium with a fresh profile, and the problems its tab reported.
pub struct Chromium {
    _browser: Browser,
    pub tab: Arc<Tab>,
    /// Console errors, uncaught exceptions, failed loads and CSP violations (Log domain).
    pub errors: Arc<Mutex<Vec<String>>>,
    _profile: tempfile::TempDir,
}

pub fn chromium() -> Chromium {
    let path = std::env::var_os("KBOOK_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(CHROMIUM));
    assert!(
        path.is_file(),
        "Chromium is missing at {}: the browser tests need it. Install it with `apt-get install -y chromium` (or `cargo xtask install-test-deps`, or set KBOOK_CHROMIUM to a Chromium binary).",
        path.display()
    );
    let profile = tempfile::tempdir().unwrap();
    // Chromium puts its singleton socket in a directory under TMPDIR that it leaves behind
    // when killed; inside the profile it goes with the profile.
    let tmp = profile.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let envs = HashMap::from([("TMPDIR".to_string(), tmp.display().to_string())]);
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1280, 800)))
        .user_data_dir(Some(profile.path().to_path_buf()))
        .process_envs(Some(envs))
        .args(CHROMIUM_FLAGS.lines().map(OsStr::new).collect())
        .idle_browser_timeout(Duration::from_secs(300))
        .build()
        .unwrap();
    let browser = Browser::new(options).unwrap();
    let tab = browser.new_tab().unwrap();
    tab.set_default_timeout(Duration::from_millis(PAGE_TIMEOUT_MS));
    let errors = Arc::new(Mutex::new(Vec::new()));
    tab.enable_log().unwrap();
    tab.enable_runtime().unwrap();
    let sink = Arc::clone(&errors);
    tab.add_event_listener(Arc::new(move |event: &Event| {
        let message = match event {
            Event::RuntimeConsoleAPICalled(e)
                if e.params.Type == ConsoleAPICalledEventTypeOption::Error =>
            {
                Some(format!(
                    "console.error: {:?}",
                    e.params
                        .args
                        .iter()
                        .map(|a| a.value.clone())
                        .collect::<Vec<_>>()
                ))
            }
            Event::RuntimeExceptionThrown(e) => Some(format!(
                "uncaught exception: {:?}",
                e.params.exception_details
            )),
            Event::LogEntryAdded(e) if e.params.entry.level == LogEntryLevel::Error => Some(
                format!("{} ({:?})", e.params.entry.text, e.params.entry.url),
            ),
            _ => None,
        };
        if let Some(m) = message {
            sink.lock().unwrap().push(m);
        }
    }))
    .unwrap();
    Chromium {
        _browser: browser,
        tab,
        errors,
        _profile: profile,
    }
}

impl Chromium {
    pub fn open(&self, url: &str) {
        let navigated = self
            .tab
            .navigate_to(url)
            .and_then(|tab| tab.wait_until_navigated().map(|_| ()));
        if let Err(why) = navigated {
            // A navigation that never ends must say what the page was still waiting for.
            let state = self.try_eval(
                "({url: location.href, readyState: document.readyState, \
                 finished: performance.getEntriesByType('resource').map(e => \
                   [e.name.slice(0, 90), Math.round(e.startTime), Math.round(e.responseEnd)])})",
            );
            panic!(
                "opening {url} did not finish: {why}\npage: {state:?}\n\
                 console errors and failed requests: {:#?}",
                self.take_errors()
            );
        }
        self.wait_for("document.readyState === 'complete'");
    }

    /// Evaluates `expr` (which may return a promise) and returns its JSON value.
    pub fn eval(&self, expr: &str) -> serde_json::Value {
        self.try_eval(expr)
            .unwrap_or_else(|why| panic!("`{expr}` gave no JSON: {why}"))
    }

    /// [`Chromium::eval`], or what the page answered instead of a JSON value.
    fn try_eval(&self, expr: &str) -> Result<serde_json::Value, String> {
        let wrapped = format!(
            "Promise.resolve({expr}).then(v => JSON.stringify(v === undefined ? null : v))"
        );
        // A tab that cannot evaluate (stuck, crashed) is an answer too, for the diagnostics.
        let result = self
            .tab
            .evaluate(&wrapped, true)
            .map_err(|e| format!("evaluation failed: {e}"))?;
        match result.value {
            Some(serde_json::Value::String(json)) => Ok(serde_json::from_str(&json).unwrap()),
            other => Err(format!("{other:?} {:?}", result.description)),
        }
    }

    /// Waits, inside the page, until `expr` is truthy; returns its value.
    pub fn wait_for(&self, expr: &str) -> serde_json::Value {
        let waiter = format!(
            "new Promise((resolve, reject) => {{ const t0 = Date.now(); (function tick() {{ let v; try {{ v = ({expr}); }} catch (e) {{ v = null; }} \
             if (v) resolve(v); else if (Date.now() - t0 > {PAGE_TIMEOUT_MS}) reject(new Error('timed out waiting for: ' + {js})); else setTimeout(tick, 20); }})(); }})",
            js = serde_json::to_string(expr).unwrap()
        );
        self.try_eval(&waiter).unwrap_or_else(|why| {
            // What the page shows and what failed in it: a timeout that does not recur must
            // say why it happened.
            let state = self.try_eval(
                "({url: location.href, \
                 status: (document.getElementById('kbook-search-status') || {}).textContent, \
                 text: document.body ? document.body.innerText.slice(0, 800) : null, \
                 finished: performance.getEntriesByType('resource').map(e => \
                   [e.name.slice(location.origin.length, location.origin.length + 60), \
                    Math.round(e.startTime), Math.round(e.responseEnd)])})",
            );
            panic!(
                "`{expr}` did not become true: {why}\npage: {state:?}\n\
                 console errors and failed requests: {:#?}",
                self.take_errors()
            )
        })
    }

    /// The problems reported so far, then forgets them.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *self.errors.lock().unwrap())
    }

    pub fn assert_no_errors(&self, context: &str) {
        let errors = self.take_errors();
        assert!(
            errors.is_empty(),
            "{context}: console errors or failed requests: {errors:#?}"
        );
    }
}

/// Percent-encodes everything but unreserved characters.
pub fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Runs `cmd`; panics with its stderr when it fails. Its output.
pub fn run_ok(cmd: &mut std::process::Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The real `kbook` binary, to be given arguments.
pub fn kbook_command() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_kbook"))
}

/// `kbook build --book BOOK --dest DEST`, ready to be run.
pub fn build_command(book: &Path, dest: &Path) -> std::process::Command {
    let mut c = kbook_command();
    c.arg("build")
        .arg("--book")
        .arg(book)
        .arg("--dest")
        .arg(dest);
    c
}

/// `kbook build --book BOOK --dest DEST EXTRA…`, whatever its outcome.
pub fn build_site(book: &Path, dest: &Path, extra: &[&str]) -> std::process::Output {
    build_command(book, dest).args(extra).output().unwrap()
}

/// A fixture book under `tests/fixtures/`.
/// Writes a generated book at `root`: `book.toml` titled `title` with connectors `c0`, `c1`, …
/// and `entries` entries, entry `i` at `content/c{i % connectors}/entry-{i}.md` with the text
/// `text(i, connector number)`.
pub fn write_generated_book(
    root: &Path,
    title: &str,
    entries: usize,
    connectors: usize,
    text: impl Fn(usize, usize) -> String,
) {
    let mut toml = format!("[book]\ntitle = \"{title}\"\n");
    for c in 0..connectors {
        toml.push_str(&format!(
            "[[kbook.connectors]]\nslug = \"c{c}\"\nname = \"Connector {c}\"\n"
        ));
    }
    std::fs::write(root.join("book.toml"), toml).unwrap();
    for i in 0..entries {
        let c = i % connectors;
        let dir = root.join(format!("content/c{c}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("entry-{i}.md")), text(i, c)).unwrap();
    }
}

/// Sibling entries of `dest` left by builds (`.out.kbook-tmp-PID`, `.out.kbook-old-PID`).
pub fn leftovers(dest: &Path) -> Vec<PathBuf> {
    let name = dest.file_name().unwrap().to_string_lossy().to_string();
    std::fs::read_dir(dest.parent().unwrap())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&format!(".{name}.kbook-")))
        })
        .collect()
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Every file under `dir` (symlinks are listed, not followed), sorted; an error if a
/// directory cannot be read (a build may remove its temporary directory while it is walked).
pub fn try_walk(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let p = e?.path();
            if std::fs::symlink_metadata(&p)?.is_dir() {
                stack.push(p)
            } else {
                out.push(p)
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Every file under `dir` (symlinks are listed, not followed), sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    try_walk(dir).unwrap_or_else(|e| panic!("walking {}: {e}", dir.display()))
}

/// Copies the files under `from` to the same relative paths under `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    for item in walk(from) {
        let dest = to.join(item.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&item, &dest).unwrap();
    }
}

/// axe-core's minified source, installed from npm (tests/a11y, pinned) when missing.
pub fn axe_source() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/a11y");
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

/// A previous site in `out`, which a failed build must leave as it is (see
/// [`assert_previous_site_intact`]).
pub fn write_previous_site(out: &Path) {
    std::fs::create_dir_all(out.join("kafka")).unwrap();
    std::fs::create_dir_all(out.join("search")).unwrap();
    std::fs::write(out.join("index.html"), "previous site").unwrap();
    std::fs::write(out.join("kafka/old.html"), "previous entry").unwrap();
    // What tells a build that the folder is a site of its own to replace.
    std::fs::write(out.join("search/manifest.json"), "{}").unwrap();
}

/// `out` still holds exactly the site [`write_previous_site`] wrote, and no temporary
/// directory of a build is left beside it.
pub fn assert_previous_site_intact(out: &Path) {
    let snap = snapshot(out);
    assert_eq!(snap.len(), 3, "previous output changed: {:?}", snap.keys());
    assert_eq!(snap["index.html"], b"previous site");
    assert_eq!(snap["kafka/old.html"], b"previous entry");
    assert_eq!(snap["search/manifest.json"], b"{}");
    let parent = out.parent().unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().contains("kbook-"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary directories left: {leftovers:?}"
    );
}

/// Every file under `dir` with its bytes, keyed by relative path.
pub fn snapshot(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walk(dir)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().to_string();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (rel, bytes)
        })
        .collect()
}
