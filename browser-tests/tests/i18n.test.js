// The catalogues (crates/dara-server/assets/lang-*.js), checked without a browser: every key the
// pages and scripts ask for is in English, every code the crates give (`dara codes`) has its
// words, French and Hausa have exactly English's keys, and no translation is left in English.
// Proper names that stay as they are in every language are the only exceptions, listed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ASSETS = join(here, '..', '..', 'crates', 'dara-server', 'assets');
// The binary the other browser tests start (harness.js), asked for its codes; this file needs no
// browser, so it does not load the harness and its Chromium.
const BINARY = process.env.DARA_BIN || join(here, '..', '..', 'target', 'release', 'dara');
const LANGUAGES = ['fr', 'ha'];

// Keys whose words are a name, the same in every language.
const SAME_EVERYWHERE = new Set([
  'common.wikipedia',          // the encyclopedia the rules were taken from
  'common.jaques-of-london',   // the games maker whose rules these are
  'rules.arcade',              // the site's own name for its rules
]);

// A language's words: its catalogue and the arena pages' own (arena-<code>.js, which only those
// pages load), held to the same rules as one catalogue; no key is in both.
async function catalogue(code) {
  const read = async (name) => {
    const text = readFileSync(join(ASSETS, name), 'utf8');
    return (await import(`data:text/javascript,${encodeURIComponent(text)}`)).default;
  };
  const [words, arena] = [await read(`lang-${code}.js`), await read(`arena-${code}.js`)];
  assert.deepEqual(Object.keys(arena).filter((k) => k in words), [], `keys in both lang-${code}.js and arena-${code}.js`);
  return { ...words, ...arena };
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

// One style for every key: kebab-case, the style of the codes the server sends (serde's
// `rename_all = "kebab-case"`), which are keys themselves (`refusal.not-your-turn`). The stone
// letters (`cell.stone.W`) are the notation's own.
test('every key is written in kebab-case', async () => {
  const en = await catalogue('en');
  const odd = Object.keys(en).filter((k) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.([a-z0-9]+(-[a-z0-9]+)*|[WB]))*$/.test(k));
  assert.deepEqual(odd, [], 'keys not in kebab-case');
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
    } else if (file.endsWith('.js') && !/^(lang|arena)-\w+\.js$/.test(file)) {
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

// Every code the crates give (`dara codes`: listed from the types themselves, each with its
// figures) has its words in English, and so, by the first test, in French and Hausa. Each type's
// codes are worded under one prefix of the catalogues; a type `dara codes` lists that is not
// placed here fails, so a new kind of code cannot go unworded.
const PREFIXES = {
  Illegal: 'illegal',
  MoveError: 'illegal',
  ClosedCell: 'closed',
  Status: 'end',
  EndReason: 'end',
  RulesetError: 'ruleset',
  PositionError: 'position',
  Refusal: 'refusal',
  AppError: 'error',
  Phrase: 'phrase',
  ArenaRefusal: 'arena.code',
  ArenaShell: 'arena.code',
};

test('every code the crates give has its words in every language', async () => {
  const codes = JSON.parse(execFileSync(BINARY, ['codes'], { encoding: 'utf8' }));
  assert.deepEqual(Object.keys(codes).sort(), Object.keys(PREFIXES).sort(), 'the types dara codes lists, each with its prefix here');
  assert.ok(Object.keys(codes.Illegal).length >= 20, `only ${Object.keys(codes.Illegal).length} codes of illegal moves: has dara codes changed?`);
  for (const language of ['en', ...LANGUAGES]) {
    const words = await catalogue(language);
    const missing = [];
    for (const [type, list] of Object.entries(codes)) {
      for (const code of Object.keys(list)) {
        const key = `${PREFIXES[type]}.${code}`;
        if (!(key in words) && !(`${key}.other` in words)) missing.push(`${key} (${type})`);
      }
    }
    assert.deepEqual(missing, [], `codes with no words in lang-${language}.js`);
  }
  // The game page makes a button of each `phrase.*` key: exactly the phrases the server takes.
  for (const language of ['en', ...LANGUAGES]) {
    const phrases = Object.keys(await catalogue(language)).filter((k) => k.startsWith('phrase.'));
    assert.deepEqual(phrases.sort(), Object.keys(codes.Phrase).map((c) => `phrase.${c}`).sort(), `lang-${language}.js's phrases`);
  }
  assert.deepEqual(codes.Illegal['not-a-step'], ['diagonal', 'from', 'to']);
  assert.ok('illegal.not-a-step-diagonal' in (await catalogue('en')));
});

// The pages as the server sends them: each file holds only its own head, and the build writes
// the head every page shares (with i18n.js) around it (crates/dara-server/build/head.rs).
const PAGE_ROUTES = {
  'index.html': '/', 'rules.html': '/rules', 'analysis.html': '/analysis', 'learn.html': '/learn',
  'puzzles.html': '/puzzles', 'privacy.html': '/privacy', 'watch.html': '/watch', 'arenas.html': '/arenas', 'arena.html': '/arena/00000000000000ab', 'game.html': '/computer/00000000000000ab',
  'gone.html': '/g/0000000000000000',
};

test('every page loads the language script, which sets <html lang>', async () => {
  const files = readdirSync(ASSETS).filter((f) => f.endsWith('.html')).sort();
  assert.deepEqual(files, Object.keys(PAGE_ROUTES).sort(), 'a route here for every page');
  const server = spawn(BINARY, ['serve', '--listen', '127.0.0.1:0', '--memory-only'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout.on('data', (chunk) => {
        out += chunk;
        const m = /http:\/\/[0-9.]+:\d+\//.exec(out);
        if (m) resolve(m[0].replace(/\/$/, ''));
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}: is ${BINARY} built?`)));
    });
    for (const [file, route] of Object.entries(PAGE_ROUTES)) {
      const text = await (await fetch(`${url}${route}`)).text();
      assert.match(text, /<title[ >]/, `${route} is not ${file}`);
      assert.match(text, /<script type="module" src="\/assets\/i18n\.[0-9a-f]{12}\.js"><\/script>/, `${file} does not load i18n.js`);
    }
  } finally {
    server.kill('SIGINT');
  }
});

test('every page has a description for search engines and link previews, worded in every language', async () => {
  const en = await catalogue('en');
  for (const file of readdirSync(ASSETS).filter((f) => f.endsWith('.html'))) {
    const text = readFileSync(join(ASSETS, file), 'utf8');
    const meta = text.match(/<meta name="description" content="([^"]+)" data-i18n-attr="content:([\w.-]+)">/);
    assert.ok(meta, `${file} has no described <meta name="description">`);
    const [, english, key] = meta;
    assert.equal(english, en[key], `${file}: the page's own words are the catalogue's`);
    assert.ok(english.length >= 50 && english.length <= 170, `${file}: ${english.length} characters`);
  }
});

