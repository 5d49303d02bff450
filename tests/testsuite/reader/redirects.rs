//! Alias pages (an entry's old addresses) keep the address's query and `#anchor`, over http
//! and from disk, as mdBook's and Docusaurus' redirects do.

use super::{one_browser, scratch};
use crate::common::{chromium, file_url, fixture, kbook, serve};
use std::ffi::OsStr;

#[test]
fn an_old_address_keeps_its_query_and_anchor() {
    let site = scratch().join("redirects");
    if site.exists() {
        std::fs::remove_dir_all(&site).unwrap();
    }
    kbook(
        &fixture("good"),
        &[OsStr::new("build"), OsStr::new("--dest"), site.as_os_str()],
    );
    let http = serve(site.clone());
    let _one = one_browser();
    let c = chromium();
    let arrived = "location.pathname.endsWith('/kafka/kafka-offset-commit.html') \
                   && location.hash === '#details' \
                   && new URLSearchParams(location.search).get('highlight') === 'offsets' \
                   && location.href";
    for base in [
        http,
        file_url(&site.join("index.html")).replace("index.html", ""),
    ] {
        c.open(&format!("{base}old/offsets.html?highlight=offsets#details"));
        c.wait_for(arrived);
        // Without them, the page's own refresh still goes to the entry.
        c.open(&format!("{base}old/offsets.html"));
        c.wait_for(
            "location.pathname.endsWith('/kafka/kafka-offset-commit.html') && !location.hash",
        );
    }
    c.assert_no_errors("redirects");
}
