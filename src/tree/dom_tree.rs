//! Builds the semantic tree from the content-script DOM walk (when the AX domain is
//! unavailable): implicit ARIA roles, a practical accessible-name computation, visibility
//! from computed style, and the same `Node` shape the AX path produces.
//!
//! Owns: tag → role mapping and the DOM-side name rules. Must never: keep script, style,
//! template or noscript content; read a value of a password or hidden input.

use crate::budget::{KEEP_CHARS, MAX_TREE_DEPTH, NAME_GATHER_CHARS};
use crate::input::{DomWalk, Observation, WalkNode};
use crate::tree::layout::Rect;
use crate::role::{self, Role};
use crate::text::{capped, fold_whitespace};
use crate::tree::{keep_attrs, Frame, Node, Source, States, Target, Tree};
use rustc_hash::FxHashMap as HashMap;


pub fn build(obs: &Observation, walk: &DomWalk) -> Tree {
    let viewport = Rect { x: 0.0, y: 0.0, w: obs.viewport.width.max(0.0), h: obs.viewport.height.max(0.0) };
    // Sized once (as `ax_tree` sizes its arena): at most one node per walked node.
    let mut nodes = Vec::with_capacity(1 + walk.nodes.len() + obs.dom_frames.iter().map(|f| f.nodes.len()).sum::<usize>());
    nodes.push(Node { role: Role::WebArea, ..Node::default() });
    let mut tree = Tree {
        nodes,
        root: 0,
        frames: vec![Frame { frame_id: String::new(), session: String::new(), url: walk.url.clone(), is_main: true }],
        source: Source::Dom,
        scope: None,
        scope_own: false,
        repaired: 0,
        unverified_frames: 0,
        viewport,
        behind_modal: walk.behind_modal,
    };
    let map = add_walk(&mut tree, &walk.nodes, 0, 0, (0.0, 0.0, 1.0));
    // Each frame's scale on screen (a scaled iframe's document is painted scaled).
    let mut scales = vec![1.0];
    // Child frames (walked in every frame, `domFrames`), each shown only under the one
    // <iframe> element its window received the one-time tag of (a verified relation).
    let mut placed = vec![false; obs.dom_frames.len()];
    let mut k = 0;
    while k < tree.nodes.len() {
        let (is_frame, tag, bounds) = {
            let n = &tree.nodes[k];
            (n.role == Role::Iframe, n.frame_tag.clone(), n.bounds)
        };
        k += 1;
        if !is_frame || tree.frames.len() > crate::budget::DOM_FRAMES {
            continue;
        }
        let owner = k - 1;
        let matching: Vec<usize> = obs.dom_frames.iter().enumerate().filter(|(_, f)| !f.tag.is_empty() && Some(&f.tag) == tag.as_ref()).map(|(i, _)| i).collect();
        match (matching.as_slice(), bounds) {
            ([one], Some(b)) if !placed[*one] && !tree.nodes[owner].hidden => {
                placed[*one] = true;
                let f = &obs.dom_frames[*one];
                let child = tree.frames.len();
                tree.frames.push(Frame { frame_id: f.frame_id.to_string(), session: String::new(), url: f.url.clone(), is_main: false });
                // Inside the iframe's border and padding, at its scale (and its frame's).
                let outer = scales.get(tree.nodes[owner].frame).copied().unwrap_or(1.0);
                let [left, top, own] = tree.nodes[owner].frame_box.unwrap_or([0.0, 0.0, 1.0]);
                let scale = outer * own;
                scales.push(scale);
                add_walk(&mut tree, &f.nodes, child, owner, (b.x + left * scale, b.y + top * scale, scale));
            }
            _ if tree.nodes[owner].in_viewport && !tree.nodes[owner].hidden && !obs.dom_frames.is_empty() => {
                tree.unverified_frames += 1;
                tree.nodes[owner].warning = Some("iframe not expanded: frame not verified".into());
            }
            _ => {}
        }
    }
    if let Some(scope) = obs.scope.as_ref().and_then(|s| s.walk_index).and_then(|i| usize::try_from(i).ok()) {
        tree.scope = Some(match map.get(scope).copied().filter(|&t| t != usize::MAX) {
            Some(own) => {
                tree.scope_own = true;
                vec![own]
            }
            // Not in the tree (hidden, pruned): its descendants that are, if any.
            None => {
                let inside = |mut wi: usize| {
                    for _ in 0..MAX_TREE_DEPTH {
                        match usize::try_from(walk.nodes[wi].parent).ok().filter(|&p| p < wi) {
                            Some(p) if p == scope => return true,
                            Some(p) => wi = p,
                            None => return false,
                        }
                    }
                    false
                };
                let walk_of = |n: &Node| n.target.walk_index.and_then(|w| usize::try_from(w).ok()).filter(|&w| w < walk.nodes.len() && n.frame == 0);
                tree.topmost(&|n| walk_of(n).map(inside).unwrap_or(false))
            }
        });
    }
    tree
}

/// `place`: where the frame's document is painted, `(x, y, scale)` in the top viewport.
fn add_walk(tree: &mut Tree, nodes: &[WalkNode], fi: usize, attach_to: usize, place: (f64, f64, f64)) -> Vec<usize> {
    let n = nodes.len();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (i, w) in nodes.iter().enumerate() {
        match usize::try_from(w.parent).ok() {
            // Parents precede children in a walk; anything else is a malformed link.
            Some(p) if p < i => children[p].push(i),
            Some(_) => tree.repaired += 1,
            None => roots.push(i),
        }
    }
    let ids: HashMap<&str, usize> = nodes.iter().enumerate().filter_map(|(i, w)| w.attrs.get("id").map(|id| (id.as_str(), i))).collect();
    let gather = Gather { nodes, children: &children, context: context(nodes), ids: &ids };
    let viewport = tree.viewport;
    // Walk index → tree index (usize::MAX: not in the tree).
    let mut map = vec![usize::MAX; n];
    // (walk index, parent tree index, depth, inherited aria-hidden)
    let mut stack: Vec<(usize, usize, usize, bool)> = roots.iter().rev().map(|&r| (r, attach_to, 0, false)).collect();
    while let Some((wi, parent, depth, aria_hidden_above)) = stack.pop() {
        let w = &nodes[wi];
        let tag = w.tag.as_str();
        if matches!(tag, "script" | "style" | "template" | "noscript" | "head" | "meta" | "link" | "title") {
            continue;
        }
        if matches!(w.display.as_deref(), Some("none")) || (tag == "input" && w.attrs.get("type").map(|t| t.eq_ignore_ascii_case("hidden")).unwrap_or(false)) {
            continue;
        }
        let closed_details = usize::try_from(w.parent).ok().and_then(|p| nodes.get(p)).is_some_and(|p| p.tag == "details" && !p.attrs.contains_key("open"));
        if closed_details && !gather.context[wi].details_summary {
            continue; // a closed <details> renders only its summary
        }
        let aria_hidden = aria_hidden_above || w.attrs.get("aria-hidden").map(|v| v == "true").unwrap_or(false) || w.attrs.contains_key("inert") || w.attrs.contains_key("hidden");
        if aria_hidden {
            continue;
        }
        let mut node = translate(w, wi, &gather, viewport, place);
        node.frame = fi;
        let ti = tree.nodes.len();
        map[wi] = ti;
        tree.nodes.push(node);
        tree.nodes[parent].children.push(ti);
        if depth >= MAX_TREE_DEPTH {
            tree.repaired += 1;
            continue;
        }
        for &c in children[wi].iter().rev() {
            stack.push((c, ti, depth + 1, aria_hidden));
        }
    }
    map
}

struct Gather<'a> {
    nodes: &'a [WalkNode],
    children: &'a [Vec<usize>],
    context: Vec<Context>,
    /// Element id → walk index (`aria-owns`, `aria-labelledby`).
    ids: &'a HashMap<&'a str, usize>,
}

/// What a walk node's ancestors decide about its role.
#[derive(Clone, Copy, Default)]
struct Context {
    /// Inside a table that reads as layout (Chromium's heuristic, simplified): its rows and
    /// cells are boxes, not table structure.
    layout_table: bool,
    /// Inside article, aside, main, nav or section: a header/footer there is no landmark.
    sectioned: bool,
    /// Inside article, aside, nav or section (an unnamed aside there is no landmark).
    in_section: bool,
    /// Inside a contenteditable element (only the root is the text box).
    editable: bool,
    /// A `<table>` that reads as layout.
    layout_self: bool,
    /// A `<th>` heading its row (scope row, or a body row that also has data cells).
    row_header: bool,
    /// The first `<summary>` of a `<details>`: its button (another summary is generic).
    details_summary: bool,
    /// An element of an `<svg>` (the root included): a `<title>` child names it.
    svg: bool,
    /// Inside what an `option`, a `treeitem`, a `listitem` needs around it (a listbox, a
    /// tree, a list): outside it Chromium gives the role no meaning (the element is generic).
    owned_by: Owners,
}

/// The containers around an element that give an owned ARIA role its meaning.
#[derive(Debug, Clone, Copy, Default)]
struct Owners {
    listbox: bool,
    tree: bool,
    list: bool,
}

impl Owners {
    /// What `w` adds for its descendants, by its role attribute or its tag.
    fn with(self, w: &WalkNode) -> Owners {
        let role = w.attrs.get("role").and_then(|r| Role::from_aria_attribute(r));
        Owners {
            listbox: self.listbox || role == Some(Role::ListBox) || (role.is_none() && matches!(w.tag.as_str(), "select" | "datalist")),
            tree: self.tree || matches!(role, Some(Role::Tree | Role::TreeGrid)),
            list: self.list || matches!(role, Some(Role::List | Role::Directory)) || (role.is_none() && matches!(w.tag.as_str(), "ul" | "ol" | "menu")),
        }
    }

    /// Whether an element of `role` has what it needs around it.
    fn allow(self, role: Role) -> bool {
        match role {
            Role::Option => self.listbox,
            Role::TreeItem => self.tree,
            Role::ListItem => self.list,
            _ => true,
        }
    }
}

/// What a table's cells say about it (Chromium's `IsDataTable`, on the walk's facts).
#[derive(Clone, Copy, Default)]
struct CellTally {
    rows: usize,
    /// Cells with a box of at least 1×1.
    valid: usize,
    /// Cells bordered top and bottom or left and right.
    bordered: usize,
    /// Cells with a border on each side: top, bottom, left, right.
    sides: [usize; 4],
    /// Cells whose background differs from the table's, with cell spacing.
    background: usize,
}

impl CellTally {
    fn cell(&mut self, w: &WalkNode) {
        if !w.rect.as_deref().map(|r| r.len() == 4 && r[2] >= 1.0 && r[3] >= 1.0).unwrap_or(false) {
            return;
        }
        let b = w.cell_box;
        self.valid += 1;
        self.bordered += usize::from((b & 0b11 == 0b11) || (b & 0b1100 == 0b1100));
        for (k, side) in self.sides.iter_mut().enumerate() {
            *side += usize::from(b & (1 << k) != 0);
        }
        self.background += usize::from(b & 0b10000 != 0);
    }

    /// 20 rows or more, 10 bordered cells or 10 on a background of their own; or, of two
    /// cells or more, half bordered (on one side at least) or half on their own background.
    fn reads_as_data(&self) -> bool {
        let half = self.valid / 2;
        self.rows >= 20 || self.bordered >= 10 || self.background >= 10 || (self.valid > 1 && (self.bordered >= half || self.sides.iter().any(|&s| s >= half) || self.background >= half))
    }
}

/// One forward pass (parents precede children): the context of every walk node.
fn context(nodes: &[WalkNode]) -> Vec<Context> {
    let n = nodes.len();
    let parent = |i: usize| usize::try_from(nodes[i].parent).ok().filter(|&p| p < i);
    // The nearest enclosing table of each node, and which tables read as data (Chromium's
    // guess: header cells and attributes first, then what the cells' boxes look like).
    let mut table_of = vec![usize::MAX; n];
    let mut data = vec![false; n];
    let mut tally = vec![CellTally::default(); n];
    for i in 0..n {
        let Some(p) = parent(i) else { continue };
        table_of[i] = if nodes[p].tag == "table" { p } else { table_of[p] };
        let t = table_of[i];
        if t == usize::MAX {
            continue;
        }
        let w = &nodes[i];
        match w.tag.as_str() {
            "th" | "thead" | "tfoot" | "caption" | "col" | "colgroup" => data[t] = true,
            "tr" => tally[t].rows += 1,
            "td" => tally[t].cell(w),
            _ => {}
        }
        if ["headers", "scope", "abbr", "axis"].iter().any(|a| w.attrs.contains_key(*a)) {
            data[t] = true;
        }
    }
    for (i, w) in nodes.iter().enumerate() {
        if w.tag == "table" && (["role", "summary", "rules"].iter().any(|a| w.attrs.contains_key(*a)) || tally[i].reads_as_data()) {
            data[i] = true;
        }
    }
    let mut out = vec![Context::default(); n];
    for i in 0..n {
        let Some(p) = parent(i) else { continue };
        let pw = &nodes[p];
        out[i] = Context {
            layout_table: table_of[i] != usize::MAX && !data[table_of[i]],
            sectioned: out[p].sectioned || matches!(pw.tag.as_str(), "article" | "aside" | "main" | "nav" | "section"),
            in_section: out[p].in_section || matches!(pw.tag.as_str(), "article" | "aside" | "nav" | "section"),
            editable: out[p].editable || crate::tree::walk_view::is_editable(pw),
            svg: nodes[i].tag == "svg" || (out[p].svg && pw.tag != "foreignobject"),
            owned_by: out[p].owned_by.with(pw),
            ..Context::default()
        };
    }
    // Rows with a data cell, and each <details>' first <summary> (document order).
    let mut has_td = vec![false; n];
    let mut summarized = vec![false; n];
    for i in 0..n {
        let Some(p) = parent(i) else { continue };
        match nodes[i].tag.as_str() {
            "td" => has_td[p] = true,
            "summary" if nodes[p].tag == "details" && !std::mem::replace(&mut summarized[p], true) => out[i].details_summary = true,
            _ => {}
        }
    }
    for (i, w) in nodes.iter().enumerate() {
        out[i].layout_self = w.tag == "table" && !data[i];
        if w.tag == "th" {
            let row = parent(i);
            let in_head = row.and_then(parent).is_some_and(|s| nodes[s].tag == "thead");
            out[i].row_header = match w.attrs.get("scope").map(|s| s.to_ascii_lowercase()).as_deref() {
                Some("row" | "rowgroup") => true,
                Some("col" | "colgroup") => false,
                _ => !in_head && row.is_some_and(|r| has_td[r]),
            };
        }
    }
    out
}


impl Gather<'_> {
    /// Whether the parent of `i` is a `tag` element carrying attribute `attr`.
    fn parent_has(&self, i: usize, tag: &str, attr: &str) -> bool {
        usize::try_from(self.nodes[i].parent).ok().and_then(|p| self.nodes.get(p)).is_some_and(|p| p.tag == tag && p.attrs.contains_key(attr))
    }

    /// The text of the first child element of `from` with tag `tag`.
    /// The text of an SVG element's first `<title>` child (hidden by nature: read whole).
    fn title_text(&self, from: usize) -> Option<String> {
        self.children[from].iter().find(|&&c| self.nodes[c].tag == "title").map(|&c| self.gather(c, true))
    }

    fn child_text(&self, from: usize, tag: &str) -> Option<String> {
        self.children[from].iter().find(|&&c| self.nodes[c].tag == tag).map(|&c| self.text(c))
    }

    /// Visible text of a subtree as a name from content, bounded, skipping hidden and
    /// non-rendered parts, joined as it renders: a space at whitespace, box edges and line
    /// breaks, none across inline elements (`Sa<i>ve</i>` is `Save`).
    fn text(&self, from: usize) -> String {
        self.gather(from, false)
    }

    /// What aria-labelledby reads of a node it points at: its aria-label, a field's value
    /// (as for an embedded control), else its text (a hidden node is read whole).
    fn referenced_text(&self, from: usize) -> String {
        let w = &self.nodes[from];
        match self.own_name(w) {
            // (capped, so folded, with the name it joins)
            Some(l) => l.to_string(),
            // (Hidden in any way, `visibility` too, the node is read whole, as Chromium does.)
            None => self.gather_in(from, hidden(w) || matches!(w.visibility.as_deref(), Some("hidden" | "collapse")), false),
        }
    }

    /// Inside the subtree, a descendant's own name stands for its content (Chromium, as the
    /// accname spec's recursion): an image's alt (else its title) and an element's aria-label
    /// as a word of its own, a field's value (its text, a select's chosen option); nothing is
    /// read through an article, figure, nav, blockquote or form. `hidden_too`: read what the
    /// page hides as well.
    fn gather(&self, from: usize, hidden_too: bool) -> String {
        self.gather_in(from, hidden_too, true)
    }

    /// `gather`; `labelledby`: a descendant's `aria-labelledby` stands for its content (not
    /// inside a reference already: accname reads references one level deep).
    fn gather_in(&self, from: usize, hidden_too: bool, labelledby: bool) -> String {
        let mut out = String::new();
        // (walk index, after its children)
        let mut stack = vec![(from, false)];
        // Elements read through `aria-owns` (each once: ownership may loop).
        let mut owned = vec![from];
        while let Some((i, after)) = stack.pop() {
            if out.len() > NAME_GATHER_CHARS {
                break;
            }
            let w = &self.nodes[i];
            let boundary = w.tag == "br" || w.display.as_deref().map(crate::tree::flow::breaks_flow).unwrap_or(false);
            if after {
                if let Some(a) = &w.after {
                    out.push_str(a);
                }
                // (whitespace that ended it, however deep: `a<span><span> </span></span>b`)
                if boundary || w.ws_end {
                    out.push(' ');
                }
                continue;
            }
            // An article, figure, nav, blockquote or form inside is a thing of its own.
            if matches!(w.tag.as_str(), "script" | "style" | "template" | "noscript" | "desc") || (!hidden_too && hidden(w)) || (i != from && matches!(w.tag.as_str(), "article" | "figure" | "nav" | "blockquote" | "form")) {
                continue;
            }
            if w.ws_before || boundary {
                out.push(' ');
            }
            // Text has its element's visibility; an invisible element's children may show.
            let invisible = |n: &WalkNode| matches!(n.visibility.as_deref(), Some("hidden" | "collapse")) && !hidden_too;
            if w.tag == "#text" && usize::try_from(w.parent).ok().and_then(|p| self.nodes.get(p)).is_some_and(invisible) {
                continue;
            }
            let own = (!invisible(w)).then(|| (i != from).then(|| self.own_name(w)).flatten().or_else(|| (w.tag == "img").then(|| w.attrs.get("alt").or_else(|| w.attrs.get("title")).map(String::as_str)).flatten())).flatten();
            // A descendant named by aria-labelledby gives what it references (a link inside a
            // heading), once the references resolve.
            let referenced = (labelledby && i != from && !invisible(w))
                .then(|| w.attrs.get("aria-labelledby"))
                .flatten()
                .map(|l| self.labelledby_text(l, |r| self.referenced_text(r)))
                .filter(|t| !t.trim().is_empty());
            if let Some(t) = referenced {
                out.push(' ');
                out.push_str(&t);
                out.push(' ');
                continue;
            }
            if let Some(name) = own {
                out.push(' ');
                out.push_str(name);
                out.push(' ');
                continue;
            }
            // An `<svg>` with nothing to read inside gives its `title` attribute (its tooltip,
            // the graphic's last-resort name), as Chromium's recursion does; no other element's
            // tooltip counts inside a name.
            if i != from && w.tag == "svg" && !image_role(w) {
                if let Some(tip) = w.attrs.get("title").filter(|_| !invisible(w)) {
                    let inside = self.gather(i, hidden_too);
                    out.push(' ');
                    out.push_str(if inside.is_empty() { tip } else { &inside });
                    out.push(' ');
                    continue;
                }
            }
            // An image's content is presentational: it gives its own name only (an SVG's
            // `<title>`, else its `title`), never its text (Chromium).
            if i != from && image_role(w) {
                if !invisible(w) {
                    out.push(' ');
                    out.push_str(&self.title_text(i).or_else(|| w.attrs.get("title").cloned()).unwrap_or_default());
                    out.push(' ');
                }
                continue;
            }
            if let Some(b) = &w.before {
                out.push_str(b);
            }
            if let Some(t) = &w.text {
                out.push_str(crate::text::byte_prefix(t, NAME_GATHER_CHARS));
            }
            stack.push((i, true));
            // What it owns (`aria-owns`) reads after its own children, as Chromium reads it.
            if let Some(list) = w.attrs.get("aria-owns") {
                for id in list.split_whitespace().rev() {
                    if let Some(&o) = self.ids.get(id).filter(|&&o| !owned.contains(&o) && !self.owned_first(o, i)) {
                        owned.push(o);
                        stack.push((o, false));
                    }
                }
            }
            for &c in self.children[i].iter().rev() {
                stack.push((c, false));
            }
        }
        fold_whitespace(&out)
    }

    /// The text an `aria-labelledby` list gives: `text` of each element it names that exists,
    /// joined by spaces.
    fn labelledby_text(&self, list: &str, text: impl Fn(usize) -> String) -> String {
        let texts: Vec<String> = list.split_whitespace().filter_map(|id| self.ids.get(id)).map(|&i| text(i)).collect();
        crate::text::join(&mut texts.iter().map(String::as_str), " ")
    }

    /// Whether `owner` owns `i` (`aria-owns`) and comes first in the document: then `i`'s
    /// own claim on `owner` is the loop Chromium drops (the first owner keeps it).
    fn owned_first(&self, owner: usize, i: usize) -> bool {
        let Some(id) = self.nodes[i].attrs.get("id") else { return false };
        owner < i && self.nodes[owner].attrs.get("aria-owns").is_some_and(|l| l.split_whitespace().any(|x| x == id))
    }

    /// What a descendant contributes instead of its content: its aria-label, or a field's
    /// value (the walk never carries a password's value; a field the core finds sensitive,
    /// by its autocomplete, name or label, gives nothing).
    /// (An embedded control gives its value even when it has an aria-label: accname 2C.)
    fn own_name<'w>(&self, w: &'w WalkNode) -> Option<&'w str> {
        let textual = match w.tag.as_str() {
            "input" => matches!(w.attrs.get("type").map(|t| t.to_ascii_lowercase()).as_deref(), None | Some("text" | "search" | "email" | "tel" | "url" | "number" | "range")),
            "select" | "textarea" => true,
            _ => false,
        };
        if textual {
            let secret = crate::tree::redact::is_sensitive_by(&|k| w.attrs.get(k).map(String::as_str), w.label.as_deref().unwrap_or(""));
            return Some(if secret { "" } else { w.value.as_deref().unwrap_or("") });
        }
        aria_label(w)
    }
}

/// The ARIA attributes that undo `presentation` / `none` on an element, as Chromium reads them
/// (measured: a state or widget property, `aria-level` or `aria-disabled`, does not).
const GLOBAL_ARIA: [&str; 17] = [
    "aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-description", "aria-details", "aria-flowto",
    "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live", "aria-owns", "aria-relevant", "aria-roledescription",
    "aria-braillelabel", "aria-brailleroledescription",
];

/// An element's aria-label, when it has words (a `<slot>` renders no box of its own: its
/// aria-label names nothing; what it holds reads).
fn aria_label(w: &WalkNode) -> Option<&str> {
    w.attrs.get("aria-label").map(String::as_str).filter(|l| !l.trim().is_empty() && w.tag != "slot")
}

/// An element whose explicit role is an image (`img`, or its synonym `image`).
fn image_role(w: &WalkNode) -> bool {
    w.attrs.get("role").and_then(|r| r.split_whitespace().next()).is_some_and(|r| r.eq_ignore_ascii_case("img") || r.eq_ignore_ascii_case("image"))
}

/// Hidden from everyone: not rendered, or aria-hidden.
fn hidden(w: &WalkNode) -> bool {
    w.display.as_deref() == Some("none") || w.attrs.get("aria-hidden").is_some_and(|v| v == "true")
}

fn implicit_role(w: &WalkNode, cx: Context) -> Role {
    let ty = w.attrs.get("type").map(|t| t.to_ascii_lowercase());
    let named = w.attrs.contains_key("aria-label") || w.attrs.contains_key("aria-labelledby") || w.attrs.contains_key("title");
    match w.tag.as_str() {
        "tr" | "td" | "th" | "tbody" | "thead" | "tfoot" if cx.layout_table => Role::Generic,
        // A data table's head and foot are row groups; its body only when focusable (Chromium).
        "thead" | "tfoot" => Role::RowGroup,
        "tbody" if w.attrs.contains_key("tabindex") => Role::RowGroup,
        "header" | "footer" if cx.sectioned => Role::Generic,
        "section" if !named => Role::Generic,
        "aside" if cx.in_section && !named => Role::Generic,
        "dl" => Role::List,
        "dt" | "dfn" => Role::Term,
        "search" => Role::Search,
        "dd" => Role::Definition,
        "meter" => Role::Meter,
        "output" => Role::Status,
        "details" | "address" => Role::Group,
        "figcaption" => Role::Caption,
        "figure" => Role::Figure,
        // SVG (svg-aam, as Chromium maps it): the root is a graphic; a group is a group when
        // it has a name (an unnamed one is lifted like any unnamed group).
        "svg" => Role::SvgRoot,
        "g" if cx.svg => Role::Group,
        "image" if cx.svg => Role::Img,
        "blockquote" => Role::Blockquote,
        "math" => Role::Math,
        "select" if w.attrs.get("size").and_then(|s| s.trim().parse::<u32>().ok()).map(|s| s > 1).unwrap_or(false) => Role::ListBox,
        "#text" => Role::Text,
        "a" | "area" if w.attrs.contains_key("href") => Role::Link,
        // Chromium: an anchor that handles clicks is a link, href or not.
        "a" if w.clickable => Role::Link,
        "button" => Role::Button,
        "summary" if cx.details_summary => Role::Button,
        "input" => match ty.as_deref() {
            Some("checkbox") => Role::Checkbox,
            Some("radio") => Role::Radio,
            Some("button" | "submit" | "reset" | "image" | "file") => Role::Button,
            Some("range") => Role::Slider,
            Some("number") => Role::SpinButton,
            Some("search") => Role::SearchBox,
            _ if w.attrs.contains_key("list") => Role::ComboBox,
            _ => Role::TextBox,
        },
        "textarea" => Role::TextBox,
        "br" => Role::LineBreak,
        "select" if w.attrs.contains_key("multiple") => Role::ListBox,
        "select" => Role::ComboBox,
        "option" => Role::Option,
        // (named by its `label`: a select's options stay under it, in their group)
        "optgroup" => Role::Group,
        t if role::heading_level(t).is_some() => Role::Heading,
        "nav" => Role::Navigation,
        "main" => Role::Main,
        "header" => Role::Banner,
        "footer" => Role::ContentInfo,
        "aside" => Role::Complementary,
        "form" => Role::Form,
        "section" => Role::Region,
        "dialog" => Role::Dialog,
        "ul" | "ol" | "menu" => Role::List,
        "li" => Role::ListItem,
        "table" if cx.layout_self => Role::Generic,
        "table" => Role::Table,
        "tr" => Role::Row,
        "td" => Role::Cell,
        "th" if cx.row_header => Role::RowHeader,
        "th" => Role::ColumnHeader,
        "img" => Role::Img,
        "p" => Role::Paragraph,
        "iframe" | "frame" => Role::Iframe,
        "hr" => Role::Separator,
        "progress" => Role::ProgressBar,
        "fieldset" => Role::Group,
        "label" => Role::Label,
        "article" => Role::Article,
        // Inline semantics (html-aam): folded into their text in a whole read, shown when a
        // selector chooses one.
        "strong" => Role::Strong,
        "em" => Role::Emphasis,
        "time" => Role::Time,
        "mark" => Role::Mark,
        "del" | "s" => Role::Deletion,
        "ins" => Role::Insertion,
        "sub" => Role::Subscript,
        "sup" => Role::Superscript,
        "hgroup" => Role::Group,
        "code" => Role::Code,
        "caption" => Role::Caption,
        "pre" => Role::Generic,
        _ => Role::Generic,
    }
}

fn translate(w: &WalkNode, wi: usize, g: &Gather, viewport: Rect, (ox, oy, scale): (f64, f64, f64)) -> Node {
    // The first ARIA role of the attribute's list wins; an unknown token (`role="btn"`) is skipped.
    let cx = g.context[wi];
    // A `region` or `form` token counts only on an element named by its author (aria-label,
    // aria-labelledby, title); else the next token does, as Chromium computes it.
    let authored_name = || {
        aria_label(w).is_some()
            || w.attrs.get("aria-labelledby").is_some_and(|list| !g.labelledby_text(list, |i| g.referenced_text(i)).trim().is_empty())
            || w.attrs.get("title").is_some_and(|t| !t.trim().is_empty())
    };
    let explicit = w.attrs.get("role").and_then(|r| Role::aria_tokens(r).find(|r| !r.needs_name() || authored_name()));
    // ARIA's conflict rule: `presentation` / `none` is ignored on an element that is focusable
    // or carries a global ARIA attribute; it keeps its own role (jQuery UI's `<a
    // role=presentation href>` in a tab stays a link), as Chromium computes it.
    let focusable_el = (w.tag == "a" && w.attrs.contains_key("href")) || matches!(w.tag.as_str(), "button" | "input" | "select" | "textarea") || w.attrs.contains_key("tabindex");
    let global_aria = w.attrs.keys().any(|k| GLOBAL_ARIA.contains(&k.as_str()));
    let explicit = explicit.filter(|r| !(r.is_presentational() && (focusable_el || global_aria)));
    // An owned role outside its owner means nothing (Chromium: a `role=option` outside a
    // listbox is generic); the element keeps its own role then.
    let explicit = explicit.filter(|r| cx.owned_by.allow(*r));
    let mut role = explicit.unwrap_or_else(|| implicit_role(w, cx));
    let editable_root = crate::tree::walk_view::is_editable(w) && !cx.editable && !matches!(w.tag.as_str(), "input" | "textarea");
    if editable_root && !matches!(role, Role::SearchBox | Role::ComboBox | Role::SpinButton) {
        // The root of a contenteditable region (a div, a <p>, a <td>) is a text box to the
        // user, whose text is its value.
        role = Role::TextBox;
    }
    let attr = |k: &str| w.attrs.get(k).map(String::as_str);
    let file_input = w.tag == "input" && attr("type") == Some("file");
    let name = if role == Role::Text {
        w.text.as_deref().map(|t| capped(t, KEEP_CHARS)).unwrap_or_default()
    } else {
        // (An element that names itself gives its aria-label there, a field too: it is not a
        // control inside another's label.)
        let labelled = attr("aria-labelledby").map(|list| {
            g.labelledby_text(list, |i| if i == wi { aria_label(w).map(str::to_string).unwrap_or_else(|| g.referenced_text(i)) } else { g.referenced_text(i) })
        });
        // (An image's content is presentational, never its name.)
        let from_content = role.owns_descendant_text() && !role.takes_text() && !matches!(role, Role::ListBox | Role::Label | Role::Caption | Role::Img | Role::Code);
        // A field's <label> names it even when its text is empty, and a button input's
        // value even when empty (Chromium): nothing after them is read.
        let button_input = w.tag == "input" && matches!(attr("type"), Some("submit" | "button" | "reset"));
        let last_word = match (role::is_field_tag(&w.tag), &w.label) {
            (true, Some(l)) => Some(l.clone()),
            _ => button_input.then(|| attr("value").map(str::to_string)).flatten(),
        };
        let candidates = [
            labelled.filter(|s| !s.trim().is_empty()),
            aria_label(w).map(str::to_string),
            // ("\u{1}": an empty last word, which ends the search with no name.)
            last_word.map(|l| if l.trim().is_empty() { "\u{1}".to_string() } else { l }),
            w.label.clone(),
            (w.tag == "img").then(|| attr("alt").map(str::to_string)).flatten(),
            (w.tag == "input" && attr("type") == Some("image")).then(|| attr("alt").map(str::to_string)).flatten(),
            // The default labels of submit and reset buttons (Chromium's, in English).
            (w.tag == "input").then(|| match attr("type") {
                Some("submit") => Some("Submit".to_string()),
                Some("reset") => Some("Reset".to_string()),
                _ => None,
            }).flatten(),
            from_content.then(|| g.text(wi)),
            (w.tag == "optgroup").then(|| attr("label").map(str::to_string)).flatten(),
            // An SVG element by its <title> child (the title is never rendered, so read whole).
            cx.svg.then(|| g.title_text(wi)).flatten(),
            // An SVG link by its `xlink:title` (svg-aam), where it has no content or `<title>`.
            cx.svg.then(|| attr("xlink:title").map(str::to_string)).flatten(),
            // A fieldset is named by its legend, a figure by its caption, a table by its caption.
            match w.tag.as_str() {
                "fieldset" => g.child_text(wi, "legend"),
                "table" => g.child_text(wi, "caption"),
                _ => None,
            },
            attr("title").filter(|_| !role.unnamed_by_title() || w.tag == "figcaption").map(str::to_string),
            attr("placeholder").map(str::to_string),
            // A file input is the button it renders, below its title (html-aam; Chromium
            // reads the button's text before the title).
            file_input.then(|| if attr("multiple").is_some() { "Choose Files" } else { "Choose File" }.to_string()),
        ];
        candidates.into_iter().flatten().map(|s| capped(&s, KEEP_CHARS)).find(|s| !s.is_empty()).filter(|s| s != "\u{1}").unwrap_or_default()
    };
    // An SVG `<g>` is a group only when named (its `<title>`, an aria-label): Chromium ignores
    // an unnamed one (what a selector on it shows).
    if role == Role::Group && w.tag == "g" && explicit.is_none() && name.is_empty() {
        role = Role::Generic;
    }
    let heading_level = role::heading_level(&w.tag).map(|l| l as i64);
    let checkable = role.is_checkable();
    let aria_state = |k: &str| attr(k).map(str::to_ascii_lowercase).filter(|v| matches!(v.as_str(), "true" | "false" | "mixed"));
    let states = States {
        checked: if checkable { if w.mixed { Some("mixed".to_string()) } else { w.checked.map(|c| c.to_string()).or_else(|| aria_state("aria-checked")) } } else { None },
        pressed: aria_state("aria-pressed").filter(|v| v != "false" && role == Role::Button),
        disabled: w.disabled.unwrap_or(false) || attr("aria-disabled") == Some("true"),
        // A <summary> says whether its <details> is open.
        expanded: attr("aria-expanded").and_then(|v| v.parse().ok()).or_else(|| match w.tag.as_str() {
            "summary" if g.context[wi].details_summary => Some(g.parent_has(wi, "details", "open")),
            // A drop-down <select> is collapsed whenever a page can be read.
            "select" if role == Role::ComboBox => Some(false),
            _ => None,
        }),
        required: attr("required").is_some() || attr("aria-required") == Some("true"),
        // (`aria-invalid` other than "false": "true", "spelling", "grammar", any other token)
        invalid: w.invalid || attr("aria-invalid").map(|v| v.trim().to_ascii_lowercase()).is_some_and(|v| !v.is_empty() && v != "false"),
        readonly: attr("readonly").is_some() || attr("aria-readonly") == Some("true"),
        selected: w.selected.unwrap_or(false) || attr("aria-selected") == Some("true"),
        focused: w.focused.unwrap_or(false),
        focusable: matches!(w.tag.as_str(), "a" | "button" | "input" | "select" | "textarea") || attr("tabindex").is_some(),
        level: attr("aria-level").and_then(|l| l.parse().ok()).or(heading_level),
        haspopup: attr("aria-haspopup").filter(|v| *v != "false").map(str::to_string),
    };
    // Text has the box and the visibility of the element it is in (the walk reads elements';
    // a text without a box would rank last among what is off-screen, behind its own links).
    let own = if w.tag == "#text" { usize::try_from(w.parent).ok().and_then(|p| g.nodes.get(p)) } else { Some(w) };
    let bounds = own.and_then(|o| o.rect.as_deref()).and_then(Rect::from_slice).map(|b| b.placed(ox, oy, scale));
    let in_viewport = bounds.map(|b| b.intersect(&viewport).is_some()).unwrap_or(false);
    let visibility = own.and_then(|o| o.visibility.as_deref());
    let (edge_before, edge_after) = w.text.as_deref().map(crate::text::edge_spaces).unwrap_or((false, false));
    Node {
        block: w.display.as_deref().map(crate::tree::flow::breaks_flow).unwrap_or(false),
        space_before: edge_before || w.ws_before,
        space_after: edge_after || w.ws_end,
        name,
        // Only fields have a value worth showing (a checkbox's "on" is not one).
        value: if matches!(role, Role::Meter | Role::ProgressBar) {
            attr("value").map(|v| capped(v, KEEP_CHARS))
        } else if file_input {
            // What its button shows: the chosen file (the page reads `C:\fakepath\name`), or none.
            let chosen = w.value.as_deref().and_then(|v| v.rsplit(['\\', '/']).next()).filter(|v| !v.is_empty());
            Some(capped(chosen.unwrap_or("No file chosen"), KEEP_CHARS))
        } else if editable_root || (role == Role::ComboBox && !matches!(w.tag.as_str(), "input" | "select") && g.children[wi].iter().all(|&c| g.nodes[c].tag == "#text")) {
            // (an editable region's text; a combobox that holds nothing but text shows it as its value)
            Some(g.text(wi)).filter(|v| !v.is_empty()).map(|v| capped(&v, KEEP_CHARS))
        } else {
            w.value.as_deref().filter(|v| !v.is_empty()).map(|v| capped(v, KEEP_CHARS)).filter(|_| role.takes_text())
        },
        clickable: w.clickable,
        covered: w.covered,
        states,
        tag: w.tag.clone(),
        frame_tag: w.frame_tag.clone().filter(|t| !t.is_empty()),
        frame_box: w.frame_box.as_deref().and_then(|b| match b {
            [l, t, s] if [l, t, s].iter().all(|v| v.is_finite()) && *s > 0.0 => Some([*l, *t, *s]),
            _ => None,
        }),
        attrs: keep_attrs(w.attrs.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
        hidden: matches!(visibility, Some("hidden" | "collapse")) || (w.opacity == Some(0.0) && !role.is_actionable()),
        bounds,
        in_viewport,
        target: Target { backend_node_id: None, walk_index: Some(wi as i64) },
        role,
        ..Node::default()
    }
}
