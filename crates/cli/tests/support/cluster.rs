//! Three `palabre serve` nodes on one fresh PostgreSQL database and the
//! machine's NATS server. Outside CI, a missing PostgreSQL or NATS skips
//! the test (and says so); with `CI=true` it fails it.

use super::Server;

pub const POSTGRES: &str = "postgres://root@127.0.0.1:5432/test";
pub const NATS: &str = "nats://127.0.0.1:4222";

fn required() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// A fresh database URL, or `None` when the services are missing outside CI.
pub async fn database() -> Option<String> {
    let base = std::env::var("PALABRE_TEST_POSTGRES").unwrap_or_else(|_| POSTGRES.into());
    let nats = std::env::var("PALABRE_TEST_NATS").unwrap_or_else(|_| NATS.into());
    let nats_up = std::net::TcpStream::connect(nats.trim_start_matches("nats://")).is_ok();
    let db = palabre_server::store::scratch_postgres(&base).await;
    match (db, nats_up) {
        (Ok(url), true) => Some(url),
        (db, _) if required() => panic!(
            "PostgreSQL ({base}) and NATS ({nats}) are required in CI: {:?}",
            db.err()
        ),
        (db, _) => {
            eprintln!(
                "skipping: PostgreSQL at {base} or NATS at {nats} missing ({:?})",
                db.err()
            );
            None
        }
    }
}

/// `n` nodes on database `db` and the machine's NATS, each with the
/// environment `env` too.
pub fn nodes(db: &str, n: usize, env: &[(&str, &str)]) -> Vec<Server> {
    let nats = std::env::var("PALABRE_TEST_NATS").unwrap_or_else(|_| NATS.into());
    nodes_on(db, &nats, n, env)
}

/// `n` nodes on database `db` and the NATS server at `nats`.
pub fn nodes_on(db: &str, nats: &str, n: usize, env: &[(&str, &str)]) -> Vec<Server> {
    // Names unique to this database: tests in parallel share one NATS.
    let run = db.rsplit('_').next().unwrap_or("run");
    (0..n)
        .map(|i| {
            let name = format!("{run}-{i}");
            let mut env: Vec<(&str, &str)> = env.to_vec();
            env.push(("PALABRE_BUS", nats));
            env.push(("PALABRE_NODE", &name));
            Server::start_on(Some(db), &env)
        })
        .collect()
}
