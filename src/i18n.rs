//! The texts of the page chrome (navigation, headings, search UI, version picker, 404 page,
//! aria labels, dates) in the book's language: `[book] language` picks a built-in set
//! (English, Simplified Chinese), and `[kbook.strings]` in book.toml overrides any text.
//!
//! Templates read them as `t.<key>`; the page scripts get the ones they show through the
//! page's `kbook-strings` meta tag (only texts that differ from the English built into the
//! scripts, so an English page carries none).

use std::collections::BTreeMap;

/// Texts the templates show.
const EN_PAGE: &[(&str, &str)] = &[
    ("skip_link", "Skip to content"),
    ("site_nav", "Site"),
    ("errors_link", "Errors A–Z"),
    ("tags_link", "Tags"),
    ("source_link", "Source"),
    ("theme_toggle", "Toggle dark theme"),
    ("connectors", "Connectors"),
    ("all_entries", "All {n} entries…"),
    ("footer_entries", "{n} entries"),
    ("feed", "Feed"),
    ("built_with", "built with kbook"),
    ("search_label", "Search the knowledge base"),
    ("search_placeholder", "Search or paste an error… ( / )"),
    ("search_title", "Search"),
    ("back_to_site", "← Back to the site"),
    (
        "paste_label",
        "Paste an error message, a log excerpt or a whole stack trace",
    ),
    (
        "paste_help",
        "Results update as you type; {ctrl}+{enter} searches at once. Stack frames and log prefixes count little, so paste freely.",
    ),
    ("search_button", "Search"),
    (
        "noscript",
        "Search needs JavaScript and WebAssembly. Browse the connectors or the {link} instead.",
    ),
    ("error_index_link", "error index"),
    ("version_legend", "Your product version"),
    ("version_product", "Product"),
    ("version_any", "Any version"),
    ("version_value", "Version"),
    ("version_clear", "Clear"),
    ("breadcrumb", "Breadcrumb"),
    ("home", "Home"),
    ("updated", "Updated {date}"),
    ("date_format", "{year}-{month}-{day}"),
    ("error_messages", "Error messages"),
    ("symptoms", "Symptoms"),
    ("error_source", "source"),
    ("versions", "Versions"),
    ("affected", "Affected"),
    ("fixed_in", "Fixed in"),
    ("note", "Note"),
    ("on_this_page", "On this page"),
    ("tags_label", "Tags:"),
    ("related", "Related entries"),
    ("edit_page", "Edit this page"),
    ("prev_next", "Previous and next entries"),
    (
        "home_hint",
        "Paste an error message or a whole stack trace: {link} or press {key}.",
    ),
    ("home_hint_link", "open the search page"),
    ("entries_one", "{n} entry"),
    ("entries_other", "{n} entries"),
    ("connector_count_one", "{n} entry."),
    ("connector_count_other", "{n} entries."),
    ("recently_updated", "Recently updated"),
    ("error_index_title", "Error index"),
    (
        "error_index_intro",
        "Every error message in this knowledge base, A–Z. Each links to the entry that explains it.",
    ),
    ("letters", "Letters"),
    ("error_index_other", "#"),
    ("tags_title", "Tags"),
    ("not_found_title", "Page not found"),
    (
        "not_found_text",
        "This page does not exist (any more). Try the search above, the {home} or the {errors}.",
    ),
    ("not_found_home_link", "home page"),
    ("not_found_maybe", "Maybe one of these?"),
    ("not_found_search_link", "Search"),
    ("moved_title", "Moved: {title}"),
    ("moved_text", "This entry moved to {link}."),
    (
        "opensearch_description",
        "Search {title} by pasting an error message",
    ),
    (
        "single_file_edition",
        "single-file edition, built with kbook",
    ),
    ("heading_link", "Link to this section"),
    ("alert_note", "Note"),
    ("alert_tip", "Tip"),
    ("alert_important", "Important"),
    ("alert_warning", "Warning"),
    ("alert_caution", "Caution"),
];

/// Texts the page scripts show (their English copies live in static/theme.js and
/// static/search.js; a browser test checks both lists agree).
const EN_SCRIPT: &[(&str, &str)] = &[
    ("copy", "Copy"),
    ("copied", "Copied"),
    ("copy_failed", "Copy failed"),
    ("copy_title", "Copy to clipboard"),
    ("copy_link", "Copy link"),
    ("copy_link_title", "Copy a link to this entry"),
    ("highlight_note", "Search terms are highlighted."),
    ("highlight_clear", "Remove highlighting"),
    ("nav_show", "Show navigation"),
    ("nav_hide", "Hide navigation"),
    ("not_found_search", "Search for “{q}”"),
    ("version_applies", "Applies to your version {version}"),
    (
        "version_applies_fixed",
        "Applies to your version {version} (fixed in {fixed})",
    ),
    (
        "version_fixed",
        "Does not affect {version} (fixed in {fixed})",
    ),
    ("version_not_affected", "Does not affect {version}"),
    ("version_unknown", "This entry says nothing about {product}"),
    (
        "version_vague",
        "Whether it applies to {version} depends on the exact release",
    ),
    ("version_change", "Change version"),
    ("loading", "Loading search…"),
    ("unavailable", "Search is unavailable: {error}"),
    ("failed", "Search failed: {error}"),
    (
        "too_long",
        "this search needs more of the index than one search loads; search for the error lines only",
    ),
    ("recent", "Recent searches"),
    ("results_label", "Search results"),
    (
        "box_no_match",
        "No entries match. Try the exception message or its “Caused by:” line; the search page has more tips.",
    ),
    ("box_weak", "No confident match. The nearest entries:"),
    (
        "box_all",
        "All results for this search on the search page →",
    ),
    ("no_match", "No entries match."),
    ("no_match_filtered", "No entries match with these filters."),
    (
        "no_match_filtered_hint",
        "Clear a chip to widen the search.",
    ),
    ("no_confident", "No confident match."),
    ("no_confident_more", "The nearest entries are listed below."),
    ("best_match", "Best match"),
    ("results", "Results"),
    ("nearest", "Nearest entries"),
    ("status_none", "No results"),
    ("more_results", "Show {n} more"),
    ("status_one", "{n} result in {ms} ms"),
    ("status_many", "{n} results in {ms} ms"),
    ("status_of", "{n} of {total} results in {ms} ms"),
    ("announce_one", "{n} result"),
    ("announce_many", "{n} results"),
    ("announce_of", "{n} of {total} results"),
    (
        "paste_missing",
        "This address names a long search that only the browser tab which ran it keeps. Paste the error again to search.",
    ),
    (
        "paste_cut",
        "This paste is long: its first and last {k}K characters were searched, where a log's failure usually is. Paste the part around the error for a closer match.",
    ),
    ("facet_connector", "Connector"),
    ("facet_kind", "Kind"),
    ("facet_label", "{name}:"),
    ("tips_title", "Tips:"),
    (
        "tip_paste",
        "Paste the exception message itself, or its “Caused by:” line, rather than the whole log.",
    ),
    (
        "tip_values",
        "Leave out values from your environment: host names, table names, ids and timestamps.",
    ),
    (
        "tip_fewer",
        "Try fewer words: the class name of the exception, or the error code.",
    ),
    ("tip_index", "Browse the {link} (every error message, A–Z)."),
    ("tip_index_link", "error index"),
    ("version_mark_other", "Not your version"),
    (
        "version_mark_other_fixed",
        "Not your version: fixed in {fixed}",
    ),
    ("version_mark_affected", "Affects {version}"),
    (
        "version_mark_vague",
        "May affect {version}: depends on the exact release",
    ),
    (
        "version_mark_affected_fixed",
        "Affects {version}, fixed in {fixed}",
    ),
    (
        "version_help",
        "Pick your product and type or pick its version: entries that do not affect it are listed last and marked.",
    ),
    (
        "version_active",
        "Results for {version}: entries that do not affect it are listed last and marked.",
    ),
    (
        "version_invalid",
        "“{text}” is not a version: use numbers such as 8.0.7.",
    ),
    (
        "best_other_version",
        "The best match does not affect {version}: it is listed after the entries that may, marked.",
    ),
    (
        "version_param_invalid",
        "The address asks for version “{text}”, which is not a product and version (product=1.2.3), so it is ignored.",
    ),
    (
        "version_param_unknown",
        "The address asks for version “{text}”, but no entry of this book names product “{product}”, so it is ignored.",
    ),
];

const ZH_PAGE: &[(&str, &str)] = &[
    ("skip_link", "跳到正文"),
    ("site_nav", "站点"),
    ("errors_link", "错误索引"),
    ("tags_link", "标签"),
    ("source_link", "源代码"),
    ("theme_toggle", "切换深色主题"),
    ("connectors", "连接器"),
    ("all_entries", "全部 {n} 个条目…"),
    ("footer_entries", "{n} 个条目"),
    ("feed", "订阅"),
    ("built_with", "由 kbook 生成"),
    ("search_label", "搜索知识库"),
    ("search_placeholder", "搜索或粘贴错误信息…（/）"),
    ("search_title", "搜索"),
    ("back_to_site", "← 返回网站"),
    ("paste_label", "粘贴错误信息、日志片段或完整的堆栈跟踪"),
    (
        "paste_help",
        "结果随输入更新；按 {ctrl}+{enter} 立即搜索。堆栈帧和日志前缀的权重很低，可以放心粘贴。",
    ),
    ("search_button", "搜索"),
    (
        "noscript",
        "搜索需要 JavaScript 和 WebAssembly。请改为浏览各连接器或{link}。",
    ),
    ("error_index_link", "错误索引"),
    ("version_legend", "你的产品版本"),
    ("version_product", "产品"),
    ("version_any", "不限版本"),
    ("version_value", "版本"),
    ("version_clear", "清除"),
    ("breadcrumb", "面包屑导航"),
    ("home", "首页"),
    ("updated", "更新于 {date}"),
    ("date_format", "{year}年{m}月{d}日"),
    ("error_messages", "错误信息"),
    ("symptoms", "症状"),
    ("error_source", "来源"),
    ("versions", "版本"),
    ("affected", "受影响版本"),
    ("fixed_in", "修复版本"),
    ("note", "说明"),
    ("on_this_page", "本页内容"),
    ("tags_label", "标签："),
    ("related", "相关条目"),
    ("edit_page", "编辑此页"),
    ("prev_next", "上一个和下一个条目"),
    (
        "home_hint",
        "粘贴错误信息或完整的堆栈跟踪：{link}，或按 {key}。",
    ),
    ("home_hint_link", "打开搜索页"),
    ("entries_one", "{n} 个条目"),
    ("entries_other", "{n} 个条目"),
    ("connector_count_one", "共 {n} 个条目。"),
    ("connector_count_other", "共 {n} 个条目。"),
    ("recently_updated", "最近更新"),
    ("error_index_title", "错误索引"),
    (
        "error_index_intro",
        "本知识库中的所有错误信息，按首字母 A–Z 排列，其余的列在最后。每条都链接到解释它的条目。",
    ),
    ("letters", "字母"),
    ("error_index_other", "其他"),
    ("tags_title", "标签"),
    ("not_found_title", "页面不存在"),
    (
        "not_found_text",
        "此页面不存在（或已被移除）。请试试上方的搜索、{home}或{errors}。",
    ),
    ("not_found_home_link", "首页"),
    ("not_found_maybe", "也许是这些？"),
    ("not_found_search_link", "搜索"),
    ("moved_title", "已移动：{title}"),
    ("moved_text", "此条目已移至 {link}。"),
    ("opensearch_description", "粘贴错误信息搜索{title}"),
    ("single_file_edition", "单文件版，由 kbook 生成"),
    ("heading_link", "链接到本节"),
    ("alert_note", "注意"),
    ("alert_tip", "提示"),
    ("alert_important", "重要"),
    ("alert_warning", "警告"),
    ("alert_caution", "小心"),
];

const ZH_SCRIPT: &[(&str, &str)] = &[
    ("copy", "复制"),
    ("copied", "已复制"),
    ("copy_failed", "复制失败"),
    ("copy_title", "复制到剪贴板"),
    ("copy_link", "复制链接"),
    ("copy_link_title", "复制此条目的链接"),
    ("highlight_note", "已高亮显示搜索词。"),
    ("highlight_clear", "取消高亮"),
    ("nav_show", "显示导航"),
    ("nav_hide", "隐藏导航"),
    ("not_found_search", "搜索“{q}”"),
    ("version_applies", "适用于你的版本 {version}"),
    (
        "version_applies_fixed",
        "适用于你的版本 {version}（已在 {fixed} 修复）",
    ),
    ("version_fixed", "不影响 {version}（已在 {fixed} 修复）"),
    ("version_not_affected", "不影响 {version}"),
    ("version_unknown", "此条目未提及 {product} 的版本"),
    ("version_vague", "是否适用于 {version} 取决于具体的版本号"),
    ("version_change", "更改版本"),
    ("loading", "正在加载搜索…"),
    ("unavailable", "搜索不可用：{error}"),
    ("failed", "搜索失败：{error}"),
    ("too_long", "这次搜索要加载的索引太多，请只搜索报错的那几行"),
    ("recent", "最近的搜索"),
    ("results_label", "搜索结果"),
    (
        "box_no_match",
        "没有匹配的条目。试试异常信息本身或其 “Caused by:” 行；搜索页有更多提示。",
    ),
    ("box_weak", "没有可信的匹配。最接近的条目："),
    ("box_all", "在搜索页查看全部结果 →"),
    ("no_match", "没有匹配的条目。"),
    ("no_match_filtered", "在这些筛选条件下没有匹配的条目。"),
    ("no_match_filtered_hint", "取消一个筛选以扩大搜索范围。"),
    ("no_confident", "没有可信的匹配。"),
    ("no_confident_more", "下面列出最接近的条目。"),
    ("best_match", "最佳匹配"),
    ("results", "结果"),
    ("nearest", "最接近的条目"),
    ("status_none", "没有结果"),
    ("more_results", "再显示 {n} 条"),
    ("status_one", "{n} 个结果，用时 {ms} 毫秒"),
    ("status_many", "{n} 个结果，用时 {ms} 毫秒"),
    ("status_of", "{n}/{total} 个结果，用时 {ms} 毫秒"),
    ("announce_one", "{n} 个结果"),
    ("announce_many", "{n} 个结果"),
    ("announce_of", "{n}/{total} 个结果"),
    (
        "paste_missing",
        "此地址指向的长搜索只保存在执行它的浏览器标签页中。请重新粘贴错误信息来搜索。",
    ),
    (
        "paste_cut",
        "粘贴的内容很长：只搜索了开头和结尾各 {k}K 个字符，日志里的故障通常在这两处。粘贴报错附近的部分可以得到更接近的结果。",
    ),
    ("facet_connector", "连接器"),
    ("facet_kind", "类型"),
    ("facet_label", "{name}："),
    ("tips_title", "提示："),
    (
        "tip_paste",
        "粘贴异常信息本身或其 “Caused by:” 行，而不是整段日志。",
    ),
    (
        "tip_values",
        "去掉你环境中的取值：主机名、表名、ID 和时间戳。",
    ),
    ("tip_fewer", "少用几个词：异常的类名或错误码。"),
    ("tip_index", "浏览{link}（所有错误信息，按 A–Z 排列）。"),
    ("tip_index_link", "错误索引"),
    ("version_mark_other", "不是你的版本"),
    (
        "version_mark_other_fixed",
        "不是你的版本：已在 {fixed} 修复",
    ),
    ("version_mark_affected", "影响 {version}"),
    (
        "version_mark_vague",
        "可能影响 {version}：取决于具体的版本号",
    ),
    (
        "version_mark_affected_fixed",
        "影响 {version}，已在 {fixed} 修复",
    ),
    (
        "version_help",
        "选择产品，再输入或选择版本：不影响该版本的条目排在最后并加以标注。",
    ),
    (
        "version_active",
        "{version} 的结果：不影响该版本的条目排在最后并加以标注。",
    ),
    (
        "version_invalid",
        "“{text}”不是版本号：请使用 8.0.7 这样的数字。",
    ),
    (
        "best_other_version",
        "最佳匹配不影响 {version}：它排在可能影响该版本的条目之后，并加以标注。",
    ),
    (
        "version_param_invalid",
        "地址中的版本“{text}”不是“产品=版本”（product=1.2.3）的写法，已忽略。",
    ),
    (
        "version_param_unknown",
        "地址中的版本“{text}”所指的产品“{product}”不在本书的任何条目中，已忽略。",
    ),
];

/// Names of the default kinds in Simplified Chinese (English shows the kind as written).
const ZH_KINDS: &[(&str, &str)] = &[
    ("kind_error", "错误"),
    ("kind_troubleshooting", "故障排查"),
    ("kind_howto", "操作指南"),
    ("kind_concept", "概念"),
    ("kind_behavior", "行为说明"),
];

/// The built-in set for a BCP 47 language tag: Chinese in any script or region gets the
/// Simplified set (the only Chinese one shipped; Traditional readers read it too), every
/// other language the English one (override texts with `[kbook.strings]`).
type Texts = &'static [(&'static str, &'static str)];

fn builtin(language: &str) -> (Texts, Texts, Texts) {
    if is_chinese(language) {
        (ZH_PAGE, ZH_SCRIPT, ZH_KINDS)
    } else {
        (EN_PAGE, EN_SCRIPT, &[])
    }
}

/// Whether a BCP 47 language tag is Chinese in any script or region: its primary subtag is
/// `zh` (`zha`, Zhuang, is not).
pub fn is_chinese(language: &str) -> bool {
    language
        .split(['-', '_'])
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("zh"))
}

/// Placeholders (`{name}`) in a text.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        match after.find('}') {
            Some(j)
                if j > 0
                    && after[..j]
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c == '_') =>
            {
                out.push(&after[..j]);
                rest = &after[j + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

/// The page scripts' English texts (static/theme.js and static/search.js carry copies).
pub fn english_script_texts() -> impl Iterator<Item = (&'static str, &'static str)> {
    EN_SCRIPT.iter().copied()
}

/// The keys `[kbook.strings]` accepts besides `kind_<kind>`, for error messages.
pub fn known_keys() -> impl Iterator<Item = &'static str> {
    EN_PAGE.iter().chain(EN_SCRIPT).map(|(k, _)| *k)
}

/// Why an override in `[kbook.strings]` is refused: (message, hint).
pub fn check_override(key: &str, value: &str, kinds: &[String]) -> Option<(String, String)> {
    let english = EN_PAGE
        .iter()
        .chain(EN_SCRIPT)
        .find(|(k, _)| *k == key)
        .map(|(_, v)| *v);
    let allowed: Vec<&str> = match (english, key.strip_prefix("kind_")) {
        // Every placeholder `format_date` fills, not only those of the English text.
        _ if key == "date_format" => vec!["year", "month", "day", "m", "d"],
        (Some(en), _) => placeholders(en),
        (None, Some(kind)) if kinds.iter().any(|k| k == kind) => Vec::new(),
        (None, _) => {
            let hint = match crate::diagnostic::did_you_mean(key, known_keys()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "`kbook strings` lists the keys; `kind_<kind>` names one of: {}",
                    kinds.join(", ")
                ),
            };
            return Some((format!("unknown string `{key}` in [kbook.strings]"), hint));
        }
    };
    let extra: Vec<&str> = placeholders(value)
        .into_iter()
        .filter(|p| !allowed.contains(p))
        .collect();
    if extra.is_empty() {
        return None;
    }
    let hint = if allowed.is_empty() {
        "this text takes no placeholders".to_string()
    } else {
        format!(
            "its placeholders are {}",
            allowed
                .iter()
                .map(|p| format!("{{{p}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Some((
        format!(
            "string `{key}` uses the unknown placeholder {}",
            extra
                .iter()
                .map(|p| format!("{{{p}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        hint,
    ))
}

/// The book's texts: the built-in set of its language with its overrides applied.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    /// Every text by key (templates read them as `t.<key>`).
    pub all: BTreeMap<String, String>,
    /// The texts the page scripts need from the page: those that differ from the scripts'
    /// English, and the kind names (empty for an English book without overrides).
    pub script: BTreeMap<String, String>,
}

impl Strings {
    /// The texts for `language` with `overrides` (already checked) on top.
    pub fn new(language: &str, overrides: &BTreeMap<String, String>) -> Strings {
        let (page, script, kinds) = builtin(language);
        let mut all: BTreeMap<String, String> = EN_PAGE
            .iter()
            .chain(EN_SCRIPT)
            .chain(page)
            .chain(script)
            .chain(kinds)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        for (k, v) in overrides {
            all.insert(k.clone(), v.clone());
        }
        let script = all
            .iter()
            .filter(|(k, v)| {
                k.starts_with("kind_")
                    || EN_SCRIPT
                        .iter()
                        .any(|(ek, ev)| ek == &k.as_str() && ev != &v.as_str())
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Strings { all, script }
    }

    /// The text for `key` (the key itself when unknown, which the templates never ask for).
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.all.get(key).map_or(key, String::as_str)
    }

    /// The display name of a kind: its `kind_<kind>` text, else the kind as written.
    pub fn kind(&self, kind: &str) -> String {
        self.all
            .get(&format!("kind_{kind}"))
            .cloned()
            .unwrap_or_else(|| kind.to_string())
    }

    /// A text with its `{name}` placeholders filled.
    pub fn fill(&self, key: &str, vars: &[(&str, &str)]) -> String {
        fill(self.get(key), |name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }
}

/// Replaces each `{name}` of `text` for which `value` gives a value.
pub fn fill(text: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after
            .find('}')
            .and_then(|j| value(&after[..j]).map(|v| (j, v)))
        {
            Some((j, v)) => {
                out.push_str(&v);
                rest = &after[j + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `2026-11-29` in `format` (`{year}`, `{month}`/`{day}` two digits, `{m}`/`{d}` without a
/// leading zero); other text comes back as it is.
pub fn format_date(date: &str, format: &str) -> String {
    let parts: Vec<&str> = date.split('-').collect();
    let [y, m, d] = parts[..] else {
        return date.to_string();
    };
    if ![y, m, d]
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return date.to_string();
    }
    let trim = |s: &str| s.trim_start_matches('0').to_string();
    fill(format, |name| match name {
        "year" => Some(y.to_string()),
        "month" => Some(m.to_string()),
        "day" => Some(d.to_string()),
        "m" => Some(trim(m)),
        "d" => Some(trim(d)),
        _ => None,
    })
}

/// Tera filters over these texts, registered on every template set:
/// `{{ t.key | fill(n=3) }}` fills placeholders (the result is escaped as usual);
/// `{{ t.key | fill_html(link=html) | safe }}` escapes the text, then puts the given HTML
/// (written by the template) at its placeholders; `{{ date | local_date(format=t.date_format) }}`.
pub fn register_filters(tera: &mut tera::Tera) {
    fn arg(args: &std::collections::HashMap<String, tera::Value>, name: &str) -> Option<String> {
        args.get(name).map(|v| match v {
            tera::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }
    tera.register_filter(
        "fill",
        |value: &tera::Value, args: &std::collections::HashMap<String, tera::Value>| {
            let text = tera::try_get_value!("fill", "value", String, value);
            Ok(tera::Value::String(fill(&text, |n| arg(args, n))))
        },
    );
    tera.register_filter(
        "fill_html",
        |value: &tera::Value, args: &std::collections::HashMap<String, tera::Value>| {
            let text = tera::try_get_value!("fill_html", "value", String, value);
            let escaped = crate::html::escape(&text);
            Ok(tera::Value::String(fill(&escaped, |n| arg(args, n))))
        },
    );
    tera.register_filter(
        "local_date",
        |value: &tera::Value, args: &std::collections::HashMap<String, tera::Value>| {
            let date = tera::try_get_value!("local_date", "value", String, value);
            let format = arg(args, "format").unwrap_or_else(|| "{year}-{month}-{day}".into());
            Ok(tera::Value::String(format_date(&date, &format)))
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(set: &[(&str, &str)]) -> Vec<String> {
        let mut k: Vec<String> = set.iter().map(|(k, _)| k.to_string()).collect();
        k.sort();
        k
    }

    #[test]
    fn every_translation_has_every_key_and_the_same_placeholders() {
        assert_eq!(keys(ZH_PAGE), keys(EN_PAGE));
        assert_eq!(keys(ZH_SCRIPT), keys(EN_SCRIPT));
        for (en, zh) in [(EN_PAGE, ZH_PAGE), (EN_SCRIPT, ZH_SCRIPT)] {
            for (k, v) in en {
                let z = zh.iter().find(|(zk, _)| zk == k).map(|(_, z)| *z).unwrap();
                let mut a = placeholders(v);
                let mut b = placeholders(z);
                a.sort();
                b.sort();
                // Dates name their parts differently; the parts are the same date.
                if *k != "date_format" {
                    assert_eq!(a, b, "{k}: {v} / {z}");
                }
            }
        }
        let mut all: Vec<&str> = known_keys().collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a key is both a page and a script text");
    }

    #[test]
    fn languages_pick_their_set_and_overrides_win() {
        let none = BTreeMap::new();
        let en = Strings::new("en", &none);
        assert_eq!(
            en.get("search_placeholder"),
            "Search or paste an error… ( / )"
        );
        assert!(en.script.is_empty(), "{:?}", en.script);
        assert_eq!(en.kind("howto"), "howto");
        for tag in ["zh", "zh-CN", "zh-TW", "zh-Hant-HK", "ZH_cn"] {
            let zh = Strings::new(tag, &none);
            assert_eq!(zh.get("versions"), "版本", "{tag}");
            assert_eq!(zh.script["no_confident"], "没有可信的匹配。");
            assert_eq!(zh.kind("error"), "错误");
        }
        for tag in ["ja", "ko", "fr-CA", "zha", ""] {
            assert_eq!(
                Strings::new(tag, &none).get("versions"),
                "Versions",
                "{tag}"
            );
        }
        let over: BTreeMap<String, String> = [
            ("versions".to_string(), "Releases".to_string()),
            ("no_confident".to_string(), "Nothing certain.".to_string()),
        ]
        .into();
        let s = Strings::new("zh", &over);
        assert_eq!(s.get("versions"), "Releases");
        assert_eq!(s.script["no_confident"], "Nothing certain.");
        let s = Strings::new("en", &over);
        assert_eq!(
            s.script.keys().collect::<Vec<_>>(),
            ["no_confident"],
            "only what differs from the scripts' English"
        );
    }

    #[test]
    fn overrides_are_checked() {
        let kinds = vec!["error".to_string(), "howto".to_string()];
        assert_eq!(check_override("versions", "Releases", &kinds), None);
        assert_eq!(check_override("kind_howto", "How-to", &kinds), None);
        assert_eq!(
            check_override("status_many", "{n} hits ({ms} ms)", &kinds),
            None
        );
        let (msg, hint) = check_override("version", "x", &kinds).unwrap();
        assert!(msg.contains("unknown string `version`"), "{msg}");
        assert!(hint.contains("did you mean"), "{hint}");
        assert!(check_override("kind_faq", "FAQ", &kinds).is_some());
        let (msg, hint) = check_override("status_many", "{count} hits", &kinds).unwrap();
        assert!(msg.contains("{count}"), "{msg}");
        assert!(hint.contains("{n}, {ms}"), "{hint}");
    }

    #[test]
    fn fills_and_formats_dates() {
        assert_eq!(
            fill("{n} of {m} {x}", |n| (n == "n").then(|| "3".to_string())),
            "3 of {m} {x}"
        );
        assert_eq!(
            format_date("2026-01-09", "{year}-{month}-{day}"),
            "2026-01-09"
        );
        assert_eq!(
            format_date("2026-01-09", "{year}年{m}月{d}日"),
            "2026年1月9日"
        );
        assert_eq!(format_date("soon", "{year}年"), "soon");
        assert_eq!(placeholders("a {b} {c_d} {E} {}"), ["b", "c_d"]);
    }
}
