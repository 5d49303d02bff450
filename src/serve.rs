//! `kbook serve`: builds, serves the site on loopback, watches the book and rebuilds on
//! change, and reloads open pages over server-sent events. A failed rebuild never stops the
//! server: the terminal and an overlay in the page show the same diagnostics until the next
//! good build.
//!
//! Requests are confined to the site directory: the path is percent-decoded, `..` and
//! absolute segments are refused, and the resolved file must stay inside the root after
//! following links.

use crate::diagnostic::{Diagnostic, MessageFormat, print_diagnostics};
use crate::http::{HttpServer, Reply, Request, Response};
use crate::site::{BuildReport, IncrementalSite};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Path of the server-sent events stream.
pub const EVENTS_PATH: &str = "/__kbook/events";
/// Path of the live-reload client script (injected into HTML responses only when serving).
pub const CLIENT_PATH: &str = "/__kbook/livereload.js";
const CLIENT_JS: &str = include_str!("../static/livereload.js");

/// Content type by file extension (including `application/wasm`, which streaming
/// compilation requires).
pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "xml" => "application/xml; charset=utf-8",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Maps a request URL path to a file under `root`; `None` for anything that would escape it.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path)?;
    let mut out = root.to_path_buf();
    for seg in decoded.split('/') {
        match seg {
            "" | "." => {}
            ".." => return None,
            s if s.contains('\\') || s.contains('\0') || s.contains(':') => return None,
            s => out.push(s),
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    let canonical = out.canonicalize().ok()?;
    let root = root.canonicalize().ok()?;
    canonical.starts_with(&root).then_some(canonical)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The state open pages follow: a build generation and, when the last build failed, its
/// diagnostics.
#[derive(Debug, Default)]
pub struct LiveState {
    inner: Mutex<(u64, Option<Vec<Diagnostic>>)>,
    changed: Condvar,
}

impl LiveState {
    /// Records a build result and wakes every waiting event stream.
    pub fn publish(&self, errors: Option<Vec<Diagnostic>>) {
        if let Ok(mut g) = self.inner.lock() {
            g.0 += 1;
            g.1 = errors;
        }
        self.changed.notify_all();
    }

    fn snapshot(&self) -> (u64, Option<Vec<Diagnostic>>) {
        self.inner.lock().map(|g| g.clone()).unwrap_or_default()
    }

    /// Waits until the generation differs from `seen` or `timeout` passes.
    fn wait(&self, seen: u64, timeout: Duration) -> (u64, Option<Vec<Diagnostic>>) {
        let Ok(guard) = self.inner.lock() else {
            return (seen, None);
        };
        match self
            .changed
            .wait_timeout_while(guard, timeout, |g| g.0 == seen)
        {
            Ok((g, _)) => g.clone(),
            Err(_) => (seen, None),
        }
    }
}

/// One server-sent event: `reload` after a good build, `error` (JSON diagnostics) after a
/// failed one.
pub fn event_payload(generation: u64, errors: &Option<Vec<Diagnostic>>) -> String {
    match errors {
        None => format!("event: reload\ndata: {generation}\n\n"),
        Some(d) => format!(
            "event: error\ndata: {}\n\n",
            serde_json::to_string(d).unwrap_or_else(|_| "[]".into())
        ),
    }
}

/// An endless body for the event stream: the current state first (so a page opened during
/// a broken build shows the overlay), then one event per build, and a comment every 15 s so
/// a closed connection is noticed and its thread ends.
struct EventStream {
    state: Arc<LiveState>,
    seen: Option<u64>,
    pending: Vec<u8>,
}

impl Read for EventStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            let (generation, errors) = match self.seen {
                None => self.state.snapshot(),
                Some(seen) => self.state.wait(seen, Duration::from_secs(15)),
            };
            self.pending = if self.seen == Some(generation) {
                b": ping\n\n".to_vec()
            } else if self.seen.is_none() {
                // First message: an `error` event when broken, else a `hello` that reloads nothing.
                match &errors {
                    Some(_) => event_payload(generation, &errors).into_bytes(),
                    None => format!("event: hello\ndata: {generation}\n\n").into_bytes(),
                }
            } else {
                event_payload(generation, &errors).into_bytes()
            };
            self.seen = Some(generation);
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// What `kbook serve` needs.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Book root.
    pub book: PathBuf,
    /// Output directory.
    pub dest: PathBuf,
    /// Bind address.
    pub bind: String,
    /// Port (0: any free one).
    pub port: u16,
    /// Open a browser.
    pub open: bool,
    /// Diagnostics format.
    pub format: MessageFormat,
    /// Print every warning, not the first ones and counts per kind.
    pub verbose: bool,
    /// Warnings fail a rebuild.
    pub deny_warnings: bool,
}

/// A running server: its address and the live state (tests drive it directly).
pub struct Server {
    /// `http://127.0.0.1:PORT/`
    pub url: String,
    http: HttpServer,
    state: Arc<LiveState>,
    root: PathBuf,
}

/// Why `kbook serve` cannot serve or watch.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be listened on (taken, or not this machine's).
    #[error("cannot listen on {addr}{hint}")]
    Listen {
        addr: String,
        /// What to do, when the reason says.
        hint: &'static str,
        #[source]
        source: std::io::Error,
    },
    /// The socket has no local address.
    #[error("the server has no local address")]
    NoAddress(#[source] std::io::Error),
    /// The destination holds what a build must not replace (see `kbook build`).
    #[error("{0}")]
    Destination(String),
    /// The book's files cannot be watched.
    #[error("{what}")]
    Watch {
        what: String,
        #[source]
        source: notify::Error,
    },
}

impl Server {
    /// Binds the socket.
    pub fn bind(root: &Path, bind: &str, port: u16) -> Result<Server, ServeError> {
        let http = HttpServer::bind((bind, port)).map_err(|source| ServeError::Listen {
            addr: format!("{bind}:{port}"),
            hint: if source.kind() == std::io::ErrorKind::AddrInUse {
                " (the port is taken, perhaps by another kbook serve: pick another with --port, or --port 0 for a free one)"
            } else {
                ""
            },
            source,
        })?;
        let addr = http.local_addr().map_err(ServeError::NoAddress)?;
        // Said once listening, of the address the name gave.
        if !addr.ip().is_loopback() {
            eprintln!("warning: serving on {bind}: the site is reachable from other machines");
        }
        Ok(Server {
            url: format!("http://{addr}/"),
            http,
            state: Arc::new(LiveState::default()),
            root: root.to_path_buf(),
        })
    }

    /// The live state, for publishing build results.
    pub fn state(&self) -> Arc<LiveState> {
        Arc::clone(&self.state)
    }

    /// Answers requests until the process ends; each connection gets its own thread so event
    /// streams do not block page loads.
    pub fn run(&self) {
        let root = self.root.clone();
        let state = Arc::clone(&self.state);
        self.http
            .run(move |request, stream| handle(request, stream, &root, &state));
    }
}

fn handle(
    request: &Request,
    stream: &mut std::net::TcpStream,
    root: &Path,
    state: &Arc<LiveState>,
) -> Reply {
    let path = request.url.split(['?', '#']).next().unwrap_or_default();
    if path == EVENTS_PATH {
        // Written straight to the socket as events happen; the stream ends the connection.
        let mut events = EventStream {
            state: Arc::clone(state),
            seen: None,
            pending: Vec::new(),
        };
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
        if stream
            .write_all(head.as_bytes())
            .and_then(|_| stream.flush())
            .is_err()
        {
            return Reply::Taken;
        }
        let mut buf = [0u8; 4096];
        while let Ok(n) = events.read(&mut buf) {
            if stream
                .write_all(&buf[..n])
                .and_then(|_| stream.flush())
                .is_err()
            {
                break;
            }
        }
        return Reply::Taken;
    }
    if path == CLIENT_PATH {
        return Reply::Send(Response::new(
            200,
            "text/javascript; charset=utf-8",
            CLIENT_JS.as_bytes().to_vec(),
        ));
    }
    Reply::Send(static_response(root, &request.url))
}

/// The response for a site file, with the live-reload client injected into HTML.
fn static_response(root: &Path, url: &str) -> Response {
    let (status, path, body) =
        match resolve(root, url).and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
            Some((p, b)) => (200, p, b),
            None => (
                404,
                root.join("404.html"),
                std::fs::read(root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec()),
            ),
        };
    let ctype = content_type(&path);
    let body = if ctype.starts_with("text/html") {
        inject_client(if status == 404 { at_root(body) } else { body })
    } else {
        body
    };
    Response::new(status, ctype, body).with_header("Cache-Control", "no-cache")
}

/// The 404 page with `<base href="/">`: it is served at the missing path, at any depth, and
/// its links are relative to the site's root, which this server serves at `/` (a `site-url`
/// with a path gave the page a `<base>` for that path, which is replaced).
fn at_root(body: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(body) {
        Ok(html) => crate::html::with_base(&html, Some("/")).into_bytes(),
        Err(_) => Vec::new(),
    }
}

fn inject_client(body: Vec<u8>) -> Vec<u8> {
    let tag = format!("<script src=\"{CLIENT_PATH}\" defer></script>");
    match String::from_utf8(body) {
        Ok(mut html) => {
            match html.rfind("</body>") {
                Some(i) => html.insert_str(i, &tag),
                None => html.push_str(&tag),
            }
            html.into_bytes()
        }
        Err(e) => e.into_bytes(),
    }
}

/// How long to wait after a change for more: an editor's save (write, rename, chmod) takes
/// a few milliseconds; a `git checkout` of many files arrives as a burst too.
const DEBOUNCE_MS: u64 = 40;

/// Builds, serves and watches until the process is stopped.
pub fn serve(opts: &ServeOptions) -> Result<(), ServeError> {
    // Nothing to serve, and saving cannot change that: stop rather than serve that folder.
    if let Ok(config) = crate::config::Config::load(&opts.book)
        && let Some(d) = crate::site::refuse_destination(&opts.dest, &config)
    {
        return Err(ServeError::Destination(d.to_string()));
    }
    // Bound first: a port in use stops serve before it writes anything.
    let server = Server::bind(&opts.dest, &opts.bind, opts.port)?;
    let mut site = IncrementalSite::new(&opts.book, &opts.dest, opts.deny_warnings);
    let first = site.rebuild();
    report(&first, opts.format, opts.verbose);
    let state = server.state();
    let mut shown = warning_texts(&first);
    state.publish(first.err());
    eprintln!(
        "serving {} at {} (Ctrl-C to stop)",
        opts.dest.display(),
        server.url
    );
    if opts.open {
        open_browser(&server.url);
    }
    // Canonical, so that events (reported below the watched paths) can be told apart from
    // the book's other top-level files.
    let book = opts
        .book
        .canonicalize()
        .unwrap_or_else(|_| opts.book.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(ev) = res {
            let _ = tx.send(ev);
        }
    })
    .map_err(|source| ServeError::Watch {
        what: "cannot watch the book for changes".to_string(),
        source,
    })?;
    let mut armed = std::collections::HashSet::new();
    arm(&mut watcher, &book, &mut armed)?;
    let dest = opts
        .dest
        .canonicalize()
        .unwrap_or_else(|_| opts.dest.clone());
    std::thread::spawn(move || server.run());
    let format = opts.format;
    let verbose = opts.verbose;
    while let Ok(first_event) = rx.recv() {
        if !relevant(&first_event, &dest, &book, &armed) {
            continue;
        }
        // Debounce: editors write a file in several steps.
        let deadline = Instant::now() + Duration::from_millis(DEBOUNCE_MS);
        while let Ok(_more) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {}
        // A folder created since (`templates/` after `kbook init`), or a `src` book.toml now
        // names, is watched from now on; one that cannot be is said, and serving goes on.
        if let Err(e) = arm(&mut watcher, &book, &mut armed) {
            eprintln!("warning: {e}: edits there start no rebuild");
        }
        let started = Instant::now();
        let result = site.rebuild();
        let elapsed = started.elapsed();
        // Reload first, then print: pages should not wait for the terminal.
        state.publish(result.as_ref().err().cloned());
        match (&result, format) {
            (Ok(r), MessageFormat::Human) => {
                // Warnings already on screen are not repeated on every save.
                let now = warning_texts(&result);
                let new: Vec<Diagnostic> = r
                    .warnings
                    .iter()
                    .filter(|w| !shown.contains(&w.to_string()))
                    .cloned()
                    .collect();
                print_diagnostics(&new, format, verbose);
                let kept = r.warnings.len() - new.len();
                let still = if kept > 0 {
                    format!(" ({kept} earlier warning(s) still apply)")
                } else {
                    String::new()
                };
                eprintln!("rebuilt in {} ms{still}", elapsed.as_millis());
                shown = now;
            }
            _ => {
                report(&result, format, verbose);
                shown = warning_texts(&result);
            }
        }
    }
    Ok(())
}

/// The warnings of a build as printed, for not repeating them on the next rebuild.
fn warning_texts(
    result: &std::result::Result<BuildReport, Vec<Diagnostic>>,
) -> std::collections::HashSet<String> {
    match result {
        Ok(r) => r.warnings.iter().map(ToString::to_string).collect(),
        Err(_) => std::collections::HashSet::new(),
    }
}

/// Watches the paths of [`watch_paths`] that exist and are not watched yet (`armed`).
fn arm(
    watcher: &mut notify::RecommendedWatcher,
    book: &Path,
    armed: &mut std::collections::HashSet<PathBuf>,
) -> Result<(), ServeError> {
    // A watched folder that was removed is watched again when it is made again.
    armed.retain(|p| p.exists());
    for (path, mode) in watch_paths(book) {
        if armed.contains(&path) || !path.exists() {
            continue;
        }
        notify::Watcher::watch(watcher, &path, mode).map_err(|source| ServeError::Watch {
            what: format!("cannot watch {}", path.display()),
            source,
        })?;
        armed.insert(path);
    }
    Ok(())
}

fn relevant(
    ev: &notify::Event,
    dest: &Path,
    book: &Path,
    armed: &std::collections::HashSet<PathBuf>,
) -> bool {
    // The folders serve watches, by name, even before they exist.
    let watched: Vec<PathBuf> = watch_paths(book)
        .into_iter()
        .map(|(p, _)| p)
        .chain(armed.iter().cloned())
        .collect();
    !matches!(ev.kind, notify::EventKind::Access(_))
        && ev.paths.iter().any(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            // Of the book's own folder only book.toml and the watched folders count (the
            // folder is watched so that a book.toml an editor replaces stays watched, and
            // so that `templates/` made after serve started is seen).
            let other_top_level =
                p.parent() == Some(book) && name != "book.toml" && !watched.iter().any(|w| w == p);
            // Output, editor swap and backup files never trigger a rebuild.
            !p.starts_with(dest)
                && !other_top_level
                && !name.starts_with(".#")
                && !name.ends_with('~')
                && !name.ends_with(".swp")
                && !name.ends_with(".swx")
                && !name.contains(".kbook-")
        })
}

/// What `serve` watches: the content, templates, static and root directories recursively, and the
/// book's folder itself for `book.toml` (not the file: an editor that saves by writing a new
/// file and renaming it over `book.toml` would end a watch on the file).
pub fn watch_paths(book: &Path) -> Vec<(PathBuf, notify::RecursiveMode)> {
    let src = crate::config::Config::load(book)
        .map(|c| c.src_dir())
        .unwrap_or_else(|_| book.join("content"));
    vec![
        (src, notify::RecursiveMode::Recursive),
        (book.join("templates"), notify::RecursiveMode::Recursive),
        (book.join("static"), notify::RecursiveMode::Recursive),
        (
            book.join(crate::site::root_files::ROOT_DIR),
            notify::RecursiveMode::Recursive,
        ),
        (book.to_path_buf(), notify::RecursiveMode::NonRecursive),
    ]
}

fn report(
    result: &std::result::Result<BuildReport, Vec<Diagnostic>>,
    format: MessageFormat,
    verbose: bool,
) {
    match result {
        Ok(r) => print_diagnostics(&r.warnings, format, verbose),
        Err(d) => {
            print_diagnostics(d, format, verbose);
            if format == MessageFormat::Human {
                eprintln!(
                    "build failed: the server keeps running; fix the problems and save again"
                );
            }
        }
    }
}

fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    // The opener's own complaints (xdg-open lists every browser it did not find) would bury
    // the address: one line says what to do instead.
    let spawned = std::process::Command::new(cmd)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let url = url.to_string();
    match spawned {
        Ok(mut child) => {
            std::thread::spawn(move || {
                if !child.wait().is_ok_and(|s| s.success()) {
                    eprintln!("no browser could be opened here: open {url} in your browser");
                }
            });
        }
        Err(_) => eprintln!(
            "no browser could be opened here ({cmd} is missing): open {url} in your browser"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_traversal() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "x").unwrap();
        assert!(resolve(dir.path(), "/").is_some());
        assert!(resolve(dir.path(), "/index.html?x=1").is_some());
        assert!(resolve(dir.path(), "/../Cargo.toml").is_none());
        assert!(resolve(dir.path(), "/%2e%2e/Cargo.toml").is_none());
        assert!(resolve(dir.path(), "/%2E%2E%2fCargo.toml").is_none());
        assert!(resolve(dir.path(), "/C:/x").is_none());
        assert!(resolve(dir.path(), "/missing.html").is_none());
    }

    #[test]
    fn the_404_page_resolves_from_the_root() {
        let at = |html: &str| String::from_utf8(at_root(html.as_bytes().to_vec())).unwrap();
        assert_eq!(
            at("<html><head><meta charset=\"utf-8\"><link href=\"static/a.css\"></head></html>"),
            "<html><head><base href=\"/\"><meta charset=\"utf-8\"><link href=\"static/a.css\"></head></html>"
        );
        // A site-url's path is replaced: this server serves the site at `/`.
        assert_eq!(
            at("<head><base href=\"/docs/\"><link href=\"static/a.css\"></head>"),
            "<head><base href=\"/\"><link href=\"static/a.css\"></head>"
        );
    }

    #[test]
    fn injects_client_before_body_end() {
        let out =
            String::from_utf8(inject_client(b"<html><body>x</body></html>".to_vec())).unwrap();
        assert_eq!(
            out,
            format!("<html><body>x<script src=\"{CLIENT_PATH}\" defer></script></body></html>")
        );
    }

    #[test]
    fn events_carry_reloads_and_errors() {
        assert_eq!(event_payload(3, &None), "event: reload\ndata: 3\n\n");
        let d = vec![Diagnostic::error("content/a.md", 2, 3, "bad")];
        let e = event_payload(4, &Some(d));
        assert!(e.starts_with("event: error\ndata: [{\"level\":\"error\",\"path\":\"content/a.md\",\"line\":2,\"column\":3"), "{e}");
    }
}
