//! `grognard engine`'s reading of its input as bytes (issue 14, item 9): a line that
//! is not UTF-8 is answered with an error and the session goes on; a line over the
//! limit is answered with one error, dropped as it is read, and never held whole.

use super::{grognard, text};
use grognard_engine::protocol::MAX_LINE;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Runs `grognard engine` over raw bytes; returns its answers, parsed.
fn engine_bytes(input: &[u8]) -> Vec<Value> {
    let mut child = grognard()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn engine_answers_a_line_that_is_not_utf8_and_goes_on() {
    let mut input = Vec::new();
    // Invalid bytes inside a string: the rest reads, so the id is echoed.
    input.extend_from_slice(b"{\"cmd\":\"rulesets\",\"id\":7,\"note\":\"\xff\xfe\"}\n");
    // Invalid bytes where nothing reads: no id.
    input.extend_from_slice(b"\xc3\x28\x80garbage\n");
    input.extend_from_slice(b"{\"cmd\":\"rulesets\",\"id\":8}\n");
    let a = engine_bytes(&input);
    assert_eq!(a.len(), 3, "{a:?}");
    for (answer, id) in a[..2].iter().zip([json!(7), Value::Null]) {
        assert_eq!(answer["ok"], false, "{answer}");
        assert_eq!(answer["error"]["rule"], "request", "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not UTF-8"),
            "{answer}"
        );
        assert_eq!(answer.get("id").cloned().unwrap_or(Value::Null), id);
    }
    assert!(a[1]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("byte 1 of"));
    assert_eq!(a[2]["ok"], true, "the session went on: {}", a[2]);
    assert_eq!(a[2]["id"], 8);
}

/// The peak resident memory of a running process, in bytes (Linux).
fn peak_memory(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[test]
fn engine_answers_an_overlong_line_once_without_holding_it_and_the_next_line_works() {
    let mut child = grognard()
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // The engine answers once before the peak is read, so that what it holds once
    // started (its code, the built-in scenarios) is not counted as the line's.
    stdin
        .write_all(b"{\"cmd\":\"rulesets\",\"id\":0}\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut ready = String::new();
    stdout.read_line(&mut ready).unwrap();
    assert!(ready.contains("\"ok\":true"), "{ready}");
    let before = peak_memory(child.id());
    // Eight times the limit, a JSON string that would parse if it were kept, written in
    // pieces as a client would.
    let over = 8 * MAX_LINE;
    stdin
        .write_all(b"{\"cmd\":\"rulesets\",\"id\":1,\"pad\":\"")
        .unwrap();
    let piece = vec![b'x'; 1 << 20];
    for _ in 0..over >> 20 {
        stdin.write_all(&piece).unwrap();
    }
    stdin
        .write_all(b"\"}\n{\"cmd\":\"rulesets\",\"id\":2}\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut answers = Vec::new();
    for _ in 0..2 {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        answers.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    let peak = peak_memory(child.id());
    drop(stdin);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(
        rest, "",
        "one answer for the overlong line, one for the next"
    );
    assert_eq!(answers[0]["ok"], false, "{}", answers[0]);
    assert_eq!(answers[0]["error"]["rule"], "request");
    let message = answers[0]["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("over {MAX_LINE} bytes")),
        "{message}"
    );
    assert_eq!(answers[1]["ok"], true, "{}", answers[1]);
    assert_eq!(answers[1]["id"], 2);
    // The line was never held whole: the process grew by at most about the limit.
    if let (Some(before), Some(peak)) = (before, peak) {
        let grew = peak.saturating_sub(before);
        assert!(
            grew < 3 * MAX_LINE as u64,
            "the engine grew by {grew} bytes reading a line of {over}"
        );
    }
}
