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
    let nats = nats_url();
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
    nodes_on(db, &nats_url(), n, env)
}

/// The machine's NATS server, as the tests reach it.
pub fn nats_url() -> String {
    std::env::var("PALABRE_TEST_NATS").unwrap_or_else(|_| NATS.into())
}

/// The name of node `which` on database `db`: unique to the database, since
/// tests in parallel share one NATS.
pub fn node_name(db: &str, which: &str) -> String {
    format!("{}-{which}", db.rsplit('_').next().unwrap_or("run"))
}

/// `n` nodes on database `db` and the NATS server at `nats`.
pub fn nodes_on(db: &str, nats: &str, n: usize, env: &[(&str, &str)]) -> Vec<Server> {
    (0..n)
        .map(|i| {
            let name = node_name(db, &i.to_string());
            let mut env: Vec<(&str, &str)> = env.to_vec();
            env.push(("PALABRE_BUS", nats));
            env.push(("PALABRE_NODE", &name));
            Server::start_on(Some(db), &env)
        })
        .collect()
}
