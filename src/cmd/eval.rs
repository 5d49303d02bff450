//! `kbook eval`: run labelled queries against a built book and print ranking and confidence
//! metrics (computed by [`kbook::eval`]), with ablations and tuning constants for
//! measuring each ranking part.

use super::{one_line, open_built_index};
use anyhow::{Context, Result, bail};
use kbook::eval::{
    EvalReport, Metrics, check_expected_ids, evaluate, ignored_fields, read_queries,
};
use kbook_search::Tuning;
use std::path::PathBuf;
use std::process::ExitCode;

/// `kbook eval`: run labelled queries and report ranking and confidence metrics.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// JSONL file: one `{"q": ..., "expect": [ids], "style": ..., "lang": ...}` per line;
    /// `"expect": []` marks a query no entry answers; other fields are ignored with a warning.
    #[arg(long)]
    pub queries: PathBuf,
    /// Print JSON (`{"queries", "n", "top1", "mrr10", "recall5", "unanswered", "abstain",
    /// "confident_precision", "confident_rate", "by_style", "by_lang", "misses"}`; a measure
    /// with no query to measure is null).
    #[arg(long)]
    pub json: bool,
    /// The book's root directory (with book.toml).
    #[arg(long, default_value = ".")]
    pub book: PathBuf,
    /// The built site to search (default: the book's build directory), e.g. a `--dest` of `kbook build`.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Switch a ranking part off (ablation); repeatable. The parts are listed in the help.
    #[arg(long, value_name = "PART", help = ablate_help())]
    pub ablate: Vec<String>,
    /// Rank with a baseline instead of kbook's ranking: `bm25` is plain BM25, every query
    /// word OR-ed over title and body, no ranking parts (every ranking part must beat it).
    #[arg(long, value_enum, conflicts_with_all = ["ablate", "tune"])]
    pub baseline: Option<Baseline>,
    /// Set a ranking constant, for tuning on a query set; repeatable. The names are listed in
    /// the help.
    #[arg(long, value_name = "NAME=VALUE", help = tune_help())]
    pub tune: Vec<String>,
}

/// A reference ranking to compare kbook's with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Baseline {
    /// Plain BM25 over title and body.
    Bm25,
}

/// How an ablation switches its part off.
type SwitchOff = fn(&mut Tuning);
/// How `--tune` stores a value.
type SetConstant = fn(&mut Tuning, f32);

/// The last parts in [`ABLATIONS`], which are parts of confidence, not of the ranking.
const CONFIDENCE_PARTS: usize = 11;

/// Ranking parts `--ablate` can switch off (the last [`CONFIDENCE_PARTS`] are parts of
/// confidence), each with how it is switched off.
const ABLATIONS: [(&str, SwitchOff); 33] = [
    ("paste-splitting", |t| t.paste_splitting = false),
    ("reader-prose", |t| t.reader_prose = false),
    ("punctuated-questions", |t| t.punctuated_questions = false),
    ("rarity-cut", |t| t.rarity_cut = false),
    ("phrase-pairs", |t| t.phrase_pairs = false),
    ("typo", |t| t.typo_tolerance = false),
    ("stopwords", |t| t.stopwords = false),
    ("field-dismax", |t| t.field_dismax = false),
    ("coverage", |t| t.coverage_rerank = false),
    ("shared-idf", |t| t.shared_idf = false),
    ("query-intent", |t| t.query_intent = false),
    ("connector-mention", |t| t.connector_mentions = false),
    ("aliases", |t| t.alias_slugs = false),
    ("compounds", |t| t.compounds = false),
    ("prefix", |t| t.prefix_last_word = false),
    ("wrapper", |t| t.wrapper_weight = 1.0),
    ("template-divergence", |t| t.diverge_penalty = 1.0),
    ("sig-cover", |t| t.sig_cover_weight = 0.0),
    ("part-groups", |t| t.part_groups = false),
    ("soft-coverage", |t| t.soft_coverage = false),
    ("long-page", |t| t.long_page_damping = 0.0),
    ("symptom-lines", |t| t.symptom_weight = 0.0),
    ("divergence", |t| t.no_divergence = false),
    ("sentence-ends", |t| t.sentence_ends = false),
    ("connector-agreement", |t| t.connector_agreement = false),
    ("cross-connector", |t| t.cross_connector = false),
    ("generic-errors", |t| t.generic_errors = false),
    ("word-confidence", |t| t.word_confidence = false),
    ("error-query-share", |t| t.min_error_query_share = 0.0),
    ("cjk-seams", |t| t.cjk_seams = false),
    ("printed-values", |t| t.printed_values = false),
    ("cjk-bigram-weight", |t| t.cjk_bigram_weight = 1.0),
    ("runtime-frames", |t| t.runtime_frames = false),
];

/// Constants `--tune` sets, each with how a value is stored (counts are rounded down).
const TUNABLES: [(&str, SetConstant); 33] = [
    ("sig", |t, v| t.field_boosts[0] = v),
    ("ids", |t, v| t.field_boosts[1] = v),
    ("title", |t, v| t.field_boosts[2] = v),
    ("tags", |t, v| t.field_boosts[3] = v),
    ("body", |t, v| t.field_boosts[4] = v),
    ("code", |t, v| t.field_boosts[5] = v),
    ("frame", |t, v| t.frame_weight = v),
    ("other", |t, v| t.other_weight = v),
    ("prose", |t, v| t.prose_weight = v),
    ("wrapper", |t, v| t.wrapper_weight = v),
    ("field-tie", |t, v| t.field_tie = v),
    ("coverage-weight", |t, v| t.coverage_weight = v),
    ("shared-idf-mix", |t, v| t.shared_idf_mix = v),
    ("connector-weight", |t, v| t.connector_weight = v),
    ("connector-hits", |t, v| t.connector_hit_boost = v),
    ("symptom-lines", |t, v| t.symptom_weight = v),
    ("pair-boost", |t, v| t.pair_boost = v),
    ("plain-sig", |t, v| t.plain_sig_boost = v),
    ("paste-tags", |t, v| t.paste_tags_factor = v),
    ("max-terms", |t, v| t.max_terms = v.max(1.0) as usize),
    ("pair-positions-budget", |t, v| {
        t.pair_positions_budget = v.max(0.0) as usize;
    }),
    ("min-error-run", |t, v| {
        t.min_error_run = v.max(0.0) as usize
    }),
    ("min-error-share", |t, v| t.min_error_share = v),
    ("min-known-share", |t, v| t.min_known_share = v),
    ("min-error-query-share", |t, v| t.min_error_query_share = v),
    ("min-word-coverage", |t, v| t.min_word_coverage = v),
    ("min-word-known-share", |t, v| t.min_word_known_share = v),
    ("min-word-margin", |t, v| t.min_word_margin = v),
    ("diverge-penalty", |t, v| t.diverge_penalty = v),
    ("sig-cover", |t, v| t.sig_cover_weight = v),
    ("soft-coverage-share", |t, v| t.soft_coverage_share = v),
    ("long-page-damping", |t, v| t.long_page_damping = v),
    ("cjk-bigram-weight", |t, v| t.cjk_bigram_weight = v),
];

fn names<T>(table: &[(&'static str, T)]) -> String {
    table.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

fn ablate_help() -> String {
    let (ranking, confidence) = ABLATIONS.split_at(ABLATIONS.len() - CONFIDENCE_PARTS);
    format!(
        "Switch a ranking part off (ablation): {}; of confidence: {}. Repeatable",
        names(ranking),
        names(confidence)
    )
}

fn tune_help() -> String {
    format!(
        "Set a ranking constant, for tuning on a query set: {}. The first six are field \
         boosts. Repeatable, e.g. `--tune sig=2 --tune body=1.5`",
        names(&TUNABLES)
    )
}

fn tuning_for(args: &EvalArgs) -> Result<Tuning> {
    if args.baseline == Some(Baseline::Bm25) {
        return Ok(Tuning::plain_bm25());
    }
    let mut t = Tuning::default();
    for a in &args.ablate {
        let Some((_, switch_off)) = ABLATIONS.iter().find(|(n, _)| n == a) else {
            bail!("unknown --ablate part `{a}`: use {}", names(&ABLATIONS));
        };
        switch_off(&mut t);
    }
    for kv in &args.tune {
        let Some((k, v)) = kv.split_once('=') else {
            bail!("bad --tune `{kv}`: expected NAME=VALUE, e.g. sig=2");
        };
        let v: f32 = v
            .trim()
            .parse()
            .with_context(|| format!("bad --tune `{kv}`: the value is not a number"))?;
        let Some((_, set)) = TUNABLES.iter().find(|(n, _)| *n == k.trim()) else {
            bail!(
                "unknown --tune constant `{}`: use {}",
                k.trim(),
                names(&TUNABLES)
            );
        };
        set(&mut t, v);
    }
    Ok(t)
}

/// Runs `kbook eval`.
pub fn run(args: &EvalArgs) -> Result<ExitCode> {
    let tuning = tuning_for(args)?;
    let queries = read_queries(&args.queries)?;
    for warning in ignored_fields(&args.queries, &queries) {
        eprintln!("{warning}");
    }
    let index = open_built_index(&args.book, args.site.as_deref())?;
    check_expected_ids(&index, &args.queries, &queries)?;
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
                if m.got.is_empty() {
                    "nothing".to_string()
                } else {
                    m.got.join(",")
                }
            )?;
            outln!("      {}", one_line(&m.q, 140))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_table(report: &EvalReport) -> std::io::Result<()> {
    // A measure without queries to measure is shown as `-` (null in the JSON).
    let pct = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.3}"));
    // The group column is as wide as its longest name (a style or `lang:…` of any length).
    let names: Vec<String> = report
        .by_style
        .keys()
        .cloned()
        .chain(
            report
                .by_lang
                .keys()
                .filter(|_| report.by_lang.len() > 1)
                .map(|l| format!("lang:{l}")),
        )
        .collect();
    let w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    outln!(
        "{:<w$} {:>5} {:>7} {:>7} {:>9} {:>6} {:>8} {:>10} {:>10}",
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
            "{:<w$} {:>5} {:>7} {:>7} {:>9} {:>6} {:>8} {:>10} {:>10}",
            name,
            m.n,
            pct(m.top1),
            pct(m.mrr10),
            pct(m.recall5),
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(extra: &[&str]) -> Result<EvalArgs, clap::Error> {
        let mut argv = vec!["kbook", "eval", "--queries", "q.jsonl"];
        argv.extend_from_slice(extra);
        match super::super::Cli::try_parse_from(argv)?.command {
            super::super::Command::Eval(a) => Ok(a),
            _ => unreachable!("the eval subcommand parses into eval arguments"),
        }
    }

    /// Every part named in the help switches something off, and every constant named there
    /// is set: the tables behind the help are the ones applied.
    #[test]
    fn every_listed_part_and_constant_changes_the_tuning() {
        let default = format!("{:?}", Tuning::default());
        for (name, _) in ABLATIONS {
            let t = tuning_for(&args(&["--ablate", name]).unwrap()).unwrap();
            assert_ne!(format!("{t:?}"), default, "--ablate {name} changes nothing");
        }
        for (name, _) in TUNABLES {
            let kv = format!("{name}=7.25");
            let t = tuning_for(&args(&["--tune", &kv]).unwrap()).unwrap();
            assert_ne!(format!("{t:?}"), default, "--tune {kv} changes nothing");
        }
        let help = format!("{} {}", ablate_help(), tune_help());
        assert!(help.contains("error-query-share") && help.contains("long-page-damping"));
    }

    #[test]
    fn unknown_names_are_errors_that_list_the_known_ones() {
        let e = tuning_for(&args(&["--tune", "sigg=2"]).unwrap()).unwrap_err();
        assert!(e.to_string().contains("`sigg`") && e.to_string().contains("min-word-margin"));
        let e = tuning_for(&args(&["--ablate", "typos"]).unwrap()).unwrap_err();
        assert!(e.to_string().contains("`typos`") && e.to_string().contains("word-confidence"));
    }

    /// The baseline has no ranking constants: tuning it would be silently ignored.
    #[test]
    fn the_baseline_takes_no_tuning() {
        assert!(args(&["--baseline", "bm25", "--tune", "sig=2"]).is_err());
        assert!(args(&["--baseline", "bm25", "--ablate", "typo"]).is_err());
        assert!(args(&["--baseline", "bm25"]).is_ok());
    }
}
