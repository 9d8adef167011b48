// The player's settings, remembered in this browser: board orientation,
// coordinates, move confirmation, colour theme, sound volume and, on one
// screen, the face-to-face phone layout. Importing this module applies the
// theme and the coordinates at once, on every page.

const KEY = 'palabre.settings';
const DEFAULTS = { flip: false, coords: true, confirm: false, theme: 'system', volume: 80, faceToFace: false };
const dark = matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set();
let values = { ...DEFAULTS };

try {
  values = { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
} catch {
  /* unreadable or no storage: the defaults */
}

export function get(key) {
  return values[key];
}

export function set(key, value) {
  values[key] = value;
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch {
    /* no storage: the setting lasts for the page */
  }
  applyPage();
  for (const f of listeners) f(key, value);
}

/** Calls `f(key, value)` after every change. */
export function onChange(f) {
  listeners.add(f);
}

// The theme follows the system unless the player chose one; the page's
// CSS only knows `data-theme`.
function applyPage() {
  const root = document.documentElement;
  const theme = values.theme === 'system' ? (dark.matches ? 'dark' : 'light') : values.theme;
  root.dataset.theme = theme;
  root.classList.toggle('no-coords', !values.coords);
}

dark.addEventListener('change', applyPage);
applyPage();
