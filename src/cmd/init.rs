//! `kbook init`: a starter book (book.toml and two example entries) in English or Chinese.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::ExitCode;

/// The starter book.toml's texts in one language.
struct StarterBook {
    title: &'static str,
    description: &'static str,
    /// Comment lines between `[output.html]` and the connectors.
    extra: &'static str,
    connector_name: &'static str,
    connector_description: &'static str,
}

const STARTER_EN: StarterBook = StarterBook {
    title: "My knowledge base",
    description: "Troubleshooting entries: paste an error message to find the fix.",
    extra: "",
    connector_name: "Example connector",
    connector_description: "Replace with your own connectors.",
};

const STARTER_ZH: StarterBook = StarterBook {
    title: "我的知识库",
    description: "故障排查条目：粘贴错误信息即可找到解决方法。",
    extra: "\n# 页面上的任何文字都可以在这里改写，例如：\n# [kbook.strings]\n# search_placeholder = \"搜索或粘贴报错信息…\"\n",
    connector_name: "示例连接器",
    connector_description: "请替换为你自己的连接器。",
};

/// The starter book.toml, with the language tag as given (zh-TW stays zh-TW in <html lang>).
fn starter_book_toml(t: &StarterBook, language: &str) -> String {
    format!(
        r#"[book]
title = "{title}"
description = "{description}"
language = "{language}"
src = "content"

[build]
build-dir = "book"

[output.html]
# site-url = "https://kb.example.org/"
# edit-url-template = "https://git.example.org/kb/edit/main/{{path}}"
{extra}
[[kbook.connectors]]
slug = "example"
name = "{name}"
description = "{connector_description}"
"#,
        title = t.title,
        description = t.description,
        extra = t.extra,
        name = t.connector_name,
        connector_description = t.connector_description,
    )
}

const INIT_ENTRY_ERROR: &str = r#"---
title: "Connection refused when the job starts"
connector: example
kind: error
errors:
  - "java.net.ConnectException: Connection refused"
tags: [network]
related: [example-howto]
updated: 2026-01-01
---
## Symptom

The job fails right after it starts:

```text
Caused by: java.net.ConnectException: Connection refused
    at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)
```

## Cause

The service is not listening on the configured host and port.

## Solution

1. Check the host and port in the connector options.
2. See [how to configure the connection](example-howto.md#steps).
"#;

const INIT_ENTRY_HOWTO: &str = r#"---
title: "Configure the example connection"
connector: example
kind: howto
related: [example-connection-refused]
updated: 2026-01-01
---
## Goal

Point the connector at your service.

## Steps

1. Set `hostname` and `port`.
2. Run `kbook serve` and search for "Connection refused".

## Example

```sql
CREATE TABLE t (id INT) WITH ('connector' = 'example', 'hostname' = 'db.internal', 'port' = '3306');
```
"#;

const INIT_ENTRY_ERROR_ZH: &str = r#"---
title: "作业启动时连接被拒绝"
connector: example
kind: error
errors:
  - "java.net.ConnectException: Connection refused"
  - "Caused by: java.net.ConnectException: Connection refused (Connection refused)"
versions:
  - product: example-server
    affected: "<2.1"
    fixed: "2.1"
    note: "从 2.1 起，连接失败时会自动重试"
tags: [network]
related: [example-howto]
updated: 2026-01-01
---
## 现象

作业启动后立即失败：

```text
Caused by: java.net.ConnectException: Connection refused
    at sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)
```

## 原因

服务没有在配置的主机和端口上监听。

## 解决方法

1. 检查连接器参数中的主机名和端口。
2. 参见[如何配置连接](example-howto.md#steps)。
"#;

const INIT_ENTRY_HOWTO_ZH: &str = r#"---
title: "配置示例连接"
connector: example
kind: howto
errors:
  - "java.net.UnknownHostException: db.internal"
related: [example-connection-refused]
updated: 2026-01-01
---
## 目标

让连接器指向你的服务。

## 步骤 {#steps}

1. 设置 `hostname` 和 `port`。
2. 运行 `kbook serve`，然后搜索 “Connection refused”。

## 示例

```sql
CREATE TABLE t (id INT) WITH ('connector' = 'example', 'hostname' = 'db.internal', 'port' = '3306');
```
"#;

/// Writes a starter book into `dir` in `language` (Chinese examples for `zh*`, English
/// otherwise); refuses to overwrite an existing book.toml.
pub fn run(dir: &Path, language: &str) -> Result<ExitCode> {
    if !kbook::config::is_language_tag(language) {
        bail!(
            "`{language}` is not a BCP 47 language tag: {}",
            kbook::config::language_hint(language)
        );
    }
    let chinese = kbook::i18n::is_chinese(language);
    let (starter, error_entry, howto_entry) = if chinese {
        (&STARTER_ZH, INIT_ENTRY_ERROR_ZH, INIT_ENTRY_HOWTO_ZH)
    } else {
        (&STARTER_EN, INIT_ENTRY_ERROR, INIT_ENTRY_HOWTO)
    };
    let book_toml = starter_book_toml(starter, language);
    let toml = dir.join("book.toml");
    if toml.exists() {
        bail!(
            "{} already exists: kbook init will not overwrite a book",
            toml.display()
        );
    }
    let content = dir.join("content/example");
    std::fs::create_dir_all(&content)
        .with_context(|| format!("cannot create {}", content.display()))?;
    std::fs::write(&toml, book_toml).with_context(|| format!("cannot write {}", toml.display()))?;
    for (name, text) in [
        ("example-connection-refused.md", error_entry),
        ("example-howto.md", howto_entry),
    ] {
        let p = content.join(name);
        if !p.exists() {
            std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        }
    }
    let gitignore = dir.join(".gitignore");
    if !gitignore.exists() {
        std::fs::write(&gitignore, "/book\n/.kbook\n")
            .with_context(|| format!("cannot write {}", gitignore.display()))?;
    }
    outln!(
        "Created a book in {}.\n\nNext:\n  cd {}\n  kbook serve --open        # build and browse it\n  kbook new example/my-entry # add an entry\n  kbook check                # validate",
        dir.display(),
        dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
