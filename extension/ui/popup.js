// The toolbar popup: the person lets the agent read the tab they are looking at, or its site,
// takes that back, and chooses how far the agent may read their tabs (consent.js). Only this
// page and the options page change consent: no tool call can.
// Owns: the popup's controls. Must never: grant anything the person did not click.
import { consentLoaded, grantTab, mayRead, policy, revokeTab, setPolicy, tabGranted } from '../services/consent.js';
import { ownerOf } from '../services/ownership.js';

const $ = (id) => document.getElementById(id);
await consentLoaded();
// The tab the popup is about: the active tab of the window it opened over (`?tab=` when the
// page is opened as a tab of its own, as the tests do).
const asked = Number(new URLSearchParams(location.search).get('tab'));
const [tab] = Number.isInteger(asked) && asked > 0 ? [await chrome.tabs.get(asked)] : await chrome.tabs.query({ active: true, lastFocusedWindow: true });
const owner = tab && await ownerOf(tab.id);
let site = null;
try {
  const u = new URL(tab?.url || '');
  if (['http:', 'https:'].includes(u.protocol)) site = u.origin;
} catch { /* a browser page: no site to grant */ }

function render() {
  const p = policy();
  $('site').textContent = site ?? tab?.url ?? 'no tab';
  $('read-user-tabs').value = p.readUserTabs;
  const granted = !!tab && tabGranted(tab.id, tab.url || '');
  const siteGranted = !!site && p.sites.includes(site);
  $('state').textContent = owner === 'agent' ? 'The agent opened this tab: it reads it.'
    : owner === 'claimed' ? 'The agent claimed this tab.'
    : mayRead(tab ?? {}, owner) ? 'The agent may read this tab.' : 'The agent may not read this tab.';
  $('grant-tab').hidden = !tab || !!owner || granted || p.readUserTabs !== 'granted';
  $('grant-site').hidden = !site || !!owner || siteGranted || p.readUserTabs !== 'granted';
  $('revoke').hidden = !granted && !siteGranted;
}

$('grant-tab').addEventListener('click', async () => {
  await grantTab(tab.id, tab.url);
  render();
});
$('grant-site').addEventListener('click', async () => {
  await setPolicy({ sites: [...new Set([...policy().sites, site])] });
  render();
});
$('revoke').addEventListener('click', async () => {
  await revokeTab(tab.id);
  if (site) await setPolicy({ sites: policy().sites.filter((s) => s !== site) });
  render();
});
$('read-user-tabs').addEventListener('change', async (e) => {
  await setPolicy({ readUserTabs: e.target.value });
  render();
});
render();
// How the link to the local Bridge stands, in the worker's words (bridge.js linkSummary).
chrome.runtime.sendMessage({ type: 'pcc-link' }).then((s) => { $('link').textContent = s?.text ?? ''; }, () => {});
