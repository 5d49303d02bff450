//! Links between imported pages, pointed at the entries they became: `other.md`, `../x/y.md`,
//! Docusaurus' extension-less `./other`, Zola's `@/section/page.md`, and `#anchor` links into
//! a FAQ page's questions. A link to a page that was not imported loses its target (the text
//! stays) and is reported, so the book passes `kbook check`.

use super::Leftover;
use pulldown_cmark::{Event, LinkType, Parser, Tag};
use std::collections::HashMap;

/// Where each source page's text went.
#[derive(Debug, Default)]
pub struct PageTargets {
    /// Source page (below the pages directory) → its first entry `(connector, id)`.
    pub first: HashMap<String, (String, String)>,
    /// (source page, question anchor) → the question's entry.
    pub anchors: HashMap<(String, String), (String, String)>,
    /// Entry `(connector, id)` → the ids its page gives its headings: a link's `#anchor`
    /// is kept when the entry has it.
    pub headings: HashMap<(String, String), std::collections::HashSet<String>>,
    /// Entry `(connector, id)` → the ids the source generator gave its headings, where they
    /// differ from the entry's, → the entry's (`#buildtarget` → `#build-target`).
    pub source_ids: HashMap<(String, String), HashMap<String, String>>,
}

/// The ids `from` gives the headings `(text, kbook id)` of a page, where they differ from
/// kbook's, mapped to kbook's.
pub fn source_ids(
    from: super::Generator,
    headings: &[(String, String)],
) -> HashMap<String, String> {
    let mut used: HashMap<String, usize> = HashMap::new();
    let mut out = HashMap::new();
    for (text, id) in headings {
        let source = match from {
            super::Generator::Mkdocs => mkdocs_id(text, &mut used),
            // Hugo, Docusaurus and mdBook name headings as GitHub does; Zola as kbook does.
            super::Generator::Zola => continue,
            _ => github_id(text, &mut used),
        };
        if &source != id {
            out.entry(source).or_insert_with(|| id.clone());
        }
    }
    out
}

/// GitHub's heading ids (Hugo, Docusaurus, mdBook): lowercase, letters, digits, `-` and `_`
/// kept, spaces to `-`, the rest dropped; a repeated one gets `-1`, `-2`, ….
fn github_id(text: &str, used: &mut HashMap<String, usize>) -> String {
    let base: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            c if c.is_whitespace() => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect();
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    if *n == 1 {
        base
    } else {
        format!("{base}-{}", *n - 1)
    }
}

/// Python-Markdown's heading ids (MkDocs): ASCII letters, digits, `_` and `-` kept (accents
/// dropped), runs of spaces and `-` to one `-`, lowercase; an empty or repeated one gets
/// `_1`, `_2`, ….
pub(super) fn mkdocs_id(text: &str, used: &mut HashMap<String, usize>) -> String {
    use icu_normalizer::DecomposingNormalizerBorrowed;
    let decomposed = DecomposingNormalizerBorrowed::new_nfkd().normalize(text);
    let kept: String = decomposed
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-') || c.is_whitespace())
        .collect::<String>()
        .trim()
        .to_lowercase();
    let mut base = String::new();
    for c in kept.chars() {
        if c == '-' || c.is_whitespace() {
            if !base.ends_with('-') {
                base.push('-');
            }
        } else {
            base.push(c);
        }
    }
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    if *n == 1 && !base.is_empty() {
        base
    } else {
        format!("{base}_{}", *n - usize::from(!base.is_empty()))
    }
}

/// `body` of the entry `(connector, id)` that came from source page `page` with its links
/// rewritten; what could not be kept goes to `notes` (at `source`).
pub fn rewrite(
    body: &str,
    page: &str,
    (connector, id): (&str, &str),
    targets: &PageTargets,
    at: &(String, usize),
    notes: &mut Vec<Leftover>,
) -> String {
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    // The ids the entry's page will give its headings (the renderer's own rule), as the
    // targets hold them for every entry.
    let computed;
    let own_anchors = match targets
        .headings
        .get(&(connector.to_string(), id.to_string()))
    {
        Some(ids) => ids,
        None => {
            computed = crate::render::markdown::MarkdownRenderer::heading_ids(body);
            &computed
        }
    };
    let no_map = HashMap::new();
    let own_source = targets
        .source_ids
        .get(&(connector.to_string(), id.to_string()))
        .unwrap_or(&no_map);
    // An in-page link by the source generator's id: the entry's id for that heading.
    let in_page = |dest: &str| {
        let a = dest.strip_prefix('#')?;
        (!own_anchors.contains(a))
            .then(|| own_source.get(a))
            .flatten()
            .map(|k| format!("#{k}"))
    };
    let lines = crate::diagnostic::LineIndex::new(body);
    let parser = Parser::new_ext(body, crate::render::markdown::options());
    // Reference definitions (`[label]: ../b/faq.md`): the definition is pointed at the entry,
    // which every `[text][label]` follows; a definition of a page not imported goes, and
    // its links keep their text.
    let mut dead_labels = std::collections::HashSet::new();
    for (label, def) in parser.reference_definitions().iter() {
        let span = def.span.clone();
        if let Some(new) = in_page(&def.dest)
            && let Some(i) = body.get(span.clone()).and_then(|t| t.find(&*def.dest))
        {
            let start = span.start + i;
            edits.push((start..start + def.dest.len(), new));
            continue;
        }
        let target = if crate::render::links::is_unsafe_scheme(&def.dest) {
            Some(None)
        } else {
            resolve(&def.dest, page, targets, own_anchors)
        };
        let Some(target) = target else {
            continue;
        };
        match target {
            Some((c, id, anchor)) => {
                if let Some(i) = body.get(span.clone()).and_then(|t| t.find(&*def.dest)) {
                    let start = span.start + i;
                    edits.push((
                        start..start + def.dest.len(),
                        entry_link(&c, &id, anchor, connector),
                    ));
                }
            }
            None => {
                notes.push(Leftover {
                    at: super::line_at(at, &lines, span.start),
                    what: format!(
                        "link definition `[{label}]: {}` removed (the links' text kept): {}",
                        def.dest,
                        if crate::render::links::is_unsafe_scheme(&def.dest) {
                            "it runs script"
                        } else {
                            "no imported page there"
                        }
                    ),
                });
                dead_labels.insert(label.to_lowercase());
                edits.push((span, String::new()));
            }
        }
    }
    for (event, range) in parser.into_offset_iter() {
        let dest_url = match event {
            Event::Start(Tag::Link {
                link_type:
                    LinkType::Reference
                    | LinkType::ReferenceUnknown
                    | LinkType::Collapsed
                    | LinkType::CollapsedUnknown
                    | LinkType::Shortcut
                    | LinkType::ShortcutUnknown,
                id,
                ..
            }) => {
                if dead_labels.contains(&id.to_lowercase()) {
                    let text = &body[range.clone()];
                    // `[text][label]`, `[text][]` or `[text]`: the text between the first
                    // brackets.
                    let label = text
                        .strip_prefix('[')
                        .and_then(|t| t.find(']').map(|i| &t[..i]))
                        .unwrap_or(text);
                    edits.push((range, label.to_string()));
                }
                continue;
            }
            Event::Start(Tag::Link { dest_url, .. }) => dest_url,
            // Raw HTML as written (a block's line, or an inline tag): its `<a href>` links
            // are pointed at the entries too.
            Event::Html(h) | Event::InlineHtml(h) if body.get(range.clone()) == Some(&*h) => {
                let fix = |dest: &str, image: bool| {
                    // A page's own anchors may be ids its raw HTML gives.
                    if image || dest.starts_with('#') {
                        return (None, None);
                    }
                    match resolve(dest, page, targets, own_anchors) {
                        Some(Some((c, id, anchor))) => {
                            (Some(entry_link(&c, &id, anchor, connector)), None)
                        }
                        Some(None) => (
                            None,
                            Some((
                                format!(
                                    "link to `{dest}` in raw HTML kept: no imported page there"
                                ),
                                String::new(),
                            )),
                        ),
                        None => (None, None),
                    }
                };
                edits.extend(super::raw_html_edit(&h, range, (at, &lines), notes, fix));
                continue;
            }
            _ => continue,
        };
        let dest = dest_url.to_string();
        // A link that runs script is refused by `kbook check`: it goes, its text stays.
        if crate::render::links::is_unsafe_scheme(&dest) {
            let text = &body[range.clone()];
            notes.push(Leftover {
                at: super::line_at(at, &lines, range.start),
                what: format!("link to `{dest}` removed (its text kept): it runs script"),
            });
            edits.push((range.clone(), link_text(text).to_string()));
            continue;
        }
        if let Some(new) = in_page(&dest) {
            let text = &body[range.clone()];
            if let Some(at) = text.rfind(&format!("]({dest}")) {
                let start = range.start + at + 2;
                edits.push((start..start + dest.len(), new));
            }
            continue;
        }
        if dest.starts_with('/') && !dest.starts_with("//") {
            notes.push(Leftover {
                at: super::line_at(at, &lines, range.start),
                what: format!(
                    "link to `{dest}` kept: an address on the old site, which the book does not serve"
                ),
            });
            continue;
        }
        let Some(target) = resolve(&dest, page, targets, own_anchors) else {
            continue;
        };
        let text = &body[range.clone()];
        match target {
            Some((c, id, anchor)) => {
                let new = entry_link(&c, &id, anchor, connector);
                if let Some(at) = text.rfind(&format!("]({dest}")) {
                    let start = range.start + at + 2;
                    edits.push((start..start + dest.len(), new));
                }
            }
            None => {
                let label = link_text(text);
                let why = if dest.starts_with('#') {
                    "no heading of the page has that id"
                } else {
                    "no imported page there"
                };
                notes.push(Leftover {
                    at: super::line_at(at, &lines, range.start),
                    what: format!("link to `{dest}` removed (its text kept): {why}"),
                });
                edits.push((range, label.to_string()));
            }
        }
    }
    super::apply_edits(body, edits)
}

/// The text of an inline link `[text](dest)` as written.
fn link_text(link: &str) -> &str {
    link.strip_prefix('[')
        .and_then(|t| t.rfind("](").map(|i| &t[..i]))
        .unwrap_or(link)
}

/// `path` relative to the folder of the source page `page`, normalized (`None`: above the
/// tree).
fn beside_page(page: &str, path: &str) -> Option<String> {
    crate::urls::normalize(&format!(
        "{}{path}",
        page.rfind('/').map_or("", |i| &page[..=i])
    ))
}

/// The pages a path without an extension may name: a page, or a section's index.
fn pages_named(path: &str) -> Vec<String> {
    [".md", ".mdx", "/index.md", "/_index.md"]
        .iter()
        .map(|e| format!("{path}{e}"))
        .collect()
}

/// The link from an entry of `connector` to entry `id` of connector `c` (its `.md` file).
fn entry_link(c: &str, id: &str, anchor: Option<String>, connector: &str) -> String {
    let file = if c == connector {
        format!("{id}.md")
    } else {
        format!("../{c}/{id}.md")
    };
    format!(
        "{file}{}",
        anchor.map(|a| format!("#{a}")).unwrap_or_default()
    )
}

type Target = Option<(String, String, Option<String>)>;

/// `None`: leave the link alone. `Some(None)`: an internal link to nothing imported.
/// `Some(Some((connector, id, anchor)))`: the entry it now points at.
fn resolve(
    dest: &str,
    page: &str,
    targets: &PageTargets,
    own: &std::collections::HashSet<String>,
) -> Option<Target> {
    let lower = dest.to_ascii_lowercase();
    if lower.contains("://") || lower.starts_with("mailto:") || dest.starts_with('/') {
        return None;
    }
    let (path, anchor) = match dest.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (dest, None),
    };
    if path.is_empty() {
        let a = anchor?;
        if own.contains(&a) {
            return None;
        }
        let hit = targets.anchors.get(&(page.to_string(), a));
        return Some(hit.map(|(c, id)| (c.clone(), id.clone(), None)));
    }
    let joined = match path.strip_prefix("@/") {
        Some(p) => Some(p.to_string()),
        None => beside_page(page, path),
    };
    let Some(joined) = joined else {
        return Some(None);
    };
    let joined = joined.trim_end_matches('/').to_string();
    let is_page = [".md", ".mdx"].iter().any(|e| joined.ends_with(e));
    let candidates: Vec<String> = if is_page {
        vec![joined.clone()]
    } else if let Some(stem) = joined.strip_suffix(".html") {
        // A built page's name (mdBook writes `a.md` as `a.html`, `README.md` as `index.html`):
        // the page it was built from, when the tree has it; else the link is left alone.
        let mut c: Vec<String> = [".md", ".mdx"]
            .iter()
            .map(|e| format!("{stem}{e}"))
            .collect();
        if let Some(dir) = stem.strip_suffix("index") {
            c.push(format!("{dir}README.md"));
        }
        if !c.iter().any(|c| targets.first.contains_key(c)) {
            return None;
        }
        c
    } else if !joined.rsplit('/').next().unwrap_or("").contains('.') {
        // Docusaurus links pages without their extension; Hugo refs name sections too.
        pages_named(&joined)
    } else {
        return None;
    };
    // Hugo's `ref "other.md"` names a page beside this one first, then from the root.
    let beside: Vec<String> = match path.strip_prefix("@/").and_then(|p| beside_page(page, p)) {
        Some(j) if is_page => vec![j.trim_end_matches('/').to_string()],
        Some(j) => pages_named(j.trim_end_matches('/')),
        None => Vec::new(),
    };
    let Some(found) = candidates
        .iter()
        .chain(&beside)
        .find(|c| targets.first.contains_key(*c))
    else {
        // A page of the tree that was not imported (`@/`: Zola, Hugo refs; a path without an
        // extension: Docusaurus, Hugo): its link would be dead.
        return Some(None);
    };
    if let Some(a) = &anchor
        && let Some((c, id)) = targets.anchors.get(&(found.clone(), a.clone()))
    {
        return Some(Some((c.clone(), id.clone(), None)));
    }
    let (c, id) = &targets.first[found];
    // The old page's anchor, if the entry has that heading (by its id there or the source
    // generator's); else the entry itself.
    let key = (c.clone(), id.clone());
    let kept = anchor.and_then(|a| {
        if targets.headings.get(&key).is_some_and(|h| h.contains(&a)) {
            Some(a)
        } else {
            targets
                .source_ids
                .get(&key)
                .and_then(|m| m.get(&a))
                .cloned()
        }
    });
    Some(Some((c.clone(), id.clone(), kept)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rewrite` of `body` (of an entry of `connector` from `page`, its first line at `at`),
    /// and the notes it made.
    /// Each note as (place, text).
    fn said(notes: &[Leftover]) -> Vec<(&str, &str)> {
        notes
            .iter()
            .map(|n| (n.at.as_str(), n.what.as_str()))
            .collect()
    }

    fn rewritten(
        body: &str,
        page: &str,
        connector: &str,
        t: &PageTargets,
        at: (&str, usize),
    ) -> (String, Vec<Leftover>) {
        let mut notes = Vec::new();
        let out = rewrite(
            body,
            page,
            (connector, "entry"),
            t,
            &(at.0.to_string(), at.1),
            &mut notes,
        );
        (out, notes)
    }

    #[test]
    fn hugo_refs_name_pages_and_sections() {
        let mut t = PageTargets::default();
        t.first
            .insert("ops/_index.md".into(), ("ops".into(), "operations".into()));
        t.first
            .insert("ops/restart.md".into(), ("ops".into(), "restart".into()));
        let body = "[sec](@/ops/) [page](@/ops/restart#steps) [gone](@/ops/none)\n";
        let (out, notes) = rewritten(body, "faq/kafka.md", "faq", &t, ("faq/kafka.md", 1));
        assert_eq!(
            out,
            "[sec](../ops/operations.md) [page](../ops/restart.md) gone\n"
        );
        assert_eq!(notes.len(), 1);
        // A built page's name, as mdBook links its pages.
        let body = "[r](restart.html#steps) [i](../ops/index.html) [x](other.html)\n";
        t.first
            .insert("ops/README.md".into(), ("ops".into(), "ops-home".into()));
        let (out, notes) = rewritten(body, "ops/refs.md", "ops", &t, ("ops/refs.md", 1));
        assert_eq!(out, "[r](restart.md) [i](ops-home.md) [x](other.html)\n");
        assert!(notes.is_empty());
        // A page named by its path beside the linking page.
        let body = "[r](@/restart.md) [s](@/restart)\n";
        let (out, notes) = rewritten(body, "ops/refs.md", "ops", &t, ("ops/refs.md", 1));
        assert_eq!(out, "[r](restart.md) [s](restart.md)\n");
        assert!(notes.is_empty());
    }

    #[test]
    fn links_follow_pages_into_entries() {
        let mut t = PageTargets::default();
        t.first
            .insert("faq/kafka.md".into(), ("faq".into(), "kafka-faq".into()));
        t.first
            .insert("ops/restart.md".into(), ("ops".into(), "restart".into()));
        t.anchors.insert(
            ("faq/kafka.md".into(), "q2".into()),
            ("faq".into(), "reset-offsets".into()),
        );
        let body = "See [restart](../ops/restart.md#steps), [Q2](#q2), [same](kafka.md), [zola](@/ops/restart.md), [gone](missing.md), [img](pic.png), [web](https://x.org/a.md) and [Intro](#intro).\n\n## Intro\n";
        let (out, notes) = rewritten(body, "faq/kafka.md", "faq", &t, ("faq/kafka.md", 3));
        assert_eq!(
            out,
            "See [restart](../ops/restart.md), [Q2](reset-offsets.md), [same](kafka-faq.md), [zola](../ops/restart.md), gone, [img](pic.png), [web](https://x.org/a.md) and [Intro](#intro).\n\n## Intro\n"
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].what.contains("missing.md"));
        assert_eq!(notes[0].at, "faq/kafka.md:3");
        // A page linked without its extension that was not imported, and an address on the
        // old site: the first is removed, the second kept, both reported with their lines.
        let body = "Intro.\n\nRun the [compactor](compaction/#offline).\n\nSet [the option](/docs/configurations#compact).\n";
        let (out, notes) = rewritten(body, "faq/kafka.md", "faq", &t, ("faq/kafka.md", 10));
        assert_eq!(
            out,
            "Intro.\n\nRun the compactor.\n\nSet [the option](/docs/configurations#compact).\n"
        );
        let at: Vec<&str> = notes.iter().map(|n| n.at.as_str()).collect();
        assert_eq!(at, ["faq/kafka.md:12", "faq/kafka.md:14"]);
        assert!(notes[1].what.contains("kept"));
    }

    /// Links by the ids mdBook, Hugo, Docusaurus or MkDocs gave headings land on the same
    /// headings under kbook's ids, on the page and across pages.
    #[test]
    fn links_by_the_source_generators_heading_ids_follow_the_headings() {
        use super::super::Generator;
        let heads = |b: &str| crate::render::markdown::MarkdownRenderer::headings(b);
        let body = "## build.target\n\n## my_option\n\n## A - B\n\n## 原因\n\n## Same\n\n## Same\n";
        let mdbook = source_ids(Generator::Mdbook, &heads(body));
        assert_eq!(
            mdbook.get("buildtarget").map(String::as_str),
            Some("build-target")
        );
        assert_eq!(mdbook.get("a---b").map(String::as_str), Some("a-b"));
        let mkdocs = source_ids(Generator::Mkdocs, &heads(body));
        assert_eq!(
            mkdocs.get("buildtarget").map(String::as_str),
            Some("build-target")
        );
        assert_eq!(mkdocs.get("a-b"), None, "the same id needs no mapping");
        assert_eq!(mkdocs.get("_1").map(String::as_str), Some("原因"));
        assert_eq!(mkdocs.get("same_1").map(String::as_str), Some("same-1"));
        assert!(source_ids(Generator::Zola, &heads(body)).is_empty());

        let mut t = PageTargets::default();
        t.first
            .insert("ref/config.md".into(), ("ref".into(), "config".into()));
        let config = "## net.git-fetch-with-cli\n";
        t.headings.insert(
            ("ref".into(), "config".into()),
            heads(config).into_iter().map(|(_, id)| id).collect(),
        );
        t.source_ids.insert(
            ("ref".into(), "config".into()),
            source_ids(Generator::Mdbook, &heads(config)),
        );
        t.source_ids
            .insert(("app".into(), "entry".into()), mdbook.clone());
        let page = format!(
            "{body}\nSee [t](#buildtarget), [x][d] and [git](../ref/config.md#netgit-fetch-with-cli).\n\n[d]: #my_option\n"
        );
        let (out, notes) = rewritten(&page, "app/setup.md", "app", &t, ("app/setup.md", 1));
        assert!(
            out.contains("[t](#build-target)")
                && out.contains("[d]: #my-option")
                && out.contains("[git](../ref/config.md#net-git-fetch-with-cli)"),
            "{out}"
        );
        assert!(notes.is_empty(), "{:?}", said(&notes));
    }

    /// What `kbook check` refuses goes with a note that says why; a footnote's links are
    /// read as the renderer reads them.
    #[test]
    fn links_that_run_script_go_and_footnotes_are_read() {
        let t = PageTargets::default();
        let body = "A [demo](javascript:alert$.next(\"Demo\")) and [ref][x].\n\n[x]: javascript:void(0)\n\nText[^1].\n\n  [^1]:\n    See [abstract](#+type:abstract).\n";
        let (out, notes) = rewritten(body, "ref/a.md", "ref", &t, ("ref/a.md", 1));
        assert!(
            out.starts_with("A demo and ref.\n") && out.contains("See abstract."),
            "{out}"
        );
        let what: Vec<&str> = notes.iter().map(|n| n.what.as_str()).collect();
        assert_eq!(what.len(), 3, "{what:#?}");
        assert!(what[0].contains("it runs script") && what[1].contains("it runs script"));
        assert!(what[2].contains("#+type:abstract"));
    }

    #[test]
    fn an_anchor_stays_when_the_entry_has_that_heading() {
        let mut t = PageTargets::default();
        t.first
            .insert("ops/restart.md".into(), ("ops".into(), "restart".into()));
        t.headings.insert(
            ("ops".into(), "restart".into()),
            ["steps".to_string()].into(),
        );
        let body = "[a](../ops/restart.md#steps) [b](../ops/restart.md#gone) <a href=\"../ops/restart.md#steps\">c</a>\n";
        let (out, _) = rewritten(body, "faq/kafka.md", "faq", &t, ("faq/kafka.md", 1));
        assert_eq!(
            out,
            "[a](../ops/restart.md#steps) [b](../ops/restart.md) <a href=\"../ops/restart.md#steps\">c</a>\n"
        );
    }

    #[test]
    fn reference_definitions_follow_pages_into_entries() {
        let mut t = PageTargets::default();
        t.first
            .insert("b/faq.md".into(), ("b".into(), "b-faq".into()));
        let body = "See [the other][other], [Other][] and [gone][lost].\n\n[other]: ../b/faq.md\n[lost]: ../c/none.md \"Title\"\n";
        let (out, notes) = rewritten(body, "a/faq.md", "a", &t, ("a/faq.md", 1));
        assert_eq!(
            out,
            "See [the other][other], [Other][] and gone.\n\n[other]: ../b/b-faq.md\n\n"
        );
        assert_eq!(
            said(&notes),
            [(
                "a/faq.md:4",
                "link definition `[lost]: ../c/none.md` removed (the links' text kept): no imported page there"
            )]
        );
    }

    #[test]
    fn links_in_raw_html_follow_pages_into_entries() {
        let mut t = PageTargets::default();
        t.first
            .insert("ops/restart.md".into(), ("ops".into(), "restart".into()));
        let body = "<table>\n<tr><td>See <a href=\"../ops/restart.md#steps\">restart</a> or <a href='gone.md'>gone</a>.</td></tr>\n</table>\n\nText with <a href=\"../ops/restart.md\">inline</a> HTML.\n";
        let (out, notes) = rewritten(body, "faq/kafka.md", "faq", &t, ("faq/kafka.md", 1));
        assert_eq!(
            out,
            "<table>\n<tr><td>See <a href=\"../ops/restart.md\">restart</a> or <a href='gone.md'>gone</a>.</td></tr>\n</table>\n\nText with <a href=\"../ops/restart.md\">inline</a> HTML.\n"
        );
        assert_eq!(
            said(&notes),
            [(
                "faq/kafka.md:2",
                "link to `gone.md` in raw HTML kept: no imported page there"
            )]
        );
    }
}
