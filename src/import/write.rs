//! Writing the imported book: unique ids, connectors in book.toml, aliases that do not
//! collide, and the entries under `content/` (written to a temporary directory first, so a
//! failed import leaves no half book).

use super::images::{self, Images};
use super::links::{self, PageTargets};
use super::page::{Draft, ascii_slug, proposals};
use super::source::SourceTree;
use super::{ImportError, ImportReport, Leftover, WrittenEntry};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// The connector of pages at the top of the tree (or under a directory without ASCII letters).
const TOP_CONNECTOR: &str = "general";
/// Connector slugs the site uses for its own directories.
const TAKEN_SLUGS: [&str; 1] = ["search"];

/// Writes `drafts` as a book into `into`.
pub fn write_book(
    into: &Path,
    from: super::Generator,
    tree: &SourceTree,
    drafts: Vec<Draft>,
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    // Section names: the generator's metadata, then section index pages' titles.
    let mut names: BTreeMap<String, String> = tree.sections.clone();
    for d in &drafts {
        if let Some(name) = &d.names_section
            && !d.section.is_empty()
        {
            names.insert(d.section.clone(), name.clone());
        }
    }
    // Section index pages without text: they only name their sections.
    let name_only = drafts.iter().filter(|d| d.kind.is_empty()).count();
    let entries: Vec<Draft> = drafts
        .into_iter()
        .filter(|d| !d.kind.is_empty())
        .map(|mut d| {
            // An error entry names its errors (`kbook check` warns otherwise): a title that
            // reads as an error but yields no error text is troubleshooting.
            if d.kind == "error" && d.errors.is_empty() {
                d.kind = "troubleshooting".into();
            }
            d
        })
        .collect();
    if entries.is_empty() {
        return Err(ImportError::Nothing {
            pages_dir: tree.pages_dir.clone(),
            pages: report.pages,
            name_only,
            notes: report.notes.clone(),
        });
    }

    let mut connectors: BTreeMap<String, (String, String)> = BTreeMap::new(); // slug → (name, dir)
    let mut ids: HashSet<String> = HashSet::new();
    let mut next_number: HashMap<String, usize> = HashMap::new();
    let mut outputs: HashSet<String> = HashSet::new();
    let mut planned = Vec::new();
    for d in &entries {
        let slug = connector_slug(&d.section);
        connectors.entry(slug.clone()).or_insert_with(|| {
            let name = names
                .get(&d.section)
                .cloned()
                .unwrap_or_else(|| section_name(&d.section, &slug, tree.language.as_deref()));
            (name, d.section.clone())
        });
        outputs.insert(format!("{slug}/index.html"));
        // A title without ASCII words (`如何声明变量？`) is named by the page and a digest of
        // the title: the same question keeps its id (and address) when questions move.
        let digest = || crate::fingerprint::short_hash(d.title.as_bytes())[..6].to_string();
        let base = ascii_slug(&d.title, 60)
            .or_else(|| ascii_slug(&d.stem, 40).map(|s| format!("{s}-{}", digest())))
            .unwrap_or_else(|| format!("entry-{}", digest()));
        let mut id = base.clone();
        // Each base's next number is kept: a page of many same questions stays linear.
        let k = next_number.entry(base.clone()).or_insert(2);
        while !ids.insert(id.clone()) {
            id = format!("{base}-{k}");
            *k += 1;
        }
        outputs.insert(crate::urls::entry_page(&slug, &id));
        planned.push((slug, id));
    }

    report_shared_titles(&entries, report);
    let mut targets = PageTargets::default();
    for (d, (slug, id)) in entries.iter().zip(&planned) {
        let to = (slug.clone(), id.clone());
        targets
            .first
            .entry(d.page.clone())
            .or_insert_with(|| to.clone());
        let headings = crate::render::markdown::MarkdownRenderer::headings(&d.body);
        targets
            .source_ids
            .insert(to.clone(), links::source_ids(from, &headings));
        targets
            .headings
            .insert(to.clone(), headings.into_iter().map(|(_, id)| id).collect());
        if let Some(a) = &d.anchor {
            targets.anchors.insert((d.page.clone(), a.clone()), to);
        }
    }
    let tmp = into.join(".content.import-tmp");
    let static_tmp = into.join(".static.import-tmp");
    let mut images = Images::new(&tree.root);
    let result = write_entries(
        &tmp,
        &entries,
        &planned,
        &targets,
        &mut outputs,
        (tree, &mut images),
        report,
    );
    let result = result
        .and_then(|()| {
            images::copy(&images, &static_tmp).map_err(|e| ImportError::io(&static_tmp, e))
        })
        .and_then(|()| {
            std::fs::rename(&tmp, into.join("content")).map_err(|e| ImportError::io(&tmp, e))
        })
        .and_then(|()| match images.copies.is_empty() {
            true => Ok(()),
            false => std::fs::rename(&static_tmp, into.join("static"))
                .map_err(|e| ImportError::io(&static_tmp, e)),
        });
    let _ = std::fs::remove_dir_all(&static_tmp);
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // Copied images are no longer files left behind.
    let copied: HashSet<String> = images.copies.keys().map(|f| images.display(f)).collect();
    report
        .notes
        .retain(|n| !copied.contains(&n.at) && !report.included.contains(&n.at));
    report.images = images.copies.len();

    let mut toml = String::from("[book]\n");
    let title = tree
        .title
        .clone()
        .unwrap_or_else(|| "Imported knowledge base".into());
    toml.push_str(&format!("title = {}\n", toml_str(&title)));
    if let Some(lang) = &tree.language {
        toml.push_str(&format!("language = {}\n", toml_str(lang)));
    }
    if let Some(d) = tree.description.as_deref().filter(|d| !d.trim().is_empty()) {
        toml.push_str(&format!("description = {}\n", toml_str(d)));
    }
    if !tree.authors.is_empty() {
        let authors: Vec<String> = tree.authors.iter().map(|a| toml_str(a)).collect();
        toml.push_str(&format!("authors = [{}]\n", authors.join(", ")));
    }
    toml.push_str("src = \"content\"\n");
    // The repository link carries over; an edit template names the old tree's files, which
    // the book's entries are not, so it is left out (and reported).
    if let Some(repo) = tree.repo_url.as_deref().filter(|r| r.starts_with("http")) {
        toml.push_str(&format!(
            "\n[output.html]\ngit-repository-url = {}\n",
            toml_str(repo)
        ));
    }
    if tree.edit_url_template.is_some() {
        report.notes.push(super::Leftover {
            at: "book.toml".into(),
            what: "edit-url-template not carried over: it names the source tree's files, not \
                   the book's entries"
                .into(),
        });
    }
    for (slug, (name, dir)) in &connectors {
        let from = if dir.is_empty() {
            "the top of the source tree".to_string()
        } else {
            format!("{dir}/")
        };
        toml.push_str(&format!(
            "\n[[kbook.connectors]]\nslug = {}\nname = {}\ndescription = {}\n",
            toml_str(slug),
            toml_str(name),
            toml_str(&format!("Pages imported from {from}"))
        ));
    }
    let book_toml = into.join("book.toml");
    std::fs::write(&book_toml, toml).map_err(|e| ImportError::io(&book_toml, e))?;
    report.connectors = connectors.into_keys().collect();
    Ok(())
}

/// Titles shared by entries from different pages (`flink-sources/postgres.md` and
/// `pipeline-connectors/postgres.md`, both `Postgres`) are reported: a reader cannot tell
/// such entries apart in results. The titles stay (the words a title gains change ranking;
/// the author knows the better names), as do the entries of one page (a FAQ's questions).
fn report_shared_titles(entries: &[Draft], report: &mut ImportReport) {
    let mut by_title: BTreeMap<String, Vec<&Draft>> = BTreeMap::new();
    for d in entries {
        by_title
            .entry(d.title.trim().to_lowercase())
            .or_default()
            .push(d);
    }
    for group in by_title.values() {
        let pages: HashSet<&str> = group.iter().map(|d| d.page.as_str()).collect();
        if pages.len() < 2 {
            continue;
        }
        let mut sources: Vec<&str> = group.iter().map(|d| d.source.as_str()).collect();
        sources.sort_unstable();
        report.notes.push(Leftover {
            at: sources[0].to_string(),
            what: format!(
                "{} entries are titled `{}` (also {}): give them titles a reader can tell apart",
                group.len(),
                group[0].title,
                sources[1..].join(", ")
            ),
        });
    }
}

fn write_entries(
    dir: &Path,
    entries: &[Draft],
    planned: &[(String, String)],
    targets: &PageTargets,
    outputs: &mut HashSet<String>,
    (tree, images): (&SourceTree, &mut Images),
    report: &mut ImportReport,
) -> Result<(), ImportError> {
    let mut alias_pages = AliasPages::default();
    for (d, (slug, id)) in entries.iter().zip(planned) {
        let mut aliases = Vec::new();
        let own_page = crate::urls::entry_page(slug, id);
        for a in &d.aliases {
            let page = crate::urls::alias_page(a)
                .filter(|p| !crate::urls::RESERVED_PATHS.contains(&p.as_str()));
            // The old address is the entry's own new one: nothing to keep, nothing lost.
            if page.as_deref() == Some(own_page.as_str()) && crate::urls::alias_anchor(a).is_none()
            {
                continue;
            }
            // A page of plain and #anchor aliases is one redirect page; it may not be a page
            // the book writes (an entry, a listing).
            let free = match (page, crate::urls::alias_anchor(a)) {
                (Some(p), None) => {
                    let free = !outputs.contains(&p)
                        || (alias_pages.anchored.contains(&p) && !alias_pages.plain.contains(&p));
                    if free {
                        outputs.insert(p.clone());
                        alias_pages.plain.insert(p);
                    }
                    free
                }
                (Some(p), Some(anchor)) => {
                    let key = format!("{p}#{anchor}");
                    let page_ok = !outputs.contains(&p)
                        || alias_pages.anchored.contains(&p)
                        || alias_pages.plain.contains(&p);
                    let free = page_ok && !outputs.contains(&key);
                    if free {
                        outputs.insert(key);
                        outputs.insert(p.clone());
                        alias_pages.anchored.insert(p);
                    }
                    free
                }
                (None, _) => false,
            };
            match free {
                true => aliases.push(a.clone()),
                false => {
                    // Who has the address, so the note says what to do about it.
                    let holder = match crate::urls::alias_page(a) {
                        Some(p) if planned.iter().any(|(c, _)| p == format!("{c}/index.html")) => {
                            format!(
                                "it is the page kbook writes for the connector `{}`",
                                p.trim_end_matches("/index.html")
                            )
                        }
                        Some(p) if crate::urls::RESERVED_PATHS.contains(&p.as_str()) => {
                            format!("kbook writes its own page {p} there")
                        }
                        Some(_) => "another entry or alias has it".to_string(),
                        None => "it is not a page address".to_string(),
                    };
                    report.notes.push(Leftover {
                        at: d.source.clone(),
                        what: format!("old address `{a}` not kept as an alias: {holder}"),
                    });
                }
            }
        }
        let mut text = String::from("---\n");
        text.push_str(&format!("id: {id}\ntitle: {}\n", yaml_str(&d.title)));
        text.push_str(&format!("connector: {slug}\nkind: {}\n", d.kind));
        if !d.errors.is_empty() {
            text.push_str("errors:\n");
            for (e, _) in &d.errors {
                text.push_str(&format!("  - {}\n", yaml_str(e)));
            }
        }
        if !d.tags.is_empty() {
            text.push_str(&format!("tags: [{}]\n", d.tags.join(", ")));
        }
        if let Some(u) = &d.updated {
            text.push_str(&format!("updated: {u}\n"));
        }
        if !aliases.is_empty() {
            let list: Vec<String> = aliases.iter().map(|a| yaml_str(a)).collect();
            text.push_str(&format!("aliases: [{}]\n", list.join(", ")));
        }
        text.push_str("---\n");
        let body = links::rewrite(
            &d.body,
            &d.page,
            (slug, id),
            targets,
            &d.body_at,
            &mut report.notes,
        );
        let body = images::rewrite(&body, &d.page, tree, images, &d.body_at, &mut report.notes);
        text.push_str(body.trim_start_matches('\n'));
        if !text.ends_with('\n') {
            text.push('\n');
        }
        let rel = format!("{slug}/{id}.md");
        let path = dir.join(slug).join(format!("{id}.md"));
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| ImportError::io(parent, e))?;
        }
        std::fs::write(&path, text).map_err(|e| ImportError::io(&path, e))?;
        report.proposed_errors.extend(proposals(id, d));
        report.written.push(WrittenEntry {
            id: id.clone(),
            title: d.title.clone(),
            connector: slug.clone(),
            kind: d.kind.clone(),
            source: d.source.clone(),
            old_anchor: d.old_anchor.clone(),
            path: format!("content/{rel}"),
        });
        report.entries += 1;
    }
    Ok(())
}

/// Redirect pages written for plain aliases and for `#anchor` aliases.
#[derive(Default)]
struct AliasPages {
    plain: HashSet<String>,
    anchored: HashSet<String>,
}

/// The connector slug of a top-level directory.
fn connector_slug(section: &str) -> String {
    match ascii_slug(section, 40) {
        Some(s) if TAKEN_SLUGS.contains(&s.as_str()) => format!("{s}-docs"),
        Some(s) => s,
        None => TOP_CONNECTOR.to_string(),
    }
}

/// A name for a section without one: its directory, words capitalised.
fn section_name(dir: &str, slug: &str, language: Option<&str>) -> String {
    if dir.is_empty() {
        // In the book's language, as the rest of its chrome.
        let chinese = language.is_some_and(crate::i18n::is_chinese);
        return if chinese { "通用" } else { "General" }.into();
    }
    let words = dir.replace(['-', '_'], " ");
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => slug.to_string(),
    }
}

/// A YAML double-quoted scalar (JSON string syntax is valid YAML).
fn yaml_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_and_slugs() {
        assert_eq!(yaml_str("a \"b\": c"), r#""a \"b\": c""#);
        for s in ["Ops \"FAQ\"", "it's", "a\\b"] {
            let t: toml::Table = toml::from_str(&format!("a = {}", toml_str(s))).unwrap();
            assert_eq!(t["a"].as_str(), Some(s));
        }
        assert_eq!(
            connector_slug("Kafka_Troubleshooting"),
            "kafka-troubleshooting"
        );
        assert_eq!(connector_slug("search"), "search-docs");
        assert_eq!(connector_slug("常见问题"), "general");
        assert_eq!(section_name("kafka-faq", "kafka-faq", None), "Kafka faq");
        assert_eq!(section_name("", "general", Some("zh-CN")), "通用");
        assert_eq!(section_name("", "general", Some("en")), "General");
    }
}
