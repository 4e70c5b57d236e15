//! Rendering: one line per kept node (`- role "name" value="…" [attrs] [ref=eN]`), two
//! spaces per nesting level, `- note: …` lines for what the budget left out.
//!
//! Owns: the model-facing line format. Must never: choose nodes (that is `select`) or
//! print anything not on the attribute whitelist (no style, class, outerHTML, node maps).

use crate::budget::NODE_TEXT_CHARS;
use crate::view::filter::{Kind, VNode, View};
use crate::role::Role;
use crate::text::{capped, char_len};
use crate::tree::Tree;

/// The body of a node's line, without indentation, dash or ref.
pub fn body(v: &VNode, tree: &Tree) -> String {
    match v.kind {
        Kind::Text => format!("text: {}", capped(&v.name, NODE_TEXT_CHARS)),
        Kind::Warning => format!("note: {}", capped(&v.name, NODE_TEXT_CHARS)),
        Kind::Group => String::new(),
        Kind::Element => element_body(v, tree),
    }
}

fn element_body(v: &VNode, tree: &Tree) -> String {
    let mut out = v.role.display().to_string();
    if !v.name.is_empty() {
        out.push(' ');
        quote_into(&mut out, &v.name);
    }
    if let Some(value) = &v.value {
        out.push_str(" value=");
        quote_into(&mut out, value);
    }
    if let Some(n) = v.src.map(|s| &tree.nodes[s]) {
        let st = &n.states;
        if let Some(l) = st.level.filter(|_| v.role == Role::Heading) {
            out.push_str(&format!(" [level={l}]"));
        }
        match st.checked.as_deref() {
            Some("true") => out.push_str(" [checked]"),
            Some("mixed") => out.push_str(" [checked=mixed]"),
            _ => {}
        }
        match st.pressed.as_deref() {
            Some("true") => out.push_str(" [pressed]"),
            Some("mixed") => out.push_str(" [pressed=mixed]"),
            _ => {}
        }
        if st.selected && matches!(v.role, Role::Option | Role::Tab | Role::TreeItem | Role::Row | Role::GridCell | Role::Cell | Role::ListItem) {
            out.push_str(" [selected]");
        }
        match st.expanded {
            Some(true) => out.push_str(" [expanded]"),
            Some(false) => out.push_str(" [expanded=false]"),
            None => {}
        }
        if st.disabled {
            out.push_str(" [disabled]");
        }
        if st.required {
            out.push_str(" [required]");
        }
        if st.invalid {
            out.push_str(" [invalid]");
        }
        if st.readonly && v.role.is_actionable() {
            out.push_str(" [readonly]");
        }
        if st.focused {
            out.push_str(" [focused]");
        }
        if let Some(t) = n.attr("type").filter(|_| n.tag == "input") {
            let t = t.to_ascii_lowercase();
            if !matches!(t.as_str(), "" | "text" | "submit" | "button" | "checkbox" | "radio" | "search" | "reset" | "image") {
                out.push_str(&format!(" [type={}]", capped(&t, crate::budget::INPUT_TYPE_CHARS)));
            }
        }
        if v.role == Role::Link {
            let page = tree.frames.get(v.frame).map(|f| f.url.as_str()).unwrap_or("");
            if let Some(h) = n.attr("href").and_then(|h| crate::view::href::display(h, page)) {
                out.push_str(&format!(" [href={h}]"));
            }
        }
        if let Some(p) = n.attr("placeholder").filter(|p| !p.is_empty() && v.value.is_none() && crate::text::fold_whitespace(p) != v.name) {
            out.push_str(" [placeholder=");
            quote_into(&mut out, p);
            out.push(']');
        }
        if v.role == Role::TextBox && !matches!(n.tag.as_str(), "input" | "textarea") && n.attr("contenteditable").is_some() {
            out.push_str(" [contenteditable]");
        }
    }
    if let Some(t) = &v.inline_text {
        out.push_str(": ");
        out.push_str(&capped(t, NODE_TEXT_CHARS));
    }
    out
}

fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    for c in capped(s, NODE_TEXT_CHARS).chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Characters a line costs: indentation, dash, body, ref, newline.
pub fn line_cost(body: &str, depth: usize, with_ref: bool) -> usize {
    depth * 2 + 2 + char_len(body) + if with_ref { 11 } else { 0 } + 1
}

/// An omitted run of siblings, summarized on one line.
#[derive(Default)]
struct Omitted {
    units: usize,
    nodes: usize,
    /// The first unit's role (`Some(None)`: an item, a group of lines).
    role: Option<Option<Role>>,
    mixed: bool,
}

pub struct Rendered {
    pub state: String,
    /// (ref label, view index) in line order.
    pub refs: Vec<(String, usize)>,
    pub lines: usize,
}

/// How refs are labelled: `e1, e2…` for snapshots; AX refs continue a per-runtime counter
/// so a label is never reused for another node while a client may still hold it.
#[derive(Debug, Clone, Copy)]
pub struct RefLabels {
    pub prefix: char,
    pub first: usize,
}

/// Renders the selected nodes of the view.
pub fn render(view: &View, tree: &Tree, selected: &[bool], labels: RefLabels) -> Rendered {
    let mut r = Rendered { state: String::new(), refs: Vec::new(), lines: 0 };
    let (any_selected, subtree_nodes) = subtree_facts(view, selected);
    // Explicit stack of cursors (container, next child, depth, named container, omitted run):
    // deep trees never recurse.
    let mut cursors: Vec<(usize, usize, usize, Option<usize>, Omitted)> = vec![(view.root, 0, 0, None, Omitted::default())];
    while let Some(top) = cursors.last_mut() {
        let (of, pos, depth, container, _) = (top.0, top.1, top.2, top.3, ());
        let children = &view.nodes[of].children;
        if pos >= children.len() {
            let (_, _, depth, container, om) = cursors.pop().expect("non-empty");
            flush(&mut r, &om, depth, container, view, labels);
            continue;
        }
        top.1 += 1;
        let c = children[pos];
        let child = &view.nodes[c];
        if !any_selected[c] {
            if child.kind == Kind::Warning {
                // Warnings are always shown: they are how an unexpandable iframe is reported.
                let om = std::mem::take(&mut top.4);
                flush(&mut r, &om, depth, container, view, labels);
                push_line(&mut r, &body(child, tree), depth, None);
                continue;
            }
            let n = subtree_nodes[c];
            if n == 0 {
                continue;
            }
            let om = &mut top.4;
            om.units += 1;
            om.nodes += n;
            let unit_role = if child.kind == Kind::Group { None } else { Some(child.role) };
            match om.role {
                None => om.role = Some(unit_role),
                Some(r0) if r0 != unit_role => om.mixed = true,
                _ => {}
            }
            continue;
        }
        let om = std::mem::take(&mut top.4);
        flush(&mut r, &om, depth, container, view, labels);
        if child.kind == Kind::Group {
            cursors.push((c, 0, depth, container, Omitted::default()));
            continue;
        }
        // The root of a scoped read carries a ref too: the next read (another page, a
        // narrower scope) names it under this result's snapshotId.
        let scoped_root = depth == 0 && tree.scope.is_some();
        let label = (child.kind == Kind::Element && (child.actionable || scoped_root)).then(|| format!("{}{}", labels.prefix, labels.first + r.refs.len()));
        if let Some(l) = &label {
            r.refs.push((l.clone(), c));
        }
        push_line(&mut r, &body(child, tree), depth, label.as_deref());
        if !child.children.is_empty() {
            cursors.push((c, 0, depth + 1, Some(c), Omitted::default()));
        }
    }
    if r.state.ends_with('\n') {
        r.state.pop();
    }
    r
}

/// Per view node: whether anything in its subtree is selected, and how many nodes
/// (elements and text) its subtree holds. One bottom-up pass.
fn subtree_facts(view: &View, selected: &[bool]) -> (Vec<bool>, Vec<usize>) {
    let order = view.preorder();
    let mut any = vec![false; view.nodes.len()];
    let mut count = vec![0usize; view.nodes.len()];
    for &i in order.iter().rev() {
        let v = &view.nodes[i];
        any[i] = selected[i];
        count[i] = usize::from(matches!(v.kind, Kind::Element | Kind::Text));
        for &c in &v.children {
            any[i] |= any[c];
            count[i] += count[c];
        }
    }
    (any, count)
}

fn push_line(r: &mut Rendered, body: &str, depth: usize, ref_label: Option<&str>) {
    for _ in 0..depth {
        r.state.push_str("  ");
    }
    r.state.push_str("- ");
    r.state.push_str(body);
    if let Some(l) = ref_label {
        r.state.push_str(" [ref=");
        r.state.push_str(l);
        r.state.push(']');
    }
    r.state.push('\n');
    r.lines += 1;
}

/// The `- note: N more …` line of an omitted run. In a container of the page it ends with a
/// `[more=label]` handle: a ref of that container (its own, or a new one) that a ref-scoped
/// `browser_snapshot` opens.
fn flush(r: &mut Rendered, om: &Omitted, depth: usize, container: Option<usize>, view: &View, labels: RefLabels) {
    // A note must save more than it costs: one left-out line or two say less than the note
    // would (the closing line still counts them).
    if om.units == 0 || (om.units == 1 && om.nodes <= 2) {
        return;
    }
    let what = match (&om.role, om.mixed) {
        (Some(Some(role)), false) => if om.units == 1 { role.display().to_string() } else { role.plural() },
        _ => if om.units == 1 { "item".into() } else { "items".into() },
    };
    let mut line = format!("note: {} more {}", om.units, what);
    if om.nodes > om.units {
        line.push_str(&format!(" ({} nodes)", om.nodes));
    }
    let Some(ci) = container else { return push_line(r, &line, depth, None) };
    let c = &view.nodes[ci];
    if !c.name.is_empty() {
        line.push_str(" in ");
        quote_into(&mut line, &capped(&c.name, crate::budget::NOTE_NAME_CHARS));
    } else {
        line.push_str(&format!(" in {}", c.role.display()));
    }
    if c.src.is_some() {
        let handle = match r.refs.iter().find(|(_, vi)| *vi == ci) {
            Some((l, _)) => l.clone(),
            None => {
                let l = format!("{}{}", labels.prefix, labels.first + r.refs.len());
                r.refs.push((l.clone(), ci));
                l
            }
        };
        line.push_str(&format!(" [more={handle}]"));
    }
    push_line(r, &line, depth, None);
}
