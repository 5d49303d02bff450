//! Templates: the built-in ones (embedded in the binary) overridden by a book's own
//! `templates/`, and rendering one page with them.

use crate::diagnostic::Diagnostic;
use crate::fingerprint::fingerprint;
use std::collections::BTreeMap;
use std::path::Path;

/// Built-in templates: (name, source).
pub const BUILTIN_TEMPLATES: [(&str, &str); 13] = [
    ("base.html", include_str!("../../templates/base.html")),
    ("macros.html", include_str!("../../templates/macros.html")),
    ("index.html", include_str!("../../templates/index.html")),
    (
        "connector.html",
        include_str!("../../templates/connector.html"),
    ),
    ("entry.html", include_str!("../../templates/entry.html")),
    ("errors.html", include_str!("../../templates/errors.html")),
    ("tags.html", include_str!("../../templates/tags.html")),
    ("404.html", include_str!("../../templates/404.html")),
    (
        "redirect.html",
        include_str!("../../templates/redirect.html"),
    ),
    ("search.html", include_str!("../../templates/search.html")),
    (
        "search_box.html",
        include_str!("../../templates/search_box.html"),
    ),
    ("atom.xml", include_str!("../../templates/atom.xml")),
    ("sitemap.xml", include_str!("../../templates/sitemap.xml")),
];

/// Loads the templates: built-ins first, then the book's `templates/*` over them.
/// Also returns a fingerprint of all template sources (for the rebuild cache).
pub fn load_templates(book_root: &Path) -> Result<(tera::Tera, u64), Vec<Diagnostic>> {
    let mut sources: BTreeMap<String, (String, String)> = BUILTIN_TEMPLATES
        .iter()
        .map(|(n, s)| {
            (
                n.to_string(),
                (format!("(built-in) templates/{n}"), s.to_string()),
            )
        })
        .collect();
    let dir = book_root.join("templates");
    let mut diags = Vec::new();
    if dir.is_dir() {
        match std::fs::read_dir(&dir) {
            Ok(items) => {
                let mut paths: Vec<_> = items
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.is_file())
                    .collect();
                paths.sort();
                for p in paths {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().to_string())
                        .unwrap_or_default();
                    match std::fs::read_to_string(&p) {
                        Ok(s) => {
                            sources.insert(name.clone(), (format!("templates/{name}"), s));
                        }
                        Err(e) => diags.push(Diagnostic::error(
                            format!("templates/{name}"),
                            0,
                            0,
                            format!("cannot read template: {e}"),
                        )),
                    }
                }
            }
            Err(e) => diags.push(Diagnostic::error(
                "templates",
                0,
                0,
                format!("cannot read the templates directory: {e}"),
            )),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut tera = tera::Tera::default();
    tera.autoescape_on(vec![".html", ".xml"]);
    // Tera's default also escapes `/`, which makes every URL attribute unreadable; `&<>"'`
    // is what HTML text and quoted attributes need.
    tera.set_escape_fn(crate::html::escape);
    crate::i18n::register_filters(&mut tera);
    let all: Vec<(&str, &str)> = sources
        .iter()
        .map(|(n, (_, s))| (n.as_str(), s.as_str()))
        .collect();
    tera.add_raw_templates(all).map_err(|e| {
        // Tera names the failing template in its message: point at that file.
        let text = e.to_string();
        let shown = sources
            .iter()
            .find(|(n, _)| text.contains(&format!("'{n}'")) || text.contains(&format!("\"{n}\"")))
            .map_or("templates", |(_, (shown, _))| shown.as_str());
        vec![template_diagnostic(shown, &e)]
    })?;
    Ok((tera, fingerprint(&sources)))
}

/// A Tera error as a diagnostic; Tera puts the position in the error chain as ` --> L:C`.
pub fn template_diagnostic(file: &str, e: &tera::Error) -> Diagnostic {
    let mut chain = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        chain.push_str(": ");
        chain.push_str(&s.to_string());
        src = s.source();
    }
    let (line, col) = chain
        .split(" --> ")
        .nth(1)
        .and_then(|rest| {
            let mut it = rest
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty());
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .unwrap_or((0, 0));
    let message = chain
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    // Tera names the page's template even when the failing expression is in one it extends.
    let parent = if message.contains("error happened in a parent template") {
        "; look in the templates it extends (base.html)"
    } else {
        ""
    };
    let hint = if message.contains("not found in context") {
        format!(
            "a variable the page does not have: check its name against the built-in templates{parent}"
        )
    } else {
        format!("fix the template syntax (Tera, like Jinja2){parent}")
    };
    Diagnostic::error(file, line, col, format!("template error: {message}")).with_hint(hint)
}

/// Renders `template` with `ctx`; a failure is a diagnostic at the template.
pub fn render(
    tera: &tera::Tera,
    template: &str,
    ctx: &tera::Context,
) -> Result<String, Diagnostic> {
    tera.render(template, ctx)
        .map_err(|e| template_diagnostic(&format!("templates/{template}"), &e))
}
