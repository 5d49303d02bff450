//! kbook: a static knowledge-base generator for troubleshooting FAQs that people search by
//! pasting an error message or a stack trace.
//!
//! [`site`] drives every stage of a build, handing each one's result to the next: [`config`]
//! (`book.toml`) → [`content`] (load, parse, validate) → [`render`] (templates, then the
//! Markdown bodies) → [`search_assets`] (the index, built from the bodies' text) →
//! [`render::pages`] (the pages, rendered after the index because they name its files) →
//! [`output`] (written atomically). [`serve`] rebuilds through [`site`] and serves the
//! output. Below them sit helpers every stage may use: [`output`], [`diagnostic`], [`urls`],
//! [`html`], [`fingerprint`], [`date`], [`i18n`]. The commands live in the binary (`src/cmd/`); no
//! library module imports a command.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bundle;
pub mod config;
pub mod content;
pub mod date;
pub mod diagnostic;
pub mod eval;
pub mod fingerprint;
pub mod html;
pub mod http;
pub mod i18n;
pub mod import;
pub mod output;
pub mod progress;
pub mod render;
pub mod search_assets;
pub mod serve;
pub mod site;
pub mod site_index;
pub mod urls;
