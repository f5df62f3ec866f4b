//! Reading request lines with a bound on memory: a line over the limit is read through
//! to its end and dropped, never held whole (issue 14, item 9).

use std::io::{self, BufRead};

/// One line of input as [`LineReader`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of at most the limit, without its end (`\n` or `\r\n`); the bytes as
    /// they came, which may not be UTF-8.
    Bytes(Vec<u8>),
    /// A line over the limit, read to its end and dropped: how many bytes it had,
    /// its `\n` not counted.
    TooLong(u64),
}

/// Reads lines of bytes from `inner`, holding at most `limit` bytes of a line.
///
/// ```
/// use grognard_engine::protocol::{Line, LineReader};
/// let input: &[u8] = b"{\"cmd\":\"rulesets\"}\r\n0123456789012345678901234\n\xff\n";
/// let mut lines = LineReader::new(input, 20);
/// let first = lines.next_line().unwrap();
/// assert_eq!(first, Some(Line::Bytes(br#"{"cmd":"rulesets"}"#.to_vec())));
/// assert_eq!(lines.next_line().unwrap(), Some(Line::TooLong(25)));
/// assert_eq!(lines.next_line().unwrap(), Some(Line::Bytes(vec![0xff])));
/// assert_eq!(lines.next_line().unwrap(), None);
/// ```
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    line: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of lines of at most `limit` bytes from `inner`.
    pub fn new(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner,
            limit,
            line: Vec::new(),
        }
    }

    /// The next line, or `None` at the end of the input. A last line without its
    /// `\n` is a line.
    ///
    /// # Errors
    /// The input's own errors (an interrupted read is retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.line.clear();
        // Bytes of an overlong line dropped so far, once it is known to be overlong.
        let mut dropped: Option<u64> = None;
        let mut read_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !read_any {
                    return Ok(None);
                }
                return Ok(Some(self.finish(dropped)));
            }
            read_any = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let part = &available[..newline.unwrap_or(available.len())];
            match &mut dropped {
                Some(n) => *n += part.len() as u64,
                None if self.line.len() + part.len() > self.limit => {
                    dropped = Some((self.line.len() + part.len()) as u64);
                    self.line = Vec::new();
                }
                None => self.line.extend_from_slice(part),
            }
            let used = newline.map_or(part.len(), |at| at + 1);
            self.inner.consume(used);
            if newline.is_some() {
                return Ok(Some(self.finish(dropped)));
            }
        }
    }

    fn finish(&mut self, dropped: Option<u64>) -> Line {
        if let Some(n) = dropped {
            return Line::TooLong(n);
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Line::Bytes(std::mem::take(&mut self.line))
    }
}
