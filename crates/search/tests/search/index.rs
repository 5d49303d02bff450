//! The index: byte-identical builds, what a hit carries, filters and versions, hostile
//! queries and damaged indexes.

use super::*;

#[test]
fn builds_are_byte_identical() {
    let a = build_packed_index(&fixture()).unwrap();
    let b = build_packed_index(&fixture()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn results_carry_display_data() {
    let idx = open();
    let opts = SearchOptions {
        explain: true,
        ..Default::default()
    };
    let r = idx
        .search(
            "java.io.EOFException: SSL peer shut down incorrectly",
            &opts,
        )
        .unwrap();
    assert!(r.confident);
    let h = &r.hits[0];
    assert_eq!(h.url, "mysql/ssl-peer-shut-down.html");
    assert_eq!(
        h.matched_error.as_deref(),
        Some("java.io.EOFException: SSL peer shut down incorrectly")
    );
    assert!(h.explain.as_deref().unwrap().contains("sig"));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"snippet\""));
    // Highlights are char offsets inside the snippet text.
    let r = idx.search("handshake", &SearchOptions::default()).unwrap();
    let s = &r.hits[0].snippet;
    let chars: Vec<char> = s.text.chars().collect();
    let (a, b) = s.highlights[0];
    assert_eq!(
        chars[a..b].iter().collect::<String>().to_lowercase(),
        "handshake"
    );
}

#[test]
fn filters_by_connector_kind_and_version() {
    let idx = open();
    let opts = SearchOptions {
        connector: Some("kafka".into()),
        ..Default::default()
    };
    let r = idx.search("SSL peer shut down commit", &opts).unwrap();
    assert!(r.hits.iter().all(|h| h.connector == "kafka"));
    assert!(!r.hits.is_empty());
    let opts = SearchOptions {
        kind: Some("howto".into()),
        ..Default::default()
    };
    assert!(idx.search("commit", &opts).unwrap().hits.is_empty());
    let v = |s: &str| Some(("vvr".to_string(), Version::parse(s).unwrap()));
    let affected = idx
        .search(
            "CommitFailedException",
            &SearchOptions {
                version: v("8.0.7"),
                ..Default::default()
            },
        )
        .unwrap();
    assert_eq!(affected.hits[0].id, "kafka-commit-offsets");
    assert_eq!(affected.hits[0].fixed_in.as_deref(), Some("8.0.9"));
    let fixed = idx
        .search(
            "CommitFailedException",
            &SearchOptions {
                version: v("8.0.11"),
                ..Default::default()
            },
        )
        .unwrap();
    // Not hidden: listed after the entries that may apply, marked, with the fix it has.
    let last = fixed.hits.last().unwrap();
    assert_eq!(last.id, "kafka-commit-offsets");
    assert_eq!(last.version_match, Some(VersionMatch::Fixed));
    assert_eq!(last.fixed_in.as_deref(), Some("8.0.9"));
}

/// With a reader's version, the hits are the same as without one, in the same order, except
/// that entries which do not apply to that version move below the rest (order kept in both
/// groups) and every hit says how it relates to the version.
#[test]
fn a_version_demotes_and_marks_but_never_hides() {
    let mut docs = fixture();
    // Several version-bound entries that all match "SSL peer shut down", so both groups have
    // more than one member and the order inside each group is checked.
    for i in 0..6 {
        let mut e = entry(
            &format!("ssl-variant-{i}"),
            "mysql",
            &format!("SSL peer shut down incorrectly, variant {i}"),
            &["javax.net.ssl.SSLException: SSL peer shut down incorrectly"],
            &"The TLS handshake was cut by the server. ".repeat(i + 1),
            "",
        );
        e.versions = vec![VersionSpec {
            product: "vvr".into(),
            affected: Some(
                VersionRange::parse(if i % 2 == 0 { "<8.0.9" } else { ">=8.0.5" }).unwrap(),
            ),
            fixed: (i % 2 == 0).then(|| Version::parse("8.0.9").unwrap()),
        }];
        docs.push(e);
    }
    let idx = index_of(&docs);
    let q = "javax.net.ssl.SSLException: SSL peer shut down incorrectly handshake";
    let plain = idx
        .search(
            q,
            &SearchOptions {
                limit: 20,
                ..Default::default()
            },
        )
        .unwrap();
    assert!(plain.hits.len() >= 7, "{:?}", plain.hits);
    assert!(plain.hits.iter().all(|h| h.version_match.is_none()));
    // kafka-commit-offsets (">=8.0.5, <8.0.9", fixed 8.0.9) matches a little too.
    for (reader, expect_demoted) in [("8.0.11", 4), ("8.0.1", 4), ("8.0.7", 0)] {
        let opts = SearchOptions {
            limit: 20,
            version: Some(("vvr".into(), Version::parse(reader).unwrap())),
            ..Default::default()
        };
        let r = idx.search(q, &opts).unwrap();
        let ids =
            |hits: &[kbook_search::Hit]| hits.iter().map(|h| h.id.clone()).collect::<Vec<_>>();
        let applies = |h: &kbook_search::Hit| h.version_match.is_some_and(|m| m.applies());
        // Same set, and the order is the plain order stably partitioned.
        let expected: Vec<String> = {
            let (mut yes, no): (Vec<_>, Vec<_>) = r
                .hits
                .iter()
                .map(|h| {
                    (
                        plain.hits.iter().position(|p| p.id == h.id).unwrap(),
                        applies(h),
                    )
                })
                .partition(|(_, a)| *a);
            let mut no = no;
            yes.sort();
            no.sort();
            yes.into_iter()
                .chain(no)
                .map(|(i, _)| plain.hits[i].id.clone())
                .collect()
        };
        let mut sorted_plain = ids(&plain.hits);
        let mut sorted_got = ids(&r.hits);
        sorted_plain.sort();
        sorted_got.sort();
        assert_eq!(
            sorted_got, sorted_plain,
            "vvr {reader}: a hit was dropped or added"
        );
        assert_eq!(ids(&r.hits), expected, "vvr {reader}");
        assert_eq!(r.confident, plain.confident, "vvr {reader}");
        let demoted = r.hits.iter().filter(|h| !applies(h)).count();
        assert_eq!(demoted, expect_demoted, "vvr {reader}: {:?}", r.hits);
        let first_demoted = r
            .hits
            .iter()
            .position(|h| !applies(h))
            .unwrap_or(r.hits.len());
        assert!(
            r.hits[first_demoted..].iter().all(|h| !applies(h)),
            "vvr {reader}"
        );
        assert!(r.hits.iter().all(|h| h.version_match.is_some()));
        for h in &r.hits {
            let expect = match (h.id.strip_prefix("ssl-variant-"), reader) {
                (None, _) if h.id == "kafka-commit-offsets" => match reader {
                    "8.0.11" => VersionMatch::Fixed,
                    "8.0.1" => VersionMatch::NotAffected,
                    _ => VersionMatch::Affected,
                },
                (None, _) => VersionMatch::Unknown,
                (Some(n), "8.0.11") if n.parse::<usize>().unwrap() % 2 == 0 => VersionMatch::Fixed,
                (Some(_), "8.0.1" | "8.0.7") => {
                    if h.id.ends_with(['0', '2', '4']) || reader == "8.0.7" {
                        VersionMatch::Affected
                    } else {
                        VersionMatch::NotAffected
                    }
                }
                (Some(_), _) => VersionMatch::Affected,
            };
            assert_eq!(h.version_match, Some(expect), "{} at vvr {reader}", h.id);
        }
    }
    // A list too short to reach the best match moved down still shows it, last.
    let q = "SSL peer shut down incorrectly, variant 0";
    let opts = SearchOptions {
        limit: 20,
        version: Some(("vvr".into(), Version::parse("8.0.11").unwrap())),
        ..Default::default()
    };
    let long = idx.search(q, &opts).unwrap();
    let at = long.hits.iter().position(|h| h.id == "ssl-variant-0");
    assert!(at.is_some_and(|at| at >= 3), "{:?}", long.hits);
    assert_eq!(long.best_other_version.as_deref(), Some("ssl-variant-0"));
    for limit in [2, 3] {
        let short = idx
            .search(
                q,
                &SearchOptions {
                    limit,
                    ..opts.clone()
                },
            )
            .unwrap();
        let mut expected: Vec<&str> = long.hits[..limit - 1]
            .iter()
            .map(|h| h.id.as_str())
            .collect();
        expected.push("ssl-variant-0");
        let got: Vec<&str> = short.hits.iter().map(|h| h.id.as_str()).collect();
        assert_eq!(got, expected, "limit {limit}");
    }
}

#[test]
fn hostile_queries_never_fail() {
    let idx = open();
    let big = "Caused by: x ".repeat(80_000) + &"lorem ipsum ".repeat(10_000);
    let queries: Vec<String> = vec![
        "".into(),
        "   \n\t ".into(),
        "!!!???...,,,;;;".into(),
        "\"unbalanced quote".into(),
        "\"\"".into(),
        "title:foo body:\"bar\" AND OR NOT -x +y".into(),
        "[a TO b] {1 TO 5} [4019]".into(),
        "\u{0}\u{1}\u{7}\u{1b}[31mred\u{7f}".into(),
        "(((((((((".into(),
        "*:* ~2 ^3 foo~ bar^10".into(),
        big,
        "é漢字🙂".into(),
        String::from_utf8_lossy(&[0xff, 0xfe, b'a', 0xc3]).into_owned(),
    ];
    for q in &queries {
        let r = idx
            .search(
                q,
                &SearchOptions {
                    explain: true,
                    ..Default::default()
                },
            )
            .unwrap();
        assert!(r.hits.len() <= 10);
    }
    assert!(!idx.search("", &SearchOptions::default()).unwrap().confident);
}

#[test]
fn corrupt_or_truncated_indexes_are_errors() {
    let packed = build_packed_index(&fixture()).unwrap();
    assert!(BookIndex::open(Vec::new()).is_err());
    assert!(BookIndex::open(b"not an index at all, definitely not".to_vec()).is_err());
    for cut in [1, 8, 31, 32, 100, packed.len() / 2, packed.len() - 1] {
        assert!(
            BookIndex::open(packed[..cut].to_vec()).is_err(),
            "cut {cut}"
        );
    }
    for i in (0..packed.len()).step_by(97) {
        let mut bad = packed.clone();
        bad[i] ^= 0x5a;
        assert!(BookIndex::open(bad).is_err(), "flip {i}");
    }
}
