//! `kbook eval`: search quality on labelled queries.
//!
//! A query file holds one `{"q", "expect": [ids], "style", "lang"}` per line. Queries with
//! expected ids measure ranking (top-1, MRR@10, recall@5); queries with `"expect": []` (no
//! entry answers them) measure honesty: the share answered "no confident match" (`abstain`).
//! `confident_precision` is the share of confident answers whose first hit is right, counting
//! a confident answer to an unanswerable query as wrong; `confident_rate` is the share of
//! answerable queries answered confidently (a search that is never confident is useless).

use crate::index::{one_line, open_book};
use anyhow::{Context, Result, bail};
use kbook_search::{BookIndex, SearchOptions, Tuning};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `kbook eval`: run labelled queries and report ranking and confidence metrics.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// JSONL file: one `{"q": ..., "expect": [ids], "style": ..., "lang": ...}` per line;
    /// `"expect": []` marks a query no entry answers.
    #[arg(long)]
    pub queries: PathBuf,
    /// Print JSON (`{"queries", "n", "top1", "mrr10", "recall5", "abstain",
    /// "confident_precision", "confident_rate", "by_style", "by_lang", "misses"}`).
    #[arg(long)]
    pub json: bool,
    /// The book's root directory (with book.toml).
    #[arg(long, default_value = ".")]
    pub book: PathBuf,
    /// The built site to search (default: the book's build directory), e.g. a `--dest` of `kbook build`.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Switch a ranking part off (ablation): paste-splitting, rarity-cut, phrase-pairs, typo,
    /// stopwords, field-dismax, shared-idf, query-intent, coverage, connector-mention, prefix,
    /// wrapper, outer-layers; divergence (a confidence check). Repeatable.
    #[arg(long, value_name = "PART")]
    pub ablate: Vec<String>,
    /// Rank with a baseline instead of kbook's ranking: `bm25` is plain BM25, every query
    /// word OR-ed over title and body, no ranking parts (every ranking part must beat it).
    #[arg(long, value_enum, conflicts_with = "ablate")]
    pub baseline: Option<Baseline>,
    /// Set a ranking constant, for tuning on a query set: a field boost (sig, ids, title,
    /// tags, body, code) or frame, other, wrapper, outer, field-tie, coverage-weight,
    /// shared-idf-mix, connector-weight, pair-boost, plain-sig, max-terms, min-error-run, min-error-share,
    /// min-known-share.
    /// Repeatable, e.g. `--tune sig=2 --tune body=1.5`.
    #[arg(long, value_name = "NAME=VALUE")]
    pub tune: Vec<String>,
}

/// A reference ranking to compare kbook's with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Baseline {
    /// Plain BM25 over title and body.
    Bm25,
}

/// One labelled query.
#[derive(Debug, Clone, Deserialize)]
pub struct LabelledQuery {
    /// The query text.
    pub q: String,
    /// Entry ids that answer it; empty when no entry does.
    pub expect: Vec<String>,
    /// How it is written (paste, trace, question, keyword, ...).
    #[serde(default = "unlabelled")]
    pub style: String,
    /// Its language (`en`, `zh`, ...).
    #[serde(default = "unlabelled")]
    pub lang: String,
}

fn unlabelled() -> String {
    "unlabelled".to_string()
}

/// Aggregated metrics of a group of queries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Metrics {
    /// Queries with expected ids.
    pub n: usize,
    /// Share of those whose first hit is expected.
    pub top1: f64,
    /// Mean reciprocal rank of the first expected hit within the top 10.
    pub mrr10: f64,
    /// Mean share of expected ids within the top 5.
    pub recall5: f64,
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
        let n = self.n.max(1) as f64;
        Metrics {
            n: self.n,
            top1: self.top1 / n,
            mrr10: self.rr / n,
            recall5: self.recall / n,
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

/// Ranking parts `--ablate` can switch off.
pub const ABLATIONS: [&str; 14] = [
    "paste-splitting",
    "rarity-cut",
    "phrase-pairs",
    "typo",
    "stopwords",
    "field-dismax",
    "coverage",
    "shared-idf",
    "query-intent",
    "connector-mention",
    "prefix",
    "wrapper",
    "outer-layers",
    "divergence",
];

fn tuning_for(args: &EvalArgs) -> Result<Tuning> {
    if args.baseline == Some(Baseline::Bm25) {
        return Ok(Tuning::plain_bm25());
    }
    let mut t = Tuning::default();
    for a in &args.ablate {
        match a.as_str() {
            "paste-splitting" => t.paste_splitting = false,
            "divergence" => t.no_divergence = false,
            "rarity-cut" => t.rarity_cut = false,
            "phrase-pairs" => t.phrase_pairs = false,
            "typo" => t.typo_tolerance = false,
            "stopwords" => t.stopwords = false,
            "field-dismax" => t.field_dismax = false,
            "coverage" => t.coverage_rerank = false,
            "shared-idf" => t.shared_idf = false,
            "query-intent" => t.query_intent = false,
            "connector-mention" => t.connector_mentions = false,
            "prefix" => t.prefix_last_word = false,
            "wrapper" => t.wrapper_weight = 1.0,
            "outer-layers" => t.outer_weight = 1.0,
            other => bail!(
                "unknown --ablate part `{other}`: use {}",
                ABLATIONS.join(", ")
            ),
        }
    }
    for kv in &args.tune {
        let Some((k, v)) = kv.split_once('=') else {
            bail!("bad --tune `{kv}`: expected NAME=VALUE, e.g. sig=2");
        };
        let v: f32 = v
            .trim()
            .parse()
            .with_context(|| format!("bad --tune `{kv}`: the value is not a number"))?;
        let field = ["sig", "ids", "title", "tags", "body", "code"]
            .iter()
            .position(|f| *f == k.trim());
        let slot = match (field, k.trim()) {
            (Some(fi), _) => &mut t.field_boosts[fi],
            (None, "frame") => &mut t.frame_weight,
            (None, "other") => &mut t.other_weight,
            (None, "wrapper") => &mut t.wrapper_weight,
            (None, "outer") => &mut t.outer_weight,
            (None, "field-tie") => &mut t.field_tie,
            (None, "coverage-weight") => &mut t.coverage_weight,
            (None, "shared-idf-mix") => &mut t.shared_idf_mix,
            (None, "connector-weight") => &mut t.connector_weight,
            (None, "pair-boost") => &mut t.pair_boost,
            (None, "plain-sig") => &mut t.plain_sig_boost,
            (None, "min-error-share") => &mut t.min_error_share,
            (None, "min-known-share") => &mut t.min_known_share,
            (None, "max-terms") => {
                t.max_terms = v.max(1.0) as usize;
                continue;
            }
            (None, "min-error-run") => {
                t.min_error_run = v.max(0.0) as usize;
                continue;
            }
            (None, other) => bail!("unknown --tune constant `{other}`"),
        };
        *slot = v;
    }
    Ok(t)
}

/// Runs labelled queries against an opened index.
pub fn evaluate(
    index: &BookIndex,
    queries: &[LabelledQuery],
    tuning: &Tuning,
) -> Result<EvalReport> {
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
        let r = index.search(&lq.q, &opts)?;
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

/// Reads a JSONL query file.
pub fn read_queries(path: &Path) -> Result<Vec<LabelledQuery>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let q: LabelledQuery = serde_json::from_str(line).with_context(|| {
            format!(
                "{}:{}: not a query line (expected {{\"q\": \"...\", \"expect\": [ids]}})",
                path.display(),
                i + 1
            )
        })?;
        out.push(q);
    }
    Ok(out)
}

/// Runs `kbook eval`.
pub fn run_eval(args: &EvalArgs) -> Result<ExitCode> {
    let tuning = tuning_for(args)?;
    let queries = read_queries(&args.queries)?;
    let index = open_book(&args.book, args.site.as_deref())?;
    let report = evaluate(&index, &queries, &tuning)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    print_table(&report);
    if !report.misses.is_empty() {
        println!("\nwrong answers ({}):", report.misses.len());
        for m in &report.misses {
            let rank = m.rank.map_or_else(|| "-".to_string(), |r| r.to_string());
            let expect = if m.expect.is_empty() {
                "(none: confident anyway)".to_string()
            } else {
                m.expect.join(",")
            };
            println!(
                "  [{}] rank {}{}  expect {}  got {}",
                m.style,
                rank,
                if m.confident { " confident" } else { "" },
                expect,
                m.got.join(",")
            );
            println!("      {}", one_line(&m.q, 140));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(report: &EvalReport) {
    let pct = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
    println!(
        "{:<14} {:>5} {:>7} {:>7} {:>9} {:>6} {:>8} {:>10} {:>10}",
        "group", "n", "top1", "MRR@10", "recall@5", "no-ans", "abstain", "conf-prec", "conf-rate"
    );
    let row = |name: &str, m: &Metrics| {
        println!(
            "{:<14} {:>5} {:>7.3} {:>7.3} {:>9.3} {:>6} {:>8} {:>10} {:>10}",
            name,
            m.n,
            m.top1,
            m.mrr10,
            m.recall5,
            m.unanswered,
            pct(m.abstain),
            pct(m.confident_precision),
            pct(m.confident_rate)
        );
    };
    for (style, m) in &report.by_style {
        row(style, m);
    }
    if report.by_lang.len() > 1 {
        for (lang, m) in &report.by_lang {
            row(&format!("lang:{lang}"), m);
        }
    }
    row("all", &report.all);
}
