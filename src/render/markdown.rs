//! Markdown to HTML: pulldown-cmark with GitHub extensions, heading ids with anchor links,
//! admonitions, build-time syntax highlighting (CSS classes, so both themes work), and
//! internal `.md` links rewritten to relative `.html` paths and checked.

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::html::escape;
use crate::render::links::{
    LinkTargets, is_unsafe_scheme, missing_static_warning, resolve_link, unserved_link_warning,
};
use crate::render::raw_html::{RawHtml, raw_html_links, raw_link, removed_by_sanitizer, sanitizer};
use crate::urls::slugify;
use arborium::{GrammarStore, Highlighter, HtmlFormat};
use pulldown_cmark::{
    BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd,
};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

/// CSS class prefix of highlighted tokens (`hl-keyword`, …), without its dash.
pub const CLASS_PREFIX: &str = "hl";

/// The largest code block a grammar highlights; a larger one is shown plain. A grammar
/// recovering from text it cannot parse takes time that grows with the square of the block
/// (a 32 KB line of something else in a ```` ```go ```` block: 0.2 s; ten times more: 14 s).
const MAX_PARSED_BLOCK: usize = 32 * 1024;

/// Markdown extensions kbook enables.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_GFM
}

/// One heading for the on-page table of contents.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TocItem {
    /// 1, 2 or 3 (`#` to `###`).
    pub level: u8,
    /// Anchor id.
    pub id: String,
    /// Plain text.
    pub text: String,
}

/// A rendered body.
#[derive(Debug, Clone, Default)]
pub struct RenderedBody {
    /// HTML.
    pub html: String,
    /// Headings for the table of contents.
    pub toc: Vec<TocItem>,
    /// Plain prose text (no code), for the search index.
    pub text: String,
    /// Text of the code blocks, for the search index.
    pub code: String,
    /// The ids of the headings marked in `text`, in order (the search links a passage's
    /// section with them).
    pub anchors: Vec<String>,
}

/// The compiled grammars, shared by every renderer and thread: a grammar is compiled the
/// first time a block of its language is highlighted, once per process.
fn grammars() -> Arc<GrammarStore> {
    static GRAMMARS: std::sync::OnceLock<Arc<GrammarStore>> = std::sync::OnceLock::new();
    GRAMMARS.get_or_init(Arc::default).clone()
}

/// A heading being collected: level, explicit id, classes, inner events, plain text.
type OpenHeading<'a> = (
    HeadingLevel,
    Option<String>,
    Vec<String>,
    Vec<Event<'a>>,
    String,
);

/// Renders bodies: the grammars for highlighting, the raw-HTML policy, the highlight cache.
pub struct MarkdownRenderer {
    grammars: Arc<GrammarStore>,
    raw_html: RawHtml,
    highlights: Option<Arc<HighlightCache>>,
    /// The accessible name of a heading's `#` link, in the book's language.
    anchor_label: String,
    /// The titles of GitHub's alerts (`> [!NOTE]` …), in the book's language, in the order
    /// of [`ALERT_KINDS`].
    alert_titles: [String; 5],
}

/// The alerts' kinds: their class, and the key of their title among the book's strings.
pub const ALERT_KINDS: [(&str, &str); 5] = [
    ("note", "alert_note"),
    ("tip", "alert_tip"),
    ("important", "alert_important"),
    ("warning", "alert_warning"),
    ("caution", "alert_caution"),
];

/// Highlighted code blocks of each entry, kept across the rebuilds of `kbook serve`: an
/// edit renders its entry's body again, and the code blocks the edit did not touch are not
/// highlighted again. (A one-shot build goes without: neither the bundled book nor the
/// bench's generated ones repeat a code block.)
#[derive(Debug, Default)]
pub struct HighlightCache {
    /// Entry (content path) → its blocks: (language, code) → HTML.
    entries: Mutex<HashMap<String, Blocks>>,
}

type Blocks = HashMap<(String, String), Arc<str>>;

impl HighlightCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Blocks>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps only the entries at `paths` (the others were removed or renamed).
    pub fn retain(&self, paths: &HashSet<&str>) {
        self.lock().retain(|p, _| paths.contains(p.as_str()));
    }

    /// Code blocks held.
    pub fn len(&self) -> usize {
        self.lock().values().map(HashMap::len).sum()
    }

    /// Whether no code block is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for MarkdownRenderer {
    fn default() -> Self {
        Self::new()
    }
}

impl MarkdownRenderer {
    /// A renderer sharing the process's compiled grammars.
    pub fn new() -> Self {
        MarkdownRenderer {
            grammars: grammars(),
            raw_html: RawHtml::default(),
            highlights: None,
            anchor_label: "Link to this section".into(),
            alert_titles: ["Note", "Tip", "Important", "Warning", "Caution"].map(String::from),
        }
    }

    /// This renderer, titling alerts with `titles` (in the order of [`ALERT_KINDS`]).
    pub fn with_alert_titles(self, titles: [String; 5]) -> Self {
        MarkdownRenderer {
            alert_titles: titles,
            ..self
        }
    }

    /// This renderer, naming headings' `#` links `label`.
    pub fn with_anchor_label(self, label: &str) -> Self {
        MarkdownRenderer {
            anchor_label: label.into(),
            ..self
        }
    }

    /// This renderer, reusing and filling `cache` for highlighted code.
    pub fn with_highlight_cache(self, cache: Arc<HighlightCache>) -> Self {
        MarkdownRenderer {
            highlights: Some(cache),
            ..self
        }
    }

    /// A renderer with the given raw-HTML policy.
    pub fn with_raw_html(raw_html: RawHtml) -> Self {
        MarkdownRenderer {
            raw_html,
            ..MarkdownRenderer::new()
        }
    }

    /// Heading ids of a body, in order (used to check `#anchor` links before rendering).
    pub fn heading_ids(body: &str) -> HashSet<String> {
        Self::headings(body).into_iter().map(|(_, id)| id).collect()
    }

    /// Each heading of `body` in order: its text and the id its page gives it.
    pub fn headings(body: &str) -> Vec<(String, String)> {
        let mut used = page_ids();
        let mut ids = Vec::new();
        let mut in_heading: Option<(Option<String>, String)> = None;
        for ev in Parser::new_ext(body, options()) {
            match ev {
                Event::Start(Tag::Heading { id, .. }) => {
                    in_heading = Some((id.map(|s| s.to_string()), String::new()))
                }
                Event::Text(t) | Event::Code(t) => {
                    if let Some((_, text)) = in_heading.as_mut() {
                        text.push_str(&t);
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    if let Some((explicit, text)) = in_heading.take() {
                        let id = explicit.unwrap_or_else(|| unique_slug(&text, &mut used));
                        ids.push((text, id));
                    }
                }
                _ => {}
            }
        }
        ids
    }

    /// Renders `body` of the entry at content path `rel_path` whose page is `page_url`.
    /// Link problems are returned as diagnostics located in `file` (body starts at `body_line`).
    pub fn render(
        &self,
        body: &str,
        rel_path: &str,
        page_url: &str,
        targets: &LinkTargets,
        file: &Path,
        body_line: usize,
    ) -> (RenderedBody, Vec<Diagnostic>) {
        let mut out = RenderedBody::default();
        let mut diags = Vec::new();
        // This entry's highlighted blocks of the previous build, and those of this one.
        let mut previous = self
            .highlights
            .as_ref()
            .map(|c| c.lock().remove(rel_path).unwrap_or_default());
        let mut kept = self.highlights.as_ref().map(|_| Blocks::new());
        let own_ids = Self::heading_ids(body);
        let mut used = page_ids();
        // Ids given so far: an explicit `{#id}` may repeat one.
        let mut emitted_ids: HashSet<String> = HashSet::new();
        let mut events: Vec<Event<'_>> = Vec::new();
        let mut heading: Option<OpenHeading<'_>> = None;
        let mut code: Option<(String, String)> = None;
        let mut has_raw_html = false;
        // The lines of the raw HTML block being read. Its text is shown, so it is searched,
        // but with code's weight: in docs, raw HTML blocks are mostly tables of options
        // (name, type, default, description), whose words as prose let a long reference
        // page outrank the entry that answers (measured on the imported Flink CDC docs).
        let mut html_block: Option<String> = None;
        // Only problems ask for lines: the index is made for the first.
        let lines = std::cell::OnceCell::new();
        let at = |offset: usize| {
            let (l, c) = lines.get_or_init(|| LineIndex::new(body)).line_col(offset);
            (body_line + l - 1, c)
        };

        for (ev, range) in Parser::new_ext(body, options()).into_offset_iter() {
            // A plain blockquote whose first line reads like an admonition kbook lacks.
            if let Event::Start(Tag::BlockQuote(None)) = &ev
                && let Some(kind) = body[range.clone()]
                    .lines()
                    .next()
                    .map(|l| l.trim_start().trim_start_matches('>').trim_start())
                    .and_then(|l| l.strip_prefix("[!"))
                    .and_then(|r| r.split_once(']'))
                    .map(|(k, _)| k)
                    .filter(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_alphabetic()))
            {
                let (l, c) = at(range.start);
                diags.push(
                    Diagnostic::warning(file, l, c, format!("`[!{kind}]` is no admonition: it shows as text"))
                        .with_hint("the admonitions are [!NOTE], [!TIP], [!IMPORTANT], [!WARNING] and [!CAUTION]"),
                );
            }
            // The page shows the title as its one level-1 heading.
            if let Event::Start(Tag::Heading {
                level: pulldown_cmark::HeadingLevel::H1,
                ..
            }) = &ev
            {
                let (l, c) = at(range.start);
                diags.push(
                    Diagnostic::warning(file, l, c, "a level-1 heading in the body: the page already shows the title as its heading")
                        .with_hint("start the body's sections at `##`"),
                );
            }
            if let Some((lang, buf)) = code.as_mut() {
                match ev {
                    Event::Text(t) => buf.push_str(&t),
                    Event::End(TagEnd::CodeBlock) => {
                        let html = self.highlight_cached(buf, lang, &mut previous, &mut kept);
                        out.code.push_str(buf);
                        out.code.push('\n');
                        events.push(Event::Html(html.into()));
                        code = None;
                    }
                    _ => {}
                }
                continue;
            }
            let ev = match ev {
                Event::Start(Tag::CodeBlock(kind)) => {
                    let lang = match kind {
                        CodeBlockKind::Fenced(info) => info
                            .split([' ', ',', '{'])
                            .next()
                            .unwrap_or_default()
                            .to_ascii_lowercase(),
                        CodeBlockKind::Indented => String::new(),
                    };
                    code = Some((lang, String::new()));
                    continue;
                }
                Event::Start(Tag::Link {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => {
                    let dest = match resolve_link(&dest_url, rel_path, page_url, targets, &own_ids)
                    {
                        Ok(Some(new)) => CowStr::from(new),
                        Ok(None) => {
                            if let Some((msg, hint)) =
                                unserved_link_warning(&dest_url, page_url, targets)
                            {
                                let (l, c) = at(range.start);
                                diags.push(Diagnostic::warning(file, l, c, msg).with_hint(hint));
                            }
                            dest_url
                        }
                        Err((msg, hint)) => {
                            let (l, c) = at(range.start);
                            diags.push(Diagnostic::error(file, l, c, msg).with_hint(hint));
                            // The build fails, but never emit a script URL, even then
                            // (found by fuzzing: without raw HTML nothing sanitizes it).
                            if is_unsafe_scheme(&dest_url) {
                                CowStr::from("#")
                            } else {
                                dest_url
                            }
                        }
                    };
                    Event::Start(Tag::Link {
                        link_type,
                        dest_url: dest,
                        title,
                        id,
                    })
                }
                // An image may be `data:image/…`, never a script URL (which only the
                // sanitizer would remove, and only on pages with raw HTML).
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) if is_unsafe_scheme(&dest_url)
                    && !dest_url
                        .trim_start()
                        .to_ascii_lowercase()
                        .starts_with("data:image/") =>
                {
                    let (l, c) = at(range.start);
                    diags.push(
                        Diagnostic::error(file, l, c, format!("unsafe image source `{dest_url}`"))
                            .with_hint("use a relative path, an http(s) URL or a data:image/ URL"),
                    );
                    Event::Start(Tag::Image {
                        link_type,
                        dest_url: CowStr::from("#"),
                        title,
                        id,
                    })
                }
                Event::Start(Tag::Image {
                    link_type,
                    dest_url,
                    title,
                    id,
                }) => {
                    if let Some((msg, hint)) =
                        missing_static_warning("image", &dest_url, page_url, &targets.static_files)
                    {
                        let (l, c) = at(range.start);
                        diags.push(Diagnostic::warning(file, l, c, msg).with_hint(hint));
                    }
                    Event::Start(Tag::Image {
                        link_type,
                        dest_url,
                        title,
                        id,
                    })
                }
                Event::Start(Tag::BlockQuote(Some(kind))) => {
                    let i = alert_index(kind);
                    let (class, label) = (ALERT_KINDS[i].0, escape(&self.alert_titles[i]));
                    Event::Html(format!("<div class=\"admonition {class}\" role=\"note\"><p class=\"admonition-title\">{label}</p>\n").into())
                }
                Event::End(TagEnd::BlockQuote(Some(_))) => Event::Html("</div>\n".into()),
                Event::Html(h) | Event::InlineHtml(h) => {
                    has_raw_html = true;
                    // Links and images in raw HTML are resolved and checked like Markdown's.
                    let (html, found) = raw_html_links(&h, |dest, image| {
                        raw_link(dest, image, rel_path, page_url, targets, &own_ids)
                    });
                    for (offset, msg, hint) in found {
                        let (l, c) = at((range.start + offset).min(range.end));
                        diags.push(Diagnostic::warning(file, l, c, msg).with_hint(hint));
                    }
                    // What cleaning takes out is said, not dropped silently.
                    if self.raw_html == RawHtml::Sanitize {
                        for (offset, what) in removed_by_sanitizer(&h) {
                            let (l, c) = at((range.start + offset).min(range.end));
                            diags.push(
                                Diagnostic::warning(file, l, c, format!("raw HTML: {what} is removed (kbook cleans raw HTML of what could run script or restyle the page)"))
                                    .with_hint("write it in Markdown, or set `[output.html] sanitize-html = false` in book.toml if every author is trusted"),
                            );
                        }
                    }
                    Event::Html(html.map_or(h, CowStr::from))
                }
                other => other,
            };
            match (&mut heading, ev) {
                (
                    None,
                    Event::Start(Tag::Heading {
                        level, id, classes, ..
                    }),
                ) => {
                    heading = Some((
                        level,
                        id.map(|s| s.to_string()),
                        classes.iter().map(|c| c.to_string()).collect(),
                        Vec::new(),
                        String::new(),
                    ));
                }
                (Some(_), Event::End(TagEnd::Heading(_))) => {
                    if let Some((level, explicit, classes, inner, text)) = heading.take() {
                        let id = explicit.unwrap_or_else(|| unique_slug(&text, &mut used));
                        if !emitted_ids.insert(id.clone()) {
                            let (l, c) = at(range.start);
                            diags.push(
                                Diagnostic::warning(
                                    file,
                                    l,
                                    c,
                                    format!("two headings have the id `{id}`"),
                                )
                                .with_hint(format!(
                                    "a link to `#{id}` reaches only the first: give this one another `{{#id}}`"
                                )),
                            );
                        }
                        let mut inner_html = String::new();
                        pulldown_cmark::html::push_html(&mut inner_html, inner.into_iter());
                        let n = level as u8;
                        if n <= 3 {
                            out.toc.push(TocItem {
                                level: n,
                                id: id.clone(),
                                text: text.clone(),
                            });
                        }
                        // Marked, so a snippet stays in its section and names it.
                        out.anchors.push(id.clone());
                        out.text.push(kbook_search::HEADING_MARK);
                        push_unmarked(&mut out.text, &text);
                        out.text.push(kbook_search::HEADING_MARK);
                        let class_attr = if classes.is_empty() {
                            String::new()
                        } else {
                            format!(" class=\"{}\"", escape(&classes.join(" ")))
                        };
                        let id = escape(&id);
                        let label = escape(&self.anchor_label);
                        events.push(Event::Html(
                            format!("<h{n} id=\"{id}\"{class_attr}>{inner_html}<a class=\"heading-anchor\" href=\"#{id}\" aria-label=\"{label}\">#</a></h{n}>\n").into(),
                        ));
                    }
                }
                (Some((_, _, _, inner, text)), ev) => {
                    if let Event::Text(t) | Event::Code(t) = &ev {
                        text.push_str(t);
                    }
                    inner.push(ev);
                }
                (None, ev) => {
                    match &ev {
                        Event::Start(Tag::HtmlBlock) => html_block = Some(String::new()),
                        Event::Html(h) => {
                            if let Some(block) = html_block.as_mut() {
                                block.push_str(h);
                            }
                        }
                        Event::End(TagEnd::HtmlBlock) => {
                            if let Some(block) = html_block.take() {
                                let text = crate::html::fragment_text(&block);
                                out.code.push_str(&text.prose);
                                out.code.push('\n');
                                out.code.push_str(&text.code);
                            }
                        }
                        Event::Text(t) | Event::Code(t) => push_unmarked(&mut out.text, t),
                        // An inline element's end is no gap in the text (`**bold**, next`
                        // reads `bold, next`; `**加粗**文字` stays one Han run).
                        Event::End(
                            TagEnd::Emphasis
                            | TagEnd::Strong
                            | TagEnd::Strikethrough
                            | TagEnd::Superscript
                            | TagEnd::Subscript
                            | TagEnd::Link
                            | TagEnd::Image,
                        ) => {}
                        Event::SoftBreak | Event::HardBreak | Event::End(_) => out.text.push(' '),
                        _ => {}
                    }
                    events.push(ev);
                }
            }
        }
        pulldown_cmark::html::push_html(&mut out.html, events.into_iter());
        if let (Some(cache), Some(kept)) = (&self.highlights, kept) {
            cache.lock().insert(rel_path.to_string(), kept);
        }
        // Only bodies with raw HTML pay for sanitizing; the rest is escaped by construction.
        if has_raw_html && self.raw_html == RawHtml::Sanitize {
            out.html = sanitizer().clean(&out.html).to_string();
        }
        (out, diags)
    }

    /// [`Self::highlight`], reusing the entry's block of the previous build (`previous`) and
    /// keeping this one's (`kept`) when there is a cache.
    fn highlight_cached(
        &self,
        code: &str,
        lang: &str,
        previous: &mut Option<Blocks>,
        kept: &mut Option<Blocks>,
    ) -> String {
        let Some(kept) = kept else {
            return self.highlight(code, lang);
        };
        let key = (lang.to_string(), code.to_string());
        if let Some(html) = kept.get(&key) {
            return html.to_string();
        }
        let html = match previous.as_mut().and_then(|p| p.remove(&key)) {
            Some(html) => html,
            None => Arc::from(self.highlight(code, lang)),
        };
        let out = html.to_string();
        kept.insert(key, html);
        out
    }

    fn highlight(&self, code: &str, lang: &str) -> String {
        let lang_attr = if lang.is_empty() {
            String::new()
        } else {
            format!(" data-lang=\"{}\"", escape(lang))
        };
        let language = match lang {
            "shell" | "console" | "zsh" => "bash",
            "jsonc" => "json",
            "gradle" => "groovy",
            "properties" => "ini",
            other => other,
        };
        let html = match language {
            "" => escape(code),
            "log" | "trace" | "stack" | "stacktrace" => crate::render::trace::highlight(code),
            "java" if crate::render::trace::is_trace(code) => crate::render::trace::highlight(code),
            _ if code.len() > MAX_PARSED_BLOCK => escape(code),
            _ => {
                let config = arborium::Config {
                    html_format: HtmlFormat::ClassNamesWithPrefix(CLASS_PREFIX.to_string()),
                    ..Default::default()
                };
                // A language without a grammar here is shown as plain code.
                Highlighter::with_store_and_config(self.grammars.clone(), config)
                    .highlight(language, code)
                    .unwrap_or_else(|_| escape(code))
            }
        };
        format!("<pre class=\"code\"{lang_attr}><code>{html}</code></pre>\n")
    }
}

fn alert_index(kind: BlockQuoteKind) -> usize {
    match kind {
        BlockQuoteKind::Note => 0,
        BlockQuoteKind::Tip => 1,
        BlockQuoteKind::Important => 2,
        BlockQuoteKind::Warning => 3,
        BlockQuoteKind::Caution => 4,
    }
}

/// Ids the entry page's own elements have (templates/): a heading `## Main` must not give
/// a second `main`, which the skip link and in-page links would find first.
const PAGE_IDS: [&str; 9] = [
    "main",
    "sidebar",
    "kbook-q",
    "kbook-q-results",
    "related-heading",
    "symptoms-heading",
    "versions-heading",
    "error-strings-heading",
    "connectors-heading",
];

/// The slugs taken before a body's first heading (see [`PAGE_IDS`]).
fn page_ids() -> HashMap<String, usize> {
    PAGE_IDS.iter().map(|id| (id.to_string(), 1)).collect()
}

/// The heading's slug, with `-1`, `-2`, … after it when taken: `used` counts each slug handed
/// out, so a heading whose own slug is a numbered one (`Step`, `Step`, `Step 1`) gets the next
/// free number rather than the id an earlier heading has.
fn unique_slug(text: &str, used: &mut HashMap<String, usize>) -> String {
    let base = slugify(text);
    let mut n = used.get(&base).copied().unwrap_or(0);
    let mut id = if n == 0 {
        base.clone()
    } else {
        format!("{base}-{n}")
    };
    while n > 0 && used.contains_key(&id) {
        n += 1;
        id = format!("{base}-{n}");
    }
    used.insert(base, n + 1);
    used.entry(id.clone()).or_insert(1);
    id
}

/// Appends `text` to the searched text, its own U+2029 (which would pair with a heading's
/// marks, see [`kbook_search::HEADING_MARK`]) as a space; no copy when it has none.
fn push_unmarked(out: &mut String, text: &str) {
    if text.contains(kbook_search::HEADING_MARK) {
        out.push_str(&text.replace(kbook_search::HEADING_MARK, " "));
    } else {
        out.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets() -> LinkTargets {
        let mut t = LinkTargets::default();
        t.by_path.insert("kafka/a.md".into(), "a".into());
        t.by_path.insert("mysql/b.md".into(), "b".into());
        t.by_id.insert(
            "a".into(),
            ("kafka/a.html".into(), ["cause".to_string()].into()),
        );
        t.by_id.insert(
            "b".into(),
            ("mysql/b.html".into(), ["solution".to_string()].into()),
        );
        t.static_files.insert("images/flow chart.png".into());
        t
    }

    #[test]
    fn text_of_links_stays_in_the_searched_text() {
        // Snippets are cut from this text: "see [the entry](b.md)." must not read "see  .".
        // (Leaving the text of links to other entries out of the index was measured: one
        // machine text fewer first, tests/realworld.jsonl top-1 0.971 → 0.968.)
        let (r, d) = render("Offsets are kept. See [SSL handshake fails](../mysql/b.md).\n");
        assert!(d.is_empty(), "{d:?}");
        assert!(r.text.contains("See SSL handshake fails"), "{}", r.text);
    }

    #[test]
    fn a_level_one_heading_and_an_unknown_admonition_are_named() {
        let (_, d) = render(
            "# Title again\n\n> [!DANGER]\n> Careful.\n\n> [!WARNING]\n> Known.\n\n> [link](https://x.example) text\n",
        );
        let said: Vec<String> = d
            .iter()
            .map(|d| format!("{}: {}", d.line, d.message))
            .collect();
        assert_eq!(
            said,
            [
                "10: a level-1 heading in the body: the page already shows the title as its heading",
                "12: `[!DANGER]` is no admonition: it shows as text",
            ]
        );
    }

    #[test]
    fn inline_markup_leaves_no_gap_in_the_searched_text() {
        // A gap would show in snippets (`dynamically , so`) and split a Han run into two
        // (`加粗 文字` has no bigram `粗文`).
        let (r, d) = render(
            "Flink **detects partitions dynamically**, so *it* restarts [nothing](../mysql/b.md).\n\n**加粗**文字\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert!(
            r.text
                .contains("Flink detects partitions dynamically, so it restarts nothing."),
            "{}",
            r.text
        );
        assert!(r.text.contains("加粗文字"), "{}", r.text);
    }

    #[test]
    fn links_and_images_in_raw_html_are_resolved_and_checked() {
        let (r, d) = render(
            "<p>See <a href=\"../mysql/b.md#solution\">b</a> and <a class=\"x\" href='gone.md'>gone</a>.</p>\n\n\
             <div id=\"here\"><a href=\"#here\">up</a> <img alt=\"c\" src=\"../static/images/gone.png\"> \
             <a href=\"https://x.example/y.md\">web</a> <a data-href=\"z.md\">z</a></div>\n",
        );
        assert!(
            r.html
                .contains("<a href=\"../mysql/b.html#solution\">b</a>"),
            "{}",
            r.html
        );
        let said: Vec<(usize, bool, String)> = d
            .iter()
            .map(|d| (d.line, d.is_error(), d.message.clone()))
            .collect();
        // Warnings, not errors: raw HTML is often pasted from elsewhere.
        assert_eq!(
            said,
            [
                (10, false, "link to a missing entry `gone.md`".to_string()),
                (
                    12,
                    false,
                    "image `../static/images/gone.png`: the book has no static/images/gone.png"
                        .to_string()
                ),
                (
                    12,
                    false,
                    "raw HTML: attribute `data-href` of `<a>` is removed (kbook cleans raw HTML of what could run script or restyle the page)"
                        .to_string()
                ),
            ]
        );
        // Another generator's template code is named as such.
        let (_, d) = render("<div>\n<a href=\"{{< ref \"docs/intro\" >}}\">intro</a>\n</div>\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(
            d[0].message,
            "link `{{< ref…`: template code, which kbook does not run"
        );
        // An inline link in a Markdown paragraph, too.
        let (r, d) = render("Read <a href=\"a.md#cause\">this</a>.\n");
        assert!(r.html.contains("href=\"a.html#cause\""), "{}", r.html);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn images_into_static_must_exist() {
        let (_, d) = render(
            "![a](../static/images/flow%20chart.png) ![b](https://x.example/b.png)\n\n\
             ![c](../static/images/gone.png?v=2) ![d](data:image/png;base64,AAAA) ![e](pic.png)\n",
        );
        // The missing file under static/ is reported, with its line, and the image beside
        // the entry, which is never published; URLs and data are not the book's to check.
        assert_eq!(d.len(), 2, "{d:?}");
        let text = d[0].to_string();
        assert!(
            text.contains("static/images/gone.png") && text.contains(":12:"),
            "{text}"
        );
        assert!(
            d[1].to_string()
                .contains("`pic.png`: the site publishes files from static/ only, and kafka/pic.png is not there"),
            "{}",
            d[1]
        );
        assert!(d.iter().all(|d| !d.is_error()));
    }

    fn render(body: &str) -> (RenderedBody, Vec<Diagnostic>) {
        MarkdownRenderer::new().render(
            body,
            "kafka/a.md",
            "kafka/a.html",
            &targets(),
            Path::new("content/kafka/a.md"),
            10,
        )
    }

    #[test]
    fn each_marked_heading_has_its_id_in_order() {
        let (r, _) = render(
            "Intro.\n\n## Example\n\nOne.\n\n#### Deep `code`\n\nTwo.\n\n## Example\n\nThree.\n",
        );
        assert_eq!(r.anchors, ["example", "deep-code", "example-1"]);
        assert_eq!(
            r.text.matches(kbook_search::HEADING_MARK).count(),
            2 * r.anchors.len()
        );
        for id in &r.anchors {
            assert!(r.html.contains(&format!("id=\"{id}\"")), "{id}: {}", r.html);
        }
    }

    #[test]
    fn highlight_cache_gives_the_same_html_and_keeps_each_entrys_current_blocks() {
        let cache = Arc::new(HighlightCache::default());
        let cached = MarkdownRenderer::new().with_highlight_cache(cache.clone());
        let run = |body: &str, rel_path: &str| {
            cached
                .render(
                    body,
                    rel_path,
                    "kafka/a.html",
                    &targets(),
                    Path::new("content/kafka/a.md"),
                    10,
                )
                .0
                .html
        };
        let body = "```toml\na = 1\n```\n\ntext\n\n```java\nint x = 0;\n```\n";
        let fresh = render(body).0.html;
        assert!(fresh.contains("hl-"), "{fresh}");
        assert_eq!(run(body, "kafka/a.md"), fresh);
        assert_eq!(run(body, "kafka/b.md"), fresh);
        assert_eq!(cache.len(), 4);
        // A rebuild gives the same HTML from the cache.
        assert_eq!(run(body, "kafka/a.md"), fresh);
        assert_eq!(cache.len(), 4);
        // An edit of a.md drops its TOML block: a.md keeps only its Java block.
        let edited = "text\n\n```java\nint x = 0;\n```\n";
        assert_eq!(run(edited, "kafka/a.md"), render(edited).0.html);
        assert_eq!(cache.len(), 3);
        // b.md was removed.
        cache.retain(&["kafka/a.md"].into_iter().collect());
        assert_eq!(cache.len(), 1);
    }

    /// Fuzzing regression (fuzz/artifacts/markdown, crash-5afbbc6c…): a `javascript:` link in
    /// a body without raw HTML reached the output; it is an error and is never emitted.
    #[test]
    fn unsafe_links_are_errors_and_never_emitted() {
        for dest in [
            "javascript:alert(1)",
            " JaVaScRiPt:alert(1)",
            "jav&#x09;ascript:alert(1)",
            "&#x01;javascript:alert(1)",
            "data:text/html,x",
        ] {
            let (r, d) = render(&format!("[x]({dest}) <a hrestom-id .cls}}\n"));
            assert!(
                d.iter().any(|d| d.message.starts_with("unsafe link")),
                "{dest}: {d:?}"
            );
            assert!(
                !r.html.to_ascii_lowercase().contains("script:"),
                "{dest}: {}",
                r.html
            );
            assert!(!r.html.contains("data:"), "{dest}: {}", r.html);
        }
        let (r, d) = render("![a](javascript:alert(1)) ![b](data:image/png;base64,AAAA)\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].message.starts_with("unsafe image source"), "{d:?}");
        assert!(
            !r.html.contains("javascript:") && r.html.contains("data:image/png"),
            "{}",
            r.html
        );
    }

    #[test]
    fn rewrites_and_checks_links() {
        let (r, d) = render(
            "## Cause\n\nSee [b](../mysql/b.md#solution), [a again](a.md#cause), [by id](b.md) and [web](https://x.org).\n",
        );
        assert!(d.is_empty(), "{d:?}");
        assert!(
            r.html.contains("href=\"../mysql/b.html#solution\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("href=\"a.html#cause\""));
        assert!(r.html.contains("href=\"../mysql/b.html\""));
        assert!(r.html.contains("href=\"https://x.org\""));
    }

    #[test]
    fn broken_links_are_located() {
        let (_, d) = render("text\n\n[x](missing.md) and [y](../mysql/b.md#nope) and [z](#none)\n");
        assert_eq!(d.len(), 3, "{d:?}");
        assert_eq!((d[0].line, d[0].column), (12, 1));
        assert!(d[0].message.contains("missing entry"));
        assert!(d[1].message.contains("missing anchor `#nope`"));
        assert!(d[2].message.contains("missing anchor `#none` on this page"));
        // A heading's id percent-encoded, as a browser copies it, names that heading.
        let (r, d) = render("## 原因\n\n[a](#%E5%8E%9F%E5%9B%A0) [b](#%E5%8E%9F) [c](#%ZZ)\n");
        let said: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert_eq!(d.len(), 2, "{said:#?}");
        assert!(said[0].contains("`#%E5%8E%9F`") && said[1].contains("`#%ZZ`"));
        assert!(
            r.html.contains("href=\"#%E5%8E%9F%E5%9B%A0\""),
            "{}",
            r.html
        );
    }

    #[test]
    fn links_with_a_query_another_case_or_into_static_are_checked() {
        let (r, d) = render(
            "## Here\n\n[q](a.md?tab=2) [case](A.MD) [pdf](../static/none.pdf) \
             [img](../static/images/flow%20chart.png) [empty](../mysql/b.md#x)\n\n## One {#same}\n\n## Two {#same}\n",
        );
        assert!(r.html.contains("href=\"a.html\""), "{}", r.html);
        let said: Vec<String> = d.iter().map(|d| d.to_string()).collect();
        assert_eq!(d.len(), 4, "{said:#?}");
        assert!(said[0].contains("missing entry `A.MD`"), "{}", said[0]);
        assert!(
            said[1].contains("warning: link `../static/none.pdf`: the book has no static/none.pdf")
        );
        assert!(
            said[2].contains("missing anchor `#x`")
                && said[2].contains("headings there: #solution")
        );
        assert!(
            said[3].contains("warning: two headings have the id `same`"),
            "{}",
            said[3]
        );
        // A page without headings says so, instead of an empty list.
        let mut t = targets();
        t.by_id
            .insert("c".into(), ("kafka/c.html".into(), HashSet::new()));
        let (_, d) = MarkdownRenderer::new().render(
            "[c](c.md#x)\n",
            "kafka/a.md",
            "kafka/a.html",
            &t,
            Path::new("content/kafka/a.md"),
            1,
        );
        assert!(
            d[0].to_string().contains("that entry has no headings"),
            "{:?}",
            d
        );
    }

    #[test]
    fn html_links_are_checked_against_the_sites_pages() {
        let mut t = targets();
        t.pages = [
            "kafka/a.html",
            "mysql/b.html",
            "index.html",
            "kafka/index.html",
        ]
        .map(String::from)
        .into();
        let (_, d) = MarkdownRenderer::new().render(
            "[a](a.html) [b](../mysql/b.html#solution) [home](../index.html) [list](index.html?x=1) \
             [gone](gone.html) [away](../../other/x.html) [web](https://x.org/y.html)\n",
            "kafka/a.md",
            "kafka/a.html",
            &t,
            Path::new("content/kafka/a.md"),
            1,
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].to_string()
                .contains("warning: link `gone.html`: the site has no page kafka/gone.html"),
            "{}",
            d[0]
        );
        // Links without an extension name a folder's index page; other files are not
        // claimed.
        let (_, d) = MarkdownRenderer::new().render(
            "[list](./) [top](..) [mysql](../mysql/) [none](../nosuch/) [bare](gone) [pdf](x.pdf)\n",
            "kafka/a.md",
            "kafka/a.html",
            &t,
            Path::new("content/kafka/a.md"),
            1,
        );
        let said: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            said,
            [
                "link `../mysql/`: the site has no page mysql/index.html",
                "link `../nosuch/`: the site has no page nosuch/index.html",
                "link `gone`: the site has no page kafka/gone/index.html",
            ]
        );
        // A path from the host's root: the offline bundle cannot follow it.
        let (_, d) = render("[abs](/kafka/a.html) [net](//cdn.example.org/x.js)\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].message.contains("a path from the host's root")
                && d[0]
                    .hint
                    .as_deref()
                    .unwrap_or("")
                    .contains("offline bundle"),
            "{}",
            d[0]
        );
        // An image too.
        let (_, d) = render("![abs](/static/images/flow.png) ![net](//cdn.example.org/x.png)\n");
        let said: Vec<String> = d.iter().map(|d| d.message.clone()).collect();
        assert_eq!(
            said,
            ["image `/static/images/flow.png`: a path from the host's root"]
        );
        // Without the list of pages (a renderer used alone), nothing is claimed.
        let (_, d) = render("[gone](gone.html)\n");
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn headings_get_unique_ids_and_anchors() {
        let (r, _) = render("## Step\n\n## Step\n\n### Custom {#mine}\n");
        assert!(
            r.html
                .contains("<h2 id=\"step\">Step<a class=\"heading-anchor\" href=\"#step\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("<h2 id=\"step-1\">"));
        assert!(r.html.contains("<h3 id=\"mine\">"));
        assert_eq!(r.toc.len(), 3);
        // A heading whose own slug is a numbered one never repeats an id.
        let (r, _) = render("## Step\n\n## Step\n\n## Step 1\n\n## Step\n");
        let ids: Vec<&str> = r
            .html
            .match_indices("<h2 id=\"")
            .map(|(i, _)| {
                let rest = &r.html[i + 8..];
                &rest[..rest.find('"').unwrap_or(0)]
            })
            .collect();
        assert_eq!(ids, ["step", "step-1", "step-1-1", "step-2"], "{}", r.html);
        // The page's own ids are taken: `## Main` is not a second `main`.
        let (r, _) = render(
            "## Main

## Sidebar

See [main](#main-1).
",
        );
        assert!(r.html.contains("<h2 id=\"main-1\">"), "{}", r.html);
        assert!(r.html.contains("<h2 id=\"sidebar-1\">"), "{}", r.html);
        assert!(
            MarkdownRenderer::heading_ids("## Main\n").contains("main-1"),
            "links are checked against the ids given"
        );
    }

    #[test]
    fn highlights_code_with_classes_and_collects_text() {
        let (r, _) = render("Intro text.\n\n```sql\nSELECT 1;\n```\n\n```text\n<b>\n```\n");
        assert!(r.html.contains("class=\"hl-"), "{}", r.html);
        assert!(!r.html.contains("style="));
        assert!(r.html.contains("&lt;b&gt;"));
        assert!(r.code.contains("SELECT 1;"));
        assert!(r.text.contains("Intro text."));
        assert!(!r.text.contains("SELECT"));
    }

    #[test]
    fn highlights_toml_java_scala_gradle_and_stack_traces() {
        let (r, _) = render(concat!(
            "```toml\n[book]\ntitle = \"x\"\n```\n\n",
            "```java\nclass A { int n = 1; }\n```\n\n",
            "```java\nCaused by: java.io.EOFException: x\n    at a.b.C.m(C.java:1)\n```\n\n",
            "```log\nINFO started\n```\n\n",
            "```scala\nval env = StreamExecutionEnvironment.getExecutionEnvironment\n```\n\n",
            "```gradle\ndependencies { implementation 'org.apache.flink:flink-core:1.20.0' }\n```\n\n",
            "```cobol\nDISPLAY 'x'.\n```\n",
        ));
        for part in [
            "<span class=\"hl-string\">&quot;x&quot;</span>",
            "<span class=\"hl-keyword\">class</span>",
            "<span class=\"hl-number\">1</span>",
            "<span class=\"hl-keyword\">Caused by:</span> <span class=\"hl-function\">java.io.EOFException</span>",
            "<span class=\"hl-function\">a.b.C.m</span><span class=\"hl-comment\">(C.java:1)</span>",
            "<span class=\"hl-comment\">INFO</span> started",
            "<span class=\"hl-keyword\">val</span> <span class=\"hl-variable\">env</span>",
            // `gradle` is read as Groovy, Gradle's own build language.
            "<span class=\"hl-string\">&#39;org.apache.flink:flink-core:1.20.0&#39;</span>",
            // A language without a grammar: plain, escaped, still marked with its name.
            "<pre class=\"code\" data-lang=\"cobol\"><code>DISPLAY &#39;x&#39;.\n</code></pre>",
        ] {
            assert!(r.html.contains(part), "{part} not in {}", r.html);
        }
    }

    /// Every grammar, and the trace reader, on code no author meant: the text is escaped,
    /// never lost, and nothing panics.
    #[test]
    fn every_language_survives_hostile_code() {
        let deep = format!("{}{}", "([{".repeat(3000), "}])".repeat(2999));
        // Just under and over the largest block a grammar reads.
        let long = "x = '<script>'; ".repeat(MAX_PARSED_BLOCK / 16 - 1);
        let longer = "x = '<script>'; ".repeat(20_000);
        let hostile = [
            "<script>alert(1)</script> \"unclosed ' quote /* comment",
            "a &lt; b && c &amp;&#39; d",
            "\0\u{feff}\r\n\r\n\t\u{200b} é 中文 🙂 \\",
            deep.as_str(),
            long.as_str(),
            longer.as_str(),
            "",
        ];
        for lang in [
            "bash",
            "c",
            "css",
            "diff",
            "dockerfile",
            "go",
            "gradle",
            "groovy",
            "html",
            "ini",
            "java",
            "javascript",
            "json",
            "markdown",
            "python",
            "rust",
            "scala",
            "sql",
            "toml",
            "typescript",
            "xml",
            "yaml",
            "log",
            "properties",
            "shell",
        ] {
            for code in hostile {
                let html = MarkdownRenderer::new().highlight(code, lang);
                assert!(!html.contains("<script"), "{lang}: {html:.200}");
                let inner = html
                    .split_once("<code>")
                    .and_then(|(_, rest)| rest.rsplit_once("</code></pre>"))
                    .map_or("", |(inner, _)| inner);
                let text = inner
                    .split('<')
                    .map(|piece| piece.split_once('>').map_or(piece, |(_, t)| t))
                    .collect::<String>();
                assert_eq!(crate::html::unescape(&text), code, "{lang} lost text");
            }
        }
    }

    #[test]
    fn admonitions_tables_and_raw_html() {
        let (r, _) = render(
            "> [!WARNING]\n> Careful.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>\n",
        );
        assert!(
            r.html.contains("<div class=\"admonition warning\""),
            "{}",
            r.html
        );
        assert!(r.html.contains("<table>"));
        assert!(!r.html.contains("<script>"));
        assert!(!r.html.contains("alert(1)"), "{}", r.html);
    }

    #[test]
    fn raw_html_blocks_are_searched_as_code() {
        let (r, _) = render(
            "Options:\n\n<table>\n  <tr>\n    <td>scan.parse.online.schema.changes.enabled</td>\n    <td>Whether to parse <a href=\"https://example.com\">gh-ost</a> changes &amp; more.</td>\n  </tr>\n</table>\n\n<script>var hidden = 1;</script>\n\nAfter.\n",
        );
        assert!(
            r.code.contains("scan.parse.online.schema.changes.enabled")
                && r.code.contains("gh-ost changes & more."),
            "{}",
            r.code
        );
        assert!(
            !r.code.contains("<td>") && !r.code.contains("hidden"),
            "{}",
            r.code
        );
        assert!(r.text.contains("Options:") && r.text.contains("After."));
        assert!(!r.text.contains("gh-ost"), "{}", r.text);
    }

    #[test]
    fn raw_html_is_sanitized_unless_allowed() {
        let body = "## Title\n\n<kbd>Ctrl</kbd> <img src=x onerror=\"window.__xss=1\"> <a href=\"javascript:alert(1)\">x</a>\n\n<svg onload=\"alert(1)\"></svg>\n\n- [x] done\n";
        let (r, _) = render(body);
        assert!(r.html.contains("<kbd>Ctrl</kbd>"), "{}", r.html);
        assert!(
            !r.html.contains("onerror")
                && !r.html.contains("javascript:")
                && !r.html.contains("onload"),
            "{}",
            r.html
        );
        assert!(
            r.html.contains("<h2 id=\"title\">"),
            "own ids survive: {}",
            r.html
        );
        assert!(r.html.contains("checked"), "task lists survive: {}", r.html);
        let allow = MarkdownRenderer::with_raw_html(RawHtml::Allow);
        let (r, _) = allow.render(
            body,
            "kafka/a.md",
            "kafka/a.html",
            &targets(),
            Path::new("a.md"),
            1,
        );
        assert!(r.html.contains("onerror"), "opt-out keeps raw HTML");
    }
}
