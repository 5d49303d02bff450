//! Deterministic synthetic books: realistic connector-like entries (error strings with stack
//! traces, versions, ~450 words in three sections, a code block and two internal links) for
//! build benchmarks and as search distractors.

use anyhow::{Context, Result};
use std::fmt::Write as _;
use std::path::Path;

/// SplitMix64: a tiny deterministic generator, so the same seed always gives the same book
/// (no `rand` dependency and no platform differences).
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

pub const CONNECTORS: [&str; 14] = [
    "kafka",
    "mysql",
    "hologres",
    "maxcompute",
    "paimon",
    "hudi",
    "sls",
    "datahub",
    "clickhouse",
    "rocketmq",
    "tablestore",
    "elasticsearch",
    "mongodb",
    "postgres",
];
const KINDS: [&str; 5] = ["error", "troubleshooting", "howto", "concept", "behavior"];
const EXCEPTIONS: [&str; 16] = [
    "java.io.IOException",
    "java.lang.IllegalStateException",
    "java.lang.IllegalArgumentException",
    "java.lang.RuntimeException",
    "java.util.concurrent.TimeoutException",
    "org.apache.flink.runtime.JobException",
    "org.apache.flink.table.api.ValidationException",
    "org.apache.flink.util.FlinkRuntimeException",
    "java.sql.SQLException",
    "java.net.SocketTimeoutException",
    "org.apache.kafka.common.errors.TimeoutException",
    "com.alibaba.hologres.client.exception.HoloClientException",
    "com.aliyun.odps.OdpsException",
    "org.apache.paimon.catalog.Catalog$TableNotExistException",
    "java.lang.NullPointerException",
    "java.lang.OutOfMemoryError",
];
const SUBJECTS: [&str; 24] = [
    "checkpoint",
    "snapshot",
    "partition",
    "split",
    "offset",
    "watermark",
    "sink writer",
    "source reader",
    "connection pool",
    "commit",
    "schema",
    "bucket",
    "shard",
    "consumer group",
    "transaction",
    "buffer",
    "table",
    "catalog",
    "primary key",
    "lookup join",
    "state backend",
    "task slot",
    "timestamp",
    "serializer",
];
const PROBLEMS: [&str; 20] = [
    "could not be restored",
    "timed out after {n} ms",
    "is not available",
    "was closed unexpectedly",
    "exceeds the limit of {n}",
    "does not match the expected type",
    "failed to flush {n} records",
    "is already in use",
    "was rejected by the server",
    "could not be found",
    "has an invalid format",
    "is not serializable",
    "is out of range",
    "expired before it was committed",
    "was declined",
    "is read-only",
    "returned status {n}",
    "cannot be parsed",
    "lost its leader",
    "is locked by another job",
];
const WORDS: [&str; 119] = [
    "the",
    "job",
    "restarts",
    "when",
    "a",
    "task",
    "manager",
    "reads",
    "writes",
    "from",
    "to",
    "records",
    "with",
    "latency",
    "throughput",
    "parallelism",
    "operator",
    "upstream",
    "downstream",
    "cluster",
    "option",
    "value",
    "default",
    "configure",
    "increase",
    "decrease",
    "timeout",
    "interval",
    "memory",
    "heap",
    "network",
    "retry",
    "backoff",
    "failover",
    "region",
    "restart",
    "strategy",
    "deployment",
    "savepoint",
    "state",
    "stateful",
    "stateless",
    "window",
    "event",
    "time",
    "processing",
    "idle",
    "source",
    "sink",
    "dimension",
    "lookup",
    "cache",
    "ttl",
    "rows",
    "columns",
    "types",
    "mapping",
    "nullable",
    "precision",
    "scale",
    "decimal",
    "varchar",
    "bigint",
    "timestamp",
    "zone",
    "format",
    "json",
    "avro",
    "csv",
    "debezium",
    "canal",
    "changelog",
    "upsert",
    "retract",
    "append",
    "mode",
    "batch",
    "streaming",
    "bounded",
    "unbounded",
    "metrics",
    "dashboard",
    "logs",
    "error",
    "warning",
    "message",
    "console",
    "version",
    "upgrade",
    "release",
    "engine",
    "runtime",
    "worker",
    "coordinator",
    "leader",
    "follower",
    "replica",
    "endpoint",
    "vpc",
    "whitelist",
    "security",
    "group",
    "credentials",
    "account",
    "permission",
    "role",
    "policy",
    "quota",
    "limit",
    "throttle",
    "backpressure",
    "buffer",
    "flush",
    "commit",
    "transaction",
    "isolation",
    "consistency",
    "exactly",
    "once",
];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(&WORDS));
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => format!("{}{}.", f.to_uppercase(), c.as_str()),
        None => s,
    }
}

fn paragraph(rng: &mut Rng, words: usize) -> String {
    let mut out = Vec::new();
    let mut left = words;
    while left > 0 {
        let n = (8 + rng.below(10)).min(left);
        out.push(sentence(rng, n));
        left -= n;
    }
    out.join(" ")
}

fn error_message(rng: &mut Rng) -> String {
    let n = (rng.below(90) + 10) * 100;
    let problem = rng.pick(&PROBLEMS).replace("{n}", &n.to_string());
    format!(
        "{}: The {} {} {}",
        rng.pick(&EXCEPTIONS),
        rng.pick(&SUBJECTS),
        rng.pick(&SUBJECTS).replace(' ', "_"),
        problem
    )
}

fn title(rng: &mut Rng, connector: &str) -> String {
    format!(
        "{} {} {} on {}",
        capitalize(rng.pick(&SUBJECTS)),
        rng.pick(&PROBLEMS).replace(" {n}", "").replace("{n}", ""),
        rng.pick(&WORDS),
        connector
    )
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// Id of synthetic entry `i`.
pub fn entry_id(prefix: &str, i: usize) -> String {
    format!("{prefix}-{i:06}")
}

/// Writes `n` entries into `content_dir/<connector>/<prefix>-<i>.md`.
pub fn write_entries(content_dir: &Path, n: usize, seed: u64, prefix: &str) -> Result<()> {
    let mut rng = Rng::new(seed);
    for i in 0..n {
        let connector = CONNECTORS[i % CONNECTORS.len()];
        let kind = KINDS[rng.below(KINDS.len())];
        let id = entry_id(prefix, i);
        let err = error_message(&mut rng);
        let err2 = error_message(&mut rng);
        // Links go to entries of the same connector so relative paths stay simple.
        let link = |rng: &mut Rng| {
            let j = (rng.below(n.max(1) / CONNECTORS.len()).max(1)) * CONNECTORS.len()
                + i % CONNECTORS.len();
            let j = if j >= n || j == i {
                (i + CONNECTORS.len()) % n.max(1)
            } else {
                j
            };
            entry_id(prefix, j)
        };
        let (l1, l2) = (link(&mut rng), link(&mut rng));
        let minor = rng.below(12);
        let mut t = String::with_capacity(4096);
        let _ = write!(
            t,
            "---\nid: {id}\ntitle: \"{}\"\nconnector: {connector}\nkind: {kind}\nerrors:\n  - \"{}\"\n  - \"{}\"\nversions:\n  - product: vvr\n    affected: \">=8.0.{minor}, <8.0.{}\"\n    fixed: \"8.0.{}\"\ntags: [{}, {}]\nupdated: 2026-{:02}-{:02}\n---\n",
            title(&mut rng, connector),
            err,
            err2,
            minor + 3,
            minor + 3,
            rng.pick(&SUBJECTS).replace(' ', "-"),
            rng.pick(&WORDS),
            1 + rng.below(12),
            1 + rng.below(28)
        );
        let _ = write!(
            t,
            "## Symptom\n\n{}\n\n```text\n2026-03-0{} 10:1{}:22,{:03} ERROR org.apache.flink.runtime.taskmanager.Task - Sink: Writer (1/{}) switched from RUNNING to FAILED.\n{err}\n    at org.apache.flink.connector.{connector}.sink.Writer.flush(Writer.java:{})\n    at org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:{})\nCaused by: {err2}\n    ... {} more\n```\n\n## Cause\n\n{} See [the related entry]({l1}.md).\n\n## Solution\n\n1. {}\n2. {} Compare with [this entry]({l2}.md#solution).\n3. {}\n",
            paragraph(&mut rng, 120),
            1 + rng.below(9),
            rng.below(10),
            rng.below(1000),
            1 + rng.below(64),
            100 + rng.below(400),
            100 + rng.below(900),
            rng.below(40),
            paragraph(&mut rng, 150),
            paragraph(&mut rng, 40),
            paragraph(&mut rng, 40),
            paragraph(&mut rng, 40),
        );
        let dir = content_dir.join(connector);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        std::fs::write(dir.join(format!("{id}.md")), t)
            .with_context(|| format!("cannot write entry {id}"))?;
    }
    Ok(())
}

/// Writes a complete synthetic book (book.toml + `n` entries) into `dir`.
pub fn write_book(dir: &Path, n: usize, seed: u64) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(
        dir.join("book.toml"),
        format!("[book]\ntitle = \"Synthetic KB ({n} entries)\"\n"),
    )
    .context("cannot write book.toml")?;
    write_entries(&dir.join("content"), n, seed, "synthetic")
}
