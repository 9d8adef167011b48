//! The game argument and the `--fen` / `--size` start-position options.

use clap::{Args, ValueEnum};
use palabre_rules::{nsolo, yote};

use crate::Failure;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Game {
    Yote,
    Nsolo,
}

#[derive(Debug, Clone, Args)]
pub struct StartArgs {
    /// Start from this position string instead of the start position.
    #[arg(long, value_name = "POS", conflicts_with = "size")]
    pub fen: Option<String>,
    /// Nsolo: the number of pits a row, 8 to 36 (default 8).
    #[arg(long, value_name = "N")]
    pub size: Option<u8>,
}

impl StartArgs {
    pub fn yote(&self) -> Result<yote::Position, Failure> {
        if self.size.is_some() {
            return Err(Failure::Input("--size applies to nsolo only".into()));
        }
        match &self.fen {
            Some(fen) => fen.parse().map_err(|e| Failure::Input(format!("{e}"))),
            None => Ok(yote::Position::START),
        }
    }

    pub fn nsolo(&self) -> Result<nsolo::Position, Failure> {
        match &self.fen {
            Some(fen) => fen.parse().map_err(|e| Failure::Input(format!("{e}"))),
            None => nsolo::Position::start(self.size.unwrap_or(8))
                .map_err(|e| Failure::Input(format!("invalid size: {e}"))),
        }
    }
}
