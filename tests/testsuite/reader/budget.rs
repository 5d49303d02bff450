//! What the site costs and how it reads: axe-core, what loads before and after the search box
//! is used, a server without the wasm content type, and screenshots.

use super::*;
use crate::common::axe_source;

#[test]
fn accessibility_axe_finds_no_serious_violations() {
    let b = books();
    let axe = axe_source();
    let _one = one_browser();
    let c = chromium();
    let http = &b.plain.http;
    let pages = [
        ("home", format!("{http}index.html")),
        ("connector", format!("{http}kafka/index.html")),
        (
            "entry",
            format!("{http}{}", entry_url(&b.plain, &b.trace.1)),
        ),
        (
            "search",
            format!("{http}search.html?q={}", url_encode(&b.trace.0)),
        ),
        ("404", format!("{http}no-such-kafka-page.html")),
    ];
    let mut problems = Vec::new();
    for (name, url) in &pages {
        for theme in ["light", "dark"] {
            c.open(url);
            c.eval(&format!(
                "document.documentElement.setAttribute('data-theme', '{theme}')"
            ));
            match *name {
                "search" => {
                    c.wait_for("document.querySelector('.kbook-result')");
                }
                "404" => {
                    c.wait_for("document.querySelector('.kbook-404-results li')");
                }
                _ => {}
            }
            c.tab.evaluate(&axe, false).unwrap();
            let found = c.eval(
                "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' ' + JSON.stringify((n.any[0] || {}).data || ''))})))",
            );
            for v in found.as_array().unwrap() {
                problems.push(format!("{name} ({theme}): {v}"));
            }
        }
    }
    // The open dropdown of the header search, too.
    c.open(&format!("{http}index.html"));
    c.tab.press_key("/").unwrap();
    c.tab.type_str(&b.short.0).unwrap();
    c.wait_for("document.querySelector('.kbook-search-results .kbook-hit')");
    c.tab.evaluate(&axe, false).unwrap();
    let found = c.eval(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({id: v.id, nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))})))",
    );
    for v in found.as_array().unwrap() {
        problems.push(format!("search dropdown: {v}"));
    }
    assert!(problems.is_empty(), "axe-core: {problems:#?}");
}

/// Bytes of the files a page loaded (documents and resources), read from the site on disk
/// so http and file:// count the same way; gzip sizes of its CSS and JS.
fn loaded(c: &Chromium, built: &Built) -> (Vec<String>, u64) {
    let urls = c.eval(
        // Resource Timing has no file:// entries: the elements that load files count as well.
        "[location.href, ...performance.getEntriesByType('resource').map(e => e.name), \
         ...[...document.querySelectorAll('script[src], link[rel=stylesheet][href], link[rel=icon][href]')].map(e => e.src || e.href)] \
         .map(u => u.split(/[?#]/)[0])",
    );
    let mut paths: Vec<String> = urls
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| {
            let u = u.as_str()?;
            let rel = u
                .strip_prefix(&built.http)
                .map(str::to_string)
                .or_else(|| {
                    u.strip_prefix(&file_url(&built.unzipped))
                        .map(|r| r.trim_start_matches('/').to_string())
                })?;
            Some(rel)
        })
        .collect();
    paths.sort();
    paths.dedup();
    let bytes = paths
        .iter()
        .map(|p| std::fs::metadata(built.site.join(p)).map_or(0, |m| m.len()))
        .sum();
    (paths, bytes)
}

fn gzip_len(bytes: &[u8]) -> u64 {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap().len() as u64
}

#[test]
fn search_loads_only_on_focus_within_budget_and_without_layout_shift() {
    let b = books();
    let _one = one_browser();
    let built = &b.plain;
    let entry = entry_url(built, &b.trace.1);
    let mut report = Vec::new();
    for origin in [Origin::Http, Origin::File] {
        let c = chromium();
        let url = match origin {
            Origin::Http => format!("{}{entry}", built.http),
            _ => file_url(&built.unzipped.join(&entry)),
        };
        c.open(&url);
        let (before, page_bytes) = loaded(&c, built);
        assert!(
            !before.iter().any(|p| p.starts_with("search/")),
            "{origin:?}: search loaded before focus: {before:?}"
        );
        let css_js_gzip: u64 = before
            .iter()
            .filter(|p| p.ends_with(".css") || p.ends_with(".js"))
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        assert!(
            css_js_gzip < 30 * 1024,
            "page CSS+JS is {css_js_gzip} bytes gzip"
        );
        // Focus, type, first result: as a reader does it, timed inside the page.
        let ms = c.eval(&format!(
            "new Promise(resolve => {{ const input = document.getElementById('kbook-q'); const t0 = performance.now(); \
             input.focus(); input.value = {q}; input.dispatchEvent(new Event('input', {{bubbles: true}})); \
             (function check() {{ if (document.querySelector('.kbook-search-results .kbook-hit')) resolve(performance.now() - t0); else requestAnimationFrame(check); }})(); }})",
            q = js(&b.short.0)
        ));
        let (after, all_bytes) = loaded(&c, built);
        let search_files: Vec<&String> = after.iter().filter(|p| !before.contains(p)).collect();
        assert!(
            !search_files.is_empty(),
            "{origin:?}: the search loaded nothing"
        );
        let search_gzip: u64 = search_files
            .iter()
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        let page_gzip: u64 = before
            .iter()
            .map(|p| gzip_len(&std::fs::read(built.site.join(p)).unwrap()))
            .sum();
        let line = format!(
            "{origin:?}: page view without search {page_bytes} B ({page_gzip} B gzip; {} files; CSS+JS {css_js_gzip} B gzip); first search loads {} B ({search_gzip} B gzip; {search_files:?}); time to first result {:.0} ms",
            before.len(),
            all_bytes - page_bytes,
            ms.as_f64().unwrap()
        );
        eprintln!("{line}");
        report.push(line);
        c.assert_no_errors(&format!("performance ({origin:?})"));
    }
    // No layout shift when results arrive (deep link: nothing the reader did moves the page).
    let c = chromium();
    c.open(&format!(
        "{}search.html?q={}",
        built.http,
        url_encode(&b.trace.0)
    ));
    c.wait_for("document.querySelector('.kbook-result')");
    let cls = c.eval(
        "new Promise(resolve => { let sum = 0; new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value; }).observe({type: 'layout-shift', buffered: true}); requestAnimationFrame(() => requestAnimationFrame(() => resolve(sum))); })",
    );
    report.push(format!(
        "search.html deep link: cumulative layout shift {cls}"
    ));
    assert!(cls.as_f64().unwrap() < 0.01, "layout shift {cls}");
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("measurements.txt"), report.join("\n") + "\n").unwrap();
}

/// Plain static servers send the module as `application/octet-stream`, which streaming
/// compilation refuses: the search then compiles it from its bytes, with the same first
/// result as from a server that sends `application/wasm`.
#[test]
fn search_works_from_a_server_without_the_wasm_content_type() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    for wasm_type in ["application/octet-stream", "application/wasm"] {
        let http = serve_wasm_as(b.plain.site.clone(), wasm_type);
        c.open(&format!("{http}search.html?q={}", url_encode(&b.trace.0)));
        let first = c.wait_for("(document.querySelector('.kbook-result') || {}).dataset?.id");
        assert_eq!(first, b.trace.1.as_str(), "first result with {wasm_type}");
        c.assert_no_errors(&format!("search with the module sent as {wasm_type}"));
    }
}

#[test]
fn screenshots_light_and_dark_desktop_and_phone() {
    let b = books();
    let _one = one_browser();
    let c = chromium();
    let http = &b.plain.http;
    let pages = [
        ("home", format!("{http}index.html")),
        (
            "entry",
            format!("{http}{}", entry_url(&b.plain, &b.trace.1)),
        ),
        (
            "search",
            format!("{http}search.html?q={}", url_encode(&b.trace.0)),
        ),
    ];
    for (device, (w, h, mobile)) in [("desktop", (1280, 800, false)), ("phone", (375, 812, true))] {
        c.viewport(w, h, mobile);
        for theme in ["light", "dark"] {
            for (name, url) in &pages {
                c.open(url);
                c.eval(&format!(
                    "document.documentElement.setAttribute('data-theme', '{theme}')"
                ));
                if *name == "search" {
                    c.wait_for("document.querySelector('.kbook-result')");
                }
                c.screenshot(&format!("{name}-{theme}-{device}"));
            }
        }
    }
    c.assert_no_errors("screenshots");
}
