// Raw observation capture over CDP. Glue only: it asks Chromium for the accessibility tree
// of every frame, one DOMSnapshot per debugger session and the frame owners, and bundles
// them into the observation envelope the wasm core decodes. It filters nothing, budgets
// nothing and renders nothing; of each AX node it keeps only the fields the core reads
// (`lean`): half the tree's bytes to stringify, copy into wasm and parse.
//
// `targets` is the list of debugger sessions of one tab: the tab's own target first
// (`session: ""`), then one per out-of-process iframe (`session: <sessionId>`, `frameId`).
// Each has `send(method, params) → Promise<result>`. The same code runs in the extension
// (chrome.debugger) and in the fixture capture script (a Playwright CDP session).

/**
 * @returns {Promise<object>} the observation envelope (see ARCHITECTURE.md), or null.
 *
 * With `roots` (an AX read after a change the page placed, issue #37 item 1): no AX tree of
 * any frame, and `axPatch` instead — per changed element of the main frame (`roots(main)` →
 * `{subtrees, nodes}` of Runtime object ids, or null when the page cannot place its changes:
 * the answer is then null), its AX ancestors (`getAXNodeAndAncestors`) and, for a changed
 * subtree, its AX subtree (`Accessibility.queryAXTree`). The core patches the trees it holds from the key's last read
 * (src/tree/ax_patch.rs), or refuses.
 */
export async function captureObservation(targets, computedStyles, roots = null) {
  const main = targets[0];
  // (The main target's metrics, domains and frame tree asked at once.)
  const [metrics, mainTree] = await Promise.all([main.send('Page.getLayoutMetrics'), main.send('Page.getFrameTree'), enable(main)]);
  const vp = metrics.cssLayoutViewport || metrics.layoutViewport || {};
  const obs = {
    url: '',
    title: '',
    viewport: { width: vp.clientWidth || 0, height: vp.clientHeight || 0 },
    frames: [],
    snapshots: [],
  };
  // Frames that are the root of an out-of-process target are captured there, not in main.
  const oopifRoots = new Set(targets.slice(1).map((t) => t.frameId));
  const ownerOf = new Map(); // frameId → target that hosts the frame's parent document
  const parentOf = new Map();

  // Every target's frame tree at once; walked in target order (a target's frames hang from
  // the frame an earlier target's walk found); then every target read at once, and its frames
  // and snapshot put in target order (a frame after its parent).
  const trees = await Promise.all(targets.map((t) => (t === main ? mainTree : Promise.all([t.send('Page.getFrameTree'), enable(t)]).then(([tree]) => tree))));
  const framesOf = targets.map((t, ti) => {
    const { frameTree } = trees[ti];
    const frames = [];
    const walk = (node, parentId) => {
      const id = node.frame.id;
      const isOtherTargetRoot = t !== main ? false : oopifRoots.has(id);
      if (isOtherTargetRoot) {
        parentOf.set(id, parentId);
        ownerOf.set(id, t);
        return;
      }
      frames.push({ frameId: id, parentFrameId: parentId ?? node.frame.parentId ?? null, url: node.frame.url || '' });
      for (const child of node.childFrames || []) {
        parentOf.set(child.frame.id, id);
        ownerOf.set(child.frame.id, t);
        walk(child, id);
      }
    };
    walk(frameTree, t === main ? null : parentOf.get(t.frameId) ?? frameTree.frame.parentId ?? null);
    return frames;
  });
  obs.url = trees[0].frameTree.frame.url || '';
  const failed = (e) => ({ error: String(e && e.message || e) });
  const read = await Promise.all(targets.map(async (t, ti) => {
    const frames = framesOf[ti];
    const [snapshot, ...axs] = await Promise.all([
      t.send('DOMSnapshot.captureSnapshot', { computedStyles, includePaintOrder: true }).catch(failed),
      ...(roots ? [t === main ? roots(main) : null] : frames.map((f) => t.send('Accessibility.getFullAXTree', { frameId: f.frameId }).catch(failed))),
    ]);
    let patch;
    if (roots && t === main && axs[0]) {
      const { subtrees, nodes } = axs[0];
      patch = { frameId: frames[0]?.frameId ?? '', roots: await Promise.all([...subtrees.map((id) => patchRoot(main, id, true)), ...nodes.map((id) => patchRoot(main, id, false))]) };
    }
    return { snapshot, axs, patch };
  }));
  if (roots && !read[0].patch) return null;
  targets.forEach((t, ti) => {
    const { snapshot, axs, patch } = read[ti];
    if (!snapshot.error) obs.snapshots.push({ session: t.session, snapshot });
    if (patch) obs.axPatch = patch;
    framesOf[ti].forEach((f, i) => {
      const ax = roots ? {} : axs[i];
      const frame = { ...f, session: t.session };
      if (ax.error) frame.error = 'accessibility tree unavailable';
      else if (!roots) frame.ax = lean(ax);
      obs.frames.push(frame);
    });
  });
  // Verified parent relation: the <iframe> element that owns each child frame.
  await Promise.all(obs.frames.filter((f) => f.parentFrameId).map(async (f) => {
    const host = ownerOf.get(f.frameId) || main;
    try {
      const { backendNodeId } = await host.send('DOM.getFrameOwner', { frameId: f.frameId });
      f.ownerBackendNodeId = backendNodeId;
    } catch {
      // Left unverified: the core shows a warning line instead of the frame.
    }
  }));
  const doc = obs.snapshots[0]?.snapshot;
  if (doc && doc.documents?.[0]) obs.title = doc.strings[doc.documents[0].title] || '';
  return obs;
}

/** The domains a capture reads, enabled (a target without one is read without it). */
const enable = (t) => Promise.all([t.send('DOM.enable').catch(() => {}), t.send('Accessibility.enable').catch(() => {})]);

/** One changed element (a Runtime object id): its backend id, its AX ancestors (itself
 * first) and, when its `whole` subtree changed, its AX subtree. */
async function patchRoot(main, objectId, whole) {
  const [{ node }, ancestors, subtree] = await Promise.all([
    main.send('DOM.describeNode', { objectId }),
    main.send('Accessibility.getAXNodeAndAncestors', { objectId }),
    whole ? main.send('Accessibility.queryAXTree', { objectId }) : null,
  ]);
  // An element Chromium's tree leaves out (an inline <b> or <span>: its text hangs from the
  // paragraph) has no subtree of its own there: its nearest ancestor that is in it stands in.
  const up = whole && !subtree.nodes?.some((n) => n.backendDOMNodeId === node.backendNodeId)
    && ancestors.nodes?.find((n) => !n.ignored && n.backendDOMNodeId && n.backendDOMNodeId !== node.backendNodeId);
  if (up) {
    const backendNodeId = up.backendDOMNodeId;
    const [outer, inner] = await Promise.all([
      main.send('Accessibility.getAXNodeAndAncestors', { backendNodeId }),
      main.send('Accessibility.queryAXTree', { backendNodeId }),
    ]);
    return { backendNodeId, whole, subtree: lean(inner), ancestors: lean(outer) };
  }
  return { backendNodeId: node.backendNodeId, whole, subtree: subtree ? lean(subtree) : { nodes: [] }, ancestors: lean(ancestors) };
}

const valueOf = (v) => (v ? { value: v.value } : undefined);

/**
 * An AX tree with the fields src/input/ax.rs reads, and no others: not `chromeRole`, the
 * `type`, `sources` (how a name was computed) or `relatedNodes` of values, or ignored reasons
 * other than the modal dialog's. Built as new objects (deleting fields makes V8 stringify
 * them slower than the whole tree: 72 vs 56–65 ms on the long-session tree, against 24–32 ms
 * built so, at 2.5 MB instead of 4.9).
 */
function lean(ax) {
  return {
    nodes: (ax.nodes ?? []).map((n) => {
      const o = {
        nodeId: n.nodeId, ignored: n.ignored, role: valueOf(n.role), name: valueOf(n.name), value: valueOf(n.value),
        properties: n.properties?.map((p) => ({ name: p.name, value: valueOf(p.value) })),
        parentId: n.parentId, childIds: n.childIds, backendDOMNodeId: n.backendDOMNodeId, frameId: n.frameId,
      };
      const modal = n.ignoredReasons?.filter((r) => r.name === 'activeModalDialog');
      if (modal?.length) o.ignoredReasons = modal;
      return o;
    }),
  };
}
