//! Generator syntax that is not Markdown: converted where kbook has an equivalent (admonitions
//! become GitHub-style `> [!NOTE]` alerts, includes are resolved at import time, Hugo's
//! `highlight` becomes a fenced block), otherwise left in place and reported by file and line.

use super::source::{Generator, SourceTree};
use super::{Leftover, display};
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
}

struct Ctx<'a> {
    rel: &'a str,
    first_line: usize,
    out: Converted,
}

impl Ctx<'_> {
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

/// Reports inline generator syntax that stays as it was.
fn report_inline(from: Generator, line: &str, n: usize, ctx: &mut Ctx<'_>) {
    let found = match from {
        Generator::Hugo => ["{{<", "{{%"]
            .iter()
            .find(|m| line.contains(*m))
            .map(|_| "Hugo shortcode"),
        Generator::Zola => {
            if line.contains("{{ ") && line.contains(") }}") || line.contains("{% ") {
                Some("Zola shortcode")
            } else if line.contains("](@/") {
                Some("Zola internal link (`@/…`): point it at the entry's page")
            } else {
                None
            }
        }
        Generator::Docusaurus => {
            let t = line.trim_start();
            (t.starts_with('<') && t[1..].starts_with(|c: char| c.is_ascii_uppercase()))
                .then_some("MDX component")
        }
        Generator::Mkdocs => line
            .trim_start()
            .starts_with("=== \"")
            .then_some("content tab"),
        // Reported where the includes were expanded.
        Generator::Mdbook => None,
    };
    if let Some(what) = found {
        ctx.report(n, format!("{what} kept as text: `{}`", short(line.trim())));
    }
}

/// Hugo: `{{< highlight lang >}}` blocks and admonition shortcodes (`note`, `tip`, `warning`,
/// `notice TYPE`, `alert`, `hint`, …). Returns the lines consumed (0: not one).
fn hugo_block(lines: &[&str], i: usize, out: &mut Vec<String>, ctx: &mut Ctx<'_>) -> usize {
    let Some((name, args)) = hugo_shortcode(lines[i]) else {
        return 0;
    };
    let closing = |l: &str| hugo_shortcode(l).is_some_and(|(n, _)| n == format!("/{name}"));
    let Some(len) = lines[i + 1..].iter().position(|l| closing(l)) else {
        return 0;
    };
    let inner = &lines[i + 1..i + 1 + len];
    if name == "highlight" {
        let lang = args
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_matches('"');
        out.push(format!("```{lang}"));
        out.extend(inner.iter().map(|l| l.to_string()));
        out.push("```".into());
    } else if let Some(kind) = alert_kind(&name).or_else(|| {
        matches!(
            name.as_str(),
            "notice" | "alert" | "hint" | "callout" | "admonition"
        )
        .then(|| first_arg_kind(&args))
    }) {
        alert(out, kind, named_arg(&args, "title").as_deref(), inner);
    } else if let Some(summary) = matches!(name.as_str(), "details" | "expand")
        .then(|| {
            named_arg(&args, "summary")
                .or_else(|| named_arg(&args, "title"))
                .or_else(|| quoted_first_arg(&args))
        })
        .flatten()
    {
        // Hugo's `details` and the `expand` of common themes: a block that opens on its
        // summary, as `<details>` (FAQ pages write one per question).
        out.push("<details>".into());
        out.push(format!("<summary>{}</summary>", html_text(&summary)));
        out.push(String::new());
        out.extend(inner.iter().map(|l| l.to_string()));
        out.push(String::new());
        out.push("</details>".into());
    } else {
        return 0;
    }
    ctx.out.converted += 1;
    len + 2
}

/// Hugo's `[text]({{< ref "docs/page" >}})` (and `relref`, `{{% … %}}`) as a link to the page
/// by its path below the pages directory (`@/docs/page`), which the import points at the
/// page's entry like any other link between pages.
fn hugo_refs(line: &str, ctx: &mut Ctx<'_>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i + 2]);
        rest = &rest[i + 2..];
        let Some((target, after)) = hugo_ref(rest) else {
            continue;
        };
        out.push_str("@/");
        out.push_str(target.trim_start_matches('/'));
        ctx.out.converted += 1;
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Hugo's `{{< param Version >}}` (and `{{% … %}}`, quoted names) as the value of that site
/// parameter, and `{{< figure src="…" alt="…" >}}` (`img`, `image`) as a Markdown image; a
/// parameter the configuration does not give stays, and is reported.
fn hugo_params(line: &str, tree: &SourceTree, ctx: &mut Ctx<'_>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let s = &rest[i..];
        let Some((inner, after)) = shortcode_at(s) else {
            out.push_str("{{");
            rest = &s[2..];
            continue;
        };
        match inline_value(inner, tree) {
            Some(v) => {
                out.push_str(&v);
                ctx.out.converted += 1;
            }
            None => out.push_str(&s[..s.len() - after.len()]),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What an inline shortcode (`name args`) becomes: a site parameter's value, or a Markdown
/// image for the image shortcodes of Hugo and common themes (copied later).
fn inline_value(inner: &str, tree: &SourceTree) -> Option<String> {
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    match name {
        "param" => tree
            .params
            .get(&args.trim().trim_matches(['"', '\'']).to_lowercase())
            .cloned(),
        "figure" | "img" | "image" => named_arg(args, "src").map(|src| {
            let alt = ["alt", "title", "caption"]
                .iter()
                .find_map(|a| named_arg(args, a))
                .unwrap_or_default();
            format!(
                "![{}]({})",
                alt.replace(['[', ']'], ""),
                src.replace(' ', "%20")
            )
        }),
        _ => None,
    }
}

/// A shortcode `{{< … >}}` or `{{% … %}}` at the start of `s`: its inner text (trimmed) and
/// the text after it. The closing marker is looked for after the opening one (`{{%}}` is
/// not a shortcode).
fn shortcode_at(s: &str) -> Option<(&str, &str)> {
    let close = if s.starts_with("{{<") {
        ">}}"
    } else if s.starts_with("{{%") {
        "%}}"
    } else {
        return None;
    };
    let end = s.get(3..)?.find(close)? + 3;
    Some((s[3..end].trim(), &s[end + close.len()..]))
}

/// `{{< ref "x" >}}…` at the start of `s`: the target and the text after the shortcode.
fn hugo_ref(s: &str) -> Option<(&str, &str)> {
    let (inner, after) = shortcode_at(s)?;
    let arg = inner
        .strip_prefix("relref")
        .or_else(|| inner.strip_prefix("ref"))?
        .trim()
        .trim_matches(['"', '\'']);
    (!arg.is_empty() && !arg.contains(char::is_whitespace)).then_some((arg, after))
}

/// `{{< name args >}}` or `{{% name args %}}` alone on a line: its name and arguments.
fn hugo_shortcode(line: &str) -> Option<(String, String)> {
    let t = line.trim();
    let inner = t
        .strip_prefix("{{<")
        .and_then(|r| r.strip_suffix(">}}"))
        .or_else(|| t.strip_prefix("{{%").and_then(|r| r.strip_suffix("%}}")))?;
    let inner = inner.trim();
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    Some((name.to_string(), args.trim().to_string()))
}

/// Zola: `{% note() %}` / `{% admonition(type="warning") %}` … `{% end %}` (theme
/// shortcodes with an admonition's name).
fn zola_block(lines: &[&str], i: usize, out: &mut Vec<String>, ctx: &mut Ctx<'_>) -> usize {
    let t = lines[i].trim();
    let Some(call) = t.strip_prefix("{%").and_then(|r| r.strip_suffix("%}")) else {
        return 0;
    };
    let call = call.trim();
    let Some((name, args)) = call.split_once('(') else {
        return 0;
    };
    let args = args.trim_end_matches(')');
    let kind = alert_kind(name).or_else(|| {
        matches!(name, "admonition" | "alert" | "callout" | "notice").then(|| {
            named_arg(args, "type")
                .and_then(|k| alert_kind(&k))
                .unwrap_or("NOTE")
        })
    });
    let Some(kind) = kind else {
        return 0;
    };
    let Some(len) = lines[i + 1..]
        .iter()
        .position(|l| matches!(l.trim(), "{% end %}" | "{%end%}"))
    else {
        return 0;
    };
    alert(
        out,
        kind,
        named_arg(args, "title").as_deref(),
        &lines[i + 1..i + 1 + len],
    );
    ctx.out.converted += 1;
    len + 2
}

/// Docusaurus: `:::note[Title]` … `:::` admonitions; MDX `import`/`export` lines are removed
/// (they only feed components).
fn docusaurus_block(lines: &[&str], i: usize, out: &mut Vec<String>, ctx: &mut Ctx<'_>) -> usize {
    let t = lines[i].trim();
    if (t.starts_with("import ") && (t.contains(" from ") || t.ends_with(';')))
        || t.starts_with("export ")
    {
        ctx.report(
            i,
            format!("MDX `{}` removed (it only feeds components)", short(t)),
        );
        return 1;
    }
    let colons = t.chars().take_while(|&c| c == ':').count();
    if colons < 3 {
        return 0;
    }
    let rest = &t[colons..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let Some(kind) = alert_kind(&name) else {
        return 0;
    };
    let title = rest[name.len()..]
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim()
        .to_string();
    let close = ":".repeat(colons);
    let Some(len) = lines[i + 1..].iter().position(|l| l.trim() == close) else {
        return 0;
    };
    let title = (!title.is_empty()).then_some(title);
    alert(out, kind, title.as_deref(), &lines[i + 1..i + 1 + len]);
    ctx.out.converted += 1;
    len + 2
}

/// MkDocs: `!!! type "Title"` and collapsible `??? type` admonitions with an indented body.
fn mkdocs_block(lines: &[&str], i: usize, out: &mut Vec<String>, ctx: &mut Ctx<'_>) -> usize {
    let t = lines[i].trim_start();
    let Some(rest) = ["!!! ", "???+ ", "??? "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
    else {
        return 0;
    };
    let rest = rest.trim();
    let (name, title) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let kind = alert_kind(name).unwrap_or("NOTE");
    let title = title.trim().trim_matches('"');
    let indent = lines[i].len() - t.len();
    let mut body = Vec::new();
    let mut j = i + 1;
    while j < lines.len() {
        let l = lines[j];
        let inner = l
            .strip_prefix(&" ".repeat(indent + 4))
            .or_else(|| l.strip_prefix(&format!("{}\t", " ".repeat(indent))));
        match inner {
            Some(inner) => body.push(inner),
            None if l.trim().is_empty() => body.push(""),
            None => break,
        }
        j += 1;
    }
    while body.last().is_some_and(|l| l.is_empty()) {
        body.pop();
        j -= 1;
    }
    let title = (!title.is_empty()).then_some(title);
    alert(out, kind, title, &body);
    ctx.out.converted += 1;
    j - i
}

/// mdBook: `{{#include file}}` (with `:anchor` or `:from:to` lines), `{{#rustdoc_include}}`
/// and `{{#playground}}` replaced by the file's text; `{{#title}}` removed.
fn mdbook_includes(
    body: &str,
    page: &Path,
    tree: &SourceTree,
    ctx: &mut Ctx<'_>,
) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(body.len());
    let mut origin = Vec::new();
    for (n, line) in body.split_inclusive('\n').enumerate() {
        let before = out.matches('\n').count();
        let mut rest = line;
        while let Some(open) = rest.find("{{#") {
            let Some(close) = rest[open..].find("}}").map(|c| c + open) else {
                break;
            };
            out.push_str(&rest[..open]);
            let directive = rest[open + 3..close].trim();
            let (name, arg) = directive
                .split_once(char::is_whitespace)
                .unwrap_or((directive, ""));
            match name {
                "include" | "rustdoc_include" | "playground" => {
                    match include(arg.trim(), page, tree) {
                        Ok(text) => {
                            out.push_str(text.trim_end_matches('\n'));
                            ctx.out.converted += 1;
                        }
                        Err(why) => {
                            ctx.report(n, format!("{{{{#{name} {arg}}}}} kept as text: {why}"));
                            out.push_str(&rest[open..close + 2]);
                        }
                    }
                }
                "title" => {
                    ctx.report(
                        n,
                        "{{#title}} removed (the entry's title is its front-matter title)",
                    );
                }
                _ => {
                    ctx.report(
                        n,
                        format!("mdBook directive `{{{{#{name}}}}}` kept as text"),
                    );
                    out.push_str(&rest[open..close + 2]);
                }
            }
            rest = &rest[close + 2..];
        }
        out.push_str(rest);
        origin.resize(out.matches('\n').count().max(before + 1), n);
    }
    (out, origin)
}

/// MkDocs (pymdownx.snippets): a `--8<-- "file"` line replaced by the file's text.
fn mkdocs_snippets(
    body: &str,
    page: &Path,
    tree: &SourceTree,
    ctx: &mut Ctx<'_>,
) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(body.len());
    let mut origin = Vec::new();
    for (n, line) in body.split_inclusive('\n').enumerate() {
        let t = line.trim();
        let Some(arg) = t.strip_prefix("--8<--") else {
            out.push_str(line);
            origin.push(n);
            continue;
        };
        let arg = arg.trim().trim_matches(['"', '\'']);
        // Snippets resolve from the project root by default; try the page's directory too.
        let found = include(arg, &tree.root.join("x"), tree).or_else(|_| include(arg, page, tree));
        match found {
            Ok(text) => {
                out.push_str(text.trim_end_matches('\n'));
                out.push('\n');
                ctx.out.converted += 1;
            }
            Err(why) => {
                ctx.report(n, format!("snippet `{arg}` kept as text: {why}"));
                out.push_str(line);
            }
        }
        let lines = out.matches('\n').count();
        origin.resize(lines.max(origin.len() + 1), n);
    }
    (out, origin)
}

/// The text of an included file, relative to `page`'s directory, optionally cut to an
/// anchor (`file:name`) or a line range (`file:3:10`, `file:3:`, `file::10`, `file:3`). Only
/// files inside the source tree are read.
fn include(arg: &str, page: &Path, tree: &SourceTree) -> Result<String, String> {
    let mut parts = arg.splitn(3, ':');
    let file = parts.next().unwrap_or("").trim();
    let (a, b) = (parts.next(), parts.next());
    let dir = page.parent().unwrap_or(&tree.root);
    let path = dir.join(file);
    let canonical = path
        .canonicalize()
        .map_err(|_| format!("{} not found", display(&path, &tree.root)))?;
    let root = tree
        .root
        .canonicalize()
        .unwrap_or_else(|_| tree.root.clone());
    if !canonical.starts_with(&root) {
        return Err("the file is outside the source tree".into());
    }
    let text = std::fs::read_to_string(&canonical).map_err(|e| e.to_string())?;
    let lines: Vec<&str> = text.lines().collect();
    let num = |s: Option<&str>| s.filter(|s| !s.is_empty()).map(str::parse::<usize>);
    let selected: Vec<&str> = match (a, b) {
        (None, _) | (Some(""), None) => lines,
        (Some(name), None) if name.parse::<usize>().is_err() => {
            let start = lines
                .iter()
                .position(|l| anchor_marker(l, "ANCHOR:") == Some(name))
                .ok_or(format!("anchor `{name}` not found"))?;
            let end = lines[start..]
                .iter()
                .position(|l| anchor_marker(l, "ANCHOR_END:") == Some(name))
                .map_or(lines.len(), |e| start + e);
            lines[start + 1..end].to_vec()
        }
        (from, to) => {
            let from = num(from)
                .transpose()
                .map_err(|e| e.to_string())?
                .unwrap_or(1)
                .max(1);
            let to = match to {
                None => Some(from),
                Some(t) => num(Some(t)).transpose().map_err(|e| e.to_string())?,
            };
            let to = to.unwrap_or(lines.len()).min(lines.len());
            lines.get(from - 1..to).unwrap_or_default().to_vec()
        }
    };
    // Other anchors' markers are not part of the text.
    let kept: Vec<&str> = selected
        .into_iter()
        .filter(|l| {
            anchor_marker(l, "ANCHOR:").is_none() && anchor_marker(l, "ANCHOR_END:").is_none()
        })
        .collect();
    Ok(kept.join("\n") + "\n")
}

fn anchor_marker<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let i = line.find(marker)?;
    line[i + marker.len()..].split_whitespace().next()
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
    named_arg(args, "type")
        .or_else(|| named_arg(args, "color"))
        .or_else(|| {
            args.split_whitespace()
                .next()
                .filter(|a| !a.contains('='))
                .map(|a| a.trim_matches('"').to_string())
        })
        .and_then(|k| alert_kind(&k))
        .unwrap_or("NOTE")
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
            "> [!WARNING]\n> Mind the gap.\n```sql\nSELECT 1;\n```\nSee {{< ref \"other\" >}}.\n"
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
        assert_eq!(c.text, "> [!NOTE]\n> Keep it.\n{{ youtube(id=\"x\") }}\n");
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
    }
}
