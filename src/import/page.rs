//! One source page → entry drafts: front-matter mapped, syntax converted, FAQ pages split.

use super::front_matter::{split_front, strings};
use super::source::{Generator, SourcePage, SourceTree};
use super::{ImportReport, Leftover, Proposal, errors, faq, syntax};

/// An entry before it has an id (ids are made unique across the whole book when written).
#[derive(Debug, Clone)]
pub struct Draft {
    /// Title.
    pub title: String,
    /// The page's top-level directory (the connector), empty at the top.
    pub section: String,
    /// Kind.
    pub kind: String,
    /// Proposed error texts, with where each was found.
    pub errors: Vec<(String, String)>,
    /// Tags (slugs).
    pub tags: Vec<String>,
    /// `YYYY-MM-DD`.
    pub updated: Option<String>,
    /// Old paths that should redirect here.
    pub aliases: Vec<String>,
    /// Markdown body.
    pub body: String,
    /// `file:line` of the source.
    pub source: String,
    /// The source file as reported, and the line of the body's first line in it (for the
    /// lines of what the body's links and images report).
    pub body_at: (String, usize),
    /// A base for the id when the title has no ASCII words (the file stem).
    pub stem: String,
    /// `page/#anchor` for a FAQ question.
    pub old_anchor: Option<String>,
    /// Whether it came from a FAQ split.
    pub from_faq: bool,
    /// For a section index page: the section's name.
    pub names_section: Option<String>,
    /// The source page below the pages directory (for links between pages).
    pub page: String,
    /// The question's anchor on that page.
    pub anchor: Option<String>,
}

/// Front-matter keys mapped to kbook's fields; every other key is reported as dropped.
const TITLE_KEYS: [&str; 1] = ["title"];
const TAG_KEYS: [&str; 3] = ["tags", "keywords", "categories"];
const DATE_KEYS: [&str; 4] = ["lastmod", "updated", "last_update", "date"];

/// Reads one page into drafts, reporting what it cannot carry over.
pub fn read(
    text: &str,
    rel: &str,
    page: &SourcePage,
    from: Generator,
    tree: &SourceTree,
    report: &mut ImportReport,
) -> Vec<Draft> {
    let (front, body, body_line) = split_front(text, rel, report);
    let converted = syntax::convert(from, body, &page.path, tree, rel, body_line);
    report.converted += converted.converted;
    report.unconverted.extend(converted.unconverted);
    report.included.extend(converted.included);
    // HTML comments (licence headers, editor notes) are not shown by any generator.
    let mut body = without_html_comments(&converted.text);
    // An MDX page that only shows other pages' content (`<Content />`) would be an empty
    // entry; what it shows is imported where it is written.
    if from == Generator::Docusaurus && only_components(&body) {
        // Its components are not kept anywhere, so not reported as kept.
        let here = format!("{rel}:");
        report
            .unconverted
            .retain(|l| !(l.at.starts_with(&here) && l.what.starts_with("MDX component")));
        report.notes.push(Leftover {
            at: format!("{rel}:{body_line}"),
            what: "the page only shows MDX components (such as `<Content />` of an imported \
                   page): no entry of its own; the pages it imports are imported as they are"
                .into(),
        });
        return Vec::new();
    }

    let mut title = front.as_ref().and_then(|f| {
        TITLE_KEYS
            .iter()
            .find_map(|k| super::source::str_at(f, &[k]))
    });
    // A leading `# Title` is the page title: taken out of the body either way.
    if let Some((h1, rest)) = leading_h1(&body) {
        title.get_or_insert(h1);
        body = rest;
    }
    // The title is the page's one level-1 heading: sections written as `#` go one level down.
    if let Some(demoted) = demote_headings(&body) {
        body = demoted;
    }
    let stem = page_stem(&page.rel);
    let title = title
        .or_else(|| page.nav_title.clone())
        .unwrap_or_else(|| humanize(&stem));
    let mut tags = Vec::new();
    let mut updated = None;
    let mut aliases = Vec::new();
    if let Some(serde_json::Value::Object(map)) = &front {
        for (key, value) in map {
            let at = format!("{rel}:{}", key_line(text, key));
            if TITLE_KEYS.contains(&key.as_str()) {
                continue;
            } else if TAG_KEYS.contains(&key.as_str()) {
                for t in strings(value) {
                    match ascii_slug(&t, 40) {
                        Some(s) if !tags.contains(&s) => tags.push(s),
                        Some(_) => {}
                        None => report.dropped_keys.push(Leftover {
                            at: at.clone(),
                            what: format!(
                                "{key}: `{t}` has no ASCII letters or digits for a tag slug"
                            ),
                        }),
                    }
                }
            } else if DATE_KEYS.contains(&key.as_str()) {
                let date = value
                    .get("date")
                    .unwrap_or(value)
                    .as_str()
                    .map(str::to_string)
                    .filter(|d| is_date(d.get(..10).unwrap_or("")));
                match date {
                    Some(d) => {
                        let d = d[..10].to_string();
                        if updated.as_ref().is_none_or(|u| &d > u) {
                            updated = Some(d);
                        }
                    }
                    None => report.dropped_keys.push(Leftover {
                        at,
                        what: format!("{key}: not a YYYY-MM-DD date"),
                    }),
                }
            } else if key == "taxonomies" && value.is_object() {
                // Zola keeps tags under [taxonomies]; every taxonomy's terms become tags.
                for t in value
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.values())
                    .flat_map(strings)
                {
                    if let Some(s) = ascii_slug(&t, 40).filter(|s| !tags.contains(s)) {
                        tags.push(s);
                    }
                }
            } else if key == "aliases" || key == "redirect_from" {
                aliases.extend(
                    strings(value)
                        .iter()
                        .map(|a| a.trim_start_matches('/').to_string()),
                );
            } else {
                report.dropped_keys.push(Leftover {
                    at,
                    what: format!("{key}: {}", dropped_reason(key)),
                });
            }
        }
    }
    let section = tree.section_of(&page.rel).to_string();
    let old_path =
        old_path(from, &page.rel, front.as_ref()).map(|p| format!("{}{p}", tree.url_prefix));
    // The addresses the site redirected to this page (mdBook's `[output.html.redirect]`).
    let redirected: Vec<String> = old_path
        .as_ref()
        .and_then(|p| tree.redirects.get(p))
        .cloned()
        .unwrap_or_default();
    let page_aliases: Vec<String> = old_path.iter().cloned().chain(redirected).collect();
    let base = Draft {
        title: title.clone(),
        section: section.clone(),
        kind: String::new(),
        errors: Vec::new(),
        tags,
        updated,
        aliases,
        body: String::new(),
        source: format!("{rel}:{body_line}"),
        body_at: (rel.to_string(), body_line),
        stem: stem.clone(),
        old_anchor: None,
        from_faq: false,
        names_section: None,
        page: page.rel.clone(),
        anchor: None,
    };

    // A section's index page may be its FAQ (`content/faq/_index.md`): split like any page.
    let mut faq = faq::split(&body, faq::named_faq(&page.rel, &title));
    if from == Generator::Mkdocs
        && let Some(split) = faq.as_mut()
    {
        faq::use_mkdocs_anchors(&body, split);
    }
    // Only the section's own `_index.md` names it (not those of its subsections).
    let names_section = page.section_index && {
        let below = page
            .rel
            .strip_prefix(tree.section_prefix.as_str())
            .unwrap_or(&page.rel);
        below == format!("{section}/_index.md")
    };
    if page.section_index && faq.is_none() {
        let mut d = base.clone();
        if names_section {
            d.names_section = Some(title.clone());
        }
        if body.trim().is_empty() {
            // Only the section's name: no entry.
            return vec![d];
        }
        d.kind = "concept".into();
        d.body = body;
        d.aliases.extend(page_aliases);
        d.errors = errors::propose(&d.title, &[], &d.body, rel, (body_line, body_line));
        return vec![d];
    }

    if let Some(split) = faq {
        report.faq_pages += 1;
        report.faq_entries += split.questions.len();
        let mut out = Vec::new();
        let intro_words = split.intro.split_whitespace().count();
        if intro_words > 0 {
            let mut d = base.clone();
            d.kind = kind_of(&d.title, &page.rel);
            d.body = split.intro.clone();
            d.aliases.extend(page_aliases.clone());
            d.source = format!("{rel}:{body_line}");
            out.push(d);
        }
        for q in split.questions {
            let line = body_line + q.line - 1;
            let mut d = base.clone();
            d.title = q.title.clone();
            d.kind = kind_of(&q.title, "");
            // Links to the question on the old page (`faq/#q2`) redirect to its entry; the
            // old page itself goes to its introduction, else to its first question (the
            // page's own aliases with it).
            let first = out.is_empty();
            if !first {
                d.aliases.clear();
            }
            d.aliases
                .extend(old_path.iter().map(|p| format!("{p}#{}", q.anchor)));
            if first {
                d.aliases.extend(page_aliases.clone());
            }
            // The heading a question is grouped under (`## MySQL CDC FAQ`) becomes a tag.
            if let Some(tag) = q.group.as_deref().and_then(|g| ascii_slug(g, 40))
                && !d.tags.contains(&tag)
            {
                d.tags.push(tag);
            }
            let answer_line = body_line + q.body_line - 1;
            d.errors = errors::propose(
                &q.title_quoting,
                &q.title_code,
                &q.body,
                rel,
                (line, answer_line),
            );
            d.body_at = (rel.to_string(), answer_line);
            d.old_anchor = old_path.as_ref().map(|p| format!("{p}#{}", q.anchor));
            d.anchor = Some(q.anchor.clone());
            d.source = format!("{rel}:{line}");
            d.from_faq = true;
            if q.body.trim().is_empty() {
                report.notes.push(Leftover {
                    at: format!("{rel}:{line}"),
                    what: format!(
                        "the question `{}` has no answer below it: not imported",
                        q.title
                    ),
                });
                continue;
            }
            d.body = q.body;
            out.push(d);
        }
        if names_section {
            // The section's name, and no entry of its own.
            let mut d = base;
            d.names_section = Some(title);
            out.push(d);
        }
        return out;
    }

    let mut d = base;
    d.kind = kind_of(&d.title, &page.rel);
    d.errors = errors::propose(&d.title, &[], &body, rel, (body_line, body_line));
    if body.trim().is_empty() {
        report.notes.push(Leftover {
            at: format!("{rel}:{body_line}"),
            what: "the page has no text below its title: not imported".into(),
        });
        return Vec::new();
    }
    d.body = body;
    d.aliases.extend(page_aliases);
    vec![d]
}

/// Whether a page's text is only MDX component tags (`<Content />`), with at most a `<head>`
/// block and other tags around them: nothing a reader would read.
fn only_components(body: &str) -> bool {
    let mut components = 0;
    let mut in_head = false;
    for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if in_head || line.starts_with("<head") {
            in_head = !line.contains("</head>");
            continue;
        }
        if !(line.starts_with('<') && line.ends_with('>')) {
            return false;
        }
        if line[1..].starts_with(|c: char| c.is_ascii_uppercase()) {
            components += 1;
        }
    }
    components > 0
}

/// The text without `<!-- … -->` comments (outside code, as pulldown-cmark reads them: whole
/// HTML blocks or inline HTML that is only a comment).
fn without_html_comments(body: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let mut cuts: Vec<std::ops::Range<usize>> = Vec::new();
    // No `-->` at or after this offset: the lines of an unclosed comment do not each search
    // the rest of the page for one.
    let mut no_close_from = body.len() + 1;
    for (event, range) in Parser::new(body).into_offset_iter() {
        // (An event inside the last cut is already cut.)
        if cuts.last().is_some_and(|c| range.start < c.end) {
            continue;
        }
        if let Event::Html(h) | Event::InlineHtml(h) = &event
            && h.trim_start().starts_with("<!--")
        {
            // A comment block's event may stop before its `-->`: cut to the close. A block
            // never closed is a comment to the page's end, as the old site showed it (none).
            let close = (range.start < no_close_from)
                .then(|| body[range.start..].find("-->"))
                .flatten();
            if close.is_none() {
                no_close_from = no_close_from.min(range.start);
            }
            let unclosed_end = match event {
                Event::Html(_) => body.len(),
                _ => range.end,
            };
            let end = close
                .map_or(unclosed_end, |c| range.start + c + 3)
                .max(range.end);
            cuts.push(range.start..end);
        }
    }
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for cut in cuts {
        if cut.start >= last {
            out.push_str(&body[last..cut.start]);
            last = cut.end.min(body.len());
            // Its lines stay, empty: what is reported later names the source's lines.
            out.push_str(&"\n".repeat(body[cut.start..last].matches('\n').count()));
        }
    }
    out.push_str(&body[last..]);
    out
}

/// The line a top-level front-matter key is on (1 when it cannot be found).
fn key_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with([':', '=']))
        })
        .map_or(1, |i| i + 1)
}

/// Proposed errors go to the report as they are written (see `write`).
pub fn proposals(id: &str, d: &Draft) -> Vec<Proposal> {
    d.errors
        .iter()
        .map(|(text, at)| Proposal {
            entry: id.to_string(),
            text: text.clone(),
            at: at.clone(),
        })
        .collect()
}

/// Why a key is not carried over.
fn dropped_reason(key: &str) -> &'static str {
    match key {
        "weight" | "sidebar_position" | "nav_order" | "order" => {
            "no page order in kbook (entries are listed by title)"
        }
        "slug" | "url" | "id" | "permalink" => {
            "kbook makes ids from titles; the old address becomes an alias where known"
        }
        "description" | "summary" => {
            "no description field (the body's first lines are the summary)"
        }
        "draft" => {
            "drafts are imported like any page; delete the entry if it should not be published"
        }
        _ => "no equivalent in kbook",
    }
}

/// A `# Title` on the first non-blank line (outside code), and the body without it.
/// `body` with every ATX heading one level deeper (`#` → `##`, down to `######`), when it
/// has a level-1 heading outside code fences; `None` when it has none.
fn demote_headings(body: &str) -> Option<String> {
    let mut fence: Option<&str> = None;
    let mut any = false;
    let mut out = String::with_capacity(body.len() + 16);
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(' ');
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if m == open => fence = None,
            _ => {}
        }
        let indent = line.len() - trimmed.len();
        if fence.is_none() && marker.is_none() && indent < 4 {
            let hashes = trimmed.bytes().take_while(|&b| b == b'#').count();
            let after = trimmed.as_bytes().get(hashes);
            if (1..6).contains(&hashes)
                && matches!(after, Some(b' ' | b'\t' | b'\n' | b'\r') | None)
            {
                any |= hashes == 1;
                out.push_str(&line[..indent]);
                out.push('#');
                out.push_str(trimmed);
                continue;
            }
        }
        out.push_str(line);
    }
    any.then_some(out)
}

fn leading_h1(body: &str) -> Option<(String, String)> {
    let mut offset = 0;
    let mut lines = body.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t.is_empty() {
            offset += line.len();
            continue;
        }
        // `# Title`, or `Title` over a line of `=` (a setext heading).
        let (title, used) = match t.strip_prefix("# ") {
            Some(atx) => (atx.trim().trim_end_matches('#').trim(), line.len()),
            None => {
                let under = lines.next()?;
                let u = under.trim();
                if u.is_empty() || !u.bytes().all(|b| b == b'=') || under.starts_with("    ") {
                    return None;
                }
                (t, line.len() + under.len())
            }
        };
        let title = title.split(" {#").next().unwrap_or(title).trim();
        if title.is_empty() {
            return None;
        }
        // Its lines stay, empty: what is reported later names the source's lines.
        let taken = body[..offset + used].matches('\n').count();
        return Some((
            title.to_string(),
            "\n".repeat(taken) + &body[offset + used..],
        ));
    }
    None
}

/// The entry's kind, decided from its title (and the page's path): `howto` for "How do I …"
/// / "如何 …" or a path under a guide/how-to directory, `concept` for "What is …" / overview
/// pages, `error` for a title that quotes an error (troubleshooting when no error text is
/// proposed from it), else `troubleshooting`.
pub fn kind_of(title: &str, rel: &str) -> String {
    let t = title.trim().to_lowercase();
    let path = rel.to_lowercase();
    let starts = |ps: &[&str]| ps.iter().any(|p| t.starts_with(p));
    let kind = if errors::looks_like_error(title) {
        "error"
    } else if starts(&[
        "how to ",
        "how do ",
        "how can ",
        "how should ",
        "如何",
        "怎么",
        "怎样",
    ]) || ["how-to", "howto", "guide", "tutorial"]
        .iter()
        .any(|p| path.contains(p))
    {
        "howto"
    } else if starts(&[
        "what is ",
        "what are ",
        "什么是",
        "overview",
        "introduction",
        "about ",
    ]) || ["concept", "overview", "intro"]
        .iter()
        .any(|p| path.contains(p))
    {
        "concept"
    } else {
        "troubleshooting"
    };
    kind.to_string()
}

/// Where the page was served before, as a path below the site root (an alias for the entry).
fn old_path(from: Generator, rel: &str, front: Option<&serde_json::Value>) -> Option<String> {
    let stem = rel
        .strip_suffix(".mdx")
        .or_else(|| rel.strip_suffix(".md"))
        .unwrap_or(rel);
    let dir_page = |s: &str| {
        let s = s
            .strip_suffix("/_index")
            .or_else(|| s.strip_suffix("/index"))
            .unwrap_or(s);
        (!matches!(s, "_index" | "index" | "README")).then(|| format!("{s}/"))
    };
    let field = |key: &str| front.and_then(|f| super::source::str_at(f, &[key]));
    // A page's `slug` replaces the last part of its path.
    let with_slug = |path: Option<String>| match (path, field("slug")) {
        (Some(p), Some(slug)) if !slug.trim_matches('/').is_empty() => {
            let dir = p.trim_end_matches('/').rsplit_once('/').map(|(d, _)| d);
            let slug = slug.trim_matches('/');
            Some(dir.map_or_else(|| format!("{slug}/"), |d| format!("{d}/{slug}/")))
        }
        (p, _) => p,
    };
    match from {
        // Hugo's `url` and Zola's `path` give the whole address.
        Generator::Hugo | Generator::Zola => {
            let whole = field(if from == Generator::Hugo {
                "url"
            } else {
                "path"
            });
            match whole.as_deref().map(|u| u.trim_matches('/')) {
                Some(u) if !u.is_empty() && u.ends_with(".html") => Some(u.to_string()),
                Some(u) if !u.is_empty() => Some(format!("{u}/")),
                _ => with_slug(dir_page(stem)),
            }
        }
        Generator::Mkdocs => dir_page(stem),
        Generator::Docusaurus => match field("slug") {
            Some(s) => Some(format!("docs/{}/", s.trim_matches('/'))),
            // An `id` names the page in place of its file name.
            None => match field("id") {
                Some(id) if !id.trim().is_empty() && !id.contains('/') => {
                    let dir = stem.rsplit_once('/').map(|(d, _)| d);
                    Some(dir.map_or_else(
                        || format!("docs/{}/", id.trim()),
                        |d| format!("docs/{d}/{}/", id.trim()),
                    ))
                }
                _ => dir_page(stem).map(|p| format!("docs/{p}")),
            },
        },
        // mdBook serves a folder's README.md as its index.html.
        Generator::Mdbook => match stem.strip_suffix("/README") {
            Some(dir) => Some(format!("{dir}/index.html")),
            None => (!stem.ends_with("README") && stem != "index").then(|| format!("{stem}.html")),
        },
    }
}

/// The file name without extension (for `_index.md`/`index.md`, the directory's name).
fn page_stem(rel: &str) -> String {
    let mut parts: Vec<&str> = rel.split('/').collect();
    let file = parts.pop().unwrap_or(rel);
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    if matches!(stem, "_index" | "index" | "README") {
        return parts.last().map_or(stem, |d| d).to_string();
    }
    stem.to_string()
}

/// `kafka-offsets` → `Kafka offsets`.
fn humanize(stem: &str) -> String {
    let s = stem.replace(['-', '_'], " ");
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => "Untitled".into(),
    }
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// A slug of ASCII letters and digits (`None` when the text has none), cut at a word
/// boundary near `max` characters.
pub fn ascii_slug(text: &str, max: usize) -> Option<String> {
    let mut s = String::new();
    let mut dash = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if dash && !s.is_empty() {
                if s.len() >= max {
                    break;
                }
                s.push('-');
            }
            dash = false;
            s.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    (!s.is_empty()).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_titles_and_slugs() {
        assert_eq!(kind_of("How do I reset offsets?", ""), "howto");
        assert_eq!(kind_of("如何重置位点？", ""), "howto");
        assert_eq!(kind_of("What is a checkpoint?", ""), "concept");
        assert_eq!(kind_of("Why are rows duplicated?", ""), "troubleshooting");
        assert_eq!(
            kind_of(
                "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver",
                ""
            ),
            "error"
        );
        assert_eq!(kind_of("Setup", "guides/setup.md"), "howto");
        assert_eq!(
            ascii_slug("Why does `SELECT *` fail?", 60).as_deref(),
            Some("why-does-select-fail")
        );
        assert_eq!(ascii_slug("为什么作业重启", 60), None);
        assert_eq!(
            ascii_slug("one two three four", 7).as_deref(),
            Some("one-two")
        );
        assert_eq!(
            leading_h1("\n# FAQ {#faq}\n\ntext\n"),
            // The title's lines stay, empty: reports name the source's lines.
            Some(("FAQ".into(), "\n\n\ntext\n".into()))
        );
        assert_eq!(leading_h1("text\n# Late\n"), None);
        // Sections written as `#` go one level down; code is left alone.
        assert_eq!(
            demote_headings("# Parameters\ntext\n## Sub\n```\n# comment\n```\n###### Deep\n")
                .as_deref(),
            Some("## Parameters\ntext\n### Sub\n```\n# comment\n```\n###### Deep\n")
        );
        assert_eq!(demote_headings("## Only\ntext\n"), None);
        // A setext heading too; `---` under a line is an H2, not the title.
        assert_eq!(
            leading_h1("Setext title\n====\n\nBody.\n"),
            Some(("Setext title".into(), "\n\n\nBody.\n".into()))
        );
        assert_eq!(leading_h1("Section\n---\n\nBody.\n"), None);
        assert_eq!(leading_h1("Just text.\nMore text.\n"), None);
        assert_eq!(page_stem("kafka/_index.md"), "kafka");
        assert_eq!(humanize("kafka-offsets"), "Kafka offsets");
        assert_eq!(
            without_html_comments(
                "<!--\nLicensed to …\n\n  more\n-->\n## Q\n\nText <!-- note --> here\n\n```\n<!-- kept -->\n```\n"
            ),
            // The comment's lines stay, empty: `## Q` is still on line 6.
            "\n\n\n\n\n## Q\n\nText  here\n\n```\n<!-- kept -->\n```\n"
        );
        // A comment never closed hides the rest of the page; an inline `<!--` without its
        // `-->` is text.
        assert_eq!(
            without_html_comments("## Q\n\nA <!-- b\n\n<!-- draft\n\nnot done\n"),
            "## Q\n\nA <!-- b\n\n\n\n\n"
        );
        assert_eq!(key_line("---\ntitle: x\nweight = 3\n---\n", "weight"), 3);
        assert!(only_components(
            "\n<head>\n  <link rel=\"canonical\" href=\"https://x.org/\" />\n</head>\n\n<Content />\n"
        ));
        assert!(!only_components("<Content />\n\nSome words.\n"));
        assert!(!only_components("<div>\n</div>\n"));
    }

    #[test]
    fn old_paths_follow_each_generator() {
        assert_eq!(
            old_path(Generator::Hugo, "faq/kafka.md", None).as_deref(),
            Some("faq/kafka/")
        );
        assert_eq!(
            old_path(Generator::Mdbook, "faq/kafka.md", None).as_deref(),
            Some("faq/kafka.html")
        );
        assert_eq!(old_path(Generator::Mdbook, "README.md", None), None);
        assert_eq!(
            old_path(Generator::Docusaurus, "faq/kafka.mdx", None).as_deref(),
            Some("docs/faq/kafka/")
        );
        assert_eq!(
            old_path(Generator::Zola, "faq/_index.md", None).as_deref(),
            Some("faq/")
        );
        assert_eq!(old_path(Generator::Zola, "_index.md", None), None);
        // The address a page's front-matter gives.
        let front = |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap();
        let at = |from, rel, json: &str| old_path(from, rel, Some(&front(json)));
        assert_eq!(
            at(
                Generator::Hugo,
                "guides/bundle/index.md",
                r#"{"url": "/setup/"}"#
            )
            .as_deref(),
            Some("setup/")
        );
        assert_eq!(
            at(Generator::Hugo, "guides/kafka.md", r#"{"slug": "lag"}"#).as_deref(),
            Some("guides/lag/")
        );
        assert_eq!(
            at(Generator::Zola, "ops/a.md", r#"{"path": "old/place"}"#).as_deref(),
            Some("old/place/")
        );
        assert_eq!(
            at(
                Generator::Docusaurus,
                "guides/errors.md",
                r#"{"id": "common-errors"}"#
            )
            .as_deref(),
            Some("docs/guides/common-errors/")
        );
        assert_eq!(
            old_path(Generator::Mdbook, "errors/README.md", None).as_deref(),
            Some("errors/index.html")
        );
    }

    #[test]
    fn front_matter_in_yaml_and_toml_with_dates() {
        let mut report = ImportReport::default();
        let (f, body, line) = split_front(
            "+++\ntitle = \"T\"\ndate = 2024-03-01\n+++\nbody\n",
            "a.md",
            &mut report,
        );
        let f = f.unwrap();
        assert_eq!(f["date"], "2024-03-01");
        assert_eq!((body, line), ("body\n", 5));
        let (f, _, _) = split_front("---\ntitle: [unclosed\n---\nx\n", "b.md", &mut report);
        assert!(f.is_none());
        assert!(
            report
                .unreadable
                .iter()
                .any(|u| u.starts_with("b.md:2:8: front-matter cannot be read")),
            "{:?}",
            report.unreadable
        );
    }
}
