//! Semantic filtering: turns the semantic tree into the view tree the budget selects from.
//! Each node is `Include`d, `Lift`ed (dropped, children lifted to the parent: unnamed
//! generic wrappers, ignored and hidden nodes) or `Skip`ped with its subtree (script, style,
//! template, inline text boxes, decorative images, text a named ancestor already owns).
//!
//! Owns: what is kept and text ownership (each text appears once, at the deepest owner).
//! Must never: look at budgets, assign refs or emit a sensitive value (values of
//! sensitive nodes are dropped here, before anything downstream can see them).

use crate::redact::is_sensitive;
use crate::role;
use crate::text::fold_whitespace;
use crate::tree::{Node, Tree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A node with a line of its own.
    Element,
    /// Page text (`- text: …`).
    Text,
    /// A dropped wrapper: no line, but its children stay together as one unit for
    /// run detection (a chat message, a list item).
    Group,
    /// `- note: …` for content that could not be expanded (an iframe).
    Warning,
}

#[derive(Debug, Clone)]
pub struct VNode {
    pub kind: Kind,
    pub role: String,
    /// Accessible name, or the text of a `Text` node.
    pub name: String,
    /// Text content shown inline after the line (`- paragraph: …`).
    pub inline_text: Option<String>,
    /// Value, already redacted: `None` for sensitive nodes.
    pub value: Option<String>,
    pub sensitive: bool,
    /// Gets a ref when rendered.
    pub actionable: bool,
    pub src: Option<usize>,
    pub frame: usize,
    pub in_viewport: bool,
    pub focused: bool,
    pub children: Vec<usize>,
}

pub struct View {
    pub nodes: Vec<VNode>,
    pub root: usize,
}

impl View {
    /// Reachable nodes in document order (pre-order), without recursion.
    pub fn preorder(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.nodes[i].children.iter().rev().copied());
        }
        out
    }

    /// Parent of each reachable node (`usize::MAX` for the root and unreachable nodes).
    pub fn parents(&self) -> Vec<usize> {
        let mut p = vec![usize::MAX; self.nodes.len()];
        for i in self.preorder() {
            for &c in &self.nodes[i].children {
                p[c] = i;
            }
        }
        p
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decision {
    Include,
    Lift,
    Skip,
}

/// Context inherited from ancestors.
#[derive(Clone, Default)]
struct Ctx {
    /// Name of the nearest kept ancestor whose name is computed from its content.
    owner_name: Option<String>,
    /// Inside a label that contains a form control (the control's name owns the text).
    label_with_control: bool,
    /// Inside a native `<select>`: its options are chosen with select_option, not clicked.
    in_select: bool,
    /// Inside a form field: its inner text is the field's value (maybe a masked secret),
    /// which only ever reaches the output through the redacted `value`.
    in_field: bool,
}

/// A clickable wrapper with more nodes below it than this is a page-level listener
/// (event delegation, an app root), not a control.
const CLICKABLE_MAX_SUBTREE: usize = 24;

fn decide(tree: &Tree, ti: usize, ctx: &Ctx) -> Decision {
    let n = &tree.nodes[ti];
    let role = n.role.as_str();
    if role::is_excluded_subtree(role) {
        return Decision::Skip;
    }
    if n.ignored || n.hidden {
        return Decision::Lift;
    }
    if !role::is_actionable(role) && ctx.owner_name.as_deref().map(|o| !o.is_empty() && o == crate::text::fold_whitespace(&n.name)).unwrap_or(false) {
        // Repeats its owner's name (the icon inside a link named by that icon).
        return Decision::Skip;
    }
    if role == "generic" && n.clickable && n.name.trim().is_empty() && is_small_leafish(tree, ti) {
        // A div the page handles clicks on, around text: a control without a role.
        return Decision::Include;
    }
    if role::is_text(role) {
        let text = n.name.trim();
        if text.is_empty() || ctx.label_with_control || ctx.in_field {
            return Decision::Skip;
        }
        if ctx.owner_name.as_deref().map(|o| !o.is_empty()).unwrap_or(false) {
            // A kept ancestor computes its name from this text: it owns it.
            return Decision::Skip;
        }
        return Decision::Include;
    }
    if role::is_image(role) {
        return if n.name.trim().is_empty() { Decision::Skip } else { Decision::Include };
    }
    if role == "iframe" {
        return Decision::Include;
    }
    if role == "document" || role == "menulistpopup" {
        return Decision::Lift;
    }
    if role::is_transparent(role) && n.name.trim().is_empty() {
        return Decision::Lift;
    }
    if role == "generic" || role == "none" || role == "presentation" {
        // A named generic (rare: aria-label on a div) is kept only when the page handles clicks on it.
        return if n.clickable { Decision::Include } else { Decision::Lift };
    }
    Decision::Include
}

fn is_actionable(n: &Node) -> bool {
    if n.covered || n.hidden {
        return false;
    }
    let role = n.role.as_str();
    role::is_actionable(role)
        || (n.states.focusable && !role::is_transparent(role) && !role::is_text(role) && !matches!(role, "iframe" | "document" | "generic" | "heading" | "paragraph") && !role::is_landmark(role))
        || (n.clickable && role == "generic")
}

/// Builds the view from the tree (or from the scope node when a selector narrowed the read).
pub fn filter(tree: &Tree) -> View {
    let mut view = View { nodes: Vec::new(), root: 0 };
    view.nodes.push(group_node(0));
    let start = tree.scope.unwrap_or(tree.root);
    let start_children: Vec<usize> = if tree.scope.is_some() { vec![start] } else { tree.nodes[start].children.clone() };
    // Pass 1, top-down with an explicit stack: (tree index, view parent, context).
    let mut stack: Vec<(usize, usize, Ctx)> = start_children.iter().rev().map(|&c| (c, 0, Ctx::default())).collect();
    while let Some((ti, vparent, ctx)) = stack.pop() {
        let n = &tree.nodes[ti];
        let decision = decide(tree, ti, &ctx);
        if decision == Decision::Skip {
            continue;
        }
        let vi = view.nodes.len();
        let mut child_ctx = ctx.clone();
        let mut v = match decision {
            Decision::Lift => group_node(n.frame),
            _ => element_node(ti, n),
        };
        if decision == Decision::Include && role::owns_descendant_text(&n.role) && !n.name.trim().is_empty() {
            child_ctx.owner_name = Some(fold_whitespace(&n.name));
        }
        if matches!(n.role.as_str(), "textbox" | "searchbox" | "combobox" | "spinbutton" | "slider" | "textfield") {
            child_ctx.in_field = true;
        }
        if role::is_native_widget(&n.role) {
            // One control: its internal parts are not separate nodes.
            v.frame = n.frame;
            view.nodes.push(v);
            view.nodes[vparent].children.push(vi);
            continue;
        }
        if n.role == "combobox" && n.tag == "select" {
            child_ctx.in_select = true;
        }
        if ctx.in_select && n.role == "option" {
            v.actionable = false;
        }
        if n.role == "label" && has_control_descendant(tree, ti) {
            child_ctx.label_with_control = true;
        }
        if n.role == "iframe" || n.role == "document" {
            child_ctx = Ctx::default();
        }
        v.frame = n.frame;
        view.nodes.push(v);
        view.nodes[vparent].children.push(vi);
        if let Some(w) = &n.warning {
            let wi = view.nodes.len();
            view.nodes.push(VNode { kind: Kind::Warning, name: w.clone(), ..group_node(n.frame) });
            view.nodes[vi].children.push(wi);
        }
        for &c in n.children.iter().rev() {
            stack.push((c, vi, child_ctx.clone()));
        }
    }
    normalize(&mut view);
    view
}

fn group_node(frame: usize) -> VNode {
    VNode {
        kind: Kind::Group,
        role: String::new(),
        name: String::new(),
        inline_text: None,
        value: None,
        sensitive: false,
        actionable: false,
        src: None,
        frame,
        in_viewport: false,
        focused: false,
        children: Vec::new(),
    }
}

fn element_node(ti: usize, n: &Node) -> VNode {
    // Without the DOM facts (type, name, id, autocomplete) a value's safety cannot be
    // proven: fail closed and treat it as sensitive.
    let unverifiable = n.value.is_some() && n.tag.is_empty();
    let sensitive = unverifiable || is_sensitive(n);
    let kind = if role::is_text(&n.role) { Kind::Text } else { Kind::Element };
    let mut name = fold_whitespace(&n.name);
    if sensitive && name_may_hold_value(&name, n) {
        // A name computed from the value (unlabeled fields, some widgets) would leak it.
        name = n.attr("aria-label").map(fold_whitespace).unwrap_or_default();
    }
    let value = if sensitive { None } else { n.value.as_deref().map(fold_whitespace).filter(|v| !v.is_empty() && *v != name) };
    VNode {
        kind,
        role: if n.role == "generic" { "clickable".into() } else { n.role.clone() },
        name,
        inline_text: None,
        value,
        sensitive,
        actionable: kind == Kind::Element && is_actionable(n),
        src: Some(ti),
        frame: n.frame,
        in_viewport: n.in_viewport,
        focused: n.states.focused,
        children: Vec::new(),
    }
}

/// The name of a sensitive field is suspect when it repeats the value or is a masked value.
fn name_may_hold_value(name: &str, n: &Node) -> bool {
    let masked = !name.is_empty() && name.chars().all(|c| matches!(c, '•' | '●' | '*' | '·' | '∙' | '⁕' | ' '));
    let repeats = n.value.as_deref().map(|v| !v.trim().is_empty() && name.contains(v.trim())).unwrap_or(false);
    masked || repeats
}

/// A clickable wrapper worth a ref: a small subtree without a control of its own.
fn is_small_leafish(tree: &Tree, ti: usize) -> bool {
    let mut stack: Vec<usize> = tree.nodes[ti].children.clone();
    let mut seen = 0;
    while let Some(i) = stack.pop() {
        seen += 1;
        if seen > CLICKABLE_MAX_SUBTREE || role::is_actionable(&tree.nodes[i].role) {
            return false;
        }
        stack.extend(tree.nodes[i].children.iter().copied());
    }
    true
}

/// Whether a form control sits within the first nodes below `ti` (a bounded look).
fn has_control_descendant(tree: &Tree, ti: usize) -> bool {
    let mut stack: Vec<usize> = tree.nodes[ti].children.clone();
    for _ in 0..64 {
        let Some(i) = stack.pop() else { return false };
        if role::is_actionable(&tree.nodes[i].role) {
            return true;
        }
        stack.extend(tree.nodes[i].children.iter().copied());
    }
    false
}

/// Pass 2, bottom-up: drop empty groups, collapse single-child groups, merge adjacent
/// text, drop text that repeats an adjacent control's name, and inline text-only content.
fn normalize(view: &mut View) {
    // Reverse pre-order visits children before parents.
    let mut order = Vec::with_capacity(view.nodes.len());
    let mut stack = vec![view.root];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(view.nodes[i].children.iter().copied());
    }
    for &i in order.iter().rev() {
        let children = std::mem::take(&mut view.nodes[i].children);
        let mut out: Vec<usize> = Vec::with_capacity(children.len());
        for c in children {
            let child = &view.nodes[c];
            if child.kind == Kind::Group {
                match child.children.len() {
                    0 => continue,
                    1 => {
                        out.push(child.children[0]);
                        continue;
                    }
                    _ => {}
                }
            }
            if child.kind == Kind::Text {
                if let Some(&prev) = out.last() {
                    if view.nodes[prev].kind == Kind::Text {
                        let extra = child.name.clone();
                        let p = &mut view.nodes[prev];
                        if p.name.chars().count() < 1_000 {
                            p.name.push(' ');
                            p.name.push_str(&extra);
                        }
                        continue;
                    }
                }
            }
            out.push(c);
        }
        // A text run that only repeats a neighbouring control's name is owned by the control.
        let names: Vec<Option<String>> = out.iter().map(|&c| (view.nodes[c].kind == Kind::Element).then(|| view.nodes[c].name.clone())).collect();
        let mut kept = Vec::with_capacity(out.len());
        for (k, &c) in out.iter().enumerate() {
            if view.nodes[c].kind == Kind::Text {
                let t = view.nodes[c].name.trim();
                let near = [k.checked_sub(1), Some(k + 1)];
                if near.iter().flatten().filter_map(|&j| names.get(j).cloned().flatten()).any(|n| !n.is_empty() && (n == t || n.trim_end_matches(':') == t.trim_end_matches(':'))) {
                    continue;
                }
            }
            kept.push(c);
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && !kept.is_empty() && kept.iter().all(|&c| view.nodes[c].kind == Kind::Text) {
            let text = kept.iter().map(|&c| view.nodes[c].name.as_str()).collect::<Vec<_>>().join(" ");
            let node = &mut view.nodes[i];
            if node.name.is_empty() && node.actionable && !node.sensitive {
                // A clickable wrapper around text is named by that text.
                node.name = text;
                continue;
            }
            if node.name.is_empty() {
                node.inline_text = Some(text);
                continue;
            }
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && !node.actionable && !node.name.is_empty() && !kept.is_empty() {
            // A container named by its content (a row "Ada Edit Ada", a cell around a button)
            // repeats what its children say: the children own that text.
            let joined = kept.iter().map(|&c| view.nodes[c].name.as_str()).collect::<Vec<_>>().join(" ");
            let from_content = node.role == "row" || role::owns_descendant_text(&node.role);
            if from_content && (node.role == "row" || joined == node.name || kept.iter().any(|&c| view.nodes[c].name == node.name)) {
                view.nodes[i].name.clear();
            }
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && kept.is_empty() && node.name.is_empty() && node.value.is_none() && node.inline_text.is_none() && !node.actionable && node.role != "iframe" {
            // An unnamed structural element with nothing left inside says nothing: drop it.
            view.nodes[i].kind = Kind::Group;
        }
        view.nodes[i].children = kept;
    }
}
