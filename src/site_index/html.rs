//! One HTML page of another generator's site → a search document: the main content (chosen
//! by `data-kbook-body`, a selector, or `<main>`/`<article>`/`<body>`), its title, its prose,
//! its code blocks (read by [`crate::html::collect`]), and error texts found in log-shaped
//! code.

use crate::html::{Chrome, Text, collect};
use kbook_search::EntryDoc;
use scraper::{ElementRef, Html, Selector};

/// What a page yields: its document, or why it was skipped.
pub enum PageDoc {
    /// Indexed.
    Doc(Box<EntryDoc>),
    /// Not indexed, with the reason.
    Skipped(&'static str),
}

/// The selectors every page is read with, parsed once per run.
pub struct PageReader {
    /// `--selector`: the content element when a page has no `data-kbook-body`.
    selector: Option<Selector>,
    ignored: Option<Selector>,
    redirect: Option<Selector>,
    marked: Option<Selector>,
    fallbacks: Vec<Selector>,
    h1: Option<Selector>,
    title: Option<Selector>,
}

impl PageReader {
    /// A reader taking `selector` as the content element of pages without `data-kbook-body`.
    pub fn new(selector: Option<Selector>) -> Self {
        let sel = |s: &str| Selector::parse(s).ok();
        PageReader {
            selector,
            ignored: sel("[data-kbook-ignore-page]"),
            redirect: sel("meta[http-equiv=refresh]"),
            // Pagefind's marker too: many themes already carry it.
            marked: sel("[data-kbook-body], [data-pagefind-body]"),
            fallbacks: ["main", "article", "[role=main]", "body"]
                .iter()
                .filter_map(|s| sel(s))
                .collect(),
            h1: sel("h1"),
            title: sel("title"),
        }
    }

    /// Reads a page. `rel` is its path below the site root; `url` what results link to.
    pub fn read(&self, html: &str, rel: &str, url: String) -> PageDoc {
        read_page(self, html, rel, url)
    }
}

/// [`PageReader::read`] (kept flat: the body is long).
fn read_page(r: &PageReader, html: &str, rel: &str, url: String) -> PageDoc {
    let doc = Html::parse_document(html);
    let has = |s: &Option<Selector>| s.as_ref().is_some_and(|s| doc.select(s).next().is_some());
    if has(&r.redirect) {
        return PageDoc::Skipped("a redirect page");
    }
    if has(&r.ignored) {
        return PageDoc::Skipped("marked data-kbook-ignore-page");
    }
    let marked: Vec<ElementRef> = r
        .marked
        .as_ref()
        .map(|s| doc.select(s).collect())
        .unwrap_or_default();
    let (roots, chrome): (Vec<ElementRef>, Chrome) = if !marked.is_empty() {
        (marked, Chrome::Keep)
    } else if let Some(s) = &r.selector {
        let found: Vec<ElementRef> = doc.select(s).collect();
        if found.is_empty() {
            return PageDoc::Skipped("no element matches --selector");
        }
        (found, Chrome::Keep)
    } else {
        let first = r.fallbacks.iter().find_map(|s| doc.select(s).next());
        match first {
            Some(e) if e.value().name() == "body" => (vec![e], Chrome::Body),
            Some(e) => (vec![e], Chrome::Inner),
            None => return PageDoc::Skipped("no <body>"),
        }
    };
    let mut text = Text::default();
    for r in &roots {
        collect(*r, chrome, &mut text);
    }
    let title =
        r.h1.as_ref()
            .and_then(|s| roots.iter().find_map(|e| e.select(s).next()))
            .map(|h| squash(&crate::html::text_without_permalinks(h)))
            .filter(|t| !t.is_empty())
            .or_else(|| {
                r.title
                    .as_ref()
                    .and_then(|s| doc.select(s).next())
                    .map(|t| squash(&t.text().collect::<String>()))
                    .filter(|t| !t.is_empty())
            })
            .unwrap_or_else(|| rel.to_string());
    // Trimmed but for the heading marks, which pair up in order.
    let body = tidy(&text.prose)
        .trim_matches(|c: char| c.is_whitespace() && c != kbook_search::HEADING_MARK)
        .to_string();
    if body.is_empty() && text.code.trim().is_empty() {
        return PageDoc::Skipped("no text in its content");
    }
    let errors = crate::import::log_errors(&text.code);
    let connector = rel
        .split_once('/')
        .and_then(|(d, _)| crate::import::ascii_slug(d, 40))
        .unwrap_or_else(|| "site".into());
    PageDoc::Doc(Box::new(EntryDoc {
        id: String::new(),
        url,
        title,
        connector,
        connector_aliases: Vec::new(),
        cross_connector: false,
        kind: "page".into(),
        errors,
        generic_errors: Vec::new(),
        body,
        code: text.code,
        tags: Vec::new(),
        symptoms: Vec::new(),
        versions: Vec::new(),
        anchors: text.anchors,
    }))
}

/// A generated page's indentation as a snippet shows text: a run of white space as one space,
/// or one line break when it holds one. Heading marks are kept.
fn tidy(prose: &str) -> String {
    let mut out = String::with_capacity(prose.len());
    let mut run: Option<char> = None;
    for c in prose.chars() {
        if c.is_whitespace() && c != kbook_search::HEADING_MARK {
            run = Some(if c == '\n' || run == Some('\n') {
                '\n'
            } else {
                ' '
            });
            continue;
        }
        if let Some(w) = run.take() {
            out.push(w);
        }
        out.push(c);
    }
    out.extend(run);
    out
}

/// Runs of white space as one space.
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(html: &str, selector: Option<&str>) -> EntryDoc {
        let reader = PageReader::new(selector.map(|s| Selector::parse(s).unwrap()));
        match reader.read(html, "docs/p/index.html", "../docs/p/index.html".into()) {
            PageDoc::Doc(d) => *d,
            PageDoc::Skipped(why) => panic!("skipped: {why}"),
        }
    }

    #[test]
    fn headings_ids_are_kept_in_order_for_the_search_to_link() {
        let html = "<body><main><h1 id='top'>Page</h1><p>Intro.</p><h2 id='cause'>Cause</h2><p>One.</p><h2>Fix</h2><p>Two.</p></main></body>";
        let d = doc(html, None);
        assert_eq!(d.anchors, ["top", "cause", ""]);
        assert_eq!(d.body.matches(kbook_search::HEADING_MARK).count(), 6);
        // Sphinx puts the id on the section a heading starts, not on the heading.
        let html = "<body><main><section id='install'><h2>Install</h2><p>One.</p><div id='x'><p>A.</p><h3>Not first</h3></div></section></main></body>";
        assert_eq!(doc(html, None).anchors, ["install", ""]);
    }

    #[test]
    fn content_title_code_and_errors() {
        let html = "<html><head><title>P | Site</title><script>var x = 'no';</script></head><body><nav>Menu words</nav><main><h1>Kafka   timeouts</h1><p>The broker is unreachable.</p><pre><code>org.apache.kafka.common.errors.TimeoutException: Timeout of 60000ms expired before the position for partition a-0 could be determined</code></pre><div data-kbook-ignore>Edit this page</div></main><footer>Footer</footer></body></html>";
        let d = doc(html, None);
        assert_eq!(d.title, "Kafka timeouts");
        assert!(d.body.contains("The broker is unreachable."), "{}", d.body);
        assert!(
            !d.body.contains("Menu") && !d.body.contains("Edit this") && !d.body.contains("no'")
        );
        assert!(d.code.contains("TimeoutException"));
        assert_eq!(d.errors.len(), 1);
        assert_eq!(d.connector, "docs");

        // Without <main>, the body minus its chrome; with a selector, only that element.
        let html = "<html><head><title>T</title></head><body><header>Top</header><div class='c'>Inside</div><div>Outside</div></body></html>";
        let d = doc(html, None);
        assert_eq!(d.title, "T");
        assert!(d.body.contains("Inside") && d.body.contains("Outside") && !d.body.contains("Top"));
        let d = doc(html, Some(".c"));
        assert_eq!(d.body, "Inside");
        // data-kbook-body wins over the selector.
        let html = "<body><div class='c'>A</div><section data-kbook-body>B</section></body>";
        assert_eq!(doc(html, Some(".c")).body, "B");
        // Pagefind's markers are read as kbook's.
        let html = "<body><aside>Side</aside><article data-pagefind-body>Body <span data-pagefind-ignore>Edit</span> text</article></body>";
        assert_eq!(doc(html, None).body, "Body text");
    }

    /// Themes such as hugo-book put the menu and the "on this page" list inside `<main>`.
    #[test]
    fn chrome_inside_a_guessed_main_is_skipped_but_not_inside_a_marked_body() {
        let html = "<body><main><aside class='book-menu'><a>Licenses</a></aside><div role='navigation'>Prev Next</div><article><header><h1>Timeouts</h1></header><p>The broker is unreachable.</p><footer>Edit this page</footer></article><aside class='book-toc'><a>Cause</a></aside><form><input placeholder='Search'></form></main></body>";
        let d = doc(html, None);
        assert_eq!(d.title, "Timeouts");
        assert!(d.body.contains("Timeouts") && d.body.contains("The broker is unreachable."));
        for chrome in ["Licenses", "Prev", "Edit this", "Cause"] {
            assert!(!d.body.contains(chrome), "{chrome}: {}", d.body);
        }
        // What the writer marked as content is read whole.
        let html =
            "<body><div data-kbook-body><aside>A side note.</aside><p>Text.</p></div></body>";
        assert!(doc(html, None).body.contains("A side note."));
        // A heading's permalink glyph is not part of its text.
        let html = "<body><main><h1>MySQL CDC <a class='anchor' href='#mysql-cdc'>#</a></h1><h2 id='q1'>Q1: Why? <a class='headerlink' href='#q1'>¶</a></h2><p>See <a href='#q1'>Q1</a>.</p></main></body>";
        let d = doc(html, None);
        assert_eq!(d.title, "MySQL CDC");
        assert!(
            !d.body.contains('#') && !d.body.contains('¶') && d.body.contains("See Q1."),
            "{}",
            d.body
        );
        // A template's indentation is not text.
        let html = "<body><main><p>One\n      two</p>\n\n        \n<p>Three</p></main></body>";
        assert_eq!(doc(html, None).body, "One\ntwo\nThree");
    }

    #[test]
    fn redirects_and_empty_pages_are_skipped() {
        let reader = PageReader::new(None);
        let r = reader.read(
            "<html><head><meta http-equiv=\"refresh\" content=\"0; url=/x/\"></head><body>Moved</body></html>",
            "a.html",
            "a".into(),
        );
        assert!(matches!(r, PageDoc::Skipped("a redirect page")));
        let r = reader.read(
            "<html><body data-kbook-ignore-page><main>Draft</main></body></html>",
            "d.html",
            "d".into(),
        );
        assert!(matches!(
            r,
            PageDoc::Skipped("marked data-kbook-ignore-page")
        ));
        let r = reader.read(
            "<html><body><main> </main></body></html>",
            "b.html",
            "b".into(),
        );
        assert!(matches!(r, PageDoc::Skipped(_)));
    }
}
