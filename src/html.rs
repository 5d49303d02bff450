//! HTML text: escaping for text and quoted attribute values, and reading the text out of
//! HTML (a page's content, a raw HTML block of a Markdown body).

use scraper::{ElementRef, Html, Node};

/// The text [`escape`] (and other writers of attribute values) escaped: the five entities it
/// writes, `&#x27;` too; `&amp;` last, so `&amp;lt;` stays `&lt;`.
pub fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `html` with its `<base href>` set to `href`, or taken out (`None`). A page without one gets
/// `href` right after `<head>`. (The 404 page of a site with `site-url` carries the host's
/// path as its base: `kbook serve` serves the site at `/`, the offline zip at no path.)
pub fn with_base(html: &str, href: Option<&str>) -> String {
    let tag = href.map(|h| format!("<base href=\"{}\">", escape(h)));
    let mut out = html.to_string();
    if let Some(i) = out.find("<base href=\"")
        && let Some(len) = out[i..].find('>')
    {
        out.replace_range(i..=i + len, tag.as_deref().unwrap_or(""));
    } else if let (Some(tag), Some(i)) = (&tag, out.find("<head>")) {
        out.insert_str(i + "<head>".len(), tag);
    }
    out
}

/// Minimal HTML escaping for text and attribute values. Copies the runs between special
/// characters whole: Tera calls this for every value a template prints.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        // The special characters are ASCII, so `i` is a character boundary.
        out.push_str(&s[plain..i]);
        out.push_str(entity);
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
    out
}

/// Elements whose text is never content.
const NEVER: [&str; 7] = [
    "script", "style", "noscript", "template", "svg", "iframe", "object",
];
/// Page chrome, skipped when the whole `<body>` is the content.
const CHROME: [&str; 5] = ["nav", "header", "footer", "aside", "form"];
/// Chrome that themes put inside `<main>` or `<article>` too (a menu, an "on this page"
/// list, a search form); a `<header>` there holds the page's own title.
const INNER_CHROME: [&str; 4] = ["nav", "footer", "aside", "form"];

/// Which page chrome a walk skips.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chrome {
    /// None: the writer marked the content (`data-kbook-body`, a selector), or a fragment.
    Keep,
    /// [`INNER_CHROME`] and `role="navigation"`: the content was guessed as `<main>` or
    /// `<article>`.
    Inner,
    /// [`CHROME`] and `role="navigation"`: the whole `<body>` is the content.
    Body,
}
/// Elements that end a line of text.
const BLOCKS: [&str; 22] = [
    "p",
    "div",
    "section",
    "article",
    "main",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "td",
    "th",
    "br",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "dd",
    "dt",
];

/// The text of an HTML fragment (a raw HTML block of a Markdown body) as a page reads it:
/// its prose (never the text of scripts, styles and the like), and the text of its `<pre>`
/// elements.
pub(crate) fn fragment_text(html: &str) -> Text {
    let fragment = Html::parse_fragment(html);
    let mut text = Text::default();
    collect(fragment.root_element(), Chrome::Keep, &mut text);
    text
}

/// The text of a page or fragment: prose, and code (`<pre>`).
#[derive(Default)]
pub(crate) struct Text {
    pub(crate) prose: String,
    pub(crate) code: String,
    /// The ids of the headings marked in `prose`, in order (empty for one without).
    pub(crate) anchors: Vec<String>,
}

/// Where a link to `heading` goes: its id, or (Sphinx, docutils) the id of the `<section>` it
/// heads when it is that element's first child.
fn heading_id<'a>(heading: ElementRef<'a>) -> Option<&'a str> {
    heading.value().attr("id").or_else(|| {
        let parent = heading.parent().and_then(ElementRef::wrap)?;
        let first = parent.children().find_map(ElementRef::wrap)?;
        (first == heading && matches!(parent.value().name(), "section" | "div"))
            .then(|| parent.value().attr("id"))
            .flatten()
    })
}

/// A heading's permalink as themes draw it (`<a class="anchor" href="#x">#</a>`, MkDocs'
/// `¶`): a mark, not words of the heading.
pub(crate) fn is_permalink(el: ElementRef) -> bool {
    el.value().name() == "a"
        && el.value().attr("href").is_some_and(|h| h.starts_with('#'))
        && matches!(
            el.text().collect::<String>().trim(),
            "" | "#" | "¶" | "§" | "🔗" | "⚓" | "∞"
        )
}

/// The text of `el` without its permalinks (see [`is_permalink`]).
pub(crate) fn text_without_permalinks(el: ElementRef) -> String {
    let mut out = String::new();
    for node in el.descendants() {
        if let Node::Text(t) = node.value()
            && !node
                .ancestors()
                .take_while(|a| a.id() != el.id())
                .filter_map(ElementRef::wrap)
                .any(is_permalink)
        {
            out.push_str(t);
        }
    }
    out
}

/// Walks `el`, putting `<pre>` text into code and the rest into prose.
pub(crate) fn collect(el: ElementRef, chrome: Chrome, out: &mut Text) {
    for child in el.children() {
        match child.value() {
            // The page's own U+2029 would pair with a heading's marks.
            Node::Text(t) if t.contains(kbook_search::HEADING_MARK) => out
                .prose
                .push_str(&t.replace(kbook_search::HEADING_MARK, " ")),
            Node::Text(t) => out.prose.push_str(t),
            Node::Element(e) => {
                let name = e.name();
                let Some(child_el) = ElementRef::wrap(child) else {
                    continue;
                };
                let skipped_chrome = match chrome {
                    Chrome::Keep => false,
                    Chrome::Inner => INNER_CHROME.contains(&name),
                    Chrome::Body => CHROME.contains(&name),
                } || (chrome != Chrome::Keep
                    && e.attr("role") == Some("navigation"));
                if NEVER.contains(&name)
                    || skipped_chrome
                    || is_permalink(child_el)
                    || e.attr("data-kbook-ignore").is_some()
                    // Pagefind's marker, which many themes already carry.
                    || e.attr("data-pagefind-ignore").is_some()
                {
                    continue;
                }
                if name == "pre" {
                    let code: String = child_el.text().collect();
                    out.code.push_str(code.trim_end());
                    out.code.push('\n');
                    out.prose.push('\n');
                    continue;
                }
                // A heading's text is marked, so a snippet stays in its section and names it.
                let heading = matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
                if heading {
                    out.anchors
                        .push(heading_id(child_el).unwrap_or_default().to_string());
                    out.prose.push(kbook_search::HEADING_MARK);
                }
                collect(child_el, chrome, out);
                if heading {
                    out.prose.push(kbook_search::HEADING_MARK);
                } else if BLOCKS.contains(&name) {
                    out.prose.push('\n');
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_the_five_characters_and_keeps_the_rest() {
        assert_eq!(
            escape(r#"a<b>&"c"'d' 中文 é"#),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39; 中文 é"
        );
        assert_eq!(escape(""), "");
        assert_eq!(escape("&"), "&amp;");
        assert_eq!(escape("plain"), "plain");
    }
}
