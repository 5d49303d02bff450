//! `kbook build`: the site into its build directory, and optionally the offline bundle and
//! the single-file book made from it.

use super::{BookArgs, diagnostics_error};
use anyhow::{Context, Result};
use kbook::config::Config;
use kbook::diagnostic::{MessageFormat, print_diagnostics};
use kbook::site::{self, BuildOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Builds the site into `dest` (default: the book's build directory), then writes the zip
/// `bundle` and the `single_file` book when asked.
pub fn run(
    args: &BookArgs,
    dest: Option<PathBuf>,
    bundle: Option<&Path>,
    single_file: Option<&Path>,
) -> Result<ExitCode> {
    if bundle.is_some() || single_file.is_some() {
        let config = site::load_config(&args.book).map_err(|d| diagnostics_error(&d))?;
        for (path, what) in [
            (bundle, "offline bundle"),
            (single_file, "single-file book"),
        ] {
            if let Some(why) = path.and_then(|p| site::refuse_file(p, &config)) {
                anyhow::bail!(
                    "cannot write the {what}: {why}; name a new file outside the book's sources"
                );
            }
        }
    }
    // The single file is made from the new site before it replaces the old one: a book that
    // cannot be made fails the build with the old site as it was.
    let single_opts = match single_file {
        Some(_) => {
            let config = Config::load(&args.book).map_err(|d| diagnostics_error(&d))?;
            Some(kbook::bundle::SingleFileOptions {
                content_security_policy: config.output.html.content_security_policy,
                edition_note: config.strings().get("single_file_edition").to_string(),
            })
        }
        None => None,
    };
    let (code, report) = build_site(args, dest.clone(), false, single_opts);
    let Some(report) = report.filter(|_| bundle.is_some() || single_file.is_some()) else {
        return Ok(code);
    };
    let what = match (bundle, single_file) {
        (Some(_), Some(_)) => "the offline bundle and the single file were",
        (Some(_), None) => "the offline bundle was",
        _ => "the single file was",
    };
    let single = single_file.zip(report.single_file.as_deref());
    let written =
        kbook::bundle::write_outputs(&report.dest, bundle, single).with_context(|| {
            format!(
                "the site is built in {}; {what} not written",
                report.dest.display()
            )
        })?;
    if args.message_format == MessageFormat::Human {
        for line in written {
            eprintln!("wrote {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Builds the site (`check_only`: renders it in memory only, for `kbook check`) and prints
/// the diagnostics and a summary.
pub fn build_or_check(args: &BookArgs, dest: Option<PathBuf>, check_only: bool) -> ExitCode {
    build_site(args, dest, check_only, None).0
}

/// [`build_or_check`], making the single-file book too when `single_file` asks for it; the
/// report of a build that succeeded.
fn build_site(
    args: &BookArgs,
    dest: Option<PathBuf>,
    check_only: bool,
    single_file: Option<kbook::bundle::SingleFileOptions>,
) -> (ExitCode, Option<site::BuildReport>) {
    let opts = BuildOptions {
        dest,
        deny_warnings: args.deny_warnings,
        check_only,
        progress: args.message_format == MessageFormat::Human,
        single_file,
    };
    match site::build(&args.book, &opts) {
        Ok(report) => {
            print_diagnostics(&report.warnings, args.message_format, args.verbose);
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
            (ExitCode::SUCCESS, Some(report))
        }
        Err(diags) => {
            print_diagnostics(&diags, args.message_format, args.verbose);
            if args.message_format == MessageFormat::Human {
                let errors = diags.iter().filter(|d| d.is_error()).count();
                let warnings = diags.len() - errors;
                // A check writes no site (with --fix it may have normalised entries).
                eprintln!(
                    "{} failed: {errors} error(s), {warnings} warning(s){}{}",
                    if check_only { "check" } else { "build" },
                    if args.deny_warnings && warnings > 0 {
                        " (warnings denied)"
                    } else {
                        ""
                    },
                    if check_only {
                        ""
                    } else {
                        "; nothing was written"
                    }
                );
            }
            (ExitCode::FAILURE, None)
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
