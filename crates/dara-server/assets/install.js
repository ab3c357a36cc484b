// The header's offer to install the Arcade as an app, once the browser allows it (offline.js
// hears `beforeinstallprompt`): one button, which opens the browser's own prompt, gone once
// the app is installed.
import { t } from './i18n.js';

export function offerInstall(event) {
  const nav = document.querySelector('header.top nav');
  if (!nav) return;
  let button = document.getElementById('install');
  if (!button) {
    button = document.createElement('button');
    button.id = 'install';
    button.type = 'button';
    button.className = 'link install';
    nav.append(' ', button);
  }
  button.textContent = t('common.install');
  button.hidden = false;
  button.onclick = async () => {
    button.hidden = true;
    await event.prompt();
    await event.userChoice.catch(() => {});
  };
  window.addEventListener('appinstalled', () => button.remove(), { once: true });
}
