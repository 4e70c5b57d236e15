//! The read plan as a table (issue #55): held state + what the executor saw → the steps the
//! core asks for, one path per case. Each case runs reads through `Plans` with a stand-in for
//! the collector (`Env`: whether it holds the AX trees, whether a held result can be given
//! again) and prints every step as the extension receives it (`UPDATE_EXPECT=1 cargo test
//! --test read_plan` rewrites the expectations, to be read before committing).

use expect_test::{expect, Expect};
use pcc::session::read_plan::{Core, Fact, Held, Plans, Request, TabFacts};
use pcc::TabKey;
use serde_json::{json, Value};

/// The collector's part: `holds` the AX trees; a held result `reuses` (else it is gone).
struct Env {
    holds: bool,
    reuses: bool,
}

impl Core for Env {
    fn holds_ax(&self, _: &Request, _: &TabKey) -> bool {
        self.holds
    }
    fn reuse(&mut self, request: &Request, held: &Held, _: &TabKey) -> Option<Value> {
        let kept = serde_json::to_value(&held.kept).unwrap();
        self.reuses.then(|| if request.tool == "ax" { json!({"snapshotId": "ax-again", "mode": "unchanged", "was": kept}) } else { json!({"again": kept}) })
    }
}

/// The collector's part when it holds the trees and a held result can be given again.
fn env() -> Env {
    Env { holds: true, reuses: true }
}

/// What the executor does next in a script.
enum Do {
    /// Offer a fact (JSON, as the extension sends it).
    Offer(Value),
    /// Render what the step fetched: the core's result is `result`, from walk `walk`.
    Render(Value, Option<&'static str>),
    /// The core refused the patch rendered.
    Refuse,
}
use Do::*;

fn snap(tab: i64) -> Request {
    Request { tab_id: tab, tool: "snapshot".into(), ..Default::default() }
}
fn ax(tab: i64) -> Request {
    Request { tab_id: tab, tool: "ax".into(), ..Default::default() }
}
fn tab(url: &str) -> TabFacts {
    TabFacts { url: url.into(), tab_fence: "f".into(), pending: false }
}
fn handle(tab: i64) -> TabKey {
    TabKey { tab_id: tab, browser_id: "b".into(), tab_fence: "f".into(), incarnation: "doc".into() }
}

/// One read: its steps, a line each (`state` shown when a step formed one).
fn read(plans: &mut Plans, env: &mut Env, request: Request, script: Vec<Do>) -> String {
    let tab_id = request.tab_id;
    let mut out = Vec::new();
    let mut next = plans.begin(request, Some(tab("u")));
    out.push(serde_json::to_string(&next).unwrap());
    for d in script {
        let got = match d {
            Offer(fact) => plans.offer(next.read, serde_json::from_value::<Fact>(fact).expect("a fact"), &tab("u"), env),
            Render(result, walk) => plans.rendered(next.read, result, handle(tab_id), walk.map(str::to_string)),
            Refuse => plans.refused(next.read, "no held tree".into()),
        };
        match got {
            Some(n) => {
                out.push(serde_json::to_string(&n).unwrap());
                next = n;
            }
            None => out.push("(no such read)".into()),
        }
    }
    out.join("\n")
}

fn check(plans: &mut Plans, env: &mut Env, request: Request, script: Vec<Do>, expect: Expect) {
    expect.assert_eq(&read(plans, env, request, script));
}

/// A one-frame page read once by injection, walked and rendered: held for key `snap(1)`.
fn one_frame_read(plans: &mut Plans) {
    read(plans, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "listed": [{"frameId": 0, "documentId": "D"}], "documentId": "D", "result": {"answer": "a1", "frames": 0, "walked": true}})), Render(json!({"snapshotId": "s1", "refCount": 2}), None)]);
}

/// An AX read of a one-frame page, every frame asked in one injection: held for key `ax(1)`.
fn ax_read(plans: &mut Plans) {
    read(plans, &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]})), Render(json!({"snapshotId": "ax-1"}), None)]);
}

/// A two-frame page read (ports asked, every frame walked in one injection, walk `w1`).
fn two_frame_read(plans: &mut Plans) {
    read(plans, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]})), Offer(json!({"fact": "all", "listed": [{"frameId": 3, "documentId": "C"}, {"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}, {"frameId": 3, "documentId": "C", "answer": "c1"}]})), Offer(json!({"fact": "frames", "same": false})), Render(json!({"snapshotId": "s1", "refCount": 1}), Some("w1"))]);
}

#[test]
fn an_ax_read_without_diffing_captures() {
    let r = Request { disable_diffing: true, ..ax(1) };
    check(&mut Plans::default(), &mut env(), r, vec![], expect![[r#"{"read":1,"step":"capture"}"#]]);
}

#[test]
fn an_ax_read_from_the_walk_captures() {
    let r = Request { source: Some("dom".into()), ..ax(1) };
    check(&mut Plans::default(), &mut env(), r, vec![], expect![[r#"{"read":1,"step":"capture"}"#]]);
}

#[test]
fn a_first_snapshot_lists_the_frames_then_walks_frame_zero_by_injection() {
    check(&mut Plans::default(), &mut env(), snap(1), vec![Offer(json!({"fact": "one", "listed": [{"frameId": 0, "documentId": "D"}], "documentId": "D", "result": {"answer": "a1", "frames": 0, "walked": true}})), Render(json!({"snapshotId": "s1"}), None)], expect![[r#"
        {"read":1,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":true}
        {"read":1,"step":"render","state":"u\n0:D:a1"}
        {"read":1,"step":"answer","result":{"snapshotId":"s1"},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":false}"#]]);
}

#[test]
fn a_first_snapshot_of_a_tab_with_child_frames_asks_every_frame() {
    check(&mut Plans::default(), &mut env(), snap(1), vec![Offer(json!({"fact": "one", "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]}))], expect![[r#"
        {"read":1,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":true}
        {"read":1,"step":"askAll","list":true,"inject":true}"#]]);
}

#[test]
fn a_repeat_snapshot_asks_the_held_document_through_its_port() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![], expect![[r#"{"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}"#]]);
}

#[test]
fn a_repeat_snapshot_of_an_unchanged_page_gives_the_held_result_again() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"answer","result":{"again":{"Snapshot":{"refCount":2,"snapshotId":"s1"}}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true,"state":"u\n0:D:a1"}"#]]);
}

#[test]
fn a_repeat_snapshot_after_a_change_renders_the_walk_it_made() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a2", "frames": 0, "walked": true}}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"render","state":"u\n0:D:a2"}"#]]);
}

#[test]
fn a_walk_that_shows_what_the_held_walk_showed_gives_the_held_result() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a2", "frames": 0, "same": true}}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"answer","result":{"again":{"Snapshot":{"refCount":2,"snapshotId":"s1"}}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true,"state":"u\n0:D:a2"}"#]]);
}

#[test]
fn a_port_that_cannot_ask_its_document_leaves_the_walk_to_an_injection() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "failed"}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"walkOneInjected","answer":"a1","sameAs":null,"listFirst":false}"#]]);
}

#[test]
fn a_frame_without_a_tracker_gets_one_and_is_asked_again() {
    let one = json!({"fact": "one", "listed": [{"frameId": 0, "documentId": "D"}], "documentId": "D"});
    check(&mut Plans::default(), &mut env(), snap(1), vec![Offer(one.clone()), Offer(json!({"fact": "resident", "done": true})), Offer(one)], expect![[r#"
        {"read":1,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":true}
        {"read":1,"step":"makeResident","frames":[0]}
        {"read":1,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":false}
        {"read":1,"step":"askAll","list":true,"inject":true}"#]]);
}

#[test]
fn a_tab_with_a_navigation_pending_is_not_walked_in_one_round_trip() {
    let mut p = Plans::default();
    let next = p.begin(snap(1), Some(TabFacts { pending: true, ..tab("u") }));
    expect![[r#"{"read":1,"step":"askAll","list":true,"inject":true}"#]].assert_eq(&serde_json::to_string(&next).unwrap());
}

#[test]
fn a_navigation_pending_when_the_answer_comes_voids_it() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let next = p.begin(snap(1), None);
    let got = p.offer(next.read, serde_json::from_value(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}})).unwrap(), &TabFacts { pending: true, ..tab("u") }, &mut env()).unwrap();
    expect![[r#"{"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}"#]].assert_eq(&serde_json::to_string(&got).unwrap());
}

#[test]
fn a_frame_that_got_child_frames_is_read_with_them() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a2", "frames": 1}}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}"#]]);
}

#[test]
fn a_held_result_that_cannot_be_given_again_is_captured() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let mut env = Env { holds: true, reuses: false };
    check(&mut p, &mut env, snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}}))], expect![[r#"
        {"read":2,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":2,"step":"capture","state":"u\n0:D:a1"}"#]]);
}

#[test]
fn a_first_ax_read_asks_every_frame_and_captures() {
    check(&mut Plans::default(), &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"capture","state":"u\n0:D:a1"}"#]]);
}

#[test]
fn an_ax_repeat_of_an_unchanged_page_is_unchanged_from_the_held_revision() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a1", "frames": 0}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"answer","result":{"mode":"unchanged","snapshotId":"ax-again","was":{"Ax":"ax-1"}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true,"state":"u\n0:D:a1"}"#]]);
}

#[test]
fn an_ax_read_after_a_main_frame_change_patches_the_held_tree() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]})), Render(json!({"snapshotId": "ax-2"}), None)], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"patch","since":"a1","state":"u\n0:D:a2"}
        {"read":2,"step":"answer","result":{"snapshotId":"ax-2"},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":false}"#]]);
    assert_eq!(p.last_refusal, None);
}

#[test]
fn a_patch_the_page_cannot_place_is_a_capture_with_its_reason() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]})), Offer(json!({"fact": "failed", "why": "the page could not place its changes"}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"patch","since":"a1","state":"u\n0:D:a2"}
        {"read":2,"step":"capture"}"#]]);
    assert_eq!(p.last_refusal.as_deref(), Some("the page could not place its changes"));
}

#[test]
fn a_patch_the_core_refuses_is_a_capture() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]})), Refuse], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"patch","since":"a1","state":"u\n0:D:a2"}
        {"read":2,"step":"capture"}"#]]);
    assert_eq!(p.last_refusal.as_deref(), Some("no held tree"));
}

#[test]
fn no_patch_without_the_held_trees() {
    let mut p = Plans::default();
    ax_read(&mut p);
    let mut env = Env { holds: false, reuses: true };
    check(&mut p, &mut env, ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"capture","state":"u\n0:D:a2"}"#]]);
}

#[test]
fn no_patch_when_the_tests_ask_for_the_whole_tree() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), Request { whole_ax: true, ..ax(1) }, vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"capture","state":"u\n0:D:a2"}"#]]);
}

#[test]
fn a_scoped_ax_read_is_never_a_patch() {
    let mut p = Plans::default();
    let scoped = || Request { selector: Some("main".into()), ..ax(1) };
    read(&mut p, &mut env(), scoped(), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]})), Render(json!({"snapshotId": "ax-1"}), None)]);
    check(&mut p, &mut env(), scoped(), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2", "frames": 0}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"capture","state":"u\n0:D:a2"}"#]]);
}

#[test]
fn a_child_frame_that_changed_is_no_patch() {
    let mut p = Plans::default();
    read(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}, {"frameId": 3, "documentId": "C", "answer": "c1"}]})), Render(json!({"snapshotId": "ax-1"}), None)]);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2"}, {"answer": "c2"}], "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"list":true}
        {"read":2,"step":"capture","state":"u\n0:D:a2|3:C:c2"}"#]]);
}

#[test]
fn a_document_that_keeps_the_read_waiting_is_not_asked_again() {
    let mut p = Plans::default();
    ax_read(&mut p);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"late": true}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D","answer":"a1"}],"list":false}
        {"read":2,"step":"capture"}"#]]);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}]}))], expect![[r#"
        {"read":3,"step":"askAll","list":true,"inject":false}
        {"read":3,"step":"capture"}"#]]);
}

#[test]
fn a_frame_listing_that_differs_from_the_held_state_asks_every_frame() {
    let mut p = Plans::default();
    two_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a1"}, {"answer": "c1"}], "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C2"}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"list":true}
        {"read":2,"step":"askAll","list":false,"inject":true}"#]]);
}

#[test]
fn frames_without_a_tracker_get_one_and_every_frame_is_asked_again() {
    check(&mut Plans::default(), &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "bare": true}]})), Offer(json!({"fact": "resident", "done": true})), Offer(json!({"fact": "all", "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"makeResident","frames":[0]}
        {"read":1,"step":"askAll","list":false,"inject":true}
        {"read":1,"step":"capture","state":"u\n0:D:a1"}"#]]);
}

#[test]
fn a_frame_the_injection_did_not_reach_is_asked_on_its_own() {
    check(&mut Plans::default(), &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]})), Offer(json!({"fact": "each", "answers": [{"answer": "c1"}]}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"askEach","frames":[{"frameId":3,"documentId":"C"}]}
        {"read":1,"step":"capture","state":"u\n0:D:a1|3:C:c1"}"#]]);
}

#[test]
fn an_error_page_answers_for_itself_and_is_not_asked_again() {
    let mut p = Plans::default();
    let listed = json!([{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "E"}]);
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": listed, "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]})), Offer(json!({"fact": "each", "answers": [{"errorPage": true}]})), Render(json!({"snapshotId": "ax-1"}), None)], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"askEach","frames":[{"frameId":3,"documentId":"E"}]}
        {"read":1,"step":"capture","state":"u\n0:D:a1|3:E:error page"}
        {"read":1,"step":"answer","result":{"snapshotId":"ax-1"},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":false}"#]]);
    // Its port is not asked; the listing proves the frames.
    check(&mut p, &mut env(), ax(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a1"}], "listed": listed}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"}],"list":true}
        {"read":2,"step":"answer","result":{"mode":"unchanged","snapshotId":"ax-again","was":{"Ax":"ax-1"}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true,"state":"u\n0:D:a1|3:E:error page"}"#]]);
}

#[test]
fn a_frame_late_on_its_own_makes_no_state() {
    check(&mut Plans::default(), &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "J"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]})), Offer(json!({"fact": "each", "answers": [{"late": true}]}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"askEach","frames":[{"frameId":3,"documentId":"J"}]}
        {"read":1,"step":"capture"}"#]]);
}

#[test]
fn no_frames_listed_is_a_capture() {
    check(&mut Plans::default(), &mut env(), ax(1), vec![Offer(json!({"fact": "all", "listed": []}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"capture"}"#]]);
}

#[test]
fn a_snapshot_of_several_frames_walks_them_in_one_injection() {
    let mut p = Plans::default();
    two_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2"}, {"answer": "c1"}], "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"list":true}
        {"read":2,"step":"walkFrames","frames":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"sameAs":"w1","state":"u\n0:D:a2|3:C:c1"}"#]]);
}

#[test]
fn frames_that_show_what_the_held_walk_showed_give_the_held_result() {
    let mut p = Plans::default();
    two_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2"}, {"answer": "c1"}], "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]})), Offer(json!({"fact": "frames", "same": true}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"list":true}
        {"read":2,"step":"walkFrames","frames":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"sameAs":"w1","state":"u\n0:D:a2|3:C:c1"}
        {"read":2,"step":"answer","result":{"again":{"Snapshot":{"refCount":1,"snapshotId":"s1"}}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true}"#]]);
}

#[test]
fn frames_that_could_not_walk_together_are_captured() {
    let mut p = Plans::default();
    two_frame_read(&mut p);
    check(&mut p, &mut env(), snap(1), vec![Offer(json!({"fact": "ports", "answers": [{"answer": "a2"}, {"answer": "c1"}], "listed": [{"frameId": 0, "documentId": "D"}, {"frameId": 3, "documentId": "C"}]})), Offer(json!({"fact": "failed"}))], expect![[r#"
        {"read":2,"step":"askPorts","documents":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"list":true}
        {"read":2,"step":"walkFrames","frames":[{"frameId":0,"documentId":"D"},{"frameId":3,"documentId":"C"}],"sameAs":"w1","state":"u\n0:D:a2|3:C:c1"}
        {"read":2,"step":"capture"}"#]]);
}

#[test]
fn a_scoped_snapshot_is_never_walked_in_one_round_trip() {
    let r = Request { selector: Some("main".into()), ..snap(1) };
    check(&mut Plans::default(), &mut env(), r, vec![Offer(json!({"fact": "all", "listed": [{"frameId": 0, "documentId": "D"}], "answers": [{"frameId": 0, "documentId": "D", "answer": "a1"}]}))], expect![[r#"
        {"read":1,"step":"askAll","list":true,"inject":true}
        {"read":1,"step":"capture","state":"u\n0:D:a1"}"#]]);
}

#[test]
fn a_read_with_another_budget_is_another_key() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    check(&mut p, &mut env(), Request { max_chars: Some(500), ..snap(1) }, vec![], expect![[r#"{"read":2,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":true}"#]]);
}

#[test]
fn a_closed_tab_is_forgotten() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    p.clear_tab(1);
    check(&mut p, &mut env(), snap(1), vec![], expect![[r#"{"read":2,"step":"walkOneInjected","answer":null,"sameAs":null,"listFirst":true}"#]]);
}

#[test]
fn an_offer_to_a_read_not_under_way_is_refused() {
    let mut p = Plans::default();
    let fact: Fact = serde_json::from_value(json!({"fact": "failed"})).unwrap();
    assert!(p.offer(7, fact, &tab("u"), &mut env()).is_none());
    let next = p.begin(snap(1), None);
    p.end(next.read);
    assert!(p.rendered(next.read, json!({}), handle(1), None).is_none());
}

#[test]
fn a_failed_read_holds_nothing() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let next = p.begin(snap(1), Some(tab("u")));
    p.offer(next.read, serde_json::from_value(json!({"fact": "one", "result": {"answer": "a9", "frames": 0, "walked": true}})).unwrap(), &tab("u"), &mut env());
    p.end(next.read); // (the render failed)
    // The held read still answers for its own state.
    check(&mut p, &mut env(), snap(1), vec![], expect![[r#"{"read":3,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}"#]]);
}

#[test]
fn the_held_state_survives_a_worker_restart() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let saved = serde_json::to_string(&p).unwrap();
    let mut back: Plans = serde_json::from_str(&saved).unwrap();
    check(&mut back, &mut env(), snap(1), vec![Offer(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}}))], expect![[r#"
        {"read":1,"step":"walkOnePort","documentId":"D","answer":"a1","sameAs":null}
        {"read":1,"step":"answer","result":{"again":{"Snapshot":{"refCount":2,"snapshotId":"s1"}}},"handle":{"tabId":1,"browserId":"b","tabFence":"f","incarnation":"doc"},"reused":true,"state":"u\n0:D:a1"}"#]]);
}

#[test]
fn a_held_result_is_given_under_the_tabs_fence_now() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let next = p.begin(snap(1), None);
    let got = p.offer(next.read, serde_json::from_value(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}})).unwrap(), &TabFacts { tab_fence: "f2".into(), ..tab("u") }, &mut env()).unwrap();
    let v = serde_json::to_value(&got).unwrap();
    assert_eq!(v["handle"]["tabFence"], "f2");
}

#[test]
fn another_url_is_another_state() {
    let mut p = Plans::default();
    one_frame_read(&mut p);
    let next = p.begin(snap(1), None);
    let got = p.offer(next.read, serde_json::from_value(json!({"fact": "one", "result": {"answer": "a1", "frames": 0}})).unwrap(), &tab("u#moved"), &mut env()).unwrap();
    expect![[r#"{"read":2,"step":"capture","state":"u#moved\n0:D:a1"}"#]].assert_eq(&serde_json::to_string(&got).unwrap());
}

#[test]
fn malformed_facts_are_refused_by_their_shape() {
    assert!(serde_json::from_value::<Fact>(json!({"fact": "one", "result": {"frames": -1}})).is_err());
    assert!(serde_json::from_value::<Fact>(json!({"fact": "teleport"})).is_err());
    assert!(serde_json::from_value::<Fact>(json!({"answers": []})).is_err());
}

/// How an agent session last read a whole page is what follows its next navigating action
/// (`session/follow`): a scoped or paged read does not change it; each session has its own.
#[test]
fn the_last_whole_page_read_of_a_session_is_remembered() {
    let mut plans = Plans::default();
    let tool = |p: &Plans, s: &str| p.last_read(s).map(|l| (l.tool.clone(), l.max_chars));
    assert_eq!(tool(&plans, "s"), None);
    plans.begin(Request { session_id: Some("s".into()), max_chars: Some(4000), ..ax(1) }, None);
    assert_eq!(tool(&plans, "s"), Some(("ax".into(), Some(4000))));
    plans.begin(Request { session_id: Some("s".into()), selector: Some("main".into()), ..snap(1) }, None);
    plans.begin(Request { session_id: Some("s".into()), page: Some(2), ..snap(1) }, None);
    assert_eq!(tool(&plans, "s"), Some(("ax".into(), Some(4000))), "scoped and paged reads are not how it reads a page");
    plans.begin(Request { session_id: Some("t".into()), ..snap(2) }, None);
    assert_eq!(tool(&plans, "s"), Some(("ax".into(), Some(4000))));
    assert_eq!(tool(&plans, "t"), Some(("snapshot".into(), None)));
    // A worker restart keeps it (the saved state).
    let back: Plans = serde_json::from_str(&serde_json::to_string(&plans).unwrap()).unwrap();
    assert_eq!(tool(&back, "s"), Some(("ax".into(), Some(4000))));
    plans.dispose_session("s");
    assert_eq!(tool(&plans, "s"), None);
}
