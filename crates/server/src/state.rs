//! The application state every handler shares: the games' owners, the
//! guards, and the signal that the server is shutting down.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::cluster::{Cluster, node};
use crate::config::Config;
use crate::game::Games;
use crate::guards::Guards;
use crate::store::{Backend, Store};
use crate::table_dir;
use crate::thinker::Thinker;

#[derive(Clone, Debug)]
pub struct AppState {
    pub games: Games,
    pub guards: Arc<Guards>,
    /// Each account's events, for the event streams open here.
    pub hub: Arc<crate::bot::hub::Hub>,
    /// Cancelled when the server shuts down: live connections close.
    pub shutdown: CancellationToken,
}

impl AppState {
    /// Opens the store, starts the search pools, wakes the games where the
    /// machine is to move and starts looking for fallen clocks.
    pub async fn open(config: &Config) -> anyhow::Result<AppState> {
        let store = match &config.db {
            Some(path) => Store::open(path).await?,
            None => Store::memory().await?,
        };
        let cluster = match &config.bus {
            None => None,
            Some(url) => {
                anyhow::ensure!(
                    store.backend() == Backend::Postgres,
                    "--bus joins a cluster, whose nodes share a PostgreSQL database: \
                     give --db postgres://…"
                );
                let cluster = Cluster::connect(url, config.node.clone()).await?;
                tracing::info!("node {} joined the cluster at {url}", cluster.node);
                Some(cluster)
            }
        };
        let thinker = Arc::new(Thinker::new(&config.thinker, config.params.clone(), None));
        if let Some(dir) = &config.tables {
            table_dir::provide(dir, config.build_tables, &thinker)?;
        }
        let games = Games::new(store, thinker, &config.limits, cluster.clone());
        let shutdown = CancellationToken::new();
        if let Some(cluster) = cluster {
            node::answer(games.clone(), Arc::clone(&cluster)).await?;
            // Taking over games without owner includes the machine's.
            node::keep_leases(games.clone(), cluster, shutdown.clone());
            node::report_presence(games.clone(), shutdown.clone());
        } else {
            let woken = games
                .wake_machine_games()
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.public_message()))?;
            if woken > 0 {
                tracing::info!("{woken} games where the machine is to move were woken");
            }
        }
        let state = AppState {
            games,
            guards: Arc::new(Guards::new(config.limits.clone())),
            hub: Arc::default(),
            shutdown,
        };
        state.housekeeping(config);
        crate::bot::events::announce_finishes(state.clone());
        Ok(state)
    }

    /// Background work: fallen clocks, forgetting quiet addresses and
    /// expired sessions, and ratings left to update by a crash.
    fn housekeeping(&self, config: &Config) {
        let sweeper = self.games.sweep_flags(config.limits.flag_sweep);
        let guards = Arc::clone(&self.guards);
        let shutdown = self.shutdown.clone();
        let store = self.store().clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                tokio::select! {
                    _ = tick.tick() => {
                        guards.forget_idle();
                        tidy_store(&store).await;
                    }
                    () = shutdown.cancelled() => break,
                }
            }
            sweeper.abort();
        });
    }

    pub fn store(&self) -> &Store {
        self.games.store()
    }
}

/// Forgets expired sessions and updates the ratings of rated games whose
/// update a crash interrupted.
async fn tidy_store(store: &Store) {
    if let Err(e) = store.delete_expired_sessions().await {
        tracing::warn!("forgetting expired sessions: {e}");
    }
    match store.unrated(100).await {
        Ok(ids) => {
            for id in ids {
                if let Err(e) = store.rate_game(&id).await {
                    tracing::error!("game {id}: updating the ratings: {e}");
                }
            }
        }
        Err(e) => tracing::warn!("looking for unrated games: {e}"),
    }
}
