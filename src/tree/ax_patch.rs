//! An AX read after a change the page could localize: the AX trees the key's last read
//! fetched, held, with the subtrees of the changed elements and their ancestors fetched again
//! in their place, instead of `Accessibility.getFullAXTree` of every frame (45–58 ms through
//! `chrome.debugger` on the corpus's median page, for a change of one element).
//!
//! Owns: the held trees (one read's frames, and the layout shapes and DOM parents of its
//! snapshot) and the patch: each changed subtree's held nodes replaced by its fresh ones; for
//! an element whose children came or went, its own node (its children now); for both, the
//! ancestors refreshed (names computed from content); the tree re-linked from the frame's
//! root, what no longer hangs from it gone; and the proof that nothing else changed: every
//! node whose layout shape moved (shown, hidden, restyled, its generated text) lies in a
//! changed subtree, or left the page from under a changed element.
//! Must never: answer a tree that could differ from a full fetch's. Any doubt — another URL,
//! another frame set, a child the patch did not fetch, a shape changed outside the changed
//! elements, a modal dialog — is a refusal, and the extension fetches the whole tree.

use crate::input::{AxNode, AxTree, Observation};
use crate::role::Role;
use crate::tree::layout::Shapes;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// What a read leaves for patching the next read of its key.
#[derive(Debug, Clone, Default)]
pub struct Held {
    pub url: String,
    /// Each frame's AX tree by frame id, as the read had it (fetched or patched).
    pub frames: Vec<(String, AxTree)>,
    /// The layout shapes and DOM parents of the read's main session (`layout::shapes`).
    pub shapes: Shapes,
}

/// Whether an observation's AX trees are worth holding for the next read: every frame has
/// one and there are `nodes` (a range) AX nodes in all.
pub fn holdable(obs: &Observation, nodes: std::ops::RangeInclusive<usize>) -> bool {
    !obs.frames.is_empty()
        && obs.frames.iter().all(|f| f.ax.is_some())
        && nodes.contains(&obs.frames.iter().map(|f| f.ax.as_ref().map_or(0, |a| a.nodes.len())).sum::<usize>())
}

/// What a built observation leaves held: its frames' AX trees (built with `keep_ax`, so whole)
/// and the shapes of its main session's snapshot.
pub fn hold(obs: &mut Observation, shapes: Shapes) -> Held {
    Held {
        url: obs.url.clone(),
        frames: obs.frames.iter_mut().map(|f| (f.frame_id.clone(), f.ax.take().unwrap_or_default())).collect(),
        shapes,
    }
}

/// Fills `obs`'s frames with the held trees, patched by `obs.ax_patch` (taken), given the
/// fresh snapshot's `shapes`. `Err(why)` refuses.
pub fn apply(held: &Held, obs: &mut Observation, shapes: &Shapes, max_roots: usize) -> Result<(), &'static str> {
    let patch = obs.ax_patch.take().ok_or("no patch")?;
    if obs.url != held.url {
        return Err("the page has another URL");
    }
    if obs.frames.len() != held.frames.len() || patch.roots.len() > max_roots {
        return Err("another frame set, or too many changed elements");
    }
    for f in obs.frames.iter_mut() {
        let (_, ax) = held.frames.iter().find(|(id, _)| *id == f.frame_id).ok_or("a frame the held read did not have")?;
        f.ax = Some(ax.clone());
    }
    // (Only the main frame's session is patched: its snapshot's shapes are the ones compared.)
    let frame = obs.frames.iter_mut().find(|f| f.frame_id == patch.frame_id && f.session.is_empty()).ok_or("the patched frame is not in the tab's own session")?;
    let ax = frame.ax.as_mut().expect("filled above");
    let top = ax.nodes.first().map(|n| n.node_id).ok_or("the held frame has no tree")?;
    if ax.nodes.iter().any(|n| n.behind_modal) {
        return Err("a modal dialog");
    }
    let mut by_id: HashMap<i32, AxNode> = ax.nodes.drain(..).map(|n| (n.node_id, n)).collect();
    // Changed subtrees (their present nodes may have changed) and changed elements (only the
    // nodes gone from under them).
    let (mut subtrees, mut elements): (HashSet<i64>, HashSet<i64>) = Default::default();
    for root in patch.roots {
        let fetched = if root.whole { &root.subtree } else { &root.ancestors };
        if !fetched.nodes.iter().any(|n| n.backend_dom_node_id == Some(root.backend_node_id)) {
            return Err("a changed element has no AX node");
        }
        elements.insert(root.backend_node_id);
        if root.whole {
            subtrees.insert(root.backend_node_id);
            // The held subtree goes (its nodes may have moved or gone), the fresh one comes.
            let top = fetched.nodes.iter().find(|n| n.backend_dom_node_id == Some(root.backend_node_id)).map(|n| n.node_id);
            let mut stack: Vec<i32> = top.into_iter().collect();
            while let Some(id) = stack.pop() {
                if let Some(n) = by_id.remove(&id) {
                    stack.extend(n.child_ids);
                }
            }
        }
        // A changed element's own node (its children now) and its ancestors (names from
        // content) replace the held ones; nodes no longer reachable go below.
        for n in root.subtree.nodes.into_iter().chain(root.ancestors.nodes) {
            if n.behind_modal {
                return Err("a modal dialog");
            }
            by_id.insert(n.node_id, as_full_tree_has_it(n));
        }
    }
    // Re-linked from the frame's root, in the order a full fetch lists them (depth first).
    let mut out = Vec::with_capacity(by_id.len());
    let mut stack = vec![top];
    let mut seen: HashSet<i32> = HashSet::default();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            return Err("a cycle");
        }
        let n = by_id.remove(&id).ok_or("a child the patch did not fetch")?;
        stack.extend(n.child_ids.iter().rev());
        out.push(n);
    }
    ax.nodes = out;
    // Nothing changed outside what was fetched: every node whose shape moved lies in a
    // changed subtree, in the page's DOM now, or (a node gone from it) under a changed
    // element in the DOM the held read saw: a removal is a change of the parent it left.
    let covered = |b: i64| {
        let (parents, roots) = if shapes.parent.contains_key(&b) || !held.shapes.parent.contains_key(&b) { (&shapes.parent, &subtrees) } else { (&held.shapes.parent, &elements) };
        let mut at = Some(b);
        for _ in 0..crate::budget::MAX_TREE_DEPTH {
            match at {
                Some(x) if roots.contains(&x) => return true,
                Some(x) => at = parents.get(&x).copied(),
                None => break,
            }
        }
        false
    };
    let moved = shapes.sig.iter().filter(|(b, s)| held.shapes.sig.get(b) != Some(s)).map(|(b, _)| *b);
    let gone = held.shapes.sig.keys().filter(|b| !shapes.sig.contains_key(b)).copied();
    if moved.chain(gone).any(|b| !covered(b)) {
        return Err("a node was shown, hidden or restyled outside the changed elements");
    }
    Ok(())
}

/// A node as `getFullAXTree` gives it: an ignored node has role `none` and no name there
/// (`queryAXTree` computes both for every node).
fn as_full_tree_has_it(mut n: AxNode) -> AxNode {
    if n.ignored {
        n.role = Role::None;
        n.layout_table_part = false;
        n.name = None;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{AxPatch, AxValue, FrameObservation, PatchRoot, SessionSnapshot};
    use crate::input::wire::Scalar;

    fn node(id: i32, role: Role, name: &str, children: &[i32]) -> AxNode {
        AxNode {
            node_id: id,
            role,
            name: Some(AxValue { value: Some(Scalar::Str(name.to_string())) }),
            child_ids: children.to_vec(),
            backend_dom_node_id: Some(id as i64),
            ..AxNode::default()
        }
    }

    /// A page: root 1 > main 2 > [button 3, list 4 > [item 5]].
    fn held() -> Held {
        let nodes = vec![
            node(1, Role::WebArea, "Page", &[2]),
            node(2, Role::Main, "", &[3, 4]),
            node(3, Role::Button, "Go", &[]),
            node(4, Role::List, "", &[5]),
            node(5, Role::ListItem, "one", &[]),
        ];
        Held { url: "https://x.test/".into(), frames: vec![("F".into(), AxTree { nodes })], shapes: shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)], &PARENTS) }
    }

    fn shapes(sig: &[(i64, u64)], parent: &[(i64, i64)]) -> Shapes {
        Shapes { sig: sig.iter().copied().collect(), parent: parent.iter().copied().collect() }
    }
    const PARENTS: [(i64, i64); 4] = [(2, 1), (3, 2), (4, 2), (5, 4)];

    fn observation(roots: Vec<PatchRoot>) -> Observation {
        Observation {
            url: "https://x.test/".into(),
            frames: vec![FrameObservation { frame_id: "F".into(), ..Default::default() }],
            snapshots: vec![SessionSnapshot::default()],
            ax_patch: Some(AxPatch { frame_id: "F".into(), roots }),
            ..Default::default()
        }
    }

    /// The patched frame as `id:name` in depth-first order, or the refusal.
    fn check(roots: Vec<PatchRoot>, shapes: Shapes) -> String {
        let mut obs = observation(roots);
        match apply(&held(), &mut obs, &shapes, 8) {
            Ok(()) => obs.frames[0].ax.as_ref().unwrap().nodes.iter().map(|n| format!("{}:{}", n.node_id, n.name.as_ref().and_then(|v| v.text()).unwrap_or_default())).collect::<Vec<_>>().join(" "),
            Err(why) => format!("refused: {why}"),
        }
    }

    fn root(backend: i64, subtree: Vec<AxNode>, ancestors: Vec<AxNode>) -> PatchRoot {
        PatchRoot { backend_node_id: backend, whole: true, subtree: AxTree { nodes: subtree }, ancestors: AxTree { nodes: ancestors } }
    }

    /// An element whose children came or went: its node and ancestors only.
    fn parent(backend: i64, ancestors: Vec<AxNode>) -> PatchRoot {
        PatchRoot { backend_node_id: backend, whole: false, subtree: AxTree::default(), ancestors: AxTree { nodes: ancestors } }
    }

    #[test]
    fn an_item_added_to_a_list_replaces_the_lists_subtree() {
        let list = root(4, vec![node(4, Role::List, "", &[5, 6]), node(5, Role::ListItem, "one", &[]), node(6, Role::ListItem, "two", &[])], vec![node(4, Role::List, "", &[5, 6]), node(2, Role::Main, "", &[3, 4]), node(1, Role::WebArea, "Page", &[2])]);
        let s = shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)], &[(2, 1), (3, 2), (4, 2), (5, 4), (6, 4)]);
        assert_eq!(check(vec![list], s), "1:Page 2: 3:Go 4: 5:one 6:two");
    }

    #[test]
    fn a_renamed_element_refreshes_its_ancestors_names() {
        let button = root(3, vec![node(3, Role::Button, "Stop", &[])], vec![node(3, Role::Button, "Stop", &[]), node(2, Role::Main, "Stop one", &[3, 4]), node(1, Role::WebArea, "Page", &[2])]);
        assert_eq!(check(vec![button], shapes(&[(1, 1), (2, 1), (3, 2), (4, 1), (5, 1)], &PARENTS)), "1:Page 2:Stop one 3:Stop 4: 5:one");
    }

    #[test]
    fn a_removed_element_leaves_with_its_subtree() {
        let main = root(2, vec![node(2, Role::Main, "", &[3])], vec![node(2, Role::Main, "", &[3]), node(1, Role::WebArea, "Page", &[2])]);
        let fresh = vec![node(2, Role::Main, "", &[3]), node(3, Role::Button, "Go", &[])];
        let main_with_button = PatchRoot { subtree: AxTree { nodes: fresh }, ..main };
        assert_eq!(check(vec![main_with_button], shapes(&[(1, 1), (2, 1), (3, 1)], &[(2, 1), (3, 2)])), "1:Page 2: 3:Go");
    }

    #[test]
    fn a_button_added_to_main_fetches_the_button_and_mains_own_node() {
        let main = parent(2, vec![node(2, Role::Main, "", &[3, 4, 6]), node(1, Role::WebArea, "Page", &[2])]);
        let button = root(6, vec![node(6, Role::Button, "New", &[])], vec![node(6, Role::Button, "New", &[]), node(2, Role::Main, "", &[3, 4, 6]), node(1, Role::WebArea, "Page", &[2])]);
        let s = shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)], &[(2, 1), (3, 2), (4, 2), (5, 4), (6, 2)]);
        assert_eq!(check(vec![button, main], s), "1:Page 2: 3:Go 4: 5:one 6:New");
    }

    #[test]
    fn an_item_removed_from_a_list_leaves_with_what_it_held() {
        let list = parent(4, vec![node(4, Role::List, "", &[]), node(2, Role::Main, "", &[3, 4]), node(1, Role::WebArea, "Page", &[2])]);
        assert_eq!(check(vec![list], shapes(&[(1, 1), (2, 1), (3, 1), (4, 1)], &[(2, 1), (3, 2), (4, 2)])), "1:Page 2: 3:Go 4:");
    }

    #[test]
    fn a_node_restyled_under_an_element_whose_children_changed_is_a_refusal() {
        // Item 5 stayed but was hidden (`:only-child`): only its parent's own node was fetched.
        let list = parent(4, vec![node(4, Role::List, "", &[5]), node(2, Role::Main, "", &[3, 4]), node(1, Role::WebArea, "Page", &[2])]);
        assert_eq!(check(vec![list], shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 7)], &PARENTS)), "refused: a node was shown, hidden or restyled outside the changed elements");
    }

    #[test]
    fn a_removed_items_layout_only_nodes_leave_with_it() {
        // The item's `::marker` (10) has a layout box and no AX node of its own.
        let mut h = held();
        h.shapes.sig.insert(10, 1);
        h.shapes.parent.insert(10, 5);
        let list = root(4, vec![node(4, Role::List, "", &[])], vec![node(4, Role::List, "", &[]), node(2, Role::Main, "", &[3, 4]), node(1, Role::WebArea, "Page", &[2])]);
        let mut obs = observation(vec![list]);
        let s = shapes(&[(1, 1), (2, 1), (3, 1), (4, 1)], &[(2, 1), (3, 2), (4, 2)]);
        assert_eq!(apply(&h, &mut obs, &s, 8), Ok(()));
        let mut obs = observation(vec![root(3, vec![node(3, Role::Button, "Go", &[])], vec![])]);
        assert_eq!(apply(&h, &mut obs, &s, 8), Err("a node was shown, hidden or restyled outside the changed elements"));
    }

    #[test]
    fn a_child_the_patch_did_not_fetch_is_a_refusal() {
        let list = root(4, vec![node(4, Role::List, "", &[5, 7])], vec![]);
        assert_eq!(check(vec![list], shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)], &PARENTS)), "refused: a child the patch did not fetch");
    }

    #[test]
    fn a_node_shown_outside_the_changed_elements_is_a_refusal() {
        // The button's shape moved (a `:checked ~` rule hid it) while only the list changed.
        let list = root(4, vec![node(4, Role::List, "", &[5]), node(5, Role::ListItem, "one", &[])], vec![]);
        assert_eq!(check(vec![list], shapes(&[(1, 1), (2, 1), (3, 9), (4, 1), (5, 1)], &PARENTS)), "refused: a node was shown, hidden or restyled outside the changed elements");
    }

    #[test]
    fn an_ignored_node_reads_as_the_full_tree_has_it() {
        let mut marker = node(6, Role::Text, "• ", &[]);
        marker.ignored = true;
        let list = root(4, vec![node(4, Role::List, "", &[5, 6]), node(5, Role::ListItem, "one", &[]), marker], vec![]);
        let s = shapes(&[(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)], &[(2, 1), (3, 2), (4, 2), (5, 4), (6, 4)]);
        assert_eq!(check(vec![list], s), "1:Page 2: 3:Go 4: 5:one 6:");
    }

    #[test]
    fn another_url_is_a_refusal() {
        let mut obs = observation(vec![]);
        obs.url = "https://x.test/other".into();
        assert_eq!(apply(&held(), &mut obs, &shapes(&[], &[]), 8), Err("the page has another URL"));
    }
}
