//! Refs belong to the snapshot and document that produced them; lookups fail closed and the
//! only rebind is to a unique strong equivalent.

mod common;
use common::*;
use pcc::{Code, Collector};

#[test]
fn refs_resolve_to_backend_nodes_of_their_snapshot() {
    let mut c = Collector::new("r");
    let r = c.snapshot(&capture("basic"), &opts(None, None)).unwrap();
    let t = c.resolve(&r.snapshot_id, "e2", &tab()).unwrap();
    assert_eq!(t.role.name(), "button");
    assert_eq!(t.name, "Query");
    assert!(t.backend_node_id.is_some());
    assert_eq!(t.id_attr.as_deref(), Some("query"));
}

#[test]
fn stale_foreign_and_navigated_refs_fail_closed() {
    let mut c = Collector::new("r");
    let r = c.snapshot(&capture("basic"), &opts(None, None)).unwrap();
    assert_eq!(c.resolve("snapshot-r-99", "e1", &tab()).unwrap_err().code, Code::StaleRef);
    assert_eq!(c.resolve(&r.snapshot_id, "e999", &tab()).unwrap_err().code, Code::StaleRef);
    let mut navigated = tab();
    navigated.incarnation = "doc-2".into();
    let e = c.resolve(&r.snapshot_id, "e1", &navigated).unwrap_err();
    assert_eq!(e.code, Code::StaleRef);
    assert!(e.message.contains("navigated"));
    let mut other = tab();
    other.tab_id = 8;
    assert_eq!(c.resolve(&r.snapshot_id, "e1", &other).unwrap_err().code, Code::TargetMismatch);
    // Another runtime never knows this runtime's snapshots.
    let fresh = Collector::new("r2");
    assert_eq!(fresh.resolve(&r.snapshot_id, "e1", &tab()).unwrap_err().code, Code::StaleRef);
}

#[test]
fn rebind_finds_a_unique_equivalent_with_the_same_id() {
    let mut c = Collector::new("r");
    let json = capture("basic");
    let r = c.snapshot(&json, &opts(None, None)).unwrap();
    let old = c.resolve(&r.snapshot_id, "e2", &tab()).unwrap();
    // The same page re-rendered: every backend id shifted (as after a framework re-render).
    let shifted = shift_backend_ids(&json, 100_000);
    let t = c.rebind(&r.snapshot_id, "e2", &tab(), &shifted).unwrap();
    assert_eq!(t.backend_node_id, old.backend_node_id.map(|b| b + 100_000));
    // Without an id attribute there is no strong equivalent: fail closed.
    let e = c.rebind(&r.snapshot_id, "e3", &tab(), &shifted).unwrap_err();
    assert_eq!(e.code, Code::StaleRef);
}

#[test]
fn rebind_refuses_duplicates() {
    let mut c = Collector::new("r");
    let json = capture("basic");
    let r = c.snapshot(&json, &opts(None, None)).unwrap();
    // Two frames of the same document content would make two candidates: refuse.
    let doubled = double_main_frame(&shift_backend_ids(&json, 100_000));
    let e = c.rebind(&r.snapshot_id, "e2", &tab(), &doubled).unwrap_err();
    assert_eq!(e.code, Code::StaleRef);
}

fn shift_backend_ids(json: &str, by: i64) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    for f in v["frames"].as_array_mut().unwrap() {
        for n in f["ax"]["nodes"].as_array_mut().unwrap() {
            if let Some(b) = n["backendDOMNodeId"].as_i64() {
                n["backendDOMNodeId"] = (b + by).into();
            }
        }
    }
    for s in v["snapshots"].as_array_mut().unwrap() {
        for d in s["snapshot"]["documents"].as_array_mut().unwrap() {
            for b in d["nodes"]["backendNodeId"].as_array_mut().unwrap() {
                *b = (b.as_i64().unwrap() + by).into();
            }
        }
    }
    v.to_string()
}

fn double_main_frame(json: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(json).unwrap();
    let nodes = v["frames"][0]["ax"]["nodes"].as_array().unwrap().clone();
    let root = nodes[0]["nodeId"].as_str().unwrap().to_string();
    let mut extra: Vec<serde_json::Value> = nodes.iter().skip(1).cloned().collect();
    for n in &mut extra {
        // A copy's id: Chromium's ids are 32-bit integers; these are past any of the capture's.
        let other = |id: &str| {
            let id: i32 = id.parse().unwrap();
            (if id >= 0 { id + 1_000_000_000 } else { id - 1_000_000 }).to_string()
        };
        let id = other(n["nodeId"].as_str().unwrap());
        n["nodeId"] = id.into();
        if let Some(p) = n["parentId"].as_str() {
            n["parentId"] = if p == root { root.clone().into() } else { other(p).into() };
        }
        if let Some(ch) = n["childIds"].as_array_mut() {
            for c in ch {
                *c = other(c.as_str().unwrap()).into();
            }
        }
    }
    let top_children: Vec<serde_json::Value> = extra.iter().filter(|n| n["parentId"] == serde_json::Value::String(root.clone())).map(|n| n["nodeId"].clone()).collect();
    let arr = v["frames"][0]["ax"]["nodes"].as_array_mut().unwrap();
    arr[0]["childIds"].as_array_mut().unwrap().extend(top_children);
    arr.extend(extra);
    v.to_string()
}

/// DOM-source refs carry the id of the walk their index counts in, so an action after
/// another walk (a later snapshot, a dom_cua or extract read) never picks another walk's
/// element at the same index.
#[test]
fn dom_walk_refs_name_their_walk() {
    let walk = |id: &str, label: &str| {
        format!(
            r##"{{"viewport":{{"width":800,"height":600}},"frames":[],"snapshots":[],"domWalk":{{"walkId":"{id}","url":"http://x/","title":"T","nodes":[
            {{"parent":-1,"tag":"html","attrs":{{}},"rect":[0,0,800,600]}},
            {{"parent":0,"tag":"body","attrs":{{}},"rect":[0,0,800,600]}},
            {{"parent":1,"tag":"button","attrs":{{}},"rect":[10,10,80,20]}},
            {{"parent":2,"tag":"#text","text":"{label}","attrs":{{}}}}]}}}}"##
        )
    };
    let mut c = Collector::new("w");
    let first = c.snapshot(&walk("walk-A", "Delete"), &opts(None, None)).unwrap();
    let second = c.snapshot(&walk("walk-B", "Delete"), &opts(None, None)).unwrap();
    let a = c.resolve(&first.snapshot_id, "e1", &tab()).unwrap();
    let b = c.resolve(&second.snapshot_id, "e1", &tab()).unwrap();
    assert_eq!(a.walk_index, b.walk_index, "same index in both walks");
    assert_eq!(a.walk_id.as_deref(), Some("walk-A"));
    assert_eq!(b.walk_id.as_deref(), Some("walk-B"));
    assert_eq!(a.backend_node_id, None);
}

#[test]
fn a_walk_ref_rebinds_in_a_fresh_walk_even_at_the_same_index() {
    use common::page::{el, page};
    let mut c = Collector::new("r");
    let walk = page([el("save", "button").says("Save"), el("", "button").says("Plain")]);
    let r = c.snapshot(&walk, &opts(None, None)).unwrap();
    let old = c.resolve(&r.snapshot_id, "e1", &tab()).unwrap();
    // The element was replaced by a twin at the same place: the fresh walk lists it at the
    // same index, which is another element of another walk.
    let t = c.rebind(&r.snapshot_id, "e1", &tab(), &walk).unwrap();
    assert_eq!((t.walk_index, t.id_attr.as_deref()), (old.walk_index, Some("save")));
    // Without a stable id there is no strong equivalent.
    assert_eq!(c.rebind(&r.snapshot_id, "e2", &tab(), &walk).unwrap_err().code, Code::StaleRef);
}
