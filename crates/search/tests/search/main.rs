//! Indexes small fixture books and checks ranking, confidence, determinism and robustness;
//! the fixtures and helpers are here, the checks in one module per subject.

mod confidence;
mod connectors;
mod index;
mod pastes;
mod typed;

use kbook_search::version::{Version, VersionMatch, VersionRange, VersionSpec};
use kbook_search::{BookIndex, EntryDoc, SearchOptions, Tuning, build_packed_index};

fn entry(
    id: &str,
    connector: &str,
    title: &str,
    errors: &[&str],
    body: &str,
    code: &str,
) -> EntryDoc {
    EntryDoc {
        id: id.into(),
        url: format!("{connector}/{id}.html"),
        title: title.into(),
        connector: connector.into(),
        connector_aliases: Vec::new(),
        cross_connector: false,
        kind: "error".into(),
        errors: errors.iter().map(|s| s.to_string()).collect(),
        generic_errors: Vec::new(),
        body: body.into(),
        code: code.into(),
        tags: vec![],
        symptoms: vec![],
        versions: vec![],
        anchors: vec![],
    }
}

/// `n` entries of `connector` about nothing the tests ask: ids `{connector}-other-{i}`, titles
/// `{title} {i}`, one body.
fn fillers(n: usize, connector: &str, title: &str, body: &str) -> Vec<EntryDoc> {
    (0..n)
        .map(|i| {
            let id = format!("{connector}-other-{i}");
            entry(&id, connector, &format!("{title} {i}"), &[], body, "")
        })
        .collect()
}

fn fixture() -> Vec<EntryDoc> {
    let mut v = vec![
        entry(
            "mysql-communications-link-failure",
            "mysql",
            "Communications link failure when connecting to MySQL",
            &["com.mysql.cj.jdbc.exceptions.CommunicationsException: Communications link failure"],
            "The driver could not reach the MySQL server. Check the network, the whitelist and the port 3306.",
            "SHOW VARIABLES LIKE 'wait_timeout';",
        ),
        entry(
            "kafka-commit-offsets",
            "kafka",
            "Offsets are not committed to Kafka",
            &[
                "CommitFailedException: Commit cannot be completed since the group has already rebalanced",
            ],
            "Offsets are committed on checkpoints. Enable checkpointing and check max.poll.interval.ms.",
            "properties.max.poll.interval.ms = 600000",
        ),
        entry(
            "ssl-peer-shut-down",
            "mysql",
            "SSL peer shut down incorrectly",
            &[
                "javax.net.ssl.SSLException: SSL peer shut down incorrectly",
                "java.io.EOFException: SSL peer shut down incorrectly",
            ],
            "The TLS handshake was cut by the server. Disable SSL with useSSL=false or upgrade the driver.",
            "jdbc:mysql://host:3306/db?useSSL=false",
        ),
        entry(
            "datahub-no-permission-listshard",
            "datahub",
            "No permission for dhs:ListShard",
            &[
                "NoPermissionException: You have no permission to perform this action. Action: dhs:ListShard",
            ],
            "Grant the RAM user the ListShard action on the project.",
            "",
        ),
        entry(
            "maxcompute-authorization-failed-4019",
            "maxcompute",
            "Authorization Failed [4019]",
            &[
                "ErrorMessage=Authorization Failed [4019], You have NO privilege 'odps:CreateInstance' on {acs:odps:*:projects/p}",
            ],
            "The account lacks the CreateInstance privilege in the MaxCompute project.",
            "",
        ),
        entry(
            "checkpoint-timeout",
            "general",
            "Checkpoint expired before completing",
            &["Checkpoint expired before completing."],
            "Checkpoints time out when back pressure slows barriers. Increase the checkpoint timeout or fix back pressure.",
            "execution.checkpointing.timeout: 30min",
        ),
    ];
    v[1].versions = vec![VersionSpec {
        product: "vvr".into(),
        affected: Some(VersionRange::parse(">=8.0.5, <8.0.9").unwrap()),
        fixed: Some(Version::parse("8.0.9").unwrap()),
    }];
    v
}

/// An index of `docs`.
fn index_of(docs: &[EntryDoc]) -> BookIndex {
    BookIndex::open(build_packed_index(docs).unwrap()).unwrap()
}

/// An entry about something else, so that terms of a small fixture are not in every entry.
fn unrelated() -> EntryDoc {
    entry(
        "other",
        "logs",
        "Missing permission",
        &[],
        "Grant read access.",
        "",
    )
}

fn open() -> BookIndex {
    index_of(&fixture())
}

fn top(idx: &BookIndex, q: &str) -> String {
    let r = idx.search(q, &SearchOptions::default()).unwrap();
    r.hits.first().map(|h| h.id.clone()).unwrap_or_default()
}

fn top_with(idx: &BookIndex, q: &str, tuning: Tuning) -> Option<String> {
    let opts = SearchOptions {
        tuning,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    r.hits.first().map(|h| h.id.clone())
}

/// The first hit for `q` is `on` with the shipped tuning and `off_top` with `off` (a part
/// switched off): the part decides the order.
fn assert_part_decides(idx: &BookIndex, q: &str, on: &str, off: Tuning, off_top: &str) {
    assert_eq!(top_with(idx, q, Tuning::default()).as_deref(), Some(on));
    assert_eq!(top_with(idx, q, off).as_deref(), Some(off_top));
}

/// `id` is first for `q` either way, and confident only with the part that `off` switches off.
fn assert_part_gives_confidence(idx: &BookIndex, q: &str, id: &str, off: Tuning) {
    assert_eq!(
        top_confident(idx, q, Tuning::default()),
        (id.to_string(), true)
    );
    assert_eq!(top_confident(idx, q, off), (id.to_string(), false));
}

/// The lines of `--explain` for the hit `id` among the results for `q` (it must be listed).
fn explain_lines(idx: &BookIndex, q: &str, tuning: Tuning, id: &str) -> Vec<String> {
    let opts = SearchOptions {
        tuning,
        explain: true,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    let hit = r.hits.iter().find(|h| h.id == id).unwrap();
    let explain = hit.explain.as_deref().unwrap_or_default();
    explain.lines().map(str::to_string).collect()
}

/// The first hit's id and whether it is confident.
fn top_confident(idx: &BookIndex, q: &str, tuning: Tuning) -> (String, bool) {
    let opts = SearchOptions {
        tuning,
        ..Default::default()
    };
    let r = idx.search(q, &opts).unwrap();
    (r.hits[0].id.clone(), r.confident)
}
