//! Script injection in real Chromium: a book whose configuration, front-matter, Markdown and
//! search queries carry XSS payloads is built by the real `kbook` binary, served on loopback
//! and loaded page by page. No payload may run (`window.__xss` stays undefined), no element
//! may carry an inline event handler, and no `javascript:` URL may be rendered as a link.
//! Also: a truncated index, a newer index format, a stale module and a page expecting another
//! ABI version make the UI say that search is unavailable and the site must be rebuilt, while
//! the page keeps working.

use crate::common::{Chromium, build_site, chromium, serve, url_encode, walk};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Every payload sets `window.__xss` if it runs.
const PAYLOADS: [&str; 16] = [
    "<script>window.__xss='script'</script>",
    "<img src=x onerror=\"window.__xss='img-onerror'\">",
    "<svg onload=\"window.__xss='svg-onload'\"></svg>",
    "<svg><script>window.__xss='svg-script'</script></svg>",
    "\"><img src=x onerror=window.__xss='attr-break'>",
    "'><svg/onload=window.__xss='attr-break-single'>",
    "<a href=\"javascript:window.__xss='js-link'\">click</a>",
    "<a href=\"JaVaScRiPt:window.__xss='js-link-case'\">click</a>",
    "<a href=\"&#106;avascript:window.__xss='js-link-entity'\">click</a>",
    "<iframe src=\"javascript:window.__xss='iframe'\"></iframe>",
    "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__xss='mxss'\">",
    "<details open ontoggle=\"window.__xss='ontoggle'\">x</details>",
    "<body onload=\"window.__xss='body-onload'\">",
    "{{ site.title }}{% if true %}TEMPLATE-RAN{% endif %}",
    "{% raw %}{{ 7*7 }}{% endraw %}<!-- {{ config }} -->",
    "</textarea></title></script><script>window.__xss='close-tags'</script>",
];

/// Markdown-level links and images. `javascript:`, `vbscript:` and `data:` links and script
/// image sources, even disguised with a tab or a control character, are build errors (see
/// tests/testsuite/bad_input.rs), so the book carries only a `data:image/` image.
const MARKDOWN_LINKS: &str = "![img](data:image/gif;base64,R0lGODlhAQABAAAAACw=)\n";

fn yaml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

fn toml_str(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The hostile book: payloads in book.toml, every front-matter string, headings, the body,
/// code fence info strings and tables.
fn write_book(root: &Path, sanitize: bool) {
    let p = PAYLOADS;
    let mut toml = format!(
        "[book]\ntitle = {}\ndescription = {}\nauthors = [{}]\n\n[output.html]\nsite-url = \"https://kb.example.org/\"\n",
        toml_str(&format!("KB {}", p[0])),
        toml_str(p[1]),
        toml_str(p[2]),
    );
    if !sanitize {
        toml.push_str("sanitize-html = false\n");
    }
    toml.push_str(&format!(
        "\n[[kbook.connectors]]\nslug = \"kafka\"\nname = {}\ndescription = {}\n",
        toml_str(&format!("Kafka {}", p[4])),
        toml_str(p[5])
    ));
    std::fs::write(root.join("book.toml"), toml).unwrap();
    let dir = root.join("content/kafka");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, payload) in p.iter().enumerate() {
        let errors: Vec<String> = p
            .iter()
            .map(|q| format!("  - {}", yaml_str(&format!("XssError{i}: {q}"))))
            .collect();
        let text = format!(
            "---\ntitle: {title}\nconnector: kafka\nkind: error\nerrors:\n{errors}\ntags: [{tag1}, {tag2}]\nversions:\n  - product: vvr\n    affected: \">=1.0\"\n    note: {note}\n---\n## {payload} heading\n\nBody {i}: {payload}\n\n{links}\n\n```{fence}\ncode {payload}\n```\n\n| h {payload} |\n|---|\n| {payload} |\n\n> [!NOTE]\n> {payload}\n\n[self](xss-{i}.md)\n",
            title = yaml_str(&format!("Xss title {i} {payload}")),
            errors = errors.join("\n"),
            // Tags must be slugs: a payload there is a build error, so they carry none.
            tag1 = yaml_str("xss"),
            tag2 = yaml_str(&format!("tag-{i}")),
            note = yaml_str(payload),
            links = MARKDOWN_LINKS,
            fence = "\"><img src=x onerror=window.__xss='fence'>",
        );
        std::fs::write(dir.join(format!("xss-{i}.md")), text).unwrap();
    }
}

fn build(root: &Path, dest: &Path) {
    let o = build_site(root, dest, &[]);
    assert!(
        o.status.success(),
        "kbook build failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// No payload ran, no inline handler, no `javascript:` URL on any link-like element.
fn assert_clean(c: &Chromium, what: &str) {
    let report = c.eval(
            "(() => { \
               const bad = []; \
               if (typeof window.__xss !== 'undefined') bad.push('window.__xss = ' + window.__xss); \
               for (const el of document.querySelectorAll('*')) { \
                 for (const a of el.attributes) { \
                   if (/^on/i.test(a.name)) bad.push(el.tagName + ' has ' + a.name); \
                   if (['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'srcdoc'].includes(a.name.toLowerCase())) { \
                     let proto = ''; try { proto = new URL(a.value, location.href).protocol; } catch (e) {} \
                     if (proto === 'javascript:' || (proto === 'data:' && el.tagName !== 'IMG')) bad.push(el.tagName + ' ' + a.name + '=' + a.value); \
                   } \
                 } \
               } \
               if (document.body && document.body.textContent.includes('TEMPLATE-RAN') && !document.body.textContent.includes('{% if true %}')) bad.push('template syntax in content was evaluated'); \
               return bad; })()",
        );
    assert_eq!(report, serde_json::json!([]), "{what}");
}

struct Built {
    _dir: tempfile::TempDir,
    site: PathBuf,
    http: String,
}

fn built(sanitize: bool) -> Built {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    std::fs::create_dir_all(&book).unwrap();
    write_book(&book, sanitize);
    let site = dir.path().join("site");
    build(&book, &site);
    let http = serve(site.clone());
    Built {
        _dir: dir,
        site,
        http,
    }
}

fn html_pages(site: &Path) -> Vec<String> {
    walk(site)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| p.strip_prefix(site).unwrap().to_string_lossy().to_string())
        .collect()
}

#[test]
fn no_payload_runs_on_any_page_or_in_search() {
    let b = built(true);
    let pages = html_pages(&b.site);
    assert!(pages.len() > PAYLOADS.len(), "{pages:?}");
    // In the files: only kbook's own script tags, and the template syntax left as text.
    for page in &pages {
        let html = std::fs::read_to_string(b.site.join(page)).unwrap();
        for chunk in html.split("<script").skip(1) {
            let element = chunk.split("</script>").next().unwrap_or_default();
            let (tag, inline) = element.split_once('>').unwrap_or((element, ""));
            assert!(
                tag.contains(" src=") && inline.trim().is_empty(),
                "{page}: inline script: <script{element}"
            );
        }
        assert!(!html.contains("TEMPLATE-RAN{% endif %}") || html.contains("{% if true %}"));
    }
    let entry = std::fs::read_to_string(b.site.join("kafka/xss-13.html")).unwrap();
    assert!(
        entry.contains("{{ site.title }}"),
        "template syntax in content must stay text"
    );

    let c = chromium();
    for page in &pages {
        c.open(&format!("{}{page}", b.http));
        assert_clean(&c, page);
    }

    // Search results for every payload, in the box and on the search page (?q=).
    c.open(&format!("{}index.html", b.http));
    c.eval("window.kbook.ready()");
    for (i, payload) in PAYLOADS.iter().enumerate() {
        let hits = c.eval(&format!(
            "window.kbook.search({}, {{limit: 20}})",
            serde_json::to_string(payload).unwrap()
        ));
        assert!(
            hits.as_array().is_some_and(|h| !h.is_empty()),
            "payload {i} finds its entries: {hits}"
        );
    }
    for payload in PAYLOADS {
        c.open(&format!("{}index.html", b.http));
        c.tab
            .wait_for_element("form.kbook-search input[type=search]")
            .unwrap()
            .click()
            .unwrap();
        // Pasted, as people paste errors: one input event for the whole payload (typing each
        // character took minutes over the payloads).
        c.tab.send_character(payload).unwrap();
        c.wait_for("document.querySelector('.kbook-search-results .kbook-hit, .kbook-search-results .kbook-search-message:not(:empty)')");
        c.wait_for(
            "!document.querySelector('.kbook-search-results').textContent.includes('Loading')",
        );
        assert_clean(&c, &format!("search box: {payload}"));

        c.open(&format!("{}search.html?q={}", b.http, url_encode(payload)));
        c.wait_for("document.querySelector('#kbook-search-page-results .kbook-result, .kbook-no-match, .kbook-no-confident')");
        assert_eq!(
            c.eval("document.getElementById('kbook-paste').value"),
            payload,
            "?q= is shown as text"
        );
        assert_clean(&c, &format!("search.html?q={payload}"));
    }
    // A ?q= that is pure markup, and one that tries to break out of the URL handling.
    for q in [
        "%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E",
        "%22%3E%3Cscript%3Ewindow.__xss%3D2%3C%2Fscript%3E&connector=%3Csvg%20onload%3Dwindow.__xss%3D3%3E",
        "javascript:window.__xss=4",
    ] {
        c.open(&format!("{}search.html?q={q}", b.http));
        c.wait_for("document.querySelector('#kbook-search-page-results .kbook-result, .kbook-no-match, .kbook-no-confident')");
        assert_clean(&c, &format!("search.html?q={q}"));
    }
}

#[test]
fn sanitizing_can_be_switched_off_but_front_matter_stays_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    std::fs::create_dir_all(&book).unwrap();
    write_book(&book, false);
    let site = dir.path().join("site");
    build(&book, &site);
    let html = std::fs::read_to_string(site.join("kafka/xss-0.html")).unwrap();
    assert!(
        html.contains("Body 0: <script>window.__xss='script'</script>"),
        "raw HTML kept with sanitize-html = false"
    );
    assert!(
        html.contains("Xss title 0 &lt;script&gt;"),
        "the title is still escaped"
    );
}

// ---------------------------------------------------------------- broken search assets

fn search_file(site: &Path, prefix: &str, ext: &str) -> PathBuf {
    std::fs::read_dir(site.join("search"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .and_then(OsStr::to_str)
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(ext))
        })
        .unwrap_or_else(|| panic!("no search/{prefix}*{ext}"))
}

/// Types into the box and waits for the "unavailable" message; the page still works.
fn assert_unavailable(c: &Chromium, base: &str, what: &str) -> String {
    c.open(&format!("{base}index.html"));
    c.tab
        .wait_for_element("form.kbook-search input[type=search]")
        .unwrap()
        .click()
        .unwrap();
    c.tab.type_str("kafka").unwrap();
    let msg = c.wait_for(
        "(() => { const m = document.querySelector('.kbook-search-results .kbook-search-error'); return m && m.textContent; })()",
    );
    let msg = msg.as_str().unwrap_or_default().to_string();
    assert!(
        msg.contains("Search is unavailable") && msg.to_lowercase().contains("rebuild"),
        "{what}: {msg}"
    );
    // The API rejects with the same reason instead of hanging.
    let api = c.eval("window.kbook.search('kafka').then(() => 'resolved', e => String(e.message))");
    assert!(
        api.as_str().is_some_and(|m| m.contains("rebuild")),
        "{what}: {api}"
    );
    // The rest of the page works: navigation and the search page.
    c.open(&format!("{base}search.html?q=kafka"));
    let status = c.wait_for(
        "(() => { const s = document.querySelector('#kbook-search-status'); return s && s.textContent.includes('rebuild') && s.textContent; })()",
    );
    // The search page says "Search is unavailable: …" or, once the query ran, "Search
    // failed: …", both with the reason and the rebuild hint.
    assert!(
        status
            .as_str()
            .is_some_and(|s| s.contains("Search is unavailable") || s.contains("Search failed")),
        "{what}: {status}"
    );
    c.open(&format!("{base}kafka/index.html"));
    let links = c.eval("document.querySelectorAll('a[href$=\".html\"]').length");
    assert!(links.as_u64().is_some_and(|n| n > 3), "{what}: page broken");
    assert_clean(c, what);
    msg
}

/// The index files a page may load: the whole packed index, and the head of a block-split
/// index where the build writes one (loaded over http instead of the whole index).
fn index_files(site: &Path) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = std::fs::read_dir(site.join("search"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name().and_then(OsStr::to_str).is_some_and(|n| {
                n.starts_with("index.") && (n.ends_with(".bin") || n.ends_with(".head"))
            })
        })
        .collect();
    assert!(!files.is_empty(), "no search/index.*.bin");
    files
}

#[test]
fn corrupt_or_stale_search_assets_say_search_is_unavailable() {
    let b = built(true);
    let index: Vec<(PathBuf, Vec<u8>)> = index_files(&b.site)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    let c = chromium();

    // Truncated index.
    for (path, good) in &index {
        std::fs::write(path, &good[..good.len() / 2]).unwrap();
    }
    let msg = assert_unavailable(&c, &b.http, "truncated index");
    assert!(
        msg.contains("corrupt") || msg.contains("truncated"),
        "{msg}"
    );

    // An index of a newer format than the module reads (a stale cached module). Every
    // index file starts with its magic, then the format version (little-endian u32).
    let at = kbook_search::MAGIC.len();
    let version = kbook_search::FORMAT_VERSION + 1;
    for (path, good) in &index {
        let mut newer = good.clone();
        newer[at..at + 4].copy_from_slice(&version.to_le_bytes());
        std::fs::write(path, &newer).unwrap();
    }
    let msg = assert_unavailable(&c, &b.http, "newer index format");
    assert!(msg.contains(&format!("index format {version}")), "{msg}");
    for (path, good) in &index {
        std::fs::write(path, good).unwrap();
    }

    // A module that does not match the page (an old ABI): valid wasm, no exports.
    let module = search_file(&b.site, "", ".wasm");
    let real = std::fs::read(&module).unwrap();
    std::fs::write(&module, b"\0asm\x01\0\0\0").unwrap();
    assert_unavailable(&c, &b.http, "stale module");
    // Not wasm at all.
    std::fs::write(&module, b"<html>404</html>").unwrap();
    assert_unavailable(&c, &b.http, "garbage module");
    std::fs::write(&module, real).unwrap();

    // A module with the same exports whose calls mean something else (another ABI version):
    // the page expects a version the real module does not report.
    let script = b.site.join("search").join("search.js");
    let page_js = std::fs::read_to_string(&script).unwrap();
    let version: u32 = page_js
        .split_once("var ABI_VERSION = ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .and_then(|(n, _)| n.parse().ok())
        .expect("search.js declares `var ABI_VERSION = N;`");
    let other = version + 1;
    std::fs::write(
        &script,
        page_js.replace(
            &format!("var ABI_VERSION = {version};"),
            &format!("var ABI_VERSION = {other};"),
        ),
    )
    .unwrap();
    let msg = assert_unavailable(&c, &b.http, "another ABI version");
    assert!(
        msg.contains(&format!("ABI {version}, not {other}")),
        "{msg}"
    );
    std::fs::write(&script, page_js).unwrap();
}
