//! The design's regression page (../shared/fixtures/long-session.html), captured from
//! headless Chromium: the acceptance figures of issue #3.

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

#[test]
fn an_elided_run_in_a_container_carries_a_handle_that_resolves_to_that_container() {
    let mut c = pcc::tools::collector::Collector::new("t");
    let r: Snap = c.snapshot(&capture("long-session"), &opts(None, None)).expect("snapshot").into();
    let note = line_with(&r.state, "more links in \"Conversations\"");
    let handle = note.split("[more=").nth(1).and_then(|h| h.strip_suffix(']')).unwrap_or_else(|| panic!("no handle on {note:?}"));
    let target = c.resolve(&r.result.snapshot_id, handle, &tab()).expect("the handle resolves");
    assert_eq!((target.role.name(), target.name.as_str()), ("navigation", "Conversations"));
    // A handle is a ref like the others: counted once, however many notes carry it.
    assert_eq!(r.result.ref_count, distinct_labels(&r.state));
}

fn distinct_labels(state: &str) -> usize {
    let mut labels = std::collections::HashSet::new();
    for marker in ["[ref=", "[more="] {
        labels.extend(state.split(marker).skip(1).filter_map(|s| s.split(']').next()));
    }
    labels.len()
}

/// A line without its indentation, ref labels and handles (labels differ between reads).
fn bare(line: &str) -> String {
    let l = line.trim_start();
    l.split(" [ref=").next().unwrap().split(" [more=").next().unwrap().to_string()
}

#[test]
fn pages_in_document_order_reach_every_line_within_the_budget_each() {
    let whole = snap("long-session");
    let mut seen = std::collections::HashSet::new();
    let mut pages = 0;
    for page in 1..100 {
        let mut o = opts(None, None);
        o.page = Some(page);
        let r = snap_with("long-session", o);
        assert!(r.char_count <= budget::TOTAL_CHARS && r.node_count <= budget::TOTAL_NODES, "page {page}: {} chars", r.char_count);
        seen.extend(r.state.lines().map(bare));
        pages += 1;
        let last = r.state.lines().last().unwrap();
        if !r.truncated {
            assert_eq!(last, format!("- note: page {page}, the last"));
            break;
        }
        assert_eq!(last, format!("- note: page {page}; more: page {}", page + 1));
    }
    assert!(pages > 2, "{pages} pages");
    for line in whole.state.lines().filter(|l| !l.trim_start().starts_with("- note:")) {
        assert!(seen.contains(&bare(line)), "not on any page: {line}");
    }
    let mut o = opts(None, None);
    o.page = Some(pages as u64 + 1);
    let past = pcc::tools::collector::Collector::new("t").snapshot(&capture("long-session"), &o).unwrap_err();
    assert_eq!(past.code, pcc::error::Code::InvalidRequest);
    assert!(past.message.contains(&format!("has {pages}")), "{}", past.message);
}
