//! The server's endgame tables on disk. They are opened from their
//! directory at the start; where it holds none, they can be built there in
//! the background, so that a server started with no preparation (`cargo run
//! --release`) still gives Expert, hints and the analysis's « gagnant en N »
//! the tables half a minute later, without delaying its first page.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use palabre_ai::tables::{self, BuildOptions, Tables};

use crate::thinker::Thinker;

/// The start of a build's staging directory's name, beside `dir`.
const STAGING_PREFIX: &str = ".palabre-tables-";
/// A staging directory untouched this long belongs to a build that died
/// (its server was stopped): a running build adds a file far more often.
const STALE_AFTER: Duration = Duration::from_secs(24 * 3600);

/// Gives `thinker` the tables in `dir`, read into memory in the
/// background; where it is missing or holds no table, builds them there
/// first if `build` > 0, or leaves the server without.
pub fn provide(dir: &Path, build: u8, thinker: &Arc<Thinker>) -> anyhow::Result<()> {
    match Tables::find(dir)? {
        Some(tables) => {
            tracing::info!(
                "endgame tables: {} materials in {}",
                tables.materials().len(),
                dir.display()
            );
            let tables = Arc::new(tables);
            // Read in the background: the server answers at once, and a
            // search that comes first reads what it needs itself.
            let preloading = Arc::clone(&tables);
            std::thread::spawn(move || {
                if let Err(e) = preloading.preload() {
                    tracing::error!("endgame tables: {e}");
                }
            });
            thinker.install_tables(tables);
        }
        None if build > 0 => build_in_background(dir.to_path_buf(), build, Arc::clone(thinker)),
        None => tracing::warn!(
            "no endgame tables in {}: Expert plays without",
            dir.display()
        ),
    }
    Ok(())
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
    remove_stale_staging(parent);
    let staging = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
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
        && Tables::find(dir)?.is_none()
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

/// Removes the staging directories in `parent` that builds which died
/// left behind; another server's running build keeps its own.
fn remove_stale_staging(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let staging = entries.flatten().filter(|entry| {
        entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(STAGING_PREFIX))
    });
    for entry in staging {
        let age = entry.metadata().and_then(|m| m.modified()).ok();
        let stale = age
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|a| a > STALE_AFTER);
        if stale {
            match std::fs::remove_dir_all(entry.path()) {
                Ok(()) => tracing::info!("removed {}, a build that died", entry.path().display()),
                Err(e) => tracing::warn!("{}: {e}", entry.path().display()),
            }
        }
    }
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
        assert!(Tables::find(&dir).unwrap().is_none());
        std::fs::create_dir(&dir).unwrap();
        assert!(Tables::find(&dir).unwrap().is_none());
        let built = build(&dir, 3).unwrap();
        assert_eq!(built.materials().len(), 3, "1v1, 1v2 and 2v1");
        assert_eq!(
            Tables::find(&dir).unwrap().unwrap().materials(),
            built.materials()
        );
    }

    #[test]
    fn a_build_removes_the_staging_left_by_a_build_that_died_long_ago() {
        let parent = tempfile::tempdir().unwrap();
        let old = parent.path().join(".palabre-tables-dead");
        let running = parent.path().join(".palabre-tables-running");
        std::fs::create_dir(&old).unwrap();
        std::fs::create_dir(&running).unwrap();
        let two_days_ago = std::time::SystemTime::now() - 2 * STALE_AFTER;
        std::fs::File::open(&old)
            .unwrap()
            .set_modified(two_days_ago)
            .unwrap();
        build(&parent.path().join("tables"), 2).unwrap();
        assert_eq!(
            names(parent.path()),
            [".palabre-tables-running", "tables"],
            "the dead build's directory goes, the running one's stays"
        );
    }
}
