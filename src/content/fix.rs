//! `kbook check --fix`: rewrites front-matter in the canonical key order and formatting,
//! keeping its syntax (YAML or TOML) and leaving the body byte for byte as it was.

use super::frontmatter::{EntryFrontMatter, ErrorString, KEYS, Syntax};

/// YAML double-quoted string.
fn yaml_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// TOML basic string (its escapes match YAML's for what we emit).
fn toml_quote(s: &str) -> String {
    yaml_quote(s)
}

/// A list written one item per line: YAML `key:` and `  - item` lines, TOML `key = [` …
/// `]`.
fn block_list(out: &mut String, key: &str, items: &[String], syntax: Syntax) {
    match syntax {
        Syntax::Yaml => {
            out.push_str(&format!("{key}:\n"));
            for item in items {
                out.push_str(&format!("  - {item}\n"));
            }
        }
        Syntax::Toml => {
            out.push_str(&format!("{key} = [\n"));
            for item in items {
                out.push_str(&format!("  {item},\n"));
            }
            out.push_str("]\n");
        }
    }
}

/// One `errors` item: its quoted text alone, or, with a source or the generic flag, a
/// mapping (a YAML block under the list's `- `, a TOML inline table).
fn error_item(e: &ErrorString, syntax: Syntax, q: fn(&str) -> String) -> String {
    let mut fields = vec![("text", q(&e.text))];
    if let Some(src) = &e.source {
        fields.push(("source", q(src)));
    }
    if e.generic {
        fields.push(("generic", "true".to_string()));
    }
    if fields.len() == 1 {
        return q(&e.text);
    }
    match syntax {
        Syntax::Yaml => fields
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n    "),
        Syntax::Toml => {
            let pairs: Vec<String> = fields.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            format!("{{ {} }}", pairs.join(", "))
        }
    }
}

/// The canonical front-matter text (without delimiters) for `fm`.
pub fn canonical_front_matter(fm: &EntryFrontMatter, syntax: Syntax) -> String {
    let mut out = String::new();
    let q = match syntax {
        Syntax::Yaml => yaml_quote,
        Syntax::Toml => toml_quote,
    };
    let sep = match syntax {
        Syntax::Yaml => ": ",
        Syntax::Toml => " = ",
    };
    let flow = |items: &[String], quote: bool| {
        let v: Vec<String> = items
            .iter()
            .map(|s| if quote { q(s) } else { s.clone() })
            .collect();
        format!("[{}]", v.join(", "))
    };
    // Slugs need no quotes in YAML; TOML strings always do.
    let bare = syntax == Syntax::Yaml;
    for key in KEYS {
        match key {
            "id" => {
                if let Some(id) = &fm.id {
                    out.push_str(&format!(
                        "id{sep}{}\n",
                        if bare { id.clone() } else { q(id) }
                    ));
                }
            }
            "title" => out.push_str(&format!("title{sep}{}\n", q(&fm.title))),
            "connector" => out.push_str(&format!(
                "connector{sep}{}\n",
                if bare {
                    fm.connector.clone()
                } else {
                    q(&fm.connector)
                }
            )),
            "kind" => out.push_str(&format!(
                "kind{sep}{}\n",
                if bare { fm.kind.clone() } else { q(&fm.kind) }
            )),
            "errors" if !fm.errors.is_empty() => {
                let items: Vec<String> =
                    fm.errors.iter().map(|e| error_item(e, syntax, q)).collect();
                block_list(&mut out, "errors", &items, syntax);
            }
            "symptoms" if !fm.symptoms.is_empty() => {
                let items: Vec<String> = fm.symptoms.iter().map(|s| q(s)).collect();
                block_list(&mut out, "symptoms", &items, syntax);
            }
            "tags" if !fm.tags.is_empty() => {
                out.push_str(&format!("tags{sep}{}\n", flow(&fm.tags, !bare)))
            }
            "related" if !fm.related.is_empty() => {
                out.push_str(&format!("related{sep}{}\n", flow(&fm.related, !bare)))
            }
            "updated" => {
                if let Some(d) = &fm.updated {
                    out.push_str(&format!("updated{sep}{d}\n"));
                }
            }
            "aliases" if !fm.aliases.is_empty() => {
                out.push_str(&format!("aliases{sep}{}\n", flow(&fm.aliases, true)))
            }
            "language" => {
                if let Some(l) = &fm.language {
                    out.push_str(&format!(
                        "language{sep}{}\n",
                        if bare { l.clone() } else { q(l) }
                    ));
                }
            }
            "versions" if !fm.versions.is_empty() && syntax == Syntax::Yaml => {
                out.push_str("versions:\n");
                for v in &fm.versions {
                    out.push_str(&format!("  - product: {}\n", v.product));
                    if let Some((a, _)) = &v.affected {
                        out.push_str(&format!("    affected: {}\n", q(a)));
                    }
                    if let Some((f, _)) = &v.fixed {
                        out.push_str(&format!("    fixed: {}\n", q(f)));
                    }
                    if let Some(n) = &v.note {
                        out.push_str(&format!("    note: {}\n", q(n)));
                    }
                }
            }
            _ => {}
        }
    }
    // TOML array tables must come after every plain key.
    if syntax == Syntax::Toml {
        for v in &fm.versions {
            out.push_str(&format!("\n[[versions]]\nproduct = {}\n", q(&v.product)));
            if let Some((a, _)) = &v.affected {
                out.push_str(&format!("affected = {}\n", q(a)));
            }
            if let Some((f, _)) = &v.fixed {
                out.push_str(&format!("fixed = {}\n", q(f)));
            }
            if let Some(n) = &v.note {
                out.push_str(&format!("note = {}\n", q(n)));
            }
        }
    }
    out
}

/// The file `raw` with its front-matter replaced by the canonical form; `None` when the
/// file does not have the expected delimiters (the caller reports the parse error instead).
pub fn fix_file(raw: &str, fm: &EntryFrontMatter) -> Option<String> {
    let bom = if raw.starts_with('\u{feff}') {
        "\u{feff}"
    } else {
        ""
    };
    let text = &raw[bom.len()..];
    let first_end = text.find('\n')?;
    let delim = text[..first_end].trim_end();
    let syntax = match delim {
        "---" => Syntax::Yaml,
        "+++" => Syntax::Toml,
        _ => return None,
    };
    let newline = if text[..first_end].ends_with('\r') {
        "\r\n"
    } else {
        "\n"
    };
    let mut offset = first_end + 1;
    for line in text[offset..].split_inclusive('\n') {
        if line.trim_end() == delim {
            let body = &text[offset + line.len()..];
            let front = canonical_front_matter(fm, syntax).replace('\n', newline);
            return Some(format!(
                "{bom}{delim}{newline}{front}{delim}{newline}{body}"
            ));
        }
        offset += line.len();
    }
    None
}

/// The comments `kbook new` writes into an entry (the text after `#`), besides the list of
/// kinds: guidance, not the author's notes, which `check --fix` may drop.
pub const SCAFFOLD_COMMENTS: [&str; 4] = [
    "verbatim error texts from the logs, or { text: \"…\", source: \"https://…\" }",
    "e.g. - { product: vvr, affected: \">=8.0.5, <8.0.9\", fixed: \"8.0.9\" }",
    "how readers describe it, any language: \"no rows arrive downstream\"",
    "language: en          # only when the entry's text is not in the book's language",
];

/// Whether the front-matter of `raw` may hold a comment of the author's (a `#` starting a
/// line or after a space, but for those of [`SCAFFOLD_COMMENTS`] and `kbook new`'s list of
/// kinds): rewriting would drop it. Cautious: a `#` after a space inside a quoted value
/// counts too, and only leaves that file as it is.
pub fn has_comments(raw: &str) -> bool {
    let text = raw.trim_start_matches('\u{feff}');
    let Some((first, rest)) = text.split_once('\n') else {
        return false;
    };
    let delim = first.trim_end();
    let comment = |l: &str| -> Option<String> {
        let t = l.trim_start();
        if let Some(c) = t.strip_prefix('#') {
            return Some(c.trim().to_string());
        }
        let at = [l.find(" #"), l.find("\t#")].into_iter().flatten().min()?;
        Some(l[at + 2..].trim().to_string())
    };
    // `kbook new`'s `kind: error   # error | howto | …`: slugs between bars.
    let kinds =
        |c: &str| c.contains(" | ") && c.split(" | ").all(|k| crate::config::is_slug(k.trim()));
    rest.lines()
        .take_while(|l| l.trim_end() != delim)
        .filter_map(comment)
        .any(|c| !SCAFFOLD_COMMENTS.contains(&c.as_str()) && !kinds(&c))
}

/// What `kbook check --fix` did: the entries rewritten, and those left alone because their
/// front-matter has comments.
#[derive(Debug, Default)]
pub struct Fixed {
    /// Rewritten.
    pub rewritten: Vec<std::path::PathBuf>,
    /// Not in the canonical form, left as they were: rewriting would drop their comments.
    pub commented: Vec<std::path::PathBuf>,
}

/// `kbook check --fix`: rewrites the front-matter of every entry that has no errors into the
/// canonical order and formatting (not one with comments, which the rewrite would drop).
pub fn fix_front_matter(config: &crate::config::Config) -> std::io::Result<Fixed> {
    let (book, diags) = super::load(config);
    let broken: std::collections::HashSet<&std::path::Path> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.path.as_path())
        .collect();
    let mut fixed = Fixed::default();
    for e in &book.entries {
        if broken.contains(e.path.as_path()) {
            continue;
        }
        let file = config.root.join(&e.path);
        let raw = std::fs::read_to_string(&file)?;
        if let Some(new) = fix_file(&raw, &e.fm)
            && new != raw
        {
            if has_comments(&raw) {
                fixed.commented.push(e.path.clone());
                continue;
            }
            crate::output::write_file_atomically(&file, new.as_bytes())?;
            fixed.rewritten.push(e.path.clone());
        }
    }
    Ok(fixed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::frontmatter::{parse, split};
    use std::path::Path;

    fn fm_of(text: &str) -> EntryFrontMatter {
        let kinds: Vec<String> = crate::config::DEFAULT_KINDS
            .iter()
            .map(|s| s.to_string())
            .collect();
        let norm = text.replace("\r\n", "\n");
        let doc = split(&norm, Path::new("a.md")).unwrap();
        let (fm, _, d) = parse(&doc, Path::new("a.md"), &kinds);
        assert!(d.is_empty(), "{d:?}");
        fm.unwrap()
    }

    #[test]
    fn the_scaffolds_own_comments_are_not_the_authors() {
        let [errors, _, symptoms, language] = SCAFFOLD_COMMENTS;
        let scaffold = format!(
            "---\nkind: error   # error | howto | concept\nerrors: []   # {errors}\nsymptoms: []   # {symptoms}\n# {language}\n---\nBody # not front-matter\n"
        );
        assert!(!has_comments(&scaffold));
        assert!(has_comments(
            &scaffold.replace("# error | howto", "# ask the DBA | howto")
        ));
        assert!(has_comments(
            &scaffold.replace("# language", "# from the prod log\n# language")
        ));
    }

    #[test]
    fn comments_are_found_in_the_front_matter_only() {
        assert!(has_comments("---\n# sorted\ntitle: T\n---\nBody\n"));
        assert!(has_comments("---\ntitle: T  # from the prod log\n---\n"));
        assert!(has_comments("+++\ntitle = \"T\" # note\n+++\n"));
        assert!(!has_comments(
            "---\ntitle: \"C#\"\ntags: [a]\n---\n# A heading\n\nissue #5\n"
        ));
    }

    #[test]
    fn reorders_and_requotes_yaml_keeping_the_body() {
        let raw = "---\ntags: [b, a]\nkind: error\nerrors: ['it''s \"bad\" \\x']\nconnector: kafka\ntitle: T\nversions:\n- {product: vvr, fixed: 8.0.9}\n---\nBody *stays*  \n\n";
        let fixed = fix_file(raw, &fm_of(raw)).unwrap();
        assert_eq!(
            fixed,
            "---\ntitle: \"T\"\nconnector: kafka\nkind: error\nerrors:\n  - \"it's \\\"bad\\\" \\\\x\"\nversions:\n  - product: vvr\n    fixed: \"8.0.9\"\ntags: [b, a]\n---\nBody *stays*  \n\n"
        );
        assert_eq!(fm_of(&fixed), fm_of(raw), "fixing must not change meaning");
        assert_eq!(
            fix_file(&fixed, &fm_of(&fixed)).unwrap(),
            fixed,
            "idempotent"
        );
    }

    #[test]
    fn keeps_the_entrys_language() {
        for raw in [
            "---\nlanguage: en\ntitle: T\nconnector: kafka\nkind: error\n---\nBody\n",
            "+++\nlanguage = \"en\"\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\n+++\nBody\n",
        ] {
            let fixed = fix_file(raw, &fm_of(raw)).unwrap();
            assert_eq!(fm_of(&fixed), fm_of(raw), "{fixed}");
            assert_eq!(fm_of(&fixed).language.as_deref(), Some("en"));
        }
    }

    #[test]
    fn keeps_error_sources() {
        let url = "https://dev.mysql.com/doc/mysql-errors/8.0/en/server-error-reference.html";
        for raw in [
            format!(
                "---\ntitle: T\nconnector: kafka\nkind: error\nerrors: [\"a\", {{source: \"{url}\", text: \"b\"}}, {{generic: true, text: \"c\"}}]\n---\nbody\n"
            ),
            format!(
                "+++\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [\"a\", {{ source = \"{url}\", text = \"b\" }}, {{ generic = true, text = \"c\" }}]\n+++\nbody\n"
            ),
        ] {
            let fixed = fix_file(&raw, &fm_of(&raw)).unwrap();
            assert!(fixed.contains("text"), "{fixed}");
            assert!(fm_of(&fixed).errors.iter().any(|e| e.generic), "{fixed}");
            assert_eq!(fm_of(&fixed), fm_of(&raw), "{fixed}");
            assert_eq!(fix_file(&fixed, &fm_of(&fixed)).unwrap(), fixed);
        }
    }

    /// Every key survives, in both syntaxes (symptoms were once dropped).
    #[test]
    fn keeps_every_key() {
        let yaml = "---\nid: a\ntitle: T\nconnector: kafka\nkind: error\nerrors:\n  - text: \"e\"\n    generic: true\nversions:\n  - product: vvr\n    fixed: \"8.0.9\"\ntags: [t]\nsymptoms:\n  - \"rows vanish\"\n  - \"数据丢了\"\nrelated: [b]\nupdated: 2026-11-29\naliases: [old/a.html]\n---\nbody\n";
        let toml = "+++\nid = \"a\"\ntitle = \"T\"\nconnector = \"kafka\"\nkind = \"error\"\nerrors = [{ text = \"e\", generic = true }]\ntags = [\"t\"]\nsymptoms = [\"rows vanish\", \"数据丢了\"]\nrelated = [\"b\"]\nupdated = 2026-11-29\naliases = [\"old/a.html\"]\n\n[[versions]]\nproduct = \"vvr\"\nfixed = \"8.0.9\"\n+++\nbody\n";
        for raw in [yaml, toml] {
            let before = fm_of(raw);
            assert_eq!(before.symptoms.len(), 2);
            let fixed = fix_file(raw, &before).unwrap();
            assert_eq!(fm_of(&fixed), before, "{fixed}");
            assert_eq!(fix_file(&fixed, &fm_of(&fixed)).unwrap(), fixed);
        }
    }

    #[test]
    fn keeps_toml_and_crlf() {
        let raw = "+++\r\nkind = \"howto\"\r\ntitle = \"T\"\r\nconnector = \"kafka\"\r\n[[versions]]\r\nproduct = \"flink\"\r\naffected = \"<1.16\"\r\n+++\r\nbody\r\n";
        let fixed = fix_file(raw, &fm_of(raw)).unwrap();
        assert!(fixed.starts_with("+++\r\ntitle = \"T\"\r\nconnector = \"kafka\"\r\nkind = \"howto\"\r\n\r\n[[versions]]\r\n"), "{fixed:?}");
        assert!(fixed.ends_with("+++\r\nbody\r\n"));
        assert_eq!(fm_of(&fixed), fm_of(raw));
    }
}
