//! A reader's way through the site, over http, from the unzipped bundle and in the single
//! file: a pasted trace, keyboard only, theme, phone layout, print, a strict CSP.

use super::*;

/// What the page's live regions say (what a screen reader announces), or null while silent.
const SPOKEN: &str = "([...document.querySelectorAll('[role=status]')].map(s => s.textContent).find(t => t) || null)";

/// Which `.kb-page` sections of the single file are visible.
const VISIBLE_SECTIONS: &str = "[...document.querySelectorAll('.kb-page')].filter(s => s.offsetParent !== null).map(s => s.id)";

/// Home → connector → entry → search page → paste a stack trace → open the first result,
/// which shows the matched terms highlighted.
fn reader_flow(c: &Chromium, built: &Built, origin: Origin, trace: &(String, String)) {
    c.open(&start_url(built, origin));
    if origin == Origin::Single {
        assert_eq!(c.eval(VISIBLE_SECTIONS), serde_json::json!(["kb-home"]));
    }
    assert!(
        c.eval("document.querySelectorAll('.card-grid a').length")
            .as_u64()
            > Some(3)
    );
    c.follow(".card-grid .card a");
    if origin == Origin::Single {
        let shown = c.eval(VISIBLE_SECTIONS);
        assert!(shown[0].as_str().unwrap().starts_with("kb-c-"), "{shown}");
        c.follow(".kb-page:target .entry-items a");
        let shown = c.eval(VISIBLE_SECTIONS);
        assert_eq!(shown.as_array().unwrap().len(), 1, "{shown}");
        // The tab's title is the entry's, as on the site.
        let titled = c.eval(
            "document.title.startsWith(document.querySelector('.kb-page:target h1').textContent.trim() + ' · ')",
        );
        assert_eq!(titled, true, "title {}", c.eval("document.title"));
        assert_eq!(
            c.eval("location.hash.slice(1)"),
            c.eval("document.querySelector('.kb-page:target article.entry').dataset.entryId")
        );
    } else {
        assert!(
            c.eval("document.querySelector('h1').textContent.length")
                .as_u64()
                > Some(0)
        );
        c.follow(".entry-items a");
        // An entry: breadcrumb back to home and the connector, copy buttons, copy link.
        assert_eq!(
            c.eval("document.querySelectorAll('.breadcrumb a').length"),
            2
        );
        c.wait_for("document.querySelector('.copy-link-button')");
        assert_eq!(
            c.eval("document.querySelectorAll('.entry pre').length"),
            c.eval("document.querySelectorAll('.entry .copy-button').length")
        );
    }
    if origin == Origin::Http {
        // The search box every page has is one line: the browser joins a pasted trace's lines
        // with spaces, and search reads it as the trace.
        c.tab.wait_for_element("#kbook-q").unwrap().click().unwrap();
        // A paste is a `paste` event with the clipboard's text, then the text inserted.
        c.eval(&format!(
            "(() => {{ const d = new DataTransfer(); d.setData('text/plain', {t}); \
             document.getElementById('kbook-q').dispatchEvent(new ClipboardEvent('paste', {{clipboardData: d, bubbles: true}})); return true; }})()",
            t = js(&trace.0)
        ));
        c.paste(&trace.0);
        assert_eq!(
            c.eval("document.getElementById('kbook-q').value.includes('\\n')"),
            false,
            "a one-line field kept the paste's line breaks"
        );
        let first = c.wait_for(
            "(() => { const a = document.querySelector('#kbook-q-results .kbook-hit[data-id]'); return a && a.dataset.id; })()",
        );
        assert_eq!(
            first,
            trace.1.as_str(),
            "first result for the trace pasted into the search box"
        );
        // The box searched for the paste with its lines, and hands them to the search page.
        let all = c.eval("document.querySelector('#kbook-q-results .kbook-search-all').href");
        assert!(
            all.as_str().is_some_and(|href| href.contains("%0A")),
            "the search box lost the paste's lines: {all}"
        );
        c.eval("(() => { const q = document.getElementById('kbook-q'); q.value = ''; q.blur(); return true; })()");
    }
    // The search page, from the home page's hint link.
    c.follow(".site-title");
    c.follow(".hero .hint a");
    c.tab
        .wait_for_element("#kbook-paste")
        .unwrap()
        .click()
        .unwrap();
    c.paste(&trace.0);
    assert!(
        c.eval("document.getElementById('kbook-paste').value.split('\\n').length")
            .as_u64()
            > Some(1),
        "the paste lost its lines"
    );
    let first = c.wait_for(
        "(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()",
    );
    assert_eq!(
        first,
        trace.1.as_str(),
        "first result for the pasted trace ({origin:?})"
    );
    // A result that matched an error text links the top of its page (the error is there).
    if origin != Origin::Single {
        let links = c.eval(
            "[...document.querySelectorAll('#kbook-search-page-results .kbook-result')].filter(l => l.querySelector('.kbook-hit-error')).map(l => l.querySelector('a').href)",
        );
        let links = links.as_array().unwrap();
        assert!(!links.is_empty());
        assert!(
            links.iter().all(|h| !h.as_str().unwrap().contains('#')),
            "{links:?}"
        );
    }
    c.follow("#kbook-search-page-results .kbook-result a");
    let id = if origin == Origin::Single {
        c.eval("location.hash.slice(1)")
    } else {
        c.eval("document.querySelector('article.entry').dataset.entryId")
    };
    assert_eq!(id, trace.1.as_str());
    let marks = c.wait_for("document.querySelectorAll('article.entry mark.kbook-hl').length");
    assert!(marks.as_u64() > Some(0), "no highlighted terms");
    // A result whose passage is in a later section links its heading, and the entry opens
    // there (a query the native index answers so, found first).
    let index = super::versions::native_index(built);
    let (q, hit) = labelled()
        .into_iter()
        .find_map(|(q, _)| {
            let res = index.search(&q, &Default::default()).ok()?;
            let hit = res
                .hits
                .into_iter()
                .find(|h| h.matched_error.is_none() && h.snippet.anchor.is_some())?;
            Some((q, hit))
        })
        .expect("no curated query has a hit whose passage is in a later section");
    let anchor = hit.snippet.anchor.clone().unwrap();
    // The single file prefixes a page's ids with its section's.
    let heading = match origin {
        Origin::Single => format!("{}--{anchor}", hit.id),
        _ => anchor.clone(),
    };
    match origin {
        Origin::Http => c.open(&format!("{}search.html?q={}", built.http, url_encode(&q))),
        Origin::File => c.open(&format!(
            "{}?q={}",
            file_url(&built.unzipped.join("search.html")),
            url_encode(&q)
        )),
        Origin::Single => {
            c.open(&format!("{}#kb-search", file_url(&built.single)));
            c.tab
                .wait_for_element("#kbook-paste")
                .unwrap()
                .click()
                .unwrap();
            c.paste(&q);
        }
    }
    let result = format!(
        "#kbook-search-page-results .kbook-result[data-id={id}] a",
        id = js(&hit.id)
    );
    let href = c.follow(&result);
    assert!(href.ends_with(&format!("#{heading}")), "{href} ({q})");
    let at = c.wait_for(&format!(
        "(() => {{ const h = document.getElementById({a}); return document.readyState === 'complete' && h && h.offsetParent !== null && \
           [h.tagName, Math.round(h.getBoundingClientRect().top), window.scrollY > 0]; }})()",
        a = js(&heading)
    ));
    assert!(at[0].as_str().unwrap().starts_with('H'), "{at}");
    assert!(
        at[1].as_i64().unwrap().abs() < 200,
        "the heading is not at the top: {at}"
    );
    assert_eq!(at[2], true, "{at}");
    let shown = c.eval(&format!(
        "document.getElementById({a}).firstChild.textContent.trim()",
        a = js(&heading)
    ));
    assert_eq!(shown, hit.snippet.section.as_deref().unwrap());
    // The entry is highlighted there too.
    let marks = c.wait_for(&format!(
        "(() => {{ const h = document.getElementById({a}); const n = h.closest('article.entry').querySelectorAll('mark.kbook-hl').length; return n > 0 && n; }})()",
        a = js(&heading)
    ));
    assert!(
        marks.as_u64() > Some(0),
        "no highlighted terms at the heading"
    );
    if origin == Origin::Single {
        // The same result followed again from the header's box, its place already shown: no
        // hashchange comes, and the words are highlighted all the same.
        let marks_here = format!(
            "document.getElementById({a}).closest('article.entry').querySelectorAll('mark.kbook-hl').length",
            a = js(&heading)
        );
        c.eval(&format!(
            "(() => {{ document.getElementById({a}).closest('article.entry').querySelector('.kbook-hl-clear').click(); return true; }})()",
            a = js(&heading)
        ));
        assert_eq!(c.eval(&marks_here), 0);
        c.tab.find_element("#kbook-q").unwrap().click().unwrap();
        c.paste(&q);
        let box_hit = format!(
            ".kbook-search-results .kbook-hit[data-id={id}]",
            id = js(&hit.id)
        );
        c.wait_for(&format!("document.querySelector({s})", s = js(&box_hit)));
        c.tab.find_element(&box_hit).unwrap().click().unwrap();
        let marks = c.wait_for(&format!(
            "(() => {{ const n = {marks_here}; return n > 0 && n; }})()"
        ));
        assert!(
            marks.as_u64() > Some(0),
            "no highlight for the place already shown"
        );
        // Left and visited again without a search, the entry shows no old words.
        c.eval("(() => { location.hash = '#kb-home'; return true; })()");
        c.wait_for("document.getElementById('kb-home').offsetParent !== null");
        c.eval(&format!(
            "(() => {{ location.hash = '#' + encodeURIComponent({a}); return true; }})()",
            a = js(&heading)
        ));
        c.wait_for(&format!(
            "document.getElementById({a}).offsetParent !== null",
            a = js(&heading)
        ));
        assert_eq!(c.eval(&marks_here), 0, "old words on a later visit");
    }
    c.assert_no_errors(&format!("reader flow ({origin:?})"));
}

#[test]
fn reader_flow_over_http() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::Http, &b.trace);
}

#[test]
fn reader_flow_from_unzipped_bundle() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::File, &b.trace);
    // Deep links work from disk too.
    c.open(&format!(
        "{}?q={}",
        file_url(&b.plain.unzipped.join("search.html")),
        url_encode(&b.short.0)
    ));
    assert_eq!(
        c.wait_for("(() => { const li = document.querySelector('.kbook-result'); return li && li.dataset.id; })()"),
        b.short.1.as_str()
    );
    c.assert_no_errors("search.html?q= from the bundle");
}

#[test]
fn reader_flow_in_the_single_file() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    reader_flow(&c, &b.plain, Origin::Single, &b.trace);
    // Entries are reachable by #id, and the header search links results to #id.
    c.open(&format!("{}#{}", file_url(&b.plain.single), b.short.1));
    assert_eq!(c.eval(VISIBLE_SECTIONS), serde_json::json!([b.short.1]));
    c.tab.find_element("#kbook-q").unwrap().click().unwrap();
    c.tab.type_str(&b.short.0).unwrap();
    let href = c.wait_for("(() => { const a = document.querySelector('.kbook-search-results .kbook-hit'); return a && a.getAttribute('href'); })()");
    assert_eq!(href, format!("#{}", b.short.1).as_str());
    c.assert_no_errors("single file");
}

#[test]
fn keyboard_only() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    let (q, expect) = &b.short;
    c.open(&format!("{}index.html", b.plain.http));
    // Tab reaches the skip link first; Enter moves focus to the content.
    c.tab.press_key("Tab").unwrap();
    assert_eq!(c.eval("document.activeElement.className"), "skip-link");
    c.tab.press_key("Enter").unwrap();
    c.wait_for("document.activeElement && document.activeElement.id === 'main'");
    // "/" focuses the search; arrows move through results; Enter opens the highlighted one.
    c.tab.press_key("/").unwrap();
    assert_eq!(c.eval("document.activeElement.id"), "kbook-q");
    c.tab.type_str(q).unwrap();
    c.wait_for("document.querySelectorAll('.kbook-search-results .kbook-hit').length > 1");
    // A screen reader hears how many results came (the list alone says nothing).
    let said = c.wait_for(SPOKEN);
    assert!(
        said.as_str().is_some_and(|s| s.ends_with(" results")),
        "{said}"
    );
    for key in ["ArrowDown", "ArrowDown", "ArrowUp"] {
        c.tab.press_key(key).unwrap();
    }
    let active = c.eval(
        "(() => { const id = document.activeElement.getAttribute('aria-activedescendant'); const a = id && document.getElementById(id); return a && {id: a.dataset.id, first: a === document.querySelector('.kbook-search-results .kbook-hit'), href: a.href}; })()",
    );
    assert_eq!(active["first"], true, "{active}");
    assert_eq!(active["id"], expect.as_str());
    c.tab.press_key("Enter").unwrap();
    c.wait_for_location(active["href"].as_str().unwrap());
    // Escape closes the results, a second Escape leaves the box.
    c.tab.press_key("/").unwrap();
    c.tab.type_str(q).unwrap();
    c.wait_for("!document.querySelector('.kbook-search-results').hidden && document.querySelector('.kbook-search-results .kbook-hit')");
    c.tab.press_key("Escape").unwrap();
    assert_eq!(
        c.eval("document.querySelector('.kbook-search-results').hidden"),
        true
    );
    c.tab.press_key("Escape").unwrap();
    assert_ne!(c.eval("document.activeElement.id"), "kbook-q");
    // Leaving the box keeps what was typed or pasted.
    assert_eq!(
        c.eval("document.getElementById('kbook-q').value"),
        q.as_str()
    );
    // Recent searches: an empty box offers the last search; Enter runs it again. Emptying
    // the box leaves nothing said about the search that was in it.
    c.tab.press_key("/").unwrap();
    c.wait_for(SPOKEN);
    c.eval("document.getElementById('kbook-q').select()");
    c.tab.press_key("Backspace").unwrap();
    c.wait_for(&format!("{SPOKEN} === null"));
    let recent = c.wait_for("(() => { const a = document.querySelector('.kbook-search-results .kbook-recent-item'); return a && a.dataset.recent; })()");
    assert_eq!(recent, q.as_str());
    c.tab.press_key("ArrowDown").unwrap();
    c.tab.press_key("Enter").unwrap();
    c.wait_for(&format!(
        "document.getElementById('kbook-q').value === {} && document.querySelector('.kbook-search-results .kbook-hit')",
        js(q)
    ));
    c.tab.press_key("Escape").unwrap();
    c.tab.press_key("Escape").unwrap();
    // Tab reaches the theme toggle; Enter switches the theme.
    let before = c.eval("document.documentElement.dataset.theme");
    let mut reached = false;
    for _ in 0..12 {
        c.tab.press_key("Tab").unwrap();
        if c.eval("document.activeElement.classList.contains('theme-toggle')") == true {
            reached = true;
            break;
        }
    }
    assert!(reached, "Tab never reached the theme toggle");
    c.tab.press_key("Enter").unwrap();
    assert_ne!(c.eval("document.documentElement.dataset.theme"), before);

    // On the search page, a weak answer is said to be one, and pressing a chip or "Show
    // more" keeps the focus where the reader was, not at the top of the page.
    c.open(&format!(
        "{}search.html?q={}",
        b.plain.http,
        url_encode("my job is slow sometimes")
    ));
    let said = c.wait_for(&format!(
        "document.querySelector('.kbook-results') && {SPOKEN}"
    ));
    assert!(
        said.as_str()
            .is_some_and(|s| s.starts_with("No confident match.")),
        "{said}"
    );
    c.open(&format!(
        "{}search.html?q={}",
        b.plain.http,
        url_encode("Caused by: java.lang.RuntimeException timeout connection")
    ));
    c.wait_for("document.querySelector('.kbook-more')");
    // More match than the page shows: the reader hears how many in all.
    let said = c.eval(SPOKEN);
    assert!(
        said.as_str().is_some_and(|s| s.contains("20 of ")),
        "{said}"
    );
    c.eval("document.querySelector('.kbook-more').focus()");
    c.tab.press_key("Enter").unwrap();
    c.wait_for(
        "document.querySelectorAll('.kbook-results .kbook-hit').length > 20 \
         && document.activeElement === document.querySelectorAll('.kbook-results .kbook-hit')[20]",
    );
    c.eval("document.querySelector('.kbook-chip[data-facet=kind]').focus()");
    let chip = c.eval("document.activeElement.dataset.value");
    c.tab.press_key("Enter").unwrap();
    c.wait_for(&format!(
        "document.activeElement.classList.contains('kbook-chip') \
         && document.activeElement.dataset.value === {} \
         && document.activeElement.getAttribute('aria-pressed') === 'true'",
        chip
    ));
    // The address of a long search opened where it was not run says why the page is empty.
    c.open(&format!("{}search.html?paste=0badc0de", b.plain.http));
    let said = c.wait_for("document.getElementById('kbook-search-status').textContent");
    assert!(
        said.as_str()
            .is_some_and(|s| s.contains("Paste the error again")),
        "{said}"
    );
    c.assert_no_errors("keyboard only");
}

#[test]
fn theme_persists_phone_layout_and_print() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    for origin in [Origin::Http, Origin::File, Origin::Single] {
        c.open(&start_url(&b.plain, origin));
        let before = c.eval("document.documentElement.dataset.theme");
        c.tab
            .find_element(".theme-toggle")
            .unwrap()
            .click()
            .unwrap();
        let after = c.eval("document.documentElement.dataset.theme");
        assert_ne!(before, after, "{origin:?}");
        c.reload();
        assert_eq!(
            c.eval("document.documentElement.dataset.theme"),
            after,
            "theme not kept over a reload ({origin:?})"
        );
        c.assert_no_errors(&format!("theme ({origin:?})"));
    }
    // Toggled back to the system's theme, the page follows the system again, as it changes.
    c.open(&start_url(&b.plain, Origin::Http));
    c.tab
        .find_element(".theme-toggle")
        .unwrap()
        .click()
        .unwrap();
    assert_eq!(
        c.eval("localStorage.getItem('kbook-theme')"),
        serde_json::Value::Null
    );
    c.color_scheme("dark");
    c.wait_for("document.documentElement.dataset.theme === 'dark'");
    c.color_scheme("light");
    c.wait_for("document.documentElement.dataset.theme === 'light'");

    // 375 px: no horizontal scroll anywhere; the sidebar folds away behind its toggle.
    c.viewport(375, 812, true);
    let entry = format!("{}{}", b.plain.http, entry_url(&b.plain, &b.short.1));
    let pages = [
        format!("{}index.html", b.plain.http),
        format!("{}kafka/index.html", b.plain.http),
        entry.clone(),
        format!("{}search.html?q={}", b.plain.http, url_encode(&b.trace.0)),
        format!("{}no-such-page.html", b.plain.http),
    ];
    for url in &pages {
        c.open(url);
        if url.contains("search.html") {
            c.wait_for("document.querySelector('.kbook-result')");
        }
        let widths = c.eval("[document.documentElement.scrollWidth, window.innerWidth]");
        assert!(
            widths[0].as_u64() <= widths[1].as_u64(),
            "{url}: horizontal scroll at 375 px: {widths}"
        );
    }
    // 360 × 740: the best match starts on the first screen, under the paste and the filters.
    c.viewport(360, 740, true);
    c.open(&pages[3]);
    let top = c.wait_for(
        "(() => { const r = document.querySelector('.kbook-result'); return r && Math.round(r.getBoundingClientRect().top); })()",
    );
    let screen = c.eval("innerHeight");
    assert!(
        top.as_i64() < screen.as_i64(),
        "the first result starts at {top}, below the screen's {screen}"
    );
    c.viewport(375, 812, true);
    // A link to a section shows its heading below the sticky header (two rows here).
    c.open(&entry);
    let last = c.eval("document.querySelectorAll('article.entry h2[id]')[1].id");
    c.open(&format!("{}index.html", b.plain.http));
    c.open(&format!("{entry}#{}", last.as_str().unwrap()));
    assert!(
        c.eval("scrollY").as_f64() > Some(0.0),
        "the page did not scroll to the section"
    );
    let (top, header) = (
        c.eval(&format!(
            "Math.round(document.getElementById({last}).getBoundingClientRect().top)"
        )),
        c.eval("Math.round(document.querySelector('.site-header').getBoundingClientRect().bottom)"),
    );
    assert!(
        top.as_i64() >= header.as_i64(),
        "heading at {top} under the header ending at {header}"
    );
    // 320 px (the reflow width): a result titled with a long identifier wraps.
    c.viewport(320, 640, true);
    c.open(&format!(
        "{}search.html?q={}",
        b.plain.http,
        url_encode("error 134 ReadConcernMajorityNotAvailableYet after a topology change")
    ));
    c.wait_for("document.querySelector('.kbook-result')");
    let widths = c.eval("[document.documentElement.scrollWidth, window.innerWidth]");
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "horizontal scroll at 320 px: {widths}"
    );
    c.viewport(375, 812, true);
    c.open(&entry);
    assert_eq!(
        c.eval("getComputedStyle(document.getElementById('sidebar')).display"),
        "none"
    );
    c.tab.find_element(".nav-toggle").unwrap().click().unwrap();
    assert_ne!(
        c.eval("getComputedStyle(document.getElementById('sidebar')).display"),
        "none"
    );
    assert_eq!(
        c.eval("document.querySelector('.nav-toggle').getAttribute('aria-expanded')"),
        "true"
    );
    // The header's links are in the panel; Escape closes it and returns to the toggle.
    assert_ne!(
        c.eval("getComputedStyle(document.querySelector('#sidebar .sidebar-site-links')).display"),
        "none"
    );
    c.tab.press_key("Escape").unwrap();
    assert_eq!(
        c.eval("document.querySelector('.nav-toggle').getAttribute('aria-expanded')"),
        "false"
    );
    assert_eq!(
        c.eval("document.activeElement.classList.contains('nav-toggle')"),
        true
    );
    c.take_errors(); // the 404 page answered 404, which Chromium logs

    // Print: only the entry.
    c.viewport(1280, 800, false);
    c.open(&entry);
    c.media("print");
    let shown = c.eval(
        "['.site-header', '.sidebar', '.site-footer', '.copy-button', 'article.entry'].map(s => { const e = document.querySelector(s); return e ? getComputedStyle(e).display : 'none'; })",
    );
    assert_eq!(
        shown,
        serde_json::json!(["none", "none", "none", "none", "block"])
    );
    // A long stack trace prints whole, and in the light colours even from the dark theme.
    c.open(&format!(
        "{}{}",
        b.plain.http,
        entry_url(&b.plain, "hologres-backpressure-exceed-reject-limit")
    ));
    c.eval("document.documentElement.dataset.theme = 'dark'");
    // About an A4 page's width inside its margins.
    c.viewport(680, 900, false);
    let cut = c.eval(
        "[...document.querySelectorAll('article.entry pre')].filter(p => p.scrollWidth > p.clientWidth + 1).length",
    );
    assert_eq!(cut, 0, "code blocks cut off in print");
    // The brightest syntax colour's channels sum: the dark theme's are near white.
    let brightest = c.eval(
        "Math.max(...[...document.querySelectorAll('article.entry pre [class^=hl-]')].map(e => getComputedStyle(e).color.match(/\\d+/g).slice(0, 3).reduce((a, b) => a + +b, 0)))",
    );
    assert!(
        brightest
            .as_f64()
            .is_some_and(|v| (0.0..600.0).contains(&v)),
        "syntax colours for a dark screen on paper: {brightest}"
    );
    c.media("");
    c.assert_no_errors("phone and print");
}

#[test]
fn strict_csp_over_http_from_disk_and_single_file() {
    let b = books();
    let _one = one_browser();
    let built = &b.csp;
    // opensearch.xml with the site-url; none without.
    let opensearch = std::fs::read_to_string(built.site.join("opensearch.xml")).unwrap();
    assert!(opensearch.contains("https://kb.example.org/search.html?q={searchTerms}"));
    assert!(!b.plain.site.join("opensearch.xml").exists());
    let c = chromium();
    for origin in [Origin::Http, Origin::File, Origin::Single] {
        c.open(&start_url(built, origin));
        assert!(
            c.eval("document.querySelector('meta[http-equiv=Content-Security-Policy]') !== null")
                == true,
            "no CSP meta tag ({origin:?})"
        );
        if origin != Origin::Single {
            assert_eq!(
                c.eval("!!document.querySelector('link[rel=search][type=\"application/opensearchdescription+xml\"]')"),
                true
            );
        }
        reader_flow(&c, built, origin, &b.trace);
        let hits = c.eval(&format!(
            "window.kbook.search({}, {{limit: 3}})",
            js(&b.short.0)
        ));
        assert_eq!(hits[0]["id"], b.short.1.as_str(), "{origin:?}");
        c.assert_no_errors(&format!("CSP on ({origin:?})"));
    }
    // The 404 page (with <base> from the site-url) and its search.
    c.open(&format!(
        "{}kafka/offset-out-of-range-gone.html",
        built.http
    ));
    c.wait_for("document.querySelector('.kbook-404-results li a')");
    assert_eq!(
        c.eval("getComputedStyle(document.querySelector('.site-header')).position"),
        "sticky",
        "the 404 page lost its styles"
    );
    let errors: Vec<String> = c
        .take_errors()
        .into_iter()
        .filter(|e| !e.contains("404"))
        .collect();
    assert!(errors.is_empty(), "404 page with CSP: {errors:#?}");
}
