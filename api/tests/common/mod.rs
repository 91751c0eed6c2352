//! The real `anqi-api` binary as the end-to-end tests start it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running server, killed when dropped.
pub struct Server {
    pub child: Child,
    /// `host:port`, as the server printed it.
    pub addr: String,
}

impl Server {
    /// Starts `command` (the binary, configured) and waits for the line that says where it
    /// listens (the first on stdout; with `ANQI_PORT=0` the port is the system's choice).
    pub fn spawn(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .expect("start anqi-api");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line.trim().rsplit("http://").next().unwrap().to_owned();
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
