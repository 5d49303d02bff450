//! HTML text: escaping for text and quoted attribute values.

/// Minimal HTML escaping for text and attribute values. Copies the runs between special
/// characters whole: Tera calls this for every value a template prints.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 16);
    let mut plain = 0;
    for (i, b) in s.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        // The special characters are ASCII, so `i` is a character boundary.
        out.push_str(&s[plain..i]);
        out.push_str(entity);
        plain = i + 1;
    }
    out.push_str(&s[plain..]);
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_the_five_characters_and_keeps_the_rest() {
        assert_eq!(
            escape(r#"a<b>&"c"'d' 中文 é"#),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39; 中文 é"
        );
        assert_eq!(escape(""), "");
        assert_eq!(escape("&"), "&amp;");
        assert_eq!(escape("plain"), "plain");
    }
}
