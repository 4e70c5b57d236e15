// The options page: stores the Bridge token and port; the service worker reconnects when
// they change (extension/bridge.js).
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
