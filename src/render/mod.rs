//! Rendering: Markdown bodies to HTML, then whole pages through Tera templates.

pub mod context;
pub mod links;
pub mod markdown;
pub mod memo;
pub mod pages;
pub mod raw_html;
pub mod templates;
pub mod theme;
pub mod trace;
