// The catalogues (crates/dara-server/assets/lang-*.js), checked without a browser: every key the
// pages and scripts ask for is in English, French and Hausa have exactly English's keys, and no
// translation is left in English. Proper names that stay as they are in every language are the
// only exceptions, listed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'crates', 'dara-server', 'assets');
const LANGUAGES = ['fr', 'ha'];

// Keys whose words are a name, the same in every language.
const SAME_EVERYWHERE = new Set([
  'common.wikipedia',          // the encyclopedia the rules were taken from
  'common.jaques_of_london',   // the games maker whose rules these are
  'rules.arcade',              // the site's own name for its rules
]);

async function catalogue(code) {
  const text = readFileSync(join(ASSETS, `lang-${code}.js`), 'utf8');
  return (await import(`data:text/javascript,${encodeURIComponent(text)}`)).default;
}

const placeholders = (text) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
const tags = (text) => [...text.matchAll(/<[^>]+>/g)].map((m) => m[0]);
// A value with no words of its own: only placeholders, markup, figures and punctuation.
const wordless = (text) => !/\p{L}{2,}/u.test(text.replace(/\{\w+\}/g, '').replace(/<[^>]+>/g, ''));

test('French and Hausa have every English key, no other, and none left in English', async () => {
  const en = await catalogue('en');
  for (const code of LANGUAGES) {
    const words = await catalogue(code);
    const missing = Object.keys(en).filter((k) => !(k in words));
    assert.deepEqual(missing, [], `lang-${code}.js lacks these keys`);
    const extra = Object.keys(words).filter((k) => !(k in en));
    assert.deepEqual(extra, [], `lang-${code}.js has keys English does not`);
    const same = Object.keys(en).filter((k) => words[k] === en[k] && !SAME_EVERYWHERE.has(k) && !wordless(en[k]));
    assert.deepEqual(same, [], `lang-${code}.js leaves these in English`);
    for (const [key, text] of Object.entries(words)) {
      assert.ok(text.trim(), `${code} ${key} is empty`);
      // A translation may leave out a detail English gives (the server's English reason), but
      // never asks for one English does not have (unless English only passes the server's words on).
      const known = placeholders(en[key]);
      if (!wordless(en[key])) {
        for (const name of placeholders(text)) assert.ok(known.has(name), `${code} ${key} uses {${name}}, which English does not`);
      }
      assert.deepEqual(tags(text), tags(en[key]), `${code} ${key} must keep English's markup, in order`);
    }
  }
});

test('every key the pages and scripts ask for is in the English catalogue', async () => {
  const en = await catalogue('en');
  const asked = [];
  for (const file of readdirSync(ASSETS)) {
    const text = readFileSync(join(ASSETS, file), 'utf8');
    if (file.endsWith('.html')) {
      for (const m of text.matchAll(/data-i18n(?:-html)?="([^"]+)"/g)) asked.push([file, m[1]]);
      for (const m of text.matchAll(/data-i18n-attr="([^"]+)"/g)) {
        for (const pair of m[1].split(';')) asked.push([file, pair.split(':')[1]]);
      }
    } else if (file.endsWith('.js') && !file.startsWith('lang-')) {
      // Plain keys: t('key' ...). A key built from a template (t(`side.${colour}`)) is checked by
      // its fixed start: some key must begin with it.
      for (const m of text.matchAll(/\bt\('([^']+)'/g)) asked.push([file, m[1]]);
      for (const m of text.matchAll(/\bt\(`([^`$]+)\$\{/g)) {
        assert.ok(Object.keys(en).some((k) => k.startsWith(m[1])), `${file} asks for ${m[1]}…, which no key begins with`);
      }
    }
  }
  assert.ok(asked.length > 300, `only ${asked.length} keys found: has the markup changed?`);
  const missing = asked.filter(([, key]) => !(key in en) && !(`${key}.other` in en));
  assert.deepEqual(missing, [], 'keys asked for but not in lang-en.js');
});

// The codes the rules give for an illegal move (dara::Illegal, in kebab case), each with its
// words in English (and so, by the first test, in French and Hausa).
test('every reason the rules give for an illegal move has its words', async () => {
  const en = await catalogue('en');
  const rust = readFileSync(join(ASSETS, '..', '..', 'dara', 'src', 'illegal.rs'), 'utf8');
  const body = rust.slice(rust.indexOf('pub enum Illegal {'), rust.indexOf('\n}\n', rust.indexOf('pub enum Illegal {')));
  const codes = [...body.matchAll(/^    ([A-Z]\w*)/gm)].map((m) => m[1].replace(/(?<!^)([A-Z])/g, '-$1').toLowerCase());
  assert.ok(codes.length >= 20, `only ${codes.length} codes found in Illegal: has the file changed?`);
  const missing = codes.filter((code) => !(`illegal.${code}` in en) && !(`illegal.${code}.other` in en));
  assert.deepEqual(missing, [], 'codes of illegal moves with no words in lang-en.js');
  assert.ok('illegal.not-a-step-diagonal' in en);
});

test('every page loads the language script, which sets <html lang>', () => {
  for (const file of readdirSync(ASSETS).filter((f) => f.endsWith('.html'))) {
    const text = readFileSync(join(ASSETS, file), 'utf8');
    assert.match(text, /<script type="module" src="\/assets\/i18n\.js"><\/script>/, `${file} does not load i18n.js`);
  }
});
