//! `regex` for the browser module: regex-lite's API under regex's name (see Cargo.toml).
pub use regex_lite::*;
