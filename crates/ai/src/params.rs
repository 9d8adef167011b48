//! Every tunable of the search and the evaluations, in one place.

/// Search and evaluation constants.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// log2 of the transposition table's entry count.
    pub tt_bits: u32,
    /// Threads for a search that uses its whole budget (Expert, hints):
    /// Lazy SMP over one shared transposition table.
    pub threads: usize,
    /// Minimum time kept in reserve under a movetime, in milliseconds.
    pub time_margin_ms: u64,
    /// Fraction of the budget after which no new iteration starts.
    pub soft_time_fraction: f64,
    /// Yoté: deepest quiescence below the horizon, in plies.
    pub yote_quiescence_plies: u32,
    /// Nsolo: deepest quiescence, and captures tried at each of its nodes.
    pub nsolo_quiescence_plies: u32,
    pub nsolo_quiescence_width: usize,
    /// Expert's time budget a move, in milliseconds.
    pub expert_budget_ms: u64,
    /// The machine accepts a draw when its own score is at most minus this.
    pub draw_accept_margin: i32,
    /// Before this ply (the opening) the machine refuses every draw.
    pub draw_min_ply: usize,
    /// Late-move reductions apply from this depth and move index.
    pub lmr_depth: u32,
    pub lmr_index: usize,

    /// Yoté: a ball on the board or in reserve.
    pub yote_ball: i32,
    /// Yoté: each capture jump available to the side to move.
    pub yote_threat_to_move: i32,
    /// Yoté: each capture jump the side not to move could make.
    pub yote_threat_waiting: i32,
    /// Yoté: each empty neighbour of a side's balls (room to move).
    pub yote_mobility: i32,
    /// Yoté: penalty for a side with an empty reserve and at most one step.
    pub yote_lock_danger: i32,
    /// Yoté: a ball kept in reserve (flexibility: it can go anywhere).
    pub yote_reserve_bonus: i32,
    /// Yoté: the evaluation fades to 0 over the last this many quiet plies.
    pub yote_quiet_fade: i32,

    /// Nsolo: a stone.
    pub nsolo_stone: i32,
    /// Nsolo: a pit of two or more (a move available).
    pub nsolo_mobile_pit: i32,
    /// Nsolo: a stone in the side's inner row, exposed to capture.
    pub nsolo_exposed: i32,
    /// Nsolo: bonus policies tried for a capture inside the tree.
    pub nsolo_policies: usize,
    /// Nsolo: bonus policies tried at the root and wherever at least
    /// `nsolo_wide_depth` plies remain (few nodes, much at stake).
    pub nsolo_wide_policies: usize,
    pub nsolo_wide_depth: u32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            tt_bits: 20,
            threads: 1,
            time_margin_ms: 15,
            soft_time_fraction: 0.45,
            yote_quiescence_plies: 8,
            nsolo_quiescence_plies: 4,
            nsolo_quiescence_width: 3,
            expert_budget_ms: 2000,
            draw_accept_margin: 30,
            draw_min_ply: 20,
            lmr_depth: 3,
            lmr_index: 4,
            yote_ball: 100,
            yote_threat_to_move: 60,
            yote_threat_waiting: 25,
            yote_mobility: 3,
            yote_lock_danger: 80,
            yote_reserve_bonus: 4,
            yote_quiet_fade: 60,
            nsolo_stone: 100,
            nsolo_mobile_pit: 6,
            nsolo_exposed: 3,
            nsolo_policies: 2,
            nsolo_wide_policies: 4,
            nsolo_wide_depth: 3,
        }
    }
}
