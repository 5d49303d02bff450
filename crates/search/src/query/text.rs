//! Reading the query text: cutting long input, quoted spans, function words, typed words
//! versus pasted errors, and the word a reader may still be typing.

use crate::script::is_cjk;

/// Input beyond this many bytes is cut (head and tail are kept: the root cause is often last).
pub const MAX_QUERY_BYTES: usize = 256 * 1024;
const MAX_QUOTED: usize = 8;

/// Cuts very long input to its head and tail on char boundaries.
pub(super) fn clamp_input(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= MAX_QUERY_BYTES {
        return std::borrow::Cow::Borrowed(text);
    }
    let half = MAX_QUERY_BYTES / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    std::borrow::Cow::Owned(format!("{}\n{}", &text[..head_end], &text[tail_start..]))
}

/// The text with a connector's slug written after each run of non-space characters that
/// holds one of its aliases as a word (`hoodie_stream_write` → `hoodie_stream_write hudi`):
/// entries are indexed under the slug, in their tags and often their titles, and an alias is
/// what logs and readers write. The run itself stays whole, so an identifier still matches as
/// written. `aliases` pairs each alias with its slug; a word is a run of ASCII letters and
/// digits.
pub(super) fn with_alias_slugs<'a>(
    text: &'a str,
    aliases: &[(String, String)],
) -> std::borrow::Cow<'a, str> {
    if aliases.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut copied = 0;
    let mut chunk_start = 0;
    for (at, ch) in text.char_indices().chain([(text.len(), ' ')]) {
        if !ch.is_whitespace() {
            continue;
        }
        let chunk = &text[chunk_start..at];
        let mut slugs: Vec<&str> = Vec::new();
        for word in chunk
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            if let Some((_, slug)) = aliases.iter().find(|(a, _)| word.eq_ignore_ascii_case(a))
                && !slugs.contains(&slug.as_str())
            {
                slugs.push(slug);
            }
        }
        if !slugs.is_empty() {
            out.push_str(&text[copied..at]);
            for slug in slugs {
                out.push(' ');
                out.push_str(slug);
            }
            copied = at;
        }
        chunk_start = at + ch.len_utf8();
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// `"..."` spans of the query (balanced, on one line); unbalanced quotes are ignored.
pub(super) fn quoted_spans(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(a) = rest.find('"') {
            let after = &rest[a + 1..];
            match after.find('"') {
                Some(b) => {
                    let inner = after[..b].trim();
                    if !inner.is_empty() && out.len() < MAX_QUOTED {
                        out.push(inner);
                    }
                    rest = &after[b + 1..];
                }
                None => break,
            }
        }
    }
    out
}

/// One or two digits (`node 1`, `row 0`): counters and ids, never what an entry is about.
/// Error codes have more (`1366`, `4019`).
pub(super) fn is_short_number(t: &str) -> bool {
    t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit())
}

pub(crate) fn is_mask(t: &str) -> bool {
    t.starts_with('§')
}

/// English function words and question words. They say how a question is asked, not what it
/// is about, so they never become term clauses (unless nothing else is left). Negations
/// (`no`, `not`, `cannot`) are not here: they matter in error messages.
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "ain",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "aren",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "both",
    "but",
    "by",
    "can",
    "could",
    "couldn",
    "did",
    "didn",
    "do",
    "does",
    "doesn",
    "doing",
    "don",
    "done",
    "during",
    "each",
    "else",
    "even",
    "ever",
    "for",
    "from",
    "get",
    "gets",
    "getting",
    "got",
    "had",
    "hadn",
    "has",
    "hasn",
    "have",
    "haven",
    "having",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "it",
    "its",
    "itself",
    "just",
    "let",
    "like",
    "may",
    "me",
    "might",
    "more",
    "most",
    "much",
    "must",
    "mustn",
    "my",
    "myself",
    "needn",
    "now",
    "of",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "out",
    "over",
    "own",
    "please",
    "same",
    "she",
    "should",
    "shouldn",
    "so",
    "some",
    "still",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "us",
    "very",
    "was",
    "wasn",
    "we",
    "were",
    "weren",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "won",
    "would",
    "wouldn",
    "you",
    "your",
    // Chinese function and question words (after the Latin ones in byte order).
    "一下",
    "一个",
    "一些",
    "与",
    "为什",
    "为什么",
    "之前",
    "之后",
    "也",
    "了",
    "什么",
    "从",
    "他",
    "他们",
    "以后",
    "会",
    "似乎",
    "但是",
    "你",
    "你们",
    "其他",
    "到",
    "只是",
    "可以",
    "吗",
    "吧",
    "呢",
    "和",
    "哪个",
    "哪些",
    "啊",
    "因为",
    "在",
    "大家",
    "好像",
    "如何",
    "如果",
    "它",
    "对",
    "就",
    "就是",
    "已经",
    "应该",
    "当前",
    "怎么",
    "怎么办",
    "怎样",
    "我",
    "我们",
    "或",
    "或者",
    "所以",
    "把",
    "时",
    "时候",
    "是",
    "是否",
    "有些",
    "比如",
    "然后",
    "现在",
    "的",
    "目前",
    "而且",
    "能",
    "能否",
    "被",
    "该",
    "请问",
    "谢谢",
    "貌似",
    "还",
    "还是",
    "这",
    "这个",
    "这些",
    "这样",
    "这里",
    "那",
    "那个",
    "那么",
    "那些",
    "都",
    "需要",
    "麻烦",
];

/// Whether the query is typed words (a question or keywords), not a pasted error: one line,
/// no error punctuation (`:`, `=`, brackets, quotes) and no identifiers (dotted, snake_case,
/// CamelCase, codes with digits). All-caps words (`PRIMARY KEY`) may appear in questions.
/// With `punctuated`, also lines that are all typed sentences with a question's punctuation
/// (see [`crate::paste::is_typed_sentence`]).
pub(super) fn is_plain_words(paste: &crate::paste::Paste<'_>, punctuated: bool) -> bool {
    if punctuated
        && !paste.lines.is_empty()
        && paste
            .lines
            .iter()
            .all(|l| crate::paste::is_typed_sentence(l.text))
    {
        return true;
    }
    let [line] = paste.lines.as_slice() else {
        return false;
    };
    let text = without_title_tags(line.text);
    if text.contains([':', '=', '[', ']', '(', ')', '{', '}', '<', '>', '"', '`']) {
        return false;
    }
    text.split_whitespace().all(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        let letters = w.chars().filter(|c| c.is_alphabetic()).count();
        let all_caps = letters > 0 && w.chars().all(|c| !c.is_lowercase());
        let identifier = w.contains(['.', '_', '$', '/', '\\'])
            || (letters > 0 && w.chars().any(|c| c.is_ascii_digit()))
            || (!all_caps && w.chars().skip(1).any(char::is_uppercase));
        !identifier
    })
}

/// `text` without the labels an issue title starts with (`[Bug] [MySQL CDC] …`): words in
/// brackets, which a log line's prefix (`[main]`, `[ERROR]`) also is, so only the rest of the
/// line tells typed words from a paste.
fn without_title_tags(text: &str) -> &str {
    let mut rest = text.trim_start();
    while let Some(inner) = rest.strip_prefix('[') {
        let Some(end) = inner.find(']') else {
            break;
        };
        let label = &inner[..end];
        if !label.chars().any(char::is_alphabetic)
            || label.chars().count() > 30
            || !label
                .chars()
                .all(|c| c.is_alphanumeric() || c == ' ' || c == '-')
        {
            break;
        }
        rest = inner[end + 1..].trim_start();
    }
    rest
}

/// The last word of `text`, lowercased, when it may be unfinished: at least 3 letters, only
/// letters, and nothing (no space, no punctuation) after it. A lone CJK character at the end
/// (`锁`, `kafka 慢`) is one too: the text holds it only inside bigrams (`锁表`), which its
/// prefix finds.
pub(super) fn unfinished_last_word(text: &str) -> Option<String> {
    let mut back = text.chars().rev();
    if let Some(c) = back.next()
        && is_cjk(c)
    {
        return (!back.next().is_some_and(is_cjk)).then(|| c.to_string());
    }
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &text[start..];
    // Longer CJK text has no word ends to complete: its bigrams already match inside words.
    (word.chars().count() >= 3 && word.chars().all(|c| c.is_alphabetic() && !is_cjk(c)))
        .then(|| word.to_lowercase())
}

/// Whether a query word is a function or question word.
pub(crate) fn is_stopword(word: &str) -> bool {
    STOPWORDS.binary_search(&word).is_ok()
}

/// A CJK bigram with a grammatical particle in it (`表的`, `的数`, `了吗`), or a function word
/// ([`CJK_FUNCTION_WORDS`]): bigrams overlap, so one spanning a word boundary says nothing
/// about what the query is about. Measured (top-1, kept → dropped): particles, real users'
/// set 0.729 → 0.743 (Chinese 0.667 → 0.722), with 5,000 distractors 0.586 → 0.600, the
/// other sets unchanged (`了解` is lost with them); function words, fresh Chinese questions
/// 0.4 → 0.6 (`这一条语句` had matched a symptom line's `各有一条`), the other sets unchanged.
pub(super) fn is_function_pair(word: &str) -> bool {
    const PARTICLES: [char; 6] = ['的', '了', '吗', '呢', '吧', '啊'];
    cjk_pair(word).is_some_and(|(a, b)| {
        PARTICLES.contains(&a)
            || PARTICLES.contains(&b)
            || CJK_FUNCTION_WORDS.binary_search(&word).is_ok()
    })
}

/// Whether `word` is a value the reader's system printed rather than a word: one printed in
/// hexadecimal (see [`is_hex_value`]); an address: a URL, an absolute path, an IPv4
/// address, a host or name with its port (`kafka1:9092`; a frame's `Foo.java:62` is a
/// position in code, left as a word); or a name with its instance or partition number
/// (`consumer-1`, `__consumer_offsets-13`).
pub(super) fn is_printed_value(word: &str) -> bool {
    if is_hex_value(word)
        || is_numbered_name(word)
        || word.contains("://")
        || word.starts_with('/')
        || crate::analysis::is_ip(word)
    {
        return true;
    }
    match word.rsplit_once(':') {
        Some((name, port)) => {
            !name.is_empty()
                && !port.is_empty()
                && port.bytes().all(|b| b.is_ascii_digit())
                && !is_source_file(name)
        }
        None => false,
    }
}

/// Whether `word` is one name and a number after a hyphen (`consumer-1`), as clients,
/// threads and partitions are numbered. A name must start with a letter (after leading
/// underscores: `__consumer_offsets-13`) and hold no hyphen itself: `pool-3-thread-7` and
/// `iso-8859-1` are left as words. `jdk-17` or `sha-256` read as values too; the known share
/// reads only words the book lacks, where that is what they are to it.
fn is_numbered_name(word: &str) -> bool {
    word.rsplit_once('-').is_some_and(|(name, number)| {
        name.bytes()
            .find(|b| *b != b'_')
            .is_some_and(|b| b.is_ascii_alphabetic())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
            && !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether `name` ends with a source file's extension (the file of a stack frame).
fn is_source_file(name: &str) -> bool {
    const SOURCES: [&str; 8] = ["java", "scala", "kt", "groovy", "py", "go", "rs", "js"];
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| SOURCES.contains(&ext.to_ascii_lowercase().as_str()))
}

/// Whether `word` is a value printed in hexadecimal: a run of byte escapes (`\xf0\x9f`,
/// `x9f`), one byte (`b6`, a part of an escape) or a hash or id segment of four or more hex
/// digits (`4a045a11`, `ba05`), with a decimal digit unless escaped. Three characters are
/// left as words: `db2`.
fn is_hex_value(word: &str) -> bool {
    let escapes = word.strip_prefix('\\').unwrap_or(word);
    if escapes.split('\\').all(|piece| {
        piece.len() == 3
            && piece.starts_with(['x', 'X'])
            && piece[1..].bytes().all(|b| b.is_ascii_hexdigit())
    }) {
        return true;
    }
    word.bytes().all(|b| b.is_ascii_hexdigit())
        && word.bytes().any(|b| b.is_ascii_digit())
        && (word.len() == 2 || word.len() >= 4)
}

/// The two characters of a CJK bigram.
pub(super) fn cjk_pair(word: &str) -> Option<(char, char)> {
    let mut chars = word.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(a), Some(b), None) if is_cjk(a) && is_cjk(b) => Some((a, b)),
        _ => None,
    }
}

/// Chinese function words as bigrams (pronouns, demonstratives with measure words, question
/// words, conjunctions): what a reader's sentence is built with, not what it is about.
const CJK_FUNCTION_WORDS: &[&str] = &[
    "一下", "一个", "一些", "一条", "一种", "不知", "为什", "什么", "他们", "但是", "你们", "其他",
    "出现", "发现", "只是", "哪个", "哪些", "因为", "如何", "如果", "怎么", "我们", "或者", "所以",
    "是否", "然后", "知道", "而且", "能否", "请问", "还是", "这个", "这些", "这样", "这种", "那个",
    "那么", "那些",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paste::split_paste;

    #[test]
    fn function_pairs_span_word_boundaries_or_build_sentences() {
        for w in ["表的", "的数", "了吗", "据了", "一条", "什么", "然后"] {
            assert!(is_function_pair(w), "{w}");
        }
        // Negation says what the reader sees ("没有数据"): kept.
        for w in [
            "数据",
            "同步",
            "的",
            "表的数",
            "a的",
            "目标",
            "没有",
            "重复",
        ] {
            assert!(!is_function_pair(w), "{w}");
        }
        assert!(CJK_FUNCTION_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn quoted_spans_ignore_unbalanced() {
        assert_eq!(quoted_spans(r#"foo "bar baz" qux "open"#), vec!["bar baz"]);
        assert!(quoted_spans(r#"""""#).is_empty());
        assert!(quoted_spans("\"\n\"").is_empty());
    }

    #[test]
    fn stopwords_are_sorted_and_spare_negations() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(is_stopword("how") && is_stopword("the") && is_stopword("does"));
        for w in ["no", "not", "cannot", "kafka", "timeout"] {
            assert!(!is_stopword(w), "{w}");
        }
    }

    #[test]
    fn plain_words_versus_pasted_errors() {
        let plain = |q: &str| is_plain_words(&split_paste(q), true);
        assert!(plain(
            "does flink detect new kafka partitions automatically"
        ));
        assert!(plain("should I declare the id as PRIMARY KEY for RDS?"));
        assert!(plain("I can't find any files"));
        assert!(!plain("ErrorMessage=Authorization Failed [4019]"));
        assert!(!plain("java.lang.OutOfMemoryError: Java heap space"));
        assert!(!plain("sls batchGetSize oom"));
        assert!(!plain("max_poll_records too small"));
        assert!(!plain("Caused by: x\n\tat a.b.C.m(C.java:1)"));
        // A question's punctuation, but not a message's.
        assert!(plain("why are rows missing in the sink (upsert mode)"));
        assert!(plain(
            r#"does **"scan.startup.mode"** apply after a restore"#
        ));
        assert!(!plain(
            "Could not find a 'KafkaClient' entry in the JAAS configuration"
        ));
        assert!(!plain("Failed to fetch metadata; retrying (attempt 3)"));
        assert!(!plain(""));
        // An issue title's labels are not a log prefix; what follows them decides.
        assert!(plain(
            "[Bug] [MySQL CDC] job keeps restarting after a failover"
        ));
        assert!(plain("[Bug][sink-jdbc] 写入 mysql 很慢"));
        assert!(!plain("[Bug] [MySQL CDC] Caused by: timeout"));
        assert!(!plain("[main] WARN a.b.C - retrying (attempt 3)"));
        assert!(!plain("[4019] Authorization Failed"));
    }

    #[test]
    fn unfinished_last_word_needs_nothing_after_it() {
        assert_eq!(unfinished_last_word("kafka offs").as_deref(), Some("offs"));
        assert_eq!(unfinished_last_word("Rebal").as_deref(), Some("rebal"));
        assert_eq!(unfinished_last_word("kafka offs "), None);
        assert_eq!(unfinished_last_word("kafka offsets?"), None);
        assert_eq!(unfinished_last_word("kafka of"), None);
        assert_eq!(unfinished_last_word("error 4019"), None);
        assert_eq!(unfinished_last_word(""), None);
        assert_eq!(unfinished_last_word("schéma").as_deref(), Some("schéma"));
        assert_eq!(unfinished_last_word("锁").as_deref(), Some("锁"));
        assert_eq!(unfinished_last_word("kafka 慢").as_deref(), Some("慢"));
        assert_eq!(unfinished_last_word("mysql锁").as_deref(), Some("锁"));
        assert_eq!(unfinished_last_word("死锁"), None);
        assert_eq!(unfinished_last_word("锁 "), None);
    }

    #[test]
    fn alias_words_get_their_slug() {
        let aliases = [
            ("hoodie".to_string(), "hudi".to_string()),
            ("odps".to_string(), "maxcompute".to_string()),
        ];
        let w = |t: &str| with_alias_slugs(t, &aliases).into_owned();
        assert_eq!(
            w("no output from hoodie_stream_write"),
            "no output from hoodie_stream_write hudi"
        );
        assert_eq!(w("/tmp/t/.hoodie/x\nnext"), "/tmp/t/.hoodie/x hudi\nnext");
        assert_eq!(
            w("ODPS-0130071: odps"),
            "ODPS-0130071: maxcompute odps maxcompute"
        );
        assert_eq!(w("写入odps失败"), "写入odps失败 maxcompute");
        assert_eq!(w("odps和hoodie"), "odps和hoodie maxcompute hudi");
        // Only whole words: a longer identifier holding an alias is another name.
        assert_eq!(
            w("HoodieTableMetaClient odpsx"),
            "HoodieTableMetaClient odpsx"
        );
        assert!(matches!(
            with_alias_slugs("kafka", &aliases),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(with_alias_slugs("hoodie", &[]), "hoodie");
    }

    #[test]
    fn clamp_keeps_head_and_tail_on_char_boundaries() {
        let s = "é".repeat(MAX_QUERY_BYTES);
        let c = clamp_input(&s);
        assert!(c.len() <= MAX_QUERY_BYTES + 1);
        assert!(c.starts_with('é') && c.ends_with('é'));
    }
}
