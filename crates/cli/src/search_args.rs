//! The flags that set the machine's search, shared by `engine` and `arena`.

use clap::Args;
use palabre_ai::Params;
use palabre_ai::params::MAX_THREADS;

#[derive(Debug, Clone, Args)]
pub struct SearchArgs {
    /// Expert's budget a move, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub expert_ms: u64,
    /// Threads for Expert's search (Lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub threads: u16,
    /// Set a search tunable by its name (a field of `Params`), to tune or
    /// compare without a rebuild; repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

impl SearchArgs {
    pub fn params(&self) -> anyhow::Result<Params> {
        let mut params = Params {
            expert_budget_ms: self.expert_ms,
            threads: usize::from(self.threads),
            ..Params::default()
        };
        for setting in &self.set {
            let (name, value) = setting
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--set {setting:?}: NAME=VALUE"))?;
            params
                .set(name, value)
                .map_err(|e| anyhow::anyhow!("--set {setting:?}: {e}"))?;
        }
        Ok(params)
    }
}
