//! The page memo of `kbook serve`: pages of the previous build with fingerprints of what they
//! were made from, so a rebuild renders only the pages whose inputs changed.

use super::templates::render;
use crate::content::Entry;
use crate::diagnostic::Diagnostic;
use crate::output::OutputFile;
use crate::render::markdown::RenderedBody;
use std::collections::HashMap;
use std::sync::Arc;

/// An entry page: entry index, input fingerprint, and what became of the page.
pub(super) type RenderedEntryPage = (usize, u64, EntryPage);

/// What became of one entry page.
pub(super) enum EntryPage {
    /// The memo's page is still good.
    Reused,
    /// Rendered, to be written with the rest.
    Html(Vec<u8>),
    /// Rendered and already written into the new site.
    Written,
    /// Rendering or writing failed.
    Failed(Diagnostic),
}

/// Pages of the previous build with the fingerprint of everything they were made from, so a
/// rebuild renders only pages whose inputs changed. A one-shot build uses one that keeps
/// nothing.
#[derive(Debug, Default)]
pub struct PageMemo {
    pages: HashMap<String, MemoPage>,
    /// The other pages (listings, error index, tags, feed), by the fingerprint of their
    /// template context: rendering the error index of a large book costs more than hashing
    /// its context.
    others: HashMap<String, (u64, Arc<Vec<u8>>)>,
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
    entry: Arc<Entry>,
    body: Arc<RenderedBody>,
    html: Arc<Vec<u8>>,
}

impl PageMemo {
    /// A memo that keeps pages for the next rebuild.
    pub fn keeping() -> Self {
        PageMemo {
            keep: true,
            ..PageMemo::default()
        }
    }

    /// Whether the page at `url` of the previous build was made from this `entry`, `body`
    /// and other inputs `fp`.
    pub(super) fn has_entry_page(
        &self,
        url: &str,
        fp: u64,
        entry: &Arc<Entry>,
        body: &Arc<RenderedBody>,
    ) -> bool {
        self.pages.get(url).is_some_and(|m| {
            m.fp == fp && Arc::ptr_eq(&m.entry, entry) && Arc::ptr_eq(&m.body, body)
        })
    }

    /// Collects this build's entry pages: `rendered` holds, per entry index, the fingerprint
    /// of its other inputs and the page (`None`: the memo's page is still good). Keeps them
    /// for the next build when the memo keeps pages.
    pub(super) fn entry_pages(
        &mut self,
        rendered: Vec<RenderedEntryPage>,
        entries: &[Arc<Entry>],
        bodies: &[Arc<RenderedBody>],
        out: &mut Vec<OutputFile>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut kept = HashMap::new();
        // One template error fails every entry page alike: said once, with how many.
        let mut template_errors: Vec<(Diagnostic, usize)> = Vec::new();
        for (idx, fp, page) in rendered {
            let url = &entries[idx].url;
            let html = match page {
                EntryPage::Html(html) => Arc::new(html),
                EntryPage::Failed(d) if d.message.starts_with("template error:") => {
                    match template_errors
                        .iter_mut()
                        .find(|(t, _)| t.message == d.message)
                    {
                        Some((_, n)) => *n += 1,
                        None => template_errors.push((d, 1)),
                    }
                    continue;
                }
                EntryPage::Failed(d) => {
                    diags.push(d);
                    continue;
                }
                // Only one-shot builds write pages as they render, and they keep nothing.
                EntryPage::Written => continue,
                EntryPage::Reused => self.pages.remove(url).map(|m| m.html).unwrap_or_default(),
            };
            if self.keep {
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
        for (mut d, n) in template_errors {
            if n > 1 {
                d.message.push_str(&format!(" (in {n} entry pages)"));
            }
            diags.push(d);
        }
        self.pages = kept;
    }

    /// The fingerprint of the listing pages' inputs (see [`listing_inputs`]), or `None` when
    /// the memo keeps nothing.
    pub(super) fn listing_key(&self, inputs: impl FnOnce() -> u64) -> Option<u64> {
        self.keep.then(inputs)
    }

    /// The previous build's listing pages, when they were made from `key` and all rendered.
    pub(super) fn unchanged_listings(&self, key: Option<u64>) -> Option<Vec<OutputFile>> {
        (key.is_some() && key == self.listings).then(|| {
            self.others
                .iter()
                .map(|(path, (_, html))| (path.clone(), html.clone()))
                .collect()
        })
    }

    /// Starts rendering the listing pages of this build (see [`ListingPages`]).
    pub(super) fn listing_pages<'a>(
        &mut self,
        tera: &'a tera::Tera,
        global_fp: u64,
    ) -> ListingPages<'a> {
        // Set again only after every listing rendered.
        self.listings = None;
        ListingPages {
            tera,
            global_fp,
            keep: self.keep,
            previous: std::mem::take(&mut self.others),
            kept: HashMap::new(),
            out: Vec::new(),
            diags: Vec::new(),
        }
    }

    /// Ends rendering the listing pages: keeps them, and remembers `key` only when every
    /// page of the build rendered.
    pub(super) fn finish_listings(
        &mut self,
        pages: ListingPages<'_>,
        key: Option<u64>,
        all_rendered: bool,
    ) -> (Vec<OutputFile>, Vec<Diagnostic>) {
        self.others = pages.kept;
        if all_rendered && pages.diags.is_empty() {
            self.listings = key;
        }
        (pages.out, pages.diags)
    }
}

/// The listing pages of one build as they are rendered: a page whose template context has
/// the fingerprint it had in the previous build is reused.
pub(super) struct ListingPages<'a> {
    tera: &'a tera::Tera,
    global_fp: u64,
    keep: bool,
    previous: HashMap<String, (u64, Arc<Vec<u8>>)>,
    kept: HashMap<String, (u64, Arc<Vec<u8>>)>,
    out: Vec<OutputFile>,
    diags: Vec<Diagnostic>,
}

impl ListingPages<'_> {
    /// Renders (or reuses) the page at `path` from `template` and `ctx`.
    pub(super) fn page(&mut self, path: String, template: &str, ctx: &tera::Context) {
        let fp = self
            .keep
            .then(|| context_fingerprint(self.global_fp, template, ctx));
        let html = match (fp, self.previous.remove(&path)) {
            (Some(fp), Some((old, html))) if old == fp => html,
            _ => match render(self.tera, template, ctx) {
                Ok(html) => Arc::new(html.into_bytes()),
                Err(d) => {
                    self.diags.push(d);
                    return;
                }
            },
        };
        if let Some(fp) = fp {
            self.kept.insert(path.clone(), (fp, html.clone()));
        }
        self.out.push((path, html));
    }
}

/// A fingerprint of what the listing pages (home, connectors, error index, tags, redirects,
/// feed, sitemap, search page) are made from: the site, the kinds, the products and releases
/// the book names, and each entry's link fields, errors, tags and aliases. Bodies are not
/// among them.
pub(super) fn listing_inputs<P: std::hash::Hash>(
    global_fp: u64,
    kinds: &[String],
    entries: &[Arc<Entry>],
    products: &[P],
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
        (&fm.errors, &fm.tags, &fm.aliases, &fm.symptoms).hash(&mut h);
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
