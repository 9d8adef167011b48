//! A move told step by step (lifts, drops, relays, the capture, the bonus),
//! for interfaces that animate a sowing without knowing the rules.

use super::{MAX_CIRCUIT, Move, Pit, Position};
use crate::IllegalMove;

/// One step of a move, in the order it happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// All stones of `pit` are lifted; `relay` for every lift but the first.
    Lift { pit: Pit, count: u8, relay: bool },
    /// One stone falls into `pit`.
    Drop { pit: Pit },
    /// The opposite inner pit's stones are captured.
    Capture { pit: Pit, count: u8 },
    /// Bonus stones are removed from `pit`.
    Bonus { pit: Pit, count: u8 },
}

impl Position {
    /// The steps of `m`, which must be legal here (checked first).
    pub fn trace(&self, m: &Move) -> Result<Vec<Step>, IllegalMove> {
        let sown = self.sow_pit(m.origin())?;
        let captured = sown.captured();
        let end = sown.end();
        sown.finish(m.bonus())?;
        let me = self.turn;
        let size = self.size;
        let mut cells = [0u8; MAX_CIRCUIT];
        let len = self.circuit_len();
        cells[..len].copy_from_slice(self.circuit(me));
        let mut pos = m.origin().circuit_index(size).expect("checked by sow_pit");
        let mut steps = Vec::new();
        let mut relay = false;
        loop {
            let hand = std::mem::take(&mut cells[pos]);
            steps.push(Step::Lift {
                pit: Pit::from_circuit(me, pos, size),
                count: hand,
                relay,
            });
            for _ in 0..hand {
                pos = (pos + 1) % len;
                cells[pos] += 1;
                steps.push(Step::Drop {
                    pit: Pit::from_circuit(me, pos, size),
                });
            }
            if cells[pos] == 1 {
                break;
            }
            relay = true;
        }
        debug_assert_eq!(Pit::from_circuit(me, pos, size), end);
        if captured > 0 {
            let front = 3 * usize::from(size) - 1 - pos;
            steps.push(Step::Capture {
                pit: Pit::from_circuit(me.other(), front, size),
                count: captured,
            });
        }
        steps.extend(
            m.bonus()
                .iter()
                .map(|(pit, count)| Step::Bonus { pit, count }),
        );
        Ok(steps)
    }
}
