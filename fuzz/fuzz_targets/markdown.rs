//! Markdown bodies: pulldown-cmark, heading ids, admonitions, tree-sitter highlighting, link
//! rewriting and checking, and ammonia sanitizing. The first byte picks the raw-HTML policy.
#![no_main]

use kbook::render::links::LinkTargets;
use kbook::render::markdown::{MarkdownRenderer, RawHtml};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

fn targets() -> &'static LinkTargets {
    static T: OnceLock<LinkTargets> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = LinkTargets::default();
        for (path, id, url) in [
            ("kafka/self.md", "self", "kafka/self.html"),
            ("kafka/other.md", "other", "kafka/other.html"),
            ("mysql/deep.md", "deep", "mysql/deep.html"),
        ] {
            t.by_path.insert(path.to_string(), id.to_string());
            let ids: HashSet<String> = ["cause", "solution"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            t.by_id.insert(id.to_string(), (url.to_string(), ids));
        }
        t
    })
}

/// The attributes of every tag in `html` (lowercased names, raw values). A small scanner,
/// enough for the renderer's output, which pulldown-cmark or html5ever serialized: text
/// `<` is always `&lt;`, values are quoted.
fn attributes(html: &str) -> Vec<(String, String, String)> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        if html[i..].starts_with("<!--") {
            i = html[i..].find("-->").map_or(b.len(), |e| i + e + 3);
            continue;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let tag = html[start..i].to_ascii_lowercase();
        if tag.is_empty() {
            continue;
        }
        out.push((tag.clone(), String::new(), String::new()));
        loop {
            while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
                i += 1;
            }
            if i >= b.len() || b[i] == b'>' {
                break;
            }
            let n0 = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/')
            {
                i += 1;
            }
            let name = html[n0..i].to_ascii_lowercase();
            let mut value = String::new();
            if i < b.len() && b[i] == b'=' {
                i += 1;
                if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                    let q = b[i];
                    let v0 = i + 1;
                    i = html[v0..].find(q as char).map_or(b.len(), |e| v0 + e);
                    value = html[v0..i.min(b.len())].to_string();
                    i += 1;
                } else {
                    let v0 = i;
                    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                        i += 1;
                    }
                    value = html[v0..i].to_string();
                }
            }
            out.push((tag.clone(), name, value));
        }
    }
    out
}

/// A URL value that would run script: entities `&#…;`/`&colon;` are left encoded by both
/// serializers only for `&`, so decoding `&amp;` and stripping what browsers strip suffices.
fn runs_script(value: &str) -> bool {
    let v: String = value
        .replace("&amp;", "&")
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    v.trim_start_matches(|c: char| c <= ' ')
        .to_ascii_lowercase()
        .starts_with("javascript:")
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let body = String::from_utf8_lossy(rest);
    let policy = if mode & 1 == 0 {
        RawHtml::Sanitize
    } else {
        RawHtml::Allow
    };
    let renderer = MarkdownRenderer::with_raw_html(policy);
    let _ = MarkdownRenderer::heading_ids(&body);
    let (out, diags) = renderer.render(
        &body,
        "kafka/self.md",
        "kafka/self.html",
        targets(),
        Path::new("content/kafka/self.md"),
        5,
    );
    for d in &diags {
        let _ = d.to_string();
    }
    if policy == RawHtml::Sanitize {
        for (tag, name, value) in attributes(&out.html) {
            assert!(
                tag != "script" && tag != "iframe",
                "<{tag}> survived sanitizing: {}",
                out.html
            );
            assert!(
                !name.starts_with("on"),
                "{tag} {name}= survived sanitizing: {}",
                out.html
            );
            assert!(
                !(matches!(name.as_str(), "href" | "src" | "action" | "formaction")
                    && runs_script(&value)),
                "{tag} {name}={value} survived sanitizing: {}",
                out.html
            );
        }
    }
    let _ = kbook::urls::slugify(&body);
});
