//! A tiny chat-completions server on 127.0.0.1:0 for the backend tests: each
//! connection gets the next scripted reply (the last one repeats), and the
//! request heads and bodies are recorded.

use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One scripted reply.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A non-streamed completion with this content.
    Json(String),
    /// A streamed completion with these deltas.
    Sse(Vec<String>),
    /// An error status with this body.
    Status(u16, String),
    /// Read the request, then say nothing for this long and close.
    Hang(Duration),
}

/// A recorded request.
#[derive(Debug, Clone)]
pub struct Seen {
    pub head: String,
    pub body: serde_json::Value,
}

pub struct FakeServer {
    pub url: String,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

pub fn start(replies: Vec<Reply>) -> FakeServer {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    std::thread::spawn(move || {
        for (i, stream) in listener.incoming().enumerate() {
            let Ok(stream) = stream else { continue };
            let reply = replies[i.min(replies.len() - 1)].clone();
            let seen = seen2.clone();
            std::thread::spawn(move || serve(stream, reply, seen));
        }
    });
    FakeServer {
        url: format!("http://{addr}/v1"),
        seen,
    }
}

fn serve(stream: TcpStream, reply: Reply, seen: Arc<Mutex<Vec<Seen>>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        if line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let len = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).unwrap();
    let body: serde_json::Value = serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null);
    seen.lock().unwrap().push(Seen { head, body });
    let mut out = stream;
    match reply {
        Reply::Json(content) => {
            let b = json!({"id": "x", "object": "chat.completion", "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]})
            .to_string();
            let _ = write!(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{b}", b.len());
        }
        Reply::Sse(deltas) => {
            let _ = write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
            );
            let _ = out.flush();
            let first = json!({"choices": [{"index": 0, "delta": {"role": "assistant"}}]});
            let _ = write!(out, "data: {first}\n\n");
            for d in deltas {
                let ev = json!({"choices": [{"index": 0, "delta": {"content": d}, "finish_reason": null}]});
                let _ = write!(out, ": keep-alive comment\n\ndata: {ev}\n\n");
                let _ = out.flush();
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = write!(out, "data: [DONE]\n\n");
        }
        Reply::Status(code, body) => {
            let _ = write!(out, "HTTP/1.1 {code} Oops\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
        Reply::Hang(d) => {
            std::thread::sleep(d);
        }
    }
    let _ = out.flush();
}
