//! `kbook strings`: every text of the page chrome, by the key `[kbook.strings]` takes, in
//! the book's language (its overrides applied), as a block to copy into book.toml.

use anyhow::Result;
use kbook::config::Config;
use std::path::Path;
use std::process::ExitCode;

/// Prints `[kbook.strings]` with every key and its text: for `language` when given, else for
/// the book at `book` (its language, kinds and overrides).
pub fn run(book: &Path, language: Option<&str>) -> Result<ExitCode> {
    let (language, kinds, strings) = match language {
        Some(l) => {
            if !kbook::config::is_language_tag(l) {
                anyhow::bail!(
                    "--language `{l}` is not a BCP 47 language tag: {}",
                    kbook::config::language_hint(l)
                );
            }
            let kinds: Vec<String> = kbook::config::DEFAULT_KINDS
                .iter()
                .map(|k| k.to_string())
                .collect();
            let strings = kbook::i18n::Strings::new(l, &Default::default());
            (l.to_string(), kinds, strings)
        }
        None => {
            let config = Config::load(book).map_err(|d| super::diagnostics_error(&d))?;
            (
                config.book.language.clone(),
                config.kinds(),
                config.strings(),
            )
        }
    };
    outln!("# The texts of the page chrome for `{language}`: copy the keys to change into")?;
    outln!("# book.toml; `{{name}}` placeholders are filled in by kbook.")?;
    outln!("[kbook.strings]")?;
    let keys = kbook::i18n::known_keys()
        .map(str::to_string)
        .chain(kinds.iter().map(|k| format!("kind_{k}")));
    for key in keys {
        let text = match key.strip_prefix("kind_") {
            Some(kind) if kinds.iter().any(|k| k == kind) => strings.kind(kind),
            _ => strings.get(&key).to_string(),
        };
        outln!("{key} = {}", toml::Value::String(text))?;
    }
    Ok(ExitCode::SUCCESS)
}
