//! Includes resolved at import time: mdBook's `{{#include}}` and MkDocs' snippets.

use super::Ctx;
use crate::import::display;
use crate::import::source::SourceTree;
use std::path::Path;

/// mdBook: `{{#include file}}` (with `:anchor` or `:from:to` lines) and `{{#rustdoc_include}}`
/// replaced by the file's text, `{{#playground}}` by it in a Rust code block; `{{#title}}`
/// removed.
pub(super) fn mdbook_includes(
    body: &str,
    page: &Path,
    tree: &SourceTree,
    ctx: &mut Ctx<'_>,
) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(body.len());
    let mut origin = Vec::new();
    // Lines written so far, counted as they are written (recounting `out` for every line
    // would take time quadratic in the page's length).
    let mut written = 0;
    for (n, line) in body.split_inclusive('\n').enumerate() {
        let before = written;
        let from = out.len();
        let mut rest = line;
        while let Some(open) = rest.find("{{#") {
            let Some(close) = rest[open..].find("}}").map(|c| c + open) else {
                break;
            };
            out.push_str(&rest[..open]);
            let directive = rest[open + 3..close].trim();
            let (name, arg) = directive
                .split_once(char::is_whitespace)
                .unwrap_or((directive, ""));
            match name {
                "include" | "rustdoc_include" | "playground" => {
                    let found = include(arg.trim(), page, tree).map(|(text, rel)| {
                        ctx.out.included.push(rel);
                        text
                    });
                    match found {
                        // mdBook shows a playground's file as a Rust code block.
                        Ok(text) if name == "playground" => {
                            if !out.is_empty() && !out.ends_with('\n') {
                                out.push('\n');
                            }
                            out.push_str("```rust\n");
                            out.push_str(text.trim_end_matches('\n'));
                            out.push_str("\n```");
                            ctx.out.converted += 1;
                        }
                        Ok(text) => {
                            out.push_str(text.trim_end_matches('\n'));
                            ctx.out.converted += 1;
                        }
                        Err(why) => {
                            ctx.report(n, format!("{{{{#{name} {arg}}}}} kept as text: {why}"));
                            out.push_str(&rest[open..close + 2]);
                        }
                    }
                }
                "title" => {
                    ctx.report(
                        n,
                        "{{#title}} removed (the entry's title is its front-matter title)",
                    );
                }
                _ => {
                    ctx.report(
                        n,
                        format!("mdBook directive `{{{{#{name}}}}}` kept as text"),
                    );
                    out.push_str(&rest[open..close + 2]);
                }
            }
            rest = &rest[close + 2..];
        }
        out.push_str(rest);
        written += out[from..].matches('\n').count();
        origin.resize(written.max(before + 1), n);
    }
    (out, origin)
}

/// MkDocs (pymdownx.snippets): a `--8<-- "file"` line replaced by the file's text.
pub(super) fn mkdocs_snippets(
    body: &str,
    page: &Path,
    tree: &SourceTree,
    ctx: &mut Ctx<'_>,
) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(body.len());
    let mut origin = Vec::new();
    // Lines written so far (see `mdbook_includes`).
    let mut written = 0;
    for (n, line) in body.split_inclusive('\n').enumerate() {
        let from = out.len();
        let t = line.trim();
        let Some(arg) = t.strip_prefix("--8<--") else {
            out.push_str(line);
            written += line.matches('\n').count();
            origin.push(n);
            continue;
        };
        let arg = arg.trim().trim_matches(['"', '\'']);
        // Snippets resolve from the project root by default; try the page's directory too.
        let found = include(arg, &tree.root.join("x"), tree)
            .or_else(|_| include(arg, page, tree))
            .map(|(text, rel)| {
                ctx.out.included.push(rel);
                text
            });
        match found {
            Ok(text) => {
                out.push_str(text.trim_end_matches('\n'));
                out.push('\n');
                ctx.out.converted += 1;
            }
            Err(why) => {
                ctx.report(n, format!("snippet `{arg}` kept as text: {why}"));
                out.push_str(line);
            }
        }
        written += out[from..].matches('\n').count();
        origin.resize(written.max(origin.len() + 1), n);
    }
    (out, origin)
}

/// The text of an included file, relative to `page`'s directory, optionally cut to an
/// anchor (`file:name`) or a line range (`file:3:10`, `file:3:`, `file::10`, `file:3`). Only
/// files inside the source tree are read.
/// Also gives the file's path in the tree (for the report: an included file is shown).
fn include(arg: &str, page: &Path, tree: &SourceTree) -> Result<(String, String), String> {
    let mut parts = arg.splitn(3, ':');
    let file = parts.next().unwrap_or("").trim();
    let (a, b) = (parts.next(), parts.next());
    let dir = page.parent().unwrap_or(&tree.root);
    let path = dir.join(file);
    let canonical = path
        .canonicalize()
        .map_err(|_| format!("{} not found", display(&path, &tree.root)))?;
    let root = tree
        .root
        .canonicalize()
        .unwrap_or_else(|_| tree.root.clone());
    if !canonical.starts_with(&root) {
        return Err("the file is outside the source tree".into());
    }
    let text = std::fs::read_to_string(&canonical).map_err(|e| e.to_string())?;
    let lines: Vec<&str> = text.lines().collect();
    let num = |s: Option<&str>| s.filter(|s| !s.is_empty()).map(str::parse::<usize>);
    let selected: Vec<&str> = match (a, b) {
        (None, _) | (Some(""), None) => lines,
        (Some(name), None) if name.parse::<usize>().is_err() => {
            let start = lines
                .iter()
                .position(|l| anchor_marker(l, "ANCHOR:") == Some(name))
                .ok_or(format!("anchor `{name}` not found"))?;
            // After the start line: a line with both markers (`// ANCHOR: a ANCHOR_END: a`)
            // opens the anchor, and its end is looked for below.
            let end = lines[start + 1..]
                .iter()
                .position(|l| anchor_marker(l, "ANCHOR_END:") == Some(name))
                .map_or(lines.len(), |e| start + 1 + e);
            lines[start + 1..end].to_vec()
        }
        (from, to) => {
            let from = num(from)
                .transpose()
                .map_err(|e| e.to_string())?
                .unwrap_or(1)
                .max(1);
            let to = match to {
                None => Some(from),
                Some(t) => num(Some(t)).transpose().map_err(|e| e.to_string())?,
            };
            let to = to.unwrap_or(lines.len()).min(lines.len());
            lines.get(from - 1..to).unwrap_or_default().to_vec()
        }
    };
    // Other anchors' markers are not part of the text.
    let kept: Vec<&str> = selected
        .into_iter()
        .filter(|l| {
            anchor_marker(l, "ANCHOR:").is_none() && anchor_marker(l, "ANCHOR_END:").is_none()
        })
        .collect();
    let rel = canonical
        .strip_prefix(&root)
        .unwrap_or(&canonical)
        .to_string_lossy()
        .replace('\\', "/");
    Ok((kept.join("\n") + "\n", rel))
}

fn anchor_marker<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let i = line.find(marker)?;
    line[i + marker.len()..].split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_is_the_lines_between_its_markers() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("f.rs");
        std::fs::write(
            &file,
            "// ANCHOR: a\nlet x = 1;\n// ANCHOR_END: a\n// ANCHOR: b ANCHOR_END: b\nlet y = 2;\n",
        )
        .expect("write");
        let tree = SourceTree::new(dir.path());
        let page = dir.path().join("page.md");
        assert_eq!(
            include("f.rs:a", &page, &tree).map(|(t, _)| t).as_deref(),
            Ok("let x = 1;\n")
        );
        // Both markers on one line: the anchor runs to the end of the file, no panic.
        assert_eq!(
            include("f.rs:b", &page, &tree).map(|(t, _)| t).as_deref(),
            Ok("let y = 2;\n")
        );
        assert!(include("f.rs:c", &page, &tree).is_err());
    }
}
