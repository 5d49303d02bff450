//! Helpers shared by the browser tests: building a book with the real `kbook` binary, serving
//! a directory on a loopback port, and a headless Debian Chromium driven over CDP that records
//! console errors, failed requests and CSP violations.
#![allow(dead_code)]

use headless_chrome::protocol::cdp::Log::LogEntryLevel;
use headless_chrome::protocol::cdp::Runtime::ConsoleAPICalledEventTypeOption;
use headless_chrome::protocol::cdp::types::Event;
use headless_chrome::{Browser, LaunchOptions, Tab};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Flags for a quiet, reproducible browser that never talks to the network.
pub const CHROMIUM_FLAGS: [&str; 8] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
];
/// Upper bound for anything the page does (first load compiles the module).
pub const PAGE_TIMEOUT_MS: u64 = 30_000;

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

/// Serves `root` on an ephemeral loopback port from a background thread. Missing files get
/// `404.html` with status 404, as static hosts do.
pub fn serve(root: PathBuf) -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let addr = server.server_addr().to_ip().unwrap();
    std::thread::spawn(move || {
        for request in server.incoming_requests() {
            let path = request
                .url()
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
                "wasm" => "application/wasm",
                "svg" => "image/svg+xml",
                "xml" => "application/xml",
                _ => "application/octet-stream",
            };
            let header = tiny_http::Header::from_bytes("Content-Type", mime).unwrap();
            let response = tiny_http::Response::from_data(bytes)
                .with_status_code(status)
                .with_header(header);
            let _ = request.respond(response);
        }
    });
    format!("http://{addr}/")
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
    let options = LaunchOptions::default_builder()
        .path(Some(path))
        .headless(true)
        .sandbox(false)
        .window_size(Some((1280, 800)))
        .user_data_dir(Some(profile.path().to_path_buf()))
        .args(CHROMIUM_FLAGS.iter().map(OsStr::new).collect())
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
        self.tab
            .navigate_to(url)
            .unwrap()
            .wait_until_navigated()
            .unwrap();
        self.wait_for("document.readyState === 'complete'");
    }

    /// Evaluates `expr` (which may return a promise) and returns its JSON value.
    pub fn eval(&self, expr: &str) -> serde_json::Value {
        let wrapped = format!(
            "Promise.resolve({expr}).then(v => JSON.stringify(v === undefined ? null : v))"
        );
        let result = self.tab.evaluate(&wrapped, true).unwrap();
        match result.value {
            Some(serde_json::Value::String(json)) => serde_json::from_str(&json).unwrap(),
            other => panic!("`{expr}` gave no JSON: {other:?} {:?}", result.description),
        }
    }

    /// Waits, inside the page, until `expr` is truthy; returns its value.
    pub fn wait_for(&self, expr: &str) -> serde_json::Value {
        let waiter = format!(
            "new Promise((resolve, reject) => {{ const t0 = Date.now(); (function tick() {{ let v; try {{ v = ({expr}); }} catch (e) {{ v = null; }} \
             if (v) resolve(v); else if (Date.now() - t0 > {PAGE_TIMEOUT_MS}) reject(new Error('timed out waiting for: ' + {js})); else setTimeout(tick, 20); }})(); }})",
            js = serde_json::to_string(expr).unwrap()
        );
        self.eval(&waiter)
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
