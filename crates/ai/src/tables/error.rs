//! What can go wrong when building, storing or probing tables.

use std::path::PathBuf;

use super::Material;

/// A table failure.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a Palabre Yoté table ({reason})", path.display())]
    Corrupt { path: PathBuf, reason: String },
    #[error("no table for {0} in the table directory")]
    Missing(Material),
    #[error("position outside the tables: {0}")]
    NotCovered(String),
    #[error("at most {max} balls can be built, {asked} asked")]
    TooManyBalls { asked: u8, max: u8 },
}

impl TableError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TableError {
        TableError::Io {
            path: path.into(),
            source,
        }
    }
}
