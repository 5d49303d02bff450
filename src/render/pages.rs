//! Pages via Tera: the built-in templates (embedded in the binary) overridden by a book's own
//! `templates/`, and the context of every page kind. Navigation is built once per build and
//! shared by reference, so rendering stays linear in the number of pages.

use crate::config::Config;
use crate::content::Entry;
use crate::diagnostic::Diagnostic;
use crate::fingerprint::fingerprint;
use crate::output::OutputFile;
use crate::render::markdown::{RenderedBody, TocItem};
use crate::urls::{self, path_to_root, relative_url, slugify};
use rayon::prelude::*;
use serde::Serialize;
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
    Diagnostic::error(file, line, col, format!("template error: {message}"))
        .with_hint("fix the template syntax (Tera, like Jinja2)")
}

/// Site-wide values every page sees.
#[derive(Debug, Serialize)]
pub struct SiteContext {
    /// `[book] title`
    pub title: String,
    /// `[book] description`
    pub description: String,
    /// `[book] authors`
    pub authors: Vec<String>,
    /// `[book] language`
    pub language: String,
    /// Repository link.
    pub repo_url: Option<String>,
    /// `light`, `dark` or `auto`.
    pub default_theme: String,
    /// Absolute site URL (with a trailing slash) when configured.
    pub site_url: Option<String>,
    /// Connectors in display order.
    pub connectors: Vec<ConnectorNav>,
    /// Number of entries.
    pub entry_count: usize,
    /// JSON describing the search assets (for the page's search script).
    pub search_meta: String,
    /// Hash of the theme assets, for cache-busting query strings.
    pub asset_version: String,
    /// `[output.html] content-security-policy`: pages carry a strict CSP meta tag.
    pub content_security_policy: bool,
    /// JSON of the texts the page scripts need from the page (empty: the scripts' English).
    pub strings_meta: String,
    /// The chrome's texts in the book's language (templates see them as `t`).
    #[serde(skip)]
    pub strings: crate::i18n::Strings,
}

/// A connector in navigation.
#[derive(Debug, Clone, Serialize)]
pub struct ConnectorNav {
    /// Slug.
    pub slug: String,
    /// Display name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Listing page, relative to the site root.
    pub url: String,
    /// Entries of this connector.
    pub count: usize,
}

/// An entry as it appears in lists.
#[derive(Debug, Clone, Serialize)]
pub struct EntryLink {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Page, relative to the site root.
    pub url: String,
    /// Connector slug.
    pub connector: String,
    /// Kind.
    pub kind: String,
    /// The kind's name in the book's language (the kind itself unless translated).
    pub kind_label: String,
    /// Last update.
    pub updated: Option<String>,
}

impl EntryLink {
    fn of(e: &Entry, strings: &crate::i18n::Strings) -> Self {
        EntryLink {
            id: e.id.clone(),
            title: e.fm.title.clone(),
            url: e.url.clone(),
            connector: e.fm.connector.clone(),
            kind: e.fm.kind.clone(),
            kind_label: strings.kind(&e.fm.kind),
            updated: e.fm.updated.clone(),
        }
    }
}

/// A kind as a heading: its translated name, or the kind capitalised (as Tera's `capitalize`).
fn kind_heading(kind: &str, strings: &crate::i18n::Strings) -> String {
    let label = strings.kind(kind);
    if label != kind {
        return label;
    }
    let mut chars = kind.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + &chars.as_str().to_lowercase()
    })
}

#[derive(Serialize)]
struct VersionRow {
    product: String,
    affected: Option<String>,
    fixed: Option<String>,
    note: Option<String>,
}

/// A product with the releases the book names for it, for the search page's version picker.
#[derive(Debug, Clone, Serialize, Hash)]
pub struct VersionProduct {
    /// Product slug.
    pub product: String,
    /// Versions named in `affected` ranges and `fixed`, oldest first.
    pub versions: Vec<String>,
}

/// Every product named in the book's `versions` statements, A–Z, with the releases named for
/// it (bounds of affected ranges and fix versions; `4.x` wildcards name no single release).
pub fn version_products(entries: &[std::sync::Arc<Entry>]) -> Vec<VersionProduct> {
    use kbook_search::version::Version;
    let mut by_product: BTreeMap<&str, Vec<Version>> = BTreeMap::new();
    for e in entries {
        for v in &e.fm.versions {
            let list = by_product.entry(v.product.as_str()).or_default();
            if let Some((_, range)) = &v.affected {
                list.extend(
                    range
                        .clauses
                        .iter()
                        .filter(|c| c.op != kbook_search::version::Op::Prefix)
                        .map(|c| c.version.clone()),
                );
            }
            if let Some((_, fixed)) = &v.fixed {
                list.push(fixed.clone());
            }
        }
    }
    by_product
        .into_iter()
        .map(|(product, mut list)| {
            list.sort_by(|a, b| a.cmp_numeric(b).then_with(|| a.suffix.cmp(&b.suffix)));
            let mut versions: Vec<String> = list.iter().map(ToString::to_string).collect();
            versions.dedup();
            VersionProduct {
                product: product.to_string(),
                versions,
            }
        })
        .collect()
}

#[derive(Serialize)]
struct EntryView<'a> {
    id: &'a str,
    title: &'a str,
    connector: &'a str,
    connector_name: String,
    kind: &'a str,
    kind_label: String,
    /// The error texts alone: a book's own template may print each item as `{{ err }}`.
    errors: Vec<&'a str>,
    /// Each error as `{text, source}`; `source` is null when not given.
    error_items: &'a [crate::content::frontmatter::ErrorString],
    versions: Vec<VersionRow>,
    /// The parsed statements as JSON, for the page's "applies to your version" line.
    versions_json: String,
    tags: &'a [String],
    related: Vec<EntryLink>,
    updated: Option<&'a str>,
    html: &'a str,
    toc: &'a [TocItem],
    edit_url: Option<String>,
    source_path: &'a str,
}

/// A connector with at most this many entries is listed whole in an entry page's sidebar.
const SIDEBAR_FULL_LIST: usize = 80;
/// Otherwise the sidebar shows this many entries around the current one.
const SIDEBAR_WINDOW: usize = 40;

/// An entry page: entry index, input fingerprint, and the page (`None`: reuse the memo).
type RenderedEntryPage = (usize, u64, Option<Result<Vec<u8>, Diagnostic>>);

/// Entry pages of the previous build with the fingerprint of everything they were made from,
/// so a rebuild renders only pages whose inputs changed.
#[derive(Debug, Default)]
pub struct PageMemo {
    pages: std::collections::HashMap<String, MemoPage>,
    /// The other pages (listings, error index, tags, feed), by the fingerprint of their
    /// template context: rendering the error index of a large book costs more than hashing
    /// its context.
    others: std::collections::HashMap<String, (u64, std::sync::Arc<Vec<u8>>)>,
    /// Fingerprint of everything the listing pages are made from (see [`listing_inputs`]).
    listings: Option<u64>,
    keep: bool,
}

/// An entry page of the previous build. The entry and body it was made from are held (not
/// copied): a rebuild reuses the same shared values for unchanged files, so comparing
/// pointers tells an unchanged entry without hashing its text, and holding them keeps a
/// freed address from being mistaken for the old value.
#[derive(Debug)]
struct MemoPage {
    /// Fingerprint of the other inputs: site, neighbours, related titles.
    fp: u64,
    entry: std::sync::Arc<Entry>,
    body: std::sync::Arc<RenderedBody>,
    html: std::sync::Arc<Vec<u8>>,
}

impl PageMemo {
    /// A memo that keeps pages for the next rebuild.
    pub fn keeping() -> Self {
        PageMemo {
            keep: true,
            ..PageMemo::default()
        }
    }
}

/// Renders every page. `bodies[i]` is the rendered body of `entries[i]`.
pub fn render_all(
    tera: &tera::Tera,
    config: &Config,
    site: &SiteContext,
    entries: &[std::sync::Arc<Entry>],
    bodies: &[std::sync::Arc<RenderedBody>],
    memo: &mut PageMemo,
    global_fp: u64,
) -> Result<Vec<OutputFile>, Vec<Diagnostic>> {
    let by_id: std::collections::HashMap<&str, &Entry> =
        entries.iter().map(|e| (e.id.as_str(), &**e)).collect();
    let mut by_connector: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        by_connector
            .entry(e.fm.connector.as_str())
            .or_default()
            .push(i);
    }
    let kinds = config.kinds();
    let strings = &site.strings;
    let base = |page: &str, title: &str, connector: &str| {
        let mut ctx = tera::Context::new();
        ctx.insert("site", site);
        ctx.insert("t", &strings.all);
        ctx.insert("page_url", page);
        ctx.insert("path_to_root", &path_to_root(page));
        ctx.insert("page_title", title);
        ctx.insert("current_connector", connector);
        ctx
    };

    // Position of each entry among its connector's entries, computed once (a per-page search
    // would make the build quadratic).
    let mut position = vec![0usize; entries.len()];
    for list in by_connector.values() {
        for (p, &i) in list.iter().enumerate() {
            position[i] = p;
        }
    }
    // The sidebar lists a connector's entries; for large connectors only a window around the
    // current entry, so page size does not grow with the book.
    let connector_fp: std::collections::HashMap<&str, u64> = by_connector
        .iter()
        .map(|(c, list)| {
            let items: Vec<(&str, &str, &str)> = list
                .iter()
                .map(|&i| {
                    (
                        entries[i].id.as_str(),
                        entries[i].fm.title.as_str(),
                        entries[i].fm.kind.as_str(),
                    )
                })
                .collect();
            (*c, fingerprint(&items))
        })
        .collect();
    let entry_pages: Vec<RenderedEntryPage> = entries
        .par_iter()
        .zip(bodies.par_iter())
        .enumerate()
        .map(|(idx, (e, body))| {
            let related: Vec<EntryLink> =
                e.fm.related
                    .iter()
                    .filter_map(|r| by_id.get(r.as_str()))
                    .map(|r| EntryLink::of(r, strings))
                    .collect();
            let related_titles: Vec<&str> = related.iter().map(|r| r.title.as_str()).collect();
            let fp = fingerprint(&(
                global_fp,
                connector_fp.get(e.fm.connector.as_str()),
                related_titles,
            ));
            if memo.pages.get(&e.url).is_some_and(|m| {
                m.fp == fp
                    && std::sync::Arc::ptr_eq(&m.entry, e)
                    && std::sync::Arc::ptr_eq(&m.body, body)
            }) {
                return (idx, fp, None);
            }
            let siblings = &by_connector[e.fm.connector.as_str()];
            let pos = position[idx];
            let link = |i: usize| EntryLink::of(&entries[i], strings);
            let mut ctx = base(&e.url, &e.fm.title, &e.fm.connector);
            ctx.insert("prev", &pos.checked_sub(1).map(|p| link(siblings[p])));
            ctx.insert("next", &siblings.get(pos + 1).map(|&n| link(n)));
            let window = if siblings.len() <= SIDEBAR_FULL_LIST {
                &siblings[..]
            } else {
                let start = pos
                    .saturating_sub(SIDEBAR_WINDOW / 2)
                    .min(siblings.len() - SIDEBAR_WINDOW);
                &siblings[start..start + SIDEBAR_WINDOW]
            };
            ctx.insert(
                "connector_entries",
                &window.iter().map(|&i| link(i)).collect::<Vec<_>>(),
            );
            ctx.insert(
                "connector_entries_truncated",
                &(window.len() < siblings.len()),
            );
            let view = EntryView {
                id: &e.id,
                title: &e.fm.title,
                connector: &e.fm.connector,
                connector_name: config.connector_name(&e.fm.connector),
                kind: &e.fm.kind,
                kind_label: strings.kind(&e.fm.kind),
                errors: e.fm.errors.iter().map(|err| err.text.as_str()).collect(),
                error_items: &e.fm.errors,
                versions: e
                    .fm
                    .versions
                    .iter()
                    .map(|v| VersionRow {
                        product: v.product.clone(),
                        affected: v.affected.as_ref().map(|a| a.0.clone()),
                        fixed: v.fixed.as_ref().map(|f| f.0.clone()),
                        note: v.note.clone(),
                    })
                    .collect(),
                versions_json: if e.fm.versions.is_empty() {
                    String::new()
                } else {
                    let specs: Vec<_> = e.fm.versions.iter().map(|v| v.spec()).collect();
                    serde_json::to_string(&specs).unwrap_or_default()
                },
                tags: &e.fm.tags,
                related,
                updated: e.fm.updated.as_deref(),
                html: &body.html,
                toc: &body.toc,
                edit_url: config.output.html.edit_url_template.as_ref().map(|t| {
                    let src = config.book.src.to_string_lossy().replace('\\', "/");
                    t.replace(
                        "{path}",
                        &format!("{}/{}", src.trim_end_matches('/'), e.rel_path),
                    )
                }),
                source_path: &e.rel_path,
            };
            ctx.insert("entry", &view);
            (
                idx,
                fp,
                Some(render(tera, "entry.html", &ctx).map(String::into_bytes)),
            )
        })
        .collect();

    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut kept = std::collections::HashMap::new();
    for (idx, fp, rendered) in entry_pages {
        let url = &entries[idx].url;
        let html = match rendered {
            Some(Ok(html)) => std::sync::Arc::new(html),
            Some(Err(d)) => {
                diags.push(d);
                continue;
            }
            None => memo.pages.remove(url).map(|m| m.html).unwrap_or_default(),
        };
        if memo.keep {
            kept.insert(
                url.clone(),
                MemoPage {
                    fp,
                    entry: entries[idx].clone(),
                    body: bodies[idx].clone(),
                    html: html.clone(),
                },
            );
        }
        out.push((url.clone(), html));
    }
    memo.pages = kept;

    // An edit to an entry's body (the usual edit) changes no listing: reuse them all without
    // building their contexts (the error index and connector pages list the whole book).
    // The search page's version picker lists the releases the book names.
    let products = version_products(entries);
    let listings = memo
        .keep
        .then(|| listing_inputs(global_fp, &kinds, entries, &products));
    if listings.is_some() && listings == memo.listings && diags.is_empty() {
        out.extend(
            memo.others
                .iter()
                .map(|(path, (_, html))| (path.clone(), html.clone())),
        );
        return Ok(out);
    }
    // Set again only after every listing rendered.
    memo.listings = None;

    let keep = memo.keep;
    let mut previous = std::mem::take(&mut memo.others);
    let mut others = std::collections::HashMap::new();
    let mut push = |path: String, template: &str, ctx: &tera::Context| {
        let fp = keep.then(|| context_fingerprint(global_fp, template, ctx));
        let html = match (fp, previous.remove(&path)) {
            (Some(fp), Some((old, html))) if old == fp => html,
            _ => match render(tera, template, ctx) {
                Ok(html) => std::sync::Arc::new(html.into_bytes()),
                Err(d) => {
                    diags.push(d);
                    return;
                }
            },
        };
        if let Some(fp) = fp {
            others.insert(path.clone(), (fp, html.clone()));
        }
        out.push((path, html));
    };

    // Home.
    let mut recent: Vec<&Entry> = entries
        .iter()
        .map(|e| &**e)
        .filter(|e| e.fm.updated.is_some())
        .collect();
    recent.sort_by(|a, b| {
        b.fm.updated
            .cmp(&a.fm.updated)
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut ctx = base("index.html", &site.title, "");
    ctx.insert(
        "recent",
        &recent
            .iter()
            .take(10)
            .map(|e| EntryLink::of(e, strings))
            .collect::<Vec<_>>(),
    );
    push("index.html".into(), "index.html", &ctx);

    // Connector listings, grouped by kind in the configured kind order.
    for nav in &site.connectors {
        let Some(idx) = by_connector.get(nav.slug.as_str()) else {
            continue;
        };
        // (kind, entries, heading): custom templates written for pairs keep working.
        let groups: Vec<(String, Vec<EntryLink>, String)> = kinds
            .iter()
            .map(|k| {
                (
                    k.clone(),
                    idx.iter()
                        .filter(|&&i| &entries[i].fm.kind == k)
                        .map(|&i| EntryLink::of(&entries[i], strings))
                        .collect::<Vec<_>>(),
                    kind_heading(k, strings),
                )
            })
            .filter(|(_, v, _)| !v.is_empty())
            .collect();
        let page = nav.url.clone();
        let mut ctx = base(&page, &nav.name, &nav.slug);
        ctx.insert("connector", nav);
        ctx.insert("groups", &groups);
        ctx.insert(
            "connector_entries",
            &idx.iter()
                .map(|&i| EntryLink::of(&entries[i], strings))
                .collect::<Vec<_>>(),
        );
        push(page, "connector.html", &ctx);
    }

    // Error index, A–Z by the first letter of each error string.
    let mut errors: Vec<(String, EntryLink)> = entries
        .iter()
        .flat_map(|e| {
            e.fm.errors
                .iter()
                .map(move |s| (s.text.clone(), EntryLink::of(e, strings)))
        })
        .collect();
    // Keys computed once: a key per comparison allocated a million strings at 10,000 entries.
    errors.sort_by_cached_key(|(err, link)| (sort_key(err), link.id.clone()));
    let mut letters: Vec<(String, Vec<(String, EntryLink)>)> = Vec::new();
    for (err, link) in errors {
        let letter = sort_key(&err)
            .chars()
            .next()
            .filter(char::is_ascii_alphabetic)
            .map_or("#".to_string(), |c| c.to_ascii_uppercase().to_string());
        match letters.last_mut() {
            Some((l, items)) if *l == letter => items.push((err, link)),
            _ => letters.push((letter, vec![(err, link)])),
        }
    }
    let mut ctx = base("errors.html", strings.get("error_index_title"), "");
    ctx.insert("letters", &letters);
    push("errors.html".into(), "errors.html", &ctx);

    // Tags.
    let mut tags: BTreeMap<&str, Vec<EntryLink>> = BTreeMap::new();
    for e in entries {
        for t in &e.fm.tags {
            tags.entry(t.as_str())
                .or_default()
                .push(EntryLink::of(e, strings));
        }
    }
    let mut ctx = base("tags.html", strings.get("tags_title"), "");
    ctx.insert("tags", &tags);
    push("tags.html".into(), "tags.html", &ctx);

    let mut ctx = base("search.html", strings.get("search_title"), "");
    ctx.insert("version_products", &products);
    push("search.html".into(), "search.html", &ctx);
    let ctx = base("404.html", strings.get("not_found_title"), "");
    push("404.html".into(), "404.html", &ctx);

    // Redirects for aliases.
    for e in entries {
        // Aliases that are not paths inside the site failed the content check.
        for path in e.fm.aliases.iter().filter_map(|a| urls::alias_page(a)) {
            let mut ctx = base(&path, &e.fm.title, "");
            ctx.insert("target", &relative_url(&path, &e.url));
            push(path, "redirect.html", &ctx);
        }
    }

    // Feed and sitemap.
    let mut feed: Vec<&Entry> = recent.clone();
    feed.truncate(50);
    let mut ctx = base("atom.xml", &site.title, "");
    ctx.insert("feed_id", &format!("urn:kbook:{}", slugify(&site.title)));
    ctx.insert(
        "feed_entries",
        &feed
            .iter()
            .map(|e| EntryLink::of(e, strings))
            .collect::<Vec<_>>(),
    );
    ctx.insert(
        "feed_updated",
        &recent
            .first()
            .and_then(|e| e.fm.updated.clone())
            .unwrap_or_else(|| "1970-01-01".into()),
    );
    push("atom.xml".into(), "atom.xml", &ctx);
    if site.site_url.is_some() {
        let mut pages: Vec<String> = vec![
            "index.html".into(),
            "errors.html".into(),
            "tags.html".into(),
            "search.html".into(),
        ];
        pages.extend(site.connectors.iter().map(|c| c.url.clone()));
        let mut ctx = base("sitemap.xml", &site.title, "");
        ctx.insert("pages", &pages);
        ctx.insert(
            "entries",
            &entries
                .iter()
                .map(|e| EntryLink::of(e, strings))
                .collect::<Vec<_>>(),
        );
        push("sitemap.xml".into(), "sitemap.xml", &ctx);
    }

    memo.others = others;
    if diags.is_empty() {
        memo.listings = listings;
        Ok(out)
    } else {
        Err(diags)
    }
}

/// A fingerprint of what the listing pages (home, connectors, error index, tags, redirects,
/// feed, sitemap, search page) are made from: the site, the kinds, the products and releases
/// the book names, and each entry's link fields, errors, tags and aliases. Bodies are not
/// among them.
fn listing_inputs(
    global_fp: u64,
    kinds: &[String],
    entries: &[std::sync::Arc<Entry>],
    products: &[VersionProduct],
) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = kbook_search::ContentHasher::default();
    (global_fp, kinds, products).hash(&mut h);
    for e in entries {
        let fm = &e.fm;
        (
            &e.id,
            &fm.title,
            &e.url,
            &fm.connector,
            &fm.kind,
            &fm.updated,
        )
            .hash(&mut h);
        (&fm.errors, &fm.tags, &fm.aliases).hash(&mut h);
    }
    h.finish()
}

/// A fingerprint of a listing page's template and context. The context's `Debug` text is
/// streamed into the hasher: serialising a copy of it to JSON (the error index holds every
/// error string of the book) took longer than the rest of an edit's page work.
fn context_fingerprint(global_fp: u64, template: &str, ctx: &tera::Context) -> u64 {
    use std::hash::{Hash, Hasher};
    struct HashFmt(kbook_search::ContentHasher);
    impl std::fmt::Write for HashFmt {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let mut h = HashFmt(kbook_search::ContentHasher::default());
    (global_fp, template).hash(&mut h.0);
    let _ = std::fmt::Write::write_fmt(&mut h, format_args!("{ctx:?}"));
    h.0.finish()
}

fn sort_key(s: &str) -> String {
    s.trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

fn render(tera: &tera::Tera, template: &str, ctx: &tera::Context) -> Result<String, Diagnostic> {
    tera.render(template, ctx)
        .map_err(|e| template_diagnostic(&format!("templates/{template}"), &e))
}
