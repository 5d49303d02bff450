//! The reader over entries of any text: an index built from a fuzzed entry (title, error,
//! symptoms and body from the input), searched for a fuzzed query and for each of the body's
//! words. Snippets, matched errors and explanations are cut from stored text of any script
//! and any spacing (no-break and ideographic spaces, combining marks), which a fixed index
//! never exercises.
#![no_main]

use kbook_search::{BookIndex, EntryDoc, SearchOptions};
use libfuzzer_sys::fuzz_target;

#[path = "shared/snippet_bounds.rs"]
mod snippet_bounds;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // `\u{1}` separates the body from the query; without it the body's words are the queries.
    let (body, query) = text.split_once('\u{1}').unwrap_or((&text, ""));
    let first_line = body.lines().next().unwrap_or("");
    let doc = EntryDoc {
        id: "fuzzed".into(),
        url: "fuzzed.html".into(),
        title: first_line.chars().take(120).collect(),
        connector: "kafka".into(),
        connector_aliases: Vec::new(),
        cross_connector: false,
        kind: "error".into(),
        errors: vec![first_line.to_string()],
        generic_errors: Vec::new(),
        body: body.to_string(),
        code: String::new(),
        tags: Vec::new(),
        symptoms: body.lines().take(8).map(str::to_string).collect(),
        versions: Vec::new(),
    };
    let packed = kbook_search::build_packed_index(&[doc]).expect("any entry text indexes");
    let index = BookIndex::open(packed).expect("a built index opens");
    let opts = SearchOptions {
        explain: true,
        ..SearchOptions::default()
    };
    let queries = std::iter::once(query).chain(body.split_whitespace().take(16));
    for q in queries {
        let results = index
            .search(q, &opts)
            .expect("searching a valid index never fails");
        snippet_bounds::assert_highlights_in_snippets(&results);
    }
});
