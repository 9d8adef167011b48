// « Analyser » on the replay page: the browser's engine (engine-client.js,
// a Web Worker) judges every move of the game at its default depth, and the
// page shows it as it comes: a progress bar, the evaluation graph
// (eval-graph.js), marks in the viewer's move list, and the best move of the
// position on screen as text and as a hint on the board. The engine does
// the judging; this module only carries its lines to the page. Leaving the
// page ends the worker, and with it the analysis.

import { t, currentLang } from './i18n.js';
import { call, available } from './engine-client.js';
import { errorText } from './errors.js';
import { EvalGraph, FORCED } from './eval-graph.js';
import { cellsOf } from './places.js';
import { el } from './online.js';
import { probeTables, tablesAvailable } from './api.js';

const SIGNS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
/** The side whose point of view the graph takes. */
const FIRST = { yote: 'red', nsolo: 'south' };
const OTHER = { red: 'black', black: 'red' };
/** Positions a request to the endgame tables asks about (the server takes 300). */
const TABLES_CHUNK = 100;

/** The engine's record of a replayed game (frame 0's position, then each frame's move). */
export function record(id, data) {
  const frames = data.frames.filter(Boolean);
  return {
    id,
    game: data.game,
    size: data.size,
    opponent: 'local',
    start: frames[0].fen,
    moves: frames.slice(1).map((f) => f.last.move),
  };
}


export class Analysis {
  /** `els`: {section, button, progress, status, graph} of replay.html. */
  constructor(els, id, data, viewer) {
    this.els = els;
    this.id = id;
    this.data = data;
    this.viewer = viewer;
    this.frames = viewer.frames;
    this.total = this.frames.length - 1;
    this.lines = []; // by ply, from 1
    this.verdicts = []; // by frame: what the server's endgame tables say, or null
    this.state = 'idle'; // idle | running | done | failed
    this.error = null;
    this.graph = null;
    viewer.hints = (i) => (this.lines[i + 1] ? cellsOf(data.game, this.lines[i + 1].best) : []);
    viewer.onShow = (i) => this.follow(i);
    els.button.addEventListener('click', () => this.run());
  }

  /** Shows the button when there is something to analyse and an engine to do it. */
  async offer() {
    if (this.total < 1 || !(await available())) return;
    this.els.section.hidden = false;
  }

  async run() {
    if (this.state === 'running') return;
    const { button, progress, graph } = this.els;
    this.state = 'running';
    this.lines = [];
    this.els.section.dataset.analysis = 'running';
    button.disabled = true;
    progress.max = this.total;
    progress.value = 0;
    progress.hidden = false;
    graph.textContent = '';
    this.graph = new EvalGraph(graph, this.total, (ply) => this.viewer.jump(ply));
    this.graph.cursor(this.viewer.i);
    this.labels();
    this.askTables();
    try {
      await call('analyse', [record(this.id, this.data), { depth: 0, movetime: 0 }], (line) => this.add(line));
      this.state = 'done';
    } catch (e) {
      this.state = 'failed';
      this.error = e;
      button.disabled = false;
    }
    this.els.section.dataset.analysis = this.state;
    progress.hidden = this.state === 'done';
    this.labels();
  }

  add(line) {
    this.lines[line.ply] = line;
    this.els.progress.value = this.count();
    this.markMove(line);
    this.plot();
    this.status();
    if (line.ply === this.viewer.i + 1) this.viewer.refresh();
  }

  count() {
    return this.lines.filter(Boolean).length;
  }

  markMove(line) {
    const m = line.mark;
    this.viewer.mark(line.ply, m, SIGNS[m], m && t(`analysis.mark.${m}`));
  }

  // The evaluation after each ply, turned to the first side's point of view:
  // the mover of ply k is the side to move in frame k - 1.
  plot() {
    const first = FIRST[this.data.game];
    const points = [];
    for (const line of this.lines) {
      if (!line) continue;
      const value = this.frames[line.ply - 1].turn === first ? line.eval : -line.eval;
      const mark = line.mark ? ` ${SIGNS[line.mark]}` : '';
      points.push({ ply: line.ply, value, mark: line.mark, title: `${line.ply}. ${line.move}${mark} (${this.evalText(value)})` });
    }
    this.graph?.set(points);
  }

  // Balls or stones (100 units each), signed; forced results as ±∞.
  evalText(v) {
    if (Math.abs(v) > FORCED) return v > 0 ? '+∞' : '−∞';
    const f = new Intl.NumberFormat(currentLang(), { signDisplay: 'exceptZero', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return f.format(v / 100);
  }

  // Yoté endings: the server's tables know the exact result. A server
  // without tables or no server at all (offline) leaves them out; the page
  // asks first whether there are any, as a probe's 404 would show in the
  // console.
  async askTables() {
    if (this.data.game !== 'yote' || this.verdicts.length) return;
    const fens = this.frames.map((f) => f.fen);
    const verdicts = [];
    try {
      if (!(await tablesAvailable()).available) return;
      for (let i = 0; i < fens.length; i += TABLES_CHUNK) {
        verdicts.push(...(await probeTables(fens.slice(i, i + TABLES_CHUNK))).positions);
      }
    } catch {
      return;
    }
    this.verdicts = verdicts;
    this.els.section.dataset.tables = String(verdicts.filter(Boolean).length);
    this.follow(this.viewer.i);
  }

  // « gagnant en N pour les Rouges » / « nulle », from the side to move of frame i.
  tablesText(i) {
    const v = this.verdicts[i];
    if (!v) return '';
    if (v.result === 'draw') return t('analysis.tables.draw');
    const mover = this.frames[i].turn;
    const winner = v.result === 'win' ? mover : OTHER[mover];
    return t('analysis.tables.win', { n: v.dtc, side: t(`side.${winner}`) });
  }

  // The viewed frame changed: its best move (the next ply's line) and what
  // the tables say of it.
  follow(i) {
    this.graph?.cursor(i);
    const next = this.lines[i + 1];
    const parts = [next ? t('analysis.best', { move: next.best }) : '', this.tablesText(i)];
    this.viewer.setAside(parts.filter(Boolean).join(' · '));
  }

  status() {
    const { status } = this.els;
    if (this.state === 'failed') status.textContent = errorText(this.error);
    else if (this.state === 'done') status.textContent = t('analysis.done');
    else if (this.state === 'running') status.textContent = t('analysis.progress', { done: this.count(), total: this.total });
    else status.textContent = '';
  }

  /** Translated texts (again after a change of language). */
  labels() {
    this.status();
    this.graph?.label(t('analysis.graph'));
    for (const line of this.lines) if (line) this.markMove(line);
    this.plot();
    this.follow(this.viewer.i);
  }
}

/** The analysis section after `host` (replacing one from an earlier game),
 * its button offered when the engine is there; the same on the replay page
 * and under an imported record. */
export function mountAnalysis(host, id, data, viewer) {
  document.getElementById('analysis')?.remove();
  const button = el('button', { type: 'button', class: 'btn primary', id: 'analyse', 'data-i18n': 'analysis.run', text: t('analysis.run') });
  const progress = el('progress', { id: 'analysis-progress', max: '1', value: '0', hidden: true });
  const status = el('p', { class: 'analysis-status', id: 'analysis-status', 'aria-live': 'polite' });
  const graph = el('div', { class: 'analysis-graph', id: 'analysis-graph' });
  const section = el('section', { class: 'analysis', id: 'analysis', 'aria-label': t('analysis.title'), 'data-i18n-attr': 'aria-label:analysis.title', hidden: true },
    el('div', { class: 'analysis-head' }, button, progress, status), graph);
  host.after(section);
  const analysis = new Analysis({ section, button, progress, status, graph }, id, data, viewer);
  analysis.offer();
  return analysis;
}
