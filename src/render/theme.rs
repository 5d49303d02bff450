//! The default theme's static files (embedded, overridable by a book's `static/`) and the
//! syntax-highlighting stylesheet generated from syntect themes for light and dark.

use crate::render::markdown::CLASS_STYLE;
use std::path::Path;
use syntect::highlighting::ThemeSet;
use syntect::html::css_for_theme_with_class_style;

/// Built-in static files: (path under `static/`, bytes).
pub const BUILTIN_STATIC: [(&str, &[u8]); 4] = [
    ("kbook.css", include_bytes!("../../static/kbook.css")),
    ("theme.js", include_bytes!("../../static/theme.js")),
    ("favicon.svg", include_bytes!("../../static/favicon.svg")),
    ("search.css", include_bytes!("../../static/search.css")),
];

/// `highlight.css`: the light theme, and the dark one scoped to `[data-theme="dark"]`.
pub fn highlight_css() -> String {
    let themes = ThemeSet::load_defaults();
    let mut css = String::from("/* Syntax highlighting (generated). */\n");
    if let Some(light) = themes.themes.get("InspiredGitHub")
        && let Ok(c) = css_for_theme_with_class_style(light, CLASS_STYLE)
    {
        css.push_str(&c);
    }
    if let Some(dark) = themes.themes.get("base16-ocean.dark")
        && let Ok(c) = css_for_theme_with_class_style(dark, CLASS_STYLE)
    {
        css.push_str(&scope(&c, "[data-theme=\"dark\"] "));
    }
    css
}

/// Prefixes every selector of `css` (flat rules only, as syntect writes them) with `prefix`.
fn scope(css: &str, prefix: &str) -> String {
    let mut out = String::new();
    for block in css.split_inclusive('}') {
        match block.split_once('{') {
            Some((selectors, body)) => {
                let comment_end = selectors.rfind("*/").map_or(0, |i| i + 2);
                let (comment, sel) = selectors.split_at(comment_end);
                out.push_str(comment);
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
                files.insert(rel, std::fs::read(item.path())?);
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
        assert!(css.contains("[data-theme=\"dark\"] .hl-"));
    }
}
