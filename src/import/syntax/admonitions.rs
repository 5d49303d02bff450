//! The admonitions of Zola themes, Docusaurus and MkDocs, as GitHub-style alerts.

use super::{Ctx, alert, alert_kind, named_arg, short};

/// Zola: `{% note() %}` / `{% admonition(type="warning") %}` … `{% end %}` (theme
/// shortcodes with an admonition's name).
pub(super) fn zola_block(
    lines: &[&str],
    i: usize,
    out: &mut Vec<String>,
    ctx: &mut Ctx<'_>,
) -> usize {
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
    let closes = |l: &str| matches!(l.trim(), "{% end %}" | "{%end%}");
    let Some(len) = ctx.closing(lines, i + 1, "zola end", closes) else {
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
pub(super) fn docusaurus_block(
    lines: &[&str],
    i: usize,
    out: &mut Vec<String>,
    ctx: &mut Ctx<'_>,
) -> usize {
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
    // Tabs: `<Tabs>` and `</Tabs>`, `</TabItem>` go; a `<TabItem … label="Scala">` (or
    // its `value`) becomes its label in bold over its body, so the tabs read one after another.
    if matches!(t, "<Tabs>" | "</Tabs>" | "</TabItem>")
        || (t.starts_with("<Tabs ") && t.ends_with('>'))
    {
        ctx.out.converted += 1;
        return 1;
    }
    if let Some((attrs, rest)) = t
        .strip_prefix("<TabItem")
        .filter(|r| r.starts_with([' ', '>']))
        .and_then(|r| r.split_once('>'))
    {
        let label = named_arg(attrs, "label").or_else(|| named_arg(attrs, "value"));
        if let Some(label) = label {
            out.push(format!("**{}**", label.trim()));
            out.push(String::new());
        }
        // A tab written on one line (`<TabItem value="ui">Open the page.</TabItem>`).
        let inner = rest.strip_suffix("</TabItem>").unwrap_or(rest).trim();
        if !inner.is_empty() {
            out.push(inner.to_string());
            out.push(String::new());
        }
        ctx.out.converted += 1;
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
    let Some(len) = ctx.closing(lines, i + 1, &close, |l| l.trim() == close) else {
        return 0;
    };
    let title = (!title.is_empty()).then_some(title);
    // A block inside (`:::danger` within `::::tip`) is converted too.
    let body = nested(&lines[i + 1..i + 1 + len], ctx, docusaurus_block);
    let body: Vec<&str> = body.iter().map(String::as_str).collect();
    alert(out, kind, title.as_deref(), &body);
    ctx.out.converted += 1;
    len + 2
}

/// MkDocs: `!!! type "Title"` and collapsible `??? type` admonitions with an indented body.
pub(super) fn mkdocs_block(
    lines: &[&str],
    i: usize,
    out: &mut Vec<String>,
    ctx: &mut Ctx<'_>,
) -> usize {
    let t = lines[i].trim_start();
    // A content tab (`=== "Linux"`, indented body): its label in bold over its body, so
    // the tabs of one set read one after another.
    if let Some(label) = ["=== \"", "===! \"", "===+ \""]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .and_then(|r| r.trim_end().strip_suffix('"'))
    {
        let indent = lines[i].len() - t.len();
        let (body, end) = indented_body(lines, i + 1, indent);
        let body: Vec<&str> = body.into_iter().skip_while(|l| l.is_empty()).collect();
        out.push(format!("**{}**", label.trim()));
        out.push(String::new());
        out.extend(nested(&body, ctx, mkdocs_block));
        ctx.out.converted += 1;
        return end - i;
    }
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
    let (body, j) = indented_body(lines, i + 1, indent);
    let body = nested(&body, ctx, mkdocs_block);
    let body: Vec<&str> = body.iter().map(String::as_str).collect();
    let title = (!title.is_empty()).then_some(title);
    alert(out, kind, title, &body);
    ctx.out.converted += 1;
    j - i
}

/// The lines from `from` indented four spaces (or a tab) past `indent`, de-indented, blank
/// ones kept inside; and the line after them.
fn indented_body<'a>(lines: &[&'a str], from: usize, indent: usize) -> (Vec<&'a str>, usize) {
    let mut body = Vec::new();
    let mut j = from;
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
    (body, j)
}

/// A block's converter: the lines it consumed at `i` (0: none).
type Block = fn(&[&str], usize, &mut Vec<String>, &mut Ctx<'_>) -> usize;

/// A block's body with the blocks inside it converted by `block` too (outside fences).
fn nested(body: &[&str], ctx: &mut Ctx<'_>, block: Block) -> Vec<String> {
    // What the page's search for closers learnt is about the page's lines, not these.
    let page_unclosed = std::mem::take(&mut ctx.unclosed);
    let out = nested_lines(body, ctx, block);
    ctx.unclosed = page_unclosed;
    out
}

fn nested_lines(body: &[&str], ctx: &mut Ctx<'_>, block: Block) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut i = 0;
    while i < body.len() {
        let line = body[i];
        if let Some((c, n)) = super::fence_marker(line) {
            fence = match fence {
                None => Some((c, n)),
                Some((fc, fnn)) if fc == c && n >= fnn => None,
                open => open,
            };
        } else if fence.is_none() {
            let used = block(body, i, &mut out, ctx);
            if used > 0 {
                i += used;
                super::end_alert(&mut out, body.get(i).copied());
                continue;
            }
        }
        out.push(line.to_string());
        i += 1;
    }
    out
}
