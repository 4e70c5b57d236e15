//! `browser_find` on real captures: it reaches what the budgeted state leaves out, bounds its
//! answer, and its refs resolve like a snapshot's.

mod common;
use common::*;
use pcc::tools::find::Query;
use pcc::Collector;

fn find(name: &str, q: Query) -> pcc::tools::find::FindResult {
    Collector::new("t").find(&capture(name), &q, &tab(), &|_| true).expect("find succeeds")
}

fn text(t: &str) -> Query {
    Query { text: Some(t.into()), ..Query::default() }
}

#[test]
fn finds_what_the_budgeted_state_left_out() {
    // The long list's 500 rows do not fit a state; the last one is found by its text.
    let state = snap("longlist").state;
    let last = "Item 250";
    assert!(!state.contains(last), "the fixture must elide it");
    let f = find("longlist", text(last));
    assert_eq!((f.matches, f.shown, f.truncated), (1, 1, false), "{}", f.state);
    assert!(f.state.contains(last), "{}", f.state);
}

#[test]
fn every_line_has_a_path_and_acting_matches_have_refs() {
    let f = find("long-session", Query { role: Some("button".into()), ..Query::default() });
    assert!(f.matches > 0);
    for line in f.state.lines() {
        assert!(line.starts_with("- button"), "{line}");
        assert!(line.contains("[ref=e"), "{line}");
    }
}

#[test]
fn matches_beyond_the_cap_are_counted_not_shown() {
    let f = find("longlist", Query { text: Some("item".into()), max_results: Some(5), ..Query::default() });
    assert_eq!(f.shown, 5);
    assert!(f.matches > 400, "{}", f.matches);
    assert!(f.truncated);
    assert_eq!(f.state.lines().count(), 5);
}

#[test]
fn refs_resolve_under_the_find_snapshot_id() {
    let mut c = Collector::new("t");
    let f = c.find(&capture("longlist"), &text("Item 250"), &tab(), &|_| true).expect("find");
    let label = f.state.split("[ref=").nth(1).and_then(|s| s.split(']').next()).unwrap_or_else(|| panic!("a ref in {}", f.state));
    let t = c.resolve(&f.snapshot_id, label, &tab()).expect("the ref resolves");
    assert!(t.backend_node_id.is_some() || t.walk_index.is_some());
}

#[test]
fn a_sensitive_value_is_never_searched() {
    // The sensitive capture's password value is dropped before find sees the view.
    let all = find("sensitive", Query { max_results: Some(100), ..Query::default() });
    assert!(!all.state.is_empty());
    assert!(all.state.contains("visible-nick"), "ordinary values are searched: {}", all.state);
    for i in 1..=9 {
        let secret = format!("pw-SECRET-{i}");
        assert_eq!(find("sensitive", text(&secret)).matches, 0, "{secret}");
        assert!(!all.state.contains(&secret));
    }
}

#[test]
fn the_host_predicate_narrows_the_matches() {
    let all = find("longlist", text("item"));
    let f = Collector::new("t").find(&capture("longlist"), &text("item"), &tab(), &|s| s.ends_with("00")).expect("find");
    assert!(f.matches < all.matches && f.matches > 0, "{} of {}", f.matches, all.matches);
    assert!(f.state.lines().all(|l| l.contains("00")), "{}", f.state);
}


#[test]
fn target_mode_names_elements_with_a_dom_node_each_with_a_ref_in_order() {
    let f = find("long-session", Query { text: Some("e".into()), elements: true, max_results: Some(100), ..Query::default() });
    assert!(f.shown > 10, "{}", f.state);
    for (i, line) in f.state.lines().enumerate() {
        assert!(line.contains(&format!("[ref=e{}]", i + 1)), "{line}");
        assert!(!line.starts_with("- text:"), "{line}");
    }
}

#[test]
fn text_and_names_match_across_case_in_every_script() {
    use common::page::{el, page};
    let obs = page([
        el("moscow", "p").says("Москва, Тверская улица"),
        el("athens", "p").says("ΟΔΌΣ Αθηνών"),
        el("elan", "button").says("Élan vital"),
        el("street", "p").says("Große Straße 5"),
        el("apple", "p").says("ÆBLE og pærer"),
    ]);
    for (needle, shown) in [("москва", "Москва"), ("ТВЕРСКАЯ", "Тверская"), ("οδός", "ΟΔΌΣ"), ("ΑΘΗΝΏΝ", "Αθηνών"), ("élan", "Élan"), ("ÉLAN VITAL", "Élan"), ("STRASSE", "Straße"), ("strasse 5", "Straße"), ("æble", "ÆBLE"), ("PÆRER", "pærer")] {
        let f = Collector::new("t").find(&obs, &text(needle), &tab(), &|_| true).expect("find");
        assert_eq!(f.matches, 1, "{needle}: {}", f.state);
        assert!(f.state.contains(shown), "{needle}: {}", f.state);
    }
    let by_name = Collector::new("t").find(&obs, &Query { role: Some("button".into()), name: Some("ÉLAN".into()), ..Query::default() }, &tab(), &|_| true).expect("find");
    assert_eq!(by_name.matches, 1, "{}", by_name.state);
    let accent = Collector::new("t").find(&obs, &text("elan"), &tab(), &|_| true).expect("find");
    assert_eq!(accent.matches, 0, "accents stay: {}", accent.state);
}

#[test]
fn target_mode_hands_each_matchs_ref_and_its_line_without_it() {
    use common::page::{el, page};
    let obs = page([el("save", "button").says("Save"), el("save_copy", "button").says("Save a copy")]);
    let q = Query { role: Some("button".into()), name: Some("save".into()), elements: true, ..Query::default() };
    let f = Collector::new("t").find(&obs, &q, &tab(), &|_| true).expect("find");
    assert_eq!(f.refs, ["e1", "e2"]);
    assert_eq!(f.lines.len(), 2);
    assert!(f.lines.iter().all(|l| l.starts_with("button \"Save") && !l.contains("[ref=")), "{:?}", f.lines);
    // browser_find itself sends neither.
    let plain = Collector::new("t").find(&obs, &Query { elements: false, ..q }, &tab(), &|_| true).expect("find");
    let json = serde_json::to_value(&plain).unwrap();
    assert!(json.get("refs").is_none() && json.get("lines").is_none(), "{json}");
}
