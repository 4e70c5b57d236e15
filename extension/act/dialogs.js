// JavaScript dialogs (alert, confirm, prompt, beforeunload) of the tabs the debugger is
// attached to: CDP reports one as it opens (`Page.javascriptDialogOpening`, the Page domain
// is enabled on attach); the page is blocked until it is answered.
//
// Owns: which tab has an open dialog, and waking calls that wait on a tab when one opens.
// Must never: answer a dialog by itself (only `browser_dialog` does), or hold a dialog's
// text beyond its bound.

import { limits } from '../services/limits.js';

const open = new Map(); // tabId → {type, message, defaultPrompt?}
const waiters = new Map(); // tabId → Set of resolve functions

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.sessionId) return; // the tab's own target: frames share its dialogs
  if (method === 'Page.javascriptDialogOpening') {
    const d = { type: params.type, message: String(params.message ?? '').slice(0, limits.dialogMessageChars) };
    if (params.type === 'prompt') d.defaultPrompt = String(params.defaultPrompt ?? '').slice(0, limits.dialogMessageChars);
    open.set(source.tabId, d);
    for (const wake of waiters.get(source.tabId) ?? []) wake(d);
    waiters.delete(source.tabId);
  } else if (method === 'Page.javascriptDialogClosed') {
    open.delete(source.tabId);
  }
});
chrome.debugger.onDetach.addListener((source) => open.delete(source.tabId));
/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  open.delete(tabId);
}

/** The dialog open on a tab, or undefined. */
export function openDialog(tabId) {
  return open.get(tabId);
}

/** Resolves with the dialog when one opens on the tab; `cancel()` stops waiting. */
export function dialogOpens(tabId) {
  let wake;
  const promise = new Promise((resolve) => {
    wake = resolve;
    if (!waiters.has(tabId)) waiters.set(tabId, new Set());
    waiters.get(tabId).add(resolve);
  });
  return { promise, cancel: () => waiters.get(tabId)?.delete(wake) };
}

/** Marks the tab's dialog answered (the closing event follows). */
export function answered(tabId) {
  open.delete(tabId);
}
