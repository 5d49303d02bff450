//! kbook: a static knowledge-base generator for troubleshooting FAQs that people search by
//! pasting an error message or a stack trace.
//!
//! The stages read top to bottom, data flowing one way: [`config`] → [`content`] (load,
//! parse, validate) → [`render`] (Markdown bodies) → [`search_assets`] (the index, which the
//! pages name) → [`render::pages`] → [`output`] (written atomically). [`site`] runs them in
//! that order; [`serve`] rebuilds and serves the output. Below them sit helpers every stage
//! may use: [`diagnostic`], [`urls`], [`html`], [`fingerprint`], [`date`], [`i18n`]. The
//! commands live in the binary (`src/cmd/`); no library module imports a command.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bundle;
pub mod config;
pub mod content;
pub mod date;
pub mod diagnostic;
pub mod eval;
pub mod fingerprint;
pub mod html;
pub mod i18n;
pub mod output;
pub mod progress;
pub mod render;
pub mod search_assets;
pub mod serve;
pub mod site;
pub mod urls;
