//! Semantic filtering: turns the semantic tree into the view tree the budget selects from.
//! Each node is `Include`d, `Lift`ed (dropped, children lifted to the parent: unnamed
//! generic wrappers, ignored and hidden nodes) or `Skip`ped with its subtree (script, style,
//! template, inline text boxes, decorative images, text a named ancestor already owns).
//!
//! Owns: what is kept and text ownership (each text appears once, at the deepest owner).
//! Must never: look at budgets, assign refs or emit a sensitive value (values of
//! sensitive nodes are dropped here, before anything downstream can see them).

use crate::tree::redact::is_sensitive;
use crate::role::Role;
use crate::text::fold_whitespace;
use crate::tree::Tree;

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
    pub role: Role,
    /// Accessible name, or the text of a `Text` node.
    pub name: String,
    /// Text content shown inline after the line (`- paragraph: …`).
    pub inline_text: Option<String>,
    /// Value, already redacted: `None` for sensitive nodes.
    pub value: Option<String>,
    /// An element's or a valued node's (a text without a value is never sensitive).
    pub sensitive: bool,
    /// Gets a ref when rendered.
    pub actionable: bool,
    pub src: Option<usize>,
    pub frame: usize,
    pub in_viewport: bool,
    pub focused: bool,
    /// Text joins across this node's edges with a space (rendered whitespace, a block box,
    /// a line break); without one it joins with none (`$<b>12</b>.99` is `$12.99`).
    pub space_before: bool,
    pub space_after: bool,
    /// Its box breaks the inline flow.
    pub block: bool,
    /// The block box its text flows in, when known (see `tree::Node::flow`).
    pub flow: Option<u64>,
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

fn decide(tree: &Tree, ti: usize, ctx: &Ctx) -> Decision {
    let n = &tree.nodes[ti];
    let role = n.role;
    if role.is_excluded_subtree() && role != Role::LineBreak {
        return Decision::Skip;
    }
    if n.ignored || n.hidden {
        return Decision::Lift;
    }
    if !role.is_actionable() && ctx.owner_name.as_deref().map(|o| !o.is_empty() && o == crate::text::fold_whitespace(&n.name)).unwrap_or(false) {
        // Repeats its owner's name (the icon inside a link named by that icon).
        return Decision::Skip;
    }
    if is_click_target(tree, ti) {
        // An element the page handles clicks on, around text: a control without a role.
        return Decision::Include;
    }
    if ctx.in_field && !role.is_actionable() && !matches!(role, Role::ListBox | Role::Group | Role::Menu | Role::MenuListPopup) {
        // A field's inner parts (its editor's text, a named wrapper) are its value: they
        // leave only through the redacted value.
        return Decision::Skip;
    }
    if role.is_text() || role == Role::LineBreak {
        if ctx.label_with_control {
            return Decision::Skip;
        }
        if ctx.owner_name.as_deref().map(|o| !o.is_empty()).unwrap_or(false) {
            // A kept ancestor computes its name from this text: it owns it.
            return Decision::Skip;
        }
        if n.name.trim().is_empty() && !(n.space_before || role == Role::LineBreak) {
            return Decision::Skip;
        }
        // Whitespace-only text and line breaks stay as separators between text runs.
        return Decision::Include;
    }
    if role.is_image() {
        return match (n.name.trim().is_empty(), n.children.is_empty()) {
            (false, _) => Decision::Include,
            // An unnamed inline SVG may still hold links and text: its content stays.
            (true, false) => Decision::Lift,
            (true, true) => Decision::Skip,
        };
    }
    if role == Role::Iframe {
        return Decision::Include;
    }
    if role == Role::WebArea || role == Role::MenuListPopup {
        return Decision::Lift;
    }
    if role.is_transparent() && n.name.trim().is_empty() {
        return Decision::Lift;
    }
    if role.labels_content() && n.children.is_empty() && n.name.trim().is_empty() {
        return Decision::Skip;
    }
    if role == Role::None || role == Role::Presentation {
        return Decision::Lift;
    }
    // A named generic (`aria-label` or `title` on a div, an `<abbr>`) keeps its name.
    Decision::Include
}

fn is_actionable(tree: &Tree, ti: usize) -> bool {
    let n = &tree.nodes[ti];
    if n.covered || n.hidden {
        return false;
    }
    let role = n.role;
    role.is_actionable()
        || (n.states.focusable && !role.is_transparent() && !role.labels_content() && !role.is_text() && !matches!(role, Role::Iframe | Role::WebArea | Role::Generic | Role::Heading | Role::Paragraph) && !role.is_landmark())
        || is_click_target(tree, ti)
}

/// The members of a roving tabindex: where one row of a list or grid (a container's children
/// of one tag and role) holds the element that takes the focus by its `tabindex` and is acted
/// on — the row itself, or a part of it at most `ROVING_DEPTH` levels down (JupyterLab's file
/// list: the current file's name is `tabindex=0 role=button`, the others' `tabindex=-1`) — the
/// element at the same place in every other row of the container is a member too: it takes the
/// focus, and the page's click, when chosen. A member below the row must take the focus itself
/// (`tabindex`); the rows themselves need only be alike. Never a native control (those have
/// refs of their own), never what is hidden.
fn roving_rows(tree: &Tree) -> Vec<bool> {
    use crate::budget::{ROVING_DEPTH, ROVING_PATTERNS};
    let mut out = vec![false; tree.nodes.len()];
    let native = |n: &crate::tree::Node| matches!(n.tag.as_str(), "a" | "button" | "input" | "select" | "textarea" | "summary" | "iframe");
    let member = |i: usize| {
        let n = &tree.nodes[i];
        n.states.focusable && !native(n) && !n.hidden && is_actionable(tree, i)
    };
    // A row the page handles clicks on (its listeners, a pointer cursor) makes its like
    // siblings rows it handles too: a month strip whose current month alone shows a pointer,
    // a list whose rows' listeners only the accessibility tree sees. (Rows themselves only:
    // a part below a row needs a tabindex of its own.)
    let clicked_row = |i: usize| tree.nodes[i].clickable && is_click_target(tree, i);
    // The node at `path` (child indices) below `from`.
    let at = |from: usize, path: &[usize]| path.iter().try_fold(from, |i, &k| tree.nodes[i].children.get(k).copied());
    // (This runs on every read: only containers with a possible member at most a row and
    // `ROVING_DEPTH` levels below them are looked into — most of a page has none.)
    let mut up = vec![usize::MAX; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        for &c in &n.children {
            up[c] = i;
        }
    }
    let mut near = vec![false; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        if !((n.states.focusable && !native(n)) || n.clickable) {
            continue;
        }
        let mut a = up[i];
        for _ in 0..=ROVING_DEPTH {
            if a == usize::MAX {
                break;
            }
            near[a] = true;
            a = up[a];
        }
    }
    for (pi, parent) in tree.nodes.iter().enumerate() {
        if parent.children.len() < 2 || !near[pi] {
            continue;
        }
        // (row, path to the member): the places where some row holds a member, each found
        // once (by the row's tag and role and the path); every row is then looked at there.
        let mut patterns: Vec<(usize, Vec<usize>)> = Vec::new();
        for &row in &parent.children {
            let mut stack: Vec<(usize, Vec<usize>)> = vec![(row, Vec::new())];
            while let Some((i, path)) = stack.pop() {
                if member(i) || (path.is_empty() && clicked_row(i)) {
                    if !patterns.iter().any(|(r, p)| p == &path && tree.nodes[*r].tag == tree.nodes[row].tag && tree.nodes[*r].role == tree.nodes[row].role) && patterns.len() < ROVING_PATTERNS {
                        patterns.push((row, path));
                    }
                    continue;
                }
                if path.len() < ROVING_DEPTH {
                    for (k, &c) in tree.nodes[i].children.iter().enumerate() {
                        let mut p = path.clone();
                        p.push(k);
                        stack.push((c, p));
                    }
                }
            }
        }
        for (row, path) in &patterns {
            let (tag, role) = (&tree.nodes[*row].tag, tree.nodes[*row].role);
            let Some(model) = at(*row, path) else { continue };
            for &other in parent.children.iter().filter(|&&o| o != *row && tree.nodes[o].tag == *tag && tree.nodes[o].role == role) {
                let Some(t) = at(other, path) else { continue };
                let n = &tree.nodes[t];
                let alike = n.tag == tree.nodes[model].tag && (path.is_empty() || n.states.focusable);
                // (A row only where it would be a click target: a small subtree, no control of its own.)
                if alike && !native(n) && !n.hidden && !n.covered && (!path.is_empty() || member(t) || is_small_leafish(tree, t)) {
                    out[t] = true;
                }
            }
        }
    }
    out
}

/// An element the page handles clicks on (listeners, or a pointer cursor starting there)
/// that is not a control already and holds a small subtree without one: a `<li onclick>`,
/// an autocomplete suggestion, a clickable card title. Whatever its role, it gets a ref.
fn is_click_target(tree: &Tree, ti: usize) -> bool {
    let n = &tree.nodes[ti];
    let role = n.role;
    n.clickable
        && !role.is_actionable()
        && !role.is_text()
        && !role.is_landmark()
        // A label's click only focuses its control, which has a ref of its own.
        && !matches!(role, Role::WebArea | Role::Iframe | Role::LineBreak | Role::Label)
        && n.tag != "label"
        // Disabled with nothing in it (a plugin's `<embed>` or `<object>` that did not load):
        // neither a click nor a word to offer.
        && !(n.states.disabled && n.name.trim().is_empty() && n.children.is_empty())
        && is_small_leafish(tree, ti)
}

/// The element a selector chose, shown as what it is where a whole read folds it into its
/// content (an unnamed group, a row group, emphasis, a time): the caller asked what that
/// element is. Never a wrapper with no role of its own, nor what is hidden.
fn chosen_as_it_is(tree: &Tree, ti: usize) -> bool {
    let n = &tree.nodes[ti];
    tree.is_chosen(ti)
        && !n.hidden
        && !n.ignored
        && n.role.is_transparent()
        && !matches!(n.role, Role::Generic | Role::None | Role::Presentation | Role::WebArea | Role::Label | Role::LineBreak | Role::ListMarker)
}

/// Builds the view from the tree (or from the scope node when a selector narrowed the read).
pub fn filter(tree: &Tree) -> View {
    let mut view = View { nodes: Vec::new(), root: 0 };
    // The values of sensitive fields: a name that holds one (Chromium names a button by the
    // card field its aria-labelledby points at) is not shown.
    // (Only nodes with a value are checked: the sensitivity rules are not run twice per node.)
    let labelled = labelled_by_text(tree);
    let values: Vec<(&str, usize)> = tree
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.value.as_deref().map(str::trim).filter(|v| v.chars().count() >= crate::budget::EVAL_SECRET_MIN_CHARS && (sensitive(n) || labelled[i])).map(|v| (v, i)))
        .collect();
    let secrets = Secrets::new(tree, values);
    let roving = roving_rows(tree);
    view.nodes.push(group_node(0));
    let start_children: Vec<usize> = match &tree.scope {
        Some(scope) => scope.clone(),
        None => tree.nodes[tree.root].children.clone(),
    };
    // Pass 1, top-down with an explicit stack: (tree index, view parent, context).
    let mut stack: Vec<(usize, usize, Ctx)> = start_children.iter().rev().map(|&c| (c, 0, Ctx::default())).collect();
    while let Some((ti, vparent, ctx)) = stack.pop() {
        let n = &tree.nodes[ti];
        let mut decision = decide(tree, ti, &ctx);
        if decision == Decision::Lift && (chosen_as_it_is(tree, ti) || roving[ti]) {
            decision = Decision::Include;
        }
        if decision == Decision::Skip {
            continue;
        }
        let vi = view.nodes.len();
        let mut child_ctx = ctx.clone();
        let mut v = match decision {
            Decision::Lift => VNode { space_before: n.space_before || n.block, space_after: n.space_after || n.block, ..group_node(n.frame) },
            _ => element_node(tree, ti, &secrets, labelled[ti], roving[ti]),
        };
        if decision == Decision::Include && (n.role.owns_descendant_text() || v.actionable) && !n.name.trim().is_empty() {
            child_ctx.owner_name = Some(fold_whitespace(&n.name));
        }
        if n.role.takes_text() {
            child_ctx.in_field = true;
        }
        if n.role.is_native_widget() {
            // One control: its internal parts are not separate nodes.
            v.frame = n.frame;
            view.nodes.push(v);
            view.nodes[vparent].children.push(vi);
            continue;
        }
        if n.role == Role::ComboBox && n.tag == "select" {
            child_ctx.in_select = true;
        }
        if ctx.in_select && n.role == Role::Option {
            v.actionable = false;
        }
        if n.role == Role::Label && has_control_descendant(tree, ti) {
            child_ctx.label_with_control = true;
        }
        if n.role == Role::Iframe || n.role == Role::WebArea {
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
    normalize(&mut view, tree);
    drop_link_twins(&mut view, tree);
    view
}

/// A nameless link (an image or icon link) beside a named link to the same place adds a
/// line and a ref but nothing to do: the named one stays.
fn drop_link_twins(view: &mut View, tree: &Tree) {
    let parents = view.parents();
    let mut tree_up: Option<Vec<usize>> = None;
    // (Asked only for links that repeat: most pages have few.)
    let mut card = |view: &View, a: usize, b: usize| match (view.nodes[a].src, view.nodes[b].src) {
        (Some(sa), Some(sb)) => one_card(tree, tree_up.get_or_insert_with(|| tree_parents(tree)), sa, sb),
        _ => false,
    };
    // A link under a heading that took its name is named by that heading.
    let named = |view: &View, i: usize| {
        !view.nodes[i].name.is_empty()
            || parents.get(i).and_then(|&p| view.nodes.get(p)).map(|p| p.role == Role::Heading && !p.name.is_empty()).unwrap_or(false)
    };
    let links: Vec<(usize, Option<&str>)> = view
        .preorder()
        .into_iter()
        .filter(|&i| view.nodes[i].kind == Kind::Element && view.nodes[i].role == Role::Link)
        .map(|i| (i, view.nodes[i].src.and_then(|s| tree.nodes[s].attr("href")).filter(|h| leads_somewhere(h))))
        .collect();
    for (k, &(i, href)) in links.iter().enumerate() {
        // A link that repeats the one before it (name and target: a card's image link and
        // title link, both named) is said once.
        // Only inside one card: a link repeated in another list item, row, cell, article or
        // paragraph (a "there is a page named X" line, then the search hit X) is a line of its
        // own there.
        let repeats = href.is_some()
            && k.checked_sub(1).map(|j| links[j]).is_some_and(|(o, h)| {
                h == href && view.nodes[o].name == view.nodes[i].name && view.nodes[o].kind == Kind::Element && card(view, o, i)
            });
        if repeats && !view.nodes[i].name.is_empty() {
            let v = &mut view.nodes[i];
            v.kind = Kind::Group;
            v.children.clear();
            continue;
        }
        if named(view, i) || view.nodes[i].inline_text.is_some() || href.is_none() {
            continue;
        }
        let mut named_twin = |j: Option<usize>| j.and_then(|j| links.get(j)).map(|&(o, h)| h == href && named(view, o) && card(view, o, i)).unwrap_or(false);
        if named_twin(k.checked_sub(1)) || named_twin(Some(k + 1)) {
            let v = &mut view.nodes[i];
            v.kind = Kind::Group;
            v.children.clear();
        }
    }
}

/// Whether tree nodes `a` and `b` stand in one card: the path from each up to their nearest
/// common ancestor crosses no item of its own (a list item, a row, a cell, an article, a
/// paragraph, a tree item, an option), whether or not the view kept that item's line.
fn one_card(tree: &Tree, parents: &[usize], a: usize, b: usize) -> bool {
    let item = |n: usize| matches!(tree.nodes[n].role, Role::ListItem | Role::Row | Role::Cell | Role::GridCell | Role::Article | Role::Paragraph | Role::TreeItem | Role::Option);
    // (At most the tree's size up: a walk never loops.)
    let up = |mut n: usize| {
        let mut path = Vec::new();
        while let Some(&p) = parents.get(n).filter(|&&p| p != usize::MAX && path.len() < parents.len()) {
            path.push(p);
            n = p;
        }
        path
    };
    let (pa, pb) = (up(a), up(b));
    let Some(common) = pa.iter().copied().find(|x| pb.contains(x)) else { return false };
    !pa.iter().take_while(|&&x| x != common).any(|&x| item(x)) && !pb.iter().take_while(|&&x| x != common).any(|&x| item(x))
}

/// Each tree node's parent (`usize::MAX` for the root).
fn tree_parents(tree: &Tree) -> Vec<usize> {
    let mut parent = vec![usize::MAX; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        for &c in &n.children {
            if let Some(p) = parent.get_mut(c) {
                *p = i;
            }
        }
    }
    parent
}

/// Whether a link's `href` names where it leads: `#`, an empty one and `javascript:` are
/// what a script handles, so two such links with one name may be two controls.
fn leads_somewhere(href: &str) -> bool {
    let h = href.trim();
    !(h.is_empty() || h == "#" || h.get(..11).is_some_and(|p| p.eq_ignore_ascii_case("javascript:")))
}

fn group_node(frame: usize) -> VNode {
    VNode {
        kind: Kind::Group,
        role: Role::Generic,
        name: String::new(),
        inline_text: None,
        value: None,
        sensitive: false,
        actionable: false,
        src: None,
        frame,
        in_viewport: false,
        focused: false,
        space_before: false,
        space_after: false,
        block: false,
        flow: None,
        children: Vec::new(),
    }
}

/// Without the DOM facts (type, name, id, autocomplete) a value's safety cannot be proven:
/// fail closed and treat it as sensitive.
fn sensitive(n: &crate::tree::Node) -> bool {
    (n.value.is_some() && (n.tag.is_empty() || n.name_unknown)) || is_sensitive(n)
}

/// Fields with no name of their own whose preceding sibling's text carries a secret word
/// ("PIN:", "Card number" just before an unlabelled field or editor): a reader takes that text
/// for the label, so the value is as sensitive as a labelled one.
fn labelled_by_text(tree: &Tree) -> Vec<bool> {
    let mut out = vec![false; tree.nodes.len()];
    for parent in &tree.nodes {
        for (k, &c) in parent.children.iter().enumerate() {
            let n = &tree.nodes[c];
            let field = n.value.is_some() || n.attr("contenteditable").is_some_and(|v| !v.eq_ignore_ascii_case("false"));
            if k == 0 || !field || !n.name.trim().is_empty() {
                continue;
            }
            let before = text_of(tree, parent.children[k - 1], 0);
            out[c] = !before.is_empty() && crate::tree::redact::has_secret_word(before);
        }
    }
    out
}

/// A node's own text: its name, else its first child's (a few levels down).
fn text_of(tree: &Tree, i: usize, depth: usize) -> &str {
    let n = &tree.nodes[i];
    if n.value.is_some() {
        return ""; // another field: not a label
    }
    if !n.name.trim().is_empty() || depth >= 3 {
        return n.name.trim();
    }
    n.children.first().map_or("", |&c| text_of(tree, c, depth + 1))
}

/// The values of sensitive fields, and where each field is. A name that holds a long one is
/// not shown wherever it stands (Chromium names a Pay button by the card field its
/// aria-labelledby points at); a short one (a PIN, a CVC) only in the names of the field's
/// own ancestors, whose text flattens the field in: "flight 4821" elsewhere on the page is
/// the page's own text.
struct Secrets<'a> {
    values: Vec<(&'a str, usize)>,
    parent: Vec<usize>,
}

impl<'a> Secrets<'a> {
    fn new(tree: &Tree, values: Vec<(&'a str, usize)>) -> Secrets<'a> {
        let parent = if values.is_empty() { Vec::new() } else { tree_parents(tree) };
        Secrets { values, parent }
    }

    /// Whether node `ti`'s text `name` holds a secret it may not show.
    fn held_by(&self, ti: usize, name: &str) -> bool {
        self.values.iter().any(|&(v, field)| name.contains(v) && (crate::text::skeleton_len(v) >= crate::budget::SCRUB_ANYWHERE_MIN_CHARS || self.contains(ti, field)))
    }

    /// Whether `field` is in the subtree of `ti` (walking up at most the tree's size).
    fn contains(&self, ti: usize, field: usize) -> bool {
        let mut at = field;
        for _ in 0..self.parent.len() {
            if at == ti {
                return true;
            }
            match self.parent.get(at) {
                Some(&p) if p != usize::MAX => at = p,
                _ => return false,
            }
        }
        false
    }
}

fn element_node(tree: &Tree, ti: usize, secrets: &Secrets, labelled: bool, roving: bool) -> VNode {
    let n = &tree.nodes[ti];
    let separator = n.role == Role::LineBreak;
    let kind = if n.role.is_text() || separator { Kind::Text } else { Kind::Element };
    let mut name = if separator { String::new() } else { fold_whitespace(&n.name).to_string() };
    // Without a value, only an element whose name is empty (its text may name it) or masked
    // has anything the rule could hide: no other name's secret words are scanned (a scan of
    // every link and paragraph was ~10% of a read).
    let masked = name.chars().all(|c| matches!(c, '•' | '●' | '*' | '·' | '∙' | '⁕' | ' ')); // (or empty)
    let sensitive = labelled || ((n.value.is_some() || (kind == Kind::Element && masked)) && sensitive(n));
    // A sensitive field's name that is a masked value or repeats the value, or any name that
    // holds a sensitive value, would leak it (unlabeled fields, some widgets).
    let repeats = || n.value.as_deref().is_some_and(|v| !v.trim().is_empty() && name.contains(v.trim()));
    if (sensitive && ((masked && !name.is_empty()) || repeats())) || secrets.held_by(ti, &name) {
        name = n.attr("aria-label").map(fold_whitespace).filter(|l| !secrets.held_by(ti, l)).unwrap_or_default();
    }
    let value = if sensitive { None } else { n.value.as_deref().map(fold_whitespace).filter(|v| !v.is_empty() && *v != name) };
    VNode {
        kind,
        role: if n.role == Role::Generic && (n.clickable || roving) { Role::Clickable } else { n.role },
        name,
        inline_text: None,
        value,
        sensitive,
        actionable: kind == Kind::Element && (is_actionable(tree, ti) || (roving && !n.covered && !n.hidden)),
        src: Some(ti),
        frame: n.frame,
        in_viewport: n.in_viewport,
        focused: n.states.focused,
        space_before: n.space_before || n.block || separator,
        space_after: n.space_after || n.block || separator,
        block: n.block,
        flow: n.flow,
        children: Vec::new(),
    }
}

/// A clickable wrapper worth a ref: a small subtree without a named control of its own
/// (`<div onclick><button></button><span>MENÚ</span></div>` is the menu button a user sees).
fn is_small_leafish(tree: &Tree, ti: usize) -> bool {
    let mut stack: Vec<usize> = tree.nodes[ti].children.clone();
    let mut seen = 0;
    while let Some(i) = stack.pop() {
        seen += 1;
        let n = &tree.nodes[i];
        if seen > crate::budget::CLICKABLE_MAX_SUBTREE || (n.role.is_actionable() && !n.name.trim().is_empty()) {
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
        if tree.nodes[i].role.is_actionable() {
            return true;
        }
        stack.extend(tree.nodes[i].children.iter().copied());
    }
    false
}

/// Pass 2, bottom-up: drop empty groups, collapse single-child groups, merge adjacent
/// text the way it renders, drop text that repeats an adjacent control's name, and inline
/// text-only content.
fn normalize(view: &mut View, tree: &Tree) {
    // Reverse pre-order visits children before parents.
    let mut order = Vec::with_capacity(view.nodes.len());
    let mut stack = vec![view.root];
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(view.nodes[i].children.iter().copied());
    }
    for &i in order.iter().rev() {
        let out = merge_children(view, i);
        // A text run that only repeats a neighbouring control's name is owned by the control;
        // a run of bullets and separators (`•`, `|`) says nothing on its own.
        // A text that repeats its container's name (a fieldset's legend, a table's caption).
        let own_name = (view.nodes[i].kind == Kind::Element).then(|| view.nodes[i].name.clone()).filter(|n| !n.is_empty());
        // The one text of a lifted wrapper joins its parent's run (`$7<span>/</span>month`):
        // whether it stands alone is decided there.
        let wrapper = view.nodes[i].kind == Kind::Group && out.len() == 1;
        let mut kept = Vec::with_capacity(out.len());
        for (k, &c) in out.iter().enumerate() {
            if view.nodes[c].kind == Kind::Text {
                let t = view.nodes[c].name.trim();
                // (The last element of the child before, the first of the child after: a group
                // renders as its children.)
                let near = [k.checked_sub(1).and_then(|j| edge_name(view, out[j], false)), out.get(k + 1).and_then(|&j| edge_name(view, j, true))];
                if near.into_iter().flatten().any(|n| !n.is_empty() && (n == t || n.trim_end_matches(':') == t.trim_end_matches(':'))) {
                    continue;
                }
                if (!wrapper && is_separator_text(t)) || own_name.as_deref() == Some(t) {
                    continue;
                }
            }
            kept.push(c);
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && node.actionable && node.name.is_empty() && !node.sensitive && kept.iter().any(|&c| view.nodes[c].kind == Kind::Text) {
            // A control without a name of its own is named by the text it holds.
            let (texts, rest): (Vec<usize>, Vec<usize>) = kept.iter().partition(|&&c| view.nodes[c].kind == Kind::Text);
            view.nodes[i].name = crate::text::join(&mut texts.iter().map(|&c| view.nodes[c].name.as_str()), " ");
            kept = rest;
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && node.role == Role::Generic && !node.actionable && !node.block && kept.len() == 1 && view.nodes[kept[0]].kind == Kind::Text {
            // A named inline wrapper in running text (`<abbr title>`, a tooltip span) stays in
            // the text, its name beside what it says: `WHO (World Health Organization)`.
            let t = &view.nodes[kept[0]];
            let text = if t.name == node.name { t.name.clone() } else { format!("{} ({})", t.name, node.name) };
            let (before, after) = (t.space_before, t.space_after);
            let node = &mut view.nodes[i];
            node.kind = Kind::Text;
            node.name = text;
            node.space_before |= before;
            node.space_after |= after;
            node.children.clear();
            continue;
        }
        if node.kind == Kind::Element && !kept.is_empty() && kept.iter().all(|&c| view.nodes[c].kind == Kind::Text) {
            let text = crate::text::join(&mut kept.iter().map(|&c| view.nodes[c].name.as_str()), " ");
            let node = &mut view.nodes[i];
            if node.name.is_empty() {
                node.inline_text = Some(text);
                continue;
            }
        }
        let node = &view.nodes[i];
        if node.kind == Kind::Element && !node.actionable && !node.name.is_empty() && !kept.is_empty() {
            // A container named by its content (a row "Ada Edit Ada", a cell around a button)
            // repeats what its children say: the children own that text. A row's own
            // aria-label is no such repeat: it stays. A heading keeps its
            // name (it is the page's outline, and the budget may drop the child): the one
            // child that only repeats it gives its name up instead.
            let joined = crate::text::join(&mut kept.iter().map(|&c| view.nodes[c].name.as_str()), " ");
            let row = node.role == Role::Row && node.src.and_then(|ti| tree.nodes[ti].attr("aria-label")).is_none_or(|l| l.trim().is_empty());
            let from_content = row || node.role.owns_descendant_text();
            let twin = kept.iter().copied().find(|&c| view.nodes[c].name == node.name);
            if node.role == Role::Heading {
                // (A twin a user acts on keeps its name too: the model is told to click the
                // link "Clipboard API", and finds exactly that line.)
                if let (Some(c), 1) = (twin, kept.len()) {
                    if !view.nodes[c].actionable {
                        view.nodes[c].name.clear();
                    }
                }
            } else if from_content && (row || joined == node.name || twin.is_some()) {
                view.nodes[i].name.clear();
            }
        }
        let node = &view.nodes[i];
        let bare = node.kind == Kind::Element && node.name.is_empty() && node.value.is_none() && node.inline_text.is_none() && !node.actionable;
        // (An indeterminate progress bar says "loading"; the element a selector chose is
        // what was asked about.)
        let says_something = matches!(node.role, Role::Iframe | Role::ProgressBar) || node.src.is_some_and(|ti| tree.is_chosen(ti));
        if bare && kept.is_empty() && !says_something {
            // An unnamed structural element with nothing left inside says nothing: drop it.
            view.nodes[i].kind = Kind::Group;
        } else if bare && kept.len() == 1 && node.role.is_item() && view.nodes[kept[0]].kind == Kind::Element {
            // An item around one element is that element (a list of links stays a list of links).
            view.nodes[i].kind = Kind::Group;
        }
        view.nodes[i].children = kept;
    }
}

/// The children of `i` with single-child groups collapsed into their child and adjacent
/// text runs merged: with one space where the page renders one (whitespace, a box edge, a
/// line break), with none across inline elements.
/// The name of the element a view child renders as at its `first` (else last) edge: the child
/// itself, or through groups (which render as their children) their first or last one.
fn edge_name(view: &View, mut c: usize, first: bool) -> Option<&str> {
    // (At most the view's size down: a view is a tree.)
    for _ in 0..view.nodes.len() {
        let n = &view.nodes[c];
        match n.kind {
            Kind::Element => return Some(n.name.as_str()),
            Kind::Group => c = *(if first { n.children.first() } else { n.children.last() })?,
            _ => return None,
        }
    }
    None
}

fn merge_children(view: &mut View, i: usize) -> Vec<usize> {
    let children = std::mem::take(&mut view.nodes[i].children);
    let mut out: Vec<usize> = Vec::with_capacity(children.len());
    // Whitespace seen since the last kept child.
    let mut pending_space = false;
    for c in children {
        let mut c = c;
        let (mut before, mut after) = (view.nodes[c].space_before, view.nodes[c].space_after);
        if view.nodes[c].kind == Kind::Group {
            match view.nodes[c].children.len() {
                0 => {
                    pending_space |= before || after;
                    continue;
                }
                1 => c = view.nodes[c].children[0],
                _ => {}
            }
        } else {
            (before, after) = (false, false);
        }
        let child = &mut view.nodes[c];
        child.space_before |= before || std::mem::take(&mut pending_space);
        child.space_after |= after;
        if child.kind == Kind::Text {
            let (extra, space, after, flow) = (child.name.clone(), child.space_before, child.space_after, child.flow);
            if extra.is_empty() {
                // A separator (whitespace, a line break): a space between its neighbours.
                match out.last().copied().filter(|&p| view.nodes[p].kind == Kind::Text) {
                    Some(p) => view.nodes[p].space_after = true,
                    None => pending_space = true,
                }
                continue;
            }
            if let Some(&prev) = out.last() {
                if view.nodes[prev].kind == Kind::Text {
                    let p = &mut view.nodes[prev];
                    let other_box = matches!((p.flow, flow), (Some(a), Some(b)) if a != b);
                    if crate::text::char_len(&p.name) < crate::budget::TEXT_RUN_CHARS {
                        if space || p.space_after || other_box {
                            p.name.push(' ');
                        }
                        p.name.push_str(&extra);
                    }
                    p.space_after = after;
                    p.flow = flow;
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// Text made only of a few bullets, pipes, dots, dashes or arrows. (A fixed set, not
/// `char::is_alphanumeric`: its Unicode tables cost the wasm module ~20 KB.)
fn is_separator_text(t: &str) -> bool {
    const SEPARATORS: &str = "•·∙◦▪●|¦/\\-–—‐›»«‹<>→←↑↓⟩⟨:;,.…*~+=_#";
    !t.is_empty() && crate::text::char_len(&t) <= 3 && t.chars().all(|c| c == ' ' || SEPARATORS.contains(c))
}
