// The arena pages' own words (arena-<code>.js) in the page's language, added to the catalogue
// t() reads: imported by arenas.js and arena.js before they word anything, so that no other
// page carries them. Each import is written whole, for the build to rewrite its hashed name.
import { lang, addWords } from './i18n.js';

const LOAD = { en: () => import('./arena-en.js'), fr: () => import('./arena-fr.js'), ha: () => import('./arena-ha.js') };
addWords((await LOAD[lang]()).default);
