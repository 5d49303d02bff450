//! Entry files: UTF-8 and NUL checks, BOM/CRLF handling, front-matter split, YAML/TOML
//! parsing, validation and locating every diagnostic. Any bytes must give an entry or
//! diagnostics, never a panic (and bounded time: libFuzzer's -timeout catches hangs).
#![no_main]

use kbook::content::{frontmatter, parse_entry};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let kinds: Vec<String> = kbook::config::DEFAULT_KINDS
        .iter()
        .map(|k| k.to_string())
        .collect();
    let root = Path::new("/book");
    let (entry, diags) = parse_entry(
        data,
        Path::new("/book/content/kafka/entry.md"),
        Path::new("/book/content"),
        root,
        &kinds,
    );
    for d in &diags {
        let _ = d.to_string();
    }
    if let Some(e) = entry {
        // The locator is queried for positions by later stages.
        for key in frontmatter::KEYS {
            let _ = e.locator.key(key);
            let _ = e.locator.value(key, "a");
            let _ = e.locator.item(key, 1);
            let _ = e.locator.item_key(key, 0, "product");
            let _ = e.locator.nested_key(key, "text", 1);
        }
        for err in &e.fm.errors {
            let _ = e.locator.value("errors", &err.text);
        }
        // `kbook check --fix` rewrites front-matter of valid entries.
        if let Ok(text) = std::str::from_utf8(data) {
            let _ = kbook::content::fix::fix_file(text, &e.fm);
        }
    }
});
