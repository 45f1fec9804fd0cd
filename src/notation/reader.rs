//! Reading a file record by record in bounded memory, and errors that say where.
//!
//! [`open`] gives a buffered byte stream for a path or `-` (stdin), decompressing gzip (found by
//! its magic bytes, whatever the name). A [`Reader`] recognises the format (or takes the one
//! given), then cuts the stream into [`RawRecord`]s with a cheap scanner: one line each
//! (transcripts, logbooks, OBF, board strings), blank-line separated blocks (kifu grids,
//! diagrams), tag sections plus move text (PGN, PlayOK), balanced `( )` outside `[ ]` values
//! (GGF, SGF), balanced `{ }` outside strings (JSON, Othello Quest), or fixed 68-byte records after
//! a 16-byte header (WTHOR). Only the record at hand is held, and a record's text is capped at
//! [`MAX_RECORD`] bytes, so memory stays bounded whatever the input size.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use super::format::{self, Format};
use super::{Span, wthor};

/// The most text one record may hold; a longer one is reported and skipped.
pub const MAX_RECORD: usize = 1 << 20;

const BUFFER: usize = 1 << 16;

/// Opens a path, or stdin for `-`, as a buffered stream; gzip is decompressed.
pub fn open(path: &str) -> io::Result<Box<dyn BufRead + Send>> {
    let raw: Box<dyn Read + Send> =
        if path == "-" { Box::new(io::stdin()) } else { Box::new(std::fs::File::open(path)?) };
    let mut buffered = BufReader::with_capacity(BUFFER, raw);
    let head = buffered.fill_buf()?;
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(BUFFER, flate2::read::MultiGzDecoder::new(buffered))))
    } else {
        Ok(Box::new(buffered))
    }
}

/// One record cut from a file, not parsed yet.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RawRecord {
    /// Its 0-based index in the file.
    pub index: usize,
    /// The 1-based line its text starts on (0 for binary records).
    pub line: usize,
    /// The 1-based column (in characters) its text starts at.
    pub column: usize,
    /// The byte offset of its first byte in the (decompressed) stream.
    pub offset: u64,
    /// The text or bytes.
    pub body: Body,
}

/// A record's content.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Body {
    /// Text (invalid UTF-8 replaced).
    Text(String),
    /// Binary bytes (WTHOR).
    Binary(Vec<u8>),
}

impl RawRecord {
    /// The text, or empty for binary records.
    #[must_use]
    pub fn text(&self) -> &str {
        match &self.body {
            Body::Text(t) => t,
            Body::Binary(_) => "",
        }
    }

    /// An error at `span` of this record.
    #[must_use]
    pub fn error(&self, file: &str, span: Span, message: impl Into<String>) -> RecordError {
        let location = match &self.body {
            Body::Binary(_) => Location::Byte(self.offset + span.start as u64),
            Body::Text(text) => {
                let start = span.start.min(text.len());
                let start = (0..=start).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
                let newlines = text[..start].matches('\n').count();
                let before = text[line_start..start].chars().count();
                let column = if newlines == 0 { self.column + before } else { before + 1 };
                let end = span.end.clamp(start, line_end);
                let end = (end..=line_end).find(|&i| text.is_char_boundary(i)).unwrap_or(line_end);
                let excerpt = text[line_start..line_end].trim_end_matches('\r').to_owned();
                Location::Text {
                    line: self.line + newlines,
                    column,
                    excerpt,
                    caret: (before, text[start..end].chars().count().max(1)),
                }
            }
        };
        RecordError { file: file.to_owned(), record: self.index + 1, location, message: message.into() }
    }
}

/// A record that could not be read, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// The file name as given.
    pub file: String,
    /// The 1-based record number.
    pub record: usize,
    /// Where in the file.
    pub location: Location,
    /// What is wrong.
    pub message: String,
}

/// Where a record error is.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Location {
    /// A line and column of text, with the line and the caret's start and width (in characters).
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// The line's text.
        excerpt: String,
        /// The caret: characters before it and its width.
        caret: (usize, usize),
    },
    /// A byte offset in a binary file.
    Byte(u64),
}

impl std::error::Error for RecordError {}

impl fmt::Display for RecordError {
    /// `file:line:col: record N: message`, then the line and a caret under the bad part.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Location::Byte(offset) => {
                write!(f, "{}: record {} (byte {offset}): {}", self.file, self.record, self.message)
            }
            Location::Text { line, column, excerpt, caret } => {
                writeln!(f, "{}:{line}:{column}: record {}: {}", self.file, self.record, self.message)?;
                let gutter = line.to_string().len();
                let shown: String = excerpt.chars().take(200).collect();
                writeln!(f, "{:gutter$} |", "")?;
                writeln!(f, "{line} | {shown}")?;
                let pad: String = excerpt.chars().take(caret.0).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                write!(f, "{:gutter$} | {pad}{}", "", "^".repeat(caret.1.min(200)))
            }
        }
    }
}

/// A failure while reading: the stream broke (fatal) or one record is bad (the rest go on).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The stream could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// One record could not be cut out.
    #[error("{0}")]
    Record(RecordError),
}

/// How a text format is cut into records.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Split {
    Lines,
    Blocks { boards: bool },
    Pgn,
    Nested { open: char, close: char, quote: (char, char) },
}

/// A record being gathered.
struct Pending {
    text: String,
    line: usize,
    column: usize,
    offset: u64,
    too_long: bool,
    movetext: bool,
}

/// Cuts a stream into records; see the module documentation.
pub struct Reader {
    name: String,
    format: Format,
    input: Box<dyn BufRead + Send>,
    split: Option<Split>,
    header: Option<wthor::Header>,
    line: usize,
    offset: u64,
    index: usize,
    pending: Option<Pending>,
    ready: VecDeque<Result<RawRecord, ReadError>>,
    nest: (usize, bool, bool),
    done: bool,
}

impl Reader {
    /// A reader over `input`, named `name` in errors, in `format` or the one its start shows.
    pub fn new(name: &str, mut input: Box<dyn BufRead + Send>, format: Option<Format>) -> io::Result<Reader> {
        let format = match format {
            Some(f) => f,
            None => format::sniff(name, input.fill_buf()?),
        };
        let split = match format {
            Format::Transcript | Format::Logbook | Format::Obf => Some(Split::Lines),
            Format::Board => Some(Split::Blocks { boards: true }),
            Format::Kifu => Some(Split::Blocks { boards: false }),
            Format::Pgn | Format::Playok => Some(Split::Pgn),
            Format::Ggf | Format::Sgf => Some(Split::Nested { open: '(', close: ')', quote: ('[', ']') }),
            Format::Json | Format::Oq => Some(Split::Nested { open: '{', close: '}', quote: ('"', '"') }),
            Format::Wthor => None,
        };
        let mut reader = Reader {
            name: name.to_owned(),
            format,
            input,
            split,
            header: None,
            line: 0,
            offset: 0,
            index: 0,
            pending: None,
            ready: VecDeque::new(),
            nest: (0, false, false),
            done: false,
        };
        if format == Format::Wthor {
            let mut bytes = [0u8; wthor::HEADER_LEN];
            reader
                .input
                .read_exact(&mut bytes)
                .map_err(|e| io::Error::new(e.kind(), format!("{name}: too short for a WTHOR header ({e})")))?;
            let header = wthor::Header::parse(&bytes);
            if !header.is_8x8() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{name}: board-size byte {} (only 8x8 WTHOR databases are read)", header.board_size),
                ));
            }
            reader.header = Some(header);
            reader.offset = wthor::HEADER_LEN as u64;
        }
        Ok(reader)
    }

    /// The format being read.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }

    /// The WTHOR header, for a WTHOR file.
    #[must_use]
    pub fn header(&self) -> Option<wthor::Header> {
        self.header
    }

    /// The name errors use.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    fn next_binary(&mut self) -> Option<Result<RawRecord, ReadError>> {
        let mut bytes = Vec::with_capacity(wthor::RECORD_LEN);
        match (&mut self.input).take(wthor::RECORD_LEN as u64).read_to_end(&mut bytes) {
            Err(e) => Some(Err(ReadError::Io(e))),
            Ok(0) => None,
            Ok(n) => {
                let raw =
                    RawRecord { index: self.index, line: 0, column: 1, offset: self.offset, body: Body::Binary(bytes) };
                self.index += 1;
                self.offset += n as u64;
                if n < wthor::RECORD_LEN {
                    self.done = true;
                    let span = Span { start: 0, end: n };
                    let message = format!("the file ends inside a game record ({n} of {} bytes)", wthor::RECORD_LEN);
                    return Some(Err(ReadError::Record(raw.error(&self.name, span, message))));
                }
                Some(Ok(raw))
            }
        }
    }

    /// Reads one line (with its newline), keeping at most `MAX_RECORD` bytes of it.
    fn read_line(&mut self) -> io::Result<Option<(String, bool)>> {
        let mut bytes = Vec::new();
        let mut total = 0usize;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let (take, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let room = (MAX_RECORD + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&buf[..take.min(room)]);
            total += take;
            self.input.consume(take);
            if end {
                break;
            }
        }
        if total == 0 {
            return Ok(None);
        }
        self.offset += total as u64;
        Ok(Some((String::from_utf8_lossy(&bytes).into_owned(), total > MAX_RECORD)))
    }

    fn start(&self, text: String, column: usize, offset: u64) -> Pending {
        Pending { text, line: self.line, column, offset, too_long: false, movetext: false }
    }

    fn emit(&mut self, pending: Pending) {
        let text = pending.text.trim_end_matches(['\n', '\r']);
        let raw = RawRecord {
            index: self.index,
            line: pending.line,
            column: pending.column,
            offset: pending.offset,
            body: Body::Text(text.to_owned()),
        };
        self.index += 1;
        if pending.too_long {
            let message = format!("the record is longer than {MAX_RECORD} bytes; skipped");
            self.ready.push_back(Err(ReadError::Record(raw.error(&self.name, Span::default(), message))));
        } else {
            self.ready.push_back(Ok(raw));
        }
    }

    fn append(pending: &mut Pending, text: &str) {
        if pending.text.len() + text.len() > MAX_RECORD {
            pending.too_long = true;
        } else if !pending.too_long {
            pending.text.push_str(text);
        }
    }

    fn take_line(&mut self, line: &str, too_long: bool, line_offset: u64) {
        let blank = line.trim().is_empty();
        match self.split.expect("text formats split") {
            Split::Lines => {
                let comment = matches!(line.trim_start().chars().next(), Some('#' | '%'));
                if !blank && !comment {
                    let mut p = self.start(line.to_owned(), 1, line_offset);
                    p.too_long = too_long;
                    self.emit(p);
                }
            }
            Split::Blocks { boards } => {
                if blank {
                    if let Some(p) = self.pending.take() {
                        self.emit(p);
                    }
                } else if boards
                    && self.pending.is_none()
                    && super::board::parse(line, super::board::Digits::EmptyBlackWhite)
                        .or_else(|_| super::board::parse(line, super::board::Digits::BlackWhite))
                        .is_ok_and(|_| line.trim().lines().count() == 1 && line.trim().len() >= 16)
                {
                    let p = self.start(line.to_owned(), 1, line_offset);
                    self.emit(p);
                } else {
                    let mut p = self.pending.take().unwrap_or_else(|| self.start(String::new(), 1, line_offset));
                    p.too_long |= too_long;
                    Self::append(&mut p, line);
                    self.pending = Some(p);
                }
            }
            Split::Pgn => {
                let tag = line.trim_start().starts_with('[');
                if tag && self.pending.as_ref().is_some_and(|p| p.movetext) {
                    let p = self.pending.take().expect("checked");
                    self.emit(p);
                }
                if blank && self.pending.is_none() {
                    return;
                }
                let mut p = self.pending.take().unwrap_or_else(|| self.start(String::new(), 1, line_offset));
                p.movetext |= !tag && !blank && !line.trim_start().starts_with(';');
                p.too_long |= too_long;
                Self::append(&mut p, line);
                self.pending = Some(p);
            }
            Split::Nested { open, close, quote } => self.scan_nested(line, line_offset, open, close, quote),
        }
    }

    /// Feeds a line to the bracket scanner: records are balanced `open`..`close` spans at the
    /// top level, with `quote` pairs (GGF values, JSON strings) skipped.
    fn scan_nested(&mut self, line: &str, line_offset: u64, open: char, close: char, quote: (char, char)) {
        let (mut depth, mut quoted, mut escaped) = self.nest;
        let mut from = 0;
        for (i, c) in line.char_indices() {
            if depth == 0 {
                if c == open {
                    let column = line[..i].chars().count() + 1;
                    self.pending = Some(self.start(String::new(), column, line_offset + i as u64));
                    from = i;
                    depth = 1;
                }
                continue;
            }
            if quoted {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == quote.1 {
                    quoted = false;
                }
                continue;
            }
            if c == quote.0 {
                quoted = true;
            } else if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    let mut p = self.pending.take().expect("inside a record");
                    Self::append(&mut p, &line[from..i + c.len_utf8()]);
                    self.emit(p);
                }
            }
        }
        if depth > 0 {
            if let Some(p) = self.pending.as_mut() {
                Self::append(p, &line[from..]);
            }
        }
        self.nest = (depth, quoted, escaped);
    }
}

impl Iterator for Reader {
    type Item = Result<RawRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(r) = self.ready.pop_front() {
                return Some(r);
            }
            if self.done {
                return None;
            }
            if self.format == Format::Wthor {
                return self.next_binary();
            }
            let line_offset = self.offset;
            match self.read_line() {
                Err(e) => {
                    self.done = true;
                    return Some(Err(ReadError::Io(e)));
                }
                Ok(None) => {
                    self.done = true;
                    if let Some(p) = self.pending.take() {
                        if matches!(self.split, Some(Split::Nested { .. })) {
                            let raw = RawRecord {
                                index: self.index,
                                line: p.line,
                                column: p.column,
                                offset: p.offset,
                                body: Body::Text(p.text.clone()),
                            };
                            self.index += 1;
                            let err = raw.error(&self.name, Span::default(), "the file ends inside this record");
                            self.ready.push_back(Err(ReadError::Record(err)));
                        } else {
                            self.emit(p);
                        }
                    }
                }
                Ok(Some((line, too_long))) => {
                    self.line += 1;
                    self.take_line(&line, too_long, line_offset);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, format: Format) -> Vec<(usize, usize, String)> {
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        Reader::new("t", input, Some(format))
            .unwrap()
            .map(|r| {
                let r = r.unwrap();
                (r.line, r.column, r.text().to_owned())
            })
            .collect()
    }

    #[test]
    fn lines_skip_blanks_and_comments() {
        let got = cut("f5d6\n\n# note\nf5f6\r\n", Format::Transcript);
        assert_eq!(got, [(1, 1, "f5d6".into()), (4, 1, "f5f6".into())]);
    }

    #[test]
    fn nested_records_start_anywhere() {
        let got = cut("1 (;GM[Othello]C[a ) b];)\n2 (;B[d3]\nW[c5];)(;TY[8];)", Format::Ggf);
        assert_eq!(
            got,
            [(1, 3, "(;GM[Othello]C[a ) b];)".into()), (2, 3, "(;B[d3]\nW[c5];)".into()), (3, 8, "(;TY[8];)".into())]
        );
        let got = cut("[{\"a\":\"}\"},\n {\"b\":{}}]", Format::Json);
        assert_eq!(got, [(1, 2, "{\"a\":\"}\"}".into()), (2, 2, "{\"b\":{}}".into())]);
    }

    #[test]
    fn pgn_records_split_at_the_next_tags() {
        let text = "[Event \"a\"]\n\n1. f5 d6\n2. c3\n\n[Event \"b\"]\n[Black \"x\"]\n\n1. f5\n";
        let got = cut(text, Format::Pgn);
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].0, got[1].0), (1, 6));
        assert_eq!(got[1].2, "[Event \"b\"]\n[Black \"x\"]\n\n1. f5");
    }

    #[test]
    fn boards_are_lines_or_blocks() {
        let s = "---------------------------OX------XO--------------------------- X";
        let text = format!("{s}\n{s}\n\n....\n.OX.\n.XO.\n....\n\n{s}\n");
        let got = cut(&text, Format::Board);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [1, 2, 4, 9]);
    }

    #[test]
    fn errors_show_the_line_and_a_caret() {
        let raw = RawRecord { index: 2, line: 7, column: 3, offset: 0, body: Body::Text("(;B[d3]\nW[zz];)".into()) };
        let err = raw.error("games.ggf", Span { start: 10, end: 12 }, "`zz` is not a square");
        let text = err.to_string();
        assert!(text.starts_with("games.ggf:8:3: record 3: `zz` is not a square"), "{text}");
        assert!(text.ends_with("8 | W[zz];)\n  |   ^^"), "{text}");
        let first = raw.error("g", Span { start: 4, end: 6 }, "x");
        assert!(matches!(first.location, Location::Text { line: 7, column: 7, .. }), "{first:?}");
    }

    #[test]
    fn truncated_wthor_is_an_error_not_a_panic() {
        let mut bytes = wthor::Header { board_size: 8, ..wthor::Header::default() }.to_bytes().to_vec();
        bytes.extend([0u8; wthor::RECORD_LEN + 10]);
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes));
        let got: Vec<_> = Reader::new("db.wtb", input, None).unwrap().collect();
        assert_eq!(got.len(), 2);
        assert!(got[0].is_ok());
        assert!(matches!(&got[1], Err(ReadError::Record(e)) if e.to_string().contains("ends inside")));
    }

    #[test]
    fn oversized_records_are_reported_and_skipped() {
        let text = format!("f5d6\n{}\nf5f6\n", "f5".repeat(MAX_RECORD));
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.into_bytes()));
        let got: Vec<_> = Reader::new("t", input, Some(Format::Transcript)).unwrap().collect();
        assert_eq!(got.len(), 3);
        assert!(got[0].is_ok() && got[2].is_ok());
        assert!(matches!(&got[1], Err(ReadError::Record(e)) if e.message.contains("longer")));
    }
}
