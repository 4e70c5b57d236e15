// The options page: stores the Bridge token and port (the service worker reconnects when
// they change: extension/services/bridge.js) and the person's consent and origin policy (consent.js).
import { consentLoaded, policy, setPolicy } from '../services/consent.js';

const $ = (id) => document.getElementById(id);
const { bridgePort } = await chrome.storage.local.get('bridgePort');
if (Number.isInteger(bridgePort)) $('port').value = bridgePort;
$('save').addEventListener('click', async () => {
  const token = $('token').value.trim();
  const port = $('port').value ? Number($('port').value) : undefined;
  if (token && !/^[0-9a-f]{32,128}$/.test(token)) return void ($('status').textContent = 'That is not a token printed by pcc pair.');
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) return void ($('status').textContent = 'The port is 1–65535.');
  await chrome.storage.local.set({ ...(token ? { bridgeToken: token } : {}), ...(port ? { bridgePort: port } : {}) });
  $('token').value = '';
  $('status').textContent = 'Saved; the extension reconnects.';
});

await consentLoaded();
const lines = (id) => $(id).value.split('\n').map((l) => l.trim()).filter(Boolean);
const shown = policy();
$('read-user-tabs').value = shown.readUserTabs;
$('sites').value = shown.sites.join('\n');
$('allowed').value = shown.allowedOrigins.join('\n');
$('blocked').value = shown.blockedOrigins.join('\n');
$('allow-local').checked = shown.allowLocal;
$('save-policy').addEventListener('click', async () => {
  try {
    await setPolicy({ readUserTabs: $('read-user-tabs').value, sites: lines('sites'), allowedOrigins: lines('allowed'), blockedOrigins: lines('blocked'), allowLocal: $('allow-local').checked });
    $('policy-status').textContent = 'Saved.';
  } catch (e) {
    $('policy-status').textContent = e.message;
  }
});
