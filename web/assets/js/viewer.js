// The replay viewer: a finished (or imported) game's frames, one per ply,
// drawn on the game's own board. Start, previous, next, end, play (move by
// move, with the game page's animation and sounds) and a ply slider; the
// keyboard's arrows, Home, End and space do the same. No rules: each frame
// carries its board and the animation of the move that led to it.

import { t, has } from './i18n.js';
import * as sound from './sound.js';
import { YoteBoard } from './board-yote.js';
import { NsoloBoard } from './board-nsolo.js';
import { Animator } from './animate.js';
import { el, resultText } from './online.js';

const ICONS = {
  start: 'M4 5h2v14H4zM13 5v14l-7-7zM20 5v14l-7-7z',
  prev: 'M17 5v14L6 12z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  next: 'M7 5v14l11-7z',
  end: 'M18 5h2v14h-2zM11 5v14l7-7zM4 5v14l7-7z',
  sound: 'M3 9h4l5-4v14l-5-4H3zM15 8.3a5 5 0 0 1 0 7.4l-1.1-1.1a3.5 3.5 0 0 0 0-5.2zM17.6 5.7a8.7 8.7 0 0 1 0 12.6l-1.1-1.1a7.2 7.2 0 0 0 0-10.4z',
  muted: 'M3 9h4l5-4v14l-5-4H3zM15.3 9.4l1.1-1.1 2.3 2.3 2.3-2.3 1.1 1.1-2.3 2.3 2.3 2.3-1.1 1.1-2.3-2.3-2.3 2.3-1.1-1.1 2.3-2.3z',
};

function icon(name) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '22');
  svg.setAttribute('height', '22');
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', ICONS[name]);
  p.setAttribute('fill', 'currentColor');
  svg.append(p);
  return svg;
}

export class Viewer {
  constructor(host, data) {
    this.host = host;
    this.game = data.game;
    this.size = data.size;
    this.frames = (data.frames || []).filter(Boolean);
    this.i = 0;
    this.playing = false;
    this.busy = false;
    this.token = 0;
    this.anim = new Animator();
    host.textContent = '';
    this.build();
    this.show(0);
  }

  build() {
    const last = this.frames.length - 1;
    this.root = el('div', { class: `viewer is-${this.game}`, 'data-viewer': '', tabindex: '-1' });
    this.boardHost = el('div', { class: `board-host ${this.game}` });
    this.board = this.game === 'yote'
      ? new YoteBoard(this.boardHost, { trays: true })
      : new NsoloBoard(this.boardHost, { bar: false });
    this.btn = {};
    const ctl = el('div', { class: 'viewer-ctl', role: 'group' });
    for (const k of ['start', 'prev', 'play', 'next', 'end']) {
      const b = el('button', { type: 'button', class: `btn icon-ctl${k === 'play' ? ' primary' : ''}`, 'data-go': k });
      b.append(icon(k));
      b.addEventListener('click', () => this.action(k));
      this.btn[k] = b;
      ctl.append(b);
    }
    this.slider = el('input', { type: 'range', min: '0', max: String(Math.max(0, last)), step: '1', value: '0', 'data-ply-slider': '' });
    this.slider.addEventListener('input', () => this.jump(+this.slider.value));
    this.label = el('output', { class: 'viewer-ply', 'data-ply-label': '' });
    this.mute = el('button', { type: 'button', class: 'btn icon-ctl viewer-mute', 'aria-pressed': 'false' });
    this.mute.addEventListener('click', () => {
      sound.setMuted(!sound.isMuted());
      this.labels();
    });
    ctl.append(this.slider, this.label, this.mute);
    this.moveLine = el('p', { class: 'viewer-move', 'aria-live': 'polite' });
    this.result = el('p', { class: 'viewer-result' });
    this.list = el('ol', { class: 'viewer-moves' });
    this.list.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-frame]');
      if (b) this.jump(+b.dataset.frame);
    });
    for (let k = 1; k <= last; k++) {
      const m = this.frames[k].last;
      this.list.append(el('li', {}, el('button', { type: 'button', class: 'viewer-mv', 'data-frame': String(k), text: m ? m.move : '?' })));
    }
    this.root.addEventListener('keydown', (e) => this.key(e));
    this.root.append(this.boardHost, ctl, this.moveLine, this.result, this.list);
    this.host.append(this.root);
    this.labels();
  }

  key(e) {
    if (e.target.closest('input, textarea, select')) return;
    const k = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'start', End: 'end', ' ': 'play' }[e.key];
    if (!k || (k === 'play' && e.target.closest('button'))) return;
    e.preventDefault();
    this.action(k);
  }

  // Translated labels (again after a change of language).
  labels() {
    const names = { start: 'replay.start', prev: 'replay.prev', next: 'replay.next', end: 'replay.end' };
    for (const k in names) this.btn[k].setAttribute('aria-label', t(names[k]));
    for (const k in names) this.btn[k].title = t(names[k]);
    const play = this.playing ? 'replay.pause' : 'replay.play';
    this.btn.play.setAttribute('aria-label', t(play));
    this.btn.play.title = t(play);
    this.btn.play.replaceChildren(icon(this.playing ? 'pause' : 'play'));
    this.slider.setAttribute('aria-label', t('replay.slider'));
    this.mute.replaceChildren(icon(sound.isMuted() ? 'muted' : 'sound'));
    this.mute.setAttribute('aria-label', t('sound.mute'));
    this.mute.title = t('sound.mute');
    this.mute.setAttribute('aria-pressed', String(sound.isMuted()));
    this.mute.classList.toggle('muted', sound.isMuted());
    this.root.setAttribute('aria-label', t('replay.viewer'));
    this.text();
  }

  view(f) {
    const last = f.last && f.last.animation;
    const common = { legal: [], interactive: false, hint: [], flipped: false, turn: f.turn || 'south', last };
    if (this.game === 'yote') return { ...common, board: f.yote.board, reserve: f.yote.reserve, captured: f.yote.captured };
    return { ...common, rows: f.nsolo.rows };
  }

  show(i) {
    this.i = Math.max(0, Math.min(this.frames.length - 1, i));
    const f = this.frames[this.i];
    if (f) this.board.set(this.view(f));
    this.text();
  }

  text() {
    const n = this.frames.length - 1;
    const f = this.frames[this.i];
    if (!f) return;
    this.root.dataset.ply = String(this.i);
    this.slider.value = String(this.i);
    this.label.textContent = t('replay.ply', { i: this.i, n });
    const m = f.last;
    this.moveLine.textContent = m
      ? t('replay.move', { no: this.i, move: m.move, side: has(`side.${m.by}`) ? t(`side.${m.by}`) : m.by || '' })
      : t('replay.startPos');
    const r = this.i === n ? f.result : null;
    this.result.hidden = !r;
    if (r) {
      const w = resultText(r);
      this.result.textContent = [w.word, w.reason].filter(Boolean).join(' — ');
    }
    for (const b of this.list.querySelectorAll('button[data-frame]')) {
      const on = +b.dataset.frame === this.i;
      b.classList.toggle('current', on);
      if (on) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
    this.btn.start.disabled = this.btn.prev.disabled = this.i === 0;
    this.btn.next.disabled = this.btn.end.disabled = this.i === n;
    this.btn.play.disabled = n < 1;
  }

  // One move forward, animated.
  async step() {
    const prev = this.frames[this.i];
    const next = this.frames[this.i + 1];
    if (!next) return;
    const token = ++this.token;
    this.busy = true;
    try {
      if (next.last) {
        await this.anim.run(() => (this.game === 'yote'
          ? this.anim.yote(this.board, prev.yote, next.last)
          : this.anim.nsolo(this.board, prev.nsolo.rows, (next.last.animation && next.last.animation.steps) || [])));
      }
    } catch {
      /* a broken animation must not block the viewer */
    } finally {
      this.busy = false;
    }
    // After a jump the animation may have drawn over the new frame: redraw.
    this.show(token === this.token ? this.i + 1 : this.i);
  }

  // Straight to a frame, without animation.
  jump(i) {
    this.stop();
    this.token++;
    if (this.anim.running) this.anim.skip();
    this.show(i);
  }

  stop() {
    if (!this.playing) return;
    this.playing = false;
    this.labels();
  }

  async play() {
    if (this.i >= this.frames.length - 1) this.show(0);
    this.playing = true;
    this.labels();
    while (this.playing && this.i < this.frames.length - 1) {
      await this.step();
      if (!this.playing) break;
      await new Promise((r) => setTimeout(r, this.anim.speed * 3));
    }
    this.stop();
  }

  action(k) {
    const n = this.frames.length - 1;
    if (k === 'play') {
      if (this.playing) this.stop();
      else this.play();
    } else if (k === 'next') {
      this.stop();
      if (this.busy) {
        this.anim.skip();
        return;
      }
      if (this.i < n) this.step();
    } else if (k === 'prev') this.jump(this.i - 1);
    else if (k === 'start') this.jump(0);
    else if (k === 'end') this.jump(n);
  }
}
