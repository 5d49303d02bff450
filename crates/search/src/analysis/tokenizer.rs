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
