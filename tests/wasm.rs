//! The wasm boundary, in headless Chrome: JS values in, JS objects (or thrown
//! `{code, message, hint}` objects) out. The logic itself is tested natively. Values cross
//! as a JS host makes them: plain objects built from `serde_json` values and read back into
//! them with `serde-wasm-bindgen`, so each assertion is on the whole value.
#![cfg(target_arch = "wasm32")]

use pcc::wasm::{computed_styles, WasmCollector as Collector};
use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const OBS: &str = r#"{"viewport":{"width":800,"height":600},"frames":[{"frameId":"F","ax":{"nodes":[
  {"nodeId":"1","role":{"value":"RootWebArea"},"childIds":["2","3"]},
  {"nodeId":"2","parentId":"1","role":{"value":"button"},"name":{"value":"Save"},"backendDOMNodeId":11},
  {"nodeId":"3","parentId":"1","role":{"value":"textbox"},"name":{"value":"Password"},"value":{"value":"s3cret-value"},"backendDOMNodeId":12,
   "properties":[]}]}}],
  "snapshots":[{"session":"","snapshot":{"strings":["BUTTON","INPUT","type","password"],"documents":[{"nodes":{"parentIndex":[-1,-1],"nodeType":[1,1],"nodeName":[0,1],"backendNodeId":[11,12],"attributes":[[],[2,3]]},"layout":{"nodeIndex":[],"styles":[],"bounds":[]}}]}}]}"#;

/// A plain JS value as a JS host writes it (objects, not Maps).
fn js(v: Value) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).expect("a JSON value crosses")
}

/// What the facade returned, as a JSON value.
fn back(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).expect("the facade returns plain values")
}

/// UTF-8 bytes as a JS host passes them.
fn bytes(b: &[u8]) -> JsValue {
    js_sys::Uint8Array::from(b).into()
}

fn tab() -> JsValue {
    js(json!({"tabId": 3, "tabFence": "tab:3:1", "incarnation": "L1"}))
}

#[wasm_bindgen_test]
fn snapshot_returns_a_plain_object_and_redacts() {
    let mut c = Collector::new("w");
    let r = back(c.snapshot(JsValue::from_str(OBS), js(json!({"tab": {"tabId": 3, "tabFence": "tab:3:1", "incarnation": "L1"}}))).unwrap());
    assert_eq!(
        r,
        json!({"snapshotId": "snapshot-w-1", "mode": "full", "source": "chromium_ax", "state": "- button \"Save\" [ref=e1]\n- textbox \"Password\" [type=password] [ref=e2]",
               "nodeCount": 2, "charCount": 70, "truncated": false, "refCount": 2, "totalNodes": 2})
    );
    let target = back(c.resolve("snapshot-w-1", "e1", tab()).unwrap());
    assert_eq!(target["backendNodeId"], json!(11));
}

#[wasm_bindgen_test]
fn find_takes_a_host_regexp_and_its_refs_resolve() {
    let mut c = Collector::new("w");
    let re = js_sys::RegExp::new("^sa", "i");
    let r = back(c.find(JsValue::from_str(OBS), js(json!({"role": "button"})), tab(), Some(re)).unwrap());
    assert_eq!((&r["matches"], &r["state"]), (&json!(1), &json!("- button \"Save\" [ref=e1]")));
    let target = back(c.resolve(r["snapshotId"].as_str().unwrap(), "e1", tab()).unwrap());
    assert_eq!(target["backendNodeId"], json!(11));
    // The password's value is not searchable.
    let r = back(c.find(JsValue::from_str(OBS), js(json!({"text": "s3cret", "maxResults": 5})), tab(), None).unwrap());
    assert_eq!(r["matches"], json!(0));
    // A wrong type in the query is a typed error, not a panic.
    let bad = c.find(JsValue::from_str(OBS), js(json!({"text": 5})), tab(), None).err().expect("refused");
    assert_eq!(back(bad)["code"], json!("INVALID_REQUEST"));
}

#[wasm_bindgen_test]
fn a_saved_state_crosses_as_text_and_its_refs_resolve() {
    let mut c = Collector::new("w");
    c.snapshot(JsValue::from_str(OBS), js(json!({"tab": {"tabId": 3, "tabFence": "tab:3:1", "incarnation": "L1"}}))).unwrap();
    let state = c.save_state();
    let mut r = Collector::restore(state.as_bytes()).unwrap();
    assert_eq!(back(r.resolve("snapshot-w-1", "e1", tab()).unwrap())["backendNodeId"], json!(11));
    assert_eq!(r.save_state(), state);
    assert_eq!(back(Collector::restore(b"not a state").err().expect("refused"))["code"], json!("INVALID_REQUEST"));
}

#[wasm_bindgen_test]
fn errors_are_thrown_as_coded_objects() {
    let mut c = Collector::new("w");
    let code = |e: JsValue| {
        let e = back(e);
        assert!(!e["hint"].as_str().unwrap_or("").is_empty() || e["code"] == "BROWSER_STALE_REF", "{e}");
        e["code"].as_str().unwrap_or("").to_string()
    };
    assert_eq!(code(c.snapshot(JsValue::from_str("{not json"), JsValue::UNDEFINED).unwrap_err()), "INVALID_REQUEST");
    assert_eq!(code(c.snapshot(bytes(&[b'"', 0xff, b'"']), JsValue::UNDEFINED).unwrap_err()), "INVALID_REQUEST");
    assert_eq!(code(c.resolve("snapshot-x-1", "e1", tab()).unwrap_err()), "BROWSER_STALE_REF");
    // A wrong type in an option object is a coded error too, not a panic.
    assert_eq!(code(c.snapshot(JsValue::from_str(OBS), js(json!({"maxChars": "many"}))).unwrap_err()), "INVALID_REQUEST");
}

#[wasm_bindgen_test]
fn computed_styles_lists_what_the_extension_must_capture() {
    let s = computed_styles();
    assert_eq!(s[0], "display");
    assert!(s.iter().any(|x| x == "opacity"));
}

/// The JS-host exports (`--features host`): projection and model text cross as plain values.
#[cfg(feature = "host")]
#[wasm_bindgen_test]
fn host_projection_is_idempotent_and_errors_are_coded() {
    let raw = json!({"tab": {"id": 3, "title": "T", "favIconUrl": "data:image/png;base64,AAAA", "handle": {"tabId": 3}},
                     "snapshot": {"snapshotId": "snapshot-1", "mode": "full", "state": "- button \"Save\" [ref=e1]", "nodeCount": 1, "charCount": 26, "truncated": false},
                     "frameTree": {"frame": {}}, "timing": {"captureMs": 1}});
    let once = back(pcc::wasm::project("browser_snapshot", js(raw)).unwrap());
    assert!(once.get("frameTree").is_none() && once.get("timing").is_none() && once["tab"].get("favIconUrl").is_none(), "{once}");
    let twice = back(pcc::wasm::project("browser_snapshot", js(once.clone())).unwrap());
    assert_eq!(twice, once);
    let text = pcc::wasm::model_text("browser_snapshot", js(twice), JsValue::UNDEFINED).unwrap();
    assert!(text.starts_with("<untrusted-page-content>\n") && text.contains("\n- button \"Save\" [ref=e1]\n"), "{text}");
    // Integers cross as integers (serde-wasm-bindgen), never as `3.0`.
    assert_eq!(once["tab"]["id"], json!(3));
    assert!(text.contains("\"id\":3") && !text.contains("3.0"), "{text}");
    let e = back(pcc::wasm::project("browser_click", js(json!({}))).unwrap_err());
    assert_eq!(e["code"], "INVALID_REQUEST");
}

#[wasm_bindgen_test]
fn an_observation_reads_the_same_as_text_or_as_bytes_in_any_script() {
    // Names in several scripts, an astral character, and enough non-ASCII text that the
    // encoder needs several rounds to fit it (each UTF-16 unit left is given one byte first).
    let long = "Москва café 😀 東京 ".repeat(4000);
    let obs = OBS.replace(r#""name":{"value":"Save"}"#, &format!(r#""name":{{"value":"Save {long}"}}"#));
    let read = |v: JsValue| back(Collector::new("w").snapshot(v, js(json!({"maxChars": 100000}))).unwrap())["state"].clone();
    let as_text = read(JsValue::from_str(&obs));
    assert!(as_text.as_str().unwrap().contains("Save Москва café 😀 東京"), "{as_text}");
    assert_eq!(as_text, read(bytes(obs.as_bytes())));
    // Anything else is a typed error.
    let e = back(Collector::new("w").snapshot(JsValue::from_f64(5.0), JsValue::UNDEFINED).unwrap_err());
    assert_eq!(e["code"], "INVALID_REQUEST");
}
