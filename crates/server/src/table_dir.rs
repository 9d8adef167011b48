//! The server's endgame tables on disk. They are opened from their
//! directory at the start; where it holds none, they can be built there in
//! the background, so that a server started with no preparation (`cargo run
//! --release`) still gives Expert, hints and the analysis's « gagnant en N »
//! the tables a minute later, without delaying its first page.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use palabre_ai::tables::{self, BuildOptions, Tables};

use crate::thinker::Thinker;

/// The tables in `dir`, read into memory in the background; `None` when the
/// directory is missing or holds no table (then built if `build` > 0).
pub fn open(dir: &Path, build: u8) -> anyhow::Result<Option<Arc<Tables>>> {
    let Some(tables) = existing(dir)? else {
        if build == 0 {
            tracing::warn!(
                "no endgame tables in {}: Expert plays without",
                dir.display()
            );
        }
        return Ok(None);
    };
    tracing::info!(
        "endgame tables: {} materials in {}",
        tables.materials().len(),
        dir.display()
    );
    let tables = Arc::new(tables);
    // Read in the background: the server answers at once, and a search
    // that comes first reads what it needs itself.
    let preloading = Arc::clone(&tables);
    std::thread::spawn(move || {
        if let Err(e) = preloading.preload() {
            tracing::error!("endgame tables: {e}");
        }
    });
    Ok(Some(tables))
}

/// The tables in `dir`, or `None` if it is missing or holds none.
fn existing(dir: &Path) -> anyhow::Result<Option<Tables>> {
    if !dir.exists() {
        return Ok(None);
    }
    let tables = Tables::open(dir)?;
    Ok((!tables.materials().is_empty()).then_some(tables))
}

/// Builds the tables up to `max` balls into `dir` on a thread of its own,
/// then hands them to `thinker`. A failure is logged: the server goes on
/// without tables.
pub fn build_in_background(dir: PathBuf, max: u8, thinker: Arc<Thinker>) {
    let spawned = std::thread::Builder::new()
        .name("tables-build".into())
        .spawn(move || match build(&dir, max) {
            Ok(tables) => thinker.install_tables(tables),
            Err(e) => tracing::error!("endgame tables: building {}: {e:#}", dir.display()),
        });
    if let Err(e) = spawned {
        tracing::error!("endgame tables: no thread to build them: {e}");
    }
}

/// Builds in a sibling directory, then renames it to `dir`: a server
/// stopped halfway leaves no half-built set under `dir`, and of two servers
/// building at once, the second to finish keeps the first one's set. One
/// thread, so that the other cores keep serving games.
pub fn build(dir: &Path, max: u8) -> anyhow::Result<Arc<Tables>> {
    let started = Instant::now();
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).with_context(|| parent.display().to_string())?;
    let staging = tempfile::Builder::new()
        .prefix(".palabre-tables-")
        .tempdir_in(parent)
        .with_context(|| parent.display().to_string())?;
    tracing::info!(
        "endgame tables: building up to {max} balls in {}",
        dir.display()
    );
    let options = BuildOptions {
        threads: 1,
        ..BuildOptions::default()
    };
    tables::build_with(staging.path(), max, options, |_, _| {})?;
    // An empty `dir` is replaced; one that meanwhile got another server's
    // tables refuses, and those are used (the staging copy goes on drop).
    if let Err(e) = std::fs::rename(staging.path(), dir)
        && existing(dir)?.is_none()
    {
        return Err(e).with_context(|| dir.display().to_string());
    }
    let tables = Tables::open(dir)?;
    tables.preload()?;
    tracing::info!(
        "endgame tables: {} materials built in {} in {:.1} s",
        tables.materials().len(),
        dir.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(Arc::new(tables))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut all: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        all.sort();
        all
    }

    #[test]
    fn a_build_that_finds_its_directory_taken_keeps_the_tables_there() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("tables");
        let first = build(&dir, 3).unwrap();
        let second = build(&dir, 4).unwrap();
        assert_eq!(second.materials(), first.materials(), "the first set stays");
        assert_eq!(
            names(parent.path()),
            ["tables"],
            "no staging directory left"
        );
    }

    #[test]
    fn an_empty_directory_is_filled_and_a_missing_or_empty_one_holds_none() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("tables");
        assert!(existing(&dir).unwrap().is_none());
        std::fs::create_dir(&dir).unwrap();
        assert!(existing(&dir).unwrap().is_none());
        let built = build(&dir, 3).unwrap();
        assert_eq!(built.materials().len(), 3, "1v1, 1v2 and 2v1");
        assert_eq!(
            existing(&dir).unwrap().unwrap().materials(),
            built.materials()
        );
    }
}
