//! The read side: opening a packed index and answering searches (native and wasm32).
//! What the hits' matches say about the query, and the confidence decided from it, is in
//! `evidence`; the texts a hit shows are in `hit_text`.

mod evidence;
mod hit_text;

use crate::analysis::{Analyzer, analyze};
use crate::blocks::open_directory;
use crate::query::{BuiltQuery, build_query, filter_clauses};
use crate::schema::{F_BODY, F_SIG, F_TAGS, KbSchema, TEXT_FIELDS};
use crate::version::match_stored_specs;
use crate::{Hit, SearchError, SearchOptions, SearchResults, Signals};
use evidence::{
    Overlap, best_word_scores, coverage, covered_share, error_cover, error_overlap, error_tokens,
    is_confident, is_word, repeats_error_text, sig_share, word_count,
};
use hit_text::{best_error, explain_text, snippet};
use std::collections::HashSet;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, EnableScoring, Occur, Query};
use tantivy::schema::Value;
use tantivy::{DocAddress, DocId, Index, ReloadPolicy, Searcher, TantivyDocument};

const DEFAULT_LIMIT: usize = 10;
const MAX_LIMIT: usize = 200;
/// Candidates reranked by coverage (see [`crate::Tuning::coverage_rerank`]).
const RERANK_DEPTH: usize = 50;
/// The first hits that `finish` reorders (symptom lines, error texts, the connector named)
/// whatever the number asked for, and before the hits after them: a list asked for with a
/// smaller limit is the start of a longer one. 10 reads two stored documents more than the
/// search box's 8 (see bench/results/relevance-real-users.md).
const FINISH_DEPTH: usize = 10;
/// A body this many times the book's average length is a long page (see
/// `damp_long_pages`). At 2 and 3 the bundled book's sets do not move; entries there are
/// within a few times the average, reference pages of imported docs tens of times.
const LONG_PAGE: f32 = 3.0;

/// An opened book index.
pub struct BookIndex {
    pub(crate) searcher: Searcher,
    pub(crate) kb: KbSchema,
}

impl std::fmt::Debug for BookIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookIndex")
            .field("num_docs", &self.searcher.num_docs())
            .finish()
    }
}

/// A hit before display: score and address.
type Candidate = (f32, DocAddress);

/// Per-hit clause contributions: (clause index, score).
type Matches = Vec<(usize, f32)>;

/// A built query's ranked hits and what matched in each, before their documents are read.
#[derive(Debug, Clone)]
pub(crate) struct Scored {
    hits: Vec<Candidate>,
    matches: Vec<Matches>,
}

impl BookIndex {
    /// Opens a packed index. Corrupt or truncated bytes give an error, never a panic.
    pub fn open(packed: Vec<u8>) -> Result<BookIndex, SearchError> {
        BookIndex::open_bytes(&packed)
    }

    /// [`BookIndex::open`] from borrowed bytes (the reader holds its own copy of the files).
    pub fn open_bytes(packed: &[u8]) -> Result<BookIndex, SearchError> {
        let dir = open_directory(packed)?.dir;
        BookIndex::from_index(&Index::open(dir)?)
    }

    /// A reader over an opened index (also the lazy planner's, over its block directory).
    pub(crate) fn from_index(index: &Index) -> Result<BookIndex, SearchError> {
        crate::analysis::register_tokenizers(index);
        let kb = KbSchema::from_schema(&index.schema())?;
        // Manual reload: the index never changes, and no watcher thread (wasm has none).
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .num_warming_threads(0)
            .try_into()?;
        let searcher = reader.searcher();
        Ok(BookIndex { searcher, kb })
    }

    /// Number of entries in the index.
    pub fn num_docs(&self) -> u64 {
        self.searcher.num_docs()
    }

    /// Whether an entry with this id is in the index.
    pub fn has_id(&self, id: &str) -> bool {
        let term = tantivy::Term::from_field_text(self.kb.id, id);
        self.searcher.doc_freq(&term).is_ok_and(|n| n > 0)
    }

    /// The connector slugs of the entries, sorted (what `SearchOptions::connector` takes).
    pub fn connectors(&self) -> Vec<String> {
        self.keyword_values(self.kb.connector)
    }

    /// The kinds of the entries, sorted (what `SearchOptions::kind` takes).
    pub fn kinds(&self) -> Vec<String> {
        self.keyword_values(self.kb.kind)
    }

    /// The products the entries' `versions` name, sorted (what `SearchOptions::version`
    /// compares with). Reads every stored entry: for checking a reader's product, not per
    /// search.
    pub fn version_products(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (ord, reader) in self.searcher.segment_readers().iter().enumerate() {
            for doc in 0..reader.max_doc() {
                let addr = tantivy::DocAddress::new(ord as u32, doc);
                let Ok(d) = self.searcher.doc::<TantivyDocument>(addr) else {
                    continue;
                };
                let specs = first_text(&d, self.kb.versions).unwrap_or("[]");
                if let Ok(specs) = serde_json::from_str::<Vec<crate::version::VersionSpec>>(specs) {
                    out.extend(specs.into_iter().map(|s| s.product));
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Every term of a keyword field, sorted and unique.
    fn keyword_values(&self, field: tantivy::schema::Field) -> Vec<String> {
        let mut out = Vec::new();
        for reader in self.searcher.segment_readers() {
            let Ok(inv) = reader.inverted_index(field) else {
                continue;
            };
            let Ok(mut terms) = inv.terms().stream() else {
                continue;
            };
            while terms.advance() {
                if let Ok(t) = std::str::from_utf8(terms.key()) {
                    out.push(t.to_string());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Searches the index. Any text is a valid query.
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<SearchResults, SearchError> {
        let built = build_query(query, &self.searcher, &self.kb, &opts.tuning);
        self.search_built(&built, opts)
    }

    /// [`BookIndex::search`] for a query already built (by the lazy planner, over the same
    /// index).
    pub(crate) fn search_built(
        &self,
        built: &BuiltQuery,
        opts: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        if built.clauses.is_empty() {
            return Ok(SearchResults {
                hits: Vec::new(),
                confident: false,
                best_other_version: None,
                signals: Signals::default(),
            });
        }
        let scored = self.score(built, opts)?;
        let results = self.finish(built, &scored, opts)?;
        self.confirm_filtered(built, results, opts)
    }

    /// A filter takes the competing entries away, and with them the reason to doubt: a
    /// filtered search's first hit stays confident only if the whole book's search is
    /// confident in it too (both the native and the browser's lazy search end here).
    pub(crate) fn confirm_filtered(
        &self,
        built: &BuiltQuery,
        mut results: SearchResults,
        opts: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        if results.confident && (opts.connector.is_some() || opts.kind.is_some()) {
            let all = SearchOptions {
                limit: 1,
                connector: None,
                kind: None,
                explain: false,
                ..opts.clone()
            };
            let unfiltered = self.finish(built, &self.score(built, &all)?, &all)?;
            results.confident = unfiltered.confident
                && unfiltered.hits.first().map(|h| &h.id) == results.hits.first().map(|h| &h.id);
        }
        Ok(results)
    }

    /// The ranked hits of a built query (not empty), before their documents are read.
    pub(crate) fn score(
        &self,
        built: &BuiltQuery,
        opts: &SearchOptions,
    ) -> Result<Scored, SearchError> {
        // At least FINISH_DEPTH hits go to `finish`, which reorders them among themselves: the
        // search box's 8 are then the results page's first 8 and the terminal's. The second
        // hit also decides the margin of confidence.
        let limit = shown_limit(opts).max(FINISH_DEPTH);
        let mut top: Vec<(Occur, Box<dyn Query>)> =
            vec![(Occur::Must, built.scoring_query(&opts.tuning))];
        top.extend(
            filter_clauses(&self.kb, opts)
                .into_iter()
                .map(|f| (Occur::Must, f)),
        );
        let full = BooleanQuery::new(top);
        // With the coverage rerank, at least RERANK_DEPTH candidates are read; the first
        // RERANK_DEPTH of them compete for the first places (see `sort_apart` below).
        let depth = if opts.tuning.coverage_rerank {
            limit.max(RERANK_DEPTH)
        } else {
            limit
        };
        // Stored documents are read only for the hits shown, at least FINISH_DEPTH (in the
        // browser each may cost a fetched block); the version of an entry only reorders them.
        let mut hits: Vec<Candidate> = self
            .searcher
            .search(&full, &TopDocs::with_limit(depth).order_by_score())?;

        let addrs: Vec<DocAddress> = hits.iter().map(|h| h.1).collect();
        let mut matches = self.clause_matches(built, &addrs)?;
        if opts.tuning.coverage_rerank && hits.len() > 1 {
            // Entries that match more of what the query is about move up: BM25 alone lets one
            // frequent word outscore several distinct ones.
            let w = opts.tuning.coverage_weight.clamp(0.0, 1.0);
            let mut ranked: Vec<(Candidate, Matches)> = hits.into_iter().zip(matches).collect();
            // The best scores come from the candidates competing for the first places, so
            // that a longer list asked for does not change them.
            let best = opts
                .tuning
                .soft_coverage
                .then(|| best_word_scores(built, ranked.iter().take(RERANK_DEPTH).map(|r| &r.1)));
            let share = opts.tuning.soft_coverage_share;
            for (h, m) in &mut ranked {
                let soft = best.as_deref().map(|b| (b, share));
                h.0 *= 1.0 - w + w * covered_share(built, m, soft);
            }
            if opts.tuning.damps_long_pages() {
                self.damp_long_pages(&mut ranked, opts.tuning.long_page_damping)?;
            }
            // Stable: equal scores keep the engine's order. Only the engine's first
            // RERANK_DEPTH compete for the first places, and the candidates a longer list adds
            // go after them: the number asked for never changes the first hits.
            sort_apart(&mut ranked, RERANK_DEPTH, |r| r.0.0);
            ranked.truncate(limit);
            (hits, matches) = ranked.into_iter().unzip();
        }
        Ok(Scored { hits, matches })
    }

    /// What confidence is decided on, from the first of the `shown` hits (sorted).
    fn signals(&self, built: &BuiltQuery, shown: &[Shown<'_>], tuning: &crate::Tuning) -> Signals {
        let mut signals = Signals::default();
        let Some(first) = shown.first() else {
            return signals;
        };
        (signals.coverage, signals.phrase) = coverage(built, first.matches);
        signals.top_score = first.score;
        signals.known_share = built.known_share;
        signals.known_word = built.known_word;
        signals.one_line = built.one_line;
        signals.logged_line = built.logged_line;
        // Before the symptom match: it orders the hits, but a margin it widens made a wrong
        // answer confident (see `Tuning::symptom_weight`).
        let unmatched = |s: &Shown<'_>| s.score / symptom_factor(s.symptom_match, tuning);
        signals.margin = match shown.get(1) {
            Some(second) if unmatched(second) > 0.0 => unmatched(first) / unmatched(second),
            _ => MARGIN_ALONE,
        };
        signals.symptom_match = first.symptom_match;
        signals.names_connector = self.is_of_named_connector(&first.doc, built);
        // An entry of a section for every connector (failover, drivers) is about any of them.
        let for_every_connector =
            tuning.cross_connector && first.doc.get_first(self.kb.cross_connector).is_some();
        signals.other_connector =
            !built.named_connectors.is_empty() && !signals.names_connector && !for_every_connector;
        signals.generic_error = self.repeats_only_generic_errors(first, built, tuning);
        signals.error_run = first.overlap.run;
        signals.error_share = first.overlap.share;
        signals.error_diverges = first.overlap.diverges();
        let query_tokens = built
            .sig_lines
            .iter()
            .flatten()
            .filter(|t| is_word(t))
            .count();
        signals.error_query_share = signals.error_run as f32 / query_tokens.max(1) as f32;
        signals
    }

    /// Whether the query names the connector of `doc` (its slug, a part of it, or an alias).
    fn is_of_named_connector(&self, doc: &TantivyDocument, built: &BuiltQuery) -> bool {
        if built.named_connectors.is_empty() {
            return false;
        }
        let names: Vec<&str> = doc
            .get_all(self.kb.connector)
            .chain(doc.get_all(self.kb.aliases))
            .filter_map(|v| v.as_str())
            .collect();
        built.named_connectors.iter().any(|n| {
            names
                .iter()
                .any(|name| name.split('-').any(|part| part == n))
        })
    }

    /// Whether the error texts of `doc` that the query repeats are all generic ones: it repeats
    /// a generic text (at least `min_error_share` of it in one run, and `min_error_run` tokens
    /// of it when it is longer) and none of the others (as confidence counts a repeat).
    fn repeats_only_generic_errors(
        &self,
        hit: &Shown<'_>,
        built: &BuiltQuery,
        tuning: &crate::Tuning,
    ) -> bool {
        let generic: Vec<&str> = hit
            .doc
            .get_all(self.kb.generic)
            .filter_map(|v| v.as_str())
            .collect();
        if generic.is_empty() {
            return false;
        }
        let generic = error_tokens(&generic, tuning.sentence_ends, tuning.min_error_run);
        let repeats_generic = generic.iter().any(|toks| {
            let o = error_overlap(std::slice::from_ref(toks), &built.sig_lines);
            o.run >= tuning.min_error_run.min(word_count(toks)) && o.share >= tuning.min_error_share
        });
        // The hit's other error texts, from the tokens its ranking already analysed.
        let own: Vec<Vec<String>> = hit
            .errors
            .iter()
            .filter(|toks| !generic.contains(toks))
            .cloned()
            .collect();
        let o = error_overlap(&own, &built.sig_lines);
        repeats_generic && !repeats_error_text(o.run, o.share, o.diverges(), tuning)
    }

    /// Scores of hits whose body is more than [`LONG_PAGE`] times the book's average length,
    /// × (that length / the body's)^alpha: a reference page that mentions every word of a
    /// question somewhere outranks the short entry about it by BM25 and coverage alone. Body
    /// lengths are field norms, which the body clauses read anyway.
    fn damp_long_pages(
        &self,
        ranked: &mut [(Candidate, Matches)],
        alpha: f32,
    ) -> Result<(), SearchError> {
        let field = self.kb.text[F_BODY];
        let docs = self.searcher.num_docs().max(1) as f32;
        let mut tokens = 0u64;
        for reader in self.searcher.segment_readers() {
            tokens += reader.inverted_index(field)?.total_num_tokens();
        }
        let long = (tokens as f32 / docs).max(1.0) * LONG_PAGE;
        // One field-norm reader per segment, not per hit.
        let norms = self
            .searcher
            .segment_readers()
            .iter()
            .map(|r| r.get_fieldnorms_reader(field))
            .collect::<Result<Vec<_>, _>>()?;
        for (h, _) in ranked.iter_mut() {
            let Some(norms) = norms.get(h.1.segment_ord as usize) else {
                continue;
            };
            let len = norms.fieldnorm(h.1.doc_id) as f32;
            if len > long {
                h.0 *= (long / len).powf(alpha);
            }
        }
        Ok(())
    }

    /// The results of `scored`: reads the documents of its hits (the hits asked for, at least
    /// FINISH_DEPTH), reorders them, then keeps the hits asked for.
    pub(crate) fn finish(
        &self,
        built: &BuiltQuery,
        scored: &Scored,
        opts: &SearchOptions,
    ) -> Result<SearchResults, SearchError> {
        let Scored { hits, matches } = scored;
        // Every shown document is read even after one fails, so a lazily loaded index learns
        // all the blocks it lacks in one round.
        let mut failed: Option<tantivy::TantivyError> = None;
        let docs: Vec<TantivyDocument> = hits
            .iter()
            .filter_map(|h| match self.searcher.doc::<TantivyDocument>(h.1) {
                Ok(d) => Some(d),
                Err(e) => {
                    failed.get_or_insert(e);
                    None
                }
            })
            .collect();
        if let Some(e) = failed {
            return Err(e.into());
        }
        // A hit whose error text the query repeats up to a point and then goes on differently
        // (`Long cannot be cast to Integer` against `Integer cannot be cast to Long`) is the
        // same message template with another outcome: its score is multiplied by
        // `diverge_penalty`, and it moves below the hits shown with it.
        let penalty = opts.tuning.diverge_penalty.clamp(0.0, 1.0);
        let cover_weight = if built.plain_words {
            0.0
        } else {
            opts.tuning.sig_cover_weight.clamp(0.0, 1.0)
        };
        // Typed words that name a connector: its entries move up among the hits shown, by a
        // factor that does not depend on how common the name is in the book (see
        // `connector_hit_boost`).
        let named_boost = if opts.tuning.connector_mentions
            && built.plain_words
            && !built.named_connectors.is_empty()
        {
            1.0 + opts.tuning.connector_hit_boost.max(0.0)
        } else {
            1.0
        };
        let symptom_weight = if built.plain_words {
            opts.tuning.symptom_weight.max(0.0)
        } else {
            0.0
        };
        let pasted: HashSet<&str> = if cover_weight > 0.0 {
            built
                .sig_lines
                .iter()
                .flatten()
                .map(String::as_str)
                .collect()
        } else {
            HashSet::new()
        };
        let mut shown: Vec<Shown<'_>> = hits
            .iter()
            .zip(docs)
            .zip(matches)
            .map(|((&(score, _), doc), m)| {
                // Each error text is analysed once, for both checks.
                let errors = error_tokens(
                    &self.error_texts(&doc),
                    opts.tuning.sentence_ends,
                    opts.tuning.min_error_run,
                );
                let overlap = error_overlap(&errors, &built.sig_lines);
                // Only a different outcome after the run: a different word before it may be a
                // value (`… at SourceInfo [… databaseName=null], but this is no longer …`).
                let demoted = overlap.run >= opts.tuning.min_error_run && overlap.after;
                let mut score = if demoted { score * penalty } else { score };
                if cover_weight > 0.0 {
                    let share = sig_share(built, m);
                    let cover = error_cover(&errors, &pasted);
                    score *= 1.0 - cover_weight * share * (1.0 - cover);
                }
                if named_boost > 1.0 && self.is_of_named_connector(&doc, built) {
                    score *= named_boost;
                }
                let symptom_match = if symptom_weight > 0.0 {
                    self.symptom_match(&doc, built).0
                } else {
                    0.0
                };
                score *= symptom_factor(symptom_match, &opts.tuning);
                Shown {
                    score,
                    symptom_match,
                    doc,
                    matches: m,
                    errors,
                    overlap,
                }
            })
            .collect();
        // Stable: equal scores keep the ranked order. The first FINISH_DEPTH hits and the
        // rest are reordered apart, so the number asked for never changes the first ones.
        sort_apart(&mut shown, FINISH_DEPTH, |s| s.score);
        let signals = self.signals(built, &shown, &opts.tuning);
        let confident = !shown.is_empty() && is_confident(&signals, &opts.tuning);
        // Entries that do not affect the reader's version stay listed, below the rest, in
        // the same order within both groups (the sort is stable), before the list is cut: the
        // number asked for changes neither the first hit nor the verdict.
        let best = shown
            .first()
            .map(|s| first_text(&s.doc, self.kb.id).unwrap_or(""));
        let best = best.map(str::to_string);
        let mut versioned = Vec::with_capacity(shown.len());
        for s in shown {
            let (version_match, fixed_in) = match &opts.version {
                Some((product, version)) => {
                    let specs = first_text(&s.doc, self.kb.versions).unwrap_or("[]");
                    let (m, fixed) = match_stored_specs(specs, product, version)?;
                    (Some(m), fixed)
                }
                None => (None, None),
            };
            versioned.push((s, version_match, fixed_in));
        }
        versioned.sort_by_key(|(_, m, _)| m.is_some_and(|m| !m.applies()));
        // The best match moved down is still shown, last, when the list is too short to
        // reach it (the search box's few): moved down, never hidden.
        let limit = shown_limit(opts);
        let best_at = versioned
            .iter()
            .position(|(s, _, _)| best.as_deref() == first_text(&s.doc, self.kb.id));
        if let Some(at) = best_at.filter(|&at| at >= limit && limit >= 2) {
            let moved = versioned.remove(at);
            versioned.truncate(limit - 1);
            versioned.push(moved);
        }
        versioned.truncate(limit);
        let mut out = Vec::with_capacity(versioned.len());
        for (
            Shown {
                score,
                doc,
                matches: m,
                symptom_match,
                ..
            },
            version_match,
            fixed_in,
        ) in versioned
        {
            let body = first_text(&doc, self.kb.text[F_BODY]).unwrap_or("");
            out.push(Hit {
                id: first_text(&doc, self.kb.id).unwrap_or("").to_string(),
                url: first_text(&doc, self.kb.url).unwrap_or("").to_string(),
                title: first_text(&doc, self.kb.text[crate::schema::F_TITLE])
                    .unwrap_or("")
                    .to_string(),
                connector: first_text(&doc, self.kb.connector)
                    .unwrap_or("")
                    .to_string(),
                kind: first_text(&doc, self.kb.kind).unwrap_or("").to_string(),
                score,
                matched_error: best_error(&self.error_texts(&doc), built),
                snippet: snippet(
                    body,
                    &first_text(&doc, self.kb.anchors)
                        .unwrap_or("")
                        .split('\n')
                        .collect::<Vec<_>>(),
                    &built.field_terms[F_BODY],
                    Analyzer::Prose,
                ),
                version_match,
                fixed_in,
                explain: opts.explain.then(|| {
                    let mut text = explain_text(built, score, m);
                    // The line is looked up again: explain is rare, the search is not.
                    if let (true, Some(line)) =
                        (symptom_match > 0.0, self.symptom_match(&doc, built).1)
                    {
                        let factor = symptom_factor(symptom_match, &opts.tuning);
                        text.push_str(&format!("  × {factor:.3}  symptom line  {line}\n"));
                    }
                    text
                }),
            });
        }
        // Confidence speaks of the first hit: when the reader's version moved the best match
        // down, the entry now first is not the one it was decided on.
        let moved = confident && out.first().map(|h| &h.id) != best.as_ref();
        Ok(SearchResults {
            hits: out,
            confident: confident && !moved,
            best_other_version: if moved { best } else { None },
            signals,
        })
    }

    /// The largest share of the query's words (by idf) that one symptom line of `doc` holds,
    /// and that line (the first of equals; see `Tuning::symptom_weight`).
    fn symptom_match<'d>(
        &self,
        doc: &'d TantivyDocument,
        built: &BuiltQuery,
    ) -> (f32, Option<&'d str>) {
        let total: f32 = built.symptom_terms.values().sum();
        let mut best: (f32, Option<&'d str>) = (0.0, None);
        if total <= 0.0 {
            return best;
        }
        for line in doc.get_all(self.kb.symptoms).filter_map(|v| v.as_str()) {
            let words: HashSet<String> = analyze(line, TEXT_FIELDS[F_TAGS].analyzer)
                .into_iter()
                .map(|t| t.text)
                .collect();
            let held: f32 = built
                .symptom_terms
                .iter()
                .filter(|(t, _)| words.contains(*t))
                .map(|(_, w)| w)
                .sum();
            if held / total > best.0 {
                best = (held / total, Some(line));
            }
        }
        best
    }

    /// A stored document's documented error texts.
    fn error_texts<'d>(&self, doc: &'d TantivyDocument) -> Vec<&'d str> {
        doc.get_all(self.kb.text[F_SIG])
            .filter_map(|v| v.as_str())
            .collect()
    }

    /// For each hit, which clauses matched and what they contributed.
    fn clause_matches(
        &self,
        built: &BuiltQuery,
        addrs: &[DocAddress],
    ) -> Result<Vec<Matches>, SearchError> {
        let mut out: Vec<Matches> = vec![Vec::new(); addrs.len()];
        if addrs.is_empty() {
            return Ok(out);
        }
        // Visit hits in doc order per segment: scorers only move forward.
        let mut order: Vec<usize> = (0..addrs.len()).collect();
        order.sort_by_key(|&i| (addrs[i].segment_ord, addrs[i].doc_id));
        let scoring = EnableScoring::enabled_from_searcher(&self.searcher);
        for (ci, clause) in built.clauses.iter().enumerate() {
            let weight = clause.query.weight(scoring)?;
            let mut current: Option<(u32, Box<dyn tantivy::query::Scorer>)> = None;
            for &hi in &order {
                let addr = addrs[hi];
                if current
                    .as_ref()
                    .is_none_or(|(seg, _)| *seg != addr.segment_ord)
                {
                    let reader = self.searcher.segment_reader(addr.segment_ord);
                    current = Some((addr.segment_ord, weight.scorer(reader, 1.0)?));
                }
                if let Some((_, scorer)) = current.as_mut()
                    && matches_doc(scorer.as_mut(), addr.doc_id)
                {
                    out[hi].push((ci, scorer.score()));
                }
            }
        }
        Ok(out)
    }
}

/// A shown hit with its document, the clauses it matched, its error texts' signature tokens
/// and how the query overlaps them.
struct Shown<'a> {
    score: f32,
    /// See [`Signals::symptom_match`] (0 when the part is off or the query is pasted).
    symptom_match: f32,
    doc: TantivyDocument,
    matches: &'a Matches,
    errors: Vec<Vec<String>>,
    overlap: Overlap,
}

/// Sorts `items` by descending `score`, the first `at` of them and the rest apart (stable:
/// equal scores keep their order), so that what follows the first `at` never moves into them.
fn sort_apart<T>(items: &mut [T], at: usize, score: impl Fn(&T) -> f32) {
    let (first, rest) = items.split_at_mut(at.min(items.len()));
    first.sort_by(|a, b| score(b).total_cmp(&score(a)));
    rest.sort_by(|a, b| score(b).total_cmp(&score(a)));
}

/// The factor a symptom match gives a shown hit's score (see `Tuning::symptom_weight`).
fn symptom_factor(symptom_match: f32, tuning: &crate::Tuning) -> f32 {
    1.0 + tuning.symptom_weight.max(0.0) * symptom_match
}

/// The number of hits `opts` asks for.
fn shown_limit(opts: &SearchOptions) -> usize {
    match opts.limit {
        0 => DEFAULT_LIMIT,
        l => l.min(MAX_LIMIT),
    }
}

/// [`Signals::margin`] when there is no second hit.
const MARGIN_ALONE: f32 = 100.0;

fn matches_doc(scorer: &mut dyn tantivy::query::Scorer, doc: DocId) -> bool {
    let cur = scorer.doc();
    if cur > doc {
        return false;
    }
    cur == doc || scorer.seek(doc) == doc
}

fn first_text(doc: &TantivyDocument, field: tantivy::schema::Field) -> Option<&str> {
    doc.get_first(field).and_then(|v| v.as_str())
}
