//! Search quality floors: the real `kbook` binary builds a book into a temporary directory
//! and `kbook eval` runs labelled queries against it: the bundled book's curated queries
//! (`tests/queries.jsonl`), real users' pastes (`tests/realworld.jsonl`) and the Chinese
//! fixture book's queries. Floors, not timings; the distractor benchmark is run by hand.

use std::path::Path;
use std::process::Command;

/// Curated queries: top-1 ≥ 0.98 and MRR@10 ≥ 0.98 (raise the floors as ranking improves,
/// never lower them to pass).
const MIN_TOP1: f64 = 0.98;
const MIN_MRR10: f64 = 0.98;
/// Confidence on curated queries: right when given, and given for most of them.
const MIN_CONFIDENT_PRECISION: f64 = 0.98;
const MIN_CONFIDENT_RATE: f64 = 0.55;
/// Floors on real users' pastes (tests/realworld.jsonl), as measured; raise them as ranking
/// and entries improve. At 990 lines (397 answered, 593 answered by no entry, labelled by the
/// rule in the README): top-1 0.970 (pastes 0.970, traces 0.970), recall@5 0.997, abstain
/// 0.941, confident precision 0.863, confident rate 0.554. How each floor moved with the set
/// and the entries is in bench/results/relevance-real-users.md.
const MIN_REALWORLD_TOP1: f64 = 0.96;
/// Pasted errors and traces, each style apart.
const MIN_REALWORLD_STYLE_TOP1: [(&str, f64); 2] = [("paste", 0.96), ("trace", 0.96)];
const MIN_REALWORLD_RECALL5: f64 = 0.98;
const MIN_REALWORLD_ABSTAIN: f64 = 0.94;
const MIN_REALWORLD_CONFIDENT_PRECISION: f64 = 0.86;
const MIN_REALWORLD_CONFIDENT_RATE: f64 = 0.53;
/// The Chinese fixture book (tests/fixtures/zh-book): top-1 ≥ 0.95 and recall@5 ≥ 0.98.
const MIN_ZH_TOP1: f64 = 0.95;
const MIN_ZH_RECALL5: f64 = 0.98;
const MIN_ZH_STYLE_TOP1: f64 = 0.80;
const MIN_ZH_CONFIDENT_RATE: f64 = 0.50;
/// Curated queries in Chinese on the bundled (English) book (tests/queries-zh.jsonl: questions
/// and keywords as Chinese readers type them, pastes after a Chinese lead-in), written from
/// the entries before they were measured: top-1 0.931, recall@5 0.966, confident precision
/// 1.000 (plain BM25 0.736 / 0.874 on the current entries).
const ZH_QUERIES_FLOORS: [(&str, f64); 3] = [
    ("top1", 0.92),
    ("recall5", 0.95),
    ("confident_precision", MIN_CONFIDENT_PRECISION),
];
const MIN_STYLE_TOP1: [(&str, f64); 4] = [
    ("paste", 1.0),
    ("trace", 1.0),
    ("keyword", 0.97),
    ("question", 0.97),
];

fn kbook() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kbook"))
}

/// Builds `book` into a temporary directory.
fn build(book: &Path) -> tempfile::TempDir {
    let dest = tempfile::tempdir().expect("tempdir");
    let out = kbook()
        .arg("build")
        .arg("--book")
        .arg(book)
        .arg("--dest")
        .arg(dest.path())
        .output()
        .expect("run kbook build");
    assert!(
        out.status.success(),
        "kbook build failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dest
}

/// Builds `book` into a temporary directory and runs `kbook eval --json` on `queries`.
fn eval(book: &Path, queries: &Path) -> serde_json::Value {
    let dest = build(book);
    eval_site(book, dest.path(), queries)
}

/// Runs `kbook eval --json` on `queries` against `book` built to `site`.
fn eval_site(book: &Path, site: &Path, queries: &Path) -> serde_json::Value {
    json_of(
        kbook()
            .arg("eval")
            .arg("--queries")
            .arg(queries)
            .arg("--book")
            .arg(book)
            .arg("--site")
            .arg(site)
            .arg("--json"),
    )
}

/// The JSON a successful `kbook … --json` run prints (its stderr shown if it failed).
fn json_of(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.output().expect("run kbook");
    assert!(
        out.status.success(),
        "kbook failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("kbook JSON")
}

/// Asserts `report[key] >= min`, showing the wrong answers otherwise.
fn floor(report: &serde_json::Value, key: &str, min: f64) {
    let got = report[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is null or missing in the report: {report}"));
    let misses = serde_json::to_string_pretty(&report["misses"]).unwrap_or_default();
    assert!(
        got >= min,
        "{key} {got:.3} < {min}; wrong answers:\n{misses}"
    );
}

#[test]
fn bundled_book_queries_meet_the_quality_floor() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = build(repo);
    let report = eval_site(repo, site.path(), &repo.join("tests/queries.jsonl"));
    let n = report["n"].as_u64().expect("n");
    assert!(n >= 150, "expected the full query set, got {n} queries");
    floor(&report, "top1", MIN_TOP1);
    floor(&report, "mrr10", MIN_MRR10);
    for (style, min) in MIN_STYLE_TOP1 {
        floor(&report["by_style"][style], "top1", min);
    }
    floor(&report, "confident_precision", MIN_CONFIDENT_PRECISION);
    floor(&report, "confident_rate", MIN_CONFIDENT_RATE);

    let zh = eval_site(repo, site.path(), &repo.join("tests/queries-zh.jsonl"));
    let n = zh["by_lang"]["zh"]["n"].as_u64().unwrap_or(0);
    assert!(
        n >= 80,
        "expected the Chinese query set, got {n} Chinese queries"
    );
    for (key, min) in ZH_QUERIES_FLOORS {
        floor(&zh, key, min);
    }
}

/// Real users' machine texts (tests/realworld.jsonl: error lines, traces and logs copied
/// from public reports, with their sources; more than half are answered by no entry).
const REALWORLD_FLOORS: [(&str, f64); 4] = [
    ("top1", MIN_REALWORLD_TOP1),
    ("recall5", MIN_REALWORLD_RECALL5),
    ("abstain", MIN_REALWORLD_ABSTAIN),
    ("confident_precision", MIN_REALWORLD_CONFIDENT_PRECISION),
];

#[test]
fn real_users_pastes_meet_the_quality_floor() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let report = eval(repo, &repo.join("tests/realworld.jsonl"));
    let n = report["n"].as_u64().expect("n");
    let unanswered = report["unanswered"].as_u64().expect("unanswered");
    assert!(
        n >= 60 && unanswered >= 15,
        "expected the full real-world set, got {n} answered and {unanswered} unanswered"
    );
    for (key, min) in REALWORLD_FLOORS {
        floor(&report, key, min);
    }
    for (style, min) in MIN_REALWORLD_STYLE_TOP1 {
        floor(&report["by_style"][style], "top1", min);
    }
    // Never-confident would pass the precision floor: confidence must also be given.
    floor(&report, "confident_rate", MIN_REALWORLD_CONFIDENT_RATE);
}

/// How a test rewrites a query's text.
type Rewrite = dyn Fn(&str) -> String;

/// `text` with each line longer than `width` characters broken at the last space before it,
/// as a mail client does (the space dropped, a word longer than the width left whole).
pub(crate) fn break_at_spaces(text: &str, width: usize) -> String {
    let mut rows: Vec<String> = Vec::new();
    for line in text.lines() {
        let mut words = line.split(' ');
        let mut row = words.next().unwrap_or_default().to_string();
        for word in words {
            if !row.trim().is_empty() && row.chars().count() + 1 + word.chars().count() > width {
                rows.push(std::mem::take(&mut row));
            } else {
                row.push(' ');
            }
            row.push_str(word);
        }
        rows.push(row);
    }
    rows.join("\n")
}

/// `text` as a terminal of `width` columns shows it: tabs expanded to the next multiple of
/// eight, each line cut at the width, a character two columns wide that does not fit moved
/// to the next line.
pub(crate) fn cut_at_columns(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut rows: Vec<String> = Vec::new();
    for line in text.lines() {
        let (mut row, mut used) = (String::new(), 0);
        for c in line.chars() {
            let w = if c == '\t' {
                (used / 8 + 1) * 8 - used
            } else {
                c.width().unwrap_or(0)
            };
            if used + w > width {
                rows.push(std::mem::take(&mut row));
                used = 0;
            }
            if c == '\t' {
                row.push_str(&" ".repeat(w.min(width)));
            } else {
                row.push(c);
            }
            used += w;
        }
        rows.push(row);
    }
    rows.join("\n")
}

/// The machine texts in the forms they reach the search box in: as a service that logs JSON
/// prints them (an ECS-style record with the first line as its message and the whole text
/// as its stack trace; the Docker log driver's record per line), quoted in a reply (`> `),
/// behind Docker Compose's service names, a syslog prefix (with an ISO time: top-1 0.908
/// before it was read) or a container runtime's prefix (0.924), inside YARN's headers of an
/// aggregated log (0.940, confident rate 0.005), and HTML-escaped by a web page.
/// Each must rank and abstain as the plain texts do. Before these forms were read as the
/// plain text, top-1 was 0.886 (ECS), 0.898 (quoted, syslog) and 0.892 (Compose) against
/// 0.958, and the HTML-escaped texts were confident 0.271 of the time against 0.349; with
/// no-break spaces top-1 was 0.928, with curly quotes the confident rate 0.301, with
/// zero-width spaces after dots confident precision 0.838. Last, the
/// texts with their lines joined into one, and broken at a fixed width.
#[test]
fn pasted_forms_are_read_like_the_plain_text() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = build(repo);
    let text =
        std::fs::read_to_string(repo.join("tests/realworld.jsonl")).expect("realworld queries");
    let queries: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("query line"))
        .collect();
    let ecs = |q: &str| {
        let message = q.lines().next().unwrap_or_default();
        serde_json::json!({
            "@timestamp": "2024-05-01T10:00:00.000Z",
            "log.level": "ERROR",
            "log.logger": "org.apache.flink.runtime.taskmanager.Task",
            "message": message,
            "error.stack_trace": q,
        })
        .to_string()
    };
    let docker = |q: &str| {
        q.lines()
            .map(|l| {
                serde_json::json!({
                    "log": format!("{l}\n"),
                    "stream": "stderr",
                    "time": "2024-05-01T10:00:00.123456789Z",
                })
                .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let each_line = |prefix: &'static str| {
        move |q: &str| {
            q.lines()
                .map(|l| format!("{prefix}{l}"))
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    let quoted = each_line("> ");
    let compose = each_line("jobmanager_1  | ");
    let syslog = each_line("Dec 04 13:31:04 flink-host java[12345]: ");
    // rsyslog's high-precision format (`RSYSLOG_FileFormat`) and `journalctl -o short-iso`.
    let syslog_iso = each_line("2024-05-01T10:00:00.123456+00:00 flink-host java[12345]: ");
    // A pod's log file as containerd or CRI-O writes it, read on a node or by a log shipper.
    let container = each_line("2024-05-01T10:00:00.123456789Z stderr F ");
    // A container's log in `yarn logs -applicationId …` (Flink on YARN), with YARN's headers.
    let yarn = |q: &str| {
        format!(
            "Container: container_e17_1700000000000_0001_01_000002 on node-1_45454\nLogAggregationType: AGGREGATED\n====================================================================\nLogType:taskmanager.err\nLogLastModifiedTime:Wed May 01 10:00:00 +0800 2024\nLogLength:2048\nLogContents:\n{q}\nEnd of LogType:taskmanager.err"
        )
    };
    let html = |q: &str| {
        q.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
            .replace('\'', "&#x27;")
    };
    // A web page's no-break spaces, curly quotes and zero-width spaces after dots, and a
    // colon typed with a Chinese input method.
    let typeset = |q: &str| {
        q.replace("Caused by: ", "Caused by：")
            .replace('.', ".\u{200b}")
            .replace(' ', "\u{a0}")
            .replace('\'', "\u{2019}")
            .replace('"', "\u{201d}")
    };
    // A coloured log piped from a terminal (`kubectl logs … | kbook search --stdin`).
    let coloured = |q: &str| {
        q.lines()
            .map(|l| {
                let l = l.replacen("ERROR", "\u{1b}[1;31mERROR\u{1b}[0m", 1);
                if l.contains("Exception") {
                    format!("\u{1b}[31m{l}\u{1b}[39m")
                } else {
                    l
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // A trace copied out of a log viewer's field or a JSON value: its breaks escaped.
    let escaped = |q: &str| {
        q.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
            .replace('\t', "\\t")
    };
    // Markdown's fence with a language, and the command typed before the output.
    let fenced = |q: &str| format!("```java\n{q}\n```");
    let prompted =
        |q: &str| format!("[flink@tm-1 ~]$ kubectl logs -n flink flink-taskmanager-1-1\n{q}");
    // A Java exception raised through PyFlink's Py4J bridge: the Python traceback, then
    // Py4J's line, then the exception after `: ` (so only for texts that start with one).
    let pyflink = |q: &str| {
        let starts_with_exception = q
            .split_whitespace()
            .next()
            .is_some_and(|w| w.ends_with(':') && (w.contains("Exception") || w.contains("Error")));
        if !starts_with_exception {
            return q.to_string();
        }
        format!(
            "Traceback (most recent call last):\n  File \"/opt/flink/usrlib/job.py\", line 37, in main\n    t_env.execute_sql(\"INSERT INTO sink_table SELECT id, name FROM source_table\").wait()\n  File \"/opt/flink/opt/python/pyflink.zip/pyflink/table/table_result.py\", line 76, in wait\n  File \"/opt/flink/opt/python/py4j-0.10.9.7-src.zip/py4j/protocol.py\", line 326, in get_return_value\npy4j.protocol.Py4JJavaError: An error occurred while calling o8.await.\n: {q}"
        )
    };
    let forms: [(&str, &Rewrite); 15] = [
        ("ecs", &ecs),
        ("docker", &docker),
        ("quoted", &quoted),
        ("compose", &compose),
        ("syslog", &syslog),
        ("syslog-iso", &syslog_iso),
        ("container", &container),
        ("yarn", &yarn),
        ("html", &html),
        ("typeset", &typeset),
        ("coloured", &coloured),
        ("escaped", &escaped),
        ("fenced", &fenced),
        ("prompted", &prompted),
        ("pyflink", &pyflink),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let plain = eval_site(repo, site.path(), &repo.join("tests/realworld.jsonl"));
    let rewritten = |name: &str, wrap: &Rewrite| {
        let file = dir.path().join(format!("{name}.jsonl"));
        let lines: Vec<String> = queries
            .iter()
            .map(|q| {
                let mut q = q.clone();
                let wrapped = wrap(q["q"].as_str().expect("q"));
                q["q"] = serde_json::Value::String(wrapped);
                q.to_string()
            })
            .collect();
        std::fs::write(&file, lines.join("\n")).expect("write queries");
        eval_site(repo, site.path(), &file)
    };
    for (name, wrap) in forms {
        let report = rewritten(name, wrap);
        for key in ["top1", "abstain", "confident_precision", "confident_rate"] {
            let (got, want) = (report[key].as_f64(), plain[key].as_f64());
            assert!(
                matches!((got, want), (Some(g), Some(w)) if (g - w).abs() <= 0.01),
                "{name}: {key} {got:?}, plain text {want:?}"
            );
        }
    }
    // A one-line search field (every page's search box) and many web pages join the lines
    // with spaces. Where a printed line began is put back; a message's own line breaks (a
    // list in it, a second paragraph) cannot be, so confidence may fall a little, never
    // precision. Before, top-1 was 0.940 and the confident rate 0.271 (plain 0.958, 0.349).
    let value = |r: &serde_json::Value, key: &str| r[key].as_f64().unwrap_or(f64::NAN);
    // `got`'s `key` is at least `floor` of `want`'s.
    let at_least = |form: &str,
                    got: &serde_json::Value,
                    want: &serde_json::Value,
                    key: &str,
                    floor: &dyn Fn(f64) -> f64| {
        assert!(
            value(got, key) >= floor(value(want, key)),
            "{form}: {key} {}, reference {}",
            value(got, key),
            value(want, key)
        );
    };
    // Also lines broken at a fixed width: at the last space before 76 characters by a mail
    // client (a mailing-list post), and cut at 80 columns by a terminal multiplexer or a
    // pager (tabs expanded, a Han character two columns). The pieces are joined back where
    // the paste shows that width; where it cannot tell, a piece stays its own line, so
    // confidence may fall a little. Before, top-1 0.924 (mail) and 0.908 (terminal,
    // confident rate 0.179) against 0.957 and 0.353.
    let want = &plain;
    for (form, rewrite) in [
        (
            "joined",
            &(|q: &str| q.lines().collect::<Vec<_>>().join(" ")) as &Rewrite,
        ),
        ("mailed", &|q: &str| break_at_spaces(q, 76)),
        ("terminal", &|q: &str| cut_at_columns(q, 80)),
    ] {
        let got = &rewritten(form, rewrite);
        assert!(
            (value(got, "top1") - value(want, "top1")).abs() <= 0.01,
            "{form}: top1 {}, plain text {}",
            value(got, "top1"),
            value(want, "top1")
        );
        for key in ["abstain", "confident_precision"] {
            at_least(form, got, want, key, &|w| w - 0.01);
        }
        at_least(form, got, want, "confident_rate", &|w| 0.9 * w);
    }
    // A whole log piped to the search (`kubectl logs … | kbook search --stdin`): each text
    // logged as a record (an ERROR line before it when it has no timestamp), after two
    // warnings of every start and 200 routine records, before 20 more. It is read by its
    // worst records; the routine ones around a failure are lost, so top-1 may fall a little
    // below the logged texts alone. Before, top-1 0.795 and never confident (logged alone
    // 0.934, confident rate 0.349).
    fn logged(q: &str) -> String {
        let first = q.trim_start_matches(|c: char| !c.is_alphanumeric());
        let digits = first.bytes().take_while(u8::is_ascii_digit).count();
        let timestamped = (2..=4).contains(&digits)
            && matches!(
                first.as_bytes().get(digits),
                Some(b'-' | b'/' | b':' | b'.')
            );
        if timestamped {
            q.to_string()
        } else {
            format!(
                "2024-05-01 11:00:00,000 ERROR org.apache.flink.runtime.taskmanager.Task [] - {q}"
            )
        }
    }
    fn routine(from: usize, n: usize) -> String {
        (from..from + n)
            .map(|i| {
                format!(
                    "2024-05-01 10:{:02}:{:02},{:03} INFO  org.apache.flink.runtime.checkpoint.CheckpointCoordinator [] - Completed checkpoint {i} for job 3f2a9c1b8e7d6c5b4a39281706f5e4d3 ({} bytes, checkpointDuration={} ms).",
                    i / 60 % 60,
                    i % 60,
                    i % 1000,
                    i * 37,
                    i * 3
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
    let whole_log = |q: &str| {
        format!(
            "2024-05-01 09:59:58,001 WARN  org.apache.hadoop.util.NativeCodeLoader [] - Unable to load native-hadoop library for your platform... using builtin-java classes where applicable\n2024-05-01 09:59:58,417 WARN  org.apache.flink.runtime.webmonitor.WebMonitorUtils [] - Log file environment variable 'log.file' is not set.\n{}\n{}\n{}",
            routine(0, 200),
            logged(q),
            routine(200, 20)
        )
    };
    let (got, want) = (
        &rewritten("whole-log", &whole_log),
        &rewritten("logged", &logged),
    );
    at_least("whole log", got, want, "top1", &|w| w - 0.05);
    at_least("whole log", got, want, "confident_precision", &|w| w - 0.01);
    at_least("whole log", got, want, "confident_rate", &|w| 0.9 * w);
    // The same whole log from a service that logs JSON: 200 routine records, the text's
    // ECS record, 20 more. Read by its records' levels like the plain one. Before the
    // levels were kept, top-1 0.880 and never confident.
    let ecs_routine = |from: usize, n: usize| {
        (from..from + n)
            .map(|i| {
                serde_json::json!({
                    "@timestamp": format!("2024-05-01T10:{:02}:{:02}.{:03}Z", i / 60 % 60, i % 60, i % 1000),
                    "log.level": "INFO",
                    "log.logger": "org.apache.flink.runtime.checkpoint.CheckpointCoordinator",
                    "message": format!("Completed checkpoint {i} for job 3f2a9c1b8e7d6c5b4a39281706f5e4d3 ({} bytes, checkpointDuration={} ms).", i * 37, i * 3),
                })
                .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let json_log = move |q: &str| {
        format!(
            "{}\n{}\n{}",
            ecs_routine(0, 200),
            ecs(q),
            ecs_routine(200, 20)
        )
    };
    let got = &rewritten("json-log", &json_log);
    at_least("JSON log", got, want, "top1", &|w| w - 0.05);
    at_least("JSON log", got, want, "confident_precision", &|w| w - 0.01);
    at_least("JSON log", got, want, "confident_rate", &|w| 0.9 * w);
}

#[test]
fn chinese_book_queries_meet_the_quality_floor() {
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/zh-book");
    let report = eval(&book, &book.join("queries.jsonl"));
    let n = report["n"].as_u64().expect("n");
    assert!(
        n >= 40,
        "expected the full Chinese query set, got {n} queries"
    );
    floor(&report, "top1", MIN_ZH_TOP1);
    floor(&report, "recall5", MIN_ZH_RECALL5);
    floor(&report, "confident_precision", MIN_CONFIDENT_PRECISION);
    floor(&report, "confident_rate", MIN_ZH_CONFIDENT_RATE);
    for style in ["substring", "question", "mixed", "paste"] {
        floor(&report["by_style"][style], "top1", MIN_ZH_STYLE_TOP1);
    }
}

/// `kbook search --json --limit LIMIT` of `q` on the built site `site`.
fn search_json(site: &Path, limit: usize, q: &str) -> serde_json::Value {
    json_of(
        kbook()
            .args(["search", "--json", "--limit", &limit.to_string(), "--site"])
            .arg(site)
            .args(["--", q]),
    )
}

/// The search box asks for 8 hits, the terminal for 10, the results page for 20 and a
/// reader of `kbook search --limit` for up to 200: the first 8 are the same whatever the number
/// asked for (the factors applied to the hits shown reorder the same first hits, and the
/// candidates a longer list adds go after the ones reranked for the first places).
#[test]
fn fewer_hits_asked_for_are_the_start_of_more() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dest = build(repo);
    let text = std::fs::read_to_string(repo.join("tests/queries.jsonl")).expect("queries");
    let ids = |q: &str, limit: usize| -> Vec<String> {
        search_json(dest.path(), limit, q)["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .map(|h| h["id"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let realworld =
        std::fs::read_to_string(repo.join("tests/realworld.jsonl")).expect("realworld queries");
    let mut differ = Vec::new();
    for line in text
        .lines()
        .chain(realworld.lines())
        .filter(|l| !l.trim().is_empty())
    {
        let q: serde_json::Value = serde_json::from_str(line).expect("query line");
        let q = q["q"].as_str().expect("q");
        let box_hits = ids(q, 8);
        for longer in [20, 200] {
            let more = ids(q, longer);
            if more.len() < box_hits.len() || more[..box_hits.len()] != box_hits[..] {
                differ.push(format!("{longer}: {q}"));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "8 hits are not the first of 20 or 200 for: {differ:#?}"
    );
}

/// The first key of a search as you type is no answer: a lone letter or digit is never a
/// confident match, though a word that only one entry has is (`deadlock`, one line in the
/// entry's own words).
#[test]
fn a_lone_letter_is_never_confident() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dest = build(repo);
    let confident = |q: &str| -> bool {
        search_json(dest.path(), 10, q)["confident"]
            .as_bool()
            .expect("confident")
    };
    let letters: Vec<String> = ('a'..='z').chain('0'..='9').map(String::from).collect();
    let sure: Vec<&String> = letters.iter().filter(|l| confident(l)).collect();
    assert!(sure.is_empty(), "confident for {sure:?}");
    assert!(!confident("a b"), "a b");
    assert!(confident("deadlock"), "deadlock");
}
