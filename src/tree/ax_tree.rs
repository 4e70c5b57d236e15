//! Builds the semantic tree from Chromium AX trees (one per frame) joined with the DOM
//! snapshot's layout facts, and links child frames under their verified `<iframe>` owner.
//!
//! Owns: AX → `Node` translation (each node's name and value move into the tree),
//! cycle/dangling-id repair, frame offsets.
//! Must never: drop nodes for meaning (the filter does), or trust a frame relation that the
//! extension did not verify with `DOM.getFrameOwner`.

use crate::budget::{KEEP_CHARS, MAX_TREE_DEPTH};
use crate::input::{AxNode, AxValue, Observation};
use crate::tree::layout::{Layout, Rect};
use crate::role::Role;
use crate::text::capped;
use crate::tree::{keep_attrs, Frame, Node, Source, States, Target, Tree};
use rustc_hash::FxHashMap as HashMap;

/// `keep_ax`: the frames' AX trees stay whole (their names are copied into the tree, not
/// moved): the collector holds them for patching the next read (`tree/ax_patch`).
pub fn build(obs: &mut Observation, keep_ax: bool) -> Tree {
    // Sized once for every node that can be placed: grown by doubling, the arena's last copy
    // and its half-empty successor were alive together (on a 50k-node page, 36 MiB of wasm).
    // Allocated first, where the observation's text was: after the layout's many smaller
    // blocks, no hole was large enough and the memory grew by the arena's size.
    let capacity = 1 + obs.frames.iter().filter_map(|f| f.ax.as_ref()).flat_map(|ax| &ax.nodes).filter(|n| !n.is_never_shown()).count();
    let mut nodes = Vec::with_capacity(capacity);
    nodes.push(Node { role: Role::WebArea, ..Node::default() });
    let layout = Layout::new(&mut obs.snapshots);
    let viewport = Rect { x: 0.0, y: 0.0, w: obs.viewport.width.max(0.0), h: obs.viewport.height.max(0.0) };
    let mut tree = Tree {
        nodes,
        root: 0,
        frames: Vec::new(),
        source: Source::ChromiumAx,
        scope: None,
        scope_own: false,
        repaired: 0,
        unverified_frames: 0,
        viewport,
        behind_modal: 0,
    };
    // (frame index, backend id) → tree index, to find iframe owners and the scope.
    let mut by_backend: HashMap<(usize, i64), usize> = HashMap::default();
    // Per frame: (offset of its viewport in the top viewport, clip rect in top coordinates).
    let mut placement: Vec<Option<(f64, f64, Rect)>> = Vec::new();
    let main_frame = obs.frames.iter().position(|f| f.parent_frame_id.is_none()).unwrap_or(0);
    for fi in 0..obs.frames.len() {
        let f = &obs.frames[fi];
        let is_main = fi == main_frame && f.parent_frame_id.is_none();
        tree.frames.push(Frame { frame_id: f.frame_id.clone(), session: f.session.clone(), url: f.url.clone(), is_main });
        // Where does this frame hang?
        let (attach_to, place) = if is_main {
            (Some(tree.root), Some((0.0, 0.0, viewport)))
        } else {
            let parent = f.parent_frame_id.as_deref().and_then(|id| obs.frames.iter().position(|g| g.frame_id == id)).filter(|&p| p < fi);
            let owner = match (parent, f.owner_backend_node_id) {
                (Some(p), Some(b)) => by_backend.get(&(p, b)).copied(),
                _ => None,
            };
            match (parent, owner) {
                (Some(p), Some(o)) => {
                    let owner_node = &tree.nodes[o];
                    let place = match (placement.get(p).copied().flatten(), owner_node.bounds) {
                        (Some((_, _, clip)), Some(b)) => b.intersect(&clip).map(|c| (b.x, b.y, c)),
                        _ => None,
                    };
                    if owner_node.hidden || place.is_none() {
                        // Invisible or unrendered iframe: nothing to expand, nothing to warn about.
                        placement.push(None);
                        continue;
                    }
                    (Some(o), place)
                }
                (_, None) => {
                    // The relation could not be verified: the frame is not shown, and counted.
                    tree.unverified_frames += 1;
                    placement.push(None);
                    continue;
                }
                _ => (None, None),
            }
        };
        placement.push(place);
        let Some(attach_to) = attach_to else { continue };
        if let Some(err) = &f.error {
            tree.nodes[attach_to].warning = Some(format!("iframe not expanded: {}", capped(err, crate::budget::WARNING_CHARS)));
            continue;
        }
        let session = layout.session_index(&f.session);
        // Mutable: each node's name and value move into the tree (no second copy of the text).
        let Some(ax) = &mut obs.frames[fi].ax else {
            tree.nodes[attach_to].warning = Some("iframe not expanded: no accessibility tree".into());
            continue;
        };
        let (ox, oy, clip) = place.unwrap_or((0.0, 0.0, viewport));
        add_frame(&mut tree, &layout, session, fi, (&mut ax.nodes, keep_ax), attach_to, (ox, oy, clip), &mut by_backend);
        if is_main && ax.nodes.iter().any(|n| n.behind_modal) {
            // Chromium leaves out everything behind an open modal dialog: count what it hides.
            let dialog = ax.nodes.iter().find(|n| n.property("modal").and_then(|v| v.as_bool()).unwrap_or(false)).and_then(|n| n.backend_dom_node_id);
            if let (Some(s), Some(d)) = (session, dialog) {
                tree.behind_modal = layout.count_outside(s, d);
            }
        }
    }
    if tree.unverified_frames > 0 {
        // We cannot tell which <iframe> an unverified frame belongs to: every visible iframe
        // left empty says it was not expanded (one short line each, never a debug object).
        for n in tree.nodes.iter_mut().filter(|n| n.role == Role::Iframe && n.children.is_empty() && n.warning.is_none() && !n.hidden && n.in_viewport) {
            n.warning = Some("iframe not expanded: frame not verified".into());
        }
    }
    if let Some(scope) = &obs.scope {
        if let Some(b) = scope.backend_node_id {
            let fi = tree.frames.iter().position(|f| f.session == scope.session && f.is_main).or_else(|| tree.frames.iter().position(|f| f.session == scope.session));
            let session = layout.session_index(&scope.session);
            tree.scope = Some(match fi.and_then(|fi| by_backend.get(&(fi, b)).copied()) {
                Some(own) => {
                tree.scope_own = true;
                vec![own]
            }
                None => match (fi, session) {
                    // The element has no AX node: scope to the nodes whose DOM node lies inside it.
                    (Some(fi), Some(si)) => tree.topmost(&|n| n.frame == fi && n.target.backend_node_id.map(|d| layout.is_inside(si, d, b)).unwrap_or(false)),
                    _ => Vec::new(),
                },
            });
        }
    }
    tree
}

#[allow(clippy::too_many_arguments)]
fn add_frame(
    tree: &mut Tree,
    layout: &Layout,
    session: Option<usize>,
    fi: usize,
    (nodes, keep_ax): (&mut [AxNode], bool),
    attach_to: usize,
    (ox, oy, clip): (f64, f64, Rect),
    by_backend: &mut HashMap<(usize, i64), usize>,
) {
    // The first node with an id wins; later duplicates are unreachable (and counted).
    // Keyed (frame, id) as `by_backend` is: AX ids are per frame (and one map type is less code).
    let mut by_id: HashMap<(usize, i64), usize> = HashMap::with_capacity_and_hasher(nodes.len(), Default::default());
    for (i, n) in nodes.iter().enumerate() {
        by_id.entry((fi, n.node_id.into())).or_insert(i);
    }
    if by_id.len() != nodes.len() {
        tree.repaired += nodes.len() - by_id.len();
    }
    // Only a node without a parent is a root. A node whose parent is unknown is not placed
    // anywhere: its place (inside a password field?) cannot be proven, so it is dropped.
    let mut roots: Vec<usize> = nodes.iter().enumerate().filter(|(_, n)| n.parent_id.is_none()).map(|(i, _)| i).collect();
    if roots.is_empty() && !nodes.is_empty() {
        roots.push(0);
    }
    tree.repaired += nodes.iter().filter(|n| n.parent_id.map(|p| !by_id.contains_key(&(fi, p.into()))).unwrap_or(false)).count();
    let mut seen = vec![false; nodes.len()];
    // Explicit stack of (ax index, parent tree index, depth): no recursion on input depth.
    let mut stack: Vec<(usize, usize, usize)> = roots.iter().rev().map(|&r| (r, attach_to, 0)).collect();
    while let Some((ai, parent, depth)) = stack.pop() {
        if std::mem::replace(&mut seen[ai], true) {
            tree.repaired += 1; // a cycle or a node listed under two parents
            continue;
        }
        let ax = &mut nodes[ai];
        if ax.is_never_shown() {
            continue;
        }
        let node = translate(ax, layout, session, fi, (ox, oy, clip), keep_ax);
        let ti = tree.nodes.len();
        if let Some(b) = ax.backend_dom_node_id {
            by_backend.entry((fi, b)).or_insert(ti);
        }
        tree.nodes.push(node);
        tree.nodes[parent].children.push(ti);
        if depth >= MAX_TREE_DEPTH {
            tree.repaired += 1;
            continue;
        }
        for cid in ax.child_ids.iter().rev() {
            match by_id.get(&(fi, (*cid).into())) {
                Some(&ci) => stack.push((ci, ti, depth + 1)),
                None => tree.repaired += 1,
            }
        }
    }
}

/// Takes the node's name and value (moved, not copied: the AX node is not read for them again).
fn translate(ax: &mut AxNode, layout: &Layout, session: Option<usize>, fi: usize, (ox, oy, clip): (f64, f64, Rect), keep: bool) -> Node {
    let mut role = ax.role;
    let editable_root = ax.property("editable").is_some() && ax.property("focusable").and_then(|v| v.as_bool()).unwrap_or(false);
    if editable_root && !matches!(role, Role::WebArea | Role::Document | Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton | Role::Text) {
        // The root of a contenteditable region (a div, a <p>, a <td>) is a text box to the
        // user: something to type into, whose text is its value.
        role = Role::TextBox;
    }
    let facts = match (session, ax.backend_dom_node_id) {
        (Some(s), Some(b)) => layout.facts(s, b),
        _ => None,
    };
    let prop_bool = |n: &str| ax.property(n).and_then(|v| v.as_bool()).unwrap_or(false);
    let prop_text = |n: &str| ax.property(n).and_then(|v| v.text());
    let states = States {
        checked: prop_text("checked").filter(|c| c == "true" || c == "mixed" || c == "false"),
        pressed: prop_text("pressed").filter(|c| c == "true" || c == "mixed"),
        disabled: prop_bool("disabled"),
        expanded: ax.property("expanded").and_then(|v| v.as_bool()),
        selected: prop_bool("selected"),
        focused: prop_bool("focused"),
        focusable: prop_bool("focusable"),
        required: prop_bool("required"),
        // ("true", "spelling", "grammar"; "false" when valid)
        invalid: prop_text("invalid").is_some_and(|v| v != "false"),
        readonly: prop_bool("readonly"),
        level: ax.property("level").and_then(|v| v.as_i64()),
        haspopup: prop_text("hasPopup").filter(|v| v != "false"),
    };
    // Chromium names layout-table parts from their content; as boxes they have no name (unless
    // their author gave one: below, with the element's attributes).
    let layout_part = ax.layout_table_part;
    let name_unknown = ax.name.is_none();
    let chromium_name = if keep { ax.name.clone() } else { ax.name.take() }.and_then(AxValue::into_text);
    let (layout_name, raw_name) = if layout_part { (chromium_name, None) } else { (None, chromium_name) };
    let (space_before, space_after) = raw_name.as_deref().map(crate::text::edge_spaces).unwrap_or((false, false));
    let name = raw_name.map(|s| capped(&s, KEEP_CHARS)).unwrap_or_default();
    let value = if keep { ax.value.clone() } else { ax.value.take() }.and_then(AxValue::into_text).map(|s| capped(&s, KEEP_CHARS)).filter(|s| !s.is_empty());
    let mut node = Node {
        role,
        name,
        value,
        states,
        ignored: ax.ignored,
        name_unknown,
        frame: fi,
        target: Target { backend_node_id: ax.backend_dom_node_id, walk_index: None },
        space_before,
        space_after,
        ..Node::default()
    };
    if node.role.is_text() && ax.property("editable").is_some() {
        // Text inside an editable field is the field's value: it leaves only as `value`,
        // after redaction, whatever shape the tree around it has.
        node.hidden = true;
    }
    if facts.is_none() && session.is_some() && ax.backend_dom_node_id.is_some() && matches!(node.role, Role::Text | Role::Generic) {
        // Text the DOM snapshot does not have lives in a user-agent shadow tree: an input's
        // inner editor (its value, maybe a secret), a list marker, a date field's digits.
        node.hidden = true;
    }
    if let Some(f) = facts {
        node.tag = f.tag();
        node.attrs = keep_attrs(f.attrs());
        if let Some(authored) = layout_name.as_deref().filter(|_| f.attrs().any(|(k, _)| k == "aria-label" || k == "aria-labelledby")) {
            node.name = capped(authored, KEEP_CHARS);
        }
        if node.name.is_empty() && node.role == Role::Generic {
            // Chromium files a generic's `title` as its description; to a reader it names it.
            node.name = node.attr("title").map(|t| capped(t, KEEP_CHARS)).unwrap_or_default();
        }
        if node.attr("aria-selected") == Some("true") && node.role.is_selectable() {
            // Chromium drops aria-selected where ARIA does not support it (a plain table's row).
            node.states.selected = true;
        }
        node.clickable = f.clickable;
        node.block = f.block;
        node.space_before |= f.ws_before;
        node.space_after |= f.ws_after;
        node.flow = Some(f.flow);
        // Text inside a form control is its value: it only leaves through the redacted value
        // (added to, never replacing, the editable-text rule above).
        node.hidden |= (f.in_field && node.role.is_text())
            || f.visibility_hidden || (f.transparent && !node.role.is_actionable());
        if let Some(b) = f.bounds {
            let top = b.offset(ox, oy);
            node.bounds = Some(top);
            let visible = top.intersect(&clip);
            node.in_viewport = visible.is_some();
            if let (Some(v), true) = (visible, node.role.is_actionable()) {
                node.covered = layout.is_covered(&f, &v.offset(-ox, -oy));
            }
        }
    }
    node
}
