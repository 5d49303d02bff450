//! `kbook eval`: run labelled queries against a built book and print ranking and confidence
//! metrics (computed by [`kbook::eval`]), with ablations and tuning constants for
//! measuring each ranking part.

use super::{one_line, open_built_index};
use anyhow::{Context, Result, bail};
use kbook::eval::{EvalReport, Metrics, evaluate, read_queries};
use kbook_search::Tuning;
use std::path::PathBuf;
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
    /// Switch a ranking part off (ablation): paste-splitting, reader-prose,
    /// punctuated-questions, rarity-cut, phrase-pairs, typo, stopwords, field-dismax,
    /// shared-idf, query-intent, coverage, connector-mention, prefix, wrapper,
    /// template-divergence, sig-cover, part-groups, soft-coverage, long-page, symptom-lines;
    /// divergence, connector-agreement, generic-errors, word-confidence, error-query-share
    /// (confidence).
    /// Repeatable.
    #[arg(long, value_name = "PART")]
    pub ablate: Vec<String>,
    /// Rank with a baseline instead of kbook's ranking: `bm25` is plain BM25, every query
    /// word OR-ed over title and body, no ranking parts (every ranking part must beat it).
    #[arg(long, value_enum, conflicts_with = "ablate")]
    pub baseline: Option<Baseline>,
    /// Set a ranking constant, for tuning on a query set: a field boost (sig, ids, title,
    /// tags, body, code) or frame, other, prose, wrapper, field-tie, coverage-weight,
    /// shared-idf-mix, connector-weight, connector-hits, symptom-lines, pair-boost, plain-sig,
    /// paste-tags, max-terms, min-error-run, min-error-share, min-known-share,
    /// min-error-query-share, min-word-coverage, min-word-known-share, min-word-margin,
    /// diverge-penalty, sig-cover, soft-coverage-share.
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

/// Ranking parts `--ablate` can switch off.
pub const ABLATIONS: [&str; 25] = [
    "paste-splitting",
    "reader-prose",
    "punctuated-questions",
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
    "template-divergence",
    "sig-cover",
    "part-groups",
    "soft-coverage",
    "long-page",
    "symptom-lines",
    "divergence",
    "connector-agreement",
    "generic-errors",
    "word-confidence",
    "error-query-share",
];

fn tuning_for(args: &EvalArgs) -> Result<Tuning> {
    if args.baseline == Some(Baseline::Bm25) {
        return Ok(Tuning::plain_bm25());
    }
    let mut t = Tuning::default();
    for a in &args.ablate {
        match a.as_str() {
            "paste-splitting" => t.paste_splitting = false,
            "reader-prose" => t.reader_prose = false,
            "punctuated-questions" => t.punctuated_questions = false,
            "divergence" => t.no_divergence = false,
            "template-divergence" => t.diverge_penalty = 1.0,
            "sig-cover" => t.sig_cover_weight = 0.0,
            "connector-agreement" => t.connector_agreement = false,
            "generic-errors" => t.generic_errors = false,
            "word-confidence" => t.word_confidence = false,
            "error-query-share" => t.min_error_query_share = 0.0,
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
            "part-groups" => t.part_groups = false,
            "soft-coverage" => t.soft_coverage = false,
            "long-page" => t.long_page_damping = 0.0,
            "symptom-lines" => t.symptom_weight = 0.0,
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
            (None, "prose") => &mut t.prose_weight,
            (None, "wrapper") => &mut t.wrapper_weight,
            (None, "field-tie") => &mut t.field_tie,
            (None, "coverage-weight") => &mut t.coverage_weight,
            (None, "shared-idf-mix") => &mut t.shared_idf_mix,
            (None, "connector-weight") => &mut t.connector_weight,
            (None, "connector-hits") => &mut t.connector_hit_boost,
            (None, "symptom-lines") => &mut t.symptom_weight,
            (None, "pair-boost") => &mut t.pair_boost,
            (None, "plain-sig") => &mut t.plain_sig_boost,
            (None, "paste-tags") => &mut t.paste_tags_factor,
            (None, "min-error-share") => &mut t.min_error_share,
            (None, "min-known-share") => &mut t.min_known_share,
            (None, "min-error-query-share") => &mut t.min_error_query_share,
            (None, "min-word-coverage") => &mut t.min_word_coverage,
            (None, "min-word-known-share") => &mut t.min_word_known_share,
            (None, "min-word-margin") => &mut t.min_word_margin,
            (None, "diverge-penalty") => &mut t.diverge_penalty,
            (None, "sig-cover") => &mut t.sig_cover_weight,
            (None, "soft-coverage-share") => &mut t.soft_coverage_share,
            (None, "long-page-damping") => &mut t.long_page_damping,
            (None, "max-terms") => {
                t.max_terms = v.max(1.0) as usize;
                continue;
            }
            (None, "pair-positions-budget") => {
                t.pair_positions_budget = v.max(0.0) as usize;
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

/// Runs `kbook eval`.
pub fn run(args: &EvalArgs) -> Result<ExitCode> {
    let tuning = tuning_for(args)?;
    let queries = read_queries(&args.queries)?;
    let index = open_built_index(&args.book, args.site.as_deref())?;
    let report = evaluate(&index, &queries, &tuning)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_table(&report)?;
    if !report.misses.is_empty() {
        outln!("\nwrong answers ({}):", report.misses.len())?;
        for m in &report.misses {
            let rank = m.rank.map_or_else(|| "-".to_string(), |r| r.to_string());
            let expect = if m.expect.is_empty() {
                "(none: confident anyway)".to_string()
            } else {
                m.expect.join(",")
            };
            outln!(
                "  [{}] rank {}{}  expect {}  got {}",
                m.style,
                rank,
                if m.confident { " confident" } else { "" },
                expect,
                m.got.join(",")
            )?;
            outln!("      {}", one_line(&m.q, 140))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(report: &EvalReport) -> std::io::Result<()> {
    let pct = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
    outln!(
        "{:<14} {:>5} {:>7} {:>7} {:>9} {:>6} {:>8} {:>10} {:>10}",
        "group",
        "n",
        "top1",
        "MRR@10",
        "recall@5",
        "no-ans",
        "abstain",
        "conf-prec",
        "conf-rate"
    )?;
    let row = |name: &str, m: &Metrics| {
        outln!(
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
        )
    };
    for (style, m) in &report.by_style {
        row(style, m)?;
    }
    if report.by_lang.len() > 1 {
        for (lang, m) in &report.by_lang {
            row(&format!("lang:{lang}"), m)?;
        }
    }
    row("all", &report.all)
}
