//! The application state shared by every handler.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use palabre_ai::Params;
use palabre_ai::worker::Pool;
use tokio::sync::Mutex as AsyncMutex;

use crate::error::AppError;
use crate::session::Session;
use crate::store::Store;

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: String,
    /// SQLite file; `None` keeps everything in memory (tests).
    pub db: Option<String>,
    /// Search threads for the machine's moves.
    pub ai_threads: usize,
    /// Requests that may wait for a search thread.
    pub ai_queue: usize,
    pub params: Params,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: "127.0.0.1:8080".into(),
            db: Some("palabre.db".into()),
            ai_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ai_queue: 256,
            params: Params {
                tt_bits: 18,
                ..Params::default()
            },
        }
    }
}

/// A live game, locked while a request or the machine changes it.
pub type SharedSession = Arc<AsyncMutex<Session>>;

/// Everything the handlers share: storage, live games, the machine.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub sessions: Arc<Mutex<HashMap<String, SharedSession>>>,
    pub pool: Arc<Pool>,
    pub params: Arc<Params>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AppState")
    }
}

impl AppState {
    pub async fn open(config: &Config) -> anyhow::Result<AppState> {
        let store = match &config.db {
            Some(path) => Store::open(path).await?,
            None => Store::memory().await?,
        };
        let pool = Pool::new(config.ai_threads, config.ai_queue, config.params.clone());
        let state = AppState {
            store,
            sessions: Arc::default(),
            pool: Arc::new(pool),
            params: Arc::new(config.params.clone()),
        };
        state.resume_machine_games().await?;
        state.resume_clocks().await?;
        Ok(state)
    }

    /// The live game `id`, replayed from the store on first use.
    pub async fn session(&self, id: &str) -> Result<SharedSession, AppError> {
        if let Some(s) = self.sessions.lock().expect("sessions").get(id) {
            return Ok(Arc::clone(s));
        }
        let (row, moves) = self.store.load(id).await?.ok_or(AppError::NotFound)?;
        let members = self.store.seats(id).await?;
        let session = Session::replay(row, &moves, members).map_err(AppError::Internal)?;
        let mut sessions = self.sessions.lock().expect("sessions");
        let entry = sessions
            .entry(id.to_owned())
            .or_insert_with(|| Arc::new(AsyncMutex::new(session)));
        Ok(Arc::clone(entry))
    }

    /// After a restart, the clocks of online games run on (and may fall).
    async fn resume_clocks(&self) -> anyhow::Result<()> {
        for id in self.store.online_games_playing().await? {
            let session = self
                .session(&id)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            crate::timer::watch_flag(self, &session).await;
        }
        Ok(())
    }

    /// After a restart, the machine picks up the games where it is to move.
    async fn resume_machine_games(&self) -> anyhow::Result<()> {
        for id in self.store.machine_games_in_progress().await? {
            let session = self
                .session(&id)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            crate::machine::reply_if_due(self, &session).await;
        }
        Ok(())
    }
}
