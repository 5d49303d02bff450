//! Where keys and values sit in the front-matter text, so every diagnostic points at its
//! line and column.

use super::Syntax;

/// Finds where keys and values sit in the front-matter text, for precise diagnostics.
#[derive(Debug, Clone)]
pub struct Locator {
    lines: Vec<String>,
    /// 1-based file line of the first front-matter line.
    pub(super) first_line: usize,
    syntax: Syntax,
}

impl Locator {
    /// A locator over front-matter `front` starting at file line `first_line`.
    pub fn new(front: &str, first_line: usize, syntax: Syntax) -> Self {
        Locator {
            lines: front.lines().map(str::to_string).collect(),
            first_line,
            syntax,
        }
    }

    fn is_top_key_line(&self, line: &str, key: &str) -> bool {
        match self.syntax {
            Syntax::Yaml => line
                .strip_prefix(key)
                .is_some_and(|r| r.trim_start().starts_with(':')),
            Syntax::Toml => {
                line.strip_prefix(key)
                    .is_some_and(|r| r.trim_start().starts_with('='))
                    || line.trim() == format!("[[{key}]]")
                    || line.trim() == format!("[{key}]")
            }
        }
    }

    fn is_any_top_key(&self, line: &str) -> bool {
        match self.syntax {
            Syntax::Yaml => !line.starts_with([' ', '\t', '-', '#']) && line.contains(':'),
            Syntax::Toml => {
                !line.starts_with([' ', '\t', '#']) && (line.contains('=') || line.starts_with('['))
            }
        }
    }

    /// Line indexes (0-based into `lines`) of the region belonging to top-level `key`.
    fn region(&self, key: &str) -> Option<(usize, usize)> {
        let start = self
            .lines
            .iter()
            .position(|l| self.is_top_key_line(l, key))?;
        let end = self.lines[start + 1..]
            .iter()
            .position(|l| {
                self.is_any_top_key(l)
                    && !(self.syntax == Syntax::Toml && l.trim() == format!("[[{key}]]"))
                    && !(self.syntax == Syntax::Toml
                        && !l.starts_with('[')
                        && self.in_array_table(start, key))
            })
            .map_or(self.lines.len(), |i| start + 1 + i);
        Some((start, end))
    }

    fn in_array_table(&self, start: usize, key: &str) -> bool {
        self.lines[start].trim() == format!("[[{key}]]")
    }

    fn pos(&self, idx: usize, col: usize) -> (usize, usize) {
        (self.first_line + idx, col + 1)
    }

    /// Position of a top-level key (line 1 of the front-matter when absent).
    pub fn key(&self, key: &str) -> (usize, usize) {
        self.region(key)
            .map_or((self.first_line.saturating_sub(1).max(1), 1), |(s, _)| {
                self.pos(s, 0)
            })
    }

    /// Position of `needle` inside the region of `key`, else of the key.
    pub fn value(&self, key: &str, needle: &str) -> (usize, usize) {
        if let Some((s, e)) = self.region(key) {
            for i in s..e {
                if let Some(b) = self.lines[i].find(needle) {
                    return self.pos(i, self.lines[i][..b].chars().count());
                }
            }
        }
        self.key(key)
    }

    /// `key` given `value`, written in the front-matter's syntax.
    pub fn assignment(&self, key: &str, value: &str) -> String {
        match self.syntax {
            Syntax::Yaml => format!("{key}: {value}"),
            Syntax::Toml => format!("{key} = {value}"),
        }
    }

    /// The literal written after the key that sits at `(line, col)` (as [`Self::item_key`]
    /// gives it): the characters of an unquoted number, up to a separator or comment.
    pub fn literal_after(&self, (line, col): (usize, usize)) -> Option<&str> {
        let text = self.lines.get(line.checked_sub(self.first_line)?)?;
        let from = text.char_indices().nth(col.checked_sub(1)?)?.0;
        let rest = &text[from..];
        let rest = rest[rest.find([':', '='])? + 1..].trim_start();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-')))
            .unwrap_or(rest.len());
        Some(&rest[..end]).filter(|l| !l.is_empty())
    }

    /// Position of item `n` of list `key` (block or array-of-tables style), else of the key.
    pub fn item(&self, key: &str, n: usize) -> (usize, usize) {
        self.item_line(key, n).map_or_else(
            || self.key(key),
            |i| {
                let indent = self.lines[i].len() - self.lines[i].trim_start().len();
                self.pos(i, indent)
            },
        )
    }

    /// Position of item `n` of list `key` when the list is written one item per line
    /// (YAML block style, TOML array of tables); `None` for flow and inline lists.
    pub fn item_start(&self, key: &str, n: usize) -> Option<(usize, usize)> {
        self.item_line(key, n).map(|i| {
            let indent = self.lines[i].len() - self.lines[i].trim_start().len();
            self.pos(i, indent)
        })
    }

    /// Position of the `n`-th (0-based) key `sub` (`sub:` or `sub =`) in the region of `key`,
    /// outside quoted strings and comments. Finds the keys of mappings nested in a list in
    /// any style: YAML block or flow, TOML inline tables.
    pub fn nested_key(&self, key: &str, sub: &str, n: usize) -> Option<(usize, usize)> {
        let (s, e) = self.region(key)?;
        let mut quote = None;
        let mut seen = 0;
        for i in s..e {
            for at in key_offsets(&self.lines[i], sub, &mut quote) {
                if seen == n {
                    let col = self.lines[i].get(..at).map_or(0, |p| p.chars().count());
                    return Some(self.pos(i, col));
                }
                seen += 1;
            }
        }
        None
    }

    fn item_line(&self, key: &str, n: usize) -> Option<usize> {
        let (s, e) = self.region(key)?;
        let starts: Vec<usize> = match self.syntax {
            Syntax::Yaml => (s + 1..e)
                .filter(|&i| self.lines[i].trim_start().starts_with('-'))
                .collect(),
            Syntax::Toml => (s..self.lines.len())
                .filter(|&i| self.lines[i].trim() == format!("[[{key}]]"))
                .collect(),
        };
        starts.get(n).copied()
    }

    /// Position of `sub` inside item `n` of list `key`.
    pub fn item_key(&self, key: &str, n: usize, sub: &str) -> (usize, usize) {
        let Some(start) = self.item_line(key, n) else {
            return self.key(key);
        };
        let end = self
            .item_line(key, n + 1)
            .unwrap_or_else(|| self.region(key).map_or(self.lines.len(), |r| r.1));
        for i in start..end.max(start + 1).min(self.lines.len()) {
            if let Some(b) = find_key(&self.lines[i], sub) {
                return self.pos(i, self.lines[i][..b].chars().count());
            }
        }
        self.item(key, n)
    }
}

/// Byte offsets of the keys `key` (followed by `:` or `=`) in `line`, skipping text inside
/// quotes and after a comment `#`. `quote` carries an open quote over to the next line, as
/// double-quoted strings may span lines.
fn key_offsets(line: &str, key: &str, quote: &mut Option<u8>) -> Vec<usize> {
    // An empty key (`"": x`, valid YAML and TOML) is at every offset: it is not located.
    if key.is_empty() {
        return Vec::new();
    }
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = *quote {
            if q == b'"' && c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                *quote = None;
            }
            i += 1;
            continue;
        }
        let prev = i.checked_sub(1).map(|p| b[p]);
        let at_value_start = prev.is_none_or(|p| b" \t[{,:=".contains(&p));
        match c {
            b'#' if prev.is_none_or(|p| p == b' ' || p == b'\t') => break,
            // An apostrophe inside a plain YAML scalar (`can't`) opens no string.
            b'"' | b'\'' if at_value_start => *quote = Some(c),
            _ if b[i..].starts_with(key.as_bytes())
                && prev.is_none_or(|p| !p.is_ascii_alphanumeric() && p != b'_' && p != b'-') =>
            {
                let after = line.get(i + key.len()..).unwrap_or_default().trim_start();
                if after.starts_with(':') || after.starts_with('=') {
                    out.push(i);
                    i += key.len();
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn find_key(line: &str, key: &str) -> Option<usize> {
    if key.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(i) = line[from..].find(key) {
        let at = from + i;
        let before_ok = at == 0 || !line.as_bytes()[at - 1].is_ascii_alphanumeric();
        let after = line[at + key.len()..].trim_start();
        if before_ok && (after.starts_with(':') || after.starts_with('=')) {
            return Some(at);
        }
        from = at + key.len();
    }
    None
}
