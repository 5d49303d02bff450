//! The ranking switches and constants.

use crate::schema::TEXT_FIELDS;

/// Ranking switches and constants. Defaults are the shipped ranking; switching a part off is
/// for ablations (`kbook eval`) and debugging.
#[derive(Debug, Clone)]
pub struct Tuning {
    /// The baseline: plain BM25, every query word OR-ed over title and body with the prose
    /// analyzer, no other part (see [`Tuning::plain_bm25`]).
    pub plain_bm25: bool,
    /// Read the text as printed (`decoration::as_printed`: decorations off, JSON lines by
    /// their values) and classify paste lines (messages, frames, prefixes); off: the text as
    /// given, every line weighing 1.
    pub paste_splitting: bool,
    /// Keep only the `max_terms` most informative query words (weight × idf).
    pub rarity_cut: bool,
    /// Phrase clauses for adjacent pairs of the root-cause line.
    pub phrase_pairs: bool,
    /// One-edit fuzzy matching for unknown words of 5+ letters in typed words (a question,
    /// keywords) and in short queries: readers mistype; copied text has no typing errors.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub typo_tolerance: bool,
    /// Drop function and question words (`how`, `the`, `does`) from the term clauses.
    pub stopwords: bool,
    /// Score each query word by its best field (plus `field_tie` of the others) instead of
    /// summing every field it matches: a word found in five fields is still one word.
    pub field_dismax: bool,
    /// Score a word with one idf in every field (its largest document frequency over fields).
    pub shared_idf: bool,
    /// How much of the shared idf replaces a field's own idf (0: none, 1: all).
    pub shared_idf_mix: f32,
    /// Lower the signature boost to `plain_sig_boost` for typed words (see `is_plain_words`),
    /// and weigh a pasted text's words in tags by `paste_tags_factor`.
    pub query_intent: bool,
    /// Signature boost for typed-word queries.
    pub plain_sig_boost: f32,
    /// Factor of the tags boost for the words of a paste (not for a connector's name): tags
    /// hold the readers' words for a problem, evidence for a question but not for a machine's text;
    /// a connector's name in every entry's tags still says which entries a paste is about.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub paste_tags_factor: f32,
    /// Rerank the first candidates by the share of the query's informative words they match.
    pub coverage_rerank: bool,
    /// Share of a word's other field scores added to its best field score (with `field_dismax`).
    pub field_tie: f32,
    /// Weight of coverage in the rerank: score × (1 − w + w × coverage).
    pub coverage_weight: f32,
    /// Coverage counts a word the hit has only in its body or code by the hit's score for it
    /// against the best candidate's, not matched-or-not: a long page that mentions every word once
    /// no longer covers more than a short entry about the question.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub soft_coverage: bool,
    /// ... a word counts fully from this share of the best candidate's score for it.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub soft_coverage_share: f32,
    /// Exponent of the long-page damping in the rerank: a hit whose body is more than three
    /// times the book's average length scores × (three times the average / its length)^this, so
    /// long reference pages do not bury short answers. 0: off.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub long_page_damping: f32,
    /// Per-field boosts, in schema order (sig, ids, title, tags, body, code).
    pub field_boosts: [f32; 6],
    /// Weight of a stack-frame line relative to a message line: frames tell a generic message
    /// (`Java heap space`) apart; common frame words weigh little by their frequency.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub frame_weight: f32,
    /// Weight of other (context) lines.
    pub other_weight: f32,
    /// Tell the reader's prose (CJK, or English in which the reader speaks) around a pasted
    /// error from the paste ([`crate::paste::LineRole::Prose`]): its words weigh
    /// `prose_weight` and do not count against the share of the query's words the book knows
    /// (confidence).
    pub reader_prose: bool,
    /// Also take as typed words (see `is_plain_words`) lines of the reader's prose or plain
    /// sentences with a question's punctuation (parentheses, quotes, emphasis), not only lines
    /// without any; not `:`, which messages print.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub punctuated_questions: bool,
    /// Weight of the reader's prose lines around a paste: a lead-in in the reader's words should
    /// not pull the paste away from its entry.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub prose_weight: f32,
    /// Weight of the leading exception classes of a line that goes on with a message
    /// (`java.sql.BatchUpdateException: <message>`), relative to the message's words.
    pub wrapper_weight: f32,
    /// Number of distinct query words kept by the rarity cut.
    pub max_terms: usize,
    /// Boost of a root-cause phrase pair relative to its field boost: enough to help questions,
    /// little enough that one shared adjacent word pair does not decide.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub pair_boost: f32,
    /// Phrase pairs skip a word whose positions take more than this many bytes (0: no limit):
    /// it bounds what a search loads for the frequent words of large books (no word of the bundled
    /// book reaches it).
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub pair_positions_budget: usize,
    /// Boost of a quoted phrase relative to its field boost.
    pub quoted_boost: f32,
    /// Confidence: the query repeats at least this many consecutive tokens of one of the
    /// first hit's error texts ...
    pub min_error_run: usize,
    /// ... covering at least this share of that error text ...
    pub min_error_share: f32,
    /// ... and at least this share of the query's words occur in the book. Only a documented
    /// error repeated verbatim reliably makes the first hit right; score floors, margins do not.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub min_known_share: f32,
    /// ... and, when the query is one line that is not a log record, the run repeated makes up
    /// at least this share of its signature tokens (its message part): a question quoting an
    /// error asks about more than the error; a log record's message is the system's. 0: off.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub min_error_query_share: f32,
    /// Score factor of a shown hit whose error text the query repeats for `min_error_run`
    /// tokens and then goes on differently (same template, another outcome); 1: off.
    pub diverge_penalty: f32,
    /// In a paste, a shown hit's score × (1 − w × s × (1 − c)): s its score's share from
    /// signature clauses, c the largest share of one of its error texts' words in the paste's
    /// message lines. One error-text word (`driver`) is weak evidence; the error repeated is
    /// strong. 0: off.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub sig_cover_weight: f32,
    /// ... and the query does not go on differently where the error text goes on (see
    /// [`crate::Signals::error_diverges`]).
    pub no_divergence: bool,
    /// In those runs, a sentence end of one text is not crossed where the other goes on in the
    /// same sentence, since the analyzers drop punctuation (see `analysis::analyze_sentences`); a
    /// run may go on past a mark both texts have, which counts as no word.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub sentence_ends: bool,
    /// Also confident: a one-line query whose informative words the first hit covers
    /// (`min_word_coverage`), nearly all of them words of the book (`min_word_known_share`), with
    /// the first score `min_word_margin` times the second: queries in the entries' own words.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub word_confidence: bool,
    /// See `word_confidence`.
    pub min_word_coverage: f32,
    /// See `word_confidence`.
    pub min_word_known_share: f32,
    /// See `word_confidence`.
    pub min_word_margin: f32,
    /// In the known share both rules read, a CJK bigram that joins two known words (the seam
    /// overlapping bigrams read between two Chinese words) is not counted as a word the book
    /// lacks.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub cjk_seams: bool,
    /// In that known share, values the reader's system printed that the book lacks are not
    /// counted, as decimal numbers are not: hexadecimal values, addresses and numbered names
    /// (`consumer-1`) are the reader's data, which no book holds.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub printed_values: bool,
    /// In that known share, the weight of a CJK bigram against a word of a spaced script:
    /// overlapping bigrams read about two tokens per Chinese word, so in a line that mixes the
    /// scripts the Chinese part counted twice; a text in one script keeps its share.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub cjk_bigram_weight: f32,
    /// In that known share, words found only in frames of the Java runtime's own code (`java.`,
    /// `javax.`, `jdk.`, `sun.`, `com.sun.`) do not count: every Java trace passes through them,
    /// while the program's own frames (`com.xxl.job…`) still do.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub runtime_frames: bool,
    /// Either way, the query names no connector of the book, or the first hit's connector
    /// (see [`crate::Signals::other_connector`]).
    pub connector_agreement: bool,
    /// ... where an entry of a section for every connector (book.toml `cross-connector`:
    /// failover, drivers) agrees with any connector named, and such a section's slug names none
    /// (`General error`).
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub cross_connector: bool,
    /// ... and, when the query repeats one of the first hit's generic error texts (a message
    /// the JVM, the OS or Flink's runtime prints for many causes, front-matter
    /// `generic: true`), the query names the hit's connector.
    pub generic_errors: bool,
    /// The parts of one identifier segment (`MongoDB` → mongo, db, mongodb) share one per-word
    /// field dismax: one word of the query, one word's evidence (otherwise a page titled `MongoDB`
    /// gets that word three times).
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub part_groups: bool,
    /// Weigh words naming one of the book's connectors (`datahub`) by `connector_weight`, shared
    /// among the connectors named, and raise their entries by `connector_hit_boost`: a question
    /// about one connector is rarely answered by another's entry. Not matched in the signature
    /// field: an error text naming the connector is no likelier the answer.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub connector_mentions: bool,
    /// Write a connector's slug after each run of the query's text holding one of its aliases as
    /// a word (book.toml `aliases`: `hoodie` for Hudi), so the alias names the connector as its
    /// slug does; only the query words read that text. The pairs come from the index (`alias_of`).
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub alias_slugs: bool,
    /// Typed words (a question, keywords) also search the book's spelling of a compound
    /// (`fail over` → `failover`, `bulkindexer` → `bulk indexer`), from its own titles and
    /// bodies. Pastes are left as printed: joining their words misreads them.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub compounds: bool,
    /// Weight multiplier of a connector-naming word (see `connector_mentions`); a query that
    /// names n connectors gives each 1 + (w − 1) / n.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub connector_weight: f32,
    /// With `connector_mentions`: typed words naming a connector raise that connector's shown
    /// hits × (1 + this); unlike the name's BM25 score (`connector_weight`) it does not shrink as
    /// the name grows common. Pastes are left out: a trace names connectors in its packages.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub connector_hit_boost: f32,
    /// Typed words: a shown hit's score × (1 + this × m), m the largest idf share of the query's
    /// words that one of its symptom lines (front-matter `symptoms`) holds: a reader's question
    /// matches one line, where BM25 over all lines rewards scattered words; the margin confidence
    /// reads is taken before this factor. 0: off.
    /// Measured: bench/results/relevance-real-users.md, "Constants".
    pub symptom_weight: f32,
    /// In a short query, the last word is also matched as a prefix when nothing follows it
    /// (search as you type: `kafka offs` finds "offsets").
    pub prefix_last_word: bool,
    /// Boost of a prefix clause relative to its field boost (prefix clauses score a constant).
    pub prefix_boost: f32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            plain_bm25: false,
            paste_splitting: true,
            rarity_cut: true,
            phrase_pairs: true,
            typo_tolerance: true,
            stopwords: true,
            field_dismax: true,
            shared_idf: true,
            shared_idf_mix: 0.5,
            query_intent: true,
            plain_sig_boost: 1.5,
            paste_tags_factor: 0.5,
            coverage_rerank: true,
            field_tie: 0.3,
            coverage_weight: 0.5,
            soft_coverage: true,
            soft_coverage_share: 0.5,
            long_page_damping: 0.25,
            field_boosts: TEXT_FIELDS.map(|f| f.boost),
            frame_weight: 1.0,
            other_weight: 0.6,
            reader_prose: true,
            punctuated_questions: true,
            prose_weight: 0.3,
            wrapper_weight: 0.35,
            max_terms: 64,
            pair_boost: 0.2,
            pair_positions_budget: 16 * 1024,
            quoted_boost: 2.0,
            min_error_run: 4,
            min_error_share: 0.5,
            min_known_share: 0.7,
            min_error_query_share: 0.2,
            no_divergence: true,
            diverge_penalty: 0.5,
            sig_cover_weight: 0.65,
            connector_agreement: true,
            cross_connector: true,
            generic_errors: true,
            part_groups: true,
            word_confidence: true,
            min_word_coverage: 0.8,
            min_word_known_share: 0.9,
            min_word_margin: 1.8,
            cjk_seams: true,
            printed_values: true,
            sentence_ends: true,
            cjk_bigram_weight: 0.5,
            runtime_frames: true,
            connector_mentions: true,
            alias_slugs: true,
            compounds: true,
            connector_weight: 4.0,
            connector_hit_boost: 0.5,
            symptom_weight: 2.0,
            prefix_last_word: true,
            prefix_boost: 2.0,
        }
    }
}

impl Tuning {
    /// Whether the rerank damps long pages (it runs within the coverage rerank); the lazy
    /// planner loads the body norms it reads when so.
    pub(crate) fn damps_long_pages(&self) -> bool {
        self.coverage_rerank && self.long_page_damping > 0.0
    }

    /// Plain BM25 over title and body: the baseline every ranking part must beat on real
    /// users' queries. It has no notion of confidence: every non-empty result is "confident".
    pub fn plain_bm25() -> Tuning {
        Tuning {
            plain_bm25: true,
            coverage_rerank: false,
            diverge_penalty: 1.0,
            sig_cover_weight: 0.0,
            connector_hit_boost: 0.0,
            symptom_weight: 0.0,
            ..Tuning::default()
        }
    }
}
