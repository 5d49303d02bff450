//! The check two targets make on every result: each highlight lies inside its snippet.

/// Panics when a hit's highlight is not a range of its snippet's characters.
pub fn assert_highlights_in_snippets(results: &kbook_search::SearchResults) {
    for h in &results.hits {
        let n = h.snippet.text.chars().count();
        for &(a, b) in &h.snippet.highlights {
            assert!(
                a <= b && b <= n,
                "highlight {a}..{b} outside a {n}-char snippet"
            );
        }
    }
}
