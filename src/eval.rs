//! Search quality on labelled queries (what `kbook eval` reports).
//!
//! A query file holds one `{"q", "expect": [ids], "style", "lang"}` per line. Queries with
//! expected ids measure ranking (top-1, MRR@10, recall@5); queries with `"expect": []` (no
//! entry answers them) measure honesty: the share answered "no confident match" (`abstain`).
//! `confident_precision` is the share of confident answers whose first hit is right, counting
//! a confident answer to an unanswerable query as wrong; `confident_rate` is the share of
//! answerable queries answered confidently (a search that is never confident is useless).

use kbook_search::{BookIndex, SearchError, SearchOptions, Tuning};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// A query file that cannot be read, or a search that failed.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The query file cannot be read.
    #[error("cannot read {path}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Lines of the query file that are not labelled queries (each `path:line:column: why`),
    /// or a file with none.
    #[error(
        "{}\n  hint: each line is {{\"q\": \"...\", \"expect\": [ids], \"style\", \"lang\", \"source\", \"why\"}}",
        problems.join("\n")
    )]
    BadLines { problems: Vec<String> },
    /// Expected ids that no entry of the index has.
    #[error(
        "{}\n  hint: list ids of the book's entries (`kbook search --json` shows them), or [] when no entry answers",
        problems.join("\n")
    )]
    UnknownIds { problems: Vec<String> },
    /// The index failed to answer a query.
    #[error("the search for {query:?} failed")]
    Search {
        query: String,
        #[source]
        source: SearchError,
    },
}

/// The fields of a labelled query; others are ignored with a warning (a set collected
/// elsewhere may carry its own, such as an id or a note).
pub const QUERY_FIELDS: [&str; 6] = ["q", "expect", "style", "lang", "source", "why"];

/// One labelled query.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledQuery {
    /// The query text (`query` is read as well).
    #[serde(alias = "query")]
    pub q: String,
    /// Entry ids that answer it; empty when no entry does (`expected` is read as well).
    #[serde(alias = "expected")]
    pub expect: Vec<String>,
    /// How it is written (paste, trace, question, keyword, ...).
    #[serde(default = "unlabelled")]
    pub style: String,
    /// Its language (`en`, `zh`, ...).
    #[serde(default = "unlabelled")]
    pub lang: String,
    /// Where it was copied from (a URL), for queries from public reports.
    #[serde(default)]
    pub source: Option<String>,
    /// Why it is labelled so.
    #[serde(default)]
    pub why: Option<String>,
    /// Its line in the query file (0 when not read from one).
    #[serde(skip)]
    pub line: usize,
    /// Fields that are none of [`QUERY_FIELDS`], ignored.
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_json::Value>,
}

fn unlabelled() -> String {
    "unlabelled".to_string()
}

/// Aggregated metrics of a group of queries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Metrics {
    /// Queries with expected ids.
    pub n: usize,
    /// Share of those whose first hit is expected (null without any).
    pub top1: Option<f64>,
    /// Mean reciprocal rank of the first expected hit within the top 10 (null without any).
    pub mrr10: Option<f64>,
    /// Mean share of expected ids within the top 5 (null without any).
    pub recall5: Option<f64>,
    /// Queries no entry answers (`"expect": []`).
    pub unanswered: usize,
    /// Share of unanswered queries answered "no confident match" (null without any).
    pub abstain: Option<f64>,
    /// Share of confident answers whose first hit is right; a confident answer to an
    /// unanswered query is wrong (null when nothing was confident).
    pub confident_precision: Option<f64>,
    /// Share of answered queries answered confidently (null without any).
    pub confident_rate: Option<f64>,
}

#[derive(Default)]
struct Acc {
    n: usize,
    top1: f64,
    rr: f64,
    recall: f64,
    unanswered: usize,
    abstained: usize,
    confident: usize,
    confident_right: usize,
    confident_answered: usize,
}

/// What one query gave.
struct Outcome {
    answerable: bool,
    rank: Option<usize>,
    recall: f64,
    confident: bool,
}

impl Acc {
    fn add(&mut self, o: &Outcome) {
        if o.confident {
            self.confident += 1;
        }
        if !o.answerable {
            self.unanswered += 1;
            if !o.confident {
                self.abstained += 1;
            }
            return;
        }
        self.n += 1;
        if o.rank == Some(1) {
            self.top1 += 1.0;
            if o.confident {
                self.confident_right += 1;
            }
        }
        if o.confident {
            self.confident_answered += 1;
        }
        if let Some(r) = o.rank.filter(|&r| r <= 10) {
            self.rr += 1.0 / r as f64;
        }
        self.recall += o.recall;
    }

    fn metrics(&self) -> Metrics {
        let share = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
        // Without answerable queries the ranking measures are undefined, not zero.
        let mean = |sum: f64| (self.n > 0).then(|| sum / self.n as f64);
        Metrics {
            n: self.n,
            top1: mean(self.top1),
            mrr10: mean(self.rr),
            recall5: mean(self.recall),
            unanswered: self.unanswered,
            abstain: share(self.abstained, self.unanswered),
            confident_precision: share(self.confident_right, self.confident),
            confident_rate: share(self.confident_answered, self.n),
        }
    }
}

/// One query answered wrongly: its first hit is not expected, or it was answered
/// confidently although no entry answers it.
#[derive(Debug, Clone, Serialize)]
pub struct Miss {
    /// The query.
    pub q: String,
    /// Its style.
    pub style: String,
    /// Expected ids (empty: no entry answers it).
    pub expect: Vec<String>,
    /// Rank of the first expected id (1-based), if within the results.
    pub rank: Option<usize>,
    /// Whether the search was confident.
    pub confident: bool,
    /// The top results' ids.
    pub got: Vec<String>,
}

/// The eval report.
#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    /// Number of queries (answered and unanswered).
    pub queries: usize,
    /// All queries together (`n` counts the answered ones).
    #[serde(flatten)]
    pub all: Metrics,
    /// The same per query style.
    pub by_style: BTreeMap<String, Metrics>,
    /// The same per language.
    pub by_lang: BTreeMap<String, Metrics>,
    /// Wrong answers (see [`Miss`]).
    pub misses: Vec<Miss>,
}

/// Runs labelled queries against an opened index.
pub fn evaluate(
    index: &BookIndex,
    queries: &[LabelledQuery],
    tuning: &Tuning,
) -> Result<EvalReport, EvalError> {
    let mut all = Acc::default();
    let mut styles: BTreeMap<String, Acc> = BTreeMap::new();
    let mut langs: BTreeMap<String, Acc> = BTreeMap::new();
    let mut misses = Vec::new();
    for lq in queries {
        let opts = SearchOptions {
            limit: 10,
            tuning: tuning.clone(),
            ..Default::default()
        };
        let r = index
            .search(&lq.q, &opts)
            .map_err(|source| EvalError::Search {
                query: lq.q.clone(),
                source,
            })?;
        let ids: Vec<&str> = r.hits.iter().map(|h| h.id.as_str()).collect();
        let rank = ids
            .iter()
            .position(|id| lq.expect.iter().any(|e| e == id))
            .map(|p| p + 1);
        let recall = if lq.expect.is_empty() {
            0.0
        } else {
            lq.expect
                .iter()
                .filter(|e| ids.iter().take(5).any(|id| id == e))
                .count() as f64
                / lq.expect.len() as f64
        };
        let o = Outcome {
            answerable: !lq.expect.is_empty(),
            rank,
            recall,
            confident: r.confident,
        };
        all.add(&o);
        styles.entry(lq.style.clone()).or_default().add(&o);
        langs.entry(lq.lang.clone()).or_default().add(&o);
        let wrong = if o.answerable {
            rank != Some(1)
        } else {
            r.confident
        };
        if wrong {
            misses.push(Miss {
                q: lq.q.clone(),
                style: lq.style.clone(),
                expect: lq.expect.clone(),
                rank,
                confident: r.confident,
                got: ids.iter().take(3).map(|s| s.to_string()).collect(),
            });
        }
    }
    let metrics =
        |m: BTreeMap<String, Acc>| m.iter().map(|(k, v)| (k.clone(), v.metrics())).collect();
    Ok(EvalReport {
        queries: queries.len(),
        all: all.metrics(),
        by_style: metrics(styles),
        by_lang: metrics(langs),
        misses,
    })
}

/// Reads a JSONL query file; every line that is not a labelled query is reported.
pub fn read_queries(path: &Path) -> Result<Vec<LabelledQuery>, EvalError> {
    // `-` is standard input, as for other tools.
    let read = if path == Path::new("-") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map(|_| text)
    } else {
        std::fs::read_to_string(path)
    };
    let text = read.map_err(|source| EvalError::Read {
        path: path.display().to_string(),
        source,
    })?;
    // An editor's byte-order mark is no part of the first line's JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<LabelledQuery>(line) {
            Ok(mut q) => {
                q.line = i + 1;
                out.push(q);
            }
            Err(e) => {
                // serde_json counts within the one line it read: its line is always 1.
                let why = e.to_string();
                let why = why
                    .rsplit_once(" at line ")
                    .map_or(why.as_str(), |(w, _)| w);
                let keys: Vec<String> =
                    serde_json::from_str::<BTreeMap<String, serde_json::Value>>(line)
                        .map(BTreeMap::into_keys)
                        .into_iter()
                        .flatten()
                        .collect();
                let has = |k: &str| keys.iter().any(|x| x == k);
                // A field given under both its names.
                if let Some((alias, field)) = FIELD_ALIASES.iter().find(|(a, f)| has(a) && has(f)) {
                    problems.push(format!(
                        "{}:{}:{}: both `{field}` and `{alias}` are given, which are one field: keep one",
                        path.display(),
                        i + 1,
                        e.column()
                    ));
                    continue;
                }
                // A required field missing is often one misspelt: name it.
                let misspelt = keys
                    .iter()
                    .filter(|k| {
                        !QUERY_FIELDS.contains(&k.as_str())
                            && !FIELD_ALIASES.iter().any(|(a, _)| a == k)
                    })
                    .find_map(|k| {
                        misspelt_field(k)
                            .map(|f| format!(" (`{k}` is not a field: did you mean `{f}`?)"))
                    })
                    .unwrap_or_default();
                problems.push(format!(
                    "{}:{}:{}: {why}{misspelt}",
                    path.display(),
                    i + 1,
                    e.column()
                ));
            }
        }
    }
    if out.is_empty() && problems.is_empty() {
        problems.push(format!("{}: the file holds no queries", path.display()));
    }
    if !problems.is_empty() {
        return Err(EvalError::BadLines { problems });
    }
    Ok(out)
}

/// Other names kbook reads a field by (serde aliases of [`LabelledQuery`]).
const FIELD_ALIASES: [(&str, &str); 2] = [("query", "q"), ("expected", "expect")];

/// The field `key` is likely a misspelling of (a two-letter key such as `id` is its own).
fn misspelt_field(key: &str) -> Option<&'static str> {
    let names = QUERY_FIELDS
        .into_iter()
        .chain(FIELD_ALIASES.iter().map(|(alias, _)| *alias));
    (key.chars().count() > 2)
        .then(|| crate::diagnostic::did_you_mean(key, names))
        .flatten()
}

/// One warning per field of the queries that is none of [`QUERY_FIELDS`], with the lines
/// that have it (a set collected elsewhere carries its own fields on every line).
pub fn ignored_fields(path: &Path, queries: &[LabelledQuery]) -> Vec<String> {
    let mut lines: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for q in queries {
        for k in q.other.keys() {
            lines.entry(k).or_default().push(q.line);
        }
    }
    lines
        .into_iter()
        .map(|(k, at)| {
            let hint = misspelt_field(k)
                .map(|f| format!("; did you mean `{f}`?"))
                .unwrap_or_default();
            let which = match at.as_slice() {
                [one] => format!(":{one}"),
                [first, ..] => format!(" ({} lines, the first {first})", at.len()),
                [] => String::new(),
            };
            format!(
                "{}{which}: warning: field `{k}` is not one kbook reads, ignored{hint}",
                path.display()
            )
        })
        .collect()
}

/// Expected ids the index lacks, each with its query's line.
pub fn check_expected_ids(
    index: &BookIndex,
    path: &Path,
    queries: &[LabelledQuery],
) -> Result<(), EvalError> {
    let problems: Vec<String> = queries
        .iter()
        .flat_map(|q| {
            q.expect
                .iter()
                .filter(|id| !index.has_id(id))
                .map(move |id| {
                    format!(
                        "{}:{}: `{id}` is not an entry of the index",
                        path.display(),
                        q.line
                    )
                })
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(EvalError::UnknownIds { problems })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Vec<LabelledQuery>, EvalError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.jsonl");
        std::fs::write(&path, text).unwrap();
        read_queries(&path)
    }

    #[test]
    fn every_bad_line_is_reported_with_its_line_and_column() {
        let e = read(
            "{\"q\": \"a\", \"expect\": []}\n\n{\"q\": \"b\", \"expect\": \"x\"}\n{\"q\": \"c\", \"expect\": [], \"stlye\": \"trace\"}\n{\"q\": \"d\", \"expects\": []}\n",
        )
        .unwrap_err()
        .to_string();
        let lines: Vec<&str> = e.lines().collect();
        assert!(
            lines[0].ends_with("q.jsonl:3:24: invalid type: string \"x\", expected a sequence"),
            "{e}"
        );
        assert!(
            lines[1].ends_with(
                "q.jsonl:5:25: missing field `expect` (`expects` is not a field: did you mean `expect`?)"
            ),
            "{e}"
        );
        assert!(lines[2].contains("hint:"), "{e}");
        let e = read("\n  \n").unwrap_err().to_string();
        assert!(e.contains("the file holds no queries"), "{e}");
        let ok = read("{\"q\": \"a\", \"expect\": [\"x\"], \"source\": \"https://example.org/1\"}\n\n{\"q\": \"b\", \"expect\": []}\n").unwrap();
        assert_eq!((ok[0].line, ok[1].line), (1, 3));
        // A field of another set's own is read past, with a warning; a misspelt one is named.
        let path = Path::new("q.jsonl");
        let other =
            read("{\"q\": \"c\", \"expect\": [], \"stlye\": \"trace\", \"id\": 7}\n").unwrap();
        assert_eq!(other[0].style, "unlabelled");
        let named = read("{\"query\": \"c\", \"expected\": [\"x\"]}\n").unwrap();
        assert_eq!((named[0].q.as_str(), named[0].expect.len()), ("c", 1));
        assert!(named[0].other.is_empty());
        assert_eq!(
            ignored_fields(path, &other),
            [
                "q.jsonl:1: warning: field `id` is not one kbook reads, ignored",
                "q.jsonl:1: warning: field `stlye` is not one kbook reads, ignored; did you mean `style`?",
            ]
        );
        // One warning per field, however many lines have it.
        let many = read(&"{\"q\": \"c\", \"expect\": [], \"id\": 7}\n".repeat(300)).unwrap();
        assert_eq!(
            ignored_fields(path, &many),
            [
                "q.jsonl (300 lines, the first 1): warning: field `id` is not one kbook reads, ignored"
            ]
        );
        // Both names of one field; a misspelt alias.
        let e = read("{\"q\": \"c\", \"expect\": [], \"expected\": []}\n{\"qurey\": \"c\", \"expect\": []}\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("q.jsonl:1:") && e.contains("both `expect` and `expected` are given"),
            "{e}"
        );
        assert!(
            e.contains("q.jsonl:2:") && e.contains("did you mean `query`?"),
            "{e}"
        );
    }

    #[test]
    fn ranking_measures_are_undefined_without_an_answerable_query() {
        let unanswered = Outcome {
            answerable: false,
            rank: None,
            recall: 0.0,
            confident: true,
        };
        let mut acc = Acc::default();
        acc.add(&unanswered);
        let m = acc.metrics();
        assert_eq!((m.n, m.top1, m.mrr10, m.recall5), (0, None, None, None));
        assert_eq!((m.abstain, m.confident_precision), (Some(0.0), Some(0.0)));
        acc.add(&Outcome {
            answerable: true,
            rank: Some(2),
            recall: 1.0,
            confident: false,
        });
        let m = acc.metrics();
        assert_eq!(
            (m.top1, m.mrr10, m.recall5),
            (Some(0.0), Some(0.5), Some(1.0))
        );
    }
}
