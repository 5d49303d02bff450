//! kbook: a static knowledge-base generator for troubleshooting FAQs that people search by
//! pasting an error message or a stack trace.
//!
//! The pipeline reads top to bottom, one module a stage: [`config`] → [`content`] (load,
//! parse, validate) → [`render`] (Markdown, pages) → [`index`] (search) → [`site`] (the build)
//! → [`output`] (written atomically). [`cli`] is a thin layer over it; [`serve`] serves the
//! output.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod bundle;
pub mod cli;
pub mod config;
pub mod content;
pub mod date;
pub mod diagnostic;
pub mod eval;
pub mod fingerprint;
pub mod html;
pub mod i18n;
pub mod index;
pub mod output;
pub mod render;
pub mod serve;
pub mod site;
pub mod urls;
