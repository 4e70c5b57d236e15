// Script tools: browser_evaluate (the page-side bounded serializer, the evaluate scrub) and
// browser_cdp (an allow-list of CDP methods that emulate, throttle or measure).
// Owns: the allow-list. Must never: send a CDP method off it, or act on a tab the agent does
// not own or hold a claim on.
import { ready } from '../services/core.js';
import { sessions } from '../read/debugger.js';
import { fail } from '../services/errors.js';
import { evaluateIn, formFields, scrubText } from '../read/evaluate.js';
import { assertReadable, handleOf, resolveTab } from '../services/handles.js';
import { assertMayAct } from '../services/ownership.js';
import { isNavigationError } from '../read/reads.js';
import { tabInfo, timeoutOf } from './common.js';
import { limits } from '../services/limits.js';

async function browserEvaluate(params, signal) {
  if (!params.expression.trim()) fail('INVALID_REQUEST', 'expression must not be empty');
  if (params.expression.length > limits.expressionMaxChars) fail('INVALID_REQUEST', `expression is longer than ${limits.expressionMaxChars} characters`);
  const timeout = timeoutOf(params);
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal).catch((e) => (signal?.aborted ? Promise.reject(e) : fail('BROWSER_PAGE_UNAVAILABLE', 'the debugger is not available on this tab', 'close DevTools on this tab')));
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  let result;
  try {
    result = await evaluateIn(all[0], tab.id, params, timeout);
  } catch (e) {
    // The script ran (or started): its effects are unknown when the document went away.
    if (!e.code && isNavigationError(e)) fail('BROWSER_OPERATION_UNCERTAIN', 'the page navigated while the expression ran');
    if (e.code === 'BROWSER_SCRIPT_FAILED' && isNavigationError(e.message)) fail('BROWSER_OPERATION_UNCERTAIN', 'the page navigated while the expression ran');
    throw e;
  }
  return { tab: tabInfo(tab, handle), ...result };
}

/**
 * `browser_cdp`: the CDP methods an expert may send (agent-owned or claimed tabs only). Each
 * can only change how the page is emulated, throttled or loaded, or read layout and
 * metrics: nothing that reads the DOM, storage, cookies, network bodies or field values,
 * runs script or dispatches input (those have their own guarded tools).
 */
const CDP_ALLOWED = [
  /^Emulation\.(setDeviceMetricsOverride|clearDeviceMetricsOverride|setGeolocationOverride|clearGeolocationOverride|setEmulatedMedia|setTimezoneOverride|setLocaleOverride|setUserAgentOverride|setTouchEmulationEnabled|setCPUThrottlingRate|setIdleOverride|clearIdleOverride|setEmulatedVisionDeficiency)$/,
  /^Network\.(emulateNetworkConditions|setCacheDisabled|setBlockedURLs)$/,
  /^Page\.(getLayoutMetrics|getNavigationHistory|reload|stopLoading|bringToFront)$/,
  /^Performance\.(enable|disable|getMetrics)$/,
];

async function browserCdp(params, signal) {
  if (!CDP_ALLOWED.some((re) => re.test(params.method))) {
    fail('INVALID_REQUEST', `CDP method ${String(params.method).slice(0, limits.echoChars)} is not allowed`, 'allowed: Emulation overrides, Network.emulateNetworkConditions/setCacheDisabled/setBlockedURLs, Page.getLayoutMetrics/getNavigationHistory/reload/stopLoading/bringToFront, Performance metrics');
  }
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  await assertMayAct(tab, params, await handleOf(tab, all[0]));
  const result = await all[0].send(params.method, params.params ?? {}).catch((e) => fail('INVALID_REQUEST', `CDP said: ${String(e.message).slice(0, limits.causeChars)}`, 'check the method parameters'));
  // The answer is bounded and passes the evaluate scrub like any page value.
  const text = JSON.stringify(result ?? {});
  await ready;
  const fields = await formFields(tab.id, limits);
  if (!fields) fail('BROWSER_SCRIPT_FAILED', 'could not check the result for sensitive values', 'retry once the page has loaded');
  return { ok: true, tab: tabInfo(tab), result: scrubText(text.slice(0, limits.cdpResultChars), fields), ...(text.length > limits.cdpResultChars ? { truncated: true } : {}) };
}

export const scriptTools = { browser_evaluate: browserEvaluate, browser_cdp: browserCdp };
