//! A validated Nsolo position: pit counts, the side to move and the hash.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use super::{MAX_CIRCUIT, MAX_SIZE, MIN_SIZE, Move, Pit, Setup, keys, start_stones};
use crate::{GamePosition, IllegalMove, Outcome, PositionError, SetupError, WinReason};

/// A side: South (« Sud ») moves first, North (« Nord ») second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    South = 0,
    North = 1,
}

impl Side {
    pub const fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "south",
            Side::North => "north",
        })
    }
}

/// A legal origin and the number of bonus stones its capture obliges the
/// mover to choose (0 when it captures nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    pub pit: Pit,
    pub bonus: u8,
}

/// The legal origins of a position, in canonical pit order.
pub type OriginList = ArrayVec<Origin, MAX_CIRCUIT>;

/// A legal Nsolo position (160 bytes for every size).
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// `cells[side * 72 + i]`: stones in circuit pit `i` of `side`.
    pub(super) cells: [u8; 2 * MAX_CIRCUIT],
    /// Sum of `count * key` over all pits, kept up to date by every change.
    pub(super) pit_hash: u64,
    pub(super) stones: [u8; 2],
    pub(super) size: u8,
    pub(super) turn: Side,
}

impl Position {
    /// The start position on `size` columns (8 to 36).
    pub fn start(size: u8) -> Result<Position, PositionError> {
        Position::try_from(Setup::start(size))
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// Stones `side` has on the board.
    pub const fn stones(&self, side: Side) -> u32 {
        self.stones[side.index()] as u32
    }

    /// The number of pits in each side's circuit.
    pub const fn circuit_len(&self) -> usize {
        2 * self.size as usize
    }

    /// Stones in `pit`, or `None` if the board has no such column.
    pub fn count(&self, pit: Pit) -> Option<u8> {
        let i = pit.circuit_index(self.size)?;
        Some(self.cells[pit.owner().index() * MAX_CIRCUIT + i])
    }

    /// One side's circuit, in sowing order.
    pub fn circuit(&self, side: Side) -> &[u8] {
        let start = side.index() * MAX_CIRCUIT;
        &self.cells[start..start + self.circuit_len()]
    }

    pub fn setup(&self) -> Setup {
        let mut setup = Setup {
            size: self.size,
            pits: [[0; MAX_SIZE as usize]; 4],
            turn: self.turn,
        };
        for side in [Side::South, Side::North] {
            for (i, &count) in self.circuit(side).iter().enumerate() {
                let pit = Pit::from_circuit(side, i, self.size);
                setup.pits[pit.row() as usize][pit.col() as usize - 1] = u16::from(count);
            }
        }
        setup
    }

    /// A hash of the pit counts, the side to move and the size, for
    /// transposition tables and repetition checks.
    pub fn hash(&self) -> u64 {
        let turn = if self.turn == Side::North {
            keys::NORTH_TO_MOVE
        } else {
            0
        };
        let size = keys::SIZE.wrapping_mul(u64::from(self.size));
        crate::mix::mix(self.pit_hash.wrapping_add(turn).wrapping_add(size))
    }

    /// The additive pit hash computed from scratch.
    pub(super) fn recompute_pit_hash(&self) -> u64 {
        let mut h = 0u64;
        for side in [Side::South, Side::North] {
            let base = side.index() * MAX_CIRCUIT;
            for (i, &c) in self.circuit(side).iter().enumerate() {
                h = h.wrapping_add(u64::from(c).wrapping_mul(keys::PIT[base + i]));
            }
        }
        h
    }

    /// Whether the incrementally kept hash matches one computed afresh.
    pub fn hash_is_consistent(&self) -> bool {
        self.pit_hash == self.recompute_pit_hash()
    }

    /// The end decided by the position alone: no stones, then no move.
    /// Repetition needs the game's history: see [`crate::Record`].
    pub fn outcome(&self) -> Option<Outcome<Side>> {
        let winner = self.turn.other();
        if self.stones(self.turn) == 0 {
            Some(Outcome::Win {
                winner,
                reason: WinReason::NoStones,
            })
        } else if !self.has_legal_origin() {
            Some(Outcome::Win {
                winner,
                reason: WinReason::NoMove,
            })
        } else {
            None
        }
    }

    /// Plays `m` after checking it; an illegal move changes nothing.
    pub fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        let next = self.sow_pit(m.origin())?.finish(m.bonus())?;
        *self = next;
        Ok(())
    }
}

impl TryFrom<Setup> for Position {
    type Error = PositionError;

    fn try_from(s: Setup) -> Result<Position, PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&s.size) {
            return Err(PositionError(format!(
                "{} columns, expected 8 to 36",
                s.size
            )));
        }
        let mut pos = Position {
            cells: [0; 2 * MAX_CIRCUIT],
            pit_hash: 0,
            stones: [0; 2],
            size: s.size,
            turn: s.turn,
        };
        for side in [Side::South, Side::North] {
            let mut total = 0u32;
            for i in 0..pos.circuit_len() {
                let pit = Pit::from_circuit(side, i, s.size);
                let count = s.pits[pit.row() as usize][pit.col() as usize - 1];
                total += u32::from(count);
                if total > start_stones(s.size) {
                    return Err(PositionError(format!(
                        "{side} has more than {} stones",
                        start_stones(s.size)
                    )));
                }
                pos.cells[side.index() * MAX_CIRCUIT + i] = count as u8;
            }
            pos.stones[side.index()] = total as u8;
        }
        pos.pit_hash = pos.recompute_pit_hash();
        Ok(pos)
    }
}

impl FromStr for Position {
    type Err = SetupError;

    fn from_str(s: &str) -> Result<Position, SetupError> {
        Ok(Position::try_from(s.parse::<Setup>()?)?)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl GamePosition for Position {
    type Side = Side;
    type Move = Move;
    const NAME: &'static str = "nsolo";
    const REPETITION_DRAWS: bool = true;

    fn from_position_string(s: &str) -> Result<Position, SetupError> {
        s.parse()
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        Position::play(self, m)
    }

    fn outcome(&self) -> Option<Outcome<Side>> {
        Position::outcome(self)
    }

    fn hash(&self) -> u64 {
        Position::hash(self)
    }
}
