//! Every tunable of the search and the evaluations, in one place.

/// Search and evaluation constants.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// Yoté: deepest quiescence below the horizon, in plies, and captures
    /// tried at each of its nodes (best-ordered first). Two, not all: a
    /// jump comes with up to 13 choices of second ball, and trying every
    /// one at every quiescence node cost more depth than it found
    /// (docs/strength.md, "A narrow quiescence").
    pub yote_quiescence_plies: u32,
    pub yote_quiescence_width: usize,
    /// Yoté: with at most this many empty holes (three: docs/strength.md,
    /// "Three holes are already cramped") the side to move cannot
    /// wait (each step may open a jump, and a full board is often a
    /// zugzwang), so the first `yote_cramped_plies` plies of quiescence
    /// search every move there instead of standing pat. 0 turns it off.
    pub yote_cramped_holes: u32,
    pub yote_cramped_plies: u32,
    /// Nsolo: deepest quiescence, and captures tried at each of its nodes.
    /// Twice as deep wins at 10 ms a move but loses at 1 ms and is level
    /// at 100 ms (docs/strength.md, "A deeper capture quiescence").
    pub nsolo_quiescence_plies: u32,
    pub nsolo_quiescence_width: usize,
    /// Expert's time budget a move, in milliseconds.
    pub expert_budget_ms: u64,
    /// Under a game clock: the moves a side expects to make after its
    /// placements (all of Nsolo's moves), in `game_clock.rs`.
    pub clock_moves_ahead: u32,
    /// Under a game clock on an Nsolo board: the mover still expects this
    /// times the board's pits times the square root of the stones in play
    /// moves, if more than `clock_moves_ahead`. Fitted to 50 games between
    /// Confirmé and itself on 4×8 to 4×36, where a game runs from 50 plies
    /// (4×8) to 640 (4×36): at a flat 20, a 4×36 game spent its clock in
    /// its first hundred moves and lost on time (docs/strength.md).
    pub clock_nsolo_length: f64,
    /// Under a game clock: how many later moves one Yoté placement still
    /// in reserve weighs. One: twice or four times did not win
    /// (docs/strength.md, "A game clock").
    pub clock_placement_weight: f64,
    /// Under a game clock: the time, in milliseconds, kept back from the
    /// share of every move for the answers still to come. A harness charges
    /// each answer's way back as well as its search, and without an
    /// increment a long game is paid for from what is left; within the
    /// reserve a move gets a 500th of the time left (`game_clock.rs`).
    pub clock_reserve_ms: u64,
    /// The machine accepts a draw when its own score is at most minus this.
    pub draw_accept_margin: i32,
    /// Before this ply (the opening) the machine refuses every draw.
    pub draw_min_ply: usize,
    /// Late-move reductions apply from this depth and move index.
    pub lmr_depth: u32,
    pub lmr_index: usize,

    /// Yoté: whether the search reads the endgame tables at every node they
    /// cover (they always answer at the root).
    pub yote_table_probes: bool,
    /// Yoté: the most balls a position read from the tables inside the
    /// search may hold. Bigger tables still answer at the root; read at
    /// every node they made Expert weaker (docs/strength.md).
    pub yote_table_probe_balls: u32,
    /// Yoté: the transposition table tells positions apart by their quiet
    /// count too (the evaluation fades with it and the draw comes at 120).
    pub yote_hash_quiet: bool,
    /// Yoté: in a position the tables call drawn, play the drawing move
    /// that leaves the opponent the most losing replies.
    pub yote_table_swindle: bool,
    /// Yoté: a ball on the board or in reserve. It sets the scale; the
    /// weights after it were fitted to game results (`examples/texel.rs`,
    /// docs/strength.md), so the values say what won games, not a theory.
    pub yote_ball: i32,
    /// Yoté: each capture jump available to the side to move.
    pub yote_threat_to_move: i32,
    /// Yoté: each capture jump the side not to move could make.
    pub yote_threat_waiting: i32,
    /// Yoté: each empty neighbour of a side's balls (room to move).
    pub yote_mobility: i32,
    /// Yoté: penalty for a side with an empty reserve and at most one step.
    pub yote_lock_danger: i32,
    /// Yoté: a ball still in reserve, on top of its worth as a ball (it
    /// goes anywhere, and the side with more to place moves last into the
    /// filling board).
    pub yote_reserve_bonus: i32,
    /// Yoté, while a side still places: each hole it can fill without
    /// being jumped at once (to move, waiting).
    pub yote_safe_to_move: i32,
    pub yote_safe_waiting: i32,
    /// Yoté: each reserve ball of a side beyond its safe holes: it will
    /// have to be placed where it can be taken (to move, waiting).
    pub yote_short_to_move: i32,
    pub yote_short_waiting: i32,
    /// Yoté: each line through one of a side's balls with both holes free
    /// (an enemy ball on one side would threaten it; to move, waiting).
    pub yote_exposed_to_move: i32,
    pub yote_exposed_waiting: i32,
    /// Yoté, while a side still places: each hole where its ball would
    /// threaten a jump at once (to move, waiting).
    pub yote_attack_to_move: i32,
    pub yote_attack_waiting: i32,
    /// Yoté: the evaluation fades to 0 over the last this many quiet plies.
    pub yote_quiet_fade: i32,
    /// Yoté, both reserves empty and at most `yote_crowded_holes` holes
    /// free: each step a side can make without leaving the other a jump.
    /// On a crowded board the side that runs out of such steps first must
    /// open a jump or be shut in (docs/strength.md, "Safe steps on a
    /// crowded board"). 0 holes turns it off.
    pub yote_crowded_holes: u32,
    pub yote_crowded_safe: i32,
    /// Yoté: the material lead times the balls already gone (a lead of two
    /// weighs 0.06 ball more for each ball gone), so that the side ahead
    /// trades down instead of keeping a crowded board it cannot break
    /// (docs/strength.md, "A lead that grows as the board empties").
    pub yote_lead_trade: i32,
    /// Yoté, while a side places: the learnt patterns of rows, columns and
    /// 2×2 blocks (`yote::patterns`), in percent of their fitted weight;
    /// at half of it Expert scored 59.6 % against Expert without them
    /// (docs/strength.md, "Placement patterns learnt from 10,000 games").
    pub yote_patterns: i32,

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
    /// Nsolo: at the root, a capture with at most this many bonus
    /// distributions searches every one of them instead of the policies.
    pub nsolo_root_bonuses: usize,
    /// Nsolo: the same inside the tree, wherever at least
    /// `nsolo_inner_depth` plies remain.
    pub nsolo_inner_bonuses: usize,
    pub nsolo_inner_depth: u32,
    /// Nsolo: the widest board (pits a row) on which the lookahead policy
    /// is among the bonuses compared. It sows every victim origin for each
    /// pit a stone may come from, a cost that grows as the square of the
    /// row: on 4×36 one capture's lookahead takes milliseconds, and a 10 ms
    /// move answered in 14 (docs/strength.md, "On time on wide boards").
    pub nsolo_lookahead_size: u8,
}

/// The most a weight of the evaluation may be worth, in either direction:
/// ten balls or stones. Beyond it a score could overflow or pass for a
/// forced win.
const MAX_WEIGHT: i32 = 1000;

impl Default for Params {
    fn default() -> Params {
        Params {
            tt_bits: 20,
            threads: 1,
            time_margin_ms: 15,
            soft_time_fraction: 0.45,
            yote_quiescence_plies: 8,
            yote_quiescence_width: 2,
            yote_cramped_holes: 3,
            yote_cramped_plies: 4,
            nsolo_quiescence_plies: 4,
            nsolo_quiescence_width: 3,
            expert_budget_ms: 2000,
            clock_moves_ahead: 20,
            clock_nsolo_length: 0.12,
            clock_placement_weight: 1.0,
            clock_reserve_ms: 60,
            draw_accept_margin: 30,
            draw_min_ply: 20,
            lmr_depth: 3,
            lmr_index: 4,
            yote_table_probes: true,
            yote_table_probe_balls: 8,
            yote_table_swindle: true,
            yote_hash_quiet: true,
            yote_ball: 100,
            yote_threat_to_move: 60,
            yote_threat_waiting: 108,
            yote_mobility: -2,
            yote_lock_danger: 100,
            yote_reserve_bonus: 217,
            yote_safe_to_move: 68,
            yote_safe_waiting: 75,
            yote_short_to_move: 301,
            yote_short_waiting: 90,
            yote_exposed_to_move: -8,
            yote_exposed_waiting: -4,
            yote_attack_to_move: 53,
            yote_attack_waiting: 57,
            yote_quiet_fade: 60,
            yote_crowded_holes: 6,
            yote_crowded_safe: 15,
            yote_lead_trade: 3,
            yote_patterns: 50,
            nsolo_stone: 100,
            nsolo_mobile_pit: 6,
            nsolo_exposed: 3,
            nsolo_policies: 2,
            nsolo_wide_policies: 5,
            nsolo_wide_depth: 2,
            nsolo_root_bonuses: 2000,
            nsolo_inner_bonuses: 200,
            nsolo_inner_depth: 3,
            nsolo_lookahead_size: 16,
        }
    }
}

impl Params {
    /// Sets one tunable by its field name, from its text (`"0.6"`, `"4"`),
    /// so that an engine can be tuned or compared from the command line
    /// without a rebuild.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut all = serde_json::to_value(&*self).map_err(|e| e.to_string())?;
        let field = all
            .get_mut(name)
            .ok_or_else(|| format!("no parameter {name:?}"))?;
        *field =
            serde_json::from_str(value).map_err(|_| format!("bad value {value:?} for {name}"))?;
        let next: Params =
            serde_json::from_value(all).map_err(|_| format!("bad value {value:?} for {name}"))?;
        next.check()?;
        *self = next;
        Ok(())
    }

    /// The bounds outside which a search would crash or make no sense.
    fn check(&self) -> Result<(), String> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err("threads: 1 to 64".into());
        }
        if !(8..=28).contains(&self.tt_bits) {
            return Err("tt_bits: 8 to 28".into());
        }
        if self.nsolo_policies == 0 || self.nsolo_wide_policies == 0 {
            return Err("at least one bonus policy".into());
        }
        // A root bonus is named by a 16-bit rank.
        if self.nsolo_root_bonuses > 60_000 || self.nsolo_inner_bonuses > 60_000 {
            return Err("nsolo_root_bonuses, nsolo_inner_bonuses: 0 to 60000".into());
        }
        let quiet_limit = i32::from(palabre_rules::yote::QUIET_LIMIT);
        if !(1..=quiet_limit).contains(&self.yote_quiet_fade) {
            return Err("yote_quiet_fade: 1 to 120".into());
        }
        if self.lmr_depth == 0 {
            return Err("lmr_depth: at least 1".into());
        }
        if self.draw_accept_margin.unsigned_abs() > crate::score::WIN_BOUND.unsigned_abs() {
            return Err("draw_accept_margin: within a forced win".into());
        }
        let weights = crate::yote::eval::weights(self).into_iter().chain([
            self.yote_crowded_safe,
            self.yote_lead_trade,
            self.nsolo_stone,
            self.nsolo_mobile_pit,
            self.nsolo_exposed,
        ]);
        if weights
            .into_iter()
            .any(|w| !(-MAX_WEIGHT..=MAX_WEIGHT).contains(&w))
        {
            return Err(format!("evaluation weights: -{MAX_WEIGHT} to {MAX_WEIGHT}"));
        }
        if !(0..=400).contains(&self.yote_patterns) {
            return Err("yote_patterns: 0 to 400 (percent)".into());
        }
        if !(0.0..=1.0).contains(&self.soft_time_fraction) {
            return Err("soft_time_fraction: 0 to 1".into());
        }
        if !(0.1..=100.0).contains(&self.clock_placement_weight) {
            return Err("clock_placement_weight: 0.1 to 100".into());
        }
        if !(1..=1000).contains(&self.clock_moves_ahead) {
            return Err("clock_moves_ahead: 1 to 1000".into());
        }
        if !(0.0..=10.0).contains(&self.clock_nsolo_length) {
            return Err("clock_nsolo_length: 0 to 10".into());
        }
        Ok(())
    }
}

/// More threads than this only slow a search down on any machine we know.
pub const MAX_THREADS: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tunable_is_set_by_name_and_bad_input_changes_nothing() {
        let mut p = Params::default();
        p.set("soft_time_fraction", "0.6").unwrap();
        p.set("yote_ball", "120").unwrap();
        assert_eq!((p.soft_time_fraction, p.yote_ball), (0.6, 120));
        let before = p.clone();
        for (name, value) in [
            ("no_such", "1"),
            ("yote_ball", "heavy"),
            ("yote_ball", "1.5"),
            ("tt_bits", "-1"),
            ("threads", "0"),
            ("threads", "65"),
            ("tt_bits", "40"),
            ("nsolo_root_bonuses", "70000"),
            ("nsolo_inner_bonuses", "70000"),
            ("yote_ball", "{\"a\":1}"),
            // Each of these crashed or wrapped a search (a division by
            // zero, a subtraction below zero, a product past i32).
            ("yote_quiet_fade", "0"),
            ("yote_quiet_fade", "121"),
            ("lmr_depth", "0"),
            ("yote_ball", "2147483647"),
            ("yote_ball", "-2147483648"),
            ("yote_lead_trade", "5000"),
            ("yote_patterns", "-1"),
            ("yote_patterns", "100000000"),
            ("nsolo_stone", "2147483647"),
            ("draw_accept_margin", "-2147483648"),
        ] {
            assert!(p.set(name, value).is_err(), "{name}={value}");
        }
        assert_eq!(p, before);
    }
}
