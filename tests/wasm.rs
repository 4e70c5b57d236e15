//! The wasm boundary, in headless Chrome: JS values in, JS objects (or thrown
//! `{code, message, hint}` objects) out. The logic itself is tested natively.
#![cfg(target_arch = "wasm32")]

use pcc::wasm::{computed_styles, Collector};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const OBS: &str = r#"{"viewport":{"width":800,"height":600},"frames":[{"frameId":"F","ax":{"nodes":[
  {"nodeId":"1","role":{"value":"RootWebArea"},"childIds":["2","3"]},
  {"nodeId":"2","parentId":"1","role":{"value":"button"},"name":{"value":"Save"},"backendDOMNodeId":11},
  {"nodeId":"3","parentId":"1","role":{"value":"textbox"},"name":{"value":"Password"},"value":{"value":"s3cret-value"},"backendDOMNodeId":12,
   "properties":[]}]}}],
  "snapshots":[{"session":"","snapshot":{"strings":["BUTTON","INPUT","type","password"],"documents":[{"nodes":{"parentIndex":[-1,-1],"nodeType":[1,1],"nodeName":[0,1],"backendNodeId":[11,12],"attributes":[[],[2,3]]},"layout":{"nodeIndex":[],"styles":[],"bounds":[]}}]}}]}"#;

fn get(v: &JsValue, k: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(k)).unwrap()
}

fn tab() -> JsValue {
    let t = js_sys::Object::new();
    js_sys::Reflect::set(&t, &"tabId".into(), &JsValue::from_f64(3.0)).unwrap();
    js_sys::Reflect::set(&t, &"tabFence".into(), &"tab:3:1".into()).unwrap();
    js_sys::Reflect::set(&t, &"incarnation".into(), &"L1".into()).unwrap();
    t.into()
}

#[wasm_bindgen_test]
fn snapshot_returns_a_plain_object_and_redacts() {
    let mut c = Collector::new("w");
    let opts = js_sys::Object::new();
    js_sys::Reflect::set(&opts, &"tab".into(), &tab()).unwrap();
    let r = c.snapshot(OBS.as_bytes(), opts.into()).unwrap();
    let state = get(&r, "state").as_string().unwrap();
    assert!(state.contains("button \"Save\" [ref=e1]"), "{state}");
    assert!(!state.contains("s3cret-value"));
    assert_eq!(get(&r, "mode").as_string().unwrap(), "full");
    assert_eq!(get(&r, "truncated").as_bool(), Some(false));
    let id = get(&r, "snapshotId").as_string().unwrap();
    let target = c.resolve(&id, "e1", tab()).unwrap();
    assert_eq!(get(&target, "backendNodeId").as_f64(), Some(11.0));
}

#[wasm_bindgen_test]
fn find_takes_a_host_regexp_and_its_refs_resolve() {
    let mut c = Collector::new("w");
    let re: pcc::wasm::RegExp = wasm_bindgen::JsCast::unchecked_into(JsValue::from(js_sys::RegExp::new("^sa", "i")));
    let r = c.find(OBS.as_bytes(), None, Some("button".into()), None, false, None, None, false, None, None, tab(), Some(re)).unwrap();
    assert_eq!(get(&r, "matches").as_f64(), Some(1.0));
    let state = get(&r, "state").as_string().unwrap();
    assert_eq!(state, "- button \"Save\" [ref=e1]");
    let target = c.resolve(&get(&r, "snapshotId").as_string().unwrap(), "e1", tab()).unwrap();
    assert_eq!(get(&target, "backendNodeId").as_f64(), Some(11.0));
    // The password's value is not searchable.
    let r = c.find(OBS.as_bytes(), Some("s3cret".into()), None, None, false, None, None, false, None, None, tab(), None).unwrap();
    assert_eq!(get(&r, "matches").as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
fn errors_are_thrown_as_coded_objects() {
    let mut c = Collector::new("w");
    let e = c.snapshot(b"{not json", JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "INVALID_REQUEST");
    assert!(!get(&e, "hint").as_string().unwrap().is_empty());
    let e = c.snapshot(&[b'"', 0xff, b'"'], JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "INVALID_REQUEST");
    let e = c.resolve("snapshot-x-1", "e1", tab()).unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "BROWSER_STALE_REF");
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
    let raw = js_sys::JSON::parse(r#"{"tab":{"id":3,"title":"T","favIconUrl":"data:image/png;base64,AAAA","handle":{"tabId":3}},"snapshot":{"snapshotId":"snapshot-1","mode":"full","state":"- button \"Save\" [ref=e1]","nodeCount":1,"charCount":26,"truncated":false},"frameTree":{"frame":{}},"timing":{"captureMs":1}}"#).unwrap();
    let once = pcc::wasm::project("browser_snapshot", raw).unwrap();
    let json = js_sys::JSON::stringify(&once).unwrap().as_string().unwrap();
    assert!(!json.contains("frameTree") && !json.contains("timing") && !json.contains("favIcon"), "{json}");
    let twice = pcc::wasm::project("browser_snapshot", once).unwrap();
    assert_eq!(js_sys::JSON::stringify(&twice).unwrap().as_string().unwrap(), json);
    let text = pcc::wasm::model_text("browser_snapshot", twice, JsValue::UNDEFINED).unwrap();
    assert!(text.starts_with("<untrusted-page-content>\n") && text.contains("\n- button \"Save\" [ref=e1]\n"), "{text}");
    let e = pcc::wasm::project("browser_click", js_sys::Object::new().into()).unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "INVALID_REQUEST");
}
