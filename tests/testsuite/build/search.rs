//! `kbook search` on a built book: versions, `book.toml` read as the build reads it,
//! symptoms, and output into a closed pipe.

use super::*;

/// `kbook search --version`: an entry that does not affect the reader's version is still
/// listed, after the others, and marked; one that does says so and names the fix.
#[test]
fn search_with_a_version_lists_other_versions_last_and_marks_them() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Matches the SSL entry best, and the others a little ("kafka", "commit", "ssl").
    let q = "javax.net.ssl.SSLHandshakeException: PKIX path building failed kafka commit";
    let search = |extra: &[&str]| {
        let o = kbook()
            .arg("search")
            .arg("--site")
            .arg(&c.out)
            .args(extra)
            .arg(q)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&search(&args)).unwrap()
    };
    let ids = |v: &serde_json::Value| -> Vec<String> {
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let plain = json(&[]);
    assert_eq!(ids(&plain)[0], "kafka-ssl-handshake");
    assert!(ids(&plain).len() >= 2, "{plain}");

    let past_fix = json(&["--version", "vvr=8.0.11"]);
    let got = ids(&past_fix);
    assert_eq!(got.last().map(String::as_str), Some("kafka-ssl-handshake"));
    let mut same = got.clone();
    same.sort();
    let mut before = ids(&plain);
    before.sort();
    assert_eq!(same, before, "a version must not hide or add entries");
    let hit = past_fix["hits"].as_array().unwrap().last().unwrap();
    assert_eq!(hit["version_match"], "fixed");
    assert_eq!(hit["fixed_in"], "8.0.9");
    let text = search(&["--version", "vvr=8.0.11"]);
    let mark = "[not your version] does not affect vvr 8.0.11 (fixed in 8.0.9)";
    assert!(text.contains(mark), "{text}");
    let first = |t: &str| {
        t.lines()
            .find(|l| l.starts_with(" 1. "))
            .unwrap_or("")
            .to_string()
    };
    assert!(!first(&text).contains("SSL handshake"), "{text}");

    let affected = search(&["--version", "vvr=8.0.7"]);
    assert!(first(&affected).contains("SSL handshake"), "{affected}");
    assert!(
        affected.contains("affects vvr 8.0.7; fixed in 8.0.9")
            && !affected.contains("[not your version]"),
        "{affected}"
    );
    // The first line says whether the search is confident in its first hit; a version that
    // moves that hit down leaves the search not confident, and says the best match is
    // listed with the other versions (not "no confident match", which reads as not found).
    assert_eq!(plain["confident"], true, "{plain}");
    assert_eq!(plain.get("best_other_version"), None, "{plain}");
    assert_eq!(past_fix["confident"], false, "{past_fix}");
    assert_eq!(past_fix["best_other_version"], "kafka-ssl-handshake");
    for extra in [
        &[][..],
        &["--version", "vvr=8.0.11"],
        &["--version", "vvr=8.0.7"],
    ] {
        let text = search(extra);
        let header = text.lines().next().unwrap_or("");
        let r = json(extra);
        let expected = if r["confident"].as_bool().unwrap() {
            "Best match first:"
        } else if r["best_other_version"].is_string() {
            "The best match does not affect vvr 8.0.11: it is listed after the entries that may, marked [not your version]."
        } else {
            "No confident match; closest entries:"
        };
        assert_eq!(header, expected, "{extra:?}\n{text}");
    }
    assert!(text.contains(&format!("{mark} (best match)")), "{text}");
    // The number asked for changes neither the first hit nor the verdict.
    let one = json(&["--version", "vvr=8.0.11", "--limit", "1"]);
    assert_eq!(ids(&one), ids(&past_fix)[..1], "{one}");
    assert_eq!(one["confident"], false, "{one}");
    assert_eq!(one["best_other_version"], "kafka-ssl-handshake", "{one}");
    // A product the book does not name is refused, with the ones it does.
    let typo = kbook()
        .args(["search", "--version", "vrr=8.0.11", "--site"])
        .arg(&c.out)
        .arg(q)
        .output()
        .unwrap();
    assert!(!typo.status.success());
    assert!(
        stderr(&typo).contains("no product `vrr`") && stderr(&typo).contains("vvr"),
        "{}",
        stderr(&typo)
    );
    let bad = kbook()
        .args(["search", "--version", "vvr=eight", "--site"])
        .arg(&c.out)
        .arg(q)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("bad --version"), "{}", stderr(&bad));
}

/// `kbook search` finds the site where `kbook build` wrote it because both read book.toml
/// the same way: a book without book.toml is built into `book/` and searched there, and a
/// book.toml the build rejects is rejected by search too (it used to have a reader of its
/// own that failed without book.toml and skipped unknown keys).
#[test]
fn search_reads_book_toml_as_the_build_does() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    copy_dir(&fixture("good"), &book);
    let toml = std::fs::read_to_string(book.join("book.toml")).unwrap();
    std::fs::remove_file(book.join("book.toml")).unwrap();
    let search = || {
        kbook()
            .args(["search", "--json", "--book"])
            .arg(&book)
            .arg("SSLHandshakeException")
            .output()
            .unwrap()
    };
    let o = kbook()
        .args(["build", "--book"])
        .arg(&book)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(book.join("book/index.html").is_file());
    let o = search();
    assert!(o.status.success(), "{}", stderr(&o));
    let hits: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(hits["hits"][0]["id"], "kafka-ssl-handshake", "{hits}");

    std::fs::write(
        book.join("book.toml"),
        format!("{toml}\n[build]\nbuild-dir = \"book\"\nbuild-dri = \"elsewhere\"\n"),
    )
    .unwrap();
    let o = search();
    assert!(!o.status.success(), "a bad book.toml was accepted");
    assert!(stderr(&o).contains("build-dri"), "{}", stderr(&o));
}

/// `symptoms`, the reader's words for a problem in any language, are searched and listed on
/// the entry page; an entry without them finds nothing for those words.
#[test]
fn symptoms_are_searched_and_shown() {
    let c = case("good");
    let search = |q: &str| -> Vec<String> {
        let o = kbook()
            .args(["search", "--json", "--site"])
            .arg(&c.out)
            .arg(q)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(search("表情符号写不进去").is_empty());

    let path = c.book.join("content/mysql/mysql-incorrect-string.md");
    let text = std::fs::read_to_string(&path).unwrap().replacen(
        "tags: [charset]",
        "tags: [charset]\nsymptoms: [\"表情符号写不进去\", \"emoji turn into question marks\"]",
        1,
    );
    std::fs::write(&path, text).unwrap();
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(search("表情符号写不进去")[0], "mysql-incorrect-string");
    assert_eq!(search("question marks")[0], "mysql-incorrect-string");
    let page = std::fs::read_to_string(c.out.join("mysql/mysql-incorrect-string.html")).unwrap();
    assert!(
        page.contains("<li>表情符号写不进去</li>")
            && page.contains("emoji turn into question marks"),
        "symptoms missing from the entry page"
    );
}

/// Output piped into a reader that stops early (`kbook search … | head`) ends the command
/// quietly and successfully; a write that fails otherwise (a full disk) is an error message,
/// never a panic.
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The reader goes away before the command has written anything.
    let into_closed_pipe = |cmd: &mut std::process::Command| {
        let mut child = cmd
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    };
    into_closed_pipe(
        kbook()
            .args(["search", "--explain", "--site"])
            .arg(&c.out)
            .arg("kafka SSLHandshakeException"),
    );
    into_closed_pipe(kbook().args(["completions", "bash"]));

    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let o = kbook()
            .args(["search", "--site"])
            .arg(&c.out)
            .arg("kafka")
            .stdout(full)
            .output()
            .unwrap();
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(
            err.contains("No space left") && !err.contains("panicked"),
            "{err}"
        );
    }
}

/// `--connector` and `--kind` take the values the index has, or the names the book gives
/// them; anything else is refused with the known ones (it used to match nothing, quietly).
#[test]
fn search_filters_take_slugs_or_names_and_refuse_others() {
    let c = case("good");
    let toml = c.book.join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap().replace(
        "name = \"Message Queue for Kafka\"",
        "name = \"Message Queue for Kafka\"\naliases = [\"mq\"]",
    );
    std::fs::write(&toml, text).unwrap();
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Run in a folder without book.toml: `--book`, when given, is where the book is.
    let elsewhere = tempfile::tempdir().unwrap();
    let run = |book: &[&std::ffi::OsStr], extra: &[&str]| {
        kbook()
            .current_dir(elsewhere.path())
            .arg("search")
            .args(book)
            .arg("--site")
            .arg(&c.out)
            .arg("--json")
            .args(extra)
            .arg("offsets checkpoint ssl")
            .output()
            .unwrap()
    };
    let search = |extra: &[&str]| run(&["--book".as_ref(), c.book.as_os_str()], extra);
    let ids = |o: &std::process::Output| -> Vec<String> {
        assert!(o.status.success(), "{}", stderr(o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].as_str().unwrap().to_string())
            .collect()
    };
    let by_slug = ids(&search(&["--connector", "kafka"]));
    assert!(!by_slug.is_empty());
    assert_eq!(
        ids(&search(&["--connector", "message queue for KAFKA"])),
        by_slug
    );
    // One of the other names book.toml gives the connector.
    assert_eq!(ids(&search(&["--connector", "MQ"])), by_slug);
    // With the site alone, the names are the site's own.
    let site_only = |extra: &[&str]| run(&[], extra);
    assert_eq!(
        ids(&site_only(&["--connector", "message queue for KAFKA"])),
        by_slug
    );
    let bad = site_only(&["--connector", "kafak"]);
    assert!(
        stderr(&bad).contains("known: kafka (Message Queue for Kafka), mysql (MySQL)"),
        "{}",
        stderr(&bad)
    );
    let bad = search(&["--connector", "kafak"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains(
            "the index has no connector `kafak`; known: kafka (Message Queue for Kafka), mysql (MySQL)"
        ),
        "{}",
        stderr(&bad)
    );
    let bad = search(&["--kind", "concpt"]);
    assert!(
        stderr(&bad).contains("the index has no kind `concpt`; known: concept"),
        "{}",
        stderr(&bad)
    );
    // A book folder that is not there is named as such.
    let o = kbook()
        .args(["search", "--book", "/nonexistent/book", "x"])
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains("/nonexistent/book is not a folder"),
        "{}",
        stderr(&o)
    );
}

/// A paste piped into `kbook search` is read without `--stdin` (and with `-`); an empty one
/// is named as such; a site that cannot be searched says why and what to give instead.
#[test]
fn search_reads_a_pipe_and_says_what_to_give_instead_of_a_missing_site() {
    use std::io::Write;
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let piped = |args: &[&std::ffi::OsStr], input: &[u8]| {
        let mut child = kbook()
            .arg("search")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    };
    let site = c.out.as_os_str();
    let trace = b"javax.net.ssl.SSLHandshakeException: PKIX path building failed\n\tat sun.security.ssl.Alert.createSSLException(Alert.java:131)\n";
    for args in [
        &[std::ffi::OsStr::new("--site"), site][..],
        &[
            std::ffi::OsStr::new("--site"),
            site,
            std::ffi::OsStr::new("-"),
        ],
    ] {
        let o = piped(args, trace);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains(" 1. ") && out.contains("kafka-ssl-handshake"),
            "{out}"
        );
        // Each hit's page as a path that opens from here.
        let page = c.out.join("kafka/kafka-ssl-handshake.html");
        assert!(out.contains(&format!("    {}\n", page.display())), "{out}");
    }
    let o = piped(&[std::ffi::OsStr::new("--site"), site], b"");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("standard input was empty"),
        "{}",
        stderr(&o)
    );

    let fails = |site: &std::path::Path| {
        let o = kbook()
            .args(["search", "--site"])
            .arg(site)
            .arg("ssl")
            .output()
            .unwrap();
        assert!(!o.status.success());
        stderr(&o)
    };
    let missing = c.out.join("no-such-folder");
    assert!(
        fails(&missing).contains("does not exist"),
        "{}",
        fails(&missing)
    );
    let inner = c.out.join("search");
    let said = fails(&inner);
    assert!(
        said.contains("is the site's search folder") && said.contains(&c.out.display().to_string()),
        "{said}"
    );
    // No book.toml and no built site where search looks by default.
    let empty = tempfile::tempdir().unwrap();
    let o = kbook()
        .current_dir(empty.path())
        .args(["search", "ssl"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("no book.toml in") && stderr(&o).contains("--site DIR"),
        "{}",
        stderr(&o)
    );
}

/// `--explain`'s first line adds up: the fields' scores, summed, times the reranking factor
/// give the hit's score.
#[test]
fn search_explain_adds_up() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = kbook()
        .args(["search", "--json", "--explain", "--site"])
        .arg(&c.out)
        .arg("SSLHandshakeException PKIX path building failed kafka")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let hits = r["hits"].as_array().unwrap();
    assert!(!hits.is_empty());
    for h in hits {
        let first = h["explain"]
            .as_str()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string();
        // "score 215.447 = (title=60.54 + sig=38.56) × 1.398"
        let (lhs, rhs) = first.split_once(" = (").unwrap();
        let score: f64 = lhs.trim_start_matches("score ").parse().unwrap();
        let (fields, factor) = rhs.split_once(") × ").unwrap();
        let sum: f64 = fields
            .split(" + ")
            .map(|f| f.split_once('=').unwrap().1.parse::<f64>().unwrap())
            .sum();
        let factor: f64 = factor.parse().unwrap();
        assert!(
            (sum * factor - score).abs() <= 0.01 * score.max(1.0),
            "{first}: {sum} × {factor} is not {score}"
        );
        assert!(
            (h["score"].as_f64().unwrap() - score).abs() < 0.01,
            "{first}"
        );
    }
}

/// A filter takes competing entries away, but not the doubt: a filtered search is confident
/// only where the whole book's search is confident in the same first hit.
#[test]
fn filters_do_not_make_a_search_confident() {
    let c = case("good");
    let o = build(&c.book, &c.out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let search = |args: &[&str]| -> serde_json::Value {
        let o = kbook()
            .args(["search", "--json", "--site"])
            .arg(&c.out)
            .args(args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let first = |v: &serde_json::Value| v["hits"][0]["id"].as_str().map(str::to_string);
    let mut confident_filtered = 0;
    for q in [
        "kafka",
        "ssl",
        "commit",
        "SSLHandshakeException PKIX path building failed",
    ] {
        let all = search(&[q]);
        for filter in [
            ["--kind", "concept"],
            ["--kind", "error"],
            ["--connector", "kafka"],
        ] {
            let f = search(&[filter[0], filter[1], q]);
            if f["confident"] == true {
                confident_filtered += 1;
                assert_eq!(all["confident"], true, "{q} {filter:?}: {f}");
                assert_eq!(first(&all), first(&f), "{q} {filter:?}");
            }
        }
    }
    // The rule is not met by never being confident.
    assert!(confident_filtered > 0);
}
