//! Pages via Tera: the context of every page kind, one function per kind. Entry pages render
//! on all cores; with `kbook serve`'s memo (see [`super::memo`]) only pages whose inputs
//! changed are rendered again.

use super::context::{
    EntryLink, EntryView, SiteContext, VersionProduct, VersionRow, kind_heading, version_products,
};
use super::memo::{EntryPage, ListingPages, PageMemo, RenderedEntryPage, listing_inputs};
use super::templates::render;
use crate::config::Config;
use crate::content::Entry;
use crate::diagnostic::Diagnostic;
use crate::fingerprint::fingerprint;
use crate::output::{OutputFile, SiteWriter};
use crate::render::markdown::RenderedBody;
use crate::urls::{self, path_to_root, relative_url, slugify};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A connector with at most this many entries is listed whole in an entry page's sidebar.
const SIDEBAR_FULL_LIST: usize = 80;
/// Otherwise the sidebar shows this many entries around the current one.
const SIDEBAR_WINDOW: usize = 40;

/// What every page kind needs: the templates, the site, the entries and their indexes.
/// Navigation is built once per build and shared by reference, so rendering stays linear
/// in the number of pages.
struct Book<'a> {
    tera: &'a tera::Tera,
    config: &'a Config,
    site: &'a SiteContext,
    strings: &'a crate::i18n::Strings,
    entries: &'a [Arc<Entry>],
    /// Entry indexes of each connector, in book order.
    by_connector: BTreeMap<&'a str, Vec<usize>>,
    kinds: Vec<String>,
}

impl<'a> Book<'a> {
    fn new(
        tera: &'a tera::Tera,
        config: &'a Config,
        site: &'a SiteContext,
        entries: &'a [Arc<Entry>],
    ) -> Self {
        let mut by_connector: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            by_connector
                .entry(e.fm.connector.as_str())
                .or_default()
                .push(i);
        }
        Book {
            tera,
            config,
            site,
            strings: &site.strings,
            entries,
            by_connector,
            kinds: config.kinds(),
        }
    }

    /// The context every page starts from.
    fn context(&self, page: &str, title: &str, connector: &str) -> tera::Context {
        let mut ctx = tera::Context::new();
        ctx.insert("site", self.site);
        ctx.insert("t", &self.strings.all);
        ctx.insert("page_url", page);
        ctx.insert("path_to_root", &path_to_root(page));
        ctx.insert("page_title", title);
        ctx.insert("current_connector", connector);
        ctx
    }

    fn link(&self, e: &Entry) -> EntryLink {
        EntryLink::of(e, self.strings, self.config)
    }

    /// Entries with an `updated` date, newest first.
    fn recent(&self) -> Vec<&'a Entry> {
        let mut recent: Vec<&Entry> = self
            .entries
            .iter()
            .map(|e| &**e)
            .filter(|e| e.fm.updated.is_some())
            .collect();
        recent.sort_by(|a, b| {
            b.fm.updated
                .cmp(&a.fm.updated)
                .then_with(|| a.id.cmp(&b.id))
        });
        recent
    }
}

/// Where rendered pages go.
pub struct PageSink<'a> {
    /// The previous build's pages, reused when their inputs are unchanged; keeps this
    /// build's when it keeps pages.
    pub memo: &'a mut PageMemo,
    /// Writes entry pages as they render (a one-shot build); `None`: every page is returned.
    pub writer: Option<&'a SiteWriter>,
}

/// Renders every page. `bodies[i]` is the rendered body of `entries[i]`. Returns the pages
/// not written to `sink.writer`.
pub fn render_all(
    tera: &tera::Tera,
    config: &Config,
    site: &SiteContext,
    entries: &[Arc<Entry>],
    bodies: &[Arc<RenderedBody>],
    global_fp: u64,
    sink: PageSink<'_>,
) -> Result<Vec<OutputFile>, Vec<Diagnostic>> {
    let PageSink { memo, writer } = sink;
    let book = Book::new(tera, config, site, entries);
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let rendered = entry_pages(&book, bodies, memo, global_fp, writer);
    memo.entry_pages(rendered, entries, bodies, &mut out, &mut diags);

    // An edit to an entry's body (the usual edit) changes no listing: reuse them all without
    // building their contexts (the error index and connector pages list the whole book).
    // The search page's version picker lists the releases the book names.
    let products = version_products(entries);
    let key = memo.listing_key(|| listing_inputs(global_fp, &book.kinds, entries, &products));
    if diags.is_empty()
        && let Some(listings) = memo.unchanged_listings(key)
    {
        out.extend(listings);
        return Ok(out);
    }
    let mut pages = memo.listing_pages(tera, global_fp);
    let recent = book.recent();
    home(&book, &recent, &mut pages);
    connector_pages(&book, &mut pages);
    error_index(&book, &mut pages);
    tags_page(&book, &mut pages);
    search_page(&book, &products, &mut pages);
    not_found_page(&book, &mut pages);
    redirects(&book, &mut pages);
    feed(&book, &recent, &mut pages);
    sitemap(&book, &mut pages);
    let (listings, mut listing_diags) = memo.finish_listings(pages, key, diags.is_empty());
    out.extend(listings);
    diags.append(&mut listing_diags);
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Entry pages, on all cores; a page the memo holds for the same inputs is not rendered.
fn entry_pages(
    book: &Book<'_>,
    bodies: &[Arc<RenderedBody>],
    memo: &PageMemo,
    global_fp: u64,
    writer: Option<&SiteWriter>,
) -> Vec<RenderedEntryPage> {
    let entries = book.entries;
    let by_id: std::collections::HashMap<&str, &Entry> =
        entries.iter().map(|e| (e.id.as_str(), &**e)).collect();
    // Position of each entry among its connector's entries, computed once (a per-page search
    // would make the build quadratic).
    let mut position = vec![0usize; entries.len()];
    for list in book.by_connector.values() {
        for (p, &i) in list.iter().enumerate() {
            position[i] = p;
        }
    }
    // The sidebar lists a connector's entries; for large connectors only a window around the
    // current entry, so page size does not grow with the book.
    let connector_fp: std::collections::HashMap<&str, u64> = book
        .by_connector
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
    entries
        .par_iter()
        .zip(bodies.par_iter())
        .enumerate()
        .map(|(idx, (e, body))| {
            let related: Vec<EntryLink> =
                e.fm.related
                    .iter()
                    .filter_map(|r| by_id.get(r.as_str()))
                    .map(|r| book.link(r))
                    .collect();
            let related_titles: Vec<&str> = related.iter().map(|r| r.title.as_str()).collect();
            let fp = fingerprint(&(
                global_fp,
                connector_fp.get(e.fm.connector.as_str()),
                related_titles,
            ));
            if memo.has_entry_page(&e.url, fp, e, body) {
                return (idx, fp, EntryPage::Reused);
            }
            let siblings = &book.by_connector[e.fm.connector.as_str()];
            let page = match entry_page(book, e, body, related, siblings, position[idx]) {
                Err(d) => EntryPage::Failed(d),
                Ok(html) => match writer {
                    None => EntryPage::Html(html),
                    // Written as soon as it renders: the pages of a large book never are all
                    // in memory at once.
                    Some(w) => match w.write(&e.url, &html) {
                        Ok(()) => EntryPage::Written,
                        Err(err) => EntryPage::Failed(
                            Diagnostic::error(
                                &e.path,
                                0,
                                0,
                                format!("cannot write {}: {err}", e.url),
                            )
                            .with_hint("check that the destination's parent directory is writable"),
                        ),
                    },
                },
            };
            (idx, fp, page)
        })
        .collect()
}

/// The page of entry `e`, the `pos`-th of its connector's entries `siblings`.
fn entry_page(
    book: &Book<'_>,
    e: &Entry,
    body: &RenderedBody,
    related: Vec<EntryLink>,
    siblings: &[usize],
    pos: usize,
) -> Result<Vec<u8>, Diagnostic> {
    let entries = book.entries;
    let config = book.config;
    let strings = book.strings;
    let link = |i: usize| book.link(&entries[i]);
    let mut ctx = book.context(&e.url, &e.fm.title, &e.fm.connector);
    ctx.insert("prev", &pos.checked_sub(1).map(|p| link(siblings[p])));
    ctx.insert("next", &siblings.get(pos + 1).map(|&n| link(n)));
    let window = if siblings.len() <= SIDEBAR_FULL_LIST {
        siblings
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
        symptoms: &e.fm.symptoms,
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
        language: e.fm.language.as_deref(),
    };
    ctx.insert("entry", &view);
    // What a search engine or a chat preview shows: how readers describe the problem (in the
    // book's language), else the error the entry is about, else its first words.
    let description = summary(e).unwrap_or_else(|| {
        // Not the section heading it starts with ("Symptom").
        let text = body.text.trim_start();
        let text = body
            .toc
            .first()
            .and_then(|h| text.strip_prefix(h.text.as_str()))
            .unwrap_or(text);
        excerpt(text)
    });
    if !description.is_empty() {
        ctx.insert("page_description", &description);
    }
    render(book.tera, "entry.html", &ctx).map(String::into_bytes)
}

/// Characters of an entry's summary (meta description, feed).
const SUMMARY_CHARS: usize = 200;

/// An entry's summary: its first symptom line, else its first error text.
fn summary(e: &Entry) -> Option<String> {
    e.fm.symptoms
        .first()
        .map(String::as_str)
        .or_else(|| e.fm.errors.first().map(|err| err.text.as_str()))
        .map(excerpt)
}

/// `text` on one line, cut after [`SUMMARY_CHARS`] characters at a space where there is one.
fn excerpt(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= SUMMARY_CHARS {
        return line;
    }
    let cut: String = line.chars().take(SUMMARY_CHARS).collect();
    let kept = match cut.rfind(' ') {
        Some(i) if i > SUMMARY_CHARS / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{kept}…")
}

/// The home page: the ten most recently updated entries.
fn home(book: &Book<'_>, recent: &[&Entry], pages: &mut ListingPages<'_>) {
    let mut ctx = book.context(urls::HOME, &book.site.title, "");
    ctx.insert(
        "recent",
        &recent
            .iter()
            .take(10)
            .map(|e| book.link(e))
            .collect::<Vec<_>>(),
    );
    pages.page(urls::HOME.into(), "index.html", &ctx);
}

/// One listing page per connector, its entries grouped by kind in the configured order.
fn connector_pages(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    let entries = book.entries;
    for nav in &book.site.connectors {
        let Some(idx) = book.by_connector.get(nav.slug.as_str()) else {
            continue;
        };
        // (kind, entries, heading): custom templates written for pairs keep working.
        let groups: Vec<(String, Vec<EntryLink>, String)> = book
            .kinds
            .iter()
            .map(|k| {
                (
                    k.clone(),
                    idx.iter()
                        .filter(|&&i| &entries[i].fm.kind == k)
                        .map(|&i| book.link(&entries[i]))
                        .collect::<Vec<_>>(),
                    kind_heading(k, book.strings),
                )
            })
            .filter(|(_, v, _)| !v.is_empty())
            .collect();
        let page = nav.url.clone();
        let mut ctx = book.context(&page, &nav.name, &nav.slug);
        // Link previews and search results describe the connector, not the whole book.
        if !nav.description.is_empty() {
            ctx.insert("page_description", &nav.description);
        }
        ctx.insert("connector", nav);
        ctx.insert("groups", &groups);
        ctx.insert(
            "connector_entries",
            &idx.iter()
                .map(|&i| book.link(&entries[i]))
                .collect::<Vec<_>>(),
        );
        pages.page(page, "connector.html", &ctx);
    }
}

/// The error index: every error string, A–Z by its first letter.
fn error_index(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    let mut errors: Vec<(String, EntryLink)> = book
        .entries
        .iter()
        .flat_map(|e| {
            e.fm.errors
                .iter()
                .map(move |s| (s.text.clone(), book.link(e)))
        })
        .collect();
    // Keys computed once: a key per comparison allocated a million strings at 10,000 entries.
    errors.sort_by_cached_key(|(err, link)| (sort_key(err), link.id.clone()));
    let mut letters: Vec<(String, Vec<(String, EntryLink)>)> = Vec::new();
    // Errors that do not start with a Latin letter (digits, symbols, Han) are one group, last:
    // digits sort before `A` and Han after `z`, and two groups would share one anchor.
    let mut others = Vec::new();
    for (err, link) in errors {
        let Some(letter) = sort_key(&err)
            .chars()
            .next()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase().to_string())
        else {
            others.push((err, link));
            continue;
        };
        match letters.last_mut() {
            Some((l, items)) if *l == letter => items.push((err, link)),
            _ => letters.push((letter, vec![(err, link)])),
        }
    }
    if !others.is_empty() {
        letters.push((book.strings.get("error_index_other").to_string(), others));
    }
    let mut ctx = book.context(urls::ERROR_INDEX, book.strings.get("error_index_title"), "");
    ctx.insert("letters", &letters);
    pages.page(urls::ERROR_INDEX.into(), "errors.html", &ctx);
}

/// Entries by tag.
fn tags_page(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    let mut tags: BTreeMap<&str, Vec<EntryLink>> = BTreeMap::new();
    for e in book.entries {
        for t in &e.fm.tags {
            tags.entry(t.as_str()).or_default().push(book.link(e));
        }
    }
    let mut ctx = book.context(urls::TAGS, book.strings.get("tags_title"), "");
    ctx.insert("tags", &tags);
    pages.page(urls::TAGS.into(), "tags.html", &ctx);
}

/// The search page, with the version picker's products and releases.
fn search_page(book: &Book<'_>, products: &[VersionProduct], pages: &mut ListingPages<'_>) {
    let mut ctx = book.context(urls::SEARCH, book.strings.get("search_title"), "");
    ctx.insert("version_products", products);
    pages.page(urls::SEARCH.into(), "search.html", &ctx);
}

/// The page for missing paths.
fn not_found_page(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    let ctx = book.context(urls::NOT_FOUND, book.strings.get("not_found_title"), "");
    pages.page(urls::NOT_FOUND.into(), "404.html", &ctx);
}

/// A redirect page for every alias of every entry. Aliases with an `#anchor` share their
/// page: it sends each anchor to its entry (a small script reads the address's `#…`), and
/// everything else to the plain alias's entry, else to the first anchor's, with the address's
/// query and `#…`.
fn redirects(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    #[derive(Default)]
    struct Redirect<'e> {
        plain: Option<&'e Entry>,
        anchors: Vec<(&'e str, &'e Entry)>,
    }
    let mut by_page: BTreeMap<String, Redirect> = BTreeMap::new();
    for e in book.entries {
        // Aliases that are not paths inside the site failed the content check.
        for a in &e.fm.aliases {
            let Some(path) = urls::alias_page(a) else {
                continue;
            };
            let r = by_page.entry(path).or_default();
            match urls::alias_anchor(a) {
                Some(anchor) => r.anchors.push((anchor, e)),
                None => r.plain = Some(e),
            }
        }
    }
    for (path, r) in by_page {
        let Some(target) = r.plain.or_else(|| r.anchors.first().map(|(_, e)| *e)) else {
            continue;
        };
        let mut ctx = book.context(&path, &target.fm.title, "");
        ctx.insert("target", &relative_url(&path, &target.url));
        ctx.insert("target_url", &target.url);
        let anchors: Vec<serde_json::Value> = r
            .anchors
            .iter()
            .map(|(a, e)| serde_json::json!({"anchor": a, "url": relative_url(&path, &e.url)}))
            .collect();
        ctx.insert("anchors", &anchors);
        pages.page(path, "redirect.html", &ctx);
    }
}

/// The Atom feed: the 50 most recently updated entries.
fn feed(book: &Book<'_>, recent: &[&Entry], pages: &mut ListingPages<'_>) {
    let site = book.site;
    let mut ctx = book.context(urls::FEED, &site.title, "");
    ctx.insert("feed_id", &format!("urn:kbook:{}", slugify(&site.title)));
    /// An entry of the feed: its link and what it is about.
    #[derive(serde::Serialize)]
    struct FeedEntry {
        #[serde(flatten)]
        link: EntryLink,
        summary: Option<String>,
    }
    let entries: Vec<FeedEntry> = recent
        .iter()
        .take(50)
        .map(|e| FeedEntry {
            link: book.link(e),
            summary: summary(e),
        })
        .collect();
    ctx.insert("feed_entries", &entries);
    ctx.insert(
        "feed_updated",
        &recent
            .first()
            .and_then(|e| e.fm.updated.clone())
            .unwrap_or_else(|| "1970-01-01".into()),
    );
    pages.page(urls::FEED.into(), "atom.xml", &ctx);
}

/// The sitemap, when the site's URL is known.
fn sitemap(book: &Book<'_>, pages: &mut ListingPages<'_>) {
    let site = book.site;
    if site.site_url.is_none() {
        return;
    }
    // Not the search page: without a query it has no content of its own to find.
    let mut listed: Vec<String> = [urls::HOME, urls::ERROR_INDEX, urls::TAGS]
        .map(String::from)
        .to_vec();
    listed.extend(site.connectors.iter().map(|c| c.url.clone()));
    let mut ctx = book.context(urls::SITEMAP, &site.title, "");
    ctx.insert("pages", &listed);
    ctx.insert(
        "entries",
        &book
            .entries
            .iter()
            .map(|e| book.link(e))
            .collect::<Vec<_>>(),
    );
    pages.page(urls::SITEMAP.into(), "sitemap.xml", &ctx);
}

fn sort_key(s: &str) -> String {
    s.trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The OpenSearch description (`opensearch.xml`), which lets browsers add the book's search.
pub(crate) fn opensearch(title: &str, site_url: &str, strings: &crate::i18n::Strings) -> String {
    let t = crate::html::escape(title);
    let u = crate::html::escape(site_url);
    let d = crate::html::escape(&strings.fill("opensearch_description", &[("title", title)]));
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\n  <ShortName>{t}</ShortName>\n  <Description>{d}</Description>\n  <InputEncoding>UTF-8</InputEncoding>\n  <Url type=\"text/html\" template=\"{u}search.html?q={{searchTerms}}\"/>\n</OpenSearchDescription>\n"
    )
}
