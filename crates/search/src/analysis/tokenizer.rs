//! The Tantivy adapter: each analyzer as a Tantivy tokenizer.

use super::{Analyzer, TokenSink, scanner};
use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

/// A tantivy tokenizer running one of our analyzers. Tokens are computed eagerly: fields are
/// small, and it keeps one implementation for index and query time.
#[derive(Clone)]
pub struct KbTokenizer(pub Analyzer);

/// Token stream over precomputed tokens, already in position order. Token texts live in one
/// buffer and are copied into the reused current token, so there is no allocation per token.
pub struct KbTokenStream {
    texts: String,
    tokens: Vec<StreamToken>,
    next: usize,
    current: Token,
}

/// A precomputed token; its text is `texts[text_from..text_to]`.
#[derive(Clone, Copy)]
struct StreamToken {
    from: usize,
    to: usize,
    pos: usize,
    part: bool,
    text_from: usize,
    text_to: usize,
}

/// Collects tokens in the order tantivy's postings writer needs (positions non-decreasing),
/// exactly that of a stable sort of the analysis order by `(pos, !part)`. `tokens[settled..]`
/// is still open: [`TokenSink::settle`] sorts just that short tail once no later token can sort
/// before it, which replaces one sort of the whole field.
#[derive(Default)]
struct StreamSink {
    texts: String,
    tokens: Vec<StreamToken>,
    settled: usize,
}

impl StreamSink {
    /// Settles the open tokens with position below `pos`, sorting the open tail if needed.
    fn settle_below(&mut self, pos: usize) {
        let tail = &mut self.tokens[self.settled..];
        let key = |t: &StreamToken| (t.pos, !t.part);
        if tail.len() > 1 && !tail.is_sorted_by_key(key) {
            // Stable, so equal keys keep their analysis order.
            tail.sort_by_key(key);
        }
        self.settled += tail.partition_point(|t| t.pos < pos);
    }
}

impl TokenSink for StreamSink {
    fn push(&mut self, text: &str, from: usize, to: usize, pos: usize, part: bool) {
        let text_from = self.texts.len();
        self.texts.push_str(text);
        self.tokens.push(StreamToken {
            from,
            to,
            pos,
            part,
            text_from,
            text_to: self.texts.len(),
        });
    }

    fn settle(&mut self, pos: usize) {
        self.settle_below(pos);
    }

    fn indexing(&self) -> bool {
        true
    }
}

impl Tokenizer for KbTokenizer {
    type TokenStream<'a> = KbTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> KbTokenStream {
        let mut sink = StreamSink::default();
        scanner::run(text, self.0, &mut sink);
        sink.settle_below(usize::MAX);
        KbTokenStream {
            texts: sink.texts,
            tokens: sink.tokens,
            next: 0,
            current: Token::default(),
        }
    }
}

impl TokenStream for KbTokenStream {
    fn advance(&mut self) -> bool {
        let Some(t) = self.tokens.get(self.next) else {
            return false;
        };
        self.next += 1;
        let c = &mut self.current;
        c.offset_from = t.from;
        c.offset_to = t.to;
        c.position = t.pos;
        c.position_length = 1;
        c.text.clear();
        c.text.push_str(&self.texts[t.text_from..t.text_to]);
        true
    }

    fn token(&self) -> &Token {
        &self.current
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.current
    }
}

/// Token streams analysed ahead of an index writer, on other threads, in the order the writer
/// will ask for them (entry by entry, fields in schema order). Index writing in Tantivy
/// analyses on the writing thread; this moves that work off it.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Default)]
pub(crate) struct AnalysedAhead(
    std::sync::Arc<std::sync::Mutex<std::collections::VecDeque<(String, KbTokenStream)>>>,
);

#[cfg(not(target_arch = "wasm32"))]
impl AnalysedAhead {
    /// `text` analysed by `a`, for [`AnalysedAhead::extend`].
    pub fn analyse(text: &str, a: Analyzer) -> (String, KbTokenStream) {
        (text.to_string(), KbTokenizer(a).token_stream(text))
    }

    /// Queues analysed texts behind the earlier ones.
    pub fn extend(&self, analysed: Vec<(String, KbTokenStream)>) {
        if let Ok(mut queue) = self.0.lock() {
            queue.extend(analysed);
        }
    }

    /// Streams queued and not yet taken.
    #[cfg(test)]
    pub fn queued(&self) -> usize {
        self.0.lock().map_or(0, |q| q.len())
    }

    /// The next queued stream if it was analysed from `text`.
    fn take(&self, text: &str) -> Option<KbTokenStream> {
        let mut queue = self.0.lock().ok()?;
        if queue.front().is_some_and(|(t, _)| t == text) {
            return queue.pop_front().map(|(_, stream)| stream);
        }
        None
    }

    /// Registers, under every analyzer's name, a tokenizer that hands out the queued streams
    /// (and analyses a text itself when the next queued one is not for it: never wrong, only
    /// slower).
    pub fn register_into(&self, manager: &tantivy::tokenizer::TokenizerManager) {
        for a in Analyzer::ALL {
            let replay = Replay {
                analyzer: a,
                ahead: self.clone(),
            };
            manager.register(a.name(), tantivy::tokenizer::TextAnalyzer::from(replay));
        }
    }
}

/// See [`AnalysedAhead::register_into`].
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone)]
struct Replay {
    analyzer: Analyzer,
    ahead: AnalysedAhead,
}

#[cfg(not(target_arch = "wasm32"))]
impl Tokenizer for Replay {
    type TokenStream<'a> = KbTokenStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> KbTokenStream {
        self.ahead
            .take(text)
            .unwrap_or_else(|| KbTokenizer(self.analyzer).token_stream(text))
    }
}
