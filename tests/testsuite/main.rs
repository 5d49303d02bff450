//! kbook's integration tests in one binary, a module per area: the real `kbook` binary on
//! fixture books (build, bad input, determinism, output reuse, crashes), the pages in Debian's
//! headless Chromium (browser, reader, i18n, xss), the development server, and the search
//! quality floors (relevance).

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod browser;
mod build;
mod crash;
mod determinism;
mod i18n;
mod import;
mod index;
mod output_reuse;
mod reader;
mod relevance;
mod serve;
mod xss;
