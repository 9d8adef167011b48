//! Sowing with relay, exact detection of endless sowings, the front capture.
//!
//! A sowing's state when a handful is lifted is the mover's circuit and the
//! pit lifted; the next state follows from it alone, so a sowing is endless
//! exactly when a state comes back. Brent's cycle finding compares each state
//! with one saved at power-of-two steps: exact, with one saved copy.

use super::{Bonus, Distributions, MAX_CIRCUIT, Origin, OriginList, Pit, Position, Side, keys};
use crate::{Illegal, IllegalMove, Refusal};

/// A position after the sowing and the front capture, waiting for the bonus.
#[derive(Debug, Clone)]
pub struct Sown {
    pos: Position,
    origin: Pit,
    end: Pit,
    captured: u8,
    required: u8,
}

/// What a sowing ends in, without the position after it: enough to know
/// its capture, for a move generator that sows every origin and plays few.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sowing {
    /// The circuit index where the last stone fell.
    pub end: usize,
    /// Stones taken from the opposite inner pit.
    pub captured: u8,
    /// Bonus stones the mover must then remove.
    pub required: u8,
}

/// Sows the circuit of `len` pits held at the start of `cells` (the rest
/// of the side's window, always empty) from `start`; returns the last pit,
/// or `None` if endless. The whole window is copied and compared: a fixed
/// size the compiler does inline, where a `len`-long slice calls `memcpy`.
/// `HASHED` keeps `hash` up to date; a generator that only wants the end
/// skips it, a load and an add for every stone sown.
fn sow_circuit<const HASHED: bool>(
    cells: &mut [u8; MAX_CIRCUIT],
    len: usize,
    keys: &[u64],
    start: usize,
    hash: &mut u64,
) -> Option<usize> {
    let mut pos = start;
    let mut hand = lift::<HASHED>(cells, keys, pos, hash);
    // Brent's saved state, first taken after one lift: a sowing that ends
    // in its first lap, the most common, never copies. A cycle through the
    // start is still found, from a state on it one power of two later.
    let mut saved = [0u8; MAX_CIRCUIT];
    let (mut saved_pos, mut power, mut steps) = (None, 1u32, 0u32);
    loop {
        for _ in 0..hand {
            pos += 1;
            if pos == len {
                pos = 0;
            }
            cells[pos] += 1;
            if HASHED {
                *hash = hash.wrapping_add(keys[pos]);
            }
        }
        if cells[pos] == 1 {
            return Some(pos);
        }
        hand = lift::<HASHED>(cells, keys, pos, hash);
        if saved_pos == Some(pos) && *cells == saved {
            return None;
        }
        steps += 1;
        if steps == power {
            saved = *cells;
            (saved_pos, power, steps) = (Some(pos), power * 2, 0);
        }
    }
}

fn lift<const HASHED: bool>(cells: &mut [u8], keys: &[u64], pos: usize, hash: &mut u64) -> u8 {
    let hand = cells[pos];
    cells[pos] = 0;
    if HASHED {
        *hash = hash.wrapping_sub(u64::from(hand).wrapping_mul(keys[pos]));
    }
    hand
}

impl Position {
    /// Circuit pits the mover may start from, before the endless check: the
    /// pits of two or more, or else the single stones whose next pit is empty.
    /// Bit `i` stands for circuit index `i`; [`Position::sow`] takes one.
    pub fn candidate_mask(&self) -> u128 {
        let cells = self.circuit(self.turn);
        let mut mask = 0u128;
        for (i, &c) in cells.iter().enumerate() {
            mask |= u128::from(c >= 2) << i;
        }
        if mask != 0 {
            return mask;
        }
        for (i, &c) in cells.iter().enumerate() {
            let next = cells[(i + 1) % cells.len()];
            mask |= u128::from(c == 1 && next == 0) << i;
        }
        mask
    }

    /// Where sowing from circuit pit `i` (a candidate) ends and what it
    /// captures, as [`Position::sow`] finds them; `None` if endless. Only
    /// the mover's side is copied, not the position.
    pub fn sowing(&self, i: usize) -> Option<Sowing> {
        let base = self.turn.index() * MAX_CIRCUIT;
        let len = self.circuit_len();
        let mut window: [u8; MAX_CIRCUIT] = self.cells[base..base + MAX_CIRCUIT]
            .try_into()
            .expect("a side's window");
        let end = sow_circuit::<false>(&mut window, len, &[], i, &mut 0)?;
        let (captured, required) = self.capture_at(end);
        Some(Sowing {
            end,
            captured,
            required,
        })
    }

    /// The cell of the opponent's pit facing the mover's circuit index
    /// `end`, if `end` is in the mover's inner row.
    fn front(&self, end: usize) -> Option<usize> {
        let facing = super::facing(self.size, end)?;
        Some(self.turn.other().index() * MAX_CIRCUIT + facing)
    }

    /// The stones a sowing that ends at circuit index `end` captures at the
    /// front, and the bonus it then requires. The sowing moves none of the
    /// opponent's stones, so this position's count stands.
    fn capture_at(&self, end: usize) -> (u8, u8) {
        let Some(slot) = self.front(end) else {
            return (0, 0);
        };
        let captured = self.cells[slot];
        let left = self.stones[self.turn.other().index()] - captured;
        (captured, captured.min(left))
    }

    /// Every origin that sows to an end, with its [`Sowing`], in circuit order.
    pub fn sowing_ends(&self) -> impl Iterator<Item = (usize, Sowing)> + '_ {
        self.each_candidate(Position::sowing)
    }

    /// `sow` from every candidate origin, in circuit order, keeping those
    /// that end.
    fn each_candidate<'a, T>(
        &'a self,
        sow: impl Fn(&Position, usize) -> Option<T> + 'a,
    ) -> impl Iterator<Item = (usize, T)> + 'a {
        let mut mask = self.candidate_mask();
        std::iter::from_fn(move || {
            while mask != 0 {
                let i = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                if let Some(t) = sow(self, i) {
                    return Some((i, t));
                }
            }
            None
        })
    }

    /// Sows from circuit pit `i` (a candidate); `None` if the sowing is endless.
    pub fn sow(&self, i: usize) -> Option<Sown> {
        let me = self.turn;
        let them = me.other();
        let mut pos = self.clone();
        let base = me.index() * MAX_CIRCUIT;
        let len = pos.circuit_len();
        let keys = &keys::PIT[base..base + len];
        let mut hash = pos.pit_hash;
        let window = (&mut pos.cells[base..base + MAX_CIRCUIT])
            .try_into()
            .expect("a side's window");
        let end = sow_circuit::<true>(window, len, keys, i, &mut hash)?;
        pos.pit_hash = hash;
        let (captured, required) = self.capture_at(end);
        if let Some(slot) = self.front(end).filter(|_| captured > 0) {
            pos.cells[slot] = 0;
            pos.pit_hash = pos
                .pit_hash
                .wrapping_sub(u64::from(captured).wrapping_mul(keys::PIT[slot]));
            pos.stones[them.index()] -= captured;
        }
        Some(Sown {
            origin: Pit::from_circuit(me, i, self.size),
            end: Pit::from_circuit(me, end, self.size),
            pos,
            captured,
            required,
        })
    }

    /// Sows from `pit` after checking that the mover may start there.
    pub fn sow_pit(&self, pit: Pit) -> Result<Sown, IllegalMove> {
        let me = self.turn;
        if self.stones(me) == 0 {
            return Err(IllegalMove::new(Illegal::GameOver, "the game is over"));
        }
        if pit.owner() != me {
            return Err(IllegalMove::new(
                Illegal::NotYourPit,
                format!("{pit} is not a pit of {me}"),
            )
            .with("pit", pit));
        }
        let i = pit.circuit_index(self.size).ok_or_else(|| {
            IllegalMove::new(
                Illegal::NoSuchPit,
                format!("no pit {pit} on a 4x{} board", self.size),
            )
            .with("pit", pit)
            .with("size", self.size)
        })?;
        if self.candidate_mask() & (1 << i) == 0 {
            let (kind, why) = match self.circuit(me)[i] {
                0 => (Illegal::EmptyPit, "is empty"),
                1 if self.has_big_pit() => (
                    Illegal::SingleStone,
                    "holds a single stone while a pit holds two or more",
                ),
                _ => (
                    Illegal::NextOccupied,
                    "holds a single stone whose next pit is not empty",
                ),
            };
            return Err(IllegalMove::new(kind, format!("{pit} {why}")).with("pit", pit));
        }
        self.sow(i).ok_or_else(|| {
            IllegalMove::new(
                Illegal::Endless,
                format!("the sowing from {pit} never ends"),
            )
            .with("pit", pit)
        })
    }

    /// Why `pit` cannot start a move of the side to move, or `None` if a
    /// legal move starts there.
    pub fn refusal(&self, pit: Pit) -> Option<Refusal> {
        let me = self.turn;
        if self.stones(me) == 0 {
            return Some(Refusal::GameOver);
        }
        let Some(i) = pit.circuit_index(self.size).filter(|_| pit.owner() == me) else {
            return Some(Refusal::NotYours);
        };
        if self.candidate_mask() & (1 << i) != 0 {
            return self.sow(i).is_none().then_some(Refusal::Endless);
        }
        Some(match self.circuit(me)[i] {
            0 => Refusal::Empty,
            1 if self.has_big_pit() => Refusal::SingleStone,
            _ => Refusal::NextOccupied,
        })
    }

    fn has_big_pit(&self) -> bool {
        self.circuit(self.turn).iter().any(|&c| c >= 2)
    }

    /// Every sowing the side to move may start, lazily, in circuit order:
    /// the candidates whose sowing ends, each with its circuit index.
    pub fn sowings(&self) -> impl Iterator<Item = (usize, Sown)> + '_ {
        self.each_candidate(Position::sow)
    }

    /// Every legal origin with the bonus it obliges, in canonical pit order.
    pub fn legal_origins(&self) -> OriginList {
        let mut list = OriginList::new();
        if self.stones(self.turn) == 0 {
            return list;
        }
        for (i, sowing) in self.sowing_ends() {
            list.push(Origin {
                pit: Pit::from_circuit(self.turn, i, self.size),
                bonus: sowing.required,
            });
        }
        list.sort_unstable_by_key(|o| o.pit);
        list
    }

    /// Whether any origin sows to an end.
    pub fn has_legal_origin(&self) -> bool {
        self.sowing_ends().next().is_some()
    }

    /// The number of legal complete moves, bonus distributions counted
    /// without listing them.
    pub fn count_moves(&self) -> u128 {
        if self.stones(self.turn) == 0 {
            return 0;
        }
        self.sowings().map(|(_, sown)| sown.count_bonuses()).sum()
    }

    /// Every legal complete move, origin by origin, bonus by bonus.
    pub fn legal_moves(&self) -> impl Iterator<Item = super::Move> + '_ {
        self.legal_origins().into_iter().flat_map(move |origin| {
            let sown = self.sow_pit(origin.pit).expect("a legal origin sows");
            let pit = sown.origin;
            sown.distributions()
                .map(move |bonus| super::Move::new(pit, bonus))
        })
    }
}

impl Sown {
    /// The position after sowing and front capture, before the bonus and
    /// with the mover still to move.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn origin(&self) -> Pit {
        self.origin
    }

    /// The pit where the last stone fell.
    pub fn end(&self) -> Pit {
        self.end
    }

    /// Stones taken from the opposite inner pit.
    pub fn captured(&self) -> u8 {
        self.captured
    }

    /// Bonus stones the mover must now remove.
    pub fn required(&self) -> u8 {
        self.required
    }

    /// The side that loses the bonus stones.
    pub fn victim(&self) -> Side {
        self.pos.turn.other()
    }

    /// Every bonus this sowing allows, lazily (one empty bonus if none).
    pub fn distributions(&self) -> Distributions {
        Distributions::new(&self.pos, self.victim(), self.required)
    }

    /// The bonus [`Sown::distributions`] yields at `rank` (from 0), without
    /// walking the ones before it; `None` past the last.
    pub fn distribution(&self, rank: u128) -> Option<Bonus> {
        super::bonus::nth_distribution(&self.pos, self.victim(), self.required, rank)
    }

    /// The number of bonuses this sowing allows.
    pub fn count_bonuses(&self) -> u128 {
        let victim = self.victim();
        super::count_distributions(self.pos.circuit(victim), self.required)
    }

    /// Removes the bonus and passes the turn, after checking the bonus.
    pub fn finish(self, bonus: &Bonus) -> Result<Position, IllegalMove> {
        let victim = self.victim();
        let taken = bonus.total();
        if taken > 0 && bonus.victim() != victim {
            return Err(IllegalMove::new(
                Illegal::BonusSide,
                format!("the bonus must be taken from {victim}'s pits"),
            )
            .with("side", victim));
        }
        for (pit, n) in bonus.iter() {
            let have = self.pos.count(pit).ok_or_else(|| {
                IllegalMove::new(
                    Illegal::NoSuchPit,
                    format!("no pit {pit} on a 4x{} board", self.pos.size),
                )
                .with("pit", pit)
                .with("size", self.pos.size)
            })?;
            if n > have {
                return Err(IllegalMove::new(
                    Illegal::BonusExceedsPit,
                    format!("bonus takes {n} from {pit}, which holds {have}"),
                )
                .with("count", n)
                .with("pit", pit)
                .with("have", have));
            }
        }
        if taken != u32::from(self.required) {
            let s = if taken == 1 { "" } else { "s" };
            return Err(IllegalMove::new(
                Illegal::BonusCount,
                format!("bonus removes {taken} stone{s}, {} required", self.required),
            )
            .with("count", taken)
            .with("required", self.required));
        }
        Ok(self.finish_unchecked(bonus))
    }

    /// Removes a bonus known to be valid and passes the turn.
    pub fn finish_unchecked(mut self, bonus: &Bonus) -> Position {
        let victim = self.victim();
        let base = victim.index() * MAX_CIRCUIT;
        for (pit, n) in bonus.iter() {
            let i = base + pit.circuit_index(self.pos.size).expect("checked");
            self.pos.cells[i] -= n;
            self.pos.pit_hash = self
                .pos
                .pit_hash
                .wrapping_sub(u64::from(n).wrapping_mul(keys::PIT[i]));
            self.pos.stones[victim.index()] -= n;
        }
        self.pos.turn = victim;
        self.pos
    }

    /// Removes the bonus chosen by `pick`, which is called once per stone with
    /// the victim's circuit and must return the index of a non-empty pit.
    pub fn finish_with(mut self, mut pick: impl FnMut(&[u8]) -> usize) -> Position {
        let victim = self.victim();
        let base = victim.index() * MAX_CIRCUIT;
        for _ in 0..self.required {
            let i = pick(self.pos.circuit(victim));
            assert!(self.pos.circuit(victim)[i] > 0, "bonus picked an empty pit");
            self.pos.cells[base + i] -= 1;
            self.pos.pit_hash = self.pos.pit_hash.wrapping_sub(keys::PIT[base + i]);
            self.pos.stones[victim.index()] -= 1;
        }
        self.pos.turn = victim;
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain way: every state after a lift remembered. The hand is
    /// the stones not in the circuit, so a state is the pit and the cells.
    fn sow_remembering(cells: &mut [u8], start: usize) -> Option<usize> {
        let mut seen = std::collections::HashSet::new();
        let mut pos = start;
        let mut hand = std::mem::take(&mut cells[pos]);
        loop {
            for _ in 0..hand {
                pos = (pos + 1) % cells.len();
                cells[pos] += 1;
            }
            if cells[pos] == 1 {
                return Some(pos);
            }
            hand = std::mem::take(&mut cells[pos]);
            if !seen.insert((pos, cells.to_vec())) {
                return None;
            }
        }
    }

    #[test]
    fn brent_finds_every_end_and_every_endless_sowing_the_plain_way_finds() {
        // Every circuit of 3 to 6 pits holding 0 to 3 stones, from every
        // pit that holds some.
        let mut endless = 0;
        for len in 3..=6usize {
            for code in 0..4usize.pow(len as u32) {
                let cells: Vec<u8> = (0..len).map(|i| (code >> (2 * i) & 3) as u8).collect();
                for start in (0..len).filter(|&s| cells[s] > 0) {
                    let mut plain = cells.clone();
                    let expected = sow_remembering(&mut plain, start);
                    let mut window = [0u8; MAX_CIRCUIT];
                    window[..len].copy_from_slice(&cells);
                    let mut hash = 0;
                    let got =
                        sow_circuit::<true>(&mut window, len, &keys::PIT[..len], start, &mut hash);
                    assert_eq!(got, expected, "{cells:?} from {start}");
                    if got.is_some() {
                        assert_eq!(&window[..len], &plain[..], "{cells:?} from {start}");
                    }
                    endless += usize::from(got.is_none());
                    let mut unhashed = [0u8; MAX_CIRCUIT];
                    unhashed[..len].copy_from_slice(&cells);
                    let plain_end = sow_circuit::<false>(&mut unhashed, len, &[], start, &mut 0);
                    assert_eq!(plain_end, got, "unhashed, {cells:?} from {start}");
                }
            }
        }
        assert_eq!(endless, 404, "endless sowings among 23,184");
    }

    #[test]
    fn a_sowing_s_end_and_capture_are_those_of_the_sowing_itself() {
        // Every candidate origin, on positions where a capture leaves the
        // victim fewer stones than its bonus, then along games on 4x8 and
        // 4x13.
        let mut short_bonuses = 0;
        let mut check = |pos: &Position, size: u8| {
            let mut captures = 0;
            let mask = pos.candidate_mask();
            for i in (0..pos.circuit_len()).filter(|&i| mask >> i & 1 == 1) {
                // The capture read off the position after the sowing.
                let victim = pos.turn().other();
                let full = pos.sow(i).map(|s| {
                    let end = s.end().circuit_index(size).unwrap();
                    let left = s.position().stones(victim);
                    let captured = (pos.stones(victim) - left) as u8;
                    (end, captured, u32::from(captured).min(left) as u8)
                });
                let summary = pos.sowing(i).map(|s| (s.end, s.captured, s.required));
                assert_eq!(summary, full, "{pos} from {i}");
                captures += usize::from(full.is_some_and(|f| f.1 > 0));
                short_bonuses += usize::from(full.is_some_and(|f| f.2 < f.1));
            }
            let ends: Vec<usize> = pos.sowing_ends().map(|(i, _)| i).collect();
            let sown: Vec<usize> = pos.sowings().map(|(i, _)| i).collect();
            assert_eq!(ends, sown);
            captures
        };
        // North down to three stones, all in one inner pit.
        for k in 0..8 {
            let mut inner = ["0"; 8];
            inner[k] = "3";
            let fen = format!(
                "0,0,0,0,0,0,0,0/{}/0,0,0,0,0,0,0,0/2,2,2,2,2,2,2,2 s",
                inner.join(",")
            );
            check(&fen.parse().unwrap(), 8);
        }
        for (size, step) in [(8, 5), (13, 7)] {
            let mut pos = Position::start(size).unwrap();
            let mut captures = 0;
            for n in 0..120 {
                if pos.outcome().is_some() {
                    break;
                }
                captures += check(&pos, size);
                let moves: Vec<crate::nsolo::Move> = pos.legal_moves().collect();
                pos.play(&moves[(n * step + 1) % moves.len()]).unwrap();
            }
            assert!(captures > 30, "4x{size}: {captures} captures");
        }
        assert!(short_bonuses > 0, "no capture left its victim short");
    }
}
