//! What templates see: the site-wide values, entries as links and as pages, and the products
//! and releases the book names.

use crate::content::Entry;
use crate::render::markdown::TocItem;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

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
    /// Hash of the theme assets, for cache-busting query strings.
    pub asset_version: String,
    /// `[output.html] content-security-policy`: pages carry a strict CSP meta tag.
    pub content_security_policy: bool,
    /// JSON of the texts the page scripts need from the page (empty: the scripts' English).
    pub strings_meta: String,
    /// The products the book's `versions` name, comma-separated (`kbook-products` meta: an
    /// address's `?version=` for another product is said to be ignored).
    pub products: String,
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
    /// The connector's name in book.toml (shown; entry pages show the same).
    pub connector_name: String,
    /// Kind.
    pub kind: String,
    /// The kind's name in the book's language (the kind itself unless translated).
    pub kind_label: String,
    /// Last update.
    pub updated: Option<String>,
}

impl EntryLink {
    pub(super) fn of(
        e: &Entry,
        strings: &crate::i18n::Strings,
        config: &crate::config::Config,
    ) -> Self {
        EntryLink {
            id: e.id.clone(),
            title: e.fm.title.clone(),
            url: e.url.clone(),
            connector: e.fm.connector.clone(),
            connector_name: config.connector_name(&e.fm.connector),
            kind: e.fm.kind.clone(),
            kind_label: strings.kind(&e.fm.kind),
            updated: e.fm.updated.clone(),
        }
    }
}

/// A kind as a heading: its translated name, or the kind capitalised (as Tera's `capitalize`).
pub(super) fn kind_heading(kind: &str, strings: &crate::i18n::Strings) -> String {
    let label = strings.kind(kind);
    if label != kind {
        return label;
    }
    let mut chars = kind.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + &chars.as_str().to_lowercase()
    })
}

/// A row of an entry page's versions table.
#[derive(Serialize)]
pub(super) struct VersionRow {
    pub(super) product: String,
    pub(super) affected: Option<String>,
    pub(super) fixed: Option<String>,
    pub(super) note: Option<String>,
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
pub fn version_products(entries: &[Arc<Entry>]) -> Vec<VersionProduct> {
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

/// An entry as its page shows it (`entry` in entry.html).
#[derive(Serialize)]
pub(super) struct EntryView<'a> {
    pub(super) id: &'a str,
    pub(super) title: &'a str,
    pub(super) connector: &'a str,
    pub(super) connector_name: String,
    pub(super) kind: &'a str,
    pub(super) kind_label: String,
    /// The error texts alone: a book's own template may print each item as `{{ err }}`.
    pub(super) errors: Vec<&'a str>,
    /// Each error as `{text, source, generic}`; `source` is null when not given.
    pub(super) error_items: &'a [crate::content::frontmatter::ErrorString],
    pub(super) versions: Vec<VersionRow>,
    /// The parsed statements as JSON, for the page's "applies to your version" line.
    pub(super) versions_json: String,
    pub(super) tags: &'a [String],
    pub(super) symptoms: &'a [String],
    pub(super) related: Vec<EntryLink>,
    pub(super) updated: Option<&'a str>,
    pub(super) html: &'a str,
    pub(super) toc: &'a [TocItem],
    pub(super) edit_url: Option<String>,
    pub(super) source_path: &'a str,
    /// The entry's own language (front-matter `language`), when it is not the book's.
    pub(super) language: Option<&'a str>,
}

/// The site-wide values of `book`: connectors in the configured order (then any others
/// A–Z) with their entry counts, and one version of the theme and search `assets` for the
/// pages' `?v=` links.
pub(crate) fn site_context(
    config: &crate::config::Config,
    book: &crate::content::Book,
    assets: &[&(String, Vec<u8>)],
) -> SiteContext {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for e in &book.entries {
        *counts.entry(e.fm.connector.as_str()).or_default() += 1;
    }
    // Configured connectors first, in their order; then any others A–Z.
    let mut connectors: Vec<ConnectorNav> = config
        .kbook
        .connectors
        .iter()
        .filter(|c| counts.contains_key(c.slug.as_str()))
        .map(|c| ConnectorNav {
            slug: c.slug.clone(),
            name: c.name.clone(),
            description: c.description.clone(),
            url: crate::urls::connector_page(&c.slug),
            count: counts[c.slug.as_str()],
        })
        .collect();
    for (slug, count) in &counts {
        if !connectors.iter().any(|c| c.slug == *slug) {
            connectors.push(ConnectorNav {
                slug: slug.to_string(),
                name: slug.to_string(),
                description: String::new(),
                url: crate::urls::connector_page(slug),
                count: *count,
            });
        }
    }
    let mut hasher = <sha2::Sha256 as sha2::Digest>::new();
    // One version for the theme and search assets: pages reference them with `?v=` so a
    // browser never mixes a cached old script with a new page.
    for (p, b) in assets {
        sha2::Digest::update(&mut hasher, p.as_bytes());
        sha2::Digest::update(&mut hasher, b);
    }
    let html = &config.output.html;
    let strings = config.strings();
    // The search results name connectors as the book does (the index holds their slugs).
    let mut script = strings.script.clone();
    for c in &connectors {
        if c.name != c.slug {
            script.insert(format!("connector_{}", c.slug), c.name.clone());
        }
    }
    SiteContext {
        title: config.book.title.clone(),
        description: config.book.description.clone(),
        authors: config.book.authors.clone(),
        language: config.book.language.clone(),
        repo_url: html.git_repository_url.clone(),
        default_theme: html.default_theme.clone().unwrap_or_else(|| "auto".into()),
        // As a URL is written in a sitemap or a feed: a path's other scripts percent-encoded,
        // a host's in punycode (`https://例子.cn/文档` → `https://xn--fsqu00a.cn/%E6%96%87…`).
        site_url: html.site_url.as_ref().map(|u| {
            let u = url::Url::parse(u).map_or_else(|_| u.clone(), |p| p.to_string());
            format!("{}/", u.trim_end_matches('/'))
        }),
        connectors,
        entry_count: book.entries.len(),
        asset_version: crate::fingerprint::hex(&sha2::Digest::finalize(hasher))[..10].to_string(),
        content_security_policy: html.content_security_policy,
        products: {
            let mut p: Vec<&str> = book
                .entries
                .iter()
                .flat_map(|e| e.fm.versions.iter().map(|v| v.product.as_str()))
                .collect();
            p.sort_unstable();
            p.dedup();
            p.join(",")
        },
        strings_meta: if script.is_empty() {
            String::new()
        } else {
            serde_json::to_string(&script).unwrap_or_default()
        },
        strings,
    }
}
