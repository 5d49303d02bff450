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
    /// keywords) and in short queries. Copied text has no typing errors, so the real-world
    /// sets cannot show it: measured on the curated English keywords and questions with one
    /// edit in every word of six or more letters (`bench/typo-queries.mjs`, 154 queries),
    /// top-1 0.734 off, 0.766 for queries of up to six words only, 0.831 for all typed
    /// words (questions 0.734 → 0.817); with 5,000 distractors 0.727 / 0.760 / 0.779. Every
    /// labelled set unchanged. Cost at 5,000 entries (box search of the misspelt set): first
    /// search 463 → 502 KB, later searches 17.3 → 17.6 KB mean, 15 → 18 ms median.
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
    /// hold the readers' words for a problem (`symptoms`), evidence for a question but not for
    /// a machine's text. Measured with the entries' symptoms grown to cover each documented
    /// cause (1 → 0.5, top-1): machine texts 0.942 → 0.951, real users' set 0.757 → 0.786,
    /// curated 0.989 both (confident rate 0.603 → 0.598); 0.25 the same as 0.5; unchanged on
    /// the imported Flink CDC book's machine texts and with 5,000 distractors. A connector's
    /// name stands in every entry's tags and says which entries a paste is about.
    pub paste_tags_factor: f32,
    /// Rerank the first candidates by the share of the query's informative words they match.
    pub coverage_rerank: bool,
    /// Share of a word's other field scores added to its best field score (with `field_dismax`).
    pub field_tie: f32,
    /// Weight of coverage in the rerank: score × (1 − w + w × coverage).
    pub coverage_weight: f32,
    /// Coverage counts a word the hit has only in its body or code by the hit's score for
    /// it against the best candidate's, not matched-or-not: a long page that mentions every
    /// word once no longer covers more than a short entry about the question. Measured
    /// (top-1, off → on): the bundled book's sets and the distractor runs unchanged; the
    /// Flink CDC FAQ imported with `kbook import` (a book written by others, with long
    /// connector pages beside the questions), real users' queries: English 0.581 → 0.613,
    /// Chinese 0.618 → 0.676, confident precision 0.875 → 1.0.
    pub soft_coverage: bool,
    /// ... a word counts fully from this share of the best candidate's score for it.
    /// Plateau 0.4–0.5; 0.6 and up lose a machine text of the bundled book, 0.25 and down
    /// lose the gain on the imported book.
    pub soft_coverage_share: f32,
    /// Exponent of the long-page damping in the rerank: a hit whose body is more than three
    /// times the book's average length scores × (three times the average / its length)^this.
    /// 0: off. Measured (top-1, off → 0.25): the bundled book's sets, the distractor runs and
    /// the Chinese book unchanged; the imported Flink CDC FAQ (connector reference pages
    /// tens of times longer than its questions) 0.613 → 0.645 (English), 0.676 → 0.706
    /// (Chinese); the same book with its FAQ kept as one long page (as `kbook index` reads a
    /// site), where that page is the answer, unchanged (0.516). 0.2–0.3 give the same; 0.5
    /// lost that page a query and two of its recall@5, 0.1 loses the English gain. Damping
    /// every page longer than the average (not three times it) lost a query on every set
    /// of the bundled book even at 0.1.
    pub long_page_damping: f32,
    /// Per-field boosts, in schema order (sig, ids, title, tags, body, code).
    pub field_boosts: [f32; 6],
    /// Weight of a stack-frame line relative to a message line. Measured (top-1): 0.15 → 0.25–0.5
    /// changed nothing on the bundled book and took machine texts with 5,000 distractors from
    /// 0.903 to 0.935 (frames name the classes that tell a connector's entries from the
    /// distractors' word soup); 0.1 lost one machine text. 0.3 → 1 on 142 machine texts (46
    /// of them new): 0.901 → 0.923, with distractors 0.912 → 0.934, the imported Flink CDC
    /// book 0.645 → 0.677, nothing lost (recall@5 0.989 → 0.978: a trace of another tool's
    /// frames ranks its entry 6th). A generic message (`Communications link failure`, `Java
    /// heap space`) is told apart by the frames (`negotiateSSLConnection`,
    /// `NetworkReceive.readFrom`); common frame words weigh little by their frequency. Flat
    /// from 0.8 to 1.5.
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
    /// without any. Measured (off → on): real users' set recall@5 0.957 → 0.971, top-1 0.814
    /// both; with 5,000 distractors top-1 0.700 → 0.743; the other sets unchanged. Letting `:`
    /// in too lost a question (top-1 0.814 → 0.800): messages print it.
    pub punctuated_questions: bool,
    /// Weight of the reader's prose lines around a paste. Measured on the machine texts of
    /// tests/realworld.jsonl with a reader's CJK lead-in line added (three lead-ins, 94
    /// queries each): top-1 0.851 / 0.926 / 0.936 without the part, 0.894 / 0.936 / 0.936
    /// at 0.6 (the weight of context lines), 0.936 for all three at 0.3 (as without a
    /// lead-in); the real-world sets, the curated set and the distractor runs unchanged.
    pub prose_weight: f32,
    /// Weight of the leading exception classes of a line that goes on with a message
    /// (`java.sql.BatchUpdateException: <message>`), relative to the message's words.
    pub wrapper_weight: f32,
    /// Number of distinct query words kept by the rarity cut.
    pub max_terms: usize,
    /// Boost of a root-cause phrase pair relative to its field boost. Measured on real users'
    /// queries: 0.2–0.3 is a plateau (0.2 one paste better with the sourced error texts);
    /// 0.5 lost pastes to entries that share one adjacent word pair with them, 0.1 loses
    /// questions.
    pub pair_boost: f32,
    /// Phrase pairs skip a word whose positions take more than this many bytes (0: no
    /// limit). Only frequent words of large books reach it (no word of the bundled book
    /// does). With 10,000 synthetic entries and pasted errors, in the shipped 16 KiB blocks, 16
    /// KB took later searches from 60 KB mean / 532 KB max to 45 / 332 KB; with 5,000 distractors top-1 stayed the same on
    /// every query set (one curated query left the top 5).
    pub pair_positions_budget: usize,
    /// Boost of a quoted phrase relative to its field boost.
    pub quoted_boost: f32,
    /// Confidence: the query repeats at least this many consecutive tokens of one of the
    /// first hit's error texts ...
    pub min_error_run: usize,
    /// ... covering at least this share of that error text ...
    pub min_error_share: f32,
    /// ... and at least this share of the query's words occur in the book. Measured on real
    /// users' queries, only a documented error repeated verbatim made the first hit right
    /// ≥ 95% of the time; score floors, coverage and margins did not.
    pub min_known_share: f32,
    /// ... and, when the query is one line that is not a log record, the run repeated makes
    /// up at least this share of its signature tokens (its message part). A log record's
    /// message is the system's line, not a sentence around an error (exempted when measured:
    /// machine texts rate 0.429 → 0.435, precision 0.867 → 0.868; the same texts in a whole
    /// log 0.413 → 0.435, where a record that had another after it is left alone). A long
    /// question quoting an error asks about more than the error: on realworld-dev a question
    /// that quotes an entry's error and says it already applied the entry's fix (share 0.14)
    /// was the one wrong confident answer; confident precision 0.933 → 1.000, abstain 0.984
    /// → 1.000 (with 5,000 distractors precision 0.875 → 0.933); no other answer on any set
    /// changed its confidence. 0.15 the same; the lowest share of a right confident one-line
    /// answer is 0.217 (a pasted Hive error line), so 0.25 loses it; 0.3 also withholds a
    /// wrong answer to a MongoDB JSON log line (machine texts precision 0.974 → 1.000) and a
    /// right curated one. 0: off.
    pub min_error_query_share: f32,
    /// Score factor of a shown hit whose error text the query repeats for `min_error_run`
    /// tokens and then goes on differently (same template, another outcome); 1: off.
    pub diverge_penalty: f32,
    /// In a paste, a shown hit's signature matches count by how much of its error text the
    /// paste repeats: its score × (1 − w × s × (1 − c)), with s the share of its score from
    /// signature clauses and c the largest share of one of its error texts' words found in
    /// the paste's message lines. One word of an error text (`driver`) is weak evidence; the
    /// error repeated is strong. 0: off. Measured (top-1, w = 0 → 0.5, with the shipped
    /// code and frame weights): bundled book curated 0.984 → 0.989, real users' sets
    /// unchanged; with 5,000 distractors curated 0.963 → 0.968, machine texts 0.903 → 0.935,
    /// real users' set 0.557 → 0.571. Re-measured with symptom lines (0.5 → 0.65): machine
    /// texts 0.942 → 0.951 (a librdkafka `Broker transport failure … Connection refused` had
    /// lost to the entry whose two error texts hold `connection` and `failure`), every other
    /// set the same, distractor runs included; 0.6–0.7 the same; 0.75 loses a machine text
    /// with distractors, 1.0 three.
    pub sig_cover_weight: f32,
    /// ... and the query does not go on differently where the error text goes on (see
    /// [`crate::Signals::error_diverges`]).
    pub no_divergence: bool,
    /// In those runs, a sentence end of one text is not crossed where the other text goes on
    /// in the same sentence: the analyzers drop punctuation, so MySQL's `Out of range value
    /// for column 'a'` repeated four words of `Value out of range. Value: …` (`out of range
    /// value`, four of five). Both texts' sentence ends are marked (see
    /// `analysis::analyze_sentences`); a run may go on past a mark both have, which
    /// counts as no word. Measured (off → on, abstain / confident precision / rate): machine
    /// texts 0.944 / 0.862 / 0.540 → 0.946 / 0.866 / 0.540 (that near miss); every other set
    /// unchanged, rankings included.
    pub sentence_ends: bool,
    /// Also confident: a one-line query whose informative words the first hit covers
    /// (`min_word_coverage`), nearly all of them words of the book (`min_word_known_share`),
    /// with the first score `min_word_margin` times the second. Measured when added: on real
    /// users' questions and pastes it changed no answer's confidence (their words are not the
    /// entries'; since then, over every real users' set, it answers 11 confidently, 8 rightly);
    /// on queries written from the entries it made 0.169 → 0.598 of them confident
    /// (bundled book; 0.169 → 0.566 with 5,000 distractors, Chinese book 0.138 → 0.492), all
    /// right. A margin of 1.3 or 1.5 made a wrong answer confident (real users' questions,
    /// curated set with distractors).
    pub word_confidence: bool,
    /// See `word_confidence`.
    pub min_word_coverage: f32,
    /// See `word_confidence`.
    pub min_word_known_share: f32,
    /// See `word_confidence`.
    pub min_word_margin: f32,
    /// In the known share both rules read, a CJK bigram that joins two known words (the
    /// seam overlapping bigrams read between two Chinese words) is not counted as a word the
    /// book lacks. Measured (off → on, confident rate): the Chinese fixture book 0.492 →
    /// 0.508; 60 Chinese queries written fresh for the bundled book 0.283 → 0.317 (with
    /// 5,000 distractors, all 120 of that set 0.367 → 0.375); all right. Every real users'
    /// set, the curated set and the Flink CDC books unchanged.
    pub cjk_seams: bool,
    /// In that known share, values the reader's system printed that the book lacks are not
    /// counted, as decimal numbers are not: values in hexadecimal (byte escapes such as
    /// `\xF0\x9F`, hash and id segments such as `4a045a11`), addresses (URLs, absolute
    /// paths, IPv4 addresses, a host with its port) and numbered names (`consumer-1`,
    /// `__consumer_offsets-13`). They are the reader's data, which no book holds. Measured
    /// (off → on, confident rate / precision): machine texts 0.353 / 0.853 → 0.408 / 0.860
    /// without numbered names and with CJK bigrams weighing 1.0 (ten right, one near miss);
    /// with both, 0.359 / 0.855 → 0.429 / 0.867; realworld-dev 0.214 → 0.229 (all right),
    /// Flink CDC zh 0.302 / 0.812 → 0.326 / 0.824; the curated set and the Chinese fixture
    /// book unchanged. Numbered names waited until a whole log was read by its last burst of
    /// trouble (see `long_log`): before, its start-up warnings kept the texts they gained
    /// under 0.9 of their rate logged alone (0.380 against 0.424; now 0.413 against 0.429).
    pub printed_values: bool,
    /// In that known share, the weight of a CJK bigram against a word of a spaced script
    /// (`flink`, `exception`). Overlapping bigrams read a run of n Han characters as n - 1
    /// tokens, about two per Chinese word, so in a line that mixes the scripts (a Chinese
    /// tool's message around a JDBC error, a question with English names in it) the Chinese
    /// part counted twice. 0.5 counts it once (a run of one two-character word, one bigram,
    /// then counts half: a shorter run than most); a text in one script keeps its share.
    /// Measured (1.0 → 0.5, confident rate, all gains right): the Chinese fixture book 0.508 →
    /// 0.538, machine texts 0.408 → 0.413 (precision 0.860 → 0.862); realworld-dev, the
    /// curated set and the Flink CDC books unchanged. 0.35: fixture book 0.554, the rest the
    /// same as 0.5 (not taken: below one per word the unknown Chinese words a question holds
    /// count for less than unknown English words).
    pub cjk_bigram_weight: f32,
    /// In that known share, words found only in frames of the Java runtime's own code
    /// (`java.`, `javax.`, `jdk.`, `sun.`, `com.sun.`: reflection, threads, sockets) do not
    /// count: every Java program's trace passes through them, so they say nothing about which
    /// program printed it, while the program's own frames (`com.xxl.job…`) still do. Measured
    /// (off → on, confident precision / rate): machine texts 0.894 / 0.472 → 0.890 / 0.510
    /// (traces 0.964 / 0.221 → 0.927 / 0.311: eleven right answers and two near misses more),
    /// with 5,000 distractors 0.891 / 0.462 → 0.887 / 0.497; the 25 held-out texts of Chinese
    /// users 0.889 / 0.727 → 0.900 / 0.818; realworld-dev, the curated sets and the Flink CDC
    /// books unchanged. All frames out of the share instead (measured before one more error
    /// text, against 0.893 / 0.469): 0.859 / 0.574, since a program's own frames are what
    /// tell another program's deadlock from a sink's.
    pub runtime_frames: bool,
    /// Either way, the query names no connector of the book, or the first hit's connector
    /// (see [`crate::Signals::other_connector`]).
    pub connector_agreement: bool,
    /// ... where an entry of a section for every connector (book.toml `cross-connector`:
    /// failover, drivers) agrees with any connector named, and such a section's slug names
    /// none (`General error`). Measured (off → on, abstain / confident precision / rate):
    /// machine texts 0.957 / 0.881 / 0.492 → 0.953 / 0.881 / 0.536 (14 right answers more, a
    /// missing driver or a poison pill pasted with `mysql` or `kafka` in it; 2 wrong: Kafka
    /// deserialization failures with another cause); every other set unchanged.
    pub cross_connector: bool,
    /// ... and, when the query repeats one of the first hit's generic error texts (a message
    /// the JVM, the OS or Flink's runtime prints for many causes, front-matter
    /// `generic: true`), the query names the hit's connector.
    pub generic_errors: bool,
    /// The parts of one identifier segment (`MongoDB` → mongo, db, mongodb) share one
    /// per-word field dismax: one word of the query, one word's evidence (otherwise a page
    /// titled `MongoDB` gets that word three times). Measured (top-1, off → on): real
    /// users' set 0.714 → 0.729, with 5,000 distractors 0.571 → 0.586; the other sets
    /// unchanged.
    pub part_groups: bool,
    /// Weigh words that name one of the book's connectors (`datahub`, `clickhouse`) by
    /// `connector_weight`, shared among the connectors named, and raise their entries by
    /// `connector_hit_boost`: a question about one connector is rarely answered by another's
    /// entry. Such a word is not matched in the signature field: an error text that names
    /// the connector is no likelier the answer than the connector's other entries. Measured
    /// (signature clause kept → dropped, top-1), when added: real users' set 0.786 → 0.800 (a
    /// Paimon question had gone to the one entry whose error text says "Paimon"), with 5,000
    /// distractors 0.657 → 0.671, every other set unchanged. Since two Kafka error texts
    /// naming Kafka joined the offsets entry: real users' set 0.814 → 0.800 (two Kafka
    /// offset questions lose that entry; the Paimon question keeps its answer), machine
    /// texts 0.932 → 0.942 (a pasted Kafka DNS error keeps its answer), curated sets
    /// unchanged.
    pub connector_mentions: bool,
    /// Write a connector's slug after each run of the query's text that holds one of its
    /// aliases as a word
    /// (book.toml `aliases`: `hoodie` for Hudi, `odps` for MaxCompute), so the alias names
    /// the connector as its slug does (see `connector_mentions`). Only the query words are
    /// read from that text: phrase pairs, quoted spans and the lines confidence compares
    /// keep the text as written (every set measured the same either way). The pairs are read from
    /// the index (`alias_of`), so the browser plans for them like any dictionary. Measured
    /// (off → on, top-1): machine texts 0.952 → 0.958 (a Hudi paste naming `.hoodie`, 2nd →
    /// 1st; pastes 0.945 → 0.956), real users' set with 5,000 distractors 0.786 → 0.800 (a
    /// question naming `hoodie_stream_write`, beyond the tenth → 1st; curated confident rate
    /// 0.608 → 0.614); every other set unchanged, the imported Flink CDC book (no aliases)
    /// included.
    pub alias_slugs: bool,
    /// Typed words (a question, keywords) also search the book's spelling of a compound: two
    /// adjacent words it writes as one (`fail over` → `failover`, `job manager` →
    /// `jobmanager`), a word it lacks split into two it has (`bulkindexer` → `bulk indexer`).
    /// The vocabulary is the book's own titles and bodies; pastes are left as printed (read
    /// from pastes too, `table store` in Paimon traces became `tablestore`, a connector, and
    /// `localhost` became `local host`: machine texts 0.958 → 0.946). Measured (off → on, top-1): real users' set 0.857 → 0.871, recall@5 0.971 →
    /// 0.986 (a question naming a `bulkindexer`, beyond the tenth → 1st), with 5,000
    /// distractors 0.800 → 0.814 and recall@5 0.929 → 0.943; curated confident rate 0.624 →
    /// 0.630 (with distractors 0.614 → 0.619); machine texts, the Chinese book and the
    /// imported Flink CDC books unchanged.
    pub compounds: bool,
    /// Weight multiplier of a connector-naming word (see `connector_mentions`); a query that
    /// names n connectors gives each 1 + (w − 1) / n. Measured (sharing off → on): one
    /// Chinese question about writing from Kafka into MySQL 4th → 1st (realworld-dev 0.743 →
    /// 0.757), no other query of any set moved, distractor runs included; sharing by
    /// √n moved nothing.
    pub connector_weight: f32,
    /// With `connector_mentions`: typed words (a question, keywords) that name a connector
    /// raise the scores of that connector's entries among the hits shown × (1 + this).
    /// `connector_weight` scales the name's BM25 score, which shrinks as the name grows
    /// common (a book of thousands of entries about a few connectors); this factor does not.
    /// Measured (0 → 0.5, top-1): curated with 5,000 distractors 0.963 → 0.974 (a ClickHouse
    /// question had lost to a Hologres entry; 0.1–0.2 give 0.968, 0.3–1.0 0.974); every
    /// real-world set, the curated set, the Chinese book and the imported Flink CDC book
    /// unchanged. Pastes are left out: at 0.1 a trace naming `mysql` only in a Java package
    /// lost its right answer to a MySQL entry.
    pub connector_hit_boost: f32,
    /// Typed words: a shown hit's score × (1 + this × m), with m the largest share of the
    /// query's words (by idf) that one of its symptom lines (front-matter `symptoms`) holds.
    /// A question in the reader's words matches one line of an entry's symptoms, where BM25
    /// over all the lines together also rewards words scattered over many of them. Measured
    /// (top-1, 0 → 2): real users' set 0.800 → 0.814, curated 0.989 → 0.995 (recall@5 0.995
    /// → 1.000), with 5,000 distractors 0.671 → 0.700 and 0.974 → 0.979; machine texts,
    /// the Chinese book and the imported Flink CDC book unchanged. 1 gives the real users'
    /// gain only, 3–4 the same as 2. With titles matched as lines too, a Chinese-book
    /// question went to an entry whose title shares one rare word with it. The margin
    /// confidence reads is taken before this factor: with it, a short question no entry
    /// answers became confident. 0: off.
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
