// The game page's « Réglages » panel: one control per setting of
// settings.js, each remembered as soon as it changes.

import { t } from './i18n.js';
import * as settings from './settings.js';
import * as sound from './sound.js';

const CHECKS = ['flip', 'coords', 'confirm', 'faceToFace'];

function field(key, control) {
  const label = document.createElement('label');
  label.className = `setting setting-${key}`;
  const text = document.createElement('span');
  text.dataset.i18n = `settings.${key}`;
  text.textContent = t(`settings.${key}`);
  if (control.type === 'checkbox') label.append(control, text);
  else label.append(text, control);
  return label;
}

/** Fills `box` with the controls; `faceToFace` only where it applies. */
export function mountSettings(box) {
  box.textContent = '';
  for (const key of CHECKS) {
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.dataset.setting = key;
    c.checked = !!settings.get(key);
    c.addEventListener('change', () => settings.set(key, c.checked));
    box.append(field(key, c));
  }
  const theme = document.createElement('select');
  theme.dataset.setting = 'theme';
  for (const v of ['system', 'light', 'dark']) {
    const o = document.createElement('option');
    o.value = v;
    o.dataset.i18n = `settings.theme.${v}`;
    o.textContent = t(`settings.theme.${v}`);
    theme.append(o);
  }
  theme.value = settings.get('theme');
  theme.addEventListener('change', () => settings.set('theme', theme.value));
  box.append(field('theme', theme));
  const volume = document.createElement('input');
  volume.type = 'range';
  volume.min = '0';
  volume.max = '100';
  volume.step = '5';
  volume.dataset.setting = 'volume';
  volume.value = String(settings.get('volume'));
  volume.addEventListener('change', () => {
    settings.set('volume', +volume.value);
    sound.sample();
  });
  box.append(field('volume', volume));
}

/** Shows the face-to-face switch only where it means something. */
export function showFaceToFace(box, on) {
  const f = box.querySelector('.setting-faceToFace');
  if (f) f.hidden = !on;
}
