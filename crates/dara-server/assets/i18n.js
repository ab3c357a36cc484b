// The page's language: English, French or Hausa, the languages Dara's players speak. Chosen by
// the switch in the header (remembered in this browser, and in the `lang` cookie so that the
// server sends the next page in it from the first byte), else from the browser's languages,
// else English. The server words each page the same way (crates/dara-server/build/words.rs)
// and names its language in `<html lang>`: a page already in the chosen language is left as it
// came; one that is not (a copy kept by the service worker, say) is worded here. Marked elements are worded from the catalogue (`lang-*.js`) as the page loads:
// `data-i18n` sets the text, `data-i18n-html` the markup (the catalogue's own, kept with the same
// tags), `data-i18n-attr="aria-label:key;title:key"` attributes. Words built in scripts come
// from `t(key, params)`. The server sends codes; the pages word them here.
//
// Only the page's own catalogue is loaded (about 45 KB each): every catalogue has every key
// (browser-tests/tests/i18n.test.js checks), so none falls back on another.
//
// Each catalogue's import is written whole, not made from the code at run time: the server's
// build serves every file under a name with its hash and rewrites the names the modules write
// (lang-en.js becomes lang-en.<hash>.js), which it can do only for a name it can read here.
export const LANGUAGES = {
  en: { name: 'English', load: () => import('./lang-en.js') },
  fr: { name: 'Français', load: () => import('./lang-fr.js') },
  ha: { name: 'Hausa', load: () => import('./lang-ha.js') },
};

const STORE = 'dara.lang';

// The remembered choice if there is one, else the first of the browser's languages we have
// (by its main tag: `fr-NE` is French), else English.
export function chooseLanguage(stored, preferred) {
  if (stored && LANGUAGES[stored]) return stored;
  for (const tag of preferred || []) {
    const main = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES[main]) return main;
  }
  return 'en';
}

function stored() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

// The `lang` cookie, which the switch sets beside localStorage (it may be all there is where
// storage is refused).
function cookie() {
  const found = document.cookie.split(';').map((pair) => pair.trim().split('=')).find(([name]) => name === 'lang');
  return found ? found[1] : null;
}

// The site's one cookie: the language chosen, for the server to send pages in (kept a year;
// the privacy page names it).
function remember(code) {
  document.cookie = `lang=${code}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

// What the server sent: the language it chose by the same rules, with the browser's own
// `Accept-Language` (which navigator.languages mirrors).
const served = document.documentElement.lang;
export const lang = chooseLanguage(stored() ?? cookie(), LANGUAGES[served] ? [served] : navigator.languages || [navigator.language]);
const words = (await LANGUAGES[lang].load()).default;
const plurals = new Intl.PluralRules(lang);

// More words for this page (the arena pages' own catalogue: arena-words.js), then the page
// worded again with them, should it have come in another language.
export function addWords(more) {
  Object.assign(words, more);
  if (served !== lang) translate();
}

// The words for `key`, with `{name}` replaced by `params.name`. A key with a `count` parameter
// may have plural forms `key.one` / `key.other` (the language's own rules choose), and words of
// its own for none, `key.zero`, where a count of 0 makes no sentence: French puts 0 with 1
// ("0 personne regarde"), and "Personne ne regarde" says it.
export function t(key, params = {}) {
  let text;
  if ('count' in params) {
    const form = params.count === 0 && `${key}.zero` in words ? `${key}.zero` : `${key}.${plurals.select(params.count)}`;
    text = words[form] ?? words[`${key}.other`];
  }
  text = text ?? words[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The keys under `prefix` (`'phrase.'`), in the catalogue's order: the quick messages' phrases
// are the catalogue's `phrase.*` keys, which a test holds to the server's codes (`dara codes`).
export const keysUnder = (prefix) => Object.keys(words).filter((key) => key.startsWith(prefix));

// The same word with a capital, for a sentence's start.
export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// "a", "a and b", "a, b and c", in the page's language.
export function inWords(list) {
  if (list.length < 2) return list.join('');
  return t('list.and', { rest: list.slice(0, -1).join(', '), last: list[list.length - 1] });
}

// "a", "a or b", "a, b or c".
export function orWords(list) {
  if (list.length < 2) return list.join('');
  return t('list.or', { rest: list.slice(0, -1).join(', '), last: list[list.length - 1] });
}

// Why a move is illegal, worded from the rules' code and figures (`why` in an `illegal-move`
// refusal or an `illegal` verdict: PROTOCOL.md, *Why a move is illegal*); undefined for a code
// this page does not know, so the caller falls back on the server's English.
export function illegalText(why) {
  if (!why || !why.code) return undefined;
  const key = why.code === 'not-a-step' && why.diagonal ? 'illegal.not-a-step-diagonal' : `illegal.${why.code}`;
  const params = { ...why };
  if (why.side) {
    params.side = t(`side.${why.side}`);
    params.stone = t(`cell.stone.${why.side === 'white' ? 'W' : 'B'}`);
  }
  if (why.because) params.because = illegalText(why.because) ?? '';
  if ('takes' in why) params.count = why.takes;
  const text = t(key, params);
  return text === key ? undefined : text;
}

// The server's verdict on a move that is not legal (POST /api/position): the rules' reason
// worded from its code, else the server's English.
export function verdictText(move, verdict) {
  const reason = verdict.verdict === 'illegal' ? illegalText(verdict.why) ?? verdict.reason : verdict.reason;
  return t(verdict.verdict === 'illegal' ? 'verdict.illegal' : 'verdict.unreadable', { move, reason });
}

// An error the server answered over HTTP (or the cause it gives for a rematch it could not
// start), worded from its code and figures (PROTOCOL.md); the server's English only where the
// code is one this page does not know.
export function errorText(answer) {
  const key = `error.${answer.code}`;
  const params = { ...answer };
  if ('waiting' in answer) {
    params.count = answer.waiting;
    params.again = t('error.try-again-in', { count: answer.seconds });
  }
  if ('graceSeconds' in answer) {
    const s = answer.graceSeconds;
    params.grace = s >= 60 && s % 60 === 0 ? t('error.minutes', { count: s / 60 }) : t('error.seconds', { count: s });
  }
  const text = answer.code ? t(key, params) : key;
  return text === key ? answer.error : text;
}

// Words every marked element of `root`.
export function translate(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-html]')) node.innerHTML = t(node.dataset.i18nHtml);
  for (const node of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of node.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':');
      node.setAttribute(attr, t(key));
    }
  }
}

// The switch: a list of the languages, each named in itself, in the header of every page.
function addSwitch() {
  const header = document.querySelector('header.top');
  if (!header) return;
  const label = document.createElement('label');
  label.className = 'lang-switch';
  const text = document.createElement('span');
  text.className = 'visually-hidden';
  text.textContent = t('common.language');
  const select = document.createElement('select');
  select.id = 'lang';
  for (const [code, { name }] of Object.entries(LANGUAGES)) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.appendChild(option);
  }
  select.addEventListener('change', () => {
    try { localStorage.setItem(STORE, select.value); } catch { /* private mode: the cookie only */ }
    remember(select.value);
    // The page is worded once, as it loads: a reload words it all, scripts' words too (a game
    // page resumes its game where it was).
    location.reload();
  });
  label.append(text, select);
  header.appendChild(label);
}

// A choice remembered before the cookie was (or whose cookie has lapsed) is told the server.
if (stored() && LANGUAGES[stored()] && cookie() !== stored()) remember(stored());
// The server worded the page in `served`: worded again only where the choice differs.
if (served !== lang) {
  document.documentElement.lang = lang;
  translate();
}
addSwitch();
