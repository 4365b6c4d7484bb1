//! Placements read as a stream: one line at a time, with memory bounded by the board
//! (its columns), never by the line. A 100 MB line of columns is read through a buffer of
//! a few kilobytes into the board's column list; a JSON line is deserialized from the
//! stream the same way, without building the document first.

use nqueens::words::shorten;
use serde::Deserialize;
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::io::{self, BufRead, Read};

/// The most bytes of one token kept for a message; the rest is counted, not stored.
const KEPT: usize = 4096;

/// What one line holds.
pub enum Line {
    /// Nothing but white space.
    Blank,
    /// A placement: the board side the line declares (JSON's "n"), and the columns.
    Placement(Option<usize>, Vec<usize>),
    /// Not a placement: why, and the line's text when it was a single short token (for
    /// the hint that a file name was given where a placement was meant).
    Unreadable(String, Option<String>),
}

/// One line of a stream, read as `Read` and `BufRead` up to (not including) its newline,
/// which it consumes at the end.
struct OneLine<'a, R: BufRead> {
    inner: &'a mut R,
    ended: bool,
    /// Bytes at the head of `inner`'s buffer known to come before the newline: a reader
    /// that takes a byte at a time (serde_json's) must not rescan the buffer each time.
    known: usize,
}

impl<R: BufRead> Read for OneLine<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for OneLine<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.ended {
            return Ok(&[]);
        }
        if self.known > 0 {
            return Ok(&self.inner.fill_buf()?[..self.known]);
        }
        let buffer = self.inner.fill_buf()?;
        if buffer.is_empty() {
            self.ended = true;
            return Ok(&[]);
        }
        if buffer[0] == b'\n' {
            self.inner.consume(1);
            self.ended = true;
            return Ok(&[]);
        }
        // Hand out the bytes before the newline; borrowck wants the buffer fetched again.
        self.known = buffer
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(buffer.len());
        Ok(&self.inner.fill_buf()?[..self.known])
    }

    fn consume(&mut self, amount: usize) {
        self.known = self.known.saturating_sub(amount);
        self.inner.consume(amount);
    }
}

impl<R: BufRead> OneLine<'_, R> {
    /// Reads past the rest of the line.
    fn drain(&mut self) -> io::Result<()> {
        loop {
            let n = self.fill_buf()?.len();
            if n == 0 {
                return Ok(());
            }
            self.consume(n);
        }
    }

    /// The next byte that is not white space, left unread; `None` at the line's end.
    fn skip_space(&mut self) -> io::Result<Option<u8>> {
        loop {
            let buffer = self.fill_buf()?;
            let n = buffer.len();
            if n == 0 {
                return Ok(None);
            }
            match buffer.iter().position(|b| !b.is_ascii_whitespace()) {
                Some(at) => {
                    let byte = buffer[at];
                    self.consume(at);
                    return Ok(Some(byte));
                }
                None => self.consume(n),
            }
        }
    }
}

/// Reads the next line of `input`; `None` at the end of the input. `first` says it is the
/// input's first line, where a byte-order mark (editors on Windows write one) is skipped.
pub fn next_line(input: &mut impl BufRead, first: bool) -> io::Result<Option<Line>> {
    if input.fill_buf()?.is_empty() {
        return Ok(None);
    }
    let mut line = OneLine {
        inner: input,
        ended: false,
        known: 0,
    };
    if first && line.fill_buf()?.starts_with(b"\xef\xbb\xbf") {
        line.consume(3);
    }
    let read = match line.skip_space()? {
        None => Line::Blank,
        Some(b'{' | b'[') => json_placement(&mut line),
        Some(_) => listed_placement(&mut line)?,
    };
    line.drain()?;
    Ok(Some(read))
}

/// A placement as columns separated by spaces or commas.
fn listed_placement<R: BufRead>(line: &mut OneLine<R>) -> io::Result<Line> {
    let mut cols = Vec::new();
    let mut tokens = 0usize;
    let mut token = Token::default();
    loop {
        let buffer = line.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        let mut used = 0;
        for &byte in buffer {
            used += 1;
            if byte == b',' || byte.is_ascii_whitespace() {
                if !token.is_empty() {
                    tokens += 1;
                    if let Err(why) = token.columns_into(&mut cols) {
                        line.consume(used);
                        return Ok(Line::Unreadable(why, token.alone(tokens)));
                    }
                    token = Token::default();
                }
            } else {
                token.push(byte);
            }
        }
        line.consume(used);
    }
    if !token.is_empty() {
        tokens += 1;
        if let Err(why) = token.columns_into(&mut cols) {
            return Ok(Line::Unreadable(why, token.alone(tokens)));
        }
    }
    // Only white space that is not ASCII (no-break spaces, say): nothing to check.
    if cols.is_empty() && tokens > 0 {
        return Ok(Line::Blank);
    }
    Ok(Line::Placement(None, cols))
}

/// A token's first [`KEPT`] bytes, and its length.
#[derive(Default)]
struct Token {
    kept: Vec<u8>,
    len: usize,
}

impl Token {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, byte: u8) {
        if self.kept.len() < KEPT {
            self.kept.push(byte);
        }
        self.len += 1;
    }

    /// The token's text when it was the line's only token and kept whole.
    fn alone(&self, tokens: usize) -> Option<String> {
        (tokens == 1 && self.len == self.kept.len())
            .then(|| String::from_utf8_lossy(&self.kept).into_owned())
    }

    /// Adds the token's columns (one, or several split by non-ASCII white space).
    fn columns_into(&self, cols: &mut Vec<usize>) -> Result<(), String> {
        let Ok(text) = std::str::from_utf8(&self.kept) else {
            return Err("not text (invalid UTF-8)".into());
        };
        if self.len > self.kept.len() {
            // Too long to be a column: its first characters and its length.
            let start: String = text.chars().take(40).collect();
            return Err(format!(
                "'{}... ({} bytes)' is not a column (a whole number from 0)",
                shorten(&start),
                self.len
            ));
        }
        for part in text.split(char::is_whitespace).filter(|p| !p.is_empty()) {
            let col = part.parse::<usize>().map_err(|_| {
                format!(
                    "'{}' is not a column (a whole number from 0)",
                    shorten(part)
                )
            })?;
            cols.push(col);
        }
        Ok(())
    }
}

/// A placement in JSON: an object with "cols" and optionally "n", or a bare array.
fn json_placement<R: BufRead>(line: &mut OneLine<R>) -> Line {
    let mut reader = serde_json::Deserializer::from_reader(line);
    let parsed = JsonPlacement::deserialize(&mut reader).and_then(|p| reader.end().map(|()| p));
    match parsed {
        Ok(JsonPlacement { n, cols }) => Line::Placement(n, cols),
        Err(e) => Line::Unreadable(json_error(&e), None),
    }
}

/// A JSON error in the check's words: our own message for a value of the wrong kind, the
/// place for a syntax error. Never the input itself.
fn json_error(e: &serde_json::Error) -> String {
    match e.classify() {
        serde_json::error::Category::Data => {
            let text = e.to_string();
            match text.rsplit_once(" at line ") {
                Some((message, _)) => message.to_string(),
                None => text,
            }
        }
        serde_json::error::Category::Io => format!("cannot read it ({e})"),
        _ => format!(
            "not a JSON placement (line {}, column {})",
            e.line(),
            e.column()
        ),
    }
}

/// What a JSON line holds.
struct JsonPlacement {
    n: Option<usize>,
    cols: Vec<usize>,
}

impl<'de> Deserialize<'de> for JsonPlacement {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PlacementVisitor)
    }
}

struct PlacementVisitor;

impl<'de> Visitor<'de> for PlacementVisitor {
    type Value = JsonPlacement;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object with a \"cols\" array, or an array of columns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<JsonPlacement, A::Error> {
        Ok(JsonPlacement {
            n: None,
            cols: Columns::deserialize(de::value::SeqAccessDeserializer::new(seq))?.0,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonPlacement, A::Error> {
        let (mut n, mut cols) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "n" => n = map.next_value::<Side>()?.0,
                "cols" => cols = Some(map.next_value::<Columns>()?.0),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let cols =
            cols.ok_or_else(|| de::Error::custom("a JSON placement needs a \"cols\" array"))?;
        Ok(JsonPlacement { n, cols })
    }
}

/// "n": a whole number, or anything else read as no declared side.
struct Side(Option<usize>);

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SideVisitor)
    }
}

struct SideVisitor;

impl<'de> Visitor<'de> for SideVisitor {
    type Value = Side;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a board side")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Side, E> {
        Ok(Side(usize::try_from(n).ok()))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Side, E> {
        Ok(Side(None))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Side, E> {
        Ok(Side(None))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Side, E> {
        Ok(Side(None))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Side, E> {
        Ok(Side(None))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Side, E> {
        Ok(Side(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Side, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Side(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Side, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Side(None))
    }
}

/// "cols": an array of whole numbers, read one at a time.
struct Columns(Vec<usize>);

impl<'de> Deserialize<'de> for Columns {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ColumnsVisitor)
    }
}

struct ColumnsVisitor;

/// The error for "cols" that is not an array.
fn not_an_array<E: de::Error>() -> E {
    E::custom("\"cols\" must be an array of columns")
}

impl<'de> Visitor<'de> for ColumnsVisitor {
    type Value = Columns;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of columns")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Columns, A::Error> {
        let mut cols = Vec::new();
        while let Some(Column(col)) = seq.next_element()? {
            cols.push(col);
        }
        Ok(Columns(cols))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Columns, E> {
        Err(not_an_array())
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Columns, A::Error> {
        Err(not_an_array())
    }
}

/// One column: a whole number from 0.
struct Column(usize);

impl<'de> Deserialize<'de> for Column {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ColumnVisitor)
    }
}

struct ColumnVisitor;

/// The error for a value that is not a column, shown as `shown`.
fn not_a_column<E: de::Error>(shown: &str) -> E {
    E::custom(format!(
        "{} is not a column (a whole number from 0)",
        shorten(shown)
    ))
}

impl<'de> Visitor<'de> for ColumnVisitor {
    type Value = Column;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a column")
    }

    fn visit_u64<E: de::Error>(self, c: u64) -> Result<Column, E> {
        usize::try_from(c)
            .map(Column)
            .map_err(|_| not_a_column(&c.to_string()))
    }

    fn visit_i64<E: de::Error>(self, c: i64) -> Result<Column, E> {
        Err(not_a_column(&c.to_string()))
    }

    fn visit_f64<E: de::Error>(self, c: f64) -> Result<Column, E> {
        // JSON reads a number with a point or exponent, or past 2^64 - 1, as a float:
        // the text is gone, so say which it was rather than a rounded figure.
        if c.fract() == 0.0 && c.abs() >= u64::MAX as f64 {
            return Err(E::custom(format!(
                "a column of about {c:e} is out of range: a column is a whole number \
                 from 0 to {}",
                u64::MAX
            )));
        }
        Err(not_a_column(&format!("{c:?}")))
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Column, E> {
        Err(not_a_column(&b.to_string()))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Column, E> {
        Err(not_a_column(&format!("\"{s}\"")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Column, E> {
        Err(not_a_column("null"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Column, A::Error> {
        Err(not_a_column("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Column, A::Error> {
        Err(not_a_column("an object"))
    }
}
