//! Hugo: shortcode blocks (`highlight`, admonitions, `details`), `ref` links, site
//! parameters and image shortcodes.

use super::{
    Ctx, alert, alert_kind, arg_kind, first_arg_kind, html_text, named_arg, quoted_first_arg,
};
use crate::import::source::SourceTree;

/// Hugo: `{{< highlight lang >}}` blocks and admonition shortcodes (`note`, `tip`, `warning`,
/// `notice TYPE`, `alert`, `hint`, …). Returns the lines consumed (0: not one).
pub(super) fn hugo_block(
    lines: &[&str],
    i: usize,
    out: &mut Vec<String>,
    ctx: &mut Ctx<'_>,
) -> usize {
    let Some((name, args)) = hugo_shortcode(lines[i]) else {
        return 0;
    };
    let closer = format!("/{name}");
    let closes = |l: &str| hugo_shortcode(l).is_some_and(|(n, _)| n == closer);
    let Some(len) = ctx.closing(lines, i + 1, &format!("hugo {closer}"), closes) else {
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
    } else if let Some(kind) = {
        // `{{< hint warning >}}`: the argument names the kind, the name only a default.
        let generic = matches!(
            name.as_str(),
            "notice" | "alert" | "hint" | "callout" | "admonition"
        );
        generic
            .then(|| arg_kind(&args))
            .flatten()
            .or_else(|| alert_kind(&name))
            .or_else(|| generic.then(|| first_arg_kind(&args)))
    } {
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
pub(super) fn hugo_refs(line: &str, ctx: &mut Ctx<'_>) -> String {
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
pub(super) fn hugo_params(line: &str, tree: &SourceTree, ctx: &mut Ctx<'_>) -> String {
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
