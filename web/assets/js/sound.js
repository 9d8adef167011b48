// The sound of wood: a short, low, damped "toc" made with Web Audio (a
// filtered noise burst over a low sine), slightly varied at every drop; a
// heavier double knock for a capture. Mute and volume are remembered. No
// audio is started before the reader's first gesture: a spectator's page
// stays silent (and warning-free) until they click.

import * as settings from './settings.js';

const KEY = 'palabre.muted';
let ctx = null;
let noiseBuf = null;
let lastAt = -1;
let muted = false;
let woken = false;
try {
  muted = localStorage.getItem(KEY) === '1';
} catch {
  /* no storage */
}

function audio() {
  if (!ctx) {
    const C = window.AudioContext || window.webkitAudioContext;
    if (!C) return null;
    ctx = new C();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

// Browsers start audio only after a gesture: wake it on the first one.
for (const ev of ['pointerdown', 'keydown']) {
  addEventListener(ev, () => {
    woken = true;
    if (!muted) audio();
  }, { once: true, capture: true });
}

function noise(c) {
  if (!noiseBuf) {
    const n = Math.floor(c.sampleRate * 0.08);
    noiseBuf = c.createBuffer(1, n, c.sampleRate);
    const d = noiseBuf.getChannelData(0);
    for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n);
  }
  return noiseBuf;
}

function toc(c, t0, pitch = 1, gain = 1, decay = 1) {
  const v = 1 + (Math.random() - 0.5) * 0.14;
  const out = c.createGain();
  out.gain.value = 0.5 * gain * (0.85 + Math.random() * 0.3) * volume();
  out.connect(c.destination);

  const src = c.createBufferSource();
  src.buffer = noise(c);
  const bp = c.createBiquadFilter();
  bp.type = 'bandpass';
  bp.frequency.value = 850 * pitch * v;
  bp.Q.value = 2.2;
  const lp = c.createBiquadFilter();
  lp.type = 'lowpass';
  lp.frequency.value = 2000;
  const ng = c.createGain();
  ng.gain.setValueAtTime(0.8, t0);
  ng.gain.exponentialRampToValueAtTime(0.001, t0 + 0.03 * decay);
  src.connect(bp).connect(lp).connect(ng).connect(out);
  src.start(t0);
  src.stop(t0 + 0.08);

  const o = c.createOscillator();
  o.frequency.setValueAtTime(200 * pitch * v, t0);
  o.frequency.exponentialRampToValueAtTime(115 * pitch * v, t0 + 0.07 * decay);
  const og = c.createGain();
  og.gain.setValueAtTime(0.0001, t0);
  og.gain.exponentialRampToValueAtTime(0.9, t0 + 0.004);
  og.gain.exponentialRampToValueAtTime(0.001, t0 + 0.1 * decay);
  o.connect(og).connect(out);
  o.start(t0);
  o.stop(t0 + 0.14 * decay);
}

function volume() {
  const v = Number(settings.get('volume'));
  return Number.isFinite(v) ? Math.max(0, Math.min(100, v)) / 100 : 0.8;
}

function play(fn) {
  if (muted || !woken || volume() === 0) return;
  const c = audio();
  if (!c || c.state !== 'running') return;
  const now = c.currentTime;
  if (now - lastAt < 0.035) return; // a very fast sowing would only buzz
  lastAt = now;
  fn(c, now);
}

export function drop() {
  play((c, now) => toc(c, now));
}

export function capture() {
  play((c, now) => {
    toc(c, now, 0.72, 1.35, 1.6);
    toc(c, now + 0.085, 0.6, 1.15, 1.9);
  });
}

export function isMuted() {
  return muted;
}

export function setMuted(m) {
  muted = m;
  try {
    localStorage.setItem(KEY, m ? '1' : '0');
  } catch {
    /* no storage */
  }
  if (!m && woken) audio();
}

/** A short knock at the current volume, to try a new setting. */
export function sample() {
  play((c, now) => toc(c, now));
}
