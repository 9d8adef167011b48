// This browser's games in words, for « Mes parties » and the home page's
// « Reprendre la partie »: what game, against whom, how far it went.

import { t } from './i18n.js';
import * as api from './api.js';
import { gameLabel, resultText } from './online.js';

/** A seat of this browser with its game's state read from the server, or
 * null; a game the server no longer knows is forgotten. */
export async function readSeat(seat) {
  try {
    return { ...seat, state: await api.getGame(seat.id) };
  } catch (e) {
    if (e.code === 'not_found') api.forgetSeat(seat.id);
    return null;
  }
}

export function inProgress(s) {
  return !!s && !s.result && s.status !== 'finished' && s.status !== 'damaged';
}

function opponentWords(s) {
  if (s.opponent === 'machine') return t('game.vsMachine', { level: t(`level.${s.level}`) });
  if (s.opponent === 'online') return t('game.online');
  return t('game.local');
}

/** {title, line}: « Yoté · contre la machine, Débutant » and « 12 tours · à vous de jouer ». */
export function describe(s) {
  const title = `${gameLabel(s)} · ${opponentWords(s)}`;
  const turns = t('moves.turns', { n: Math.ceil((s.ply || 0) / 2) });
  let where;
  if (inProgress(s) && s.status === 'waiting') where = t('online.waiting');
  else if (inProgress(s)) where = s.opponent === 'machine' && s.players?.[s.turn] === 'human' ? t('status.you') : t(`status.turn.${s.turn}`);
  else {
    const r = resultText(s.result);
    where = [r.word, r.reason].filter(Boolean).join(' — ');
  }
  return { title, line: `${turns} · ${where}` };
}
