//! The page chrome in the book's language: a Chinese starter book (`kbook init --language
//! zh`) built by the real binary and read in Debian's headless Chromium (texts, `<html lang>`,
//! dates, the version picker, the 404 page, axe-core, a screenshot in
//! `<target>/screenshots/`), overrides from `[kbook.strings]`, and bad keys reported at their
//! line.

use crate::common::{
    Chromium, axe_source, chromium, kbook, kbook_command, serve, url_encode, walk,
};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("i18n")
}

struct Book {
    root: PathBuf,
    site: PathBuf,
    http: String,
}

/// `kbook init` with `args` into scratch/name, `extra` appended to its book.toml, built with
/// a single file beside it and served on 127.0.0.1.
fn init_and_build(name: &str, args: &[&str], extra: &str) -> Book {
    let dir = scratch().join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    let root = dir.join("book");
    let mut init: Vec<&OsStr> = vec![OsStr::new("init")];
    init.extend(args.iter().map(OsStr::new));
    init.push(root.as_os_str());
    kbook(&dir, &init);
    if !extra.is_empty() {
        let toml = root.join("book.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        std::fs::write(&toml, text + extra).unwrap();
    }
    let site = dir.join("site");
    let single = dir.join("kb.html");
    kbook(
        &root,
        &[
            OsStr::new("build"),
            OsStr::new("--deny-warnings"),
            OsStr::new("--dest"),
            site.as_os_str(),
            OsStr::new("--single-file"),
            single.as_os_str(),
        ],
    );
    let http = serve(site.clone());
    Book { root, site, http }
}

fn chinese() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| init_and_build("zh", &["--language", "zh"], ""))
}

/// A query the book answers with hits but no confident match (asked of `kbook search`).
fn weak_query(book: &Book) -> String {
    for q in [
        "hostname port please help",
        "port",
        "service listening timeout banana",
        "connector options",
    ] {
        let out = kbook_command()
            .args(["search", "--json", "--site"])
            .arg(&book.site)
            .arg("--book")
            .arg(&book.root)
            .arg(q)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        if v["confident"] == false && !v["hits"].as_array().unwrap().is_empty() {
            return q.to_string();
        }
    }
    panic!("no query gives a weak match in the starter book");
}

fn screenshots_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("screenshots")
}

fn screenshot(c: &Chromium, name: &str) {
    let png = c
        .tab
        .capture_screenshot(
            headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption::Png,
            None,
            None,
            true,
        )
        .unwrap();
    std::fs::create_dir_all(screenshots_dir()).unwrap();
    std::fs::write(screenshots_dir().join(format!("{name}.png")), png).unwrap();
}

fn axe(c: &Chromium) -> Vec<String> {
    c.tab.evaluate(&axe_source(), false).unwrap();
    let found = c.eval(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id + ': ' + v.help + ' ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))",
    );
    serde_json::from_value(found).unwrap()
}

fn text(c: &Chromium, selector: &str) -> String {
    c.wait_for(&format!(
        "(() => {{ const e = document.querySelector({s}); return e && e.textContent.trim(); }})()",
        s = serde_json::to_string(selector).unwrap()
    ))
    .as_str()
    .unwrap()
    .to_string()
}

#[test]
fn chinese_book_shows_chinese_chrome_and_passes_axe() {
    let book = chinese();
    let toml = std::fs::read_to_string(book.root.join("book.toml")).unwrap();
    assert!(toml.contains("language = \"zh\""), "{toml}");
    let entry = std::fs::read_to_string(
        book.root
            .join("content/example/example-connection-refused.md"),
    )
    .unwrap();
    assert!(
        entry.contains("java.net.ConnectException: Connection refused")
            && entry.contains("## 解决方法")
    );
    let weak = weak_query(book);
    let c = chromium();
    let mut problems = Vec::new();

    // Home: <html lang>, the search box, headings, footer.
    c.open(&format!("{}index.html", book.http));
    assert_eq!(c.eval("document.documentElement.lang"), "zh");
    assert_eq!(
        c.eval("document.getElementById('kbook-q').placeholder"),
        "搜索或粘贴错误信息…（/）"
    );
    assert_eq!(text(&c, "#connectors-heading"), "连接器");
    assert_eq!(text(&c, ".skip-link"), "跳到正文");
    assert!(text(&c, ".site-footer").contains("2 个条目"));
    assert_eq!(
        c.eval("document.querySelector('.theme-toggle').getAttribute('aria-label')"),
        "切换深色主题"
    );
    screenshot(&c, "zh-home");
    problems.extend(axe(&c).into_iter().map(|p| format!("home: {p}")));

    // An entry: section headings, the date, kinds, copy buttons (theme.js).
    c.open(&format!(
        "{}example/example-connection-refused.html",
        book.http
    ));
    assert_eq!(text(&c, "#error-strings-heading"), "错误信息");
    assert_eq!(text(&c, "#versions-heading"), "版本");
    assert_eq!(text(&c, ".entry-meta .updated"), "更新于 2026年1月1日");
    assert_eq!(text(&c, ".entry-meta .badge.kind-error"), "错误");
    assert_eq!(text(&c, ".versions th"), "产品");
    assert_eq!(text(&c, ".copy-button"), "复制");
    assert_eq!(text(&c, ".breadcrumb a"), "首页");
    problems.extend(axe(&c).into_iter().map(|p| format!("entry: {p}")));

    // The search page: help, the version picker, a weak match, marks for a chosen version.
    c.open(&format!("{}search.html?q={}", book.http, url_encode(&weak)));
    assert_eq!(text(&c, "h1"), "搜索");
    assert!(text(&c, "#kbook-paste-help").starts_with("结果随输入更新"));
    assert_eq!(
        c.eval("document.querySelector('#kbook-paste-help kbd').textContent"),
        "Ctrl"
    );
    assert_eq!(text(&c, "#kbook-version legend"), "你的产品版本");
    assert_eq!(text(&c, "label[for=kbook-version-product]"), "产品");
    assert_eq!(
        text(&c, ".kbook-no-confident strong"),
        "没有可信的匹配。",
        "query {weak:?}"
    );
    assert!(text(&c, ".kbook-tips-title") == "提示：");
    assert!(
        text(&c, "#kbook-search-status").contains("个结果，用时"),
        "status line"
    );
    c.eval(
        "(() => { const s = document.getElementById('kbook-version-product'); s.value = 'example-server'; s.dispatchEvent(new Event('change')); })()",
    );
    c.tab.type_str("2.0").unwrap();
    let area = "document.getElementById('kbook-paste')";
    c.eval(&format!(
        "(() => {{ {area}.value = 'Connection refused'; {area}.dispatchEvent(new Event('input')); }})()"
    ));
    assert_eq!(
        text(&c, ".kbook-result .kbook-version-mark"),
        "影响 example-server 2.0，已在 2.1 修复"
    );
    assert!(text(&c, "#kbook-version-note").starts_with("example-server 2.0 的结果"));
    assert_eq!(text(&c, ".kbook-facet-label"), "连接器：", "facet labels");
    screenshot(&c, "zh-search");
    problems.extend(axe(&c).into_iter().map(|p| format!("search: {p}")));

    // The entry page says the entry applies to the chosen version.
    c.open(&format!(
        "{}example/example-connection-refused.html",
        book.http
    ));
    assert_eq!(
        c.wait_for("(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && p.textContent; })()"),
        "适用于你的版本 example-server 2.0（已在 2.1 修复） · 更改版本"
    );
    screenshot(&c, "zh-entry");
    problems.extend(
        axe(&c)
            .into_iter()
            .map(|p| format!("entry with a version: {p}")),
    );

    // The header search box's messages.
    c.tab.find_element("#kbook-q").unwrap().click().unwrap();
    c.tab.type_str("qqqzzzvvvxxjj").unwrap();
    assert!(text(&c, ".kbook-no-match-box").starts_with("没有匹配的条目。"));
    // No empty list of nearest entries under it.
    assert_eq!(
        c.eval("document.querySelectorAll('.kbook-search-results [role=listbox]').length"),
        0
    );

    // 404 and its search link.
    c.open(&format!("{}no-such-example-entry.html", book.http));
    assert_eq!(text(&c, "h1"), "页面不存在");
    assert_eq!(text(&c, "#kbook-404-heading"), "也许是这些？");
    let link = text(&c, "a.kbook-404-link");
    assert!(link.starts_with("搜索“"), "{link}");
    c.take_errors(); // the 404 itself
    problems.extend(axe(&c).into_iter().map(|p| format!("404: {p}")));
    assert!(problems.is_empty(), "axe-core: {problems:#?}");

    // Everything the scripts show comes from the page: the Chinese set, key for key.
    c.open(&format!("{}search.html", book.http));
    c.eval("window.kbook.ready()");
    let zh = kbook::i18n::Strings::new("zh", &Default::default());
    let shown = c.eval("window.kbook.strings");
    for (key, _) in kbook::i18n::english_script_texts() {
        assert_eq!(shown[key], zh.get(key), "{key}");
    }
    c.assert_no_errors("Chinese book");

    // The single file keeps the language and the scripts' texts.
    let single = std::fs::read_to_string(book.root.parent().unwrap().join("kb.html")).unwrap();
    assert!(single.contains("<html lang=\"zh\""));
    assert!(single.contains("<meta name=\"kbook-strings\""));
    assert!(single.contains("单文件版，由 kbook 生成"));
}

/// The Chinese fixture book (tests/fixtures/zh-book) built and served: its site and URL.
fn zh_book() -> &'static (PathBuf, String) {
    static SITE: OnceLock<(PathBuf, String)> = OnceLock::new();
    SITE.get_or_init(|| {
        let site = scratch().join("zh-book-site");
        if site.exists() {
            std::fs::remove_dir_all(&site).unwrap();
        }
        let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/zh-book");
        kbook(
            &book,
            &[
                OsStr::new("build"),
                OsStr::new("--deny-warnings"),
                OsStr::new("--book"),
                book.as_os_str(),
                OsStr::new("--dest"),
                site.as_os_str(),
            ],
        );
        let http = serve(site.clone());
        (site, http)
    })
}

/// Marks in `selector`'s subtree, as a JSON list of their texts (null while there are none).
fn marks(selector: &str) -> String {
    format!(
        "(() => {{ const m = [...document.querySelectorAll({s})].map(m => m.textContent); return m.length ? m : null; }})()",
        s = serde_json::to_string(selector).unwrap()
    )
}

/// CJK text has no spaces between words: a term inside running Chinese text is marked on the
/// entry page (`?highlight=`) and in search snippets, and the mark covers exactly the term.
#[test]
fn cjk_terms_are_marked_inside_running_text() {
    let (_, http) = zh_book();
    let c = chromium();
    let term = "对比前后";
    let id = "mysql-cdc-downstream-schema-not-updated";
    // "…而是通过对比前后两条数据记录来发现结构变化…" and "…作业会对比前后记录…".
    c.open(&format!(
        "{http}mysql/{id}.html?highlight={}",
        url_encode(term)
    ));
    assert_eq!(
        c.wait_for(&marks("article.entry mark.kbook-hl")),
        serde_json::json!([term, term])
    );
    assert_eq!(
        c.eval(
            "(() => { const m = document.querySelector('article.entry mark.kbook-hl'); return [m.previousSibling.textContent.slice(-2), m.nextSibling.textContent.slice(0, 2)]; })()"
        ),
        serde_json::json!(["通过", "两条"]),
        "the mark sits between Chinese characters"
    );
    assert!(text(&c, ".kbook-hl-note").starts_with("已高亮"), "note");

    // The search page: the entry first, its snippet marks the term as one mark, and the
    // result's link carries it to the entry page.
    c.open(&format!("{http}search.html?q={}", url_encode(term)));
    let first = c.wait_for(
        "(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()",
    );
    assert_eq!(first, id);
    let shown = c.wait_for(&marks(
        "#kbook-search-page-results .kbook-result:first-child mark",
    ));
    assert!(
        shown.as_array().unwrap().iter().any(|m| m == term),
        "snippet marks {shown}"
    );
    // The snippet names the section it is from, one of the entry's headings (checked there).
    let section = c.eval(
        "(() => { const s = document.querySelector('#kbook-search-page-results .kbook-result:first-child .kbook-hit-section'); return s && s.textContent; })()",
    );
    let section = section.as_str().unwrap_or_default().to_string();
    assert!(!section.is_empty(), "no section named");
    let href = c.eval("document.querySelector('#kbook-search-page-results .kbook-result a').href");
    let href = href.as_str().unwrap();
    // The link carries the snippet's marked words, the whole term first (other marks of
    // the snippet, such as a lone "对比", follow it).
    assert!(
        href.contains(&format!("{id}.html?highlight={}", url_encode(term))),
        "{href}"
    );
    c.open(href);
    let shown = c.wait_for(&marks("article.entry mark.kbook-hl"));
    let headings = c.eval(
        "[...document.querySelectorAll('article.entry h2, article.entry h3')].map(h => h.firstChild.textContent.trim())",
    );
    assert!(
        headings
            .as_array()
            .unwrap()
            .iter()
            .any(|h| *h == section.as_str()),
        "section {section:?} is none of {headings}"
    );
    let whole = shown.as_array().unwrap().iter().filter(|m| *m == term);
    assert_eq!(whole.count(), 2, "entry marks {shown}");

    // The header search box's snippets too.
    c.tab.find_element("#kbook-q").unwrap().click().unwrap();
    c.tab.type_str("存量数据").unwrap();
    // Results follow the typing: wait for those of the whole query.
    c.wait_for(
        "[...document.querySelectorAll('.kbook-search-results mark')].some(m => m.textContent === '存量数据')",
    );

    // One character, which the book has only at the end of a run (`…处理得很慢。`).
    c.open(&format!("{http}search.html?q={}", url_encode("慢")));
    let first = c.wait_for(
        "(() => { const li = document.querySelector('#kbook-search-page-results .kbook-result'); return li && li.dataset.id; })()",
    );
    assert_eq!(first, "kafka-source-latency-50-years");
    // It is marked in the snippet and, through the result's link, on the entry page.
    assert!(
        c.wait_for(&marks(
            "#kbook-search-page-results .kbook-result:first-child mark"
        ))
        .as_array()
        .is_some_and(|m| m.iter().any(|m| m == "慢")),
        "snippet"
    );
    let href = c.eval("document.querySelector('#kbook-search-page-results .kbook-result a').href");
    let href = href.as_str().unwrap();
    assert!(
        href.contains(&format!("highlight={}", url_encode("慢"))),
        "{href}"
    );
    c.open(href);
    let shown = c.wait_for(&marks("article.entry mark.kbook-hl"));
    assert!(
        shown
            .as_array()
            .is_some_and(|m| m.iter().all(|m| m == "慢")),
        "{shown}"
    );
    c.assert_no_errors("CJK highlighting");
}

/// The English scripts' own texts are exactly the catalogue's English (the page carries no
/// texts for an English book but the connectors' names, so the copies must agree).
#[test]
fn english_book_pages_carry_no_texts_and_scripts_match_the_catalogue() {
    let book = init_and_build("en", &[], "");
    let home = std::fs::read_to_string(book.site.join("index.html")).unwrap();
    let toml = std::fs::read_to_string(book.site.with_file_name("book").join("book.toml")).unwrap();
    let name = toml
        .lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("the starter book names its connector");
    let meta = format!(
        "<meta name=\"kbook-strings\" content=\"{}\">",
        kbook::html::escape(&serde_json::json!({ "connector_example": name }).to_string())
    );
    assert!(home.contains(&meta), "{meta}");
    assert!(home.contains("<html lang=\"en\""));
    let c = chromium();
    c.open(&format!("{}search.html", book.http));
    c.eval("window.kbook.ready()");
    let shown = c.eval("window.kbook.strings");
    let mut expected = serde_json::Map::new();
    for (key, text) in kbook::i18n::english_script_texts() {
        expected.insert(key.to_string(), text.into());
    }
    expected.insert("connector_example".into(), name.into());
    assert_eq!(shown, serde_json::Value::Object(expected));
    c.assert_no_errors("English book");
}

#[test]
fn strings_in_book_toml_override_the_built_in_ones() {
    let book = init_and_build(
        "zh-override",
        &["--language", "zh-TW"],
        "\n[kbook.strings]\nsearch_placeholder = \"貼上錯誤訊息\"\nno_confident = \"沒有把握的結果。\"\nkind_howto = \"教學\"\nversions = \"適用版本\"\n",
    );
    let weak = weak_query(&book);
    let c = chromium();
    c.open(&format!("{}search.html?q={}", book.http, url_encode(&weak)));
    assert_eq!(c.eval("document.documentElement.lang"), "zh-TW");
    assert_eq!(
        c.eval("document.getElementById('kbook-q').placeholder"),
        "貼上錯誤訊息"
    );
    assert_eq!(text(&c, ".kbook-no-confident strong"), "沒有把握的結果。");
    // Texts not overridden fall back to the Simplified set.
    assert_eq!(text(&c, "h1"), "搜索");
    c.open(&format!("{}example/example-howto.html", book.http));
    assert_eq!(text(&c, ".entry-meta .badge.kind-howto"), "教學");
    c.open(&format!("{}example/index.html", book.http));
    assert_eq!(text(&c, "#kind-howto"), "教學");
    c.open(&format!(
        "{}example/example-connection-refused.html",
        book.http
    ));
    assert_eq!(text(&c, "#versions-heading"), "適用版本");
    c.assert_no_errors("overrides");
}

#[test]
fn bad_strings_and_language_are_reported_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("book");
    kbook(dir.path(), &[OsStr::new("init"), root.as_os_str()]);
    let toml = root.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let text = text.replace("language = \"en\"", "language = \"english\"")
        + "\n[kbook.strings]\nserch_placeholder = \"x\"\nstatus_many = \"{count} hits\"\n";
    std::fs::write(&toml, &text).unwrap();
    let line = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let out = kbook_command()
        .args(["check", "--book"])
        .arg(&root)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    for expect in [
        format!(
            "book.toml:{}:1: error: `english` is not a BCP 47 language tag",
            line("language")
        ),
        format!(
            "book.toml:{}:1: error: unknown string `serch_placeholder` in [kbook.strings]",
            line("serch_placeholder")
        ),
        "did you mean `search_placeholder`?".to_string(),
        format!(
            "book.toml:{}:1: error: string `status_many` uses the unknown placeholder {{count}}",
            line("status_many")
        ),
    ] {
        assert!(err.contains(&expect), "missing `{expect}` in:\n{err}");
    }
    let bad = kbook_command()
        .args(["init", "--language", "chinese"])
        .arg(dir.path().join("other"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

/// `kbook init --language zh` into scratch/name/book, not built: the folder and the book.
fn init_chinese(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch().join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(&dir).unwrap();
    let root = dir.join("book");
    kbook(
        &dir,
        &[
            OsStr::new("init"),
            OsStr::new("--language"),
            OsStr::new("zh"),
            root.as_os_str(),
        ],
    );
    (dir, root)
}

/// An entry in another language than the book's carries its own `lang` on its title and
/// text; the page's chrome stays in the book's language.
#[test]
fn an_entry_in_another_language_says_so() {
    let (dir, root) = init_chinese("zh-mixed");
    std::fs::write(
        root.join("content/example/english-note.md"),
        "---\ntitle: \"Connection refused at start-up\"\nconnector: example\nkind: howto\nlanguage: en\n---\n## Cause\n\nThe database is not reachable yet.\n",
    )
    .unwrap();
    let site = dir.join("site");
    kbook(
        &root,
        &[OsStr::new("build"), OsStr::new("--dest"), site.as_os_str()],
    );
    let page = std::fs::read_to_string(site.join("example/english-note.html")).unwrap();
    assert!(page.contains("<html lang=\"zh\""), "{page}");
    assert!(
        page.contains("<h1 lang=\"en\">Connection refused at start-up</h1>"),
        "{page}"
    );
    assert!(
        page.contains("<div class=\"entry-body\" lang=\"en\">"),
        "{page}"
    );
    let other = std::fs::read_to_string(site.join("example/example-howto.html")).unwrap();
    assert!(!other.contains(" lang=\"en\""), "{other}");
}

/// A site address in another script is written in the sitemap and feed as a URL is: its
/// path percent-encoded, its host in punycode.
#[test]
fn a_site_address_in_chinese_is_written_as_a_url() {
    let (dir, root) = init_chinese("zh-site-url");
    let toml = root.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    assert!(text.contains("[output.html]\n"), "{text}");
    std::fs::write(
        &toml,
        text.replacen(
            "[output.html]\n",
            "[output.html]\nsite-url = \"https://例子.cn/文档\"\n",
            1,
        ),
    )
    .unwrap();
    let site = dir.join("site");
    kbook(
        &root,
        &[OsStr::new("build"), OsStr::new("--dest"), site.as_os_str()],
    );
    let sitemap = std::fs::read_to_string(site.join("sitemap.xml")).unwrap();
    assert!(
        sitemap.contains("<loc>https://xn--fsqu00a.cn/%E6%96%87%E6%A1%A3/example/")
            && !sitemap.contains("文档"),
        "{sitemap}"
    );
}

/// An alert's title (`> [!WARNING]`) is in the book's language.
#[test]
fn alerts_are_titled_in_the_books_language() {
    let (site, _) = zh_book();
    let page =
        std::fs::read_to_string(site.join("mysql/mysql-bigint-unsigned-primary-key.html")).unwrap();
    assert!(
        page.contains("<p class=\"admonition-title\">警告</p>"),
        "{}",
        page.split("admonition-title").nth(1).unwrap_or("no alert")
    );
}

/// `kbook strings` prints every key `[kbook.strings]` takes with the book's text for it: the
/// block pasted into book.toml is accepted, and a text changed there is what pages show.
#[test]
fn kbook_strings_lists_every_key_as_book_toml_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("book");
    kbook(
        dir.path(),
        &[
            OsStr::new("init"),
            OsStr::new("--language"),
            OsStr::new("zh"),
            root.as_os_str(),
        ],
    );
    let listed = kbook_command()
        .args(["strings", "--book"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(listed.status.success());
    let block = String::from_utf8(listed.stdout).unwrap();
    assert!(block.contains("\nsearch_placeholder = \""), "{block}");
    assert!(block.contains("\nkind_howto = \"操作指南\""), "{block}");
    let keys = block.lines().filter(|l| l.contains(" = ")).count();
    assert_eq!(keys, kbook::i18n::known_keys().count() + 5, "{block}");
    // Pasted whole with one text changed, the book still checks and shows that text.
    let changed = block.replace(
        "\nheading_link = \"链接到本节\"",
        "\nheading_link = \"本节链接\"",
    );
    assert_ne!(changed, block);
    let toml = root.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n{changed}")).unwrap();
    let site = dir.path().join("site");
    kbook(
        dir.path(),
        &[
            OsStr::new("build"),
            OsStr::new("--deny-warnings"),
            OsStr::new("--book"),
            root.as_os_str(),
            OsStr::new("--dest"),
            site.as_os_str(),
        ],
    );
    let page = walk(&site)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|h| h.contains("heading-anchor"))
        .expect("a page with a heading link");
    assert!(
        page.contains("aria-label=\"本节链接\""),
        "heading link label"
    );
}
