//! `kbook search`: search a built book from a terminal.

use super::{one_line, open_built_index};
use anyhow::{Context, Result, bail};
use kbook_search::version::{Version, VersionMatch, parse_product_version};
use kbook_search::{SearchOptions, SearchResults, Tuning};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// `kbook search`: search the built book from a terminal.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// The query: words, an error message, or a pasted line (quote it in the shell).
    pub query: Vec<String>,
    /// Read the query from standard input (e.g. `kubectl logs pod | kbook search --stdin`);
    /// words given as well go before the paste, as its first line.
    #[arg(long)]
    pub stdin: bool,
    /// Print JSON (`{"hits": [...], "confident": bool, "signals": {...}}`; the signals are
    /// what confidence was decided on).
    #[arg(long)]
    pub json: bool,
    /// Maximum number of results (1 to 200).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=200))]
    pub limit: u8,
    /// Only entries of this connector: its slug (`kafka`) or its name in book.toml.
    #[arg(long)]
    pub connector: Option<String>,
    /// Only entries of this kind: `error`, `howto`, … or its name in the book's language.
    #[arg(long)]
    pub kind: Option<String>,
    /// Your product version, e.g. `vvr=8.0.7`: entries that do not affect it are listed
    /// after the others, marked `[not your version]`.
    #[arg(long, value_name = "PRODUCT=VERSION")]
    pub version: Option<String>,
    /// Show which fields and terms scored for each result.
    #[arg(long)]
    pub explain: bool,
    /// The book's root directory (with book.toml).
    #[arg(long, default_value = ".")]
    pub book: PathBuf,
    /// The built site to search (default: the book's build directory), e.g. a `--dest` of `kbook build`.
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
}

fn read_query(args: &SearchArgs) -> Result<String> {
    let mut q = args.query.join(" ");
    if args.stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .context("cannot read standard input")?;
        // Logs are not always UTF-8; keep what can be read.
        let text = String::from_utf8_lossy(&buf);
        if !q.is_empty() {
            q.push('\n');
        }
        q.push_str(&text);
    }
    Ok(q)
}

/// Runs `kbook search`.
pub fn run(args: &SearchArgs) -> Result<ExitCode> {
    let query = read_query(args)?;
    if query.trim().is_empty() {
        bail!("empty query: pass words to search for, or --stdin to read a paste");
    }
    let version = match &args.version {
        Some(v) => Some(parse_product_version(v).with_context(|| {
            format!("bad --version `{v}`: expected PRODUCT=VERSION, e.g. vvr=8.0.7")
        })?),
        None => None,
    };
    let index = open_built_index(&args.book, args.site.as_deref())?;
    // The book's names for connectors and kinds, read only for a filter.
    let names = (args.connector.is_some() || args.kind.is_some())
        .then(|| kbook::config::Config::load(&args.book).ok())
        .flatten();
    let connector = match &args.connector {
        Some(c) => Some(known_value("connector", c, &index.connectors(), |slug| {
            names.as_ref().map(|n| n.connector_name(slug))
        })?),
        None => None,
    };
    let strings = args
        .kind
        .as_ref()
        .and(names.as_ref())
        .map(kbook::config::Config::strings);
    let kind = match &args.kind {
        Some(k) => Some(known_value("kind", k, &index.kinds(), |kind| {
            strings.as_ref().map(|s| s.kind(kind))
        })?),
        None => None,
    };
    let opts = SearchOptions {
        limit: usize::from(args.limit),
        connector,
        kind,
        version,
        explain: args.explain,
        tuning: Tuning::default(),
    };
    let results = index.search(&query, &opts)?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&results)?)?;
    } else {
        print_results(&results, args, opts.version.as_ref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The value of a `--connector` or `--kind` filter (`what`) as the index has it: one of
/// `known`, or the one whose name in the book (`name_of`: `消息队列Kafka`, `错误`) is `given`,
/// in any case. Anything else is refused with the known values, rather than matching nothing.
fn known_value(
    what: &str,
    given: &str,
    known: &[String],
    name_of: impl Fn(&str) -> Option<String>,
) -> Result<String> {
    if known.iter().any(|k| k == given) {
        return Ok(given.to_string());
    }
    let folded = given.trim().to_lowercase();
    let by_name = known.iter().find(|k| {
        k.to_lowercase() == folded || name_of(k).is_some_and(|n| n.trim().to_lowercase() == folded)
    });
    match by_name {
        Some(k) => Ok(k.clone()),
        None => {
            let list: Vec<String> = known
                .iter()
                .map(|k| match name_of(k) {
                    Some(n) if n != *k => format!("{k} ({n})"),
                    _ => k.clone(),
                })
                .collect();
            bail!(
                "the index has no {what} `{given}`; known: {}",
                list.join(", ")
            )
        }
    }
}

/// The line `kbook search --version` prints under a hit; the page shows the same marks.
fn version_mark(
    m: VersionMatch,
    fixed_in: Option<&str>,
    product: &str,
    version: &Version,
) -> Option<String> {
    match (m, fixed_in) {
        (VersionMatch::Affected, Some(f)) => {
            Some(format!("affects {product} {version}; fixed in {f}"))
        }
        (VersionMatch::Affected, None) => Some(format!("affects {product} {version}")),
        (VersionMatch::Fixed, Some(f)) => Some(format!(
            "[not your version] does not affect {product} {version} (fixed in {f})"
        )),
        (VersionMatch::Fixed | VersionMatch::NotAffected, _) => Some(format!(
            "[not your version] does not affect {product} {version}"
        )),
        (VersionMatch::Unknown, _) => None,
    }
}

fn print_results(
    r: &SearchResults,
    args: &SearchArgs,
    reader: Option<&(String, Version)>,
) -> std::io::Result<()> {
    let explain = args.explain;
    if r.hits.is_empty() {
        // A filter that matches nothing (a misspelt connector) is said, not hidden.
        let filters: Vec<String> = [("connector", &args.connector), ("kind", &args.kind)]
            .into_iter()
            .filter_map(|(name, v)| v.as_ref().map(|v| format!("{name} `{v}`")))
            .collect();
        if !filters.is_empty() {
            return outln!("No entries of {} match.", filters.join(" and "));
        }
        return outln!("No entries match.");
    }
    if r.confident {
        outln!("Best match first:")?;
    } else if let (Some(_), Some((product, version))) = (&r.best_other_version, reader) {
        outln!(
            "The best match does not affect {product} {version}: it is listed after the entries that may, marked [not your version]."
        )?;
    } else {
        outln!("No confident match; closest entries:")?;
    }
    for (i, h) in r.hits.iter().enumerate() {
        outln!(
            "{:>2}. {}  [{} · {}]  score {:.2}",
            i + 1,
            h.title,
            h.connector,
            h.kind,
            h.score
        )?;
        outln!("    {}", h.url)?;
        if let Some(e) = &h.matched_error {
            outln!("    matched: {}", one_line(e, 160))?;
        }
        if let (Some(m), Some((product, version))) = (h.version_match, reader)
            && let Some(mark) = version_mark(m, h.fixed_in.as_deref(), product, version)
        {
            let best = r.best_other_version.as_deref() == Some(h.id.as_str());
            outln!("    {mark}{}", if best { " (best match)" } else { "" })?;
        }
        if explain && let Some(x) = &h.explain {
            for line in x.lines() {
                outln!("      {line}")?;
            }
        }
    }
    Ok(())
}
