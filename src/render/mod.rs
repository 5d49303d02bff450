//! Rendering: Markdown bodies to HTML, then whole pages through Tera templates.

pub mod markdown;
pub mod pages;
pub mod theme;
