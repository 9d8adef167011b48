//! A `palabre serve` process for black-box tests: started on a free port
//! with a fresh database and the environment a test gives it, spoken to
//! over HTTP and WebSocket, killed with SIGKILL and restarted on the same
//! database. `PALABRE_BIN` runs the tests against another binary;
//! `PALABRE_TEST_LOGS` keeps the servers' logs.

#![allow(dead_code)]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

pub mod cluster;
pub mod outage;

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub struct Server {
    pub port: u16,
    pub dir: tempfile::TempDir,
    /// The `--db` given: a file in `dir`, or a shared `postgres://` URL.
    db: String,
    env: Vec<(String, String)>,
    child: Child,
    pub http: reqwest::Client,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn binary() -> String {
    std::env::var("PALABRE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_palabre").to_owned())
}

fn spawn(port: u16, db: &str, env: &[(String, String)]) -> Child {
    let mut cmd = Command::new(binary());
    cmd.args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--db", db])
        .stderr(Stdio::null());
    // PALABRE_TEST_LOGS=DIR keeps each server's debug log as DIR/PORT.log,
    // to read what happened in a failure seen only on a loaded machine.
    match std::env::var("PALABRE_TEST_LOGS") {
        Ok(dir) => {
            let log = std::fs::File::create(format!("{dir}/{port}.log")).unwrap();
            cmd.stdout(log)
                .env("RUST_LOG", "debug,sqlx=warn,hyper=info");
        }
        Err(_) => {
            cmd.stdout(Stdio::null());
        }
    }
    // Expert's ponders would keep the deep threads busy for a minute after
    // each of its moves, loading the machine under every other test; the
    // server's own tests cover them. A test may turn them back on.
    cmd.env("PALABRE_PONDER", "0");
    // Nor a build of the endgame tables in the working directory at every
    // start; a test may ask for one.
    cmd.env("PALABRE_BUILD_TABLES", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(20) {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return child;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server did not start");
}

impl Server {
    /// A server with these environment variables (flags by another name).
    pub fn start(env: &[(&str, &str)]) -> Server {
        Server::start_on(None, env)
    }

    /// A server on database `db` (a fresh SQLite file if `None`).
    pub fn start_on(db: Option<&str>, env: &[(&str, &str)]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let db = db.map_or_else(
            || dir.path().join("games.db").to_string_lossy().into_owned(),
            str::to_owned,
        );
        let port = free_port();
        let child = spawn(port, &db, &env);
        Server {
            port,
            dir,
            db,
            env,
            child,
            http: reqwest::Client::new(),
        }
    }

    pub fn db(&self) -> String {
        self.db.clone()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no shutdown, no flush.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the server and starts it again on the same database.
    pub fn restart(&mut self) {
        self.kill();
        self.child = spawn(self.port, &self.db, &self.env);
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub async fn post(&self, path: &str, body: Value, seat: Option<&str>) -> (u16, Value) {
        let mut req = self.http.post(self.url(path)).json(&body);
        if let Some(seat) = seat {
            req = req.bearer_auth(seat);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str, seat: Option<&str>) -> (u16, Value) {
        let mut req = self.http.get(self.url(path));
        if let Some(seat) = seat {
            req = req.bearer_auth(seat);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    pub async fn state(&self, id: &str) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(status, 200, "{v}");
        v
    }

    /// Creates a game; returns its id, the creator's seat and the answer.
    pub async fn create(&self, body: Value) -> (String, String, Value) {
        let (status, v) = self.post("/api/games", body, None).await;
        assert_eq!(status, 201, "{v}");
        (
            v["id"].as_str().unwrap().to_owned(),
            v["seat"].as_str().unwrap().to_owned(),
            v,
        )
    }

    /// An online Yoté game with red and black seated: (id, red, black).
    pub async fn online_pair(&self) -> (String, String, String) {
        let (id, red, _) = self
            .create(json!({"game": "yote", "opponent": "online", "side": "red", "name": "Awa"}))
            .await;
        let (status, b) = self
            .post(
                &format!("/api/games/{id}/join"),
                json!({"name": "Kofi"}),
                None,
            )
            .await;
        assert_eq!(status, 201, "{b}");
        (id, red, b["seat"].as_str().unwrap().to_owned())
    }

    /// Polls the game until `done` holds, for at most `within`.
    pub async fn wait_for(
        &self,
        id: &str,
        within: Duration,
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        let started = Instant::now();
        loop {
            let v = self.state(id).await;
            if done(&v) {
                return v;
            }
            assert!(started.elapsed() < within, "the game never got there: {v}");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// A live socket on the game, after its hello and first state.
    pub async fn socket(&self, id: &str, seat: Option<&str>) -> (Socket, Value) {
        let (mut ws, _) = connect_async(format!("ws://127.0.0.1:{}/api/games/{id}/ws", self.port))
            .await
            .unwrap();
        let mut hello = json!({"type": "hello", "ply": 0});
        if let Some(seat) = seat {
            hello["seat"] = json!(seat);
        }
        ws.send(Message::text(hello.to_string())).await.unwrap();
        let first = next(&mut ws).await;
        (ws, first)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The next JSON text message of a socket (10 s at most: a socket opened on
/// a node that takes over a dead node's game first waits out its 3 s lease,
/// and a loaded 2-core CI machine once took longer than 5 s).
pub async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a message");
        if let Message::Text(text) = msg {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// Messages until one satisfies `want`.
pub async fn until(ws: &mut Socket, want: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..200 {
        let m = next(ws).await;
        if want(&m) {
            return m;
        }
    }
    panic!("the expected message never came");
}

pub async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).await.unwrap();
}

/// The legal move at `index` (modulo the list) of a state, in notation.
pub fn legal(state: &Value, index: usize) -> String {
    maybe_legal(state, index).expect("a legal move")
}

/// The legal move at `index`, if the state lists any.
pub fn maybe_legal(state: &Value, index: usize) -> Option<String> {
    palabre_server::bots::move_from_state(state, index)
}

/// The number of threads of process `pid`.
pub fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Threads:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
