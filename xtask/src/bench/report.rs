//! The printed table of every measured size.

use super::SizeResult;
use super::builds::BuildRun;

fn mib(b: f64) -> String {
    if b >= 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}

fn engine_str(r: &SizeResult, engine: &str, key: &str) -> Option<String> {
    r.browser
        .as_ref()
        .and_then(|b| b.get(engine))
        .and_then(|x| x.get(key))
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

pub(super) fn print_table(results: &[SizeResult], runs: usize) {
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |name: &str, f: &dyn Fn(&SizeResult) -> String| {
        rows.push((name.to_string(), results.iter().map(f).collect()));
    };
    let num = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
    let engine = |r: &SizeResult, e: &str, k: &str| -> Option<f64> {
        r.browser
            .as_ref()
            .and_then(|b| b.get(e))
            .and_then(|x| x.get(k))
            .map(num)
    };
    row("entries (base + synthetic)", &|r| {
        format!("{} + {}", r.base_entries, r.entries)
    });
    row("build wall", &|r| format!("{:.2} s", r.build.wall));
    row("build CPU (user+sys)", &|r| format!("{:.2} s", r.build.cpu));
    row("peak RSS", &|r| mib(r.build.rss_kib as f64 * 1024.0));
    if results.iter().any(|r| r.hugo.is_some()) {
        // Ratios are kbook / Hugo: below 1 means kbook is faster or smaller.
        let hugo = |r: &SizeResult, f: &dyn Fn(&BuildRun, &BuildRun) -> String| match &r.hugo {
            Some(Ok(h)) => f(&r.build, h),
            Some(Err(e)) => e.clone(),
            None => "-".into(),
        };
        row("hugo: build wall (kbook/hugo)", &|r| {
            hugo(r, &|k, h| {
                format!("{:.2} s (x{:.2})", h.wall, k.wall / h.wall)
            })
        });
        row("hugo: build CPU (kbook/hugo)", &|r| {
            hugo(r, &|k, h| format!("{:.2} s (x{:.2})", h.cpu, k.cpu / h.cpu))
        });
        row("hugo: peak RSS", &|r| {
            hugo(r, &|_, h| mib(h.rss_kib as f64 * 1024.0))
        });
    }
    if results.iter().any(|r| r.edit.is_some()) {
        row("one body edited: files changed (non-search)", &|r| {
            r.edit
                .map_or("-".into(), |(all, outside)| format!("{all} ({outside})"))
        });
    }
    let stage_names: Vec<String> = results
        .first()
        .map(|r| r.build.stages.iter().map(|s| s.0.clone()).collect())
        .unwrap_or_default();
    for name in &stage_names {
        row(&format!("  stage: {name} (wall/cpu)"), &|r| {
            r.build
                .stages
                .iter()
                .find(|s| &s.0 == name)
                .map_or("-".into(), |s| {
                    format!("{:.2}/{:.2} s", s.1 as f64 / 1e3, s.2 as f64 / 1e3)
                })
        });
    }
    row("output (files)", &|r| {
        format!("{} ({})", mib(r.output_bytes as f64), r.files)
    });
    row("packed index", &|r| mib(r.index_bytes as f64));
    row("module raw/gzip/brotli", &|r| {
        format!(
            "{}/{}/{}",
            mib(r.module.0 as f64),
            mib(r.module.1 as f64),
            mib(r.module.2 as f64)
        )
    });
    row("native: index load", &|r| format!("{:.0} ms", r.load_ms));
    row("native: query p50/p95", &|r| {
        format!("{:.2}/{:.2} ms", r.native.0, r.native.1)
    });
    let has_browser = results.iter().any(|r| r.browser.is_some());
    if has_browser {
        let b = |e: &'static str, k: &'static str| {
            move |r: &SizeResult| engine(r, e, k).map_or("-".into(), mib)
        };
        row("chromium: page load bytes", &b("kbook", "load_bytes"));
        row("chromium: first search bytes", &b("kbook", "first_bytes"));
        row(
            "chromium: each next search bytes",
            &b("kbook", "next_bytes"),
        );
        row(
            "chromium: next search bytes, max",
            &b("kbook", "next_bytes_max"),
        );
        row("chromium: first search", &|r| {
            engine(r, "kbook", "first_ms").map_or("-".into(), |v| format!("{v:.0} ms"))
        });
        row("chromium: next searches p50/p95", &|r| match (
            engine(r, "kbook", "next_ms_median"),
            engine(r, "kbook", "next_ms_p95"),
        ) {
            (Some(m), Some(p)) => format!("{m:.1}/{p:.1} ms"),
            _ => "-".into(),
        });
        // The same searches with their data loaded: what is left is the module's own time.
        row("chromium: same searches again p50/p95", &|r| match (
            engine(r, "kbook", "repeat_ms_median"),
            engine(r, "kbook", "repeat_ms_p95"),
        ) {
            (Some(m), Some(p)) => format!("{m:.1}/{p:.1} ms"),
            _ => "-".into(),
        });
    }
    let has_pf = results
        .iter()
        .any(|r| engine(r, "pagefind", "index_ms").is_some());
    if has_pf {
        // Ratios are kbook / Pagefind: below 1 means kbook is smaller or faster.
        let ratio = |ours: Option<f64>, theirs: Option<f64>, show: &dyn Fn(f64) -> String| match (
            ours, theirs,
        ) {
            (Some(o), Some(t)) if t > 0.0 => format!("{} (x{:.2})", show(t), o / t),
            (_, Some(t)) => show(t),
            _ => "-".into(),
        };
        row("pagefind: index time (kbook/pf)", &|r| {
            ratio(
                Some(r.build.wall * 1e3),
                engine(r, "pagefind", "index_ms"),
                &|v| format!("{:.2} s", v / 1e3),
            )
        });
        row("pagefind: index bytes (kbook/pf)", &|r| {
            ratio(
                Some(r.index_bytes as f64),
                engine(r, "pagefind", "index_bytes"),
                &mib,
            )
        });
        for (label, key) in [
            ("pagefind: first search bytes", "first_bytes"),
            ("pagefind: each next search bytes", "next_bytes"),
            ("pagefind: next search bytes, max", "next_bytes_max"),
        ] {
            row(label, &|r| {
                ratio(engine(r, "kbook", key), engine(r, "pagefind", key), &mib)
            });
        }
        // Times in ms, with the decimals each is shown with.
        for (label, key, decimals) in [
            ("pagefind: first search (kbook/pf)", "first_ms", 0),
            ("pagefind: next p50 (kbook/pf)", "next_ms_median", 1),
            ("pagefind: next p95 (kbook/pf)", "next_ms_p95", 1),
            (
                "pagefind: same searches again p95 (kbook/pf)",
                "repeat_ms_p95",
                1,
            ),
        ] {
            row(label, &|r| {
                ratio(engine(r, "kbook", key), engine(r, "pagefind", key), &|v| {
                    format!("{v:.decimals$} ms")
                })
            });
        }
    }
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..results.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.1[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let encoding = results
        .iter()
        .find_map(|r| engine_str(r, "kbook", "encoding"))
        .unwrap_or_else(|| "-".into());
    println!(
        "kbook bench ({runs} build run(s) per size, median shown; index time ratio uses kbook's whole build; browser bytes as transferred with {encoding})"
    );
    for (name, cells) in &rows {
        let mut line = format!("{name:<w0$}");
        for (c, w) in cells.iter().zip(&widths) {
            line.push_str(&format!(" | {c:>w$}"));
        }
        println!("{line}");
    }
}
