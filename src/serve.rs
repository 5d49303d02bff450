//! A small static file server for the built site (loopback by default).
//!
//! Requests are confined to the site directory: the path is percent-decoded, `..` and
//! absolute segments are refused, and the resolved file must stay inside the root after
//! following links.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

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
        "bin" => "application/octet-stream",
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

/// Serves `root` on `bind:port` until the process is stopped.
pub fn serve(root: &Path, bind: &str, port: u16, open: bool) -> Result<()> {
    let loopback = bind == "127.0.0.1" || bind == "::1" || bind == "localhost";
    if !loopback {
        eprintln!("warning: serving on {bind}: the site is reachable from other machines");
    }
    let server = tiny_http::Server::http((bind, port))
        .map_err(|e| anyhow::anyhow!("cannot listen on {bind}:{port}: {e}"))?;
    let addr = server
        .server_addr()
        .to_ip()
        .context("the server has no IP address")?;
    let url = format!("http://{addr}/");
    eprintln!("serving {} at {url} (Ctrl-C to stop)", root.display());
    if open {
        open_browser(&url);
    }
    for request in server.incoming_requests() {
        let response = respond(root, request.url());
        let _ = request.respond(response);
    }
    Ok(())
}

fn respond(root: &Path, url: &str) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).ok();
    match resolve(root, url).and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
        Some((path, body)) => {
            let mut r = tiny_http::Response::from_data(body);
            if let Some(h) = header("Content-Type", content_type(&path)) {
                r.add_header(h);
            }
            if let Some(h) = header("Cache-Control", "no-cache") {
                r.add_header(h);
            }
            r
        }
        None => {
            let body =
                std::fs::read(root.join("404.html")).unwrap_or_else(|_| b"not found".to_vec());
            let mut r = tiny_http::Response::from_data(body).with_status_code(404);
            if let Some(h) = header("Content-Type", "text/html; charset=utf-8") {
                r.add_header(h);
            }
            r
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
    if std::process::Command::new(cmd).arg(url).spawn().is_err() {
        eprintln!("open {url} in your browser");
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
}
