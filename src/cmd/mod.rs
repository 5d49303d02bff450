//! The `kbook` command line: one module per command, each a thin layer over the library.

/// `println!` that returns the write's error instead of panicking: output piped into a reader
/// that stops early (`kbook search … | head`) ends the command quietly (see [`run`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` as [`outln!`].
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod build;
mod check;
mod completions;
mod eval;
mod import;
mod index;
mod init;
mod new;
mod search;
mod serve;
mod strings;

use anyhow::Result;
use clap::{Parser, Subcommand};
use kbook::config::Config;
use kbook::diagnostic::{Diagnostic, MessageFormat};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// kbook: a static knowledge-base generator for troubleshooting FAQs, searched by pasting an
/// error message or a stack trace.
#[derive(Debug, Parser)]
#[command(name = "kbook", version, about, long_about = None, after_help = "Examples:\n  kbook serve --open          build the book in this directory and open it\n  kbook build --dest public   write the site to public/\n  kbook check --deny-warnings validate without writing\n  kbook search \"SSL peer shut down incorrectly\"\n  kubectl logs job-123 | kbook search --stdin")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options shared by build-like commands.
#[derive(Debug, Clone, clap::Args)]
pub struct BookArgs {
    /// The book's root directory (holding book.toml).
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub book: PathBuf,
    /// Treat warnings as errors.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Diagnostics format, on stderr (`json`: one object per line; stdout stays free).
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
    /// Print every warning (by default the first 20, then counts per kind).
    #[arg(long, short)]
    pub verbose: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a new book with a book.toml and two example entries.
    #[command(
        after_help = "Examples:\n  kbook init my-kb && cd my-kb && kbook serve --open\n  kbook init --language zh my-kb   a Chinese book (page chrome and examples in Chinese)"
    )]
    Init {
        /// Directory to create the book in.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// The book's language (BCP 47: en, zh, zh-CN, zh-TW, ja, …): `zh*` writes Chinese
        /// examples; every language sets `[book] language`, which picks the page chrome's texts.
        #[arg(long, default_value = "en", value_name = "TAG")]
        language: String,
    },
    /// Scaffold a new entry at content/<connector>/<id>.md with every front-matter field.
    #[command(after_help = "Example:\n  kbook new kafka/kafka-offset-out-of-range")]
    New {
        /// `<connector>/<id>`
        path: String,
        /// The book's root directory.
        #[arg(long, default_value = ".", value_name = "DIR")]
        book: PathBuf,
    },
    /// Build the site (pages, search index and module) into the build directory.
    #[command(
        after_help = "Examples:\n  kbook build\n  kbook build --dest public --deny-warnings\n  kbook build --bundle kb.zip         also write a zip of the site that works offline\n  kbook build --single-file kb.html   also write the whole book as one HTML file"
    )]
    Build {
        #[command(flatten)]
        args: BookArgs,
        /// Output directory (default: [build] build-dir of book.toml, or `book`).
        #[arg(long, short = 'd', value_name = "DIR")]
        dest: Option<PathBuf>,
        /// Also write a zip of the site: unzipped anywhere, its index.html works from disk
        /// (file://) with navigation, search and themes.
        #[arg(long, value_name = "FILE.zip")]
        bundle: Option<PathBuf>,
        /// Also write the whole book as one self-contained HTML file (every entry, styles,
        /// search with the module and index embedded; entries at #<id>).
        #[arg(long, value_name = "FILE.html")]
        single_file: Option<PathBuf>,
    },
    /// Validate everything (front-matter, links, anchors, templates) without writing.
    #[command(after_help = "Example:\n  kbook check --deny-warnings --message-format json")]
    Check {
        #[command(flatten)]
        args: BookArgs,
        /// Rewrite front-matter in the canonical key order and formatting (bodies untouched).
        #[arg(long)]
        fix: bool,
    },
    /// Print every text of the page chrome with its key, in the book's language, as a
    /// `[kbook.strings]` block to copy into book.toml and change.
    #[command(
        after_help = "Examples:\n  kbook strings                 the texts of the book in this directory\n  kbook strings --language zh   the built-in Chinese texts"
    )]
    Strings {
        /// The book's root directory.
        #[arg(long, default_value = ".", value_name = "DIR")]
        book: PathBuf,
        /// The built-in texts of this language (BCP 47) instead of the book's.
        #[arg(long, value_name = "TAG")]
        language: Option<String>,
    },
    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  kbook completions bash > ~/.local/share/bash-completion/completions/kbook"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Build, then serve the site on 127.0.0.1.
    #[command(after_help = "Example:\n  kbook serve --open --port 3000")]
    Serve {
        #[command(flatten)]
        args: BookArgs,
        /// Port (0 picks a free one).
        #[arg(long, short = 'p', default_value_t = 3000)]
        port: u16,
        /// Address to bind; anything but loopback exposes the site to the network.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// Open the site in the default browser.
        #[arg(long)]
        open: bool,
        /// Output directory (default: `.kbook/serve` in the book, so the site `kbook build`
        /// wrote for publishing is left as it is).
        #[arg(long, short = 'd', value_name = "DIR")]
        dest: Option<PathBuf>,
    },
    /// Search the built index from the terminal.
    #[command(after_help = "Examples:
  kbook search 'Connection refused'
  kubectl logs pod | kbook search
  kbook search --stdin < trace.txt
  kbook search --version vvr=8.0.7 --connector kafka 'offset commit failed'
  kbook search --json 'SSL peer shut down incorrectly' | jq '.hits[0].url'

Exit status: 0 after a search, whatever it found (`--json` says whether the first hit is
confident); 1 when it cannot search (no index, an unreadable site, an empty paste, a bad
--version); 2 for a usage error.")]
    Search(search::SearchArgs),
    /// Measure search quality on labelled queries (JSON lines).
    Eval(eval::EvalArgs),
    /// Write a book from an existing Hugo, Zola, Docusaurus, MkDocs or mdBook docs tree (FAQ
    /// pages split into one entry per question).
    #[command(after_help = "Examples:
  kbook import --from hugo ../website --into kb
  kbook import --from mkdocs ../docs-site --into kb --json")]
    Import(import::ImportArgs),
    /// Add paste-an-error search to a site built by any generator: index its HTML pages and
    /// write the search files into it.
    #[command(
        after_help = "Examples:\n  hugo && kbook index public --ui\n  kbook index site --selector 'article.md-content__inner' --output-subdir assets/kbook"
    )]
    Index(index::IndexArgs),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Init { dir, language } => init::run(&dir, &language),
        Command::New { path, book } => new::run(&book, &path),
        Command::Build {
            args,
            dest,
            bundle,
            single_file,
        } => build::run(&args, dest, bundle.as_deref(), single_file.as_deref()),
        Command::Check { args, fix } => check::run(&args, fix),
        Command::Completions { shell } => completions::run(shell),
        Command::Strings { book, language } => strings::run(&book, language.as_deref()),
        Command::Serve {
            args,
            port,
            bind,
            open,
            dest,
        } => serve::run(&args, port, bind, open, dest),
        Command::Search(args) => search::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Index(args) => index::run(&args),
    };
    match result {
        Ok(code) => code,
        // The reader of the output went away (`| head`): nothing is wrong with the book.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `e` is a write into a pipe whose reader has closed it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Diagnostics as one error for anyhow (a command that cannot go on, e.g. a bad book.toml).
fn diagnostics_error(diags: &[Diagnostic]) -> anyhow::Error {
    anyhow::anyhow!(
        diags
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    )
}

/// `s` on one line (whitespace runs collapsed), cut to `max` characters with an ellipsis.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        let cut: String = flat.chars().take(max).collect();
        format!("{cut}…")
    }
}

/// The search index of a built site: `site` when given, else the book's build directory
/// (from its book.toml, read as every command reads it).
fn open_built_index(book: &Path, site: Option<&Path>) -> Result<kbook_search::BookIndex> {
    Ok(open_built_site(book, site)?.0)
}

/// [`open_built_index`], with the folder of the site it opened.
fn open_built_site(book: &Path, site: Option<&Path>) -> Result<(kbook_search::BookIndex, PathBuf)> {
    let site = match site {
        Some(site) => site.to_path_buf(),
        None if !book.is_dir() => anyhow::bail!(
            "{} is not a folder: name the book with --book, or a built site with --site",
            book.display()
        ),
        None => {
            let dir = Config::load(book)
                .map_err(|d| diagnostics_error(&d))?
                .build_dir();
            // Run outside any book: say so, rather than name a default folder never built.
            if !dir.exists() && !book.join("book.toml").exists() {
                anyhow::bail!(
                    "no book.toml in {} and no built site in {}: pass --book DIR (a book's folder) or --site DIR (a folder `kbook build` wrote)",
                    book.display(),
                    dir.display()
                );
            }
            dir
        }
    };
    Ok((kbook::search_assets::open_index(&site)?, site))
}
