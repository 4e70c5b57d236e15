//! The design's regression page (../shared/fixtures/long-session.html), captured from
//! headless Chromium: the acceptance figures of issue #3 and SPEC §8.

mod common;
use common::*;
use pcc::budget;

const SECRETS: [&str; 5] = ["hunter2-secret", "tok_live_9f8e7d6c5b4a", "csrf-hidden-value", "sk-live-should-never-appear", "value=\"0000\""];
const NEVER: [&str; 3] = ["Hidden action", "Aria hidden action", "Template action"];

#[test]
fn state_fits_the_budget_with_honest_truncation() {
    let r = snap("long-session");
    assert!(r.char_count <= budget::TOTAL_CHARS, "{}", r.char_count);
    assert!(r.node_count <= budget::TOTAL_NODES);
    assert!(r.truncated);
    assert_eq!(r.node_count + r.omitted_nodes, r.total_nodes, "counts add up");
    let last = r.state.lines().last().unwrap();
    assert!(last.starts_with("- note: ") && last.contains(&format!("{} of {} nodes", r.omitted_nodes, r.total_nodes)), "{last}");
}

#[test]
fn composer_and_last_messages_carry_refs() {
    let r = snap("long-session");
    assert!(line_with(&r.state, "textbox \"Message\"").contains("[ref=e"));
    assert!(line_with(&r.state, "button \"Send\"").contains("[ref=e"));
    // The last assistant message's buttons: the last "Copy message" before the composer.
    let before_composer = r.state.split("form \"Composer\"").next().unwrap();
    let last_copy = before_composer.lines().rev().find(|l| l.contains("button \"Copy message\"")).expect("a Copy message button");
    assert!(last_copy.contains("[ref=e"));
    // The settings dialog and the iframe are regions that stay visible.
    assert!(r.state.contains("dialog \"Settings\""));
    assert!(r.state.contains("iframe \"Attachment preview\""));
    assert!(r.state.contains("button \"Download attachment\" [ref="));
}

#[test]
fn no_message_text_appears_twice() {
    let r = snap("long-session");
    let mut seen = std::collections::HashSet::new();
    for l in r.state.lines() {
        if let Some((_, text)) = l.split_once("paragraph: ") {
            assert!(seen.insert(text.to_string()), "duplicated: {text}");
        }
    }
    assert!(seen.len() > 3);
}

#[test]
fn sidebar_and_transcript_runs_are_elided_structurally() {
    let r = snap("long-session");
    assert!(r.state.contains("more links in \"Conversations\""), "{}", r.state);
    assert!(line_with(&r.state, "more items").contains("in main"));
    // Both ends of the sidebar survive.
    assert!(r.state.contains("[href=/c/0]"));
    assert!(r.state.contains("[href=/c/299]"));
}

#[test]
fn no_secret_or_hidden_action_appears() {
    let r = snap("long-session");
    for s in SECRETS.iter().chain(NEVER.iter()) {
        assert!(!r.state.contains(s), "{s} appeared");
    }
    assert!(!r.state.contains("Enable JavaScript"), "noscript content");
    let pw = line_with(&r.state, "textbox \"Password\"");
    assert!(!pw.contains("value="));
    assert!(!line_with(&r.state, "textbox \"API token\"").contains("value="));
}
