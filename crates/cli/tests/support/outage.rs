//! Services that a test can take down and bring back: a NATS server of the
//! test's own, and a TCP door in front of PostgreSQL that can be shut
//! (every connection through it dropped, new ones refused) and opened again.

use std::net::TcpListener as StdListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A NATS server on a port of its own (no JetStream, nothing on disk).
pub struct Nats {
    pub port: u16,
    child: Option<Child>,
}

impl Nats {
    /// `None` when `nats-server` is not installed (and not in CI).
    pub fn start() -> Option<Nats> {
        let mut nats = Nats {
            port: free_port(),
            child: None,
        };
        nats.up().then_some(nats)
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Starts the server on its port; false if there is no `nats-server`.
    pub fn up(&mut self) -> bool {
        let port = self.port.to_string();
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        match child {
            Ok(child) => self.child = Some(child),
            Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
                panic!("nats-server is required in CI: {e}")
            }
            Err(e) => {
                eprintln!("skipping: no nats-server ({e})");
                return false;
            }
        }
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        panic!("nats-server did not start");
    }

    /// Kills the server.
    pub fn down(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.down();
    }
}

/// A door to `target`: open, it forwards connections; shut, it drops them.
pub struct Door {
    pub port: u16,
    open: Arc<AtomicBool>,
    shut: watch::Sender<u64>,
}

impl Door {
    pub async fn to(target: &'static str) -> Door {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(AtomicBool::new(true));
        let (shut, _) = watch::channel(0u64);
        let (flag, closings) = (Arc::clone(&open), shut.subscribe());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if !flag.load(Ordering::SeqCst) {
                    continue;
                }
                tokio::spawn(forward(client, target, closings.clone()));
            }
        });
        Door { port, open, shut }
    }

    /// Drops every connection through the door and refuses new ones.
    pub fn shut(&self) {
        self.open.store(false, Ordering::SeqCst);
        self.shut.send_modify(|n| *n += 1);
    }

    pub fn open(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

async fn forward(mut client: TcpStream, target: &str, mut closing: watch::Receiver<u64>) {
    let Ok(mut server) = TcpStream::connect(target).await else {
        return;
    };
    closing.mark_unchanged();
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        _ = closing.changed() => {}
    }
}
