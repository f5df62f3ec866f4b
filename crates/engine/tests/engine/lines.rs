//! Request lines read as bytes with a bound (issue 14, item 9): `LineReader` holds at
//! most its limit of a line, and `Session::handle_bytes` answers a line that is not
//! UTF-8 with an error, its id echoed when the rest reads.

use crate::registry;
use grognard_engine::protocol::{Line, LineReader, Session};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};

/// A reader that hands out at most `chunk` bytes a read, as a pipe does.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn lines_of(data: &[u8], limit: usize, chunk: usize) -> Vec<Line> {
    let mut reader = LineReader::new(BufReader::with_capacity(7, Trickle { data, chunk }), limit);
    std::iter::from_fn(|| reader.next_line().unwrap()).collect()
}

#[test]
fn line_reader_drops_an_overlong_line_to_its_end_and_reads_the_next() {
    let mut data = b"short\r\n".to_vec();
    data.extend(std::iter::repeat_n(b'x', 1000));
    data.extend_from_slice(b"\nexactly-16-bytes\n\nlast without end");
    for chunk in [1, 3, 64, 4096] {
        assert_eq!(
            lines_of(&data, 16, chunk),
            [
                Line::Bytes(b"short".to_vec()),
                Line::TooLong(1000),
                Line::Bytes(b"exactly-16-bytes".to_vec()),
                Line::Bytes(Vec::new()),
                Line::Bytes(b"last without end".to_vec()),
            ],
            "chunks of {chunk}"
        );
    }
    assert_eq!(lines_of(b"", 16, 1), []);
    assert_eq!(lines_of(&[b'y'; 40], 16, 5), [Line::TooLong(40)]);
}

#[test]
fn line_reader_reads_an_overlong_line_through_to_the_end_of_the_input() {
    // A megabyte with no end, a limit of a kilobyte: one answer, and nothing left.
    let data = vec![b'z'; 1 << 20];
    let mut input = &data[..];
    let mut reader = LineReader::new(&mut input, 1024);
    assert_eq!(reader.next_line().unwrap(), Some(Line::TooLong(1 << 20)));
    assert_eq!(reader.next_line().unwrap(), None);
    assert!(input.fill_buf().unwrap().is_empty(), "read to the end");
}

#[test]
fn handle_bytes_answers_a_line_that_is_not_utf8_with_its_id() {
    let mut session = Session::new(registry());
    let r = session.handle_bytes(b"{\"cmd\":\"rulesets\",\"id\":\"q\xff\",\"n\":5}");
    let v: Value = serde_json::from_str(&r.line).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["rule"], "request");
    assert_eq!(v["id"], "q\u{fffd}", "the id as it reads: {v}");
    let r = session.handle_bytes(b"\x80{}");
    let v: Value = serde_json::from_str(&r.line).unwrap();
    assert!(v.get("id").is_none());
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("byte 1 of 3 is not part of a character"));
    let r = session.handle_bytes(b"{\"cmd\":\"rulesets\",\"id\":3}");
    let v: Value = serde_json::from_str(&r.line).unwrap();
    assert_eq!(
        (v["ok"].clone(), v["id"].clone()),
        (Value::Bool(true), 3.into())
    );
    let r = session.too_long(9_000_000_000);
    assert!(r.line.contains("9000000000 bytes"), "{}", r.line);
}
