//! A real `grognard serve` process on a free port, and a one-request HTTP client.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A running `grognard serve`.
#[allow(dead_code, reason = "each test binary uses a part of it")]
pub struct Server {
    child: Child,
    /// Where it listens.
    pub addr: String,
    /// The first line it printed.
    pub first_line: String,
    output: Arc<Mutex<String>>,
}

#[allow(dead_code, reason = "each test binary uses a part of it")]
impl Server {
    /// Starts a server on `db` with a quick computer.
    pub fn start(db: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grognard"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(["--ai-delay-millis", "0", "--ai-millis", "50"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("grognard starts");
        let output = Arc::new(Mutex::new(String::new()));
        // Everything it writes to standard error, kept (and so never blocking it).
        let stderr = child.stderr.take().unwrap();
        let kept = Arc::clone(&output);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                kept.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first_line = lines.next().expect("a first line").unwrap();
        output.lock().unwrap().push_str(&format!("{first_line}\n"));
        let addr = loop {
            let line = lines.next().expect("grognard prints its address").unwrap();
            output.lock().unwrap().push_str(&format!("{line}\n"));
            if let Some(a) = line.strip_prefix("grognard: serving the lobby on http://") {
                break a.to_owned();
            }
        };
        // Keep reading, so that the pipe never fills.
        let kept = Arc::clone(&output);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                kept.lock().unwrap().push_str(&format!("{line}\n"));
            }
        });
        Server {
            child,
            addr,
            first_line,
            output,
        }
    }

    /// Everything it printed so far, on standard output and error.
    pub fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// SIGKILL: no shutdown, no flush, nothing.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// One request; `None` when the server is gone.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Option<(u16, Value)> {
        call(&self.addr, method, path, token, body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request on its own connection; `None` when the server is gone.
pub fn call(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{auth}\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).ok()?;
    let text = String::from_utf8_lossy(&answer);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}
