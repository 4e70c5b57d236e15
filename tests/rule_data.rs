//! Rules as data: a literal page (tests/common/page.rs, ids named for what they test) →
//! the exact state (`expect_test`; `UPDATE_EXPECT=1 cargo test --test rule_data` rewrites the
//! expectations, to be read before committing). One case per filter, redaction, budget,
//! elision and diff rule. tests/rules.rs holds the same kind of cases on real Chromium
//! captures of literal HTML, for the rules that depend on what Chromium computes.

mod common;
use common::page::{ax, ax_page, el, page, text};
use common::*;
use expect_test::{expect, Expect};
use pcc::{AxOptions, Collector};

/// The snapshot state of a page (or its error code), at `max_chars` when given.
fn state(obs: &str, max_chars: Option<u64>) -> String {
    match Collector::new("t").snapshot(obs, &opts(max_chars, None)) {
        Ok(r) => r.state.unwrap_or_default(),
        Err(e) => format!("error {}", e.code.as_str()),
    }
}

fn check(obs: String, expect: Expect) {
    expect.assert_eq(&state(&obs, None));
}

// ── filter ──────────────────────────────────────────────────────────────────────────

#[test]
fn filter_lifts_the_children_of_unnamed_wrappers() {
    check(page([el("outer_wrapper", "div").kids([el("inner_wrapper", "div").kids([el("save", "button").says("Save")])])]), expect![[r#"
        - button "Save" [ref=e1]"#]]);
}

#[test]
fn filter_owns_text_once_at_its_deepest_owner() {
    check(page([el("send", "button").kids([el("label_span", "span").says("Send now")]), el("intro", "p").says("Hello")]), expect![[r#"
        - button "Send now" [ref=e1]
        - paragraph: Hello"#]]);
}

#[test]
fn a_focusable_element_ignores_role_presentation() {
    // ARIA's conflict rule, as Chromium applies it: jQuery UI's tab link keeps its link role
    // (no line ever says `presentation`); an unfocusable one is presentational indeed.
    check(
        page([el("tabs", "ul").attr("role", "tablist").kids([
            el("tab", "li").attr("role", "tab").kids([el("tab_link", "a").attr("role", "presentation").attr("href", "#tabs-2").says("Tab #2")]),
            el("plain", "li").attr("role", "tab").kids([el("inert_link", "a").attr("role", "presentation").says("Tab #3")]),
        ])]),
        expect![[r#"
            - tablist
              - tab "Tab #2" [ref=e1]
                - link "Tab #2" [href=#tabs-2] [ref=e2]
              - tab "Tab #3" [ref=e3]"#]],
    );
}

#[test]
fn filter_drops_what_the_page_hides() {
    check(
        page([
            el("shown", "p").says("Shown"),
            el("display_none", "p").display("none").says("Gone"),
            el("aria_hidden", "p").attr("aria-hidden", "true").says("Unread"),
            el("visibility_hidden", "p").visibility("hidden").says("Invisible"),
            el("hidden_attr", "p").attr("hidden", "").says("Also gone"),
        ]),
        expect![[r#"
            - paragraph: Shown"#]],
    );
}

#[test]
fn filter_gives_no_ref_to_what_a_positioned_element_covers() {
    check(page([el("under_banner", "button").covered().says("Buy"), el("free", "button").says("Sell")]), expect![[r#"
        - button "Buy"
        - button "Sell" [ref=e1]"#]]);
}

// ── redaction ───────────────────────────────────────────────────────────────────────

#[test]
fn redaction_never_shows_a_password_value() {
    check(page([el("pw", "input").attr("type", "password").attr("aria-label", "Password").value("hunter2")]), expect![[r#"- textbox "Password" [type=password] [ref=e1]"#]]);
}

#[test]
fn redaction_drops_values_of_fields_named_as_secrets() {
    check(
        page([
            el("api_token", "input").attr("aria-label", "API token").value("sk-live-abc123"),
            el("otp", "input").attr("autocomplete", "one-time-code").attr("aria-label", "Code").value("493021"),
            el("city", "input").attr("aria-label", "City").value("Lyon"),
        ]),
        expect![[r#"
            - textbox "API token" [ref=e1]
            - textbox "Code" [ref=e2]
            - textbox "City" value="Lyon" [ref=e3]"#]],
    );
}

#[test]
fn redaction_counts_a_value_without_dom_facts_as_sensitive() {
    // An AX textbox whose DOM facts (type, name, id, autocomplete) are unknown (no DOM
    // snapshot): its value might be a password, so it never enters the state. A field with
    // facts keeps its value (`redaction_drops_values_of_fields_named_as_secrets`: City).
    let obs = ax_page([ax("unknown_field", "textbox", "Answer").value("hunter2")]);
    check(obs, expect![[r#"- textbox "Answer" [ref=e1]"#]]);
}

#[test]
fn redaction_drops_a_masked_name_of_an_element_named_as_a_secret() {
    // No value, but a name of mask characters on an element named for a secret: the name
    // shows a secret masked (its length), so it goes; an ordinary masked name stays.
    check(page([el("pin", "button").says("••••"), el("stars", "button").says("***")]), expect![[r#"
        - button [ref=e1]
        - button "***" [ref=e2]"#]]);
}

#[test]
fn redaction_never_names_a_control_named_as_a_secret_by_its_text() {
    // A nameless control takes the text inside it as its name, unless it is named for a
    // secret (the text may be the secret it holds): the text stays text.
    check(page([el("api_token", "div").clickable().says("tok-9f8e"), el("copy_box", "div").clickable().says("Copy")]), expect![[r#"
        - clickable: tok-9f8e [ref=e1]
        - clickable "Copy" [ref=e2]"#]]);
}

#[test]
fn redaction_hides_secret_url_parameters() {
    check(page([el("reset_link", "a").attr("href", "https://example.test/reset?token=s3cr3t&lang=fr").says("Reset")]), expect![[r#"- link "Reset" [href=/reset?token=[redacted]&lang=fr] [ref=e1]"#]]);
}

// ── budget ──────────────────────────────────────────────────────────────────────────

#[test]
fn budget_fits_the_state_and_says_what_it_left_out() {
    let rows = (1..=60).map(|i| el(&format!("row_{i}"), "p").says(&format!("Paragraph number {i} of a long page")));
    let obs = page(rows);
    let s = state(&obs, Some(600));
    assert!(s.chars().count() <= 600, "{} chars:\n{s}", s.chars().count());
    expect![[r#"
        - paragraph: Paragraph number 1 of a long page
        - paragraph: Paragraph number 2 of a long page
        - paragraph: Paragraph number 3 of a long page
        - paragraph: Paragraph number 4 of a long page
        - paragraph: Paragraph number 5 of a long page
        - note: 55 more paragraphs
        - note: 55 of 60 nodes not shown (main 55; 26 off-screen); reach them with browser_find"#]]
    .assert_eq(&s);
}

// ── elision ─────────────────────────────────────────────────────────────────────────

#[test]
fn elision_summarizes_the_rest_of_a_long_run_in_one_note() {
    // Within budget a run is shown whole; past it, the run is cut after its head and what it
    // left out is one note naming the items, not one line each.
    let items = (1..=40).map(|i| el(&format!("item_{i}"), "li").kids([el("", "a").attr("href", &format!("/p/{i}")).says(&format!("Product {i}"))]));
    let obs = page([el("heading", "h1").says("Shop"), el("products", "ul").kids(items), el("footer_text", "p").says("Prices include tax")]);
    expect![[r#"
        - heading "Shop" [level=1]
        - link "Product 1" [href=/p/1] [ref=e1]
        - link "Product 2" [href=/p/2] [ref=e2]
        - link "Product 3" [href=/p/3] [ref=e3]
        - link "Product 4" [href=/p/4] [ref=e4]
        - link "Product 5" [href=/p/5] [ref=e5]
        - link "Product 6" [href=/p/6] [ref=e6]
        - link "Product 7" [href=/p/7] [ref=e7]
        - link "Product 8" [href=/p/8] [ref=e8]
        - link "Product 9" [href=/p/9] [ref=e9]
        - link "Product 10" [href=/p/10] [ref=e10]
        - link "Product 11" [href=/p/11] [ref=e11]
        - note: 29 more links
        - note: 30 of 42 nodes not shown (main 30; 25 off-screen); reach them with browser_find"#]].assert_eq(&state(&obs, Some(700)));
}

#[test]
fn elision_keeps_short_runs_whole() {
    let items = (1..=3).map(|i| el(&format!("item_{i}"), "li").says(&format!("Step {i}")));
    check(page([el("steps", "ol").kids(items)]), expect![[r#"
        - listitem: Step 1
        - listitem: Step 2
        - listitem: Step 3"#]]);
}

// ── diff (AX revisions) ─────────────────────────────────────────────────────────────

fn ax_opts() -> AxOptions {
    AxOptions { max_chars: None, max_nodes: None, tab: tab(), session_id: "s".into(), scope: String::new(), disable_diffing: false, base_snapshot_id: None, unchanged_since: None }
}

/// The second read's mode and text after a first read of `before`.
fn second_read(before: String, after: String) -> String {
    let mut c = Collector::new("t");
    c.accessibility(&before, &ax_opts()).expect("first read");
    let r = c.accessibility(&after, &ax_opts()).expect("second read");
    format!("{}{}\n{}", r.mode, r.full_reason.map(|w| format!(" ({w})")).unwrap_or_default(), r.state.unwrap_or_default())
}

fn toolbar(label: &str) -> String {
    ax_page([ax("main", "main", "").kids([ax("title", "heading", "Inbox"), ax("action", "button", label), ax("help", "link", "Help")])])
}

#[test]
fn diff_an_unchanged_page_is_unchanged() {
    expect![[r#"
        unchanged
    "#]].assert_eq(&second_read(toolbar("Archive"), toolbar("Archive")));
}

#[test]
fn diff_one_changed_name_is_one_line() {
    expect![[r#"
        diff
        ~ button "Unarchive" [ref=a1]"#]].assert_eq(&second_read(toolbar("Archive"), toolbar("Unarchive")));
}

#[test]
fn diff_a_page_more_than_half_changed_is_read_in_full() {
    let before = ax_page([ax("a", "button", "One"), ax("b", "button", "Two"), ax("c", "button", "Three")]);
    let after = ax_page([ax("a", "button", "Uno"), ax("b", "button", "Dos"), ax("c", "button", "Tres")]);
    expect![[r#"
        full (mass-change)
        - button "Uno" [ref=a4]
        - button "Dos" [ref=a5]
        - button "Tres" [ref=a6]"#]].assert_eq(&second_read(before, after));
}

#[test]
fn filter_joins_inline_text_as_it_renders() {
    check(page([el("lead", "div").kids([text("Plain "), el("", "b").says("bold"), text(" words")])]), expect!["- text: Plain bold words"]);
}
