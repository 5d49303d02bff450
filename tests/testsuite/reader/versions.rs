//! The reader's product version in the browser: the picker, the marks and order of hits,
//! entry pages, `?version=` and localStorage, against the native index.

use super::*;

/// The native index of a built site.
pub(super) fn native_index(built: &Built) -> kbook_search::BookIndex {
    let index = std::fs::read_dir(built.site.join("search"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "bin"))
        .unwrap();
    kbook_search::BookIndex::open(std::fs::read(index).unwrap()).unwrap()
}

fn version_opts(version: &str, limit: usize) -> kbook_search::SearchOptions {
    kbook_search::SearchOptions {
        limit,
        version: Some(kbook_search::version::parse_product_version(version).unwrap()),
        ..Default::default()
    }
}

/// Every entry page's version statements (`data-kbook-versions`), by page path.
fn entry_version_specs(built: &Built) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&built.site).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.ends_with("search") || dir.ends_with("static") {
            continue;
        }
        for page in std::fs::read_dir(&dir).unwrap() {
            let page = page.unwrap().path();
            let html = std::fs::read_to_string(&page).unwrap();
            let Some(rest) = html.split("data-kbook-versions=\"").nth(1) else {
                continue;
            };
            let json = rest.split('"').next().unwrap();
            let json = json
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            let rel = page.strip_prefix(&built.site).unwrap();
            out.push((rel.to_string_lossy().into_owned(), json));
        }
    }
    out.sort();
    out
}

/// The reader's product version: picked on the search page, remembered over a reload, set by
/// `?version=`; results for it list entries that do not affect it last, marked; entry pages
/// say whether they apply. Over http and from the unzipped bundle (file://).
#[test]
fn reader_version_marks_and_demotes_and_is_remembered() {
    use kbook_search::version::{VersionMatch, VersionSpec, classify, fix_release};
    let b = books();
    let _one = one_browser();
    let built = &b.plain;
    let native = native_index(built);
    let past_fix = "vvr=8.0.11";
    // A labelled query whose best entry was fixed before 8.0.11: with that version it moves
    // down the list but stays in it.
    let (q, id, fixed) = labelled()
        .into_iter()
        .filter(|(q, _)| q.len() < 160)
        .find_map(|(q, expect)| {
            let plain = native
                .search(
                    &q,
                    &kbook_search::SearchOptions {
                        limit: 20,
                        ..Default::default()
                    },
                )
                .ok()?;
            if plain.hits.first()?.id != expect || !plain.confident {
                return None;
            }
            let with = native.search(&q, &version_opts(past_fix, 20)).ok()?;
            let pos = with.hits.iter().position(|h| h.id == expect)?;
            let hit = &with.hits[pos];
            (pos > 0 && hit.version_match == Some(VersionMatch::Fixed))
                .then(|| (q, expect, hit.fixed_in.clone().unwrap()))
        })
        .expect("no labelled query confidently answered by an entry fixed before vvr 8.0.11");
    // The search was confident in that entry: with the version it is no longer first, and
    // the results say the best match is listed with the other versions.
    let moved = native.search(&q, &version_opts(past_fix, 20)).unwrap();
    assert!(!moved.confident);
    assert_eq!(moved.best_other_version.as_deref(), Some(id.as_str()));
    let entry = entry_url(built, &id);
    let specs: Vec<VersionSpec> = serde_json::from_str(
        &entry_version_specs(built)
            .into_iter()
            .find(|(p, _)| *p == entry)
            .unwrap()
            .1,
    )
    .unwrap();
    let results = "[...document.querySelectorAll('#kbook-search-page-results .kbook-result')]";
    for origin in [Origin::Http, Origin::File] {
        let c = chromium();
        let page = |path: &str| match origin {
            Origin::Http => format!("{}{path}", built.http),
            _ => file_url(&built.unzipped.join(path)),
        };
        let search = format!("{}?q={}", page("search.html"), url_encode(&q));
        c.open(&search);
        let first = c.wait_for(&format!(
            "(() => {{ const li = {results}[0]; return li && li.dataset.id; }})()"
        ));
        assert_eq!(first, id.as_str(), "{origin:?}: before a version is chosen");
        assert_eq!(
            c.eval("document.querySelectorAll('.kbook-version-mark').length"),
            0
        );

        // The arrow keys move through the products and the focus stays on the list.
        if origin == Origin::Http {
            c.eval("document.getElementById('kbook-version-product').focus()");
            c.tab.press_key("ArrowDown").unwrap();
            c.wait_for("document.getElementById('kbook-version-product').value !== ''");
            assert_eq!(
                c.eval("document.activeElement.id"),
                "kbook-version-product",
                "an arrow key took the focus off the product list"
            );
            // Back to no product; the next pick is the pointer's.
            c.eval(
                "(() => { const s = document.getElementById('kbook-version-product'); s.value = ''; s.dispatchEvent(new Event('change')); s.dispatchEvent(new PointerEvent('pointerdown')); })()",
            );
        }
        // Pick the product, type the version.
        c.eval(
            "(() => { const s = document.getElementById('kbook-version-product'); s.value = 'vvr'; s.dispatchEvent(new Event('change')); })()",
        );
        assert_eq!(
            c.eval("document.activeElement.id"),
            "kbook-version-value",
            "choosing a product moves to the version field"
        );
        c.tab.type_str("8.0.11").unwrap();
        // Results for a version typed halfway (8.0.1) may show first: wait for the whole one.
        let shown = c.wait_for(&format!(
            "(() => {{ const li = {results}; const i = li.findIndex(l => l.dataset.id === {id}); \
             if (!location.search.includes('version=vvr%3D8.0.11') || \
                 !document.getElementById('kbook-version-note').textContent.includes('vvr 8.0.11')) return null; \
             if (i < 1 || !li[i].classList.contains('kbook-result-other')) return null; \
             return {{ index: i, ids: li.map(l => l.dataset.id), other: li.map(l => l.classList.contains('kbook-result-other')), \
             mark: li[i].querySelector('.kbook-version-mark.other').textContent, note: document.getElementById('kbook-version-note').textContent, \
             search: location.search }}; }})()",
            id = js(&id)
        ));
        let expected: Vec<String> = native
            .search(&q, &version_opts(past_fix, 20))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(shown["ids"], serde_json::json!(expected), "{origin:?}");
        let other: Vec<bool> = serde_json::from_value(shown["other"].clone()).unwrap();
        assert!(
            other.windows(2).all(|w| w[0] <= w[1]),
            "{origin:?}: an entry for the reader's version below one that is not: {other:?}"
        );
        assert_eq!(
            shown["mark"],
            format!("Not your version: fixed in {fixed}").as_str()
        );
        assert!(
            shown["note"].as_str().unwrap().contains("vvr 8.0.11"),
            "{shown}"
        );
        assert!(
            shown["search"]
                .as_str()
                .unwrap()
                .contains("version=vvr%3D8.0.11"),
            "{shown}"
        );
        // Not "no confident match": the best match is named, marked, among the others.
        let said = c.eval(
            "(() => { const n = document.querySelector('#kbook-search-page-results > .kbook-best-other-version'); \
             const best = [...document.querySelectorAll('#kbook-search-page-results .kbook-result')].filter(l => l.querySelector('.kbook-best-match')).map(l => l.dataset.id); \
             return { note: n && n.textContent, weak: !!document.querySelector('#kbook-search-page-results .kbook-no-confident'), best: best }; })()",
        );
        assert_eq!(
            said,
            serde_json::json!({
                "note": "The best match does not affect vvr 8.0.11: it is listed after the entries that may, marked.",
                "weak": false,
                "best": [id],
            }),
            "{origin:?}"
        );
        if origin == Origin::Http {
            c.eval(
                "document.querySelector('.kbook-result-other').scrollIntoView({block: 'center'})",
            );
            c.screenshot("search-version-marks");
        }

        // Remembered: the same search without ?version= after a reload.
        c.open(&search);
        c.wait_for(&format!(
            "(() => {{ const li = {results}.find(l => l.dataset.id === {id}); return li && li.classList.contains('kbook-result-other'); }})()",
            id = js(&id)
        ));
        assert_eq!(
            c.eval("[document.getElementById('kbook-version-product').value, document.getElementById('kbook-version-value').value]"),
            serde_json::json!(["vvr", "8.0.11"]),
            "{origin:?}"
        );

        // The entry page says it does not affect the chosen version.
        c.open(&page(&entry));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && {text: p.textContent, match: p.dataset.match}; })()",
        );
        assert_eq!(line["match"], "fixed");
        assert_eq!(
            line["text"],
            format!("Does not affect vvr 8.0.11 (fixed in {fixed}) · Change version").as_str(),
            "{origin:?}"
        );

        // A ?version= that is not a version is ignored, and said so, on an entry page and on
        // the search page; the remembered choice stands.
        c.open(&format!("{}?version=vvr%3Deight", page(&entry)));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && p.textContent; })()",
        );
        assert_eq!(
            line,
            format!(
                "The address asks for version “vvr=eight”, which is not a product and version (product=1.2.3), so it is ignored. Does not affect vvr 8.0.11 (fixed in {fixed}) · Change version"
            )
            .as_str(),
            "{origin:?}"
        );
        // A product the book names no release of is refused the same way (as the terminal
        // refuses it).
        c.open(&format!("{}?version=flink=1.17", page(&entry)));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && p.textContent; })()",
        );
        assert!(
            line.as_str().is_some_and(|l| l.starts_with(
                "The address asks for version “flink=1.17”, but no entry of this book names product “flink”, so it is ignored."
            ) && l.contains("vvr 8.0.11")),
            "{line}"
        );
        c.open(&format!("{search}&version=8.0.7"));
        let note = c.wait_for(&format!(
            "(() => {{ const n = document.getElementById('kbook-version-note').textContent; return {results}.length && n; }})()"
        ));
        assert_eq!(
            note,
            "The address asks for version “8.0.7”, which is not a product and version (product=1.2.3), so it is ignored. Results for vvr 8.0.11: entries that do not affect it are listed last and marked.",
            "{origin:?}"
        );

        // ?version= sets another version, on an entry page and on the search page.
        let v = kbook_search::version::Version::parse("8.0.1").unwrap();
        let m = classify(&specs, "vvr", &v);
        let fix = fix_release(&specs, "vvr", &v, m);
        c.open(&format!("{}?version=vvr=8.0.1", page(&entry)));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && {text: p.textContent, match: p.dataset.match}; })()",
        );
        assert_eq!(
            line["match"],
            serde_json::to_value(m).unwrap(),
            "{origin:?}"
        );
        let expect_line = match (m, &fix) {
            (VersionMatch::Affected, Some(f)) => {
                format!("Applies to your version vvr 8.0.1 (fixed in {f})")
            }
            (VersionMatch::Affected, None) => "Applies to your version vvr 8.0.1".to_string(),
            (VersionMatch::Fixed, Some(f)) => format!("Does not affect vvr 8.0.1 (fixed in {f})"),
            (VersionMatch::Unknown, _) => "This entry says nothing about vvr".to_string(),
            (VersionMatch::Vague, _) => unreachable!("8.0.1 is a full release"),
            _ => "Does not affect vvr 8.0.1".to_string(),
        };
        assert_eq!(
            line["text"],
            format!("{expect_line} · Change version").as_str()
        );
        // A version less precise than the entry's fix (its major release alone) names releases
        // on both sides: the page says the exact release decides, as the module classifies it.
        let major = fixed.split('.').next().unwrap();
        let vague = kbook_search::version::Version::parse(major).unwrap();
        assert_eq!(classify(&specs, "vvr", &vague), VersionMatch::Vague);
        c.open(&format!("{}?version=vvr={major}", page(&entry)));
        let line = c.wait_for(
            "(() => { const p = document.querySelector('.kbook-version-status'); return p && !p.hidden && {text: p.textContent, match: p.dataset.match}; })()",
        );
        assert_eq!(
            line,
            serde_json::json!({
                "text": format!("Whether it applies to vvr {major} depends on the exact release · Change version"),
                "match": "vague",
            }),
            "{origin:?}"
        );
        c.open(&format!("{search}&version=vvr%3D6.0.1"));
        let ids = c.wait_for(&format!(
            "(() => {{ const li = {results}; return document.getElementById('kbook-version-value').value === '6.0.1' && li.length && li.map(l => l.dataset.id); }})()"
        ));
        let expected: Vec<String> = native
            .search(&q, &version_opts("vvr=6.0.1", 20))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.id)
            .collect();
        assert_eq!(ids, serde_json::json!(expected), "{origin:?}");
        // The header search marks its hits too.
        c.tab.find_element("#kbook-q").unwrap().click().unwrap();
        c.tab.type_str(&b.short.0).unwrap();
        c.wait_for("document.querySelector('.kbook-search-results .kbook-hit')");
        let box_hits = c.eval(
            "[...document.querySelectorAll('.kbook-search-results .kbook-hit')].map(a => [a.dataset.id, !!a.querySelector('.kbook-version-mark.other')])",
        );
        let native_box: Vec<serde_json::Value> = native
            .search(&b.short.0, &version_opts("vvr=6.0.1", 8))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| serde_json::json!([h.id, h.version_match.is_some_and(|m| !m.applies())]))
            .collect();
        assert_eq!(box_hits, serde_json::Value::Array(native_box), "{origin:?}");
        // Clearing the choice hides the line again.
        c.open(&page("search.html"));
        c.tab
            .find_element("#kbook-version-clear")
            .unwrap()
            .click()
            .unwrap();
        c.open(&page(&entry));
        assert_eq!(
            c.eval("document.querySelector('.kbook-version-status').hidden"),
            true
        );
        c.assert_no_errors(&format!("version choice ({origin:?})"));
    }

    // The page's classification (theme.js) agrees with the search core's for every entry.
    let c = chromium();
    c.open(&format!("{}index.html", built.http));
    let versions = [
        "0.1",
        "0.9",
        "0.10.0",
        "1",
        "5.1.46",
        "6.0.1",
        "6.0.2",
        "6.0.7",
        "6.0.7-flink-1.15",
        "8",
        "8.0",
        "8.0.4",
        "8.0.5",
        "8.0.7",
        "8.0.8",
        "8.0.9",
        "8.0.10",
        "8.0.11",
        "8.0.27",
        "9.1",
        "v8.0.9",
    ];
    let products = ["vvr", "hologres", "hudi", "mysql-jdbc", "flink"];
    let mut cases = Vec::new();
    for (_, json) in entry_version_specs(built) {
        for p in products {
            for v in versions {
                cases.push((json.clone(), p, v));
            }
        }
    }
    let in_page = c.eval(&format!(
        "{}.map(([specs, p, v]) => window.kbook.versionMatch(JSON.parse(specs), p, v))",
        serde_json::to_string(&cases).unwrap()
    ));
    for (i, (json, p, v)) in cases.iter().enumerate() {
        let specs: Vec<VersionSpec> = serde_json::from_str(json).unwrap();
        let version = kbook_search::version::Version::parse(v).unwrap();
        let m = classify(&specs, p, &version);
        let expect = serde_json::json!({
            "version_match": m,
            "fixed_in": fix_release(&specs, p, &version, m),
        });
        assert_eq!(in_page[i], expect, "{p} {v} against {json}");
    }
    assert!(cases.len() > 500, "{} cases", cases.len());
}
