//! `kbook index`: add kbook's search to a site another generator built.

use anyhow::Result;
use kbook::site_index::{IndexOptions, index_site, template_lines};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `kbook index`.
#[derive(Debug, clap::Args)]
pub struct IndexArgs {
    /// The built site's directory (Hugo's `public/`, MkDocs' `site/`, mdBook's `book/`, …).
    pub site: PathBuf,
    /// CSS selector of the content element, for pages without `data-kbook-body` (default:
    /// `<main>`, else `<article>`, else `[role=main]`, without the nav, aside, footer and forms
    /// inside it; else `<body>` without its nav, header, footer, aside and forms).
    #[arg(long, value_name = "CSS")]
    pub selector: Option<String>,
    /// Where the search files go, relative to the site.
    #[arg(long, default_value = "kbook", value_name = "DIR")]
    pub output_subdir: String,
    /// Also add the search box and the loader to every page (for sites whose templates you
    /// cannot edit).
    #[arg(long)]
    pub ui: bool,
    /// The language of the search page and box, e.g. `zh` (default: the `lang` of the site's
    /// index.html, else English).
    #[arg(long, value_name = "TAG")]
    pub language: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Indexes the site and prints what to add to its templates.
pub fn run(args: &IndexArgs) -> Result<ExitCode> {
    if let Some(l) = &args.language
        && !kbook::config::is_language_tag(l)
    {
        anyhow::bail!(
            "--language `{l}` is not a BCP 47 language tag: {}",
            kbook::config::language_hint(l)
        );
    }
    let report = index_site(&IndexOptions {
        site: args.site.clone(),
        selector: args.selector.clone(),
        subdir: args.output_subdir.clone(),
        ui: args.ui,
        language: args.language.clone(),
    })?;
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "Indexed {} of {} pages ({} error texts found in their logs and traces); wrote {} files ({:.1} KiB) to {}/{}",
        report.indexed,
        report.pages,
        report.errors,
        report.files,
        report.bytes as f64 / 1024.0,
        args.site.display(),
        report.subdir
    )?;
    for (page, why) in &report.skipped {
        outln!("  skipped {page}: {why}")?;
    }
    for page in &report.not_utf8 {
        outln!(
            "  {page} is not UTF-8: indexed with U+FFFD for each byte that is not (convert the page to UTF-8)"
        )?;
    }
    if args.ui {
        outln!("Added the search box to {} pages.", report.injected)?;
        for page in &report.no_body {
            outln!(
                "  {page} has no <body>…</body>, so it got no search box: give it both tags and run again"
            )?;
        }
    } else {
        let [slot, script] = template_lines(&report.subdir);
        outln!(
            "\nAdd these two lines to your templates (the script path relative to the site root, e.g. with your generator's root-URL helper):\n  {slot}     where the search box goes\n  {script}   before </body>\nor run again with --ui to add them to every page."
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
