// Raw observation capture over CDP. Glue only: it asks Chromium for the accessibility tree
// of every frame, one DOMSnapshot per debugger session and the frame owners, and bundles
// them into the observation envelope the wasm core decodes. It filters nothing, budgets
// nothing and renders nothing; it only leaves out of each AX node the fields the core never
// reads (`lean`), which are a third of the tree's bytes.
//
// `targets` is the list of debugger sessions of one tab: the tab's own target first
// (`session: ""`), then one per out-of-process iframe (`session: <sessionId>`, `frameId`).
// Each has `send(method, params) → Promise<result>`. The same code runs in the extension
// (chrome.debugger) and in the fixture capture script (a Playwright CDP session).

/** @returns {Promise<object>} the observation envelope (see ARCHITECTURE.md). */
export async function captureObservation(targets, computedStyles) {
  const main = targets[0];
  const metrics = await main.send('Page.getLayoutMetrics');
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

  for (const t of targets) {
    await Promise.all([
      t.send('DOM.enable').catch(() => {}),
      t.send('Accessibility.enable').catch(() => {}),
    ]);
    const { frameTree } = await t.send('Page.getFrameTree');
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
    if (t === main) {
      obs.url = frameTree.frame.url || '';
    }
    const [snapshot, ...axs] = await Promise.all([
      t.send('DOMSnapshot.captureSnapshot', { computedStyles, includePaintOrder: true }).catch((e) => ({ error: String(e && e.message || e) })),
      ...frames.map((f) => t.send('Accessibility.getFullAXTree', { frameId: f.frameId }).catch((e) => ({ error: String(e && e.message || e) }))),
    ]);
    if (!snapshot.error) obs.snapshots.push({ session: t.session, snapshot });
    frames.forEach((f, i) => {
      const ax = axs[i];
      const frame = { ...f, session: t.session };
      if (ax.error) frame.error = 'accessibility tree unavailable';
      else frame.ax = lean(ax);
      obs.frames.push(frame);
    });
  }
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

/**
 * An AX tree without what src/input/ax.rs skips: `chromeRole`, the `type`, `sources` and
 * `relatedNodes` of values (how a name was computed: ~18% of the bytes), and ignored reasons
 * other than the modal dialog's. Fewer bytes to stringify, copy into wasm and parse; the same decoded tree.
 */
function lean(ax) {
  for (const n of ax.nodes ?? []) {
    delete n.chromeRole;
    for (const v of [n.role, n.name, n.value]) {
      if (v) {
        delete v.type;
        delete v.sources;
      }
    }
    for (const prop of n.properties ?? []) {
      if (prop.value) {
        delete prop.value.type;
        delete prop.value.relatedNodes;
      }
    }
    if (n.ignoredReasons) {
      const modal = n.ignoredReasons.filter((r) => r.name === 'activeModalDialog');
      if (modal.length) n.ignoredReasons = modal;
      else delete n.ignoredReasons;
    }
  }
  return ax;
}
