//! `kbook serve` end to end: the real binary on a loopback port, raw HTTP requests, the
//! server-sent event stream, edits on disk, and path traversal attempts.

use crate::common::copy_dir;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(60);

struct Served {
    child: Child,
    addr: String,
    _stderr: Receiver<String>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(book: &Path, dest: &Path) -> Served {
    serve_into(book, Some(dest))
}

/// `kbook serve` of `book` into `dest`, or where it writes by default.
fn serve_into(book: &Path, dest: Option<&Path>) -> Served {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kbook"));
    cmd.args(["serve", "--port", "0", "--book"]).arg(book);
    if let Some(dest) = dest {
        cmd.arg("--dest").arg(dest);
    }
    let mut child = cmd.stderr(Stdio::piped()).spawn().unwrap();
    let stderr = child.stderr.take();
    let (tx, rx) = channel();
    // Owned from here on, so the server is killed and reaped even if a wait below fails.
    let mut served = Served {
        child,
        addr: String::new(),
        _stderr: rx,
    };
    std::thread::spawn(move || {
        for line in BufReader::new(stderr.unwrap())
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + WAIT;
    loop {
        let line = served
            ._stderr
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the server did not start");
        if let Some(url) = line.split(" at http://").nth(1) {
            served.addr = url.split('/').next().unwrap().to_string();
            return served;
        }
    }
}

/// A raw GET; returns (status, body).
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// Reads the event stream until an event named `name` arrives; returns its data. On timeout
/// the failure shows the other events seen and what the server printed.
fn next_event(reader: &mut BufReader<TcpStream>, name: &str, server: &Served) -> String {
    let deadline = Instant::now() + WAIT;
    let mut current = String::new();
    let mut skipped: Vec<String> = Vec::new();
    // Kept across read timeouts: `read_line` leaves a partly received line in it.
    let mut line = String::new();
    loop {
        if Instant::now() >= deadline {
            let log: Vec<String> = server._stderr.try_iter().collect();
            panic!("no `{name}` event in time; other events: {skipped:?}; server said: {log:#?}");
        }
        match reader.read_line(&mut line) {
            Ok(0) => panic!("event stream closed"),
            Ok(_) => {}
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                continue;
            }
            Err(e) => panic!("{e}"),
        }
        let full = std::mem::take(&mut line);
        let full = full.trim_end();
        if let Some(ev) = full.strip_prefix("event: ") {
            current = ev.to_string();
        } else if let Some(data) = full.strip_prefix("data: ") {
            if current == name {
                return data.to_string();
            }
            skipped.push(format!("{current}: {data}"));
        }
    }
}

fn events(addr: &str) -> BufReader<TcpStream> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(s, "GET /__kbook/events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    BufReader::new(s)
}

fn fixture_copy() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    std::fs::create_dir_all(&book).unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/good"),
        &book,
    );
    let dest = dir.path().join("site");
    (dir, book, dest)
}

#[test]
fn edits_reload_pages_and_errors_show_without_stopping_the_server() {
    let (_dir, book, dest) = fixture_copy();
    let server = serve(&book, &dest);
    let (status, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert_eq!(status, 200);
    assert!(
        page.contains("/__kbook/livereload.js"),
        "live-reload client injected"
    );
    let (_, client) = get(&server.addr, "/__kbook/livereload.js");
    assert!(client.contains("EventSource"));

    let mut stream = events(&server.addr);
    next_event(&mut stream, "hello", &server);
    let entry = book.join("content/kafka/kafka-offset-commit.md");
    let text = std::fs::read_to_string(&entry).unwrap();
    std::fs::write(
        &entry,
        text.replace("Offsets go to Kafka", "Offsets travel to Kafka"),
    )
    .unwrap();
    next_event(&mut stream, "reload", &server);
    let (_, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert!(
        page.contains("Offsets travel to Kafka"),
        "the page shows the edit"
    );

    std::fs::write(&entry, text.replace("kind: concept", "kind: concpt")).unwrap();
    let data = next_event(&mut stream, "error", &server);
    let diags: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(diags[0]["path"], "content/kafka/kafka-offset-commit.md");
    assert_eq!(diags[0]["line"], 4);
    assert_eq!(diags[0]["message"], "unknown kind `concpt`");
    let (status, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert_eq!(status, 200, "the server keeps serving the last good site");
    assert!(page.contains("Offsets travel to Kafka"));

    // A page opened while the build is broken gets the error at once.
    let mut late = events(&server.addr);
    assert!(next_event(&mut late, "error", &server).contains("concpt"));

    std::fs::write(&entry, &text).unwrap();
    next_event(&mut stream, "reload", &server);

    // A new title reaches the listings (they are reused only while their inputs stay the same),
    // and the related entry's page, which links to this one by title.
    let before = get(&server.addr, "/tags.html").1;
    std::fs::write(
        &entry,
        text.replace(
            "Offsets are committed only on checkpoints",
            "Offsets wait for checkpoints",
        ),
    )
    .unwrap();
    next_event(&mut stream, "reload", &server);
    for page in [
        "/kafka/index.html",
        "/tags.html",
        "/index.html",
        "/kafka/kafka-ssl-handshake.html",
    ] {
        let (status, html) = get(&server.addr, page);
        assert_eq!(status, 200);
        assert!(
            html.contains("Offsets wait for checkpoints"),
            "{page} shows the new title"
        );
    }
    assert_ne!(get(&server.addr, "/tags.html").1, before);

    // book.toml saved the way many editors save (a new file renamed over it), twice: each
    // save is seen (a watch on the file itself ended with the first).
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    for title in ["Renamed KB", "Renamed Again KB"] {
        let tmp = book.join("book.toml.new");
        std::fs::write(&tmp, toml.replace("Fixture KB", title)).unwrap();
        std::fs::rename(&tmp, book.join("book.toml")).unwrap();
        next_event(&mut stream, "reload", &server);
        assert!(
            get(&server.addr, "/index.html").1.contains(title),
            "{title}"
        );
    }
    // Other files beside book.toml do not rebuild the site.
    std::fs::write(book.join("NOTES.txt"), "x").unwrap();
    std::fs::write(
        &entry,
        text.replace("Offsets go to Kafka", "Offsets fly to Kafka"),
    )
    .unwrap();
    let data = next_event(&mut stream, "reload", &server);
    assert!(
        get(&server.addr, "/kafka/kafka-offset-commit.html")
            .1
            .contains("Offsets fly to Kafka"),
        "{data}"
    );
}

#[test]
fn serving_is_confined_to_the_site() {
    let (_dir, book, dest) = fixture_copy();
    let server = serve(&book, &dest);
    assert_eq!(get(&server.addr, "/").0, 200);
    let (status, wasm) = {
        let entries: Vec<_> = std::fs::read_dir(dest.join("search"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        let name = entries
            .iter()
            .find(|n| n.ends_with(".wasm"))
            .unwrap()
            .clone();
        let mut s = TcpStream::connect(&server.addr).unwrap();
        write!(
            s,
            "GET /search/{name} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).unwrap();
        let head = String::from_utf8_lossy(&buf[..buf.len().min(300)]).to_string();
        (head.split(' ').nth(1).unwrap_or_default().to_string(), head)
    };
    assert_eq!(status, "200");
    assert!(
        wasm.to_ascii_lowercase()
            .contains("content-type: application/wasm"),
        "{wasm}"
    );
    // The 404 page at any depth finds its styles and links: they resolve from the root.
    for missing in ["/nope", "/kafka/nope.html", "/a/b/c/d"] {
        let (status, page) = get(&server.addr, missing);
        assert_eq!(status, 404, "{missing}");
        assert_eq!(page.matches("<base ").count(), 1, "{missing}: {page}");
        assert!(page.contains("<base href=\"/\">"), "{missing}: {page}");
        assert!(page.contains("href=\"static/kbook.css"), "{missing}");
    }
    assert_eq!(get(&server.addr, "/static/kbook.css").0, 200);
    for attack in [
        "/../book/book.toml",
        "/%2e%2e/book/book.toml",
        "/%2E%2E%2Fbook%2Fbook.toml",
        "//etc/passwd",
        "/..%5cbook.toml",
        "/search/../../book/book.toml",
    ] {
        let (status, body) = get(&server.addr, attack);
        assert_eq!(status, 404, "{attack} must not be served");
        assert!(!body.contains("[book]"), "{attack} leaked book.toml");
    }
}

/// A destination holding other files is refused at start, as by `kbook build`, and not served.
#[test]
fn a_destination_of_other_files_is_refused_not_served() {
    let (_dir, book, dest) = fixture_copy();
    std::fs::create_dir_all(&dest).unwrap();
    std::fs::write(dest.join("mine.txt"), "my own").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kbook"))
        .args(["serve", "--port", "0", "--book"])
        .arg(&book)
        .arg("--dest")
        .arg(&dest)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("holds files kbook did not write"), "{err}");
    assert!(!err.contains("serving"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dest.join("mine.txt")).unwrap(),
        "my own"
    );
    assert_eq!(std::fs::read_dir(&dest).unwrap().count(), 1);
}

/// By default serve writes its development site apart from the one `kbook build` wrote for
/// publishing, and a `templates/` folder made after it started is watched.
#[test]
fn serve_leaves_the_build_alone_and_watches_folders_made_later() {
    let (_dir, book, _) = fixture_copy();
    let built = Command::new(env!("CARGO_BIN_EXE_kbook"))
        .args(["build", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let manifest = book.join("book/search/manifest.json");
    let before = std::fs::read(&manifest).unwrap();
    assert!(!book.join("templates").exists());
    let server = serve_into(&book, None);
    assert!(book.join(".kbook/serve/index.html").is_file());
    assert_eq!(
        std::fs::read(&manifest).unwrap(),
        before,
        "the build is left as it was"
    );

    let mut stream = events(&server.addr);
    next_event(&mut stream, "hello", &server);
    let template =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/entry.html"))
            .unwrap();
    let marked = |mark: &str| template.replace("</article>", &format!("<p>{mark}</p></article>"));
    // Made whole beside the book and moved in, so the first rebuild already sees the file.
    let ready = _dir.path().join("templates-ready");
    std::fs::create_dir(&ready).unwrap();
    std::fs::write(ready.join("entry.html"), marked("FIRST-MARK")).unwrap();
    std::fs::rename(&ready, book.join("templates")).unwrap();
    next_event(&mut stream, "reload", &server);
    let (_, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert!(page.contains("FIRST-MARK"), "the new template is used");
    // And it is watched from then on.
    std::fs::write(book.join("templates/entry.html"), marked("SECOND-MARK")).unwrap();
    next_event(&mut stream, "reload", &server);
    let (_, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert!(
        page.contains("SECOND-MARK"),
        "an edit of the new template is seen"
    );
    // Removed, then made again: watched again.
    std::fs::remove_dir_all(book.join("templates")).unwrap();
    next_event(&mut stream, "reload", &server);
    std::fs::create_dir(&ready).unwrap();
    std::fs::write(ready.join("entry.html"), marked("THIRD-MARK")).unwrap();
    std::fs::rename(&ready, book.join("templates")).unwrap();
    next_event(&mut stream, "reload", &server);
    std::fs::write(book.join("templates/entry.html"), marked("FOURTH-MARK")).unwrap();
    next_event(&mut stream, "reload", &server);
    let (_, page) = get(&server.addr, "/kafka/kafka-offset-commit.html");
    assert!(
        page.contains("FOURTH-MARK"),
        "the folder made again is watched"
    );
}

/// The overlay of a failed rebuild counts errors and warnings apart, and closes.
#[test]
fn the_error_overlay_counts_errors_and_warnings_and_closes() {
    let (_dir, book, dest) = fixture_copy();
    let server = serve(&book, &dest);
    let c = crate::common::chromium();
    c.open(&format!(
        "http://{}/kafka/kafka-offset-commit.html",
        server.addr
    ));
    c.wait_for("document.readyState === 'complete'");
    let entry = book.join("content/kafka/kafka-offset-commit.md");
    let text = std::fs::read_to_string(&entry).unwrap();
    // One error (an unknown kind) and one warning (a level-1 heading in the body).
    std::fs::write(
        &entry,
        text.replace("kind: concept", "kind: concpt") + "\n# Again\n",
    )
    .unwrap();
    let heading = c.wait_for(
        "(() => { const h = document.querySelector('#kbook-build-errors h2'); return h && h.textContent; })()",
    );
    assert_eq!(heading, "Build failed: 1 error, 1 warning");
    c.eval("document.querySelector('#kbook-build-errors .kbook-overlay-close').click()");
    assert_eq!(
        c.eval("document.getElementById('kbook-build-errors') === null"),
        serde_json::json!(true)
    );
}

/// Outside a book (no book.toml, no content/) serve says so and stops, rather than wait.
#[test]
fn serve_outside_a_book_stops_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kbook"))
        .args(["serve", "--port", "0", "--book"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("has no book.toml and no content/"), "{err}");
    assert!(!dir.path().join(".kbook").exists(), "nothing written");
}

/// A `root/` folder replaced by a file of its name: the rebuild removes the folder the site had
/// and serves the file (the folder left empty used to fail every later rebuild).
#[test]
fn a_root_folder_replaced_by_a_file_is_served() {
    let (_dir, book, dest) = fixture_copy();
    std::fs::create_dir_all(book.join("root/docs")).unwrap();
    std::fs::write(book.join("root/docs/a.txt"), "in a folder").unwrap();
    let server = serve(&book, &dest);
    assert_eq!(get(&server.addr, "/docs/a.txt").1, "in a folder");
    let mut stream = events(&server.addr);
    next_event(&mut stream, "hello", &server);
    std::fs::remove_dir_all(book.join("root/docs")).unwrap();
    std::fs::write(book.join("root/docs"), "a file now").unwrap();
    next_event(&mut stream, "reload", &server);
    assert_eq!(get(&server.addr, "/docs").1, "a file now");
}
