//! Literal pages for rule tests: a tree of elements with ids named for what they test,
//! written as the DOM walk (`page`) or as Chromium's AX tree (`ax_page`) would report it.
//! Rects are laid out one line per element from the top of a 1280×720 viewport unless a
//! case places one (`at`, `offscreen`).
#![allow(dead_code)]

use serde_json::{json, Value};

#[derive(Clone, Debug, Default)]
pub struct El {
    id: String,
    tag: String,
    attrs: Vec<(String, String)>,
    kids: Vec<El>,
    text: Option<String>,
    value: Option<String>,
    checked: Option<bool>,
    focused: bool,
    /// The walk's hit test found a positioned element painted over it.
    covered: bool,
    /// The page handles clicks here (an onclick, a pointer cursor starting here).
    clickable: bool,
    display: Option<String>,
    visibility: Option<String>,
    rect: Option<[f64; 4]>,
    /// AX pages: the role and name Chromium would report.
    role: Option<String>,
    name: Option<String>,
}

/// An element `<tag id=id>`; `id` "" for none.
pub fn el(id: &str, tag: &str) -> El {
    El { id: id.into(), tag: tag.into(), ..El::default() }
}

/// A text node.
pub fn text(t: &str) -> El {
    El { tag: "#text".into(), text: Some(t.into()), ..El::default() }
}

/// An AX node (`ax_page`): role, name, and its DOM id as `id`.
pub fn ax(id: &str, role: &str, name: &str) -> El {
    El { id: id.into(), tag: "div".into(), role: Some(role.into()), name: Some(name.into()), ..El::default() }
}

impl El {
    pub fn attr(mut self, k: &str, v: &str) -> El {
        self.attrs.push((k.into(), v.into()));
        self
    }
    pub fn kids(mut self, kids: impl IntoIterator<Item = El>) -> El {
        self.kids.extend(kids);
        self
    }
    /// Shorthand for one text child.
    pub fn says(self, t: &str) -> El {
        self.kids([text(t)])
    }
    pub fn value(mut self, v: &str) -> El {
        self.value = Some(v.into());
        self
    }
    pub fn checked(mut self, c: bool) -> El {
        self.checked = Some(c);
        self
    }
    pub fn focused(mut self) -> El {
        self.focused = true;
        self
    }
    pub fn clickable(mut self) -> El {
        self.clickable = true;
        self
    }
    pub fn covered(mut self) -> El {
        self.covered = true;
        self
    }
    pub fn display(mut self, d: &str) -> El {
        self.display = Some(d.into());
        self
    }
    pub fn visibility(mut self, v: &str) -> El {
        self.visibility = Some(v.into());
        self
    }
    pub fn at(mut self, x: f64, y: f64, w: f64, h: f64) -> El {
        self.rect = Some([x, y, w, h]);
        self
    }
    pub fn offscreen(self) -> El {
        self.at(0.0, 5_000.0, 800.0, 20.0)
    }
}

const INLINE: &[&str] = &["a", "span", "b", "i", "em", "strong", "label", "code", "img", "input", "button", "select", "textarea"];

/// The DOM-walk observation of `body`'s children.
pub fn page(kids: impl IntoIterator<Item = El>) -> String {
    let body = el("", "body").kids(kids);
    let html = el("", "html").kids([body]);
    let mut nodes = Vec::new();
    let mut y = 0.0;
    walk(&html, -1, &mut nodes, &mut y);
    json!({
        "url": "https://example.test/page", "title": "Rules", "viewport": {"width": 1280, "height": 720},
        "frames": [], "snapshots": [],
        "domWalk": {"url": "https://example.test/page", "title": "Rules", "walkId": "w1", "nodes": nodes},
    })
    .to_string()
}

fn walk(e: &El, parent: i64, out: &mut Vec<Value>, y: &mut f64) {
    let me = out.len() as i64;
    if e.tag == "#text" {
        out.push(json!({"parent": parent, "tag": "#text", "text": e.text}));
        return;
    }
    let mut attrs = serde_json::Map::new();
    if !e.id.is_empty() {
        attrs.insert("id".into(), e.id.clone().into());
    }
    for (k, v) in &e.attrs {
        attrs.insert(k.clone(), v.clone().into());
    }
    let rect = e.rect.unwrap_or_else(|| {
        *y += 20.0;
        [0.0, *y - 20.0, 800.0, 20.0]
    });
    let display = e.display.clone().unwrap_or_else(|| if INLINE.contains(&e.tag.as_str()) { "inline".into() } else { "block".into() });
    let mut n = json!({"parent": parent, "tag": e.tag, "attrs": attrs, "rect": rect, "display": display, "visibility": e.visibility.clone().unwrap_or_else(|| "visible".into()), "opacity": 1});
    if let Some(v) = &e.value {
        n["value"] = v.clone().into();
    }
    if let Some(c) = e.checked {
        n["checked"] = c.into();
    }
    if e.focused {
        n["focused"] = true.into();
    }
    if e.clickable {
        n["clickable"] = true.into();
    }
    if e.covered {
        n["covered"] = true.into();
    }
    out.push(n);
    for k in &e.kids {
        walk(k, me, out, y);
    }
}

/// An AX observation of `kids` under a RootWebArea (no DOM snapshot: layout unknown).
pub fn ax_page(kids: impl IntoIterator<Item = El>) -> String {
    let root = ax("", "RootWebArea", "Rules").kids(kids);
    let mut nodes = Vec::new();
    ax_walk(&root, None, &mut nodes);
    json!({
        "url": "https://example.test/page", "title": "Rules", "viewport": {"width": 1280, "height": 720},
        "frames": [{"frameId": "F", "url": "https://example.test/page", "session": "", "ax": {"nodes": nodes}}],
        "snapshots": [],
    })
    .to_string()
}

fn ax_walk(e: &El, parent: Option<String>, out: &mut Vec<Value>) {
    let id = (out.len() + 1).to_string();
    let at = out.len();
    out.push(json!({
        "nodeId": id, "ignored": false, "backendDOMNodeId": out.len() + 100,
        "role": {"type": "role", "value": e.role.clone().unwrap_or_else(|| "StaticText".into())},
        "name": {"type": "computedString", "value": e.name.clone().or_else(|| e.text.clone()).unwrap_or_default()},
        "childIds": [], "frameId": "F",
    }));
    if let Some(p) = parent {
        out[at]["parentId"] = p.into();
    }
    if let Some(v) = &e.value {
        out[at]["value"] = json!({"type": "string", "value": v});
    }
    let mut kids = Vec::new();
    for k in &e.kids {
        kids.push((out.len() + 1).to_string());
        ax_walk(k, Some(id.clone()), out);
    }
    out[at]["childIds"] = kids.into();
}
