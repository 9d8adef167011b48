// The replay viewer: a finished (or imported) game's frames, one per ply,
// drawn on the game's own board. Start, previous, next, end, play (move by
// move, with the game page's animation and sounds) and a ply slider; the
// keyboard's arrows, Home, End and space do the same, from the moment the
// page opens. Moves are numbered by turn, as the export writes them: a turn
// is the first side's move and the reply. No rules: each frame carries its
// board and the animation of the move that led to it. An analysis
// (analysis.js) adds marks to the moves, a line under the move and a hint on
// the board through mark(), setAside() and `hints`, and follows the viewed
// frame through `onShow`.

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
    this.queued = 0; // moves asked for (ArrowRight, next) beyond the one being animated
    this.draining = null;
    this.token = 0;
    this.anim = new Animator();
    this.hints = null; // frame index -> cells to highlight (the analysis' best move)
    this.onShow = null; // called with the frame index whenever it changes
    host.textContent = '';
    this.build();
    this.show(0);
    // The arrows work at once: the viewer takes the focus, and keys pressed
    // while nothing has it (the page's body) come to it too.
    this.root.focus({ preventScroll: true });
    this.onDocKey = (e) => {
      if (!this.root.isConnected) return document.removeEventListener('keydown', this.onDocKey);
      if (e.defaultPrevented || (e.target !== document.body && e.target !== document.documentElement)) return;
      this.key(e);
    };
    document.addEventListener('keydown', this.onDocKey);
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
    this.aside = el('p', { class: 'viewer-aside', 'data-viewer-aside': '', hidden: '' });
    this.result = el('p', { class: 'viewer-result' });
    this.list = el('ol', { class: 'viewer-moves' });
    this.list.addEventListener('click', (e) => {
      const b = e.target.closest('button[data-frame]');
      if (b) this.jump(+b.dataset.frame);
    });
    // Frame k shows the position after ply k - 1; plies pair into turns.
    for (let k = 1; k <= last; k += 2) {
      const li = el('li', { class: 'viewer-turn' }, el('span', { class: 'viewer-no', text: `${(k + 1) / 2}.` }));
      for (const j of [k, k + 1]) {
        if (j > last) break;
        const m = this.frames[j].last;
        li.append(el('button', { type: 'button', class: 'viewer-mv', 'data-frame': String(j), text: m ? m.move : '?' }));
      }
      this.list.append(li);
    }
    this.root.addEventListener('keydown', (e) => this.key(e));
    this.root.append(this.boardHost, ctl, this.moveLine, this.aside, this.result, this.list);
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
    this.list.setAttribute('aria-label', t('game.moves'));
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
    const hint = (this.hints && this.hints(this.i)) || [];
    const common = { legal: [], interactive: false, hint, flipped: false, turn: f.turn || 'south', last };
    if (this.game === 'yote') return { ...common, board: f.yote.board, reserve: f.yote.reserve, captured: f.yote.captured };
    return { ...common, rows: f.nsolo.rows };
  }

  show(i) {
    this.i = Math.max(0, Math.min(this.frames.length - 1, i));
    const f = this.frames[this.i];
    if (f) this.board.set(this.view(f));
    this.text();
    this.onShow?.(this.i);
  }

  // Redraws the frame on screen (new hints), unless a move is being animated:
  // its end redraws anyway.
  refresh() {
    if (!this.busy) this.show(this.i);
  }

  // Marks the move of frame `i` ('inaccuracy' | 'mistake' | 'blunder'), with
  // a sign (?!, ?, ??) whose spoken name is `label`.
  mark(i, mark, sign, label) {
    const b = this.list.querySelector(`button[data-frame="${i}"]`);
    if (!b) return;
    b.querySelector('.viewer-mark')?.remove();
    if (!mark) return void delete b.dataset.mark;
    b.dataset.mark = mark;
    b.append(el('span', { class: 'viewer-mark', role: 'img', 'aria-label': label, title: label, text: sign }));
  }

  // The line under the move (the best move there), hidden when empty.
  setAside(text) {
    this.aside.textContent = text || '';
    this.aside.hidden = !text;
  }

  text() {
    const n = this.frames.length - 1;
    const f = this.frames[this.i];
    if (!f) return;
    this.root.dataset.ply = String(this.i);
    this.slider.value = String(this.i);
    const turn = Math.ceil(this.i / 2);
    this.label.textContent = this.i ? t('replay.turnOf', { turn, turns: Math.ceil(n / 2) }) : t('replay.atStart');
    this.slider.setAttribute('aria-valuetext', `${this.label.textContent} (${this.i}/${n})`);
    const m = f.last;
    const side = m && has(`side.${m.by}`) ? t(`side.${m.by}`) : (m && m.by) || '';
    this.moveLine.textContent = m
      ? t(this.i % 2 ? 'replay.move' : 'replay.moveReply', { no: turn, move: m.move, side })
      : t('replay.startPos');
    const r = this.i === n ? f.result : null;
    this.result.hidden = !r;
    if (r) {
      const w = resultText(r);
      this.result.textContent = [w.word, w.reason].filter(Boolean).join(' — ');
    }
    if (this.i === 0) this.list.scrollTop = 0;
    for (const b of this.list.querySelectorAll('button[data-frame]')) {
      const on = +b.dataset.frame === this.i;
      b.classList.toggle('current', on);
      if (on) {
        b.setAttribute('aria-current', 'step');
        this.reveal(b);
      } else b.removeAttribute('aria-current');
    }
    this.btn.start.disabled = this.btn.prev.disabled = this.i === 0;
    this.btn.next.disabled = this.btn.end.disabled = this.i === n;
    this.btn.play.disabled = n < 1;
  }

  // Scrolls the list, never the page, to the current move.
  reveal(b) {
    const l = this.list;
    const top = b.getBoundingClientRect().top - l.getBoundingClientRect().top + l.scrollTop;
    if (top < l.scrollTop) l.scrollTop = top - 4;
    else if (top + b.offsetHeight > l.scrollTop + l.clientHeight) l.scrollTop = top + b.offsetHeight - l.clientHeight + 4;
  }

  // One move forward per call, whatever is running: a move still being
  // animated is finished at once, so that two quick presses are two moves.
  advance() {
    const n = this.frames.length - 1;
    if (this.busy) {
      if (this.i + 1 + this.queued < n) this.queued++;
      this.anim.skip();
      return this.draining;
    }
    if (this.i >= n) return Promise.resolve();
    this.queued = 1;
    this.draining = this.drain();
    return this.draining;
  }

  async drain() {
    this.busy = true;
    this.root.dataset.animating = '1';
    try {
      while (this.queued > 0 && this.i < this.frames.length - 1) {
        this.queued--;
        // More presses are waiting: this move is shown without motion.
        if (this.queued > 0) this.show(this.i + 1);
        else await this.step();
      }
    } finally {
      this.queued = 0;
      this.busy = false;
      delete this.root.dataset.animating;
    }
  }

  // One move forward, animated.
  async step() {
    const prev = this.frames[this.i];
    const next = this.frames[this.i + 1];
    if (!next) return;
    const token = ++this.token;
    try {
      if (next.last) {
        await this.anim.run(() => (this.game === 'yote'
          ? this.anim.yote(this.board, prev.yote, next.last)
          : this.anim.nsolo(this.board, prev.nsolo.rows, (next.last.animation && next.last.animation.steps) || [])));
      }
    } catch {
      /* a broken animation must not block the viewer */
    }
    // After a jump the animation may have drawn over the new frame: redraw.
    this.show(token === this.token ? this.i + 1 : this.i);
  }

  // Straight to a frame, without animation.
  jump(i) {
    this.stop();
    this.token++;
    this.queued = 0;
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
      await this.advance();
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
      this.advance();
    } else if (k === 'prev') this.jump(this.i - 1);
    else if (k === 'start') this.jump(0);
    else if (k === 'end') this.jump(n);
  }
}
