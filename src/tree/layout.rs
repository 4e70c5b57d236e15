//! Layout facts from `DOMSnapshot.captureSnapshot`: per backend node, its DOM attributes,
//! computed visibility, viewport-relative bounds, and whether another element painted on
//! top of it covers its center (a modal backdrop, a fixed composer, an overlay).
//!
//! Owns: the join key (debugger session, backend node id) → facts, and occlusion; the
//! snapshot columns it has digested (it drops them: nothing reads them after it).
//! Must never: decide what is kept or rendered; it only answers questions about geometry.

use crate::input::{DocumentSnapshot, DomSnapshot, SessionSnapshot};
use rustc_hash::FxHashMap as HashMap;

/// Computed styles the extension must request, in this order (`computedStyles` param).
pub const COMPUTED_STYLES: [&str; 6] = ["display", "visibility", "opacity", "position", "pointer-events", "cursor"];
const S_DISPLAY: usize = 0;
const S_VISIBILITY: usize = 1;
const S_OPACITY: usize = 2;
const S_POSITION: usize = 3;
const S_POINTER_EVENTS: usize = 4;
const S_CURSOR: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn from_slice(b: &[f64]) -> Option<Rect> {
        if b.len() < 4 || b.iter().take(4).any(|v| !v.is_finite()) {
            return None;
        }
        Some(Rect { x: b[0], y: b[1], w: b[2].max(0.0), h: b[3].max(0.0) })
    }
    pub fn is_empty(&self) -> bool {
        self.w <= 0.0 || self.h <= 0.0
    }
    pub fn intersect(&self, o: &Rect) -> Option<Rect> {
        let x0 = self.x.max(o.x);
        let y0 = self.y.max(o.y);
        let x1 = (self.x + self.w).min(o.x + o.w);
        let y1 = (self.y + self.h).min(o.y + o.h);
        (x1 > x0 && y1 > y0).then(|| Rect { x: x0, y: y0, w: x1 - x0, h: y1 - y0 })
    }
    pub fn contains(&self, px: f64, py: f64) -> bool {
        px >= self.x && px < self.x + self.w && py >= self.y && py < self.y + self.h
    }
    pub fn offset(&self, dx: f64, dy: f64) -> Rect {
        Rect { x: self.x + dx, y: self.y + dy, ..*self }
    }
    /// This rect of a frame's document placed where the frame is painted: scaled by `scale`,
    /// then moved to the frame's origin (`dx`, `dy`).
    pub fn placed(&self, dx: f64, dy: f64, scale: f64) -> Rect {
        Rect { x: self.x * scale + dx, y: self.y * scale + dy, w: self.w * scale, h: self.h * scale }
    }
    /// Distance from this rect to another (0 when they overlap), on the vertical axis first.
    pub fn distance(&self, o: &Rect) -> f64 {
        let dy = if self.y + self.h < o.y { o.y - (self.y + self.h) } else if o.y + o.h < self.y { self.y - (o.y + o.h) } else { 0.0 };
        let dx = if self.x + self.w < o.x { o.x - (self.x + self.w) } else if o.x + o.w < self.x { self.x - (o.x + o.w) } else { 0.0 };
        dy + dx
    }
}

/// What the DOM snapshot says about one node. Strings stay in the snapshot's table.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    snap: &'a DomSnapshot,
    tag: i64,
    attrs: &'a [i64],
    /// Bounds in the coordinates of the document's own viewport (scroll removed).
    pub bounds: Option<Rect>,
    pub visibility_hidden: bool,
    /// Opacity 0 on this node or an ancestor.
    pub transparent: bool,
    /// Inside an `<input>`, `<textarea>` or `<select>` (their user-agent shadow content).
    pub in_field: bool,
    /// Click listeners (`isClickable`) or a `cursor: pointer` that starts at this node.
    pub clickable: bool,
    /// Its box breaks the inline flow (any display but `inline` and `contents`): text on
    /// either side of it renders apart.
    pub block: bool,
    /// A rendered whitespace-only text node is its previous / next DOM sibling. Chromium
    /// leaves such text out of the AX tree (`Por<!-- --> <span>Ann</span>`), so this is
    /// where the space between two runs is found.
    pub ws_before: bool,
    pub ws_after: bool,
    /// The box its text flows in (document, nearest block-level ancestor): text runs of
    /// two different boxes render apart even when Chromium's AX tree puts them side by side.
    pub flow: u64,
    pub doc: usize,
    pub index: usize,
}

impl<'a> Facts<'a> {
    /// Lowercase tag name.
    pub fn tag(&self) -> String {
        self.snap.string(self.tag).unwrap_or("").to_ascii_lowercase()
    }

    /// Attributes as the document has them (HTML attribute names are lowercase).
    pub fn attrs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        let snap = self.snap;
        self.attrs.chunks(2).filter_map(move |p| match p {
            [k, v] => Some((snap.string(*k)?, snap.string(*v)?)),
            _ => None,
        })
    }
}

struct Doc {
    /// Where it is: `snapshots[session].snapshot.documents[document]`.
    session: usize,
    document: usize,
    /// The number of its first node (the nodes of all documents are numbered in turn).
    start: usize,
    /// Per node index: what `Facts` says beyond the snapshot's own columns.
    packed: Vec<Packed>,
    parent: Vec<i64>,
    /// (paint order, bounds, node index) of positioned elements that take pointer events.
    occluders: Vec<(i64, Rect, usize)>,
    /// Paint order per node index (-1: not painted).
    paint: Vec<i64>,
}

/// One node's facts as kept (a `Facts` is made from it when asked): a map of full `Facts`
/// held 13.6 MiB of wasm on a 50k-node page, these columns and the index map about 5.
#[derive(Clone, Copy)]
struct Packed {
    /// x, y, width, height: single precision, as Chromium lays out (half the bytes).
    bounds: Option<[f32; 4]>,
    flags: u8,
    /// The document's index of its block box (`Facts::flow`'s low half).
    block: u32,
}

/// The boolean facts of `Packed::flags`, one bit each.
#[derive(Clone, Copy)]
enum Flag {
    Hidden,
    Transparent,
    InField,
    Clickable,
    Block,
    Element,
    WsBefore,
    WsAfter,
}

impl Packed {
    fn unpacked(&self) -> Option<Rect> {
        self.bounds.map(|[x, y, w, h]| Rect { x: x.into(), y: y.into(), w: w.into(), h: h.into() })
    }

    fn has(&self, f: Flag) -> bool {
        self.flags & (1 << f as u8) != 0
    }
}

/// Index over every captured document of every session.
pub struct Layout<'a> {
    snapshots: &'a [SessionSnapshot],
    /// (session, backend node id) → node number: its document's `start` + its node index.
    index: HashMap<(usize, i64), usize>,
    docs: Vec<Doc>,
}

impl<'a> Layout<'a> {
    /// Digests every document, then drops the snapshot columns nothing asks for again
    /// (styles, bounds, paint orders, node types and values: 10 MiB of a 50k-node page's
    /// peak); names, attributes and strings stay for `Facts`.
    pub fn new(snapshots: &'a mut [SessionSnapshot]) -> Layout<'a> {
        // Sized once: a map grown by doubling holds its old and new tables together.
        let nodes = snapshots.iter().flat_map(|s| &s.snapshot.documents).map(|d| d.nodes.backend_node_id.len()).sum();
        let mut index = HashMap::with_capacity_and_hasher(nodes, Default::default());
        let mut docs = Vec::new();
        for (si, s) in snapshots.iter_mut().enumerate() {
            for di in 0..s.snapshot.documents.len() {
                let start = docs.last().map(|d: &Doc| d.start + d.packed.len()).unwrap_or(0);
                docs.push(digest(&mut index, (si, di, start), &s.snapshot, &s.snapshot.documents[di]));
                let d = &mut s.snapshot.documents[di];
                d.layout = Default::default();
                let kept = (std::mem::take(&mut d.nodes.node_name), std::mem::take(&mut d.nodes.attributes));
                d.nodes = Default::default();
                (d.nodes.node_name, d.nodes.attributes) = kept;
            }
        }
        Layout { snapshots, index, docs }
    }
}

/// One document's facts, its parents, paint orders and occluders; its nodes entered in
/// `index` under (session, backend id). `at`: (session, document in it, its first node's number).
fn digest(index: &mut HashMap<(usize, i64), usize>, (session, document, start): (usize, usize, usize), snap: &DomSnapshot, d: &DocumentSnapshot) -> Doc {
    let n = d.nodes.parent_index.len().min(d.nodes.node_name.len());
    let mut doc = Doc {
        session,
        document,
        start,
        packed: vec![Packed { bounds: None, flags: 0, block: 0 }; n],
        parent: d.nodes.parent_index.iter().take(n).copied().collect(),
        occluders: Vec::new(),
        paint: vec![-1; n],
    };
    // Per node: layout row (styles + bounds).
    let mut styles: Vec<Option<&[i64]>> = vec![None; n];
    for (row, &ni) in d.layout.node_index.iter().enumerate() {
        let Ok(ni) = usize::try_from(ni) else { continue };
        if ni >= n {
            continue;
        }
        if styles[ni].is_none() {
            styles[ni] = d.layout.styles.get(row);
            doc.packed[ni].bounds = d.layout.bounds.get(row).and_then(Rect::from_slice).map(|r| {
                let r = r.offset(-d.scroll_offset_x, -d.scroll_offset_y);
                [r.x as f32, r.y as f32, r.w as f32, r.h as f32]
            });
            if let Some(&p) = d.layout.paint_orders.get(row) {
                doc.paint[ni] = p;
            }
        }
    }
    let style = |ni: usize, k: usize| -> Option<&str> { styles[ni].and_then(|s| s.get(k)).and_then(|&i| snap.string(i)) };
    // Effective opacity-0, computed top-down: parents come before children in the arrays.
    let mut transparent = vec![false; n];
    let mut in_field = vec![false; n];
    let is_field = |ni: usize| {
        snap.string(d.nodes.node_name[ni]).map(|t| ["input", "textarea", "select"].iter().any(|f| t.eq_ignore_ascii_case(f))).unwrap_or(false)
    };
    for ni in 0..n {
        let parent = usize::try_from(doc.parent[ni]).ok().filter(|&p| p < ni);
        let inherited_t = parent.map(|p| transparent[p]).unwrap_or(false);
        in_field[ni] = parent.map(|p| in_field[p] || is_field(p)).unwrap_or(false);
        transparent[ni] = inherited_t || style(ni, S_OPACITY).map(is_zero_number).unwrap_or(false);
    }
    let mut listeners = vec![false; n];
    for &i in &d.nodes.is_clickable.index {
        if let Some(slot) = usize::try_from(i).ok().and_then(|i| listeners.get_mut(i)) {
            *slot = true;
        }
    }
    let pointer = |ni: usize| style(ni, S_CURSOR) == Some("pointer");
    // Rendered whitespace-only text nodes mark their siblings (parents precede children,
    // so a node's previous sibling is the last child seen of its parent).
    let display = |ni: usize| style(ni, S_DISPLAY);
    let flow = crate::tree::flow::Flow::new(snap, d, &doc.parent, &|ni| doc.packed[ni].bounds.is_some(), &display);
    for ni in 0..n {
        let node_type = d.nodes.node_type.get(ni).copied().unwrap_or(0);
        let visibility = style(ni, S_VISIBILITY);
        let hidden = matches!(visibility, Some("hidden") | Some("collapse"));
        let clickable = node_type == 1
            && (listeners[ni] || (pointer(ni) && !usize::try_from(doc.parent[ni]).ok().filter(|&p| p < n).map(pointer).unwrap_or(false)));
        let block = node_type == 1 && style(ni, S_DISPLAY).map(crate::tree::flow::breaks_flow).unwrap_or(false);
        let bit = |on: bool, f: Flag| (on as u8) << f as u8;
        let flags = bit(hidden, Flag::Hidden)
            | bit(transparent[ni], Flag::Transparent)
            | bit(in_field[ni], Flag::InField)
            | bit(clickable, Flag::Clickable)
            | bit(block, Flag::Block)
            | bit(node_type == 1, Flag::Element)
            | bit(flow.space_before[ni], Flag::WsBefore)
            | bit(flow.space_after[ni], Flag::WsAfter);
        let packed = &mut doc.packed[ni];
        (packed.flags, packed.block) = (flags, flow.block[ni] as u32);
        let bounds = packed.unpacked();
        if node_type == 1 && styles[ni].is_some() {
            let positioned = matches!(style(ni, S_POSITION), Some("fixed" | "absolute" | "sticky"));
            let takes_pointer = style(ni, S_POINTER_EVENTS) != Some("none") && !hidden;
            if let (true, true, Some(b), p) = (positioned, takes_pointer, bounds, doc.paint[ni]) {
                if !b.is_empty() && p >= 0 {
                    doc.occluders.push((p, b, ni));
                }
            }
        }
        if let Some(&backend) = d.nodes.backend_node_id.get(ni) {
            index.insert((session, backend), start + ni);
        }
    }
    doc
}

/// What a change can alter in Chromium's AX tree besides the elements it touched, per backend
/// node of one session's snapshot (every document in it): whether the node has a layout
/// object, its `display` and `visibility`, and its layout text (generated text included), as
/// one hash; and each node's DOM parent. A style rule (`:checked ~`, `:hover`, a media query)
/// shows or hides elements no mutation names: `tree/ax_patch` finds them here.
#[derive(Debug, Clone, Default)]
pub struct Shapes {
    pub sig: HashMap<i64, u64>,
    pub parent: HashMap<i64, i64>,
}

pub fn shapes(snap: &DomSnapshot) -> Shapes {
    use std::hash::Hasher;
    let mut out = Shapes { sig: HashMap::default(), parent: HashMap::default() };
    for d in &snap.documents {
        let ids = &d.nodes.backend_node_id;
        for (ni, &p) in d.nodes.parent_index.iter().enumerate() {
            if let (Some(&b), Some(&pb)) = (ids.get(ni), usize::try_from(p).ok().and_then(|p| ids.get(p))) {
                out.parent.insert(b, pb);
            }
        }
        for (row, &ni) in d.layout.node_index.iter().enumerate() {
            let Some(&b) = usize::try_from(ni).ok().and_then(|ni| ids.get(ni)) else { continue };
            let styles = d.layout.styles.get(row).unwrap_or(&[]);
            let mut h = rustc_hash::FxHasher::default();
            h.write_u64(out.sig.get(&b).copied().unwrap_or(0));
            for &i in [styles.get(S_DISPLAY), styles.get(S_VISIBILITY), d.layout.text.get(row)].into_iter().flatten() {
                h.write(snap.string(i).unwrap_or("").as_bytes());
                h.write_u8(0xff);
            }
            out.sig.insert(b, h.finish());
        }
    }
    out
}

impl<'a> Layout<'a> {
    pub fn session_index(&self, session: &str) -> Option<usize> {
        self.snapshots.iter().position(|s| s.session == session)
    }

    pub fn facts(&self, session: usize, backend: i64) -> Option<Facts<'a>> {
        let &number = self.index.get(&(session, backend))?;
        let doc = self.docs.partition_point(|d| d.start <= number).checked_sub(1)?;
        Some(self.facts_at(doc, number - self.docs[doc].start))
    }

    fn facts_at(&self, doc: usize, index: usize) -> Facts<'a> {
        let d = &self.docs[doc];
        let p = d.packed[index];
        let snap = &self.snapshots[d.session].snapshot;
        let nodes = &snap.documents[d.document].nodes;
        Facts {
            snap,
            tag: nodes.node_name[index],
            attrs: nodes.attributes.get(index).unwrap_or(&[]),
            bounds: p.unpacked(),
            visibility_hidden: p.has(Flag::Hidden),
            transparent: p.has(Flag::Transparent),
            in_field: p.has(Flag::InField),
            clickable: p.has(Flag::Clickable),
            block: p.has(Flag::Block),
            ws_before: p.has(Flag::WsBefore),
            ws_after: p.has(Flag::WsAfter),
            flow: (doc as u64) << 32 | p.block as u64,
            doc,
            index,
        }
    }

    /// Is `a` an ancestor-or-self of `b` in the same document? Bounded walk.
    fn is_ancestor(&self, doc: usize, a: usize, mut b: usize) -> bool {
        let parents = &self.docs[doc].parent;
        for _ in 0..crate::budget::MAX_TREE_DEPTH * 4 {
            if a == b {
                return true;
            }
            match parents.get(b).and_then(|&p| usize::try_from(p).ok()) {
                Some(p) if p != b => b = p,
                _ => return false,
            }
        }
        false
    }

    /// Whether DOM node `node` lies inside DOM node `container` (both backend ids of one
    /// session's documents).
    pub fn is_inside(&self, session: usize, node: i64, container: i64) -> bool {
        match (self.facts(session, node), self.facts(session, container)) {
            (Some(n), Some(c)) => n.doc == c.doc && n.index != c.index && self.is_ancestor(c.doc, c.index, n.index),
            _ => false,
        }
    }

    /// Laid-out elements of `container`'s document that are neither inside it nor around it
    /// (what an open modal dialog hides).
    pub fn count_outside(&self, session: usize, container: i64) -> usize {
        let Some(c) = self.facts(session, container) else { return 0 };
        self.docs[c.doc]
            .packed
            .iter()
            .enumerate()
            .filter(|(i, f)| f.has(Flag::Element) && f.bounds.is_some() && !self.is_ancestor(c.doc, c.index, *i) && !self.is_ancestor(c.doc, *i, c.index))
            .count()
    }

    /// Whether a positioned element painted above `facts`' node covers its visible center.
    pub fn is_covered(&self, facts: &Facts<'_>, visible: &Rect) -> bool {
        let doc = &self.docs[facts.doc];
        let own = doc.paint.get(facts.index).copied().unwrap_or(-1);
        if own < 0 {
            return false;
        }
        let (cx, cy) = (visible.x + visible.w / 2.0, visible.y + visible.h / 2.0);
        doc.occluders.iter().any(|&(p, r, ni)| {
            p > own
                && r.contains(cx, cy)
                && !self.is_ancestor(facts.doc, ni, facts.index)
                && !self.is_ancestor(facts.doc, facts.index, ni)
        })
    }
}

/// `"0"`, `"0.0"`, `".0"`: a computed opacity of zero (no float parsing needed).
fn is_zero_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().any(|b| b == b'0') && s.bytes().all(|b| b == b'0' || b == b'.')
}
