// What leaves the page as a file or a clipboard: browser_screenshot, browser_download,
// browser_downloads, browser_clipboard_read / _write.
// Owns: download paths under the download directory. Must never: return Base64 or a favicon
// to the model (the Bridge writes a screenshot's file), or an unscrubbed field value.
import { keepWorker } from '../services/bridge.js';
import { jsonText, ready } from '../services/core.js';
import { mainFrameOf, sessions, whilePainting } from '../read/debugger.js';
import { HINTS, fail } from '../services/errors.js';
import { formFields, scrubText } from '../read/evaluate.js';
import { assertOrigin } from '../services/consent.js';
import { assertReadable, handleOf, resolveTab } from '../services/handles.js';
import { imageTokens, movedMasks, projectTab, screenshotText, secretValues } from '../wasm/pcc.js';
import { answerOf, inject } from '../read/inject.js';
import { paintedTexts } from '../page/checks.js';
import { walkBoxes } from '../read/walker.js';
import { tabInfo, timeoutOf } from './common.js';
import { limits } from '../services/limits.js';
import { captureDom, refNode } from './observe.js';
import { rememberedSecrets } from '../services/secrets.js';

/** The boxes to cover on a capture of `region` (viewport coordinates, CSS px): the core's
 * plan from a walk of every frame and the secrets this session saw; throws when the page
 * cannot be walked. */
async function maskPlan(tab, region, marks, handle, held, main) {
  let obs;
  try {
    ({ obs } = await captureDom(tab, null));
  } catch (e) {
    fail('BROWSER_SCRIPT_FAILED', 'the screenshot could not be checked for secrets (the page could not be read)', 'read the page with browser_snapshot instead');
  }
  // The values of the sensitive fields now (the walk reads none of a password's), for the
  // copies the page shows of them, beside those this session saw before; and where the top
  // frame paints each field, for the core to cover the sensitive ones the tree leaves out.
  const fields = await answerOf(formFields(tab.id, limits, true));
  const now = Array.isArray(fields) ? secretValues(JSON.stringify(fields)) : [];
  const painted = Array.isArray(fields) ? fields.filter((f) => f.box).map(({ box: [x, y, width, height], cut, ...f }) => ({ ...f, x, y, width, height })) : [];
  // Every text the top frame paints over the region, with its glyphs' box: the state leaves
  // some out (behind a modal, aria-hidden, a closed shadow root, CSS-generated), the screen
  // does not. Past the limit, or unreadable, the capture is refused.
  const shown = await paintedOver(tab, region);
  if (!Array.isArray(shown?.texts)) fail('BROWSER_SCRIPT_FAILED', shown?.overflow ? 'the page paints more text than a screenshot can check for secrets' : 'the screenshot could not be checked for secrets (the page\'s text could not be read)', shown?.overflow ? 'capture a smaller region (an element by ref), or read the page with browser_snapshot' : 'read the page with browser_snapshot instead');
  const { collector } = await ready;
  const boxes = marks && held ? await heldBoxes(tab, main, collector.refsOf(held, handle)) : [];
  const secrets = [...(await rememberedSecrets()), ...now];
  const plan = collector.screenshotPlan(jsonText(obs), { ...region, marks, tab: handle, secrets, fields: painted, texts: shown.texts, ...(held ? { snapshotId: held, boxes } : {}) });
  return { plan, texts: shown.texts, secrets };
}

/** What the top frame paints over `region` (page/checks.js paintedTexts): `{texts}`,
 * `{overflow}`, or undefined when it could not be read. */
async function paintedOver(tab, region) {
  const [r] = await inject(tab.id, [0], paintedTexts, [region, limits.paintedTextsMax, limits.paintedTextChars]).catch(() => []);
  return r?.result;
}

/** The plan's masks and those of what moved since it was made (the texts read again now, after
 * the capture: core `movedMasks`); a page that cannot be read again fails closed. */
async function afterCapture(tab, region, { plan, texts, secrets }) {
  const again = await paintedOver(tab, region);
  if (!Array.isArray(again?.texts)) fail('BROWSER_SCRIPT_FAILED', 'the screenshot could not be checked for secrets (the page changed while it was taken)', 'take the screenshot again');
  const moved = movedMasks(texts, again.texts, secrets, region.x, region.y, region.width, region.height);
  return moved.length ? { ...plan, masks: [...plan.masks, ...moved] } : plan;
}

/**
 * Where the elements of a held state's refs are now, in the top frame's viewport (CSS px):
 * walk refs of the top frame in one injection, accessibility refs of the top frame by their
 * box model. A ref in a frame, or one whose element is gone, has no box (the core counts it).
 */
async function heldBoxes(tab, main, refs) {
  const out = [];
  const box = (ref, [x, y, width, height]) => out.push({ ref, x, y, width, height });
  const walks = new Map();
  const ax = [];
  // (An accessibility ref's box model is its own frame's: only the top frame's are placed.)
  const top = mainFrameOf(tab.id);
  for (const [ref, t] of refs) {
    if (t.walkIndex !== undefined && !Number(t.frameId)) walks.set(t.walkId, [...(walks.get(t.walkId) ?? []), [ref, t.walkIndex]]);
    else if (t.walkIndex === undefined && t.session === main.session && t.frameId === top && t.backendNodeId) ax.push([ref, t.backendNodeId]);
  }
  for (const [walkId, list] of walks) {
    const [res] = await inject(tab.id, [0], walkBoxes, [walkId, list.map(([, i]) => i)]).catch(() => []);
    list.forEach(([ref], k) => { const r = res?.result?.[k]; if (r) box(ref, r); });
  }
  await Promise.all(ax.map(async ([ref, backendNodeId]) => {
    const q = (await main.send('DOM.getBoxModel', { backendNodeId }).catch(() => null))?.model?.border;
    if (!q) return;
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    box(ref, [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)]);
  }));
  return out;
}

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * The image a screenshot answers with, from the captured PNG `data` (Base64; a region
 * `cssWidth` CSS px wide): the plan's masks covered by opaque boxes and its marks drawn (each
 * ref's box and label), on the image in the worker — the page sees nothing — scaled to
 * `maxEdge` at most and encoded as `format` (JPEG and WebP at `quality`, 1–100). `{mimeType, data, facts: {width, height, bytes,
 * format, tokens}}`.
 */
async function finished(data, plan, cssWidth, { maxEdge, format, quality }) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  // The PNG's size from its header (IHDR: width and height, big-endian, at bytes 16 and 20):
  // an image sent as it was captured is never decoded.
  const png = new DataView(bytes.buffer);
  const [pw, ph] = [png.getUint32(16), png.getUint32(20)];
  const scale = Math.min(1, maxEdge / Math.max(pw, ph));
  const [w, h] = [Math.max(1, Math.round(pw * scale)), Math.max(1, Math.round(ph * scale))];
  const facts = (n) => ({ width: w, height: h, bytes: n, format, tokens: imageTokens(w, h) });
  if (scale === 1 && format === 'png' && !plan.masks.length && !plan.marks.length) return { mimeType: MIME.png, data, facts: facts(bytes.length) };
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(w, h);
  const g = canvas.getContext('2d');
  g.drawImage(bitmap, 0, 0, w, h);
  const k = w / cssWidth; // image pixels per CSS pixel
  g.fillStyle = '#000';
  for (const m of plan.masks) g.fillRect(Math.floor(m.x * k), Math.floor(m.y * k), Math.ceil(m.width * k) + 1, Math.ceil(m.height * k) + 1);
  drawMarks(g, plan.marks, k);
  const out = new Uint8Array(await (await canvas.convertToBlob({ type: MIME[format], quality: quality / 100 })).arrayBuffer());
  let text = '';
  for (let i = 0; i < out.length; i += 0x8000) text += String.fromCharCode(...out.subarray(i, i + 0x8000));
  return { mimeType: MIME[format], data: btoa(text), facts: facts(out.length) };
}

/** Each mark's box and its label's, as the core placed them (`k` image px per CSS px). */
function drawMarks(g, marks, k) {
  const font = limits.markFontPx * k;
  g.font = `bold ${font}px sans-serif`;
  g.lineWidth = Math.max(1, Math.round(k * 2));
  for (const m of marks) {
    g.strokeStyle = '#e0007a';
    g.strokeRect(m.x * k, m.y * k, m.width * k, m.height * k);
    g.fillStyle = '#e0007a';
    g.fillRect(m.tag.x * k, m.tag.y * k, m.tag.width * k, m.tag.height * k);
    g.fillStyle = '#fff';
    g.fillText(m.ref, m.tag.x * k + font / 4, m.tag.y * k + font);
  }
}

/** One download as the model sees it: the file's name and path, its state, the URL redacted. */
function downloadRow(d) {
  const url = projectTab(JSON.stringify({ id: 0, title: '', url: d.finalUrl || d.url })).url;
  const name = String(d.filename || '').split(/[\\/]/).pop().slice(0, limits.downloadNameChars);
  return {
    id: d.id, name, state: d.state, bytes: d.bytesReceived, ...(d.totalBytes > 0 ? { totalBytes: d.totalBytes } : {}),
    ...(d.error ? { error: d.error } : {}), ...(d.filename ? { path: d.filename.slice(0, limits.downloadPathChars) } : {}), url,
  };
}

/**
 * Downloads `url` to `filename` under the browser's download directory (its own name when
 * absent; a taken name gets a number), and waits up to `timeout` for it to finish: the row of
 * `browser_downloads`, `in_progress` when it is still running.
 */
async function browserDownload(params, signal) {
  let url;
  try {
    url = new URL(params.url);
  } catch {
    fail('INVALID_REQUEST', 'url must be an absolute URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) fail('INVALID_REQUEST', 'only http(s) URLs are downloaded');
  assertOrigin(url.href);
  const name = params.filename;
  if (name !== undefined && (typeof name !== 'string' || !name || name.startsWith('/') || /^[a-z]:/i.test(name) || name.split(/[\\/]/).some((p) => p === '..' || p === '.' || !p))) {
    fail('INVALID_REQUEST', 'filename is a relative path under the download directory (no "..", no absolute path)');
  }
  let id;
  try {
    id = await chrome.downloads.download({ url: url.href, ...(name ? { filename: name } : {}), conflictAction: 'uniquify', saveAs: false });
  } catch (e) {
    fail('INVALID_REQUEST', `the download was refused: ${String(e.message).slice(0, limits.causeChars)}`);
  }
  const until = Date.now() + timeoutOf(params);
  let [d] = await chrome.downloads.search({ id });
  while (d?.state === 'in_progress' && Date.now() < until && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, limits.pollMs));
    [d] = await chrome.downloads.search({ id });
  }
  return d ? downloadRow(d) : { id, state: 'interrupted' };
}

/**
 * `browser_downloads`: the newest downloads (at most 20; `tabId` narrows to those a tab's
 * page started, by its URL's origin): name, bytes, state, where the file is; URLs pass the
 * core's URL redaction. A clicked download goes where Chrome decides (its download
 * directory); `browser_download` names the file under it.
 */
async function browserDownloads(params) {
  if (params.maxEntries !== undefined && (!Number.isInteger(params.maxEntries) || params.maxEntries < 1)) fail('INVALID_REQUEST', 'maxEntries is a positive integer');
  const limit = Math.min(params.maxEntries ?? limits.downloadsMax, limits.downloadsMax);
  const items = await chrome.downloads.search({ orderBy: ['-startTime'], limit });
  const downloads = items.map(downloadRow);
  return { downloads, count: downloads.length };
}

/** The clipboard through the keeper document (keeper.js). */
async function clipboard(message) {
  await keepWorker();
  const r = await chrome.runtime.sendMessage({ type: 'pcc-clipboard', ...message }).catch(() => null);
  if (!r?.ok) fail('BROWSER_PAGE_UNAVAILABLE', 'the clipboard could not be reached', 'retry; the browser may not allow clipboard access right now');
  return r;
}

/** The clipboard's text: page-derived, bounded, scrubbed of the active tab's sensitive field values. */
async function browserClipboardRead() {
  await ready;
  const { text } = await clipboard({ op: 'read' });
  const active = await resolveTab(undefined).catch(() => null);
  const fields = active ? await formFields(active.id, limits).catch(() => null) : null;
  const cut = String(text ?? '').slice(0, limits.clipboardChars);
  const content = fields ? scrubText(cut, fields) : cut;
  return { content, ...(String(text ?? '').length > cut.length ? { truncated: true } : {}) };
}

async function browserClipboardWrite(params) {
  await ready;
  if (params.text.length > limits.clipboardChars) fail('INVALID_REQUEST', `text is longer than ${limits.clipboardChars} characters`);
  await clipboard({ op: 'write', text: params.text });
  return { ok: true };
}

/**
 * `browser_screenshot`: the viewport; `fullPage` the whole document (from its top, at most
 * `screenshotMaxPx` tall: beyond, `truncated`); `ref` + `snapshotId` one element's border box.
 */
async function browserScreenshot(params, signal) {
  // A local file is the caller's machine's business: pcc, its MCP server and the pi tools
  // write it (bridge/src/files.rs); the worker only returns the image.
  if (params.path !== undefined) fail('INVALID_REQUEST', 'path is written by pcc, its MCP server and the pi tools, not by the extension', 'call through the Bridge, or save the attachment yourself');
  if (params.fullPage && params.ref !== undefined) fail('INVALID_REQUEST', 'pass fullPage or ref, not both');
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  const [main] = all;
  const handle = await handleOf(tab, main);
  let clip;
  let truncated = false;
  let metrics; // the page's layout metrics once the element is in view (one ask)
  if (params.ref !== undefined) {
    const { session, backendNodeId } = await refNode(all, handle, params.snapshotId, params.ref);
    if (session !== main) fail('INVALID_REQUEST', 'that element is inside a cross-origin frame', 'take a screenshot of the viewport instead');
    await main.send('DOM.scrollIntoViewIfNeeded', { backendNodeId }).catch(() => {});
    const box = await main.send('DOM.getBoxModel', { backendNodeId }).catch(() => null);
    const q = box?.model?.border;
    if (!q) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} has no box (hidden or gone)`, HINTS.BROWSER_STALE_REF);
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    metrics = await main.send('Page.getLayoutMetrics');
    const v = metrics.cssVisualViewport;
    clip = { x: Math.min(...xs) + v.pageX, y: Math.min(...ys) + v.pageY, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys), scale: 1 };
    if (clip.width < 1 || clip.height < 1) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} has no box (hidden or gone)`, HINTS.BROWSER_STALE_REF);
  } else {
    metrics = await main.send('Page.getLayoutMetrics');
  }
  if (params.fullPage) {
    const c = metrics.cssContentSize;
    const max = limits.screenshotMaxPx;
    truncated = c.height > max;
    clip = { x: 0, y: 0, width: Math.min(c.width, max), height: Math.min(c.height, max), scale: 1 };
  }
  // What the text state would redact, boxed (the core's plan from a walk of every frame):
  // covered on the captured image, never in the page. A page the walk cannot read is not
  // captured (closed: its secrets could not be found).
  const { cssVisualViewport: v, cssLayoutViewport: lv } = metrics;
  const region = clip ? { x: clip.x - v.pageX, y: clip.y - v.pageY, width: clip.width, height: clip.height } : { x: 0, y: 0, width: lv.clientWidth, height: lv.clientHeight };
  // Marks of a state the model holds (`snapshotId`), or of a fresh one.
  const planned = await maskPlan(tab, region, params.marks === true, handle, params.marks === true ? params.snapshotId : undefined, main);
  // A tab that paints no frame (in the background, a covered or minimized window) paints
  // while it is captured (debugger.js whilePainting).
  const { data } = await whilePainting(tab, () => main.send('Page.captureScreenshot', { format: 'png', ...(clip ? { clip, captureBeyondViewport: true } : {}) }));
  // No motion between the plan and the pixels: a copy that moved meanwhile is covered over
  // both places.
  const plan = await afterCapture(tab, region, planned);
  const image = await finished(data, plan, region.width, { maxEdge: Math.min(params.maxEdge ?? limits.screenshotMaxEdgePx, limits.screenshotMaxPx), format: params.format ?? 'png', quality: params.quality ?? limits.screenshotQuality });
  const out = { text: screenshotText(tab.id, plan.snapshotId, plan.unmarked), attachment: { mimeType: image.mimeType, data: image.data }, tab: tabInfo(tab), image: image.facts };
  if (truncated) out.truncated = true;
  // The refs the marks show: a state of their own, to act on.
  // (The marks' boxes, CSS px of the image's region, for a host that draws or checks them: the
  // model text is the sentence alone.)
  if (plan.snapshotId) Object.assign(out, { snapshotId: plan.snapshotId, marks: plan.marks.map(({ ref, x, y, width, height }) => ({ ref, x, y, width, height })), ...(plan.unmarked ? { unmarked: plan.unmarked } : {}) });
  return out;
}

export const transferTools = {
  browser_screenshot: browserScreenshot,
  browser_download: browserDownload,
  browser_downloads: browserDownloads,
  browser_clipboard_read: browserClipboardRead,
  browser_clipboard_write: browserClipboardWrite,
};
