//! Generator syntax that is not Markdown: converted where kbook has an equivalent (admonitions
//! become GitHub-style `> [!NOTE]` alerts, includes are resolved at import time, Hugo's
//! `highlight` becomes a fenced block), otherwise left in place and reported by file and line.

mod admonitions;
mod hugo;
mod includes;

use super::Leftover;
use super::source::{Generator, SourceTree};
use admonitions::{docusaurus_block, mkdocs_block, zola_block};
use hugo::{hugo_block, hugo_params, hugo_refs};
use includes::{mdbook_includes, mkdocs_snippets};
use std::collections::HashMap;
use std::path::Path;

/// A converted body.
#[derive(Debug, Default)]
pub struct Converted {
    /// The Markdown.
    pub text: String,
    /// How many constructs were converted.
    pub converted: usize,
    /// What was left as it was.
    pub unconverted: Vec<Leftover>,
    /// Files of the tree whose text an include put into the page (paths in the tree).
    pub included: Vec<String>,
}

struct Ctx<'a> {
    rel: &'a str,
    first_line: usize,
    out: Converted,
    /// For each block closer searched for and missing, the first line from which none
    /// follows: a page of openers without closers is then read once, not once per opener.
    unclosed: HashMap<String, usize>,
}

impl Ctx<'_> {
    /// How many lines from `from` the first line that closes a block (`closer` names it)
    /// stands, or None when no line does.
    fn closing(
        &mut self,
        lines: &[&str],
        from: usize,
        closer: &str,
        closes: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        let none_from = self.unclosed.get(closer).copied().unwrap_or(lines.len());
        let found = lines
            .get(from..none_from.max(from))
            .unwrap_or_default()
            .iter()
            .position(|l| closes(l));
        if found.is_none() {
            self.unclosed
                .insert(closer.to_string(), from.min(none_from));
        }
        found
    }

    fn report(&mut self, n: usize, what: impl Into<String>) {
        self.out.unconverted.push(Leftover {
            at: format!("{}:{}", self.rel, self.first_line + n),
            what: what.into(),
        });
    }
}

/// Converts `body` (whose first line is line `first_line` of the page `path`, shown as `rel`).
pub fn convert(
    from: Generator,
    body: &str,
    path: &Path,
    tree: &SourceTree,
    rel: &str,
    first_line: usize,
) -> Converted {
    let mut ctx = Ctx {
        rel,
        first_line,
        out: Converted::default(),
        unclosed: HashMap::new(),
    };
    let (body, origin) = match from {
        Generator::Mdbook => mdbook_includes(body, path, tree, &mut ctx),
        Generator::Mkdocs => mkdocs_snippets(body, path, tree, &mut ctx),
        _ => (body.to_string(), Vec::new()),
    };
    let lines: Vec<&str> = body.lines().collect();
    // Reports name the line of the page, not of the text with includes expanded.
    let origin = |i: usize| origin.get(i).copied().unwrap_or(i);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut fence: Option<(char, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(f) = fence_marker(line) {
            match fence {
                None => fence = Some(f),
                Some((c, n)) if f.0 == c && f.1 >= n => fence = None,
                _ => {}
            }
            out.push(line.to_string());
            i += 1;
            continue;
        }
        if fence.is_some() {
            out.push(line.to_string());
            i += 1;
            continue;
        }
        let consumed = match from {
            Generator::Hugo => hugo_block(&lines, i, &mut out, &mut ctx),
            Generator::Zola => zola_block(&lines, i, &mut out, &mut ctx),
            Generator::Docusaurus => docusaurus_block(&lines, i, &mut out, &mut ctx),
            Generator::Mkdocs => mkdocs_block(&lines, i, &mut out, &mut ctx),
            Generator::Mdbook => 0,
        };
        if consumed > 0 {
            i += consumed;
            end_alert(&mut out, lines.get(i).copied());
            continue;
        }
        let line = match from {
            Generator::Hugo => hugo_params(&hugo_refs(line, &mut ctx), tree, &mut ctx),
            _ => line.to_string(),
        };
        report_inline(from, &line, origin(i), &mut ctx);
        out.push(line);
        i += 1;
    }
    let mut text = out.join("\n");
    text.push('\n');
    ctx.out.text = text;
    ctx.out
}

/// Ends an alert just written to `out` with a blank line when `next` is text: a line right
/// after it would continue its quote (a lazy continuation line).
fn end_alert(out: &mut Vec<String>, next: Option<&str>) {
    if out.last().is_some_and(|l| l.starts_with('>')) && next.is_some_and(|l| !l.trim().is_empty())
    {
        out.push(String::new());
    }
}

/// Reports inline generator syntax that stays as it was (inline code shows syntax, it does
/// not use it: `{% block content %}` in backticks is text).
fn report_inline(from: Generator, written: &str, n: usize, ctx: &mut Ctx<'_>) {
    let line = &without_code_spans(written);
    let found = match from {
        Generator::Hugo => ["{{<", "{{%"]
            .iter()
            .find(|m| line.contains(*m))
            .map(|_| "Hugo shortcode"),
        // (`@/…` links are pointed at the entries with every other link; see `links`.)
        Generator::Zola => (line.contains("{{ ") && line.contains(") }}") || line.contains("{% "))
            .then_some("Zola shortcode"),
        Generator::Docusaurus => {
            let t = line.trim_start();
            (t.starts_with('<') && t[1..].starts_with(|c: char| c.is_ascii_uppercase()))
                .then_some("MDX component")
        }
        // (Content tabs are converted with the admonitions.) Icons and emoji shortcodes
        // (`:material-check:`) and attribute lists (`{ .md-button }`) need their extensions.
        Generator::Mkdocs => mkdocs_leftover(line),
        // Reported where the includes were expanded.
        Generator::Mdbook => None,
    };
    if let Some(what) = found {
        ctx.report(
            n,
            format!("{what} kept as text: `{}`", short(written.trim())),
        );
    }
}

/// `line` without its inline code spans (backtick runs and what they enclose).
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out.push_str(&rest[..i]);
        let ticks = rest[i..].chars().take_while(|&c| c == '`').count();
        let after = &rest[i + ticks..];
        let fence = "`".repeat(ticks);
        match after.find(&fence) {
            Some(j) => rest = &after[j + ticks..],
            // An unclosed run is text.
            None => {
                out.push_str(&rest[i..]);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// MkDocs syntax of an extension kbook has no equivalent for, in `line`.
fn mkdocs_leftover(line: &str) -> Option<&'static str> {
    static ICON: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    static ATTRS: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let icon = ICON.get_or_init(|| {
        regex::Regex::new(r":(material|octicons|fontawesome|simple)-[a-z0-9-]+:").ok()
    });
    let attrs = ATTRS.get_or_init(|| regex::Regex::new(r"\{\s*[.#][A-Za-z][^{}]*\}").ok());
    if icon.as_ref().is_some_and(|r| r.is_match(line)) {
        Some("icon shortcode")
    } else if attrs.as_ref().is_some_and(|r| r.is_match(line))
        && !line.trim_start().starts_with('#')
    {
        Some("attribute list")
    } else {
        None
    }
}

/// A fence opening or closing line: its character and length.
fn fence_marker(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let c = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

/// The GitHub alert an admonition name maps to.
fn alert_kind(name: &str) -> Option<&'static str> {
    Some(match name.to_lowercase().as_str() {
        "note" | "info" | "abstract" | "summary" | "tldr" | "todo" | "seealso" | "example"
        | "quote" => "NOTE",
        "tip" | "hint" | "success" | "check" | "done" => "TIP",
        "important" => "IMPORTANT",
        "warning" | "caution" | "attention" | "question" | "help" | "faq" => "WARNING",
        "danger" | "error" | "failure" | "fail" | "missing" | "bug" => "CAUTION",
        _ => return None,
    })
}

/// The kind named by a shortcode's first positional or `type`/`color` argument.
fn first_arg_kind(args: &str) -> &'static str {
    arg_kind(args).unwrap_or("NOTE")
}

/// [`first_arg_kind`], when an argument names one.
fn arg_kind(args: &str) -> Option<&'static str> {
    named_arg(args, "type")
        .or_else(|| named_arg(args, "color"))
        .or_else(|| {
            args.split_whitespace()
                .next()
                .filter(|a| !a.contains('='))
                .map(|a| a.trim_matches('"').to_string())
        })
        .and_then(|k| alert_kind(&k))
}

/// The first argument when it is quoted (`"Why …?"`, `` `Why …?` ``).
fn quoted_first_arg(args: &str) -> Option<String> {
    leading_quoted(args, &['"', '\'', '`'])
}

/// The text between the quotes `s` starts with (after blanks), one of `quotes`.
fn leading_quoted(s: &str, quotes: &[char]) -> Option<String> {
    let rest = s.trim_start();
    let quote = rest.chars().next().filter(|c| quotes.contains(c))?;
    let end = rest[1..].find(quote)?;
    Some(rest[1..1 + end].to_string())
}

/// Text for HTML: `&`, `<` and `>` escaped.
fn html_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `name="value"` in shortcode arguments.
fn named_arg(args: &str, name: &str) -> Option<String> {
    let i = args.find(&format!("{name}="))?;
    leading_quoted(&args[i + name.len() + 1..], &['"', '\''])
}

fn alert(out: &mut Vec<String>, kind: &str, title: Option<&str>, body: &[&str]) {
    out.push(format!("> [!{kind}]"));
    if let Some(t) = title {
        out.push(format!("> **{t}**"));
        out.push(">".into());
    }
    out.extend(body.iter().map(|l| {
        if l.trim().is_empty() {
            ">".to_string()
        } else {
            format!("> {l}")
        }
    }));
}

fn short(s: &str) -> String {
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_params_and_images_inline() {
        let mut t = SourceTree::new(Path::new("."));
        t.params.insert("version".into(), "3.2".into());
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Hugo,
            "Get {{< param \"Version\" >}} and {{% param Version %}}.\n{{< figure src=\"/a b.png\" caption=\"The [flow]\" >}}\n{{%}} {{< param nope >}} {{<\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "Get 3.2 and 3.2.\n![The flow](/a%20b.png)\n{{%}} {{< param nope >}} {{<\n"
        );
        assert_eq!(c.converted, 3);
        assert_eq!(c.unconverted.len(), 1);
        assert_eq!(c.unconverted[0].at, "page.md:3");
    }

    #[test]
    fn hugo_expand_and_details_blocks_become_details_and_faq_questions() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./faq.md");
        let c = convert(
            Generator::Hugo,
            "{{< expand `Which grants does the copy need?` >}}\nREPLICATION CLIENT.\n{{< /expand >}}\n\n{{% expand \"Why do I see <EOF> errors?\" %}}\nThe server closed the stream.\n{{% /expand %}}\n\n{{< details summary=\"Is it resumable?\" >}}\nYes.\n{{< /details >}}\n",
            p,
            &t,
            "faq.md",
            1,
        );
        assert_eq!(c.converted, 3);
        assert!(c.unconverted.is_empty(), "{:?}", c.unconverted);
        let split = crate::import::faq::split(&c.text, true).unwrap();
        let titles: Vec<&str> = split.questions.iter().map(|q| q.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Which grants does the copy need?",
                "Why do I see <EOF> errors?",
                "Is it resumable?"
            ]
        );
        assert_eq!(
            split.questions[1].body.trim(),
            "The server closed the stream."
        );
    }

    #[test]
    fn admonitions_of_each_generator_become_alerts() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Hugo,
            "{{< warning >}}\nMind the gap.\n{{< /warning >}}\n{{< highlight sql >}}\nSELECT 1;\n{{< /highlight >}}\nSee {{< ref \"other\" >}}.\n",
            p,
            &t,
            "page.md",
            5,
        );
        assert_eq!(
            c.text,
            "> [!WARNING]\n> Mind the gap.\n\n```sql\nSELECT 1;\n```\nSee {{< ref \"other\" >}}.\n"
        );
        assert_eq!(c.converted, 2);
        assert_eq!(c.unconverted.len(), 1);
        assert_eq!(c.unconverted[0].at, "page.md:11");

        let c = convert(
            Generator::Docusaurus,
            "import Tabs from '@theme/Tabs';\n\n:::tip[Fast path]\nRestart it.\n:::\n",
            p,
            &t,
            "p.mdx",
            1,
        );
        assert_eq!(c.text, "\n> [!TIP]\n> **Fast path**\n>\n> Restart it.\n");
        assert_eq!(c.unconverted.len(), 1);

        let c = convert(
            Generator::Mkdocs,
            "!!! danger \"Data loss\"\n    Back up first.\n\n    Then run it.\n\nAfter.\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(
            c.text,
            "> [!CAUTION]\n> **Data loss**\n>\n> Back up first.\n>\n> Then run it.\n\nAfter.\n"
        );

        let c = convert(
            Generator::Zola,
            "{% note() %}\nKeep it.\n{% end %}\n{{ youtube(id=\"x\") }}\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(c.text, "> [!NOTE]\n> Keep it.\n\n{{ youtube(id=\"x\") }}\n");
        assert_eq!(c.unconverted.len(), 1);

        let c = convert(
            Generator::Hugo,
            "[A]({{< ref \"docs/faq/faq.md#q1\" >}}) and [B]({{% relref '/docs/kafka' %}}), <a href=\"{{< ref \"x\" >}}\">C</a>\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(
            c.text,
            "[A](@/docs/faq/faq.md#q1) and [B](@/docs/kafka), <a href=\"{{< ref \"x\" >}}\">C</a>\n"
        );
        assert_eq!((c.converted, c.unconverted.len()), (2, 1));

        // Inside code fences nothing is converted.
        let c = convert(
            Generator::Docusaurus,
            "```\n:::note\nx\n:::\n```\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(c.text, "```\n:::note\nx\n:::\n```\n");
    }

    /// A block opener without a closer stays as text, and does not keep another kind of
    /// block (another closer) from converting.
    /// MkDocs' content tabs read as labelled parts; blocks inside blocks are converted too;
    /// icons and attribute lists are reported.
    #[test]
    fn mkdocs_tabs_and_blocks_inside_blocks() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Mkdocs,
            "=== \"Linux\"\n\n    ``` sh\n    !!! not an admonition\n    ```\n\n=== \"macOS\"\n\n    1. Install it.\n\n!!! warning\n    Careful.\n\n    !!! note\n        Inner.\n\n[Start](x.md){ .md-button } :material-check:\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "**Linux**\n\n``` sh\n!!! not an admonition\n```\n\n**macOS**\n\n1. Install it.\n\n> [!WARNING]\n> Careful.\n>\n> > [!NOTE]\n> > Inner.\n\n[Start](x.md){ .md-button } :material-check:\n"
        );
        assert_eq!(c.converted, 4);
        let said: Vec<&str> = c.unconverted.iter().map(|u| u.what.as_str()).collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("icon shortcode kept as text"),
            "{said:?}"
        );
    }

    /// Generator syntax shown in inline code is text, not syntax left unconverted.
    #[test]
    fn syntax_in_inline_code_is_not_reported() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Zola,
            "Override `{% block content %}` in ``{{ page.title }} `x` ``.\n{% include \"x\" %}\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(c.unconverted.len(), 1, "{:?}", c.unconverted);
        assert_eq!(c.unconverted[0].at, "page.md:2");
        assert_eq!(without_code_spans("a `b` c ``d`e`` f `g"), "a  c  f `g");
    }

    /// A Docusaurus admonition inside another (more colons outside) is converted too.
    #[test]
    fn docusaurus_admonitions_inside_admonitions() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Docusaurus,
            "::::tip[Fast path]\nRestart it.\n\n:::danger\nNot twice.\n:::\n\n::::\nAfter.\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "> [!TIP]\n> **Fast path**\n>\n> Restart it.\n>\n> > [!CAUTION]\n> > Not twice.\n>\n\nAfter.\n"
        );
        assert_eq!(c.converted, 2);
    }

    /// Docusaurus tabs read as labelled parts.
    #[test]
    fn docusaurus_tabs_keep_their_labels() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Docusaurus,
            "<Tabs groupId=\"lang\">\n<TabItem value=\"scala\" label=\"Scala\" default>\n\n```scala\nval x = 1\n```\n\n</TabItem>\n<TabItem value=\"java\">\n\nJava text.\n\n</TabItem>\n<TabItem value=\"ui\">Open it.</TabItem>\n</Tabs>\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "**Scala**\n\n\n```scala\nval x = 1\n```\n\n**java**\n\n\nJava text.\n\n**ui**\n\nOpen it.\n\n"
        );
        assert!(c.unconverted.is_empty(), "{:?}", c.unconverted);
    }

    /// A generic shortcode's argument names the kind; the paragraph after the block is not
    /// part of it.
    #[test]
    fn a_hints_argument_names_its_kind() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        for (args, kind) in [
            (" warning", "WARNING"),
            (" danger", "CAUTION"),
            (" info", "NOTE"),
            ("", "TIP"),
        ] {
            let c = convert(
                Generator::Hugo,
                &format!("{{{{< hint{args} >}}}}\nMind it.\n{{{{< /hint >}}}}\nNext paragraph.\n"),
                p,
                &t,
                "page.md",
                1,
            );
            assert_eq!(
                c.text,
                format!("> [!{kind}]\n> Mind it.\n\nNext paragraph.\n"),
                "{args}"
            );
        }
    }

    #[test]
    fn an_unclosed_block_leaves_other_blocks_alone() {
        let t = SourceTree::new(Path::new("."));
        let p = Path::new("./page.md");
        let c = convert(
            Generator::Hugo,
            "{{< warning >}}\na\n{{< note >}}\nn\n{{< /note >}}\n{{< warning >}}\nb\n",
            p,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "{{< warning >}}\na\n> [!NOTE]\n> n\n\n{{< warning >}}\nb\n"
        );
        assert_eq!(c.converted, 1);
        let at: Vec<&str> = c.unconverted.iter().map(|l| l.at.as_str()).collect();
        assert_eq!(at, ["page.md:1", "page.md:6"]);

        let c = convert(
            Generator::Docusaurus,
            "::::note\nx\n:::tip\ny\n:::\n:::::caution\nz\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(c.text, "::::note\nx\n> [!TIP]\n> y\n\n:::::caution\nz\n");
        let c = convert(
            Generator::Zola,
            "{% note() %}\na\n{% warning() %}\nb\n",
            p,
            &t,
            "p.md",
            1,
        );
        assert_eq!(c.text, "{% note() %}\na\n{% warning() %}\nb\n");
    }

    #[test]
    fn includes_resolve_anchors_and_ranges_inside_the_tree_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("code.txt"),
            "a\n// ANCHOR: mid\nb\nc\n// ANCHOR_END: mid\nd\n",
        )
        .unwrap();
        let t = SourceTree::new(root);
        let page = root.join("page.md");
        let c = convert(
            Generator::Mdbook,
            "{{#include code.txt:mid}}\n{{#include code.txt:1:2}}\n{{#include missing.txt}}\n{{#include ../../etc/passwd}}\n",
            &page,
            &t,
            "page.md",
            1,
        );
        assert_eq!(
            c.text,
            "b\nc\na\n{{#include missing.txt}}\n{{#include ../../etc/passwd}}\n"
        );
        assert_eq!(c.converted, 2);
        assert_eq!(c.unconverted.len(), 2, "{:?}", c.unconverted);
        assert!(c.unconverted[0].what.contains("not found"));
        assert_eq!(c.unconverted[1].at, "page.md:4");
        // A playground is shown as mdBook shows it: a Rust code block.
        std::fs::write(root.join("main.rs"), "fn main() {}\n").unwrap();
        let c = convert(
            Generator::Mdbook,
            "Run it:\n\n{{#playground main.rs}}\n\nDone.\n",
            &page,
            &t,
            "page.md",
            1,
        );
        assert_eq!(c.text, "Run it:\n\n```rust\nfn main() {}\n```\n\nDone.\n");
    }
}
