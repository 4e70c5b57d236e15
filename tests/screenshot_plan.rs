//! `browser_screenshot`'s plan, one rule per case: a small literal page (the DOM walk's shape)
//! → the boxes the worker covers and the marks it draws (`Collector::screenshot_plan`).

mod common;
use common::page::{el, page, text};
use pcc::tools::collector::ScreenshotOptions;
use pcc::Collector;

const VIEWPORT: (f64, f64) = (800.0, 600.0);

fn plan(html: String, secrets: &[&str], marks: bool) -> String {
    let opts = ScreenshotOptions { marks, width: VIEWPORT.0, height: VIEWPORT.1, secrets: secrets.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    let p = Collector::new("t").screenshot_plan(html.as_str(), &opts).expect("a plan");
    let masks: Vec<String> = p.masks.iter().map(|m| format!("mask {} {} {} {}", m.x, m.y, m.width, m.height)).collect();
    let marks: Vec<String> = p.marks.iter().map(|m| format!("mark {} {} {} {} {}", m.label, m.region.x, m.region.y, m.region.width, m.region.height)).collect();
    [masks, marks].concat().join("\n")
}

fn check(html: String, secrets: &[&str], marks: bool, expect: &str) {
    assert_eq!(plan(html, secrets, marks), expect);
}

#[test]
fn a_password_field_is_covered_even_without_a_value() {
    check(page([el("pw", "input").attr("type", "password").at(10.0, 20.0, 200.0, 30.0)]), &[], false, "mask 10 20 200 30");
}

#[test]
fn a_secret_named_field_with_a_value_is_covered_and_a_plain_one_is_not() {
    let p = page([el("k", "input").attr("name", "api_key").value("sk-live-AB12CD34").at(10.0, 20.0, 200.0, 30.0), el("n", "input").attr("name", "nickname").value("grace").at(10.0, 60.0, 200.0, 30.0)]);
    check(p, &[], false, "mask 10 20 200 30");
}

#[test]
fn a_one_time_code_field_is_covered() {
    check(page([el("o", "input").attr("autocomplete", "one-time-code").value("482913").at(0.0, 0.0, 100.0, 20.0)]), &[], false, "mask 0 0 100 20");
}

#[test]
fn text_that_shows_a_secret_the_session_saw_is_covered_by_its_element() {
    let p = page([el("p", "p").at(5.0, 100.0, 300.0, 20.0).kids([text("You typed Zq-PASS-991177 just now")]), el("q", "p").at(5.0, 130.0, 300.0, 20.0).kids([text("Nothing to hide")])]);
    check(p, &["Zq-PASS-991177"], false, "mask 5 100 300 20");
}

#[test]
fn a_copy_of_a_sensitive_fields_value_is_covered_wherever_the_page_shows_it() {
    let p = page([el("k", "input").attr("name", "api_key").value("sk-live-AB12CD34").at(10.0, 20.0, 200.0, 30.0), el("t", "span").at(10.0, 400.0, 150.0, 18.0).kids([text("sk-live-AB12CD34")])]);
    check(p, &[], false, "mask 10 20 200 30\nmask 10 400 150 18");
}

#[test]
fn a_short_value_is_not_taken_for_a_secret_in_text() {
    check(page([el("p", "p").at(5.0, 100.0, 300.0, 20.0).kids([text("Page 12 of 40")])]), &["12"], false, "");
}

#[test]
fn a_box_outside_the_capture_is_left_out_and_one_across_its_edge_clipped() {
    let p = page([el("a", "input").attr("type", "password").at(10.0, 700.0, 200.0, 30.0), el("b", "input").attr("type", "password").at(-20.0, 590.0, 100.0, 30.0)]);
    check(p, &[], false, "mask 0 590 80 10");
}

#[test]
fn marks_are_the_refs_of_a_fresh_state_on_their_elements_boxes() {
    let p = page([el("b", "button").at(10.0, 10.0, 80.0, 24.0).kids([text("Save")]), el("a", "a").attr("href", "/x").at(10.0, 50.0, 40.0, 18.0).kids([text("Help")]), el("c", "button").at(10.0, 900.0, 80.0, 24.0).kids([text("Below")])]);
    check(p, &[], true, "mark e1 10 10 80 24\nmark e2 10 50 40 18");
}

#[test]
fn marks_register_their_snapshot_and_its_refs_resolve() {
    let html = page([el("b", "button").at(10.0, 10.0, 80.0, 24.0).kids([text("Save")])]);
    let mut c = Collector::new("t");
    let opts = ScreenshotOptions { marks: true, width: 800.0, height: 600.0, ..Default::default() };
    let p = c.screenshot_plan(html.as_str(), &opts).unwrap();
    let id = p.snapshot_id.expect("a snapshot id");
    assert!(c.resolve(&id, "e1", &opts.tab).is_ok());
}

/// A held state's marks: `held` (ref, box or `None`: not found) as the extension found each
/// element now.
fn held_plan(c: &mut Collector, id: &str, held: &[(&str, Option<(f64, f64, f64, f64)>)]) -> Result<String, String> {
    use pcc::tools::collector::HeldBox;
    let boxes = held.iter().filter_map(|(l, b)| b.map(|(x, y, width, height)| HeldBox { label: l.to_string(), x, y, width, height })).collect();
    let opts = ScreenshotOptions { marks: true, width: 800.0, height: 600.0, snapshot_id: Some(id.to_string()), boxes, tab: common::tab(), ..Default::default() };
    let p = c.screenshot_plan(page([]).as_str(), &opts).map_err(|e| e.code.as_str().to_string())?;
    let marks: Vec<String> = p.marks.iter().map(|m| format!("mark {} {} {} {} {}", m.label, m.region.x, m.region.y, m.region.width, m.region.height)).collect();
    Ok(format!("{} unmarked {}: {}", p.snapshot_id.unwrap_or_default(), p.unmarked, marks.join(", ")))
}

#[test]
fn a_held_state_is_marked_with_its_own_refs_where_their_elements_are_now() {
    let mut c = Collector::new("t");
    let html = page([el("b", "button").at(10.0, 10.0, 80.0, 24.0).kids([text("Save")]), el("a", "a").attr("href", "/x").at(10.0, 50.0, 40.0, 18.0).kids([text("Help")]), el("d", "button").at(10.0, 90.0, 80.0, 24.0).kids([text("Gone")])]);
    let id = c.snapshot(html.as_str(), &common::opts(None, None)).unwrap().snapshot_id.clone();
    // The page scrolled by 40 px since: e1 is above the viewport (not in the image), e2 where it
    // is now; e3's element is gone (or in a frame): not marked, and said so.
    let got = held_plan(&mut c, &id, &[("e1", Some((10.0, -30.0, 80.0, 24.0))), ("e2", Some((10.0, 10.0, 40.0, 18.0))), ("e3", None)]);
    assert_eq!(got, Ok(format!("{id} unmarked 1: mark e2 10 10 40 18")));
}

#[test]
fn a_state_the_tab_does_not_hold_is_never_marked() {
    let mut c = Collector::new("t");
    assert_eq!(held_plan(&mut c, "snapshot-t-9", &[]), Err("BROWSER_STALE_REF".to_string()));
}

/// The plan with painted fields (the page's report of its top frame's filled fields).
fn plan_with_fields(html: String, fields: Vec<pcc::tools::screenshot::PaintedField>) -> String {
    let opts = ScreenshotOptions { width: VIEWPORT.0, height: VIEWPORT.1, fields, ..Default::default() };
    let p = Collector::new("t").screenshot_plan(html.as_str(), &opts).expect("a plan");
    p.masks.iter().map(|m| format!("mask {} {} {} {}", m.x, m.y, m.width, m.height)).collect::<Vec<_>>().join("\n")
}

fn painted(attrs: &[(&str, &str)], label: &str, value: &str, at: (f64, f64, f64, f64)) -> pcc::tools::screenshot::PaintedField {
    pcc::tools::screenshot::PaintedField {
        tag: "input".into(),
        attrs: attrs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        label: label.into(),
        value: value.into(),
        x: at.0,
        y: at.1,
        width: at.2,
        height: at.3,
        ..Default::default()
    }
}

#[test]
fn a_sensitive_field_the_tree_leaves_out_is_covered_where_the_page_paints_it() {
    // Behind a modal dialog (inert, not walked), under aria-hidden, in a closed shadow root:
    // the tree holds only the dialog; the page reports the fields it paints.
    let p = page([el("d", "dialog").attr("open", "").at(300.0, 200.0, 200.0, 100.0).kids([text("Confirm")])]);
    let fields = vec![
        painted(&[("type", "password")], "Password", "hunter2-Quokka", (10.0, 20.0, 200.0, 30.0)),
        painted(&[("name", "api_key")], "", "sk-live-AB12CD34", (10.0, 60.0, 200.0, 30.0)),
        painted(&[("name", "nickname")], "Nickname", "grace", (10.0, 100.0, 200.0, 30.0)),
    ];
    assert_eq!(plan_with_fields(p, fields), "mask 10 20 200 30\nmask 10 60 200 30");
}

#[test]
fn a_painted_field_holding_a_card_number_is_covered_whatever_its_label() {
    let fields = vec![painted(&[], "Notes", "4539 1488 0343 6467", (0.0, 0.0, 300.0, 20.0))];
    assert_eq!(plan_with_fields(page([]), fields), "mask 0 0 300 20");
}

/// A top page holding one iframe (walk node 3, rect `at`, `frameBox` `inner`) whose child frame
/// holds a password field at `field` (the child's own CSS px).
fn framed(at: [f64; 4], inner: Option<[f64; 3]>, field: [f64; 4]) -> String {
    let mut iframe = serde_json::json!({"parent": 2, "tag": "iframe", "attrs": {"title": "Pay"}, "rect": at, "display": "block", "frameTag": "T1"});
    if let Some(b) = inner {
        iframe["frameBox"] = serde_json::json!(b);
    }
    serde_json::json!({
        "url": "https://example.test/page", "title": "Frames", "viewport": {"width": 800, "height": 600}, "frames": [], "snapshots": [],
        "domWalk": {"url": "https://example.test/page", "title": "Frames", "walkId": "w1", "nodes": [
            {"parent": -1, "tag": "html", "rect": [0, 0, 800, 600], "display": "block"},
            {"parent": 0, "tag": "body", "rect": [0, 0, 800, 600], "display": "block"},
            {"parent": 1, "tag": "div", "rect": [0, 0, 800, 600], "display": "block"},
            iframe,
        ]},
        "domFrames": [{"frameId": 7, "tag": "T1", "url": "https://example.test/child", "viewport": {"width": 320, "height": 60}, "nodes": [
            {"parent": -1, "tag": "html", "rect": [0, 0, 320, 60], "display": "block"},
            {"parent": 0, "tag": "body", "rect": [0, 0, 320, 60], "display": "block"},
            {"parent": 1, "tag": "input", "attrs": {"type": "password"}, "rect": field, "display": "inline-block"},
        ]}],
    })
    .to_string()
}

#[test]
fn a_field_in_an_iframe_is_covered_inside_its_border_and_padding() {
    check(framed([8.0, 60.0, 400.0, 220.0], Some([40.0, 40.0, 1.0]), [0.0, 0.0, 220.0, 28.0]), &[], false, "mask 48 100 220 28");
}

#[test]
fn a_field_in_a_scaled_iframe_is_covered_at_its_scale() {
    check(framed([8.0, 300.0, 640.0, 120.0], Some([0.0, 0.0, 2.0]), [10.0, 5.0, 220.0, 28.0]), &[], false, "mask 28 310 440 56");
}
