//! `browser_snapshot` on real captures of the test pages (tests/captures, made by
//! www-tests/capture-fixtures.mjs). Each test names the rule it checks.

mod common;
use pcc::session::mode::Mode;
use common::*;
use pcc::budget;

#[test]
fn basic_page_renders_roles_names_attrs_and_refs() {
    let r = snap("basic");
    let expected = r#"- heading "Orders" [level=1]
- form
  - textbox "Search" [ref=e1]
  - button "Query" [ref=e2]
- link "Next page" [href=/orders?page=2] [ref=e3]
- checkbox "Remember me" [checked] [ref=e4]
- button "Click me" [ref=e5]
- combobox "Size" value="Small" [expanded=false] [ref=e6]
  - option "Small" [selected]
  - option "Medium"
  - option "Large"
- textbox "Notes" [contenteditable] [ref=e7]
- button "Hover me" [ref=e8]
- textbox "Keys" [ref=e9]"#;
    assert_eq!(r.state, expected);
    assert_eq!(r.mode, Mode::Full);
    assert_eq!(r.source.as_str(), "chromium_ax");
    assert_eq!(r.ref_count, 9);
    assert_eq!(r.node_count, 14);
    assert_eq!(r.char_count, r.state.chars().count());
    assert!(!r.truncated);
    assert!(r.snapshot_id.starts_with("snapshot-t-"));
}

#[test]
fn text_nested_in_generic_wrappers_appears_once() {
    let r = snap("nested");
    assert_eq!(count(&r.state, "Deeply nested unique text alpha"), 1);
    assert_eq!(count(&r.state, "Nested button label"), 1);
    assert_eq!(count(&r.state, "Heading text"), 1);
    assert_eq!(count(&r.state, "a link inside"), 1);
    // No generic wrapper lines.
    assert!(!r.state.contains("generic"), "{}", r.state);
    // List items are lifted: the links are direct lines.
    assert!(r.state.contains("- link \"One\" [href=/one] [ref="));
}

#[test]
fn names_and_text_are_capped_with_an_ellipsis() {
    let r = snap("nested");
    let line = line_with(&r.state, "This is a very long paragraph");
    let text = line.trim_start_matches("- paragraph: ");
    assert!(text.chars().count() <= budget::NODE_TEXT_CHARS, "{}", text.chars().count());
    assert!(text.ends_with('…'));
    assert!(!r.state.contains("END-OF-LONG-TEXT"));
}

#[test]
fn decorative_images_are_dropped_and_named_ones_kept() {
    let r = snap("nested");
    assert!(r.state.contains("\"Company logo\""));
    assert_eq!(r.state.matches("- img ").count(), 1, "{}", r.state);
    assert!(!r.state.contains("base64"));
}

#[test]
fn table_structure_is_kept() {
    let r = snap("nested");
    assert!(r.state.contains("- table\n  - row\n    - columnheader \"Name\""), "{}", r.state);
    assert!(r.state.contains("    - cell \"Apples\""));
}

#[test]
fn hidden_script_style_template_noscript_are_excluded() {
    let r = snap("hidden");
    for s in [
        "Display none action", "Visibility hidden action", "Aria hidden action", "Hidden attribute action",
        "Template action", "Noscript text", "SCRIPT-BODY-TEXT", "STYLE-BODY-TEXT", "Transparent text",
        "csrf-hidden-value",
    ] {
        assert!(!r.state.contains(s), "{s} leaked into:\n{}", r.state);
    }
    assert!(r.state.contains("button \"Visible action\""));
}

#[test]
fn script_and_data_urls_are_never_shown() {
    let r = snap("hidden");
    assert!(!r.state.contains("javascript:"), "{}", r.state);
    assert!(!r.state.contains("data:"), "{}", r.state);
    assert!(r.state.contains("link \"Script link\""));
}

#[test]
fn sensitive_values_never_appear_but_fields_do() {
    let r = snap("sensitive");
    for i in 1..=9 {
        let secret = format!("pw-SECRET-{i}");
        assert!(!r.state.contains(&secret), "{secret} leaked:\n{}", r.state);
    }
    assert!(r.state.contains("visible-nick"), "ordinary values are kept");
    assert!(r.state.contains("user@example.test"));
    for name in ["Password", "API key", "Card number", "CVC", "Client secret", "Code", "Field A", "Credential notes"] {
        let l = line_with(&r.state, &format!("\"{name}\""));
        assert!(!l.contains("value="), "{l}");
        assert!(l.contains("[ref="), "sensitive fields stay actionable: {l}");
    }
}

#[test]
fn covered_nodes_get_no_ref() {
    let r = snap("overlay");
    assert!(!line_with(&r.state, "Under the backdrop").contains("[ref="), "{}", r.state);
    assert!(!line_with(&r.state, "Behind link").contains("[ref="));
    assert!(line_with(&r.state, "button \"OK\"").contains("[ref="));
}

#[test]
fn same_origin_iframe_is_expanded_and_hidden_iframe_is_not() {
    let r = snap("frames");
    let iframe = line_with(&r.state, "iframe \"Same origin\"");
    assert!(iframe.starts_with("- iframe"));
    assert!(r.state.contains("\n  - button \"Inner button\" [ref="), "{}", r.state);
    assert!(!r.state.contains("Hidden frame button"));
    assert!(!r.state.contains("frame-SECRET-1"));
    assert!(!r.state.contains("•"), "masked values are values too:\n{}", r.state);
}

#[test]
fn long_runs_keep_their_ends_and_say_what_was_elided() {
    let r = snap("longlist");
    assert!(r.node_count <= budget::TOTAL_NODES);
    assert!(r.char_count <= budget::TOTAL_CHARS);
    assert!(r.truncated);
    assert!(r.state.contains("link \"Item 0\""));
    assert!(r.state.contains("link \"Item 499\""), "the last item of the run is kept");
    let note = line_with(&r.state, "more links in \"Sidebar\"");
    let elided: usize = note.trim().trim_start_matches("- note: ").split(' ').next().unwrap().parse().unwrap();
    let shown = r.state.matches("- link \"Item ").count();
    assert_eq!(elided + shown, 500, "honest count: {note}");
    // Every region stays visible in one read.
    assert!(r.state.contains("button \"Main action\" [ref="));
    assert!(r.state.lines().last().unwrap().starts_with("- note: "));
}

#[test]
fn caller_budgets_are_clamped_and_honoured() {
    let r = snap_with("long-session", opts(Some(3_000), Some(30)));
    assert!(r.char_count <= 3_000, "{}", r.char_count);
    assert!(r.node_count <= 30);
    assert!(r.truncated);
    let r = snap_with("long-session", opts(Some(10_000_000), Some(10_000)));
    assert!(r.char_count <= budget::TOTAL_CHARS);
    assert!(r.node_count <= budget::TOTAL_NODES);
    let r = snap_with("basic", opts(Some(1), Some(1)));
    assert!(r.char_count <= budget::MIN_CHARS);
}

#[test]
fn omitted_page_text_alone_does_not_mark_truncated() {
    // The basic page fits: nothing omitted at all.
    let r = snap("basic");
    assert!(!r.truncated);
    assert_eq!(r.omitted_nodes, 0);
}

#[test]
fn web_patterns_render_as_a_user_sees_them() {
    let r = snap("patterns");
    // An icon inside a link named by it is not a second line.
    assert!(!r.state.contains("image \"Home\""), "{}", r.state);
    // Divs the page handles clicks on are controls, named by their text.
    assert!(line_with(&r.state, "clickable \"Card one title Card one body text\"").contains("[ref=e"));
    // <summary> is a button; native widget internals are one control.
    assert!(r.state.contains("button \"More options\" [expanded=false] [ref="));
    // Chromium's internal widget roles show as ARIA roles.
    assert!(line_with(&r.state, "textbox \"Start date\"").contains("value=\"2026-12-02\" [type=date]"));
    assert!(!r.state.contains("spinbutton \"Month"));
    // Rows and cells named by their content do not repeat it.
    assert!(r.state.contains("  - row\n    - gridcell \"Ada\"\n    - gridcell\n      - button \"Edit Ada\" [ref="), "{}", r.state);
    // Shadow DOM content and visually-hidden labels are there.
    assert!(r.state.contains("button \"Shadow button\" [ref="));
    assert!(r.state.contains("button \"Delete item\" [ref="));
    // ARIA widgets keep their states.
    assert!(r.state.contains("tab \"Overview\" [selected] [ref="));
    assert!(r.state.contains("switch \"Dark mode\" [checked] [ref="));
    assert!(r.state.contains("option \"France\" [selected] [ref="));
    assert!(!r.state.contains("Hidden until opened"), "closed <details> content");
}
