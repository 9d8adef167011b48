//! What the generic search needs from a game.

use std::fmt::Debug;

/// Ordering scores of captures start here, above killers and history.
pub const NOISY: i32 = 1 << 24;

/// A game as the search sees it: positions, small copyable search moves,
/// move generation, evaluation and move-ordering hints. All scores are from
/// the side to move's point of view.
pub trait SearchGame {
    type Position: Clone + Debug;
    /// A move as searched; small and `Copy` (Nsolo's stands for an origin and
    /// a bonus policy, made into a full bonus when played).
    type Move: Copy + PartialEq + Debug + Send;

    /// Whether a repeated position is a draw (checked along the search path
    /// and against the game's history).
    const REPETITION_DRAWS: bool;
    /// The size of the history table indexed by [`SearchGame::history_slot`].
    const HISTORY_SLOTS: usize;

    fn hash(&self, pos: &Self::Position) -> u64;
    /// The result of a finished game that needs no move generation: `Some(0)`
    /// for a draw, `Some(-1)` for a loss of the side to move.
    fn quick_outcome(&self, pos: &Self::Position) -> Option<i32>;
    /// Every move to search, each with a static ordering score (higher is
    /// searched first; captures should score above [`NOISY`]).
    fn generate(&self, pos: &Self::Position, out: &mut Vec<(Self::Move, i32)>);
    /// The moves to search at a node `depth` plies above the horizon (the
    /// root of a search for the best move passes `u32::MAX`). By default the
    /// same as [`SearchGame::generate`]; a game may search more choices
    /// where the depth is large, since there are few such nodes and much
    /// rides on them.
    fn generate_at(&self, pos: &Self::Position, depth: u32, out: &mut Vec<(Self::Move, i32)>) {
        let _ = depth;
        self.generate(pos, out);
    }
    /// The moves quiescence searches (captures), with ordering scores.
    fn generate_noisy(&self, pos: &Self::Position, out: &mut Vec<(Self::Move, i32)>);
    fn is_noisy(&self, m: Self::Move) -> bool;
    /// How deep quiescence goes below the horizon and how many of the
    /// best-ordered captures it tries at each node.
    fn quiescence_limits(&self) -> (u32, usize);
    /// Whether quiescence, `qply` plies below the horizon, must search
    /// every move here instead of standing pat: where the side to move
    /// cannot wait (a nearly full Yoté board, where every move may open a
    /// capture), the static score is not a score it can keep.
    fn cannot_wait(&self, pos: &Self::Position, qply: u32) -> bool {
        let _ = (pos, qply);
        false
    }
    fn play(&self, pos: &Self::Position, m: Self::Move) -> Self::Position;
    fn evaluate(&self, pos: &Self::Position) -> i32;
    /// The exact value of a position from outside the search (endgame
    /// tables), scored as at the root: the search adjusts decisive values
    /// for their distance. `None` where nothing is known.
    fn known(&self, pos: &Self::Position) -> Option<i32> {
        let _ = pos;
        None
    }
    /// A compact identity of a move for the transposition table.
    fn key(&self, m: Self::Move) -> u32;
    /// The move of `key` if [`SearchGame::generate_at`] would list it at
    /// `depth` in `pos`, found without generating the others: the search
    /// tries the table's move first and generates the rest only if it does
    /// not cut. `None` (the default) makes the search generate first.
    fn move_for_key(&self, pos: &Self::Position, depth: u32, key: u32) -> Option<Self::Move> {
        let _ = (pos, depth, key);
        None
    }
    fn history_slot(&self, m: Self::Move) -> usize;
}
