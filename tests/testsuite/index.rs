//! `kbook index` on a site Debian's Hugo builds from tests/fixtures/index/hugo-site: the
//! search files it writes, `--ui` adding the box to every page, the site's other files left
//! as they were, and pasted errors found in Chromium over http and file://.

use crate::common::{
    chromium, copy_dir, file_url, fixture, kbook_command, run_ok, serve, snapshot,
};
use serde_json::Value;
use std::path::Path;

/// Builds the fixture with Hugo into `dest` (from a copy: Hugo writes a lock file into its
/// source).
fn hugo_site(dest: &Path) {
    let src = dest.with_extension("src");
    copy_dir(&fixture("index/hugo-site"), &src);
    let out = std::process::Command::new("hugo")
        .arg("--quiet")
        .arg("--source")
        .arg(&src)
        .arg("--destination")
        .arg(dest)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run hugo ({e}): `cargo xtask install-test-deps` installs it")
        });
    assert!(
        out.status.success(),
        "hugo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn index(site: &Path, extra: &[&str]) -> Value {
    let out = run_ok(
        kbook_command()
            .arg("index")
            .arg(site)
            .arg("--json")
            .args(extra),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn index_adds_search_to_a_hugo_site_over_http_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("public");
    hugo_site(&site);
    let before = snapshot(&site);
    let r = index(&site, &["--ui"]);
    assert_eq!(r["pages"], 7);
    assert_eq!(r["indexed"], 7);
    assert_eq!(r["errors"], 4, "{r}");
    assert_eq!(r["injected"], 7);
    // The pages gained the box and the loader, and nothing else changed.
    let after = snapshot(&site);
    for (path, bytes) in &before {
        let now = String::from_utf8_lossy(&after[path]).to_string();
        let then = String::from_utf8_lossy(bytes).to_string();
        let depth = path.matches('/').count();
        let script = format!(
            "<script src=\"{}kbook/kbook.js\" defer></script>\n",
            "../".repeat(depth)
        );
        let expected = then
            .replacen("<body>", "<body>\n<div data-kbook-search></div>", 1)
            .replacen("</body>", &format!("{script}</body>"), 1);
        assert_eq!(now, expected, "{path}");
    }
    assert!(
        after
            .keys()
            .any(|k| k.starts_with("kbook/search/manifest.js"))
    );
    // Running again leaves the pages alone and reads the same pages (never its own search
    // page from the previous run).
    let again = index(&site, &["--ui"]);
    assert_eq!(again["injected"], 0);
    assert_eq!(again["pages"], 7);

    // The box on a page finds the paste over http and from disk; the result opens the page.
    let c = chromium();
    let paste = "Caused by: java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver";
    for base in [serve(site.clone()), format!("{}/", file_url(&site))] {
        c.open(&format!("{base}kafka/sasl.html"));
        c.wait_for("document.querySelector('[data-kbook-search] input.kbook-search-input')");
        c.eval(&format!(
            "(() => {{ const i = document.querySelector('.kbook-search-input'); i.focus(); i.value = {}; i.dispatchEvent(new Event('input')); return true; }})()",
            serde_json::to_string(paste).unwrap()
        ));
        let first = c.wait_for(
            "(() => { const a = document.querySelector('.kbook-search-results a[href*=\"driver\"], .kbook-search-results a'); return a && a.href; })()",
        );
        let href = first.as_str().unwrap();
        // The results cover the page under them: the site does not define kbook's colours,
        // so the search files bring their own.
        let panel = c.eval(
            "getComputedStyle(document.querySelector('.kbook-search-results')).backgroundColor",
        );
        assert_ne!(
            panel, "rgba(0, 0, 0, 0)",
            "{base}: a see-through results panel"
        );
        // (The result link asks the page to highlight the matched words.)
        let page = href.split('?').next().unwrap();
        assert!(
            page.ends_with("/mysql/driver.html"),
            "{base}: first result {href}"
        );
        c.open(href);
        let title =
            c.wait_for("document.querySelector('h1') && document.querySelector('h1').textContent");
        assert_eq!(title, "MySQL driver class not found", "{base}");

        // The search page beside the index takes a whole trace.
        let q = crate::common::url_encode(
            "org.apache.kafka.common.errors.SaslAuthenticationException: Authentication failed: Invalid username or password\n\tat org.apache.kafka.X.y(X.java:1)",
        );
        c.open(&format!("{base}kbook/search.html?q={q}"));
        let top = c.wait_for("(() => { const a = document.querySelector('#kbook-search-page-results .kbook-result a'); return a && a.href; })()");
        let top = top.as_str().unwrap().split('?').next().unwrap().to_string();
        assert!(top.ends_with("/kafka/sasl.html"), "{base}: {top}");
        c.assert_no_errors(&base);
    }
}

#[test]
fn index_reads_the_chosen_content_and_refuses_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("public");
    hugo_site(&site);
    // Only <article>: list pages have none and are skipped; footer words are not indexed.
    let r = index(
        &site,
        &["--selector", "article", "--output-subdir", "assets/search"],
    );
    assert_eq!(r["indexed"], 4, "{r}");
    assert_eq!(r["skipped"].as_array().unwrap().len(), 3);
    assert!(site.join("assets/search/kbook.js").is_file());
    let search = |q: &str| -> Value {
        let out = run_ok(
            kbook_command()
                .args(["search", "--json", "--site"])
                .arg(site.join("assets/search"))
                .arg(q),
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    assert_eq!(search("footer")["hits"].as_array().unwrap().len(), 0);
    assert_eq!(search("documentation")["hits"].as_array().unwrap().len(), 0);
    let hit = &search("Access denied for user 'etl'@'10.1.1.1' (using password: YES)")["hits"][0];
    assert_eq!(hit["url"], "../../mysql/access.html");

    // A folder of the site's own files is never replaced by the search files.
    std::fs::create_dir_all(site.join("mine")).unwrap();
    std::fs::write(site.join("mine/page.html"), "<p>mine</p>").unwrap();
    let before = snapshot(&site);
    for (args, expect) in [
        (vec!["--selector", "main >>> p"], "not a CSS selector"),
        (
            vec!["--output-subdir", "../out"],
            "relative path inside the site",
        ),
        (
            vec!["--output-subdir", "/tmp/search"],
            "relative path inside the site",
        ),
        (
            vec!["--output-subdir", "mine"],
            "holds files kbook did not write",
        ),
        (vec!["--output-subdir", "mine/page.html"], "is a file"),
    ] {
        let out = kbook_command()
            .arg("index")
            .arg(&site)
            .args(&args)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    assert_eq!(snapshot(&site), before, "a refused run changed the site");
    let out = kbook_command()
        .arg("index")
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing does not exist"));
    // A folder without pages (a source folder, say) is named as such.
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/notes.md"), "# Notes").unwrap();
    let out = kbook_command()
        .arg("index")
        .arg(dir.path().join("src"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no .html pages under"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--ui` adds only the loader to a page whose template already places the box, and an
/// edited page keeps who may read it.
#[test]
fn index_ui_keeps_a_pages_own_box_and_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let body = "<main><p>Timeout expired while fetching topic metadata</p></main>";
    std::fs::write(
        site.join("index.html"),
        format!("<html><body><header><div data-kbook-search class=\"top\"></div></header>{body}</body></html>"),
    )
    .unwrap();
    std::fs::write(
        site.join("private.html"),
        format!("<html><body>{body}</body></html>"),
    )
    .unwrap();
    // HTML lets a page leave out <body>: --ui has nowhere to put the box, and says so.
    std::fs::write(
        site.join("bare.html"),
        format!("<!DOCTYPE html><title>Bare</title>{body}"),
    )
    .unwrap();
    // A redirect page (as Hugo writes its aliases, without a body) needs no box.
    std::fs::write(
        site.join("old.html"),
        "<!DOCTYPE html><html><head><title>x</title><meta http-equiv=\"refresh\" content=\"0; url=index.html\"></head></html>",
    )
    .unwrap();
    let mode = |p: &str| {
        std::fs::metadata(site.join(p))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    std::fs::set_permissions(
        site.join("private.html"),
        std::fs::Permissions::from_mode(0o600),
    )
    .unwrap();
    std::fs::set_permissions(
        site.join("index.html"),
        std::fs::Permissions::from_mode(0o664),
    )
    .unwrap();
    let r = index(&site, &["--ui"]);
    assert_eq!(r["injected"], 2, "{r}");
    assert_eq!(r["no_body"], serde_json::json!(["bare.html"]), "{r}");
    let home = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert_eq!(home.matches("data-kbook-search").count(), 1, "{home}");
    assert!(
        home.contains("<script src=\"kbook/kbook.js\" defer>"),
        "{home}"
    );
    assert_eq!(mode("private.html"), 0o600);
    assert_eq!(mode("index.html"), 0o664);
    // Searching the site's folder instead of the search's points to the right one.
    let out = kbook_command()
        .args(["search", "--site"])
        .arg(&site)
        .arg("timeout")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "is in {} (give that as --site)",
            site.join("kbook").display()
        )),
        "{err}"
    );
}

/// A page in another encoding keeps its bytes when `--ui` adds the box, and is reported; a
/// second run with another search folder does not index the first one's search page.
#[test]
fn index_ui_keeps_other_encodings_and_skips_earlier_search_folders() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("docs")).unwrap();
    let page = |title: &str| {
        format!(
            "<html><head><title>{title}</title></head><body><main><p>Timeout expired while fetching topic metadata</p></main></body></html>"
        )
    };
    std::fs::write(site.join("index.html"), page("Home")).unwrap();
    let mut latin1 = page("Caf\u{e9}").replace('\u{e9}', "\u{1}").into_bytes();
    for b in &mut latin1 {
        if *b == 1 {
            *b = 0xE9;
        }
    }
    std::fs::write(site.join("docs/latin1.html"), &latin1).unwrap();
    let r = index(&site, &["--ui"]);
    assert_eq!(r["injected"], 2, "{r}");
    assert_eq!(r["not_utf8"], serde_json::json!(["docs/latin1.html"]));
    let now = std::fs::read(site.join("docs/latin1.html")).unwrap();
    assert!(
        now.windows(5).any(|w| w == b"Caf\xE9<"),
        "the page's own bytes changed"
    );
    assert!(String::from_utf8_lossy(&now).contains("../kbook/kbook.js"));
    let r = index(&site, &["--output-subdir", "other"]);
    assert_eq!(r["pages"], 2, "{r}");
    // The box moves to the new folder: one box and one loader per page, never two.
    let r = index(&site, &["--output-subdir", "other", "--ui"]);
    assert_eq!(r["injected"], 2, "{r}");
    for (page, to_root) in [("index.html", ""), ("docs/latin1.html", "../")] {
        let text = String::from_utf8_lossy(&std::fs::read(site.join(page)).unwrap()).into_owned();
        assert_eq!(
            text.matches("data-kbook-search").count(),
            1,
            "{page}: {text}"
        );
        assert_eq!(text.matches("kbook.js").count(), 1, "{page}: {text}");
        assert!(
            text.contains(&format!("<script src=\"{to_root}other/kbook.js\" defer>")),
            "{page}: {text}"
        );
    }
    // A loader the site wrote itself, into a folder of its own, is left alone.
    let own = "<script src=\"js/kbook.js\" defer></script>\n";
    std::fs::write(
        site.join("index.html"),
        page("Home").replace("</body>", &format!("{own}</body>")),
    )
    .unwrap();
    index(&site, &["--output-subdir", "third", "--ui"]);
    let text = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        text.contains(own) && text.contains("third/kbook.js"),
        "{text}"
    );
}

/// The search page and box speak the site's language, read from its home page's `lang` as
/// Pagefind reads it; `--language` says it outright.
#[test]
fn index_speaks_the_language_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("docs")).unwrap();
    std::fs::write(
        site.join("index.html"),
        "<!DOCTYPE html><html lang=\"zh-CN\"><head><title>首页</title></head><body><main><h1>首页</h1><p>欢迎。</p></main></body></html>",
    )
    .unwrap();
    std::fs::write(
        site.join("docs/binlog.html"),
        "<!DOCTYPE html><html lang=\"zh-CN\"><head><title>Binlog</title></head><body><main><h1>Binlog 被清理</h1><p>作业报错 The connector is trying to read binlog starting at GTIDs，但 binlog 已被清理。</p></main></body></html>",
    )
    .unwrap();
    index(&site, &[]);
    let page = std::fs::read_to_string(site.join("kbook/search.html")).unwrap();
    assert!(page.contains("<html lang=\"zh-CN\">"), "{page}");
    assert!(
        page.contains("<h1>搜索</h1>") && page.contains("返回网站"),
        "{page}"
    );
    assert!(page.contains("name=\"kbook-strings\""), "{page}");
    let loader = std::fs::read_to_string(site.join("kbook/kbook.js")).unwrap();
    assert!(loader.contains("搜索或粘贴错误信息") && loader.contains("没有可信的匹配"));

    // In the browser, the results say so in Chinese.
    let c = chromium();
    c.open(&format!(
        "{}?q={}",
        file_url(&site.join("kbook/search.html")),
        crate::common::url_encode("binlog 被清理")
    ));
    let status = c.wait_for(
        "(() => { const s = document.getElementById('kbook-search-status'); return s && /结果/.test(s.textContent) && s.textContent; })()",
    );
    assert!(
        status.as_str().is_some_and(|s| s.contains("个结果")),
        "{status}"
    );

    let out = kbook_command()
        .arg("index")
        .arg(&site)
        .args(["--language", "chinese please"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a BCP 47 language tag"));
    index(&site, &["--language", "en"]);
    let page = std::fs::read_to_string(site.join("kbook/search.html")).unwrap();
    assert!(page.contains("<html lang=\"en\">") && page.contains("<h1>Search</h1>"));
    assert!(!page.contains("kbook-strings"), "{page}");
}
