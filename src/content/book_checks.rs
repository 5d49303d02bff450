//! What only the whole book can tell: duplicate ids, related entries that exist, connectors
//! and kinds the book knows, output paths two entries would share; and warnings about its
//! consistency (the same error claimed twice, long titles, stale dates).

use super::{Book, Entry};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, did_you_mean};
use crate::urls;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Titles longer than this are hard to scan in listings and search results.
const MAX_TITLE_CHARS: usize = 120;

/// Warnings about the book's consistency: nothing breaks, but readers are served worse.
fn lint_book(book: &Book, by_id: &HashMap<&str, &Entry>, today: &str, diags: &mut Vec<Diagnostic>) {
    // The same error string claimed by two entries: a reader who pastes it gets two answers.
    // Generic errors (see `ErrorString::generic`) are each connector's to answer for itself.
    let mut claimed: HashMap<String, &Entry> = HashMap::new();
    for e in &book.entries {
        for err in
            e.fm.errors
                .iter()
                .filter(|err| !err.generic)
                .map(|err| &err.text)
        {
            let key = err.split_whitespace().collect::<Vec<_>>().join(" ");
            match claimed.get(&key) {
                Some(other) if other.id != e.id => {
                    let (line, col) = e
                        .locator
                        .value("errors", err.get(..err.len().min(20)).unwrap_or(err));
                    diags.push(
                        Diagnostic::warning(&e.path, line, col, format!("the error string is also claimed by `{}` ({})", other.id, other.path.display()))
                            .with_hint("keep each error string in the entry that explains it; link the other with `related`"),
                    );
                }
                Some(_) => {}
                None => {
                    claimed.insert(key, e);
                }
            }
        }
        // One common word (`timeout`, `Exception`, `失败`) is in countless pastes: the entry
        // would come first for all of them. An identifier (`OutOfMemoryError`, `ORA-01555`)
        // is one word too, but it names one error.
        for err in e.fm.errors.iter().map(|err| err.text.trim()) {
            let mut chars = err.chars();
            let common_word = chars.next().is_some_and(char::is_alphabetic)
                && chars.all(|c| c.is_alphabetic() && !c.is_uppercase())
                && (err.is_ascii() || err.chars().count() <= 4);
            if common_word {
                let (line, col) = e.locator.value("errors", err);
                diags.push(
                    Diagnostic::warning(
                        &e.path,
                        line,
                        col,
                        format!("the error string `{err}` is one common word: every paste that has it matches this entry"),
                    )
                    .with_hint("give the whole message as the system prints it; a word alone belongs in `tags` or `symptoms`"),
                );
            }
        }
        for r in &e.fm.related {
            if let Some(other) = by_id.get(r.as_str())
                && other.id != e.id
                && !other.fm.related.contains(&e.id)
            {
                let (line, col) = e.locator.value("related", r);
                diags.push(
                    Diagnostic::warning(
                        &e.path,
                        line,
                        col,
                        format!("`related` links `{r}`, which does not link back"),
                    )
                    .with_hint(format!(
                        "add `{}` to `related` in {}",
                        e.id,
                        other.path.display()
                    )),
                );
            }
        }
        if let Some(updated) = &e.fm.updated
            && updated.as_str() > today
        {
            let (line, col) = e.locator.value("updated", updated);
            diags.push(
                Diagnostic::warning(
                    &e.path,
                    line,
                    col,
                    format!("`updated` ({updated}) is in the future"),
                )
                .with_hint(format!("use today's date ({today}) or earlier")),
            );
        }
        let chars = e.fm.title.chars().count();
        if chars > MAX_TITLE_CHARS {
            diags.push(
                Diagnostic::warning(
                    &e.path,
                    e.locator.key("title").0,
                    1,
                    format!("the title is {chars} characters long (more than {MAX_TITLE_CHARS})"),
                )
                .with_hint("shorten it; put the details in the body"),
            );
        }
    }
}

/// Checks what only the whole book can tell: duplicate ids, related ids, connectors and
/// kinds, output paths and aliases; then the consistency warnings of `lint_book`.
pub(super) fn validate_book(book: &Book, config: &Config, diags: &mut Vec<Diagnostic>) {
    let mut first_by_id: HashMap<&str, &Entry> = HashMap::new();
    for e in &book.entries {
        if let Some(prev) = first_by_id.get(e.id.as_str()) {
            diags.push(
                Diagnostic::error(
                    &e.path,
                    e.locator.key("id").0,
                    1,
                    format!(
                        "duplicate id `{}`: {} uses it too",
                        e.id,
                        prev.path.display()
                    ),
                )
                .with_hint(
                    "ids are unique across the book: rename one (set `id:` or rename the file)",
                ),
            );
        } else {
            first_by_id.insert(&e.id, e);
        }
    }
    lint_book(book, &first_by_id, &crate::date::today(), diags);
    let ids: Vec<&str> = first_by_id.keys().copied().collect();
    let known_connectors = config.connector_slugs();
    let mut outputs: BTreeMap<String, &Path> = BTreeMap::new();
    // Pages written by plain aliases, and anchored aliases with the page they redirect from.
    let mut alias_pages: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut anchored: Vec<(String, &Entry, usize)> = Vec::new();
    for p in urls::RESERVED_PATHS {
        outputs.insert(p.to_string(), Path::new("(kbook)"));
    }
    for c in entries_connectors(book) {
        outputs.insert(urls::connector_page(c), Path::new("(kbook)"));
    }
    for e in &book.entries {
        // A known connector may still be the wrong one: entries live at
        // `<connector>/<id>.md`, and one in another connector's folder was most likely copied
        // from there with its `connector:` left as it was.
        if !known_connectors.is_empty()
            && !e.fm.connector.is_empty()
            && !known_connectors.contains(&e.fm.connector.as_str())
        {
            let hint = match did_you_mean(&e.fm.connector, known_connectors.iter().copied()) {
                Some(s) => {
                    format!("did you mean `{s}`? Or add it to [[kbook.connectors]] in book.toml")
                }
                None => "add it to [[kbook.connectors]] in book.toml".to_string(),
            };
            diags.push(
                Diagnostic::error(
                    &e.path,
                    e.locator.key("connector").0,
                    e.locator.value("connector", &e.fm.connector).1,
                    format!("unknown connector `{}`", e.fm.connector),
                )
                .with_hint(hint),
            );
        } else if let Some((folder, _)) = e.rel_path.split_once('/')
            && !e.fm.connector.is_empty()
            && folder != e.fm.connector
        {
            let (line, col) = e.locator.value("connector", &e.fm.connector);
            diags.push(
                Diagnostic::warning(
                    &e.path,
                    line,
                    col,
                    format!(
                        "the entry is in the folder `{folder}` but names connector `{}`, whose page lists it",
                        e.fm.connector
                    ),
                )
                .with_hint(format!(
                    "move the file to content/{}/, or set `connector: {folder}`",
                    e.fm.connector
                )),
            );
        }
        for r in &e.fm.related {
            let (line, col) = e.locator.value("related", r);
            if r == &e.id {
                diags.push(
                    Diagnostic::warning(
                        &e.path,
                        line,
                        col,
                        format!("`related` lists the entry itself (`{r}`)"),
                    )
                    .with_hint("remove it"),
                );
            } else if !first_by_id.contains_key(r.as_str()) && !book.unread.contains(r) {
                let hint = match did_you_mean(r, ids.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "list the id of an existing entry".to_string(),
                };
                diags.push(
                    Diagnostic::error(
                        &e.path,
                        line,
                        col,
                        format!("`related` names an unknown entry `{r}`"),
                    )
                    .with_hint(hint),
                );
            }
        }
        if e.fm.kind == "error" && e.fm.errors.is_empty() {
            diags.push(
                Diagnostic::warning(&e.path, e.locator.key("kind").0, 1, "an entry of kind `error` has no `errors`")
                    .with_hint("add the verbatim error text under `errors:` so people who paste it find this entry"),
            );
        }
        if !e.fm.connector.is_empty() {
            claim(
                &mut outputs,
                diags,
                e,
                e.url.clone(),
                "this entry",
                e.locator.key("id").0.max(1),
            );
        }
        for a in &e.fm.aliases {
            let (line, col) = e.locator.value("aliases", a);
            let Some(out) = urls::alias_page(a) else {
                let hint = if a.split(['/', '#']).next().is_some_and(|s| s.contains(':')) {
                    "an alias is an old address of this site, written from its root, e.g. `old/entry-name.html`"
                } else if a.contains('?') {
                    "a static host serves a page whatever its query: drop the `?…` part"
                } else {
                    "write it relative to the site root, e.g. `old/entry-name.html`"
                };
                diags.push(
                    Diagnostic::error(
                        &e.path,
                        line,
                        col,
                        format!("alias `{a}` is not a path inside the site"),
                    )
                    .with_hint(hint),
                );
                continue;
            };
            match urls::alias_anchor(a) {
                None => {
                    alias_pages.insert(out.clone());
                    claim(&mut outputs, diags, e, out, "an alias", line);
                }
                // Aliases with anchors share their page: each anchor is claimed once.
                Some(anchor) => {
                    claim(
                        &mut outputs,
                        diags,
                        e,
                        format!("{out}#{anchor}"),
                        "an alias",
                        line,
                    );
                    anchored.push((out, e, line));
                }
            }
        }
    }
    // A page of anchored aliases is a redirect page: no entry or listing may write it.
    for (out, e, line) in anchored {
        if let Some(prev) = outputs.get(&out)
            && !alias_pages.contains(&out)
        {
            diags.push(
                Diagnostic::error(
                    &e.path,
                    line,
                    1,
                    format!(
                        "an alias redirects from `{out}`, which {} writes as a page",
                        prev.display()
                    ),
                )
                .with_hint("an alias must name an old address that no page of the book has"),
            );
        }
    }
}

/// Records that `e` writes `out`, reporting a collision with an earlier writer.
fn claim<'a>(
    outputs: &mut BTreeMap<String, &'a Path>,
    diags: &mut Vec<Diagnostic>,
    e: &'a Entry,
    out: String,
    what: &str,
    line: usize,
) {
    if let Some(dir) = urls::RESERVED_DIRS.iter().find(|d| {
        out.strip_prefix(**d)
            .is_some_and(|rest| rest.starts_with('/'))
    }) {
        diags.push(
            Diagnostic::error(
                &e.path,
                line,
                1,
                format!("{what} writes `{out}`, inside `{dir}/`, where kbook writes its own files"),
            )
            .with_hint(format!(
                "`{}/` hold the site's search and theme files: choose a path outside them",
                urls::RESERVED_DIRS.join("/` and `")
            )),
        );
    } else if let Some(prev) = outputs.get(&out) {
        diags.push(
            Diagnostic::error(
                &e.path,
                line,
                1,
                format!("{what} writes `{out}`, which {} writes too", prev.display()),
            )
            .with_hint("two pages cannot share an output path: change the id, connector or alias"),
        );
    } else {
        outputs.insert(out, &e.path);
    }
}

fn entries_connectors(book: &Book) -> Vec<&str> {
    let mut c: Vec<&str> = book
        .entries
        .iter()
        .map(|e| e.fm.connector.as_str())
        .filter(|c| !c.is_empty())
        .collect();
    c.dedup();
    c
}
