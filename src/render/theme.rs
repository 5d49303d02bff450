//! The default theme's static files (embedded, overridable by a book's `static/`) and the
//! syntax-highlighting stylesheet generated from the GitHub themes for light and dark.

use crate::render::markdown::CLASS_PREFIX;
use arborium::theme::{Style, Theme, builtin};
use arborium_theme::{HIGHLIGHTS, tag_to_name};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;
use std::path::Path;

/// Built-in static files: (path under `static/`, bytes).
pub const BUILTIN_STATIC: [(&str, &[u8]); 5] = [
    ("kbook.css", include_bytes!("../../static/kbook.css")),
    ("theme.js", include_bytes!("../../static/theme.js")),
    ("favicon.svg", include_bytes!("../../static/favicon.svg")),
    ("search.css", include_bytes!("../../static/search.css")),
    ("redirect.js", include_bytes!("../../static/redirect.js")),
];

/// `highlight.css`: the light theme, and the dark one scoped to `[data-theme="dark"]` on
/// screens.
pub fn highlight_css() -> String {
    let mut css = String::from("/* Syntax highlighting (generated). */\n");
    // Code blocks sit on kbook.css's --code-bg (light #f5f7fa, dark #1c222c).
    css.push_str(&ensure_contrast(
        &theme_css(&builtin::github_light()),
        [0xf5, 0xf7, 0xfa],
    ));
    // On screen only: paper is white whatever the reader's theme (kbook.css prints light).
    css.push_str("@media screen {\n");
    css.push_str(&scope(
        &ensure_contrast(&theme_css(&builtin::github_dark()), [0x1c, 0x22, 0x2c]),
        "[data-theme=\"dark\"] ",
    ));
    css.push_str("}\n");
    css
}

/// One flat rule per highlight class (`.hl-keyword { color: #cf222e; }`) with the theme's
/// style for that category, or its parent category's when it has none (as the theme's own
/// stylesheet falls back).
fn theme_css(theme: &Theme) -> String {
    let styled = |i: usize| theme.style(i).filter(|s| !s.is_empty());
    let by_tag: HashMap<&str, &Style> = HIGHLIGHTS
        .iter()
        .enumerate()
        .filter(|(_, def)| !def.tag.is_empty())
        .filter_map(|(i, def)| styled(i).map(|s| (def.tag, s)))
        .collect();
    let mut done = HashSet::new();
    let mut css = String::new();
    for (i, def) in HIGHLIGHTS.iter().enumerate() {
        let Some(name) = tag_to_name(def.tag) else {
            continue;
        };
        let Some(style) = styled(i).or_else(|| by_tag.get(def.parent_tag).copied()) else {
            continue;
        };
        if !done.insert(def.tag) {
            continue;
        }
        let mut body = String::new();
        if let Some(fg) = &style.fg {
            let _ = write!(body, " color: {};", fg.to_hex());
        }
        for (on, declaration) in [
            (style.modifiers.bold, " font-weight: bold;"),
            (style.modifiers.italic, " font-style: italic;"),
            (style.modifiers.underline, " text-decoration: underline;"),
        ] {
            if on {
                body.push_str(declaration);
            }
        }
        if !body.is_empty() {
            let _ = writeln!(css, ".{CLASS_PREFIX}-{name} {{{body} }}");
        }
    }
    css
}

/// WCAG relative luminance of an sRGB colour.
fn luminance(c: [u8; 3]) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
}

fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Moves every text `color: #rrggbb` of `css` towards black (light background) or white (dark)
/// until it reaches 4.5:1 on `background` (WCAG AA): the bundled themes have a few
/// low-contrast colours (comments, class names) that accessibility checkers rightly flag.
fn ensure_contrast(css: &str, background: [u8; 3]) -> String {
    let target: [u8; 3] = if luminance(background) > 0.5 {
        [0, 0, 0]
    } else {
        [255, 255, 255]
    };
    let mut out = String::with_capacity(css.len());
    let mut rest = css;
    while let Some(i) = rest.find("color: #") {
        let start = i + "color: #".len();
        let is_text = !rest[..i].ends_with('-');
        let hex = rest.get(start..start + 6).unwrap_or("");
        let parsed: Option<[u8; 3]> =
            (hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit())).then(|| {
                let byte = |k: usize| u8::from_str_radix(&hex[k..k + 2], 16).unwrap_or(0);
                [byte(0), byte(2), byte(4)]
            });
        out.push_str(&rest[..start]);
        match parsed {
            Some(mut c) if is_text => {
                let from = c;
                let mut t = 0.0;
                while contrast(c, background) < 4.6 && t < 1.0 {
                    t += 0.05;
                    for k in 0..3 {
                        c[k] = (f64::from(from[k])
                            + (f64::from(target[k]) - f64::from(from[k])) * t)
                            .round() as u8;
                    }
                }
                out.push_str(&format!("{:02x}{:02x}{:02x}", c[0], c[1], c[2]));
                rest = &rest[start + 6..];
            }
            _ => rest = &rest[start..],
        }
    }
    out.push_str(rest);
    out
}

/// Prefixes every selector of `css` (flat rules only, as [`theme_css`] writes them) with
/// `prefix`.
fn scope(css: &str, prefix: &str) -> String {
    let mut out = String::new();
    for block in css.split_inclusive('}') {
        match block.split_once('{') {
            Some((selectors, body)) => {
                let comment_end = selectors.rfind("*/").map_or(0, |i| i + 2);
                let (comment, sel) = selectors.split_at(comment_end);
                out.push_str(comment);
                // The line break before a rule stays, so each rule keeps its own line.
                out.push_str(&sel[..sel.len() - sel.trim_start().len()]);
                let scoped: Vec<String> = sel
                    .split(',')
                    .map(|s| format!("{prefix}{}", s.trim()))
                    .collect();
                out.push_str(&scoped.join(", "));
                out.push_str(" {");
                out.push_str(body);
            }
            None => out.push_str(block),
        }
    }
    out
}

/// The static files of a build: built-ins, generated highlight.css, then the book's
/// `static/` directory over them. Paths are relative to `static/`.
pub fn static_files(book_root: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut files: std::collections::BTreeMap<String, Vec<u8>> = BUILTIN_STATIC
        .iter()
        .map(|(p, b)| (p.to_string(), b.to_vec()))
        .collect();
    static HIGHLIGHT_CSS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    files.insert(
        "highlight.css".into(),
        HIGHLIGHT_CSS
            .get_or_init(highlight_css)
            .clone()
            .into_bytes(),
    );
    let dir = book_root.join("static");
    if dir.is_dir() {
        for item in walkdir::WalkDir::new(&dir)
            .follow_links(false)
            .sort_by_file_name()
        {
            let item = item.map_err(std::io::Error::other)?;
            if item.file_type().is_file() {
                let rel = item.path().strip_prefix(&dir).unwrap_or(item.path());
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                let bytes = std::fs::read(item.path()).map_err(|e| {
                    std::io::Error::new(e.kind(), format!("{}: {e}", item.path().display()))
                })?;
                files.insert(rel, bytes);
            }
        }
    }
    Ok(files.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_rules_are_scoped() {
        let s = scope(
            "/* c */\n.hl-a, .hl-b {\n color: red;\n}\n.hl-c { x: y; }",
            "[d] ",
        );
        assert!(s.contains("[d] .hl-a, [d] .hl-b {"), "{s}");
        assert!(s.contains("[d] .hl-c {"), "{s}");
        let css = highlight_css();
        assert!(css.contains(".hl-"));
        let fixed = ensure_contrast(
            ".a {\n color: #969896;\n background-color: #ffffff;\n}",
            [0xf5, 0xf7, 0xfa],
        );
        assert!(fixed.contains("background-color: #ffffff"), "{fixed}");
        assert!(!fixed.contains("#969896"), "{fixed}");
        assert!(css.contains("[data-theme=\"dark\"] .hl-"));
    }
}
