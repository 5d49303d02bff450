//! `kbook search`: search a built book from a terminal.

use super::{one_line, open_built_site};
use anyhow::{Context, Result, bail};
use kbook_search::version::{Version, VersionMatch, parse_product_version};
use kbook_search::{SearchOptions, SearchResults, Tuning};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `kbook search`: search the built book from a terminal.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchArgs {
    /// The query: words, an error message, or a pasted line (quote it in the shell).
    pub query: Vec<String>,
    /// Read the query from standard input (e.g. `kubectl logs pod | kbook search --stdin`);
    /// words given as well go before the paste, as its first line. Standard input is also
    /// read when no words are given and it is a pipe or a file, or when the only word is `-`.
    /// Of a paste over 256 KiB the first and last 128 KiB are searched (a note says so).
    #[arg(long)]
    pub stdin: bool,
    /// Print JSON: `{"hits": [{"id", "url" (relative to the site), "title", "connector",
    /// "kind", "score", "matched_error", "snippet": {"text", "highlights" (character ranges),
    /// "section", "anchor" (the section heading's id)}, "version_match", "fixed_in", "explain"}], "confident": bool,
    /// "best_other_version", "signals": {...}}`; fields without a value are left out or null,
    /// and the signals are what confidence was decided on.
    #[arg(long)]
    pub json: bool,
    /// Maximum number of results (1 to 200).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=200))]
    pub limit: u8,
    /// Only entries of this connector: its slug (`kafka`), its name on the site or one of its `aliases` (book.toml's).
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

/// The query: the words given, then standard input when `--stdin` is given, the only word
/// is `-`, or no words are given and standard input is not a terminal (a pipe or a file).
/// Also whether standard input was read and was empty.
fn read_query(args: &SearchArgs) -> Result<(String, Option<StdinText>)> {
    use std::io::IsTerminal;
    let dash = args.query.len() == 1 && args.query[0] == "-";
    let words = if dash {
        String::new()
    } else {
        args.query.join(" ")
    };
    let from_stdin =
        args.stdin || dash || (args.query.is_empty() && !std::io::stdin().is_terminal());
    if !from_stdin {
        return Ok((words, None));
    }
    // Asked to read a terminal, say how to end the paste rather than wait in silence.
    if std::io::stdin().is_terminal() {
        eprintln!("Paste the error or log, then press Ctrl-D on a new line.");
    }
    let read = read_bounded(std::io::stdin().lock()).context("cannot read standard input")?;
    let mut q = words;
    if !q.is_empty() {
        q.push('\n');
    }
    q.push_str(&read.text);
    Ok((q, Some(read)))
}

/// What was read from standard input.
struct StdinText {
    text: String,
    /// Its size in bytes, when more than [`kbook_search::MAX_QUERY_BYTES`] (the search reads
    /// only the head and tail that fit).
    cut_from: Option<u64>,
}

/// Reads `input` keeping only its first and last half of [`kbook_search::MAX_QUERY_BYTES`]
/// (what the search reads of a longer text), so a long log does not fill memory. UTF-16 with
/// a byte-order mark (Windows editors, PowerShell) is decoded; other bytes that are not UTF-8
/// are replaced.
fn read_bounded(mut input: impl std::io::Read) -> std::io::Result<StdinText> {
    let half = kbook_search::MAX_QUERY_BYTES / 2;
    let (mut head, mut tail) = (Vec::new(), Vec::new());
    let mut total: u64 = 0;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        let mut bytes = &chunk[..n];
        if head.len() < half {
            let take = bytes.len().min(half - head.len());
            head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        tail.extend_from_slice(bytes);
        // Keep the tail within twice its size; drained in bulk, not per read.
        if tail.len() > 2 * half {
            tail.drain(..tail.len() - half);
        }
    }
    let cut = total > kbook_search::MAX_QUERY_BYTES as u64;
    if cut && tail.len() > half {
        tail.drain(..tail.len() - half);
    }
    let text = if cut {
        format!("{}\n{}", decode(&head), decode(&tail))
    } else {
        head.extend_from_slice(&tail);
        decode(&head)
    };
    Ok(StdinText {
        text,
        cut_from: cut.then_some(total),
    })
}

/// Text of `bytes`: UTF-16 when it starts with a byte-order mark, else UTF-8 (a UTF-8 mark
/// dropped, bytes that are not UTF-8 replaced: logs are not always clean).
fn decode(bytes: &[u8]) -> String {
    let utf16 = |le: bool, skip: usize| {
        let units: Vec<u16> = bytes[skip..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(true, 2),
        [0xFE, 0xFF, ..] => utf16(false, 2),
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        _ => match bomless_utf16(bytes) {
            Some(le) => utf16(le, 0),
            None => String::from_utf8_lossy(bytes).into_owned(),
        },
    }
}

/// Whether `bytes` read as UTF-16 without a byte-order mark (as some shells redirect a log):
/// little-endian (`Some(true)`) when, over its first 64 units, nearly every high byte is zero
/// and the low bytes are not, big-endian the other way round. UTF-8 text has no zero bytes.
fn bomless_utf16(bytes: &[u8]) -> Option<bool> {
    let pairs: Vec<&[u8]> = bytes.chunks_exact(2).take(64).collect();
    if pairs.len() < 4 {
        return None;
    }
    let share = |i: usize| pairs.iter().filter(|p| p[i] == 0).count() * 10 >= pairs.len() * 9;
    let none = |i: usize| pairs.iter().all(|p| p[i] != 0);
    match (share(1) && none(0), share(0) && none(1)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// Runs `kbook search`.
pub fn run(args: &SearchArgs) -> Result<ExitCode> {
    let (query, read) = read_query(args)?;
    if query.trim().is_empty() {
        if read.is_some() {
            bail!(
                "standard input was empty: pipe a paste into it (`kubectl logs pod | kbook search`), or pass words to search for"
            );
        }
        bail!("empty query: pass words to search for, or pipe a paste into standard input");
    }
    if let Some(total) = read.as_ref().and_then(|r| r.cut_from) {
        let half = kbook_search::MAX_QUERY_BYTES / 2 / 1024;
        eprintln!(
            "note: the paste is {:.1} MiB; kbook searches its first and last {half} KiB, where a log's failure usually is: paste the part around the error for a closer match",
            total as f64 / (1024.0 * 1024.0)
        );
    }
    let version = match &args.version {
        Some(v) => Some(parse_product_version(v).with_context(|| {
            format!("bad --version `{v}`: expected PRODUCT=VERSION, e.g. vvr=8.0.7")
        })?),
        None => None,
    };
    let (index, site) = open_built_site(&args.book, args.site.as_deref())?;
    // The names of connectors and kinds, read only for a filter: the site's own, else the
    // book's.
    let filtered = args.connector.is_some() || args.kind.is_some();
    let shown = if filtered {
        site_names(&site)
    } else {
        BTreeMap::new()
    };
    let names = filtered
        .then(|| kbook::config::Config::load(&args.book).ok())
        .flatten();
    let connector = match &args.connector {
        Some(c) => Some(known_value(
            "connector",
            c,
            &index.connectors(),
            |slug| {
                shown
                    .get(&format!("connector_{slug}"))
                    .cloned()
                    .or_else(|| names.as_ref().map(|n| n.connector_name(slug)))
            },
            // The other names book.toml gives it (`pg`), which name it in queries too.
            |slug| {
                names
                    .iter()
                    .flat_map(|n| &n.kbook.connectors)
                    .filter(|k| k.slug == slug)
                    .flat_map(|k| k.aliases.clone())
                    .collect()
            },
        )?),
        None => None,
    };
    let strings = args
        .kind
        .as_ref()
        .and(names.as_ref())
        .map(kbook::config::Config::strings);
    let kind = match &args.kind {
        Some(k) => Some(known_value(
            "kind",
            k,
            &index.kinds(),
            |kind| {
                shown
                    .get(&format!("kind_{kind}"))
                    .cloned()
                    .or_else(|| strings.as_ref().map(|s| s.kind(kind)))
            },
            |_| Vec::new(),
        )?),
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
    // A product no entry names marks nothing: a misspelt one would pass unnoticed. Checked
    // only when no hit was marked (reading every entry's versions is not per search).
    if let Some((product, _)) = &opts.version
        && results.hits.iter().all(|h| {
            h.version_match
                .is_none_or(|m| m == kbook_search::version::VersionMatch::Unknown)
        })
    {
        let products = index.version_products();
        if !products.contains(product) {
            if products.is_empty() {
                bail!(
                    "no entry of this book names product versions: --version has nothing to compare with"
                );
            }
            bail!(
                "no product `{product}` in this book's entries; known: {}",
                products.join(", ")
            );
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&results)?)?;
    } else {
        print_results(&results, args, opts.version.as_ref(), &site)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The names a built site shows for its connectors and kinds (`connector_<slug>`,
/// `kind_<kind>` in the `kbook-strings` its search page carries), so a filter can name them
/// with `--site` alone; empty for a site without that page.
fn site_names(site: &Path) -> BTreeMap<String, String> {
    let Ok(html) = std::fs::read_to_string(site.join("search.html")) else {
        return BTreeMap::new();
    };
    let Ok(meta) = scraper::Selector::parse(r#"meta[name="kbook-strings"]"#) else {
        return BTreeMap::new();
    };
    scraper::Html::parse_document(&html)
        .select(&meta)
        .next()
        .and_then(|m| m.value().attr("content"))
        .and_then(|c| serde_json::from_str(c).ok())
        .unwrap_or_default()
}

/// The value of a `--connector` or `--kind` filter (`what`) as the index has it: one of
/// `known`, or the one whose name in the book (`name_of`: `消息队列Kafka`, `错误`) or one of
/// whose other names (`aliases_of`) is `given`, in any case. Anything else is refused with
/// the known values, rather than matching nothing.
fn known_value(
    what: &str,
    given: &str,
    known: &[String],
    name_of: impl Fn(&str) -> Option<String>,
    aliases_of: impl Fn(&str) -> Vec<String>,
) -> Result<String> {
    if known.iter().any(|k| k == given) {
        return Ok(given.to_string());
    }
    let folded = given.trim().to_lowercase();
    let by_name = known.iter().find(|k| {
        k.to_lowercase() == folded
            || name_of(k).is_some_and(|n| n.trim().to_lowercase() == folded)
            || aliases_of(k).iter().any(|a| a.to_lowercase() == folded)
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
        (VersionMatch::Vague, _) => Some(format!(
            "may affect {product} {version}: depends on the exact release (give --version the full release)"
        )),
        (VersionMatch::Unknown, _) => None,
    }
}

/// `text` with control characters (a terminal's escape sequences, in a title or an error
/// text of the book) shown as U+FFFD instead of acted on.
fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(char::is_control) {
        text.chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

fn print_results(
    r: &SearchResults,
    args: &SearchArgs,
    reader: Option<&(String, Version)>,
    site: &std::path::Path,
) -> std::io::Result<()> {
    let explain = args.explain;
    if r.hits.is_empty() {
        // A filter that matches nothing (a misspelt connector) is said, not hidden.
        let filters: Vec<String> = [("connector", &args.connector), ("kind", &args.kind)]
            .into_iter()
            .filter_map(|(name, v)| v.as_ref().map(|v| format!("{name} `{v}`")))
            .collect();
        if !filters.is_empty() {
            return outln!("No entries of {} match this query.", filters.join(" and "));
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
            printable(&h.title),
            printable(&h.connector),
            printable(&h.kind),
            h.score
        )?;
        // The page's file, openable from here (a `kbook index` site's pages lie above its
        // search folder: `../`).
        outln!(
            "    {}",
            printable(&site.join(&h.url).display().to_string())
        )?;
        if let Some(e) = &h.matched_error {
            outln!("    matched: {}", printable(&one_line(e, 160)))?;
        }
        if let (Some(m), Some((product, version))) = (h.version_match, reader)
            && let Some(mark) = version_mark(m, h.fixed_in.as_deref(), product, version)
        {
            let best = r.best_other_version.as_deref() == Some(h.id.as_str());
            outln!("    {mark}{}", if best { " (best match)" } else { "" })?;
        }
        if explain && let Some(x) = &h.explain {
            for line in x.lines() {
                outln!("      {}", printable(line))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_paste_is_read_as_its_head_and_tail() {
        let half = kbook_search::MAX_QUERY_BYTES / 2;
        let mut log = "INFO starting\n".repeat(half / 14 + 10);
        log.push_str(&"x".repeat(600 * 1024));
        log.push_str("\nCaused by: java.sql.SQLException: the root cause\n");
        // Read in small pieces, as a pipe gives them.
        struct Drip<'a>(&'a [u8]);
        impl std::io::Read for Drip<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(1000);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let r = read_bounded(Drip(log.as_bytes())).unwrap();
        assert_eq!(r.cut_from, Some(log.len() as u64));
        assert!(r.text.starts_with("INFO starting\n"));
        assert!(r.text.ends_with("the root cause\n"));
        assert!(
            r.text.len() <= kbook_search::MAX_QUERY_BYTES + 1,
            "{}",
            r.text.len()
        );
        // A short one is read whole.
        let r = read_bounded("one line".as_bytes()).unwrap();
        assert_eq!((r.text.as_str(), r.cut_from), ("one line", None));
    }

    #[test]
    fn control_characters_are_shown_not_acted_on() {
        assert_eq!(printable("plain title"), "plain title");
        assert_eq!(
            printable("red \u{1b}[31mtitle\u{7}"),
            "red \u{fffd}[31mtitle\u{fffd}"
        );
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_decoded() {
        let text = "Caused by: 连接失败";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&le), text);
        assert_eq!(decode(&be), text);
        assert_eq!(decode("\u{feff}plain".as_bytes()), "plain");
        assert_eq!(decode(b"bad \xff byte"), "bad \u{fffd} byte");
        // Without a mark too, when the text reads as UTF-16 (`Out-File` and redirects of some
        // shells); a short or mixed text stays UTF-8.
        let ascii = "java.net.ConnectException: Connection refused";
        let le: Vec<u8> = ascii.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = ascii.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&le), ascii);
        assert_eq!(decode(&be), ascii);
        assert_eq!(decode(b"a\0b"), "a\0b");
    }
}
