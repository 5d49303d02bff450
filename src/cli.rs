//! The `kbook` command line: a thin layer over the library.

use crate::diagnostic::{Diagnostic, MessageFormat, print_diagnostics};
use crate::site::{self, BuildOptions};
use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
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
    /// Diagnostics format.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
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
        /// Output directory (default: [build] build-dir).
        #[arg(long, short = 'd', value_name = "DIR")]
        dest: Option<PathBuf>,
    },
    /// Search the built index from the terminal.
    Search(crate::index::SearchArgs),
    /// Measure search quality on labelled queries (JSON lines).
    Eval(crate::eval::EvalArgs),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(command: Command) -> Result<ExitCode> {
    match command {
        Command::Init { dir, language } => init(&dir, &language).map(|_| ExitCode::SUCCESS),
        Command::New { path, book } => new_entry(&book, &path).map(|_| ExitCode::SUCCESS),
        Command::Build {
            args,
            dest,
            bundle,
            single_file,
        } => {
            let code = build(&args, dest.clone(), false);
            if code != ExitCode::SUCCESS || (bundle.is_none() && single_file.is_none()) {
                return Ok(code);
            }
            let config =
                crate::config::Config::load(&args.book).map_err(|d| anyhow::anyhow!(join(&d)))?;
            let site_dir = dest.unwrap_or_else(|| config.build_dir());
            let opts = crate::bundle::SingleFileOptions {
                content_security_policy: config.output.html.content_security_policy,
                edition_note: config.strings().get("single_file_edition").to_string(),
            };
            let written = crate::bundle::write_outputs(
                &site_dir,
                bundle.as_deref(),
                single_file.as_deref(),
                &opts,
            )
            .context("cannot write the offline bundle")?;
            if args.message_format == MessageFormat::Human {
                for line in written {
                    eprintln!("wrote {line}");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { args, fix } => {
            if fix {
                let config = crate::config::Config::load(&args.book)
                    .map_err(|d| anyhow::anyhow!(join(&d)))?;
                let fixed = crate::content::fix_front_matter(&config)
                    .context("cannot rewrite front-matter")?;
                for p in &fixed {
                    eprintln!("normalised {}", p.display());
                }
                eprintln!("--fix: {} file(s) rewritten", fixed.len());
            }
            Ok(build(&args, None, true))
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "kbook", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            args,
            port,
            bind,
            open,
            dest,
        } => {
            let config =
                crate::config::Config::load(&args.book).map_err(|d| anyhow::anyhow!(join(&d)))?;
            let dest = dest.unwrap_or_else(|| config.build_dir());
            crate::serve::serve(&crate::serve::ServeOptions {
                book: args.book.clone(),
                dest,
                bind,
                port,
                open,
                format: args.message_format,
                deny_warnings: args.deny_warnings,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Search(args) => crate::index::run_search(&args),
        Command::Eval(args) => crate::eval::run_eval(&args),
    }
}

fn join(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

fn build(args: &BookArgs, dest: Option<PathBuf>, check_only: bool) -> ExitCode {
    let opts = BuildOptions {
        dest,
        deny_warnings: args.deny_warnings,
        check_only,
        progress: args.message_format == MessageFormat::Human,
    };
    match site::build(&args.book, &opts) {
        Ok(report) => {
            print_diagnostics(&report.warnings, args.message_format);
            if args.message_format == MessageFormat::Human {
                let secs = report.elapsed.as_secs_f64();
                if check_only {
                    eprintln!(
                        "checked {} entries, {} pages: no errors{} ({secs:.2}s)",
                        report.entries,
                        report.pages,
                        warn_suffix(report.warnings.len())
                    );
                } else {
                    eprintln!(
                        "built {} entries, {} pages, {} files ({:.1} MiB) in {secs:.2}s → {}{}",
                        report.entries,
                        report.pages,
                        report.files,
                        report.bytes as f64 / 1048576.0,
                        report.dest.display(),
                        warn_suffix(report.warnings.len())
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Err(diags) => {
            print_diagnostics(&diags, args.message_format);
            if args.message_format == MessageFormat::Human {
                let errors = diags.iter().filter(|d| d.is_error()).count();
                let warnings = diags.len() - errors;
                eprintln!(
                    "{} failed: {errors} error(s), {warnings} warning(s){}; nothing was written",
                    if check_only { "check" } else { "build" },
                    if args.deny_warnings && warnings > 0 {
                        " (warnings denied)"
                    } else {
                        ""
                    }
                );
            }
            ExitCode::FAILURE
        }
    }
}

fn warn_suffix(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(", {n} warning(s)")
    }
}

const INIT_BOOK_TOML: &str = r#"[book]
title = "My knowledge base"
description = "Troubleshooting entries: paste an error message to find the fix."
language = "en"
src = "content"

[build]
build-dir = "book"

[output.html]
# site-url = "https://kb.example.org/"
# edit-url-template = "https://git.example.org/kb/edit/main/{path}"

[[kbook.connectors]]
slug = "example"
name = "Example connector"
description = "Replace with your own connectors."
"#;

const INIT_ENTRY_ERROR: &str = r#"---
title: "Connection refused when the job starts"
connector: example
kind: error
errors:
  - "java.net.ConnectException: Connection refused"
tags: [network]
related: [example-howto]
updated: 2026-01-01
---
## Symptom

The job fails right after it starts:

```text
Caused by: java.net.ConnectException: Connection refused
    at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)
```

## Cause

The service is not listening on the configured host and port.

## Solution

1. Check the host and port in the connector options.
2. See [how to configure the connection](example-howto.md#steps).
"#;

const INIT_ENTRY_HOWTO: &str = r#"---
title: "Configure the example connection"
connector: example
kind: howto
related: [example-connection-refused]
updated: 2026-01-01
---
## Goal

Point the connector at your service.

## Steps

1. Set `hostname` and `port`.
2. Run `kbook serve` and search for "Connection refused".

## Example

```sql
CREATE TABLE t (id INT) WITH ('connector' = 'example', 'hostname' = 'db.internal', 'port' = '3306');
```
"#;

const INIT_BOOK_TOML_ZH: &str = r#"[book]
title = "我的知识库"
description = "故障排查条目：粘贴错误信息即可找到解决方法。"
language = "zh"
src = "content"

[build]
build-dir = "book"

[output.html]
# site-url = "https://kb.example.org/"
# edit-url-template = "https://git.example.org/kb/edit/main/{path}"

# 页面上的任何文字都可以在这里改写，例如：
# [kbook.strings]
# search_placeholder = "搜索或粘贴报错信息…"

[[kbook.connectors]]
slug = "example"
name = "示例连接器"
description = "请替换为你自己的连接器。"
"#;

const INIT_ENTRY_ERROR_ZH: &str = r#"---
title: "作业启动时连接被拒绝"
connector: example
kind: error
errors:
  - "java.net.ConnectException: Connection refused"
  - "Caused by: java.net.ConnectException: Connection refused (Connection refused)"
versions:
  - product: example-server
    affected: "<2.1"
    fixed: "2.1"
    note: "从 2.1 起，连接失败时会自动重试"
tags: [network]
related: [example-howto]
updated: 2026-01-01
---
## 现象

作业启动后立即失败：

```text
Caused by: java.net.ConnectException: Connection refused
    at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)
```

## 原因

服务没有在配置的主机和端口上监听。

## 解决方法

1. 检查连接器参数中的主机名和端口。
2. 参见[如何配置连接](example-howto.md#steps)。
"#;

const INIT_ENTRY_HOWTO_ZH: &str = r#"---
title: "配置示例连接"
connector: example
kind: howto
errors:
  - "java.net.UnknownHostException: db.internal"
related: [example-connection-refused]
updated: 2026-01-01
---
## 目标

让连接器指向你的服务。

## 步骤 {#steps}

1. 设置 `hostname` 和 `port`。
2. 运行 `kbook serve`，然后搜索 “Connection refused”。

## 示例

```sql
CREATE TABLE t (id INT) WITH ('connector' = 'example', 'hostname' = 'db.internal', 'port' = '3306');
```
"#;

/// Writes a starter book into `dir` in `language` (Chinese examples for `zh*`, English
/// otherwise); refuses to overwrite an existing book.toml.
pub fn init(dir: &Path, language: &str) -> Result<()> {
    if !crate::config::is_language_tag(language) {
        bail!("`{language}` is not a BCP 47 language tag: use e.g. en, zh, zh-CN, ja");
    }
    let chinese = language.to_ascii_lowercase().starts_with("zh");
    let (book_toml, error_entry, howto_entry) = if chinese {
        (INIT_BOOK_TOML_ZH, INIT_ENTRY_ERROR_ZH, INIT_ENTRY_HOWTO_ZH)
    } else {
        (INIT_BOOK_TOML, INIT_ENTRY_ERROR, INIT_ENTRY_HOWTO)
    };
    // The tag as given (zh-TW stays zh-TW in <html lang>).
    let book_toml = book_toml.replacen(
        if chinese {
            "language = \"zh\""
        } else {
            "language = \"en\""
        },
        &format!("language = \"{language}\""),
        1,
    );
    let toml = dir.join("book.toml");
    if toml.exists() {
        bail!(
            "{} already exists: kbook init will not overwrite a book",
            toml.display()
        );
    }
    let content = dir.join("content/example");
    std::fs::create_dir_all(&content)
        .with_context(|| format!("cannot create {}", content.display()))?;
    std::fs::write(&toml, book_toml).with_context(|| format!("cannot write {}", toml.display()))?;
    for (name, text) in [
        ("example-connection-refused.md", error_entry),
        ("example-howto.md", howto_entry),
    ] {
        let p = content.join(name);
        if !p.exists() {
            std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        }
    }
    let gitignore = dir.join(".gitignore");
    if !gitignore.exists() {
        std::fs::write(&gitignore, "/book\n")
            .with_context(|| format!("cannot write {}", gitignore.display()))?;
    }
    println!(
        "Created a book in {}.\n\nNext:\n  cd {}\n  kbook serve --open        # build and browse it\n  kbook new example/my-entry # add an entry\n  kbook check                # validate",
        dir.display(),
        dir.display()
    );
    Ok(())
}

/// Scaffolds `content/<connector>/<id>.md`.
pub fn new_entry(book: &Path, spec: &str) -> Result<()> {
    let Some((connector, id)) = spec.trim_end_matches(".md").split_once('/') else {
        bail!("expected <connector>/<id>, e.g. `kafka/kafka-offset-out-of-range`, got `{spec}`");
    };
    for (what, s) in [("connector", connector), ("id", id)] {
        if !crate::config::is_slug(s) {
            bail!("the {what} `{s}` is not a slug: use lowercase letters, digits and hyphens");
        }
    }
    let config = crate::config::Config::load(book).map_err(|d| anyhow::anyhow!(join(&d)))?;
    let dir = config.src_dir().join(connector);
    let path = dir.join(format!("{id}.md"));
    if path.exists() {
        bail!("{} already exists", path.display());
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let text = format!(
        "---\nid: {id}\ntitle: \"\"\nconnector: {connector}\nkind: error            # error | troubleshooting | howto | concept | behavior\nerrors:                # verbatim error text from the logs, or {{ text: \"…\", source: \"https://…\" }}\n  - \"\"\nversions: []           # e.g. - {{ product: vvr, affected: \">=8.0.5, <8.0.9\", fixed: \"8.0.9\" }}\ntags: []\nrelated: []\nupdated: {}\naliases: []\n---\n## Symptom\n\n## Cause\n\n## Solution\n\n1. \n",
        crate::date::today()
    );
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    println!("Created {}", path.display());
    Ok(())
}
