//! Templates that fail to parse or to render: the template file named, with its line
//! when Tera gives one, and the warnings found before.

use super::*;

#[test]
fn broken_template_syntax_points_at_the_template_line() {
    assert_fails_with(
        &Case::new("broken-template"),
        &["templates/entry.html:6:", "error: template error"],
    );
}

/// Tera reports runtime errors (an unknown variable) without a position: the message names
/// the template file and the variable.
#[test]
fn template_runtime_error_names_the_template_and_variable() {
    assert_fails_without_position(
        &Case::new("broken-template-runtime"),
        &[
            "templates/entry.html: error: template error: Failed to render 'entry.html': Variable `entry.no_such_field` not found",
        ],
    );
}

/// A failure while rendering pages still reports the warnings found before it.
#[test]
fn template_runtime_error_keeps_the_warnings() {
    let c = Case::new("broken-template-runtime");
    c.write(
        "content/kafka/err.md",
        b"---\ntitle: \"Error without errors\"\nconnector: kafka\nkind: error\n---\nbody\n",
    );
    assert_fails_without_position(
        &c,
        &[
            "content/kafka/err.md:4:1: warning: an entry of kind `error` has no `errors`",
            "templates/entry.html: error: template error",
        ],
    );
}

/// One template error fails every entry page alike: it is said once, with how many pages.
#[test]
fn a_template_error_is_said_once_for_all_entry_pages() {
    let c = Case::new("broken-template-runtime");
    for n in 0..3 {
        c.write(
            &format!("content/kafka/more-{n}.md"),
            format!("---\ntitle: \"More {n}\"\nconnector: kafka\nkind: concept\n---\nbody\n")
                .as_bytes(),
        );
    }
    let err = assert_fails_without_position(&c, &["(in 4 entry pages)"]);
    assert_eq!(err.matches("no_such_field").count(), 1, "{err}");
}
