//! Reading a file record by record in bounded memory, and errors that say where.
//!
//! [`open`] gives a buffered byte stream for a path or `-` (stdin), decompressing gzip (found by
//! its magic bytes, whatever the name). A [`Reader`] recognises the format (or takes the one
//! given), then cuts the stream into [`RawRecord`]s with a cheap scanner: one line each
//! (transcripts, logbooks, OBF, board strings), blank-line separated blocks (kifu grids,
//! diagrams; a line starting with 16 or more cell characters is a one-line board of its own),
//! tag sections plus move text ending in a result (PGN, PlayOK), balanced `( )` outside `[ ]`
//! values opened by `(;` (GGF, SGF; spaces and line breaks may come between `(` and `;`),
//! balanced `{ }` outside strings (JSON, Othello Quest), or fixed 68-byte records after a 16-byte
//! header (WTHOR). A UTF-8 byte-order mark at the start of a text stream is skipped. Only the
//! record at hand is held, and a record's text is capped at [`MAX_RECORD`] bytes, so memory stays
//! bounded whatever the input size: lines are read whole (their first `MAX_RECORD` bytes) except
//! by the bracket scanner, which reads long lines in chunks of [`CHUNK`] bytes.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use unicode_width::UnicodeWidthChar;

use super::format::{self, Format};
use super::{Span, kifu, printable, wthor};

/// The most text one record may hold; a longer one is reported and skipped.
pub const MAX_RECORD: usize = 1 << 20;

const BUFFER: usize = 1 << 16;

/// The most bytes of a line the bracket scanner (GGF, SGF, JSON) reads at a time.
pub const CHUNK: usize = 1 << 16;

/// How many characters of a long line a record error shows before and after the caret's start.
const SHOWN_BEFORE: usize = 60;
const SHOWN_AFTER: usize = 100;

/// Opens a path, or stdin for `-`, as a buffered stream; gzip is decompressed.
pub fn open(path: impl AsRef<std::path::Path>) -> io::Result<Box<dyn BufRead + Send>> {
    let path = path.as_ref();
    let raw: Box<dyn Read + Send> =
        if path.as_os_str() == "-" { Box::new(io::stdin()) } else { Box::new(std::fs::File::open(path)?) };
    buffer(raw)
}

/// What a file that starts with `head` is packed as, when kifu cannot read it: another
/// compression or an archive (`a zip archive`), which would read as pages of nonsense records.
#[must_use]
pub fn packed(head: &[u8]) -> Option<&'static str> {
    const PACKED: [(&[u8], &str); 5] = [
        (b"BZh", "bzip2-compressed"),
        (b"\xFD7zXZ\x00", "xz-compressed"),
        (b"\x28\xB5\x2F\xFD", "zstd-compressed"),
        (b"PK\x03\x04", "a zip archive"),
        (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
    ];
    PACKED.iter().find(|(magic, _)| head.starts_with(magic)).map(|(_, what)| *what)
}

/// Buffers a byte stream, decompressing it when it starts with gzip's magic bytes.
pub fn buffer(raw: Box<dyn Read + Send>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut buffered = BufReader::with_capacity(BUFFER, raw);
    let head = buffered.fill_buf()?;
    if let Some(what) = packed(head) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it is {what}: kifu reads plain files and gzip; unpack it first"),
        ));
    }
    if head.starts_with(&[0x1f, 0x8b]) {
        Ok(Box::new(BufReader::with_capacity(
            BUFFER,
            Gunzip { decoder: flate2::read::MultiGzDecoder::new(buffered), damage: None },
        )))
    } else {
        Ok(Box::new(buffered))
    }
}

/// A gzip stream that ends early or holds bad data: the records after it are lost, those before
/// it are good. The [`Reader`] reports it as a record error, not as a failing stream.
#[derive(Debug, thiserror::Error)]
#[error("the gzip data is damaged or cut short ({0}); the rest of the file cannot be read")]
pub struct Damaged(String);

/// Whether a read failed on damaged compressed data.
fn is_damaged(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Damaged>())
}

/// A gzip decoder whose data errors are marked [`Damaged`] (errors of the stream under it, such
/// as a failing disk, are passed on as they are). Damage is given again on every later read:
/// the decoder would answer those with an end of data, and a file cut inside its gzip header
/// would read as an empty file.
struct Gunzip<R> {
    decoder: flate2::read::MultiGzDecoder<R>,
    damage: Option<(io::ErrorKind, String)>,
}

impl<R: BufRead> Read for Gunzip<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some((kind, message)) = &self.damage {
            return Err(io::Error::new(*kind, Damaged(message.clone())));
        }
        self.decoder.read(buf).map_err(|e| match e.kind() {
            kind @ (io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof) => {
                self.damage = Some((kind, e.to_string()));
                io::Error::new(kind, Damaged(e.to_string()))
            }
            _ => e,
        })
    }
}

/// The UTF-16 a file's start is in: that of its byte-order mark, or, without one, the byte
/// order its zero bytes show: a fifth of its characters or more with a zero byte on one side
/// (ASCII's letters, digits, spaces and line ends), four times as many as on the other (a
/// Japanese header's `　` or `〇` has one there), and the start decoding without a fault. Text
/// in UTF-8 or a one-byte encoding has no zero bytes.
fn utf16(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    if head.starts_with(b"\xFF\xFE") {
        return Some(encoding_rs::UTF_16LE);
    }
    if head.starts_with(b"\xFE\xFF") {
        return Some(encoding_rs::UTF_16BE);
    }
    let head = &head[..head.len().min(1024) & !1];
    let pairs: Vec<&[u8]> = head.chunks_exact(2).collect();
    let count = |test: fn(&[u8]) -> bool| pairs.iter().filter(|p| test(p)).count();
    let (low_zero, high_zero) = (count(|p| p[0] != 0 && p[1] == 0), count(|p| p[0] == 0 && p[1] != 0));
    let encoding = if pairs.len() < 2 {
        return None;
    } else if low_zero * 5 >= pairs.len() && low_zero >= 4 * high_zero {
        encoding_rs::UTF_16LE
    } else if high_zero * 5 >= pairs.len() && high_zero >= 4 * low_zero {
        encoding_rs::UTF_16BE
    } else {
        return None;
    };
    // (The start may cut a surrogate pair: its last character is not judged.)
    let (text, _) = encoding.decode_without_bom_handling(head);
    let faults = text.chars().filter(|&c| c == char::REPLACEMENT_CHARACTER).count();
    (faults == 0 || (faults == 1 && text.ends_with(char::REPLACEMENT_CHARACTER))).then_some(encoding)
}

/// Text as the parsers read it: line ends as `\n` (Windows' `\r\n`, old Macs' `\r`), the
/// UTF-8 byte-order mark dropped at the start of every line (files joined by `copy a+b` keep
/// the second file's), and DOS's end-of-file mark (Ctrl-Z, 0x1A, a control character no text
/// encoding uses inside another character) dropped.
struct TidyText<R> {
    input: R,
    /// The next byte starts a line.
    line_start: bool,
    /// The last byte was a `\r` (written as `\n`): a `\n` right after it is the same line end.
    cr: bool,
    /// Fill the caller's buffer, not just give what one read of the input gave.
    eager: bool,
}

impl<R: BufRead> Read for TidyText<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut written = self.read_some(out)?;
        while self.eager && written > 0 && written < out.len() {
            match self.read_some(&mut out[written..])? {
                0 => break,
                more => written += more,
            }
        }
        Ok(written)
    }
}

impl<R: BufRead> TidyText<R> {
    /// What one read of the input gives, tidied (at least a byte, unless the input ends).
    fn read_some(&mut self, out: &mut [u8]) -> io::Result<usize> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() || out.is_empty() {
                return Ok(0);
            }
            let (mut read, mut written) = (0, 0);
            while read < buf.len() && written < out.len() {
                let b = buf[read];
                if self.line_start && buf[read..].starts_with(BOM) {
                    read += BOM.len();
                    continue;
                }
                read += 1;
                if b == 0x1A || b == b'\n' && self.cr {
                    self.cr = false;
                    continue;
                }
                out[written] = if b == b'\r' { b'\n' } else { b };
                written += 1;
                self.cr = b == b'\r';
                self.line_start = matches!(b, b'\r' | b'\n');
            }
            self.input.consume(read);
            if written > 0 {
                return Ok(written);
            }
        }
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
    /// The byte offset of its first byte in the (decompressed) stream; in text, the text as
    /// read (UTF-8, line ends as `\n`, byte-order marks and Ctrl-Z left out).
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
                write!(f, "{}: record {} (byte {offset}): {}", self.file, self.record, printable(&self.message))
            }
            Location::Text { line, column, excerpt, caret } => {
                writeln!(f, "{}:{line}:{column}: record {}: {}", self.file, self.record, printable(&self.message))?;
                let excerpt = printable(excerpt);
                let gutter = line.to_string().len();
                // A window of the line around the caret, with `…` where it is cut (not `...`,
                // which reads as three empty squares of a board).
                let chars = excerpt.chars().count();
                let (at, width) = (caret.0.min(chars), caret.1.max(1));
                let from = at.saturating_sub(SHOWN_BEFORE);
                let to = chars.min(at + SHOWN_AFTER);
                let mut shown = String::from(if from > 0 { "…" } else { "" });
                shown.extend(excerpt.chars().skip(from).take(to - from));
                if to < chars {
                    shown.push('…');
                }
                // The caret goes under its characters as a terminal shows them: a tab as a tab,
                // a wide character (`Ｆ`, `漢`) over two columns.
                let mut pad = String::from(if from > 0 { " " } else { "" });
                for c in excerpt.chars().skip(from).take(at - from) {
                    match c {
                        '\t' => pad.push('\t'),
                        _ => pad.extend(std::iter::repeat_n(' ', c.width().unwrap_or(0))),
                    }
                }
                let width = width.min(to.max(at + 1) - at);
                let under: Vec<char> = excerpt.chars().skip(at).take(width).collect();
                let columns = under.iter().map(|c| c.width().unwrap_or(0).max(1)).sum::<usize>() + width - under.len();
                writeln!(f, "{:gutter$} |", "")?;
                writeln!(f, "{line} | {shown}")?;
                write!(f, "{:gutter$} | {pad}{}", "", "^".repeat(columns))
            }
        }
    }
}

/// A problem with a file as a whole, not with one of its records: the file disagrees with
/// itself (a WTHOR header's game count against the games it holds), holds no record of its
/// format, or its compressed data is damaged between two records. The records read are all
/// handed out; the problem comes after the last.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FileError {
    /// The file name as given.
    pub file: String,
    /// What is wrong.
    pub message: String,
    /// Part of the file could not be read (damaged data, text outside the records that holds
    /// records, text with no record of the format at all), so records may be missing.
    pub damaged: bool,
}

impl std::error::Error for FileError {}

impl fmt::Display for FileError {
    /// `file: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// A failure while reading: the stream broke (fatal), one record is bad (the rest go on), or
/// the file disagrees with itself (every record was read).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The stream could not be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// One record could not be cut out.
    #[error("{0}")]
    Record(RecordError),
    /// The file as a whole is inconsistent; no record is lost.
    #[error("{0}")]
    File(FileError),
}

/// Every record of a file parsed ([`format::parse`]; WTHOR games named from the files beside
/// the database, [`wthor::Names::beside`]), in bounded memory: the [`Reader`] a program uses
/// when it wants [`Record`](super::Record)s rather than their text.
///
/// ```
/// use kifu::notation::reader::{ReadError, Records};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/ffo-1-5.obf");
/// let mut solved = 0;
/// for record in Records::open(path).unwrap() {
///     match record {
///         Ok(record) => {
///             let rules = record.implied_rules().unwrap().shared();
///             let position = record.resolve(rules).unwrap().end;
///             assert!(position.empties() <= 20);
///             solved += 1;
///         }
///         // A record that does not read, with its file, record number and line.
///         Err(ReadError::Record(e)) => eprintln!("{e}"),
///         // A problem of the whole file (a warning unless it is damaged), or of the stream.
///         Err(e) => eprintln!("{e}"),
///     }
/// }
/// assert_eq!(solved, 5);
/// ```
pub struct Records {
    reader: Reader,
    names: wthor::Names,
    options: format::ReadOptions,
}

impl Records {
    /// The records of the file at `path` (`-` for stdin), gzipped or not, in the format its
    /// name and start show.
    pub fn open(path: impl AsRef<std::path::Path>) -> io::Result<Records> {
        let path = path.as_ref();
        let reader = Reader::new(&path.to_string_lossy(), open(path)?, None)?;
        let names = match reader.header() {
            Some(_) if path.as_os_str() != "-" => wthor::Names::beside(path)?,
            _ => wthor::Names::default(),
        };
        Ok(Records::new(reader, names, format::ReadOptions::default()))
    }

    /// The records of `reader`, WTHOR games named by `names`, text read with `options`.
    #[must_use]
    pub fn new(reader: Reader, names: wthor::Names, options: format::ReadOptions) -> Records {
        Records { reader, names, options }
    }

    /// The format being read.
    #[must_use]
    pub fn format(&self) -> Format {
        self.reader.format()
    }
}

impl Iterator for Records {
    type Item = Result<super::Record, ReadError>;

    /// The next record, or why it does not read (located in the file); a problem of the whole
    /// file comes as [`ReadError::File`] and the records after it still come.
    fn next(&mut self) -> Option<Self::Item> {
        let raw = match self.reader.next()? {
            Ok(raw) => raw,
            Err(e) => return Some(Err(e)),
        };
        let parsed = match &raw.body {
            Body::Text(text) => format::parse(self.reader.format(), text, self.options),
            Body::Binary(bytes) => wthor::parse_game(bytes, self.reader.header().map_or(0, |h| h.year), &self.names),
        };
        Some(parsed.map_err(|e| ReadError::Record(raw.error(self.reader.name(), e.span, e.message))))
    }
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
    /// PGN: a line of moves was seen.
    movetext: bool,
    /// PGN: the last line with moves ended with a result (only comments may follow).
    ended: bool,
    /// Transcripts: the record starts with header lines (`Black: Ann`); `movetext` says
    /// whether its moves came yet.
    headed: bool,
    /// Transcripts: the header lines state a result.
    stated: bool,
    /// Transcripts: header lines right under a game without them (its tags written after its
    /// moves, not a game of their own).
    under_bare: bool,
    /// PGN: a blank line came after text.
    gap: bool,
    /// Kifu grids: the rank lines so far.
    ranks: usize,
    /// Kifu grids: where the next grid starts (byte in `text`, line, offset) if rank lines
    /// follow the header line there, written after a whole grid.
    next_grid: Option<(usize, usize, u64)>,
}

/// The bracket scanner's state between chunks.
#[derive(Clone, Copy, Default)]
struct Nest {
    /// Open brackets (0 outside records).
    depth: usize,
    /// Inside a quoted value or string.
    quoted: bool,
    /// After a backslash in a quoted value.
    escaped: bool,
    /// After a `(` with only spaces since: a record if a `;` comes next.
    opening: bool,
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
    nest: Nest,
    /// Bracket scanner: the bytes of a character cut by the end of a chunk.
    carry: Vec<u8>,
    /// Bracket scanner: characters of the current line already scanned (0 at a line start).
    line_chars: usize,
    /// Bracket scanner: the last chunk did not end its line.
    mid_line: bool,
    /// PGN: inside a `{ }` comment that goes on past the line.
    in_comment: bool,
    /// Transcripts: the last line was a line of moves without header lines.
    after_moves: bool,
    /// Transcripts: header lines came right under a game without them: the file writes a
    /// game's tags after its moves, so header lines without moves are no game of their own.
    tags_after_moves: bool,
    /// Bracket scanner: text other than spaces was seen outside records.
    stray: bool,
    /// Bracket scanner: the current line's text outside records (its first [`CHUNK`] bytes),
    /// with the column and offset of its first character.
    outside: Option<(String, usize, u64)>,
    /// Bracket scanner: lines outside the games that read as records of another format.
    foreign_lines: u64,
    /// A failed read lost text that was not part of a record yet.
    lost_text: bool,
    /// The Japanese legacy encoding the file is in, once a line showed it ([`decode`]).
    legacy: Option<&'static encoding_rs::Encoding>,
    /// Lines likely in another encoding and read as Windows-1252, and the first of them.
    misread: (u64, String),
    /// Lines read in a Japanese legacy encoding, and the first of them.
    japanese: (u64, String),
    /// A line read in a legacy encoding has kana (it is Japanese, not Chinese or Korean).
    kana: bool,
    /// The misread lines were warned of.
    misread_told: bool,
    /// Something was handed out: a record, or a problem of the file.
    gave: bool,
    done: bool,
}

impl Reader {
    /// A reader over `input`, named `name` in its records' errors, in `format` or the one its start
    /// shows. Its own errors (a file too short for its format) leave the name to the caller.
    pub fn new(name: &str, input: Box<dyn BufRead + Send>, format: Option<Format>) -> io::Result<Reader> {
        Reader::with_encoding(name, input, format, None)
    }

    /// A reader as [`Reader::new`] gives, reading text in `encoding` when it is given (a WTHOR
    /// file, binary, is read as ever). Without one, text is UTF-8, UTF-16 (by its byte-order mark
    /// or its zero bytes), an SGF file's declared `CA[...]` when it is not UTF-8, Japanese in
    /// Shift_JIS or EUC-JP, or else Windows-1252 (see [`Reader`]'s line decoding).
    pub fn with_encoding(
        name: &str,
        mut input: Box<dyn BufRead + Send>,
        format: Option<Format>,
        encoding: Option<&'static encoding_rs::Encoding>,
    ) -> io::Result<Reader> {
        // UTF-16 text (as Windows tools write it, PowerShell's `>` among them), told by its
        // byte-order mark or by the zero bytes of its ASCII (which WTHOR's moves, never zero,
        // do not have): read as the same text in UTF-8, the mark left out.
        let utf16 = if format == Some(Format::Wthor) || encoding.is_some() {
            None
        } else {
            input.fill_buf().ok().and_then(utf16)
        };
        let binary = format == Some(Format::Wthor)
            || format.is_none()
                && utf16.is_none()
                && matches!(input.fill_buf(), Ok(head) if format::sniff(name, head) == Format::Wthor);
        // The encoding given, else an SGF file's own `CA[...]` when its start is no UTF-8.
        let declared = encoding.or_else(|| match (format, input.fill_buf()) {
            (Some(Format::Sgf), Ok(head)) if utf16.is_none() => sgf_charset(head),
            (None, Ok(head)) if utf16.is_none() && !binary && format::sniff(name, head) == Format::Sgf => {
                sgf_charset(head)
            }
            _ => None,
        });
        if !binary {
            if let Some(encoding) = utf16.or(declared) {
                let decoded = encoding_rs_io::DecodeReaderBytesBuilder::new()
                    .encoding(Some(encoding))
                    .strip_bom(true)
                    .build(input);
                input = Box::new(BufReader::with_capacity(BUFFER, decoded));
            }
            // (Decoded text comes a little at a time: read on, so that the start the format is
            // told from is whole.)
            let eager = utf16.or(declared).is_some();
            input = Box::new(BufReader::with_capacity(BUFFER, TidyText { input, line_start: true, cr: false, eager }));
        }
        // Compressed data damaged from the start: a reader whose one record is that error.
        let mut damaged = None;
        let mut legacy = None;
        // A table kifu wrote, given back as input (only when the format is sniffed).
        let mut own_table = None;
        let format = match (format, input.fill_buf()) {
            (Some(f), head) => {
                legacy = head.ok().filter(|_| f != Format::Wthor).and_then(legacy_encoding);
                f
            }
            (None, Ok(head)) => {
                let format = format::sniff(name, head);
                legacy = if format == Format::Wthor { None } else { legacy_encoding(head) };
                own_table = kifu_table(head);
                format
            }
            (None, Err(e)) if is_damaged(&e) => {
                damaged = Some(e);
                format::sniff(name, &[])
            }
            (None, Err(e)) => return Err(e),
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
            nest: Nest::default(),
            carry: Vec::new(),
            line_chars: 0,
            mid_line: false,
            in_comment: false,
            after_moves: false,
            tags_after_moves: false,
            stray: false,
            outside: None,
            foreign_lines: 0,
            lost_text: false,
            legacy,
            misread: (0, String::new()),
            japanese: (0, String::new()),
            kana: false,
            misread_told: false,
            gave: false,
            done: false,
        };
        if let Some(e) = damaged {
            reader.fail(e);
            return Ok(reader);
        }
        if let Some(kind) = own_table {
            reader.give_up(
                format!(
                    "this is {kind}, not game records: give kifu the records it came from (or --from FORMAT to read \
                     it as records all the same)"
                ),
                true,
            );
            return Ok(reader);
        }
        if format == Format::Wthor {
            let mut bytes = [0u8; wthor::HEADER_LEN];
            if let Err(e) = reader.input.read_exact(&mut bytes) {
                if is_damaged(&e) {
                    reader.fail(e);
                    return Ok(reader);
                }
                if e.kind() != io::ErrorKind::UnexpectedEof {
                    return Err(e);
                }
                // Bad data, not a failed read: this file's problem, and the next file is read.
                reader.give_up(
                    format!("too short for a WTHOR header of {} bytes: no game read", wthor::HEADER_LEN),
                    true,
                );
                return Ok(reader);
            }
            let header = wthor::Header::parse(&bytes);
            if !header.is_8x8() {
                let size = header.board_size;
                reader.give_up(
                    format!("board-size byte {size} (only 8x8 WTHOR databases are read): no game read"),
                    false,
                );
                return Ok(reader);
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

    /// Ends the file at once with a problem of the whole file (no record read).
    fn give_up(&mut self, message: String, damaged: bool) {
        self.done = true;
        self.ready.push_back(Err(ReadError::File(FileError { file: self.name.clone(), message, damaged })));
    }

    /// Ends the reading after a failed read and queues what to report: damaged compressed data
    /// is an error of the record being read (a whole record already gathered is handed out
    /// first; one that may go on after the damage, such as a PGN game short of its result or
    /// one the bracket scanner had not closed, is lost with the rest), or of the file when
    /// it comes between records (a gzip trailer cut off after the last record); anything else is
    /// the stream's error.
    fn fail(&mut self, e: io::Error) {
        self.done = true;
        if !is_damaged(&e) {
            self.ready.push_back(Err(ReadError::Io(e)));
            return;
        }
        let nested = matches!(self.split, Some(Split::Nested { .. }));
        let mut lost = std::mem::take(&mut self.lost_text) || (nested && self.nest.depth > 0);
        // A record gathered over several lines may go on after the damage: only a line of its
        // own, or a PGN game whose moves reached their result, is whole.
        let whole = |p: &Pending| match self.split {
            Some(Split::Lines) => !p.headed,
            Some(Split::Pgn) => p.ended,
            _ => false,
        };
        match self.pending.take() {
            Some(p) if whole(&p) => self.emit(p),
            Some(_) => lost = true,
            None => {}
        }
        let message = e.into_inner().map_or_else(String::new, |inner| inner.to_string());
        if !lost {
            // Nothing of a record was lost: a problem of the file, not one more record.
            let (count, offset) = (self.index, self.offset);
            let message = match count {
                0 => format!("before any record (byte {offset}): {message}"),
                _ => format!("after record {count} (byte {offset}): {message}"),
            };
            self.ready.push_back(Err(ReadError::File(FileError { file: self.name.clone(), message, damaged: true })));
            return;
        }
        let record = self.index + 1;
        self.index += 1;
        let error = RecordError { file: self.name.clone(), record, location: Location::Byte(self.offset), message };
        self.ready.push_back(Err(ReadError::Record(error)));
    }

    fn next_binary(&mut self) -> Option<Result<RawRecord, ReadError>> {
        let mut bytes = Vec::with_capacity(wthor::RECORD_LEN);
        match (&mut self.input).take(wthor::RECORD_LEN as u64).read_to_end(&mut bytes) {
            Err(e) => {
                self.lost_text = !bytes.is_empty();
                self.fail(e);
                self.ready.pop_front()
            }
            Ok(0) => {
                self.done = true;
                let said = self.header.map_or(0, |h| h.games as usize);
                (said != self.index)
                    .then(|| {
                        let message = format!(
                            "the header says the file holds {said} games, but it holds {} (every one is read)",
                            self.index
                        );
                        // Fewer games than the header says: most likely a file cut short.
                        let damaged = said > self.index;
                        ReadError::File(FileError { file: self.name.clone(), message, damaged })
                    })
                    .map(Err)
            }
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

    /// A line's text ([`decode`]); a line that reads as Japanese in a legacy encoding makes
    /// that the file's for the lines after it.
    /// A line whose bytes hold a run of four or more beyond ASCII and are neither UTF-8 nor
    /// Japanese, read as Windows-1252 (two-byte Chinese or Korean characters, most likely, where
    /// a European name has one accented letter at a time), is counted for [`Reader::misread`].
    ///
    /// Lines read as Japanese in Shift_JIS or EUC-JP are counted too, with whether any has kana
    /// (or `黒`): Chinese in GBK and Korean in EUC-KR are often valid EUC-JP, and read as kanji
    /// alone.
    fn decode(&mut self, bytes: Vec<u8>) -> String {
        let (text, not_utf8) = decode(bytes, &mut self.legacy);
        if not_utf8 && !self.mid_line {
            // (Windows-1252 gives a character a byte: four beyond ASCII in a row are four bytes.)
            let run = || text.chars().collect::<Vec<char>>().windows(4).any(|w| w.iter().all(|c| !c.is_ascii()));
            let tally = if self.legacy.is_some() { &mut self.japanese } else { &mut self.misread };
            if self.legacy.is_some() || run() {
                tally.0 += 1;
                if tally.1.is_empty() {
                    tally.1 = text.trim().chars().take(24).collect();
                }
            }
            // (Kana, half-width too, and the Japanese forms `黒` and `々`, which Chinese writes
            // otherwise.)
            self.kana |= text.chars().any(|c| {
                ('\u{3041}'..='\u{30FA}').contains(&c)
                    || ('\u{FF66}'..='\u{FF9D}').contains(&c)
                    || c == '黒'
                    || c == '々'
            });
        }
        text
    }

    /// The warning for lines [`Reader::decode`] found likely misread: how many, one of them,
    /// and the option that reads them right.
    fn misread(&self) -> Option<FileError> {
        let lines = |n: u64| if n == 1 { "1 line is".to_owned() } else { format!("{n} lines are") };
        let message = if self.misread.0 > 0 {
            format!(
                "{} not UTF-8 and read as Windows-1252 (`{}`): if the file is in another encoding, give it with \
                 --encoding (gbk, big5, euc-kr, ...)",
                lines(self.misread.0),
                self.misread.1
            )
        } else if self.japanese.0 > 0 && !self.kana && self.legacy == Some(encoding_rs::EUC_JP) {
            format!(
                "{} not UTF-8 and read as Japanese in {} (`{}`), with no kana anywhere: if the file is Chinese or \
                 Korean, give its encoding with --encoding (gbk, big5, euc-kr, ...)",
                lines(self.japanese.0),
                self.legacy.map_or("", |e| e.name()),
                self.japanese.1
            )
        } else {
            return None;
        };
        Some(FileError { file: self.name.clone(), message, damaged: false })
    }

    /// Reads one line (with its newline), keeping at most `MAX_RECORD` bytes of it.
    fn read_line(&mut self) -> io::Result<Option<(String, bool)>> {
        let mut bytes = Vec::new();
        let mut total = 0usize;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) => {
                    self.lost_text = bytes.iter().any(|b: &u8| !b.is_ascii_whitespace());
                    return Err(e);
                }
            };
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
        Ok(Some((self.decode(bytes), total > MAX_RECORD)))
    }

    /// Reads the next piece of a line for the bracket scanner: the rest of the line with its
    /// newline, or [`CHUNK`] bytes of it cut at a character boundary (the cut character's bytes
    /// are kept for the next piece). Returns the text and whether it ends its line.
    fn read_chunk(&mut self) -> io::Result<Option<(String, bool)>> {
        let mut bytes = std::mem::take(&mut self.carry);
        let mut newline = false;
        while bytes.len() < CHUNK {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) => {
                    self.lost_text = bytes.iter().any(|b: &u8| !b.is_ascii_whitespace());
                    return Err(e);
                }
            };
            if buf.is_empty() {
                break;
            }
            let room = &buf[..buf.len().min(CHUNK - bytes.len())];
            let take = match room.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    newline = true;
                    i + 1
                }
                None => room.len(),
            };
            bytes.extend_from_slice(&room[..take]);
            self.input.consume(take);
            if newline {
                break;
            }
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        if !newline && bytes.len() >= CHUNK {
            let cut = char_boundary(&bytes);
            self.carry = bytes.split_off(cut);
        }
        self.offset += bytes.len() as u64;
        Ok(Some((self.decode(bytes), newline)))
    }

    fn start(&self, text: String, column: usize, offset: u64) -> Pending {
        Pending {
            text,
            line: self.line,
            column,
            offset,
            too_long: false,
            movetext: false,
            ended: false,
            ranks: 0,
            next_grid: None,
            headed: false,
            stated: false,
            under_bare: false,
            gap: false,
        }
    }

    fn emit(&mut self, pending: Pending) {
        // (Header lines the parser takes for no game are its to report.)
        if pending.headed
            && !pending.movetext
            && (pending.under_bare || self.tags_after_moves)
            && super::transcript::parse(&pending.text).is_ok()
        {
            self.cut_short(
                pending,
                "header lines under a game without header lines are not read: write them over its moves \
                 (docs/formats.md)",
            );
            return;
        }
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

    /// Reports a record the scanner could not close, as an error of that record.
    fn cut_short(&mut self, pending: Pending, message: &str) {
        self.cut_short_at(pending, Span::default(), message);
    }

    /// [`Reader::cut_short`] with the error at `span` of the record's text.
    fn cut_short_at(&mut self, pending: Pending, span: Span, message: &str) {
        let raw = RawRecord {
            index: self.index,
            line: pending.line,
            column: pending.column,
            offset: pending.offset,
            body: Body::Text(pending.text),
        };
        self.index += 1;
        let err = raw.error(&self.name, span, message);
        self.ready.push_back(Err(ReadError::Record(err)));
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
                // A transcript's header lines (`Black: Ann`, `Event: Club night`) are held with
                // the moves after them, and the game until the next line, which may state its
                // result (`Result: 16-47`). A numbered transcript is held until the next line
                // too, which may go on with its numbers (a game pasted over several lines:
                // `1. f5 d6 ... 10. c7 d7`, then `11. e7 a7 ...`).
                let tags = if self.format == Format::Transcript && !blank { kifu::header_line(line, 0) } else { None };
                let header = tags.is_some();
                let states = |k: &String| k == "result" || k == "outcome";
                let (result, result_only, first_only) = match &tags {
                    Some(Ok(tags)) => (
                        tags.iter().any(|(k, _)| states(k)),
                        tags.iter().all(|(k, _)| states(k)),
                        !tags.is_empty() && tags.iter().all(|(k, _)| k == "first"),
                    ),
                    _ => (false, false, false),
                };
                let after_moves = std::mem::take(&mut self.after_moves);
                if let Some(mut p) = self.pending.take() {
                    if p.headed && !p.movetext {
                        // Header lines so far: more of them, or the moves.
                        if !blank && (header || !is_comment_line(line)) {
                            p.too_long |= too_long;
                            Self::append(&mut p, line);
                            p.movetext = !header;
                            p.stated |= result;
                        }
                        self.pending = Some(p);
                        return;
                    }
                    // A result line under a headed game is its own: right under its moves, or
                    // after blank or comment lines when the header stated none (the parser
                    // checks that two results agree).
                    if p.headed && p.movetext && !p.stated && (blank || (!header && is_comment_line(line))) {
                        p.gap = true;
                        self.pending = Some(p);
                        return;
                    }
                    // A headed game's moves typed over several lines (ten a line on a
                    // scoresheet): a line of moves alone right under them goes on with them,
                    // while the two make a game's length at most.
                    if p.headed
                        && p.movetext
                        && !p.gap
                        && !blank
                        && !header
                        && !too_long
                        && continues_moves(&p.text, line)
                    {
                        Self::append(&mut p, line);
                        self.pending = Some(p);
                        return;
                    }
                    // (`White first` under the moves goes with them too; a result line may
                    // follow it.)
                    let footer = p.headed && header && (result_only || first_only);
                    if footer || (!blank && !too_long && continues_numbering(&p.text, line)) {
                        Self::append(&mut p, line);
                        if footer && result_only {
                            self.emit(p);
                        } else {
                            self.after_moves = !p.headed;
                            self.pending = Some(p);
                        }
                        return;
                    }
                    self.emit(p);
                }
                if !blank && !is_comment_line(line) {
                    let mut p = self.start(line.to_owned(), 1, line_offset);
                    p.too_long = too_long;
                    p.headed = header;
                    p.stated = result;
                    p.under_bare = header && after_moves;
                    self.tags_after_moves |= p.under_bare;
                    self.after_moves = !header;
                    if header && result_only && after_moves {
                        // (A game without header lines was answered when its line came.)
                        self.cut_short(
                            p,
                            "a result line under a game without header lines is not read: state it over the \
                             moves, or after a header such as `Black: ...` (docs/formats.md)",
                        );
                    } else if header || (self.format == Format::Transcript && numbered_game(line) && !too_long) {
                        self.pending = Some(p);
                    } else {
                        self.emit(p);
                    }
                }
            }
            Split::Blocks { boards } => {
                if is_block_comment(line) {
                    // (`% my suite`, `# from the club's book`: not part of a record.)
                } else if blank {
                    if let Some(p) = self.pending.take() {
                        self.emit(p);
                    }
                } else if boards && is_board_line(line, self.pending.is_some()) {
                    // A one-line board, good or bad, is a record of its own, with the caption
                    // over it, if any (`Exercise 3: black to play and win`).
                    let mut p = match self.pending.take() {
                        Some(mut p) if super::board::caption_over_board(&format!("{}{line}", p.text)).is_some() => {
                            Self::append(&mut p, line);
                            p
                        }
                        Some(p) => {
                            self.emit(p);
                            self.start(line.to_owned(), 1, line_offset)
                        }
                        None => self.start(line.to_owned(), 1, line_offset),
                    };
                    p.too_long |= too_long;
                    self.emit(p);
                } else {
                    let mut p = self.pending.take().unwrap_or_else(|| self.start(String::new(), 1, line_offset));
                    if !boards {
                        let rank = kifu::is_rank_line(line);
                        match p.next_grid {
                            // A header line after a whole grid (no blank line between): the
                            // next grid's, if rank lines follow; else the grid's own footer.
                            None if p.ranks >= 4 && kifu::starts_a_grid(line) => {
                                p.next_grid = Some((p.text.len(), self.line, line_offset));
                            }
                            Some((at, line, offset)) if rank && at <= p.text.len() => {
                                let mut next = self.start(p.text.split_off(at), 1, offset);
                                next.line = line;
                                p.next_grid = None;
                                self.emit(p);
                                p = next;
                            }
                            _ => {}
                        }
                        p.ranks += usize::from(rank);
                    }
                    p.too_long |= too_long;
                    Self::append(&mut p, line);
                    self.pending = Some(p);
                }
            }
            Split::Pgn => {
                if self.in_comment && is_tag_line(line) {
                    // A `{` never closed: the next game's tags end its record.
                    self.in_comment = false;
                    if let Some(p) = self.pending.take() {
                        // The `{` that opened it: the first after the last `}`.
                        let after = p.text.rfind('}').map_or(0, |i| i + 1);
                        let span = p.text[after..]
                            .find('{')
                            .map_or_else(Span::default, |i| Span { start: after + i, end: after + i + 1 });
                        self.cut_short_at(p, span, "a `{` comment is not closed before the next game's tags");
                    }
                }
                let in_comment = self.in_comment;
                let tag = !in_comment && line.trim_start().starts_with('[');
                let moves = if tag { String::new() } else { pgn_moves(line, &mut self.in_comment) };
                let moves = moves.trim();
                // A line that holds no moves: a comment or an escape line (or blank).
                // A line that goes on with a comment begun before is the record's too.
                let comment = !blank && !tag && (in_comment || moves.is_empty());
                // A game of tags alone (a forfeit, a board not played) ends at the next tag
                // section after a blank line, at a tag section that begins as its did, or, once
                // it has its result, at a tag it already has.
                let tags_alone = |p: &Pending| {
                    !p.movetext
                        && (p.gap
                            || starts_tags_again(&p.text, line)
                            || (repeats_tag(&p.text, line) && has_tag(&p.text, "result")))
                };
                if let Some(p) = &self.pending
                    && ((tag && (p.movetext || tags_alone(p))) || (p.ended && !comment))
                {
                    let p = self.pending.take().expect("checked");
                    self.emit(p);
                }
                if blank && self.pending.is_none() {
                    return;
                }
                let mut p = self.pending.take().unwrap_or_else(|| self.start(String::new(), 1, line_offset));
                p.gap |= blank && !p.text.trim().is_empty();
                if !moves.is_empty() {
                    p.movetext = true;
                    p.ended = moves.split_whitespace().next_back().is_some_and(is_result);
                }
                p.too_long |= too_long;
                Self::append(&mut p, line);
                self.pending = Some(p);
            }
            Split::Nested { open, close, quote } => {
                self.scan_nested(line, line_offset, 0, open, close, quote);
            }
        }
    }

    /// JSON: a whole line outside records that is a JSON value holding something other than
    /// objects (`42`, `null`, `[1, 2]`) is a record of its own, reported: a JSON Lines file
    /// gives one object per line, and the value would otherwise go unsaid. Other text beside
    /// records (an array's brackets and commas, notes) is skipped as before.
    fn not_an_object(&mut self, line: &str, line_offset: u64) {
        let text = line.trim();
        if text.is_empty() || text.starts_with('{') {
            return;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else { return };
        let objects = match &value {
            serde_json::Value::Array(items) => items.iter().all(serde_json::Value::is_object),
            _ => false,
        };
        if !objects {
            let column = line.len() - line.trim_start().len() + 1;
            let p = self.start(text.to_owned(), column, line_offset);
            self.cut_short(p, "a JSON record is an object `{...}`; this line's value is not (nor an array of them)");
        }
    }

    /// GGF and SGF: judges the text a line had outside the games. A game's own text there (its
    /// `(;` lost or damaged: `GM[`, or moves `;B[`) is reported as a record that does not read;
    /// a line that reads as a record of another format is counted, and the file reported at its
    /// end; other text (a GGS dump's header, notes) is skipped.
    fn judge_outside(&mut self) {
        let Some((text, column, offset)) = self.outside.take() else { return };
        let text = text.trim_end();
        if text.is_empty() {
            return;
        }
        if text.contains("GM[") || text.contains(";B[") || text.contains(";W[") {
            let p = self.start(text.to_owned(), column, offset);
            self.cut_short(
                p,
                "a game's text outside any game: its opening `(;` is missing or damaged, so it is not read",
            );
            return;
        }
        let pgn_tag = text.starts_with('[') && text.ends_with(']') && text.contains('"');
        let logbook = format::sniff("", text.as_bytes()) == Format::Logbook;
        let transcript = || {
            text.len() >= 20
                && format::parse(Format::Transcript, text, format::ReadOptions::default())
                    .is_ok_and(|r| r.moves.len() >= 10)
        };
        if pgn_tag || logbook || transcript() {
            self.foreign_lines += 1;
        }
    }

    /// Feeds a line, or a piece of one that starts `column` characters into its line, to the
    /// bracket scanner: records are balanced `open`..`close` spans at the top level, with
    /// `quote` pairs (GGF values, JSON strings) skipped. A `(` opens a record only when a `;`
    /// follows it (after spaces, tabs or line breaks): GGS dumps and SGF files may have text with
    /// brackets before their games.
    fn scan_nested(
        &mut self,
        line: &str,
        line_offset: u64,
        column: usize,
        open: char,
        close: char,
        quote: (char, char),
    ) -> usize {
        let needs_semicolon = open == '(';
        let Nest { mut depth, mut quoted, mut escaped, mut opening } = self.nest;
        let mut from = 0;
        let mut chars = 0;
        for (i, c) in line.char_indices() {
            chars += 1;
            // Inside a record, a line that starts the next one ends it: for JSON a `{` at the
            // start of a line (a JSON record's own lines nest their objects deeper), for GGF and
            // SGF a game at the start of a line (`(;` and a root node with `GM[`, which no
            // variation has). The open record was never closed.
            if depth > 0 && column == 0 && i == 0 && (if open == '{' { c == '{' } else { starts_game(line) }) {
                if let Some(p) = self.pending.take() {
                    self.cut_short(p, "this record is not closed before the next line's record");
                }
                (depth, quoted, escaped) = (0, false, false);
            }
            if depth == 0 {
                if opening {
                    match c {
                        ' ' | '\t' | '\r' | '\n' => continue,
                        ';' => {
                            opening = false;
                            depth = 1;
                            continue;
                        }
                        _ => {
                            opening = false;
                            self.pending = None;
                        }
                    }
                }
                if c != open && !c.is_whitespace() {
                    self.stray = true;
                }
                // (GGF and SGF only: their games' text outside the brackets is judged.)
                if open == '(' && c != open && (!c.is_whitespace() || self.outside.is_some()) {
                    let (text, _, _) =
                        self.outside.get_or_insert_with(|| (String::new(), column + chars, line_offset + i as u64));
                    if text.len() < CHUNK {
                        text.push(c);
                    }
                }
                if c == open {
                    let p = self.start(String::new(), column + chars, line_offset + i as u64);
                    self.pending = Some(p);
                    from = i;
                    if needs_semicolon {
                        opening = true;
                    } else {
                        depth = 1;
                    }
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
        if (depth > 0 || opening)
            && let Some(p) = self.pending.as_mut()
        {
            Self::append(p, &line[from..]);
        }
        self.nest = Nest { depth, quoted, escaped, opening };
        chars
    }
}

/// Whether a line starts a GGF or SGF game: `(;` and a root node that names the game (`GM[`).
fn starts_game(line: &str) -> bool {
    let Some(node) = line.strip_prefix('(').and_then(|rest| rest.trim_start().strip_prefix(';')) else {
        return false;
    };
    node.split(';').next().is_some_and(|root| root.contains("GM["))
}

/// The text of a line (or piece of one): UTF-8; else, in a file found to be in a Japanese
/// legacy encoding (`legacy`), that encoding when the bytes are valid in it (lines of `○ ●`
/// or full-width digits alone say nothing of their encoding); else Japanese in Shift_JIS or
/// EUC-JP when it reads as such ([`japanese`]); else Windows-1252, the Latin-1 of older
/// European files (one character per byte), so that no name is lost to replacement characters.
/// A line that reads as Japanese makes its encoding the file's (`legacy`) when none was found.
/// The flag says the bytes were not UTF-8.
fn decode(bytes: Vec<u8>, legacy: &mut Option<&'static encoding_rs::Encoding>) -> (String, bool) {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, false),
        Err(e) => e.into_bytes(),
    };
    if let Some(text) = legacy
        .and_then(|encoding| encoding.decode_without_bom_handling_and_without_replacement(&bytes))
        // (Shift_JIS reads most Latin-1 lines; EUC-JP, whose bytes go in pairs of 0xA1 and
        // above, few.)
        .filter(|text| !(*legacy == Some(encoding_rs::SHIFT_JIS) && latin_in_disguise(&bytes, text)))
    {
        return (text.into_owned(), true);
    }
    if let Some((text, encoding)) = japanese(&bytes) {
        legacy.get_or_insert(encoding);
        return (text, true);
    }
    (encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes).0.into_owned(), true)
}

/// Whether `bytes`, which decode from a Japanese legacy encoding as `text`, are a European line
/// in disguise (a Latin-1 name in a Shift_JIS file): `text` has a character of Unicode's private
/// use area (Shift_JIS's user-defined lead bytes 0xF0-0xF9 are Latin-1's `ð`-`ù`); or it has a
/// half-width kana against a Latin letter (`ﾉric` for `Éric`) or a kanji between two Latin
/// letters (`Ch穰eau` for `Château`), and read as Windows-1252 every byte beyond ASCII is a
/// letter inside a Latin word (`ｵｾﾛClub` is `µ¾ÛClub` there: Japanese).
fn latin_in_disguise(bytes: &[u8], text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let half_kana = |c: char| ('\u{FF61}'..='\u{FF9F}').contains(&c);
    let kanji = |c: char| ('\u{4E00}'..='\u{9FFF}').contains(&c);
    if chars.iter().any(|c| ('\u{E000}'..='\u{F8FF}').contains(c)) {
        return true;
    }
    let disguised = chars
        .windows(2)
        .any(|w| half_kana(w[0]) && w[1].is_ascii_alphabetic() || w[0].is_ascii_alphabetic() && half_kana(w[1]))
        || chars.windows(3).any(|w| w[0].is_ascii_alphabetic() && kanji(w[1]) && w[2].is_ascii_alphabetic());
    if !disguised {
        return false;
    }
    let latin: Vec<char> = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes).0.chars().collect();
    let letter = |j: Option<usize>| j.and_then(|j| latin.get(j)).is_some_and(|c| c.is_alphabetic());
    (0..latin.len())
        .filter(|&i| !latin[i].is_ascii())
        .all(|i| latin[i].is_alphabetic() && (letter(i.checked_sub(1)) || letter(Some(i + 1))))
}

/// The encoding an SGF file's start declares in its `CA[...]` property, when the start is no
/// UTF-8 (text that is UTF-8 is read as UTF-8 whatever it declares) and the label is one
/// encoding_rs knows; `None` for UTF-8 and an unknown label.
fn sgf_charset(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &head[..head.len().min(BUFFER)];
    match std::str::from_utf8(head) {
        Ok(_) => return None,
        // (A character cut by the end of what was read is no fault.)
        Err(e) if e.error_len().is_none() => return None,
        Err(_) => {}
    }
    let at = head.windows(3).position(|w| w == b"CA[")? + 3;
    let label = &head[at..];
    let label = &label[..label.iter().position(|&b| b == b']')?];
    let encoding = encoding_rs::Encoding::for_label(label.trim_ascii())?;
    (encoding != encoding_rs::UTF_8).then_some(encoding)
}

/// The Japanese legacy encoding the start of a file is in: that of its first line that is no
/// UTF-8 and reads as Japanese ([`japanese`]); `None` for UTF-8 and European text.
pub(crate) fn legacy_encoding(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    head.split(|&b| b == b'\n')
        .filter(|line| std::str::from_utf8(line).is_err())
        .find_map(|line| japanese(line).map(|(_, encoding)| encoding))
}

/// The start of a file as text, for recognising its format: each line decoded as the reader
/// will decode it.
pub(crate) fn head_text(head: &[u8]) -> String {
    if let Ok(text) = std::str::from_utf8(head) {
        return text.to_owned();
    }
    let mut legacy = legacy_encoding(head);
    let lines: Vec<String> = head.split(|&b| b == b'\n').map(|line| decode(line.to_vec(), &mut legacy).0).collect();
    lines.join("\n")
}

/// Text in a Japanese legacy encoding, as Japanese software writes records (SGF's
/// `CA[Shift_JIS]`): bytes valid in Shift_JIS, else in EUC-JP, that read as Japanese: every
/// character beyond ASCII is Japanese (kana, kanji, full-width forms; not the half-width kana
/// that EUC-JP's kanji read as in Shift_JIS), none stands against a
/// Latin letter, and there are two in a row somewhere. `None` for anything else: a European
/// name in Latin-1 or Windows-1252 is often valid in either (`O\x92Brien`, `N\xfa\xf1ez`), but
/// its accented letters turn into single kanji inside Latin words (`O達rien`).
fn japanese(bytes: &[u8]) -> Option<(String, &'static encoding_rs::Encoding)> {
    // (Discs and squares `○ ● □`, box lines `┌─┬` as Japanese records draw them too.)
    let cjk = |c: char| {
        ('\u{3040}'..='\u{30FF}').contains(&c)
            || ('\u{4E00}'..='\u{9FFF}').contains(&c)
            || ('\u{3000}'..='\u{303F}').contains(&c)
            || ('\u{FF00}'..='\u{FF60}').contains(&c)
            || ('\u{2500}'..='\u{257F}').contains(&c)
            || ('\u{25A0}'..='\u{25FF}').contains(&c)
    };
    let against = |a: char, b: char| cjk(a) && b.is_ascii_alphabetic() || a.is_ascii_alphabetic() && cjk(b);
    // A byte Windows-1252 leaves undefined (Shift_JIS's `●` is 0x81 0x9C) says the line is not
    // Latin-1 even without two Japanese characters in a row (`  ○ ●  ` in a grid's rank).
    let no_latin1 = bytes.iter().any(|b| matches!(b, 0x81 | 0x8D | 0x8F | 0x90 | 0x9D));
    let reads = |text: &str| {
        let chars: Vec<char> = text.chars().collect();
        chars.iter().filter(|c| !c.is_ascii()).all(|&c| cjk(c))
            && chars.windows(2).all(|w| !against(w[0], w[1]))
            && (no_latin1 || chars.windows(2).any(|w| cjk(w[0]) && cjk(w[1])))
    };
    [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP].into_iter().find_map(|encoding| {
        let text = encoding.decode_without_bom_handling_and_without_replacement(bytes)?;
        reads(&text).then(|| (text.into_owned(), encoding))
    })
}

/// Where to cut `bytes` so that no UTF-8 character is split: before a last character whose
/// bytes are not all there.
fn char_boundary(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let b = bytes[len - back];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let need = match b {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if need > back { len - back } else { len };
    }
    len
}

/// Whether a line of a board file is a one-line board (a record of its own, whether it parses
/// or not): it starts with 16 or more cell characters (inside a diagram, a line of exactly 16 is
/// a rank of a 16x16 diagram), or is a board string with a typo early in it, or one written
/// rank by rank.
fn is_board_line(line: &str, in_block: bool) -> bool {
    let run = super::board::leading_cells(line.trim_start());
    run >= 16 && !(in_block && run == 16)
        || super::board::is_mistyped_board(line)
        || super::board::ungrouped(line).is_some()
}

/// The move numbers written in a transcript line (`10.`, `10...`, `10.f5`) with the byte
/// offset of each, in order.
fn move_numbers(line: &str) -> impl Iterator<Item = (u32, usize)> + '_ {
    line.split_whitespace().filter_map(move |word| {
        let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let at = word.as_ptr() as usize - line.as_ptr() as usize;
        (digits > 0 && word[digits..].starts_with('.')).then(|| word[..digits].parse().ok().map(|n| (n, at))).flatten()
    })
}

/// The moves (squares, `f5`) written in a piece of a transcript line.
fn moves_in(text: &str) -> usize {
    let b = text.as_bytes();
    (0..b.len())
        .filter(|&i| {
            b[i].is_ascii_alphabetic()
                && b.get(i + 1).is_some_and(u8::is_ascii_digit)
                && (i == 0 || !b[i - 1].is_ascii_alphabetic())
        })
        .count()
}

/// Whether a transcript line is numbered as a game is: two move numbers or more, or one before
/// all its moves (`1. f5 f6` alone, as a live game's logger writes a line per move pair), and at
/// most a pair of moves after the last one (a list of games numbered `1. f5d6c3...`, `2. ...`
/// is not).
fn numbered_game(line: &str) -> bool {
    let numbers: Vec<(u32, usize)> = move_numbers(line).collect();
    let (Some(&(_, first)), Some(&(_, last))) = (numbers.first(), numbers.last()) else { return false };
    (numbers.len() >= 2 || moves_in(&line[..first]) == 0) && moves_in(&line[last..]) <= 2
}

/// Whether `line` goes on with the numbered game `text`: its first move number is the one after
/// `text`'s last (`11.` after `10. c7 d7`), or the same one (`10...` after `10. c7`), with no
/// more moves before it than complete the pair (`c6 10. c8` after `9. f7`).
/// Whether `line` holds moves alone (no header, no name after them) that go on from the
/// headed game `text`: the two together at most [`GAME_TOKENS`] moves.
fn continues_moves(text: &str, line: &str) -> bool {
    let so_far: usize = text.lines().filter(|l| kifu::header_line(l, 0).is_none()).filter_map(line_moves).sum();
    line_moves(line).is_some_and(|more| more > 0 && so_far + more <= GAME_TOKENS)
}

/// The moves on a line that holds moves alone: as the transcript parser reads them, or, for a
/// line with a typo in it (`fl` for f1), its short words when one of them at least is a square
/// and none is a header's `key:` (the typo is then the parser's to report, in its game).
fn line_moves(line: &str) -> Option<usize> {
    if let Ok(record) = super::transcript::parse(line) {
        return record.tags.is_empty().then_some(record.moves.len());
    }
    if line.contains([':', '：']) {
        return None;
    }
    let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let short = words.iter().all(|w| w.chars().count() <= 4);
    let square = words.iter().any(|w| w.parse::<crate::core::Square>().is_ok());
    (short && square).then_some(words.len())
}

/// The most moves a game's lines are joined to: a 10x10 game's 96 placements and some passes.
const GAME_TOKENS: usize = 104;

/// Whether a line of numbered moves goes on with the numbers of `text`. After a single
/// numbered pair (`1. f5 d6`), the line must not play a square again (`2. f5 f6` after it is
/// the next line of a numbered list of openings, not the game going on).
fn continues_numbering(text: &str, line: &str) -> bool {
    let last = move_numbers(text).last();
    let first = move_numbers(line).next();
    match (last, first) {
        (Some((last, at)), Some((first, start))) => {
            let pair = moves_in(&text[at..]) + moves_in(&line[..start]);
            let follows = first > 1 && (first == last + 1 || first == last) && pair <= 2;
            follows && (move_numbers(text).nth(1).is_some() || !squares(line).any(|sq| squares(text).any(|s| s == sq)))
        }
        _ => false,
    }
}

/// The squares (`f5`, lower case) written in a piece of a transcript line, as [`moves_in`]
/// counts them.
fn squares(text: &str) -> impl Iterator<Item = String> + '_ {
    let b = text.as_bytes();
    (0..b.len()).filter_map(move |i| {
        let starts = b[i].is_ascii_alphabetic()
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
            && (i == 0 || !b[i - 1].is_ascii_alphabetic());
        let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        starts.then(|| text[i..i + 1 + digits].to_ascii_lowercase())
    })
}

/// Whether a line of a one-record-per-line format is a comment: it starts with `#` or `%`, and
/// is not a board whose first cells are cut corners or holes (`##OOOOXX###...`, as OBF writes
/// the 8-stars board, also with its ranks apart: `##------## #--------# ...`).
fn is_comment_line(line: &str) -> bool {
    let line = line.trim_start();
    let run = super::board::leading_cells(line);
    let board = run >= 16 && line.chars().take(run).any(|c| c != '#') || super::board::ungrouped(line).is_some();
    matches!(line.chars().next(), Some('#' | '%')) && !board
}

/// Whether a line among diagrams or grids is a comment (see [`is_comment_line`]): a `#` line
/// of four cells or more, with digits and spaces alone besides, is a rank whose first cell is
/// a hole.
pub(crate) fn is_block_comment(line: &str) -> bool {
    let rank = |c: char| super::board::is_cell(c) || super::board::is_cell_separator(c) || c.is_ascii_digit();
    let cells = line.chars().filter(|&c| super::board::is_cell(c) && !c.is_ascii_digit()).count();
    is_comment_line(line) && (line.trim_start().starts_with('%') || cells < 4 || !line.chars().all(rank))
}

/// The text of a PGN line outside comments (`{ }`, which may span lines, `in_comment` saying
/// whether one is open; `;` to the end of the line; `%` escape lines), comments blanked out.
fn pgn_moves(line: &str, in_comment: &mut bool) -> String {
    // (A `#` line, as other files comment, is skipped like an escape line: PGN has no such line.)
    if !*in_comment && line.starts_with(['%', '#']) {
        return String::new();
    }
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        if *in_comment {
            *in_comment = c != '}';
            out.push(' ');
        } else if c == '{' {
            *in_comment = true;
            out.push(' ');
        } else if c == ';' {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

/// The PGN tag names of a line, lower case (`[Event "E"] [Black "A"]` has `event` and
/// `black`); none for a line that does not start with a tag.
fn tag_names(line: &str) -> Vec<String> {
    if !line.trim_start().starts_with('[') {
        return Vec::new();
    }
    line.split('[')
        .skip(1)
        .filter_map(|t| {
            let name = t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next()?;
            (!name.is_empty() && t[name.len()..].trim_start().starts_with('"')).then(|| name.to_ascii_lowercase())
        })
        .collect()
}

/// Whether a PGN tag on `line` (`[Black "C"]`) is one of those in `text` already.
fn repeats_tag(text: &str, line: &str) -> bool {
    let new = tag_names(line);
    !new.is_empty() && text.lines().any(|l| tag_names(l).iter().any(|n| new.contains(n)))
}

/// Whether `text` has the PGN tag `name` (lower case).
fn has_tag(text: &str, name: &str) -> bool {
    text.lines().any(|l| tag_names(l).iter().any(|n| n == name))
}

/// Whether the PGN tags on `line` begin as those in `text` begin (`[Event "E"]` again): the next
/// game's tag section, as a file's games give their tags in one order. A tag repeated further in
/// (`[Black "A"]` then `[Black "B"]`) is the same game's, which reports the conflict.
fn starts_tags_again(text: &str, line: &str) -> bool {
    let first = |l: &str| tag_names(l).into_iter().next();
    first(line).is_some_and(|new| text.lines().find_map(first).is_some_and(|old| old == new))
}

/// Whether a line is a PGN tag (`[Name "value"]`), as no comment line is likely to be.
fn is_tag_line(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('[') else { return false };
    let value = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    rest.starts_with(|c: char| c.is_ascii_alphabetic())
        && value.starts_with(char::is_whitespace)
        && value.trim_start().starts_with('"')
}

/// Whether a file starts as the tables and reports kifu writes do: `Some` with what it is.
/// - rows (csv with a header line of names from `source` on, with `game` or `index` among
///   them; json lines with those fields);
/// - a table of `kifu stats --by ...` in CSV (`name,value`, `length,games`, a duplicates
///   table's `kind,group,hash,source,game`, or lower-case names with `games` and `from_record`
///   among them) or in text (the same names as a heading indented by two spaces);
/// - a `kifu stats` report in text (`Games` or `Standings (...)` over a line of dashes).
fn kifu_table(head: &[u8]) -> Option<&'static str> {
    let text = String::from_utf8_lossy(&head[..head.len().min(4096)]);
    let mut lines = text.trim_start_matches('\u{feff}').lines();
    let line = lines.next()?;
    let first = line.trim();
    let names: Vec<&str> = first.split(',').collect();
    let identifier =
        |n: &&str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if names.len() >= 3
        && names[0] == "source"
        && names.iter().all(identifier)
        && names.iter().any(|n| matches!(*n, "game" | "index"))
    {
        return Some("a table of rows kifu writes (CSV, its first line naming `source` and `game` or `index`)");
    }
    if first.starts_with("{\"source\":") && (first.contains("\"game\":") || first.contains("\"index\":")) {
        return Some(
            "a table of rows kifu writes (JSON Lines, its first object naming `source` and `game` or `index`)",
        );
    }
    let stats_names = |names: &[&str]| {
        matches!(names, ["name", "value"] | ["length", "games"] | ["kind", "group", "hash", "source", "game"])
            || names.len() >= 4 && names.contains(&"games") && names.contains(&"from_record")
    };
    if names.iter().all(identifier) && stats_names(&names) {
        return Some("a table kifu stats writes (CSV, its first line naming its columns)");
    }
    let words: Vec<&str> = first.split_whitespace().collect();
    if line.starts_with("  ") && words.iter().all(identifier) && stats_names(&words) {
        return Some("a table kifu stats writes (text, its first line naming its columns)");
    }
    let underline = lines.next().map(str::trim_end).unwrap_or_default();
    let titled = (first == "Games" || first.starts_with("Standings ("))
        && underline.len() == first.chars().count()
        && underline.bytes().all(|b| b == b'-');
    titled.then_some("a report kifu stats writes (text)")
}

/// A PGN result token: `1-0`, `0-1`, `1/2-1/2`, `*` or disc counts `33-31`.
fn is_result(token: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    token == "*" || token == "1/2-1/2" || token.split_once('-').is_some_and(|(a, b)| digits(a) && digits(b))
}

impl Iterator for Reader {
    type Item = Result<RawRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(r) = self.ready.pop_front() {
                self.gave = true;
                return Some(r);
            }
            if self.done {
                if !std::mem::replace(&mut self.misread_told, true)
                    && let Some(warning) = self.misread()
                {
                    return Some(Err(ReadError::File(warning)));
                }
                // A file with no record and no problem: empty (a glob that matched nothing
                // leaves a script reading an empty stdin), which says so, as a warning.
                if !std::mem::replace(&mut self.gave, true) {
                    let message = "holds no records (an empty file?)".to_owned();
                    return Some(Err(ReadError::File(FileError { file: self.name.clone(), message, damaged: false })));
                }
                return None;
            }
            if self.format == Format::Wthor {
                let item = self.next_binary();
                self.gave |= item.is_some();
                if item.is_some() || !self.done {
                    return item;
                }
                continue;
            }
            let line_offset = self.offset;
            if let Some(Split::Nested { open, close, quote }) = self.split {
                match self.read_chunk() {
                    Err(e) => {
                        self.fail(e);
                        continue;
                    }
                    Ok(None) => self.done = true,
                    Ok(Some((chunk, ends_line))) => {
                        if !self.mid_line {
                            self.line += 1;
                            self.line_chars = 0;
                            if open == '{' && ends_line && self.nest.depth == 0 && !self.nest.quoted {
                                self.not_an_object(&chunk, line_offset);
                            }
                        }
                        let column = self.line_chars;
                        self.line_chars += self.scan_nested(&chunk, line_offset, column, open, close, quote);
                        self.mid_line = !ends_line;
                        if ends_line && open == '(' {
                            self.judge_outside();
                        }
                        continue;
                    }
                }
                // The end: a record still open is cut short; a `(` without `;` was no record.
                if let Some(p) = self.pending.take().filter(|_| !self.nest.opening) {
                    self.cut_short(p, "the file ends inside this record");
                }
                self.judge_outside();
                if self.foreign_lines > 0 {
                    let message = format!(
                        "{} outside the {} games read as records of another format (a logbook, a transcript, \
                         PGN tags) and were not read: split the file, or read it with --from",
                        if self.foreign_lines == 1 {
                            "1 line".to_owned()
                        } else {
                            format!("{} lines", self.foreign_lines)
                        },
                        self.format
                    );
                    self.ready.push_back(Err(ReadError::File(FileError {
                        file: self.name.clone(),
                        message,
                        damaged: true,
                    })));
                }
                if self.index == 0 && self.stray {
                    // Not an empty file: one of another kind, most likely.
                    let message = format!("no {} record in this file, only other text", self.format);
                    // (A wrong file is no empty one: every command exits 1 on it.)
                    self.ready.push_back(Err(ReadError::File(FileError {
                        file: self.name.clone(),
                        message,
                        damaged: true,
                    })));
                }
                continue;
            }
            match self.read_line() {
                Err(e) => {
                    self.fail(e);
                    continue;
                }
                Ok(None) => {
                    self.done = true;
                    if let Some(p) = self.pending.take() {
                        self.emit(p);
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

    /// A stream that gives `good` bytes, then fails every read.
    struct Failing {
        good: io::Cursor<Vec<u8>>,
    }

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.good.read(buf)? {
                0 => Err(io::Error::other("the disk is gone")),
                n => Ok(n),
            }
        }
    }

    #[test]
    fn a_read_error_ends_the_records_of_every_format() {
        let wthor = crate::notation::wthor::Header { games: 2, ..Default::default() }.to_bytes().to_vec();
        for (format, bytes) in
            [(Format::Wthor, wthor), (Format::Transcript, b"f5d6\nf5".to_vec()), (Format::Ggf, b"(;".to_vec())]
        {
            let input = Box::new(BufReader::with_capacity(4, Failing { good: io::Cursor::new(bytes) }));
            let records: Vec<_> = Reader::new("t", input, Some(format)).unwrap().take(10).collect();
            let errors = records.iter().filter(|r| matches!(r, Err(ReadError::Io(_)))).count();
            assert_eq!(errors, 1, "{format}: {records:?}");
            assert!(matches!(records.last(), Some(Err(ReadError::Io(_)))), "{format}: {records:?}");
        }
    }

    fn read(text: &str, format: Option<Format>) -> Vec<Result<RawRecord, ReadError>> {
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        Reader::new("t", input, format).unwrap().collect()
    }

    fn cut(text: &str, format: Format) -> Vec<(usize, usize, String)> {
        read(text, Some(format))
            .into_iter()
            .map(|r| {
                let r = r.unwrap();
                (r.line, r.column, r.text().to_owned())
            })
            .collect()
    }

    /// A numbered game pasted over several lines is one record: a line that goes on with the
    /// numbers of the one before joins it; a line from move 1, a blank line or a plain line does
    /// not.
    #[test]
    fn header_lines_go_with_the_moves_under_them() {
        let text = "Event: Club\nBlack: Ann\n\nWhite: Bob\nf5d6c3\nResult: 16-47\nBlack: Cy  Result: 30-34\n\
                    1. f5 f6\n2. e6 f4\nResult: 30-34\n\nBlack: Ed\nf5d6\n\n# note\nResult: 1-0\n\
                    Result: 0-1\nf5f6\n\nResult: 0-1\nWhite: Di\n";
        let got = cut(text, Format::Transcript);
        let texts: Vec<&str> = got.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Event: Club\nBlack: Ann\nWhite: Bob\nf5d6c3\nResult: 16-47",
                // Right under the moves even when the header stated one (the parser compares).
                "Black: Cy  Result: 30-34\n1. f5 f6\n2. e6 f4\nResult: 30-34",
                // After blank and comment lines when the header stated none.
                "Black: Ed\nf5d6\nResult: 1-0",
                "Result: 0-1\nf5f6",
                // After a blank line, a result heads the next game.
                "Result: 0-1\nWhite: Di",
            ]
        );
        assert_eq!((got[0].0, got[1].0, got[2].0, got[3].0, got[4].0), (1, 7, 12, 17, 20));
        // A result line under a game without header lines is reported, not given to the next.
        let got = read("f5d6c3\nResult: 16-47\nf5f6\n", Some(Format::Transcript));
        assert!(got[0].is_ok() && got[2].is_ok());
        let Err(ReadError::Record(e)) = &got[1] else { panic!("{:?}", got[1]) };
        assert!(e.message.contains("under a game without header lines"), "{}", e.message);
    }

    #[test]
    fn a_numbered_game_over_several_lines_is_one_record() {
        let text = "1. f5 d6 2. c3 d3\n3. c4\n3... f4\n\n1. f5 f6 2. e6\nf4 3. e3\n1. f5 d6\nf5d6\n2. c3\n";
        let got = cut(text, Format::Transcript);
        let texts: Vec<&str> = got.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(
            texts,
            ["1. f5 d6 2. c3 d3\n3. c4\n3... f4", "1. f5 f6 2. e6\nf4 3. e3", "1. f5 d6", "f5d6", "2. c3"]
        );
        assert_eq!((got[0].0, got[1].0, got[2].0), (1, 5, 7));
        assert!(!continues_numbering("1. f5 d6 2. c3 d3", "4. b3"));
        assert!(!continues_numbering("1. f5 d6 2. c3 d3", "d6 3. c4"));
        // A numbered pair per line, as a live game's logger writes them.
        let pairs = cut("1. f5 f6\n2. e6 f4\n3. e3\n", Format::Transcript);
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        // A numbered list of two-move openings is not.
        assert_eq!(cut("1. f5 d6\n2. f5 f6\n3. f5 f4\n", Format::Transcript).len(), 3);
        assert_eq!(cut("1. f5d6\n2. f5f6\n", Format::Transcript).len(), 2);
        // A numbered list of games is no game over several lines.
        let list = "1. f5d6c3d3c4f4f6f3e6e7\n2. f5f6e6f4e3c5c4e6\n3. f5f4e3f6d3\n";
        assert_eq!(cut(list, Format::Transcript).len(), 3);
    }

    /// Other compressions are named, not read as text.
    #[test]
    fn other_compressions_are_named() {
        for (bytes, what) in
            [(&b"BZh91AY&SY"[..], "bzip2"), (b"PK\x03\x04\x14\x00", "zip"), (b"\xFD7zXZ\x00\x00", "xz")]
        {
            let err = buffer(Box::new(io::Cursor::new(bytes.to_vec()))).err().expect("refused");
            assert!(err.to_string().contains(what) && err.to_string().contains("unpack it first"), "{err}");
        }
        assert!(buffer(Box::new(io::Cursor::new(b"f5d6c3\n".to_vec()))).is_ok());
    }

    /// A GGF game whose `(;` was lost is reported, not skipped as text; records of another
    /// format appended to the file are counted and the file reported; a dump's header is text.
    #[test]
    fn games_outside_the_brackets_are_not_lost() {
        let text = "GGS dump\n(;GM[Othello]B[f5];)\n;GM[Othello]B[f5];)\n(GM[Othello]B[d3];)\n\
                    +d3-c3+c4-e3+f4-c5+b4-f5+f6-e6: +10\nf5d6c3d3c4f4f6f3e6e7d7c5\n[Event \"x\"]\n";
        let got = read(text, Some(Format::Ggf));
        let lines: Vec<String> = got
            .iter()
            .map(|r| match r {
                Ok(raw) => format!("ok {}", raw.line),
                Err(ReadError::Record(e)) => match &e.location {
                    Location::Text { line, column, .. } => format!("record {line}:{column}"),
                    Location::Byte(at) => format!("record at byte {at}"),
                },
                Err(ReadError::File(e)) => e.message.clone(),
                Err(ReadError::Io(e)) => e.to_string(),
            })
            .collect();
        assert_eq!(lines[..3], ["ok 2".to_owned(), "record 3:1".into(), "record 4:2".into()]);
        assert!(lines[3].starts_with("3 lines outside the ggf games read as records of another format"), "{lines:?}");
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn long_lines_are_scanned_in_chunks() {
        // 40,000 records on one 2.1 MB line: every one is read, with its column and offset.
        let records: Vec<String> = (0..40_000)
            .map(|k| format!("{{\"tags\":{{\"black\":\"Player {k:05}\",\"n\":\"{k:05}\"}},\"moves\":[]}}"))
            .collect();
        let text = format!("[{}]\n{}\n", records.join(","), records[7]);
        assert!(text.len() > 2 * MAX_RECORD);
        let got = read(&text, Some(Format::Json));
        assert_eq!(got.len(), 40_001);
        let width = records[0].len() + 1;
        for (k, r) in got.iter().take(40_000).enumerate() {
            let r = r.as_ref().unwrap();
            assert_eq!((r.line, r.column, r.offset), (1, 2 + k * width, (1 + k * width) as u64), "record {k}");
            assert_eq!(r.text(), records[k]);
        }
        let last = got[40_000].as_ref().unwrap();
        assert_eq!((last.line, last.column, last.text()), (2, 1, records[7].as_str()));
        // Characters cut by a chunk's end are whole in the records (columns in characters).
        let records: Vec<String> = (0..30_000).map(|k| format!("(;C[\u{e9}t\u{e9} {k}];)")).collect();
        let text = records.concat();
        let got = read(&text, Some(Format::Sgf));
        assert_eq!(got.len(), 30_000);
        let mut column = 1;
        for (r, want) in got.iter().zip(&records) {
            let r = r.as_ref().unwrap();
            assert_eq!((r.text(), r.column), (want.as_str(), column));
            column += want.chars().count();
        }
    }

    #[test]
    fn an_oversized_record_on_a_long_line_is_skipped_and_the_scan_goes_on() {
        let big = format!("(;C[{}];)", "x)".repeat(MAX_RECORD / 2 + 10));
        let text = format!("{big} (;B[d3];)\n(;W[c5];)\n");
        let got = read(&text, Some(Format::Ggf));
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[0], Err(ReadError::Record(e)) if e.message.contains("longer")), "{:?}", got[0]);
        let second = got[1].as_ref().unwrap();
        assert_eq!((second.line, second.column, second.text()), (1, big.len() + 2, "(;B[d3];)"));
        assert_eq!(second.offset, big.len() as u64 + 1);
        let third = got[2].as_ref().unwrap();
        assert_eq!((third.line, third.column, third.text()), (2, 1, "(;W[c5];)"));
    }

    #[test]
    fn a_header_after_a_grid_starts_the_next_grid() {
        let grid = include_str!("../../samples/kifu.txt");
        let text = format!("Yamada (black) - Sato (white)\n{grid}30-34\n黒: 佐藤  白: 山田\n{grid}{grid}");
        let got = cut(&format!("{text}{}\nBlack: Ann\n", grid.lines().next().unwrap()), Format::Kifu);
        let lines: Vec<usize> = got.iter().map(|(line, _, _)| *line).collect();
        // The third grid's file letters start it too; a result line under a grid stays with it,
        // and so do file letters and a header line with no grid after them.
        assert_eq!(lines, [1, 12, 22]);
        assert!(got[2].2.ends_with("h\nBlack: Ann"), "{:?}", got[2].2);
        assert!(got[0].2.ends_with("30-34\n") || got[0].2.ends_with("30-34"), "{:?}", got[0].2);
        assert_eq!(format::sniff("-", text.as_bytes()), Format::Kifu);
    }

    #[test]
    fn a_paren_opens_a_game_only_before_a_semicolon() {
        let text = "GGS dump :-(\n2 games (maybe)\n(;GM[Othello]TY[8];)\n( ;GM[Othello];) x (\n\t;B[d3];)\n";
        let got = cut(text, Format::Ggf);
        assert_eq!(
            got,
            [(3, 1, "(;GM[Othello]TY[8];)".into()), (4, 1, "( ;GM[Othello];)".into()), (4, 20, "(\n\t;B[d3];)".into())]
        );
        // A `(` left open at the end is no record, and no error.
        let got = read("(;B[d3];) :-(\n", Some(Format::Ggf));
        assert_eq!(got.len(), 1);
        assert!(got[0].is_ok());
        // JSON braces open records as before.
        assert_eq!(cut("x {}", Format::Json), [(1, 3, "{}".into())]);
    }

    #[test]
    fn a_pgn_game_of_tags_alone_is_a_record() {
        // A forfeit: tags, a blank line, the next game's tags.
        let text = "[Event \"E\"] [Black \"A\"] [Result \"1-0\"]\n\n[Event \"E\"] [Black \"C\"]\n1. f5 d6 0-1\n";
        assert_eq!(cut(text, Format::Pgn).len(), 2);
        // Without the blank line: tags that begin as its did start the next.
        let text = "[Event \"E\"]\n[Black \"A\"]\n[Event \"E\"]\n[Black \"C\"]\n\n1. f5 d6 *\n";
        let got = cut(text, Format::Pgn);
        assert_eq!((got.len(), got[1].0), (2, 3));
        // A tag given twice further in is one game's (whose conflict is then reported)...
        let text = "[Event \"E\"]\n[Black \"A\"]\n[Black \"C\"]\n\n1. f5 d6 *\n";
        assert_eq!(cut(text, Format::Pgn).len(), 1);
        // ... unless the game has its result: a forfeit, then the next game's tags.
        let text = "[Black \"A\"]\n[Event \"E\"]\n[Result \"1-0\"]\n[Event \"E\"]\n[Black \"C\"]\n\n1. f5 d6 *\n";
        let got = cut(text, Format::Pgn);
        assert_eq!((got.len(), got[1].0), (2, 4));
    }

    #[test]
    fn pgn_records_end_at_a_result() {
        let got = cut("1. f5 d6 2. c3 d3 *\n\n1. f5 f6 2. e6 f4 *\n", Format::Pgn);
        assert_eq!(got, [(1, 1, "1. f5 d6 2. c3 d3 *".into()), (3, 1, "1. f5 f6 2. e6 f4 *".into())]);
        // Comments after a result stay with the game; a `;` comment's text is no result.
        let text =
            "1. f5 d6 33-31\n{after}\n; note 1-0\n% escape\n1. f5 ; d6 1/2-1/2\n2. f4 0-1\n[Event \"x\"]\n1. f5\n";
        let got = cut(text, Format::Pgn);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [1, 5, 7], "{got:?}");
        assert_eq!(got[0].2, "1. f5 d6 33-31\n{after}\n; note 1-0\n% escape");
        // A `[` line inside a comment is not a tag pair, nor a result inside a comment an end.
        let text = "[Event \"a\"]\n\n1. f5 {a comment 1-0\n[not a tag]\n*\n} d6 2. c3 1-0\n{\n[still a comment]}\n\n[Event \"b\"]\n1. f5\n";
        let got = cut(text, Format::Pgn);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1].0, 10);
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let got = read("\u{feff}f5d6\nf5f6\n", Some(Format::Transcript));
        let first = got[0].as_ref().unwrap();
        assert_eq!((first.line, first.column, first.text()), (1, 1, "f5d6"));
        let got = read("\u{feff}(;GM[Othello];)", None);
        let first = got[0].as_ref().unwrap();
        assert_eq!((first.line, first.column, first.text()), (1, 1, "(;GM[Othello];)"));
        let got = read("\u{feff}[Event \"a\"]\n\n1. f5 *\n", None);
        assert_eq!(got.len(), 1);
        assert!(got[0].as_ref().unwrap().text().starts_with("[Event"));
        // Files joined with `copy a+b`: the second file's mark starts a line.
        for (text, format) in [
            ("[Event \"a\"]\r\n\r\n1. f5 *\r\n\u{feff}[Event \"b\"]\r\n\r\n1. f5 *\r\n", Format::Pgn),
            ("f5d6\r\n\u{feff}f5f6\r\n", Format::Transcript),
            ("(;GM[Othello];)\n\u{feff}(;GM[Othello];)\n", Format::Ggf),
        ] {
            let got = read(text, None);
            assert_eq!(got.len(), 2, "{got:?}");
            let second = got[1].as_ref().unwrap();
            assert!(second.text().starts_with(['[', 'f', '(']), "{second:?}");
            assert_eq!(read(text, Some(format)).len(), 2);
        }
    }

    #[test]
    fn dos_line_ends_and_end_marks_are_no_text() {
        // Ctrl-Z after the last game, with or without a line end; old Macs' `\r` lines.
        assert_eq!(cut("f5d6\r\nf5f6\x1a", Format::Transcript), [(1, 1, "f5d6".into()), (2, 1, "f5f6".into())]);
        assert_eq!(cut("f5d6\r\nf5f6\r\n\x1a", Format::Transcript).len(), 2);
        assert_eq!(cut("f5d6\rf5f6\r", Format::Transcript), [(1, 1, "f5d6".into()), (2, 1, "f5f6".into())]);
        let got = cut("[Event \"a\"]\r\n\r\n1. f5 d6 *\x1a", Format::Pgn);
        assert_eq!(got, [(1, 1, "[Event \"a\"]\n\n1. f5 d6 *".into())]);
        // Comments keep one kind of line end.
        let got = cut("(;GM[Othello]C[one\r\ntwo\rthree];)\r\n", Format::Ggf);
        assert_eq!(got, [(1, 1, "(;GM[Othello]C[one\ntwo\nthree];)".into())]);
    }

    #[test]
    fn long_lines_are_shown_around_the_caret() {
        let line = format!("{}zz{}", "a".repeat(300), "b".repeat(300));
        let raw = RawRecord { index: 0, line: 1, column: 1, offset: 0, body: Body::Text(line) };
        let text = raw.error("t", Span { start: 300, end: 302 }, "bad").to_string();
        let lines: Vec<&str> = text.lines().collect();
        let (shown, caret) = (lines[2], lines[3]);
        // (In characters: the cuts' `…` is one.)
        let at = caret.chars().position(|c| c == '^').unwrap();
        let from = |line: &str, at: usize| line.chars().skip(at).collect::<String>();
        assert_eq!(&from(shown, at)[..2], "zz", "{text}");
        assert_eq!(from(caret, at), "^^");
        assert!(shown.starts_with("1 | …a") && shown.ends_with("b…"), "{shown}");
        assert_eq!(shown.chars().count(), "1 | ".len() + 1 + 60 + 100 + 1);
        // Near either end of the line: no cut on that side.
        let text = raw.error("t", Span { start: 598, end: 602 }, "bad").to_string();
        let lines: Vec<&str> = text.lines().collect();
        let at = lines[3].chars().position(|c| c == '^').unwrap();
        assert_eq!(from(lines[2], at), "bbbb");
        assert_eq!(from(lines[3], at), "^^^^");
        let text = raw.error("t", Span { start: 0, end: 400 }, "bad").to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].starts_with("1 | aaa") && lines[2].ends_with('…'));
        assert_eq!(lines[3], format!("  | {}", "^".repeat(100)));
    }

    #[test]
    fn lines_skip_blanks_and_comments() {
        let got = cut("f5d6\n\n# note\nf5f6\r\n", Format::Transcript);
        assert_eq!(got, [(1, 1, "f5d6".into()), (4, 1, "f5f6".into())]);
        // A board whose first cells are cut corners is no comment; a rule of `#` is.
        let board = "##OOOOXX###OOOOXXXX#OXOOXOXXXXXXOOXOXXXXXOXOOOXXXXXXOOOOXXXXXXXOOOOOXXOOOOOO-O-X#OOOO----###OO----## X; I8:+38;";
        let got = cut(&format!("{}\n{board}\n% note\n", "#".repeat(40)), Format::Obf);
        assert_eq!(got, [(2, 1, board.into())]);
    }

    #[test]
    fn an_unclosed_json_record_loses_only_itself() {
        let got = read("{\"moves\":[{\"move\":\"f5\"}\n{\"moves\":[]}\n{\n  \"moves\": []\n}\n", Some(Format::Json));
        assert!(matches!(&got[0], Err(ReadError::Record(e)) if e.message.contains("not closed")), "{got:?}");
        // The next record, and a record over several lines, are read.
        assert!(matches!(&got[1..], [Ok(_), Ok(_)]), "{got:?}");
    }

    #[test]
    fn an_unclosed_game_loses_only_itself() {
        // GGF without its `;)`, SGF without its `)`, and one with a value left open.
        for (text, format) in [
            ("(;GM[Othello]TY[8]B[f5]\n(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5];)\n", Format::Ggf),
            ("(;GM[2]SZ[8];B[fe];W[fd]\n(;FF[4]GM[2];B[fe])\n", Format::Sgf),
            ("(;GM[2]C[open;B[fe]\n(;GM[2];B[fe])\n", Format::Sgf),
        ] {
            let got = read(text, Some(format));
            assert!(matches!(&got[0], Err(ReadError::Record(e)) if e.message.contains("not closed")), "{got:?}");
            assert!(got[1..].iter().all(Result::is_ok) && got.len() == text.lines().count(), "{got:?}");
        }
        // A variation on a line of its own stays in its game.
        let got = cut("(;GM[2];B[fe]\n(;W[fd])\n(;W[dd]))\n", Format::Sgf);
        assert_eq!(got.len(), 1, "{got:?}");
    }

    #[test]
    fn an_encoding_given_or_declared_by_sgf_is_read() {
        let read = |bytes: Vec<u8>, format: Option<Format>, encoding| {
            let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes));
            let got: Vec<_> = Reader::with_encoding("t", input, format, encoding).unwrap().collect();
            // (The warning of lines misread is the last item, when there is one.)
            got.into_iter()
                .filter(|r| !matches!(r, Err(ReadError::File(e)) if !e.damaged))
                .map(|r| r.unwrap().text().to_owned())
                .collect::<Vec<_>>()
        };
        // Chinese in GBK or Big5 would read as Japanese (EUC-JP) or Windows-1252 unless the
        // encoding is given; SGF says its own in `CA`, and is then read in it.
        for (encoding, name) in
            [(encoding_rs::GBK, "张三丰"), (encoding_rs::BIG5, "張三豐"), (encoding_rs::EUC_KR, "김철수")]
        {
            let header = format!("黑方：{name}\nf5d6c3d3c4\n");
            let (bytes, _, unmappable) = encoding.encode(&header);
            if unmappable {
                // (EUC-KR has no 黑: the name alone then.)
                let header = format!("Black: {name}\nf5d6c3d3c4\n");
                let (bytes, _, _) = encoding.encode(&header);
                let text = read(bytes.to_vec(), None, Some(encoding));
                assert!(text[0].contains(name), "{}: {text:?}", encoding.name());
            } else {
                let text = read(bytes.to_vec(), None, Some(encoding));
                assert!(text[0].contains(name), "{}: {text:?}", encoding.name());
                let guessed = read(bytes.to_vec(), None, None);
                assert!(!guessed[0].contains(name), "{}: {guessed:?}", encoding.name());
            }
            for format in [Some(Format::Sgf), None] {
                let sgf = format!("(;GM[2]CA[{}]PB[{name}];B[fe])\n(;GM[2]PW[{name}];B[fe])\n", encoding.name());
                let (bytes, _, _) = encoding.encode(&sgf);
                let text = read(bytes.to_vec(), format, None);
                assert!(text.iter().all(|t| t.contains(name)), "{}: {text:?}", encoding.name());
            }
        }
        // UTF-8 text is read as UTF-8 whatever its `CA` says; an unknown label is no encoding.
        assert!(read("(;GM[2]CA[ISO-8859-1]PB[Müller])".into(), None, None)[0].contains("Müller"));
        assert!(read(b"(;GM[2]CA[klingon]PB[M\xfcller])".to_vec(), None, None)[0].contains("Müller"));
        // Read without the encoding, such lines are warned of (at the end of the file, once).
        let (bytes, _, _) = encoding_rs::GBK.encode("黑方：张三\n白方：李四\nf5d6\n");
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
        let got: Vec<_> = Reader::new("t", input, None).unwrap().collect();
        let Some(Err(ReadError::File(warning))) = got.last() else { panic!("{got:?}") };
        assert!(!warning.damaged && warning.message.starts_with("2 lines are not UTF-8"), "{warning}");
        assert!(warning.message.contains("--encoding"), "{warning}");
        // Chinese read as EUC-JP's kanji (no kana, no `黒`) is warned of too; Japanese is not.
        for (text, warned) in
            [("(;GM[Othello]PC[北京]PB[张三]PW[李四];)\n", true), ("黒：山田　白：佐藤\nf5d6\n", false)]
        {
            let (bytes, _, _) = if warned { encoding_rs::GBK.encode(text) } else { encoding_rs::EUC_JP.encode(text) };
            let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
            let got: Vec<_> = Reader::new("t", input, None).unwrap().collect();
            let warning = got.iter().find_map(|r| match r {
                Err(ReadError::File(e)) => Some(e.message.clone()),
                _ => None,
            });
            assert_eq!(warning.is_some_and(|w| w.contains("read as Japanese in EUC-JP")), warned, "{text}: {got:?}");
        }
        // European names one accented letter at a time are no such line.
        let got: Vec<_> =
            Reader::new("t", Box::new(io::Cursor::new(b"Black: M\xfcller\nf5d6\n".to_vec())), None).unwrap().collect();
        assert!(got.iter().all(Result::is_ok), "{got:?}");
        // An encoding given wins over a byte-order mark's guess, and bad bytes become U+FFFD.
        let text = read(b"Black: M\xfcller\nf5d6\n".to_vec(), None, Some(encoding_rs::UTF_8));
        assert!(text[0].contains("M\u{FFFD}ller"), "{text:?}");
    }

    #[test]
    fn japanese_in_shift_jis_or_euc_jp_is_read() {
        let read_bytes = |bytes: &[u8]| {
            let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
            let got: Vec<_> = Reader::new("t", input, Some(Format::Sgf)).unwrap().collect();
            got[0].as_ref().unwrap().text().to_owned()
        };
        for name in ["山田太郎", "さとう", "佐藤 花子", "黒の勝ち"] {
            for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
                let sgf = format!("(;GM[2]CA[{}]PB[{name}];B[fe])\n", encoding.name());
                let (bytes, _, _) = encoding.encode(&sgf);
                let text = read_bytes(&bytes);
                assert!(text.contains(name), "{} {name}: {text}", encoding.name());
            }
        }
        // A kifu grid saved in Shift_JIS or EUC-JP is recognised without `--from`, and its lines of
        // discs or full-width digits alone (no kana or kanji to tell their encoding) read in the
        // file's encoding, wherever its Japanese line stands.
        let grid = "   ａ ｂ ｃ ｄ ｅ ｆ ｇ ｈ\n１ ・ ・ ・ ・ ・ ・ ・ ・\n２ ・ ・ ・ ・ ・ ・ ・ ・\n\
                    ３ ・ ・ ・ ３ ・ ・ ・ ・\n４ ・ ・ ２ ○ ● ・ ・ ・\n５ ・ ・ ・ ● ○ １ ・ ・\n\
                    ６ ・ ・ ・ ・ ・ ・ ・ ・\n７ ・ ・ ・ ・ ・ ・ ・ ・\n８ ・ ・ ・ ・ ・ ・ ・ ・\n";
        for text in [format!("黒：山田　白：佐藤\n{grid}"), format!("{grid}結果 未了\n")] {
            for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
                let (bytes, _, _) = encoding.encode(&text);
                assert_eq!(format::sniff("-", &bytes), Format::Kifu, "{}", encoding.name());
                let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
                let got: Vec<_> = Reader::new("t", input, None).unwrap().collect();
                let record = super::super::kifu::parse(got[0].as_ref().unwrap().text()).unwrap();
                assert_eq!(record.moves.len(), 3, "{}", encoding.name());
            }
        }
        // In Shift_JIS, `○ ●` alone show it: their lead byte 0x81 is no Windows-1252 character.
        let grid = "  a b c d\n1 . . . .\n2 . ○ ● 1\n3 . ● ○ .\n4 . . . .\n";
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(grid);
        assert_eq!(format::sniff("-", &bytes), Format::Kifu);
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes.to_vec()));
        let got: Vec<_> = Reader::new("t", input, None).unwrap().collect();
        assert_eq!(got[0].as_ref().unwrap().text(), grid.trim_end());
        // Latin-1 names stay Latin-1 (some are valid Shift_JIS), and Windows-1252's letters are read.
        for (bytes, name) in [
            (&b"J\xe9r\xf4me"[..], "J\u{e9}r\u{f4}me"),
            (b"Fr\xe9d\xe9ric", "Fr\u{e9}d\u{e9}ric"),
            (b"J\xd6RG", "J\u{d6}RG"),
            (b"J\xe4\xe4skel\xe4inen", "J\u{e4}\u{e4}skel\u{e4}inen"),
            (b"\x8aediv\xfd", "\u{160}ediv\u{fd}"),
            (b"\xcd\xf1igo N\xfa\xf1ez", "\u{cd}\u{f1}igo N\u{fa}\u{f1}ez"),
            (b"O\x92Brien", "O\u{2019}Brien"),
            (b"Caf\xe9\x85Bar", "Caf\u{e9}\u{2026}Bar"),
            (b"\x8aimon \x8akoda", "\u{160}imon \u{160}koda"),
            (b"\x8cuf", "\u{152}uf"),
        ] {
            let text = read_bytes(&[b"(;GM[2]PB[", bytes, b"];B[fe])\n"].concat());
            assert!(text.contains(name), "{name}: {text}");
        }
    }

    /// A file that mixes Shift_JIS lines and Latin-1 ones (two federations' files joined): the
    /// Latin-1 names are not read as Shift_JIS, which many of them are valid in.
    #[test]
    fn latin1_lines_in_a_shift_jis_file_stay_latin1() {
        let japanese =
            encoding_rs::SHIFT_JIS.encode("[Black \"山田\"]\n[White \"佐藤\"]\n\n1. f5 *\n\n").0.into_owned();
        for (bytes, name) in [
            (&b"Se\xf1or \xc9ric"[..], "Se\u{f1}or \u{c9}ric"),
            (b"Bj\xf8rn \xd8stergaard", "Bj\u{f8}rn \u{d8}stergaard"),
            (b"Ch\xe2teau \xc9lan", "Ch\u{e2}teau \u{c9}lan"),
        ] {
            let latin1 = [&b"[Black \""[..], bytes, b"\"]\n\n1. f5 *\n"].concat();
            let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new([japanese.clone(), latin1].concat()));
            let got: Vec<_> = Reader::new("t", input, Some(Format::Pgn)).unwrap().collect();
            assert!(got[0].as_ref().unwrap().text().contains("山田"), "{got:?}");
            assert!(got[1].as_ref().unwrap().text().contains(name), "{name}: {got:?}");
        }
        // Half-width kana (an old Japanese file's names), even against Latin letters, and kanji
        // between them stay Japanese.
        for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
            let japanese = encoding.encode("[Black \"山田\"]\n\n1. f5 *\n\n").0.into_owned();
            for name in ["ﾀﾅｶ", "ｵｾﾛClub", "NHK杯A級"] {
                let kana = encoding.encode(&format!("[Black \"{name}\"]\n\n1. f5 *\n")).0.into_owned();
                let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new([japanese.clone(), kana].concat()));
                let got: Vec<_> = Reader::new("t", input, Some(Format::Pgn)).unwrap().collect();
                assert!(got[1].as_ref().unwrap().text().contains(name), "{}: {got:?}", encoding.name());
            }
        }
    }

    #[test]
    fn latin1_is_read() {
        let input: Box<dyn BufRead + Send> =
            Box::new(io::Cursor::new(b"[Black \"J\xe9r\xf4me\"]\n\n1. f5 *\n".to_vec()));
        let got: Vec<_> = Reader::new("t", input, Some(Format::Pgn)).unwrap().collect();
        assert!(got[0].as_ref().unwrap().text().contains("J\u{e9}r\u{f4}me"), "{got:?}");
        // UTF-8 stays UTF-8.
        assert!(
            read("[Black \"J\u{e9}r\u{f4}me\"]\n\n1. f5 *\n", Some(Format::Pgn))[0]
                .as_ref()
                .unwrap()
                .text()
                .contains("J\u{e9}r\u{f4}me")
        );
    }

    #[test]
    fn utf16_is_read_as_its_text() {
        let text = "[Black \"J\u{e9}r\u{f4}me\"]\r\n\r\n1. f5 d6 *\r\n";
        let little: Vec<u8> =
            b"\xFF\xFE".iter().copied().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let big: Vec<u8> = b"\xFE\xFF".iter().copied().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
        // Without the mark: told by the zero bytes.
        let (bare_little, bare_big) = (little[2..].to_vec(), big[2..].to_vec());
        for bytes in [little, big, bare_little, bare_big] {
            let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes));
            let reader = Reader::new("t", input, None).unwrap();
            assert_eq!(reader.format(), Format::Pgn);
            let got: Vec<_> = reader.collect();
            assert_eq!(got.len(), 1, "{got:?}");
            let record = got[0].as_ref().unwrap();
            assert!(record.text().starts_with("[Black \"J\u{e9}r\u{f4}me\"]"), "{record:?}");
            assert_eq!((record.line, record.column), (1, 1));
        }
    }

    /// A kifu grid in UTF-16 without its mark is told from its whole start, decoded.
    #[test]
    fn a_utf16_grid_without_its_mark_is_a_grid() {
        let grid = "A (black) - B (white)\r\n    a b c d\r\n 1 . . . .\r\n 2 . O X 1\r\n 3 . X O .\r\n 4 . . . .\r\n";
        let bytes: Vec<u8> = grid.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let reader = Reader::new("t", Box::new(io::Cursor::new(bytes)), None).unwrap();
        assert_eq!(reader.format(), Format::Kifu);
        assert_eq!(reader.count(), 1);
        // A Japanese header over the moves: far fewer zero bytes, all on one side.
        let text = "大会: 第12回 例会\r\n日付: 2024年3月5日\r\n黒: 山田 太郎\r\n白: 佐藤 花子\r\n結果: 白の4石勝ち\r\nf5d6c3d3c4\r\n";
        for big_endian in [false, true] {
            let bytes: Vec<u8> =
                text.encode_utf16().flat_map(|u| if big_endian { u.to_be_bytes() } else { u.to_le_bytes() }).collect();
            let reader = Reader::new("t", Box::new(io::Cursor::new(bytes)), None).unwrap();
            let got: Vec<_> = reader.collect();
            assert_eq!(got.len(), 1, "{got:?}");
            assert!(got[0].as_ref().unwrap().text().starts_with("大会: 第12回"), "{got:?}");
        }
    }

    #[test]
    fn json_values_that_are_not_objects_are_reported() {
        let text = "{\"moves\":[]}\n[1,2,3]\n\"hello\"\n42\nnull\n[]\n[{\"moves\":[]}]\n[\n{\"moves\":[]},\n]\nnote\n";
        let got = read(text, Some(Format::Json));
        let lines: Vec<_> = got
            .iter()
            .map(|r| match r {
                Ok(r) => (r.line, true),
                Err(ReadError::Record(e)) => match e.location {
                    Location::Text { line, .. } => (line, false),
                    Location::Byte(_) => panic!("text"),
                },
                Err(e) => panic!("{e:?}"),
            })
            .collect();
        // The four values that are not objects, each at its line; the records around them read.
        assert_eq!(lines, [(1, true), (2, false), (3, false), (4, false), (5, false), (7, true), (9, true)]);
    }

    #[test]
    fn a_file_of_other_text_is_a_file_problem() {
        for format in [Format::Ggf, Format::Sgf, Format::Json] {
            let got = read("<html>(not a game)</html>\n", Some(format));
            assert!(matches!(&got[..], [Err(ReadError::File(e))] if e.message.contains("only other text")), "{got:?}");
            // Text beside records is not; a blank file is a warning, no record made up.
            let blank = read(" \n\n", Some(format));
            assert!(
                matches!(&blank[..], [Err(ReadError::File(e))] if !e.damaged && e.message.contains("holds no records")),
                "{blank:?}"
            );
        }
        assert!(read("GGS dump (;GM[Othello];) end\n", Some(Format::Ggf)).iter().all(Result::is_ok));
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
    fn an_unclosed_pgn_comment_ends_at_the_next_tags() {
        let text = "[Event \"a\"]\n\n1. f5 {open\n2. d6\n\n[Event \"b\"]\n\n1. f5 d6 *\n[Event \"c\"]\n1. f5 {a\n[%eval 2] } *\n";
        let got = read(text, Some(Format::Pgn));
        assert!(matches!(&got[0], Err(ReadError::Record(e)) if e.message.contains("not closed")), "{got:?}");
        // The error points at the `{` that was never closed.
        let at = |r: &Result<RawRecord, ReadError>| match r {
            Err(ReadError::Record(RecordError { location: Location::Text { line, column, .. }, .. })) => {
                (*line, *column)
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(at(&got[0]), (3, 7));
        // The next games are read, and a comment line that is no tag stays in its comment.
        let rest: Vec<_> = got[1..].iter().map(|r| r.as_ref().map(|r| r.line).unwrap()).collect();
        assert_eq!(rest, [6, 9]);
    }

    #[test]
    fn boards_are_lines_or_blocks() {
        let s = "---------------------------OX------XO--------------------------- X";
        let text = format!("{s}\n{s}\n\n....\n.OX.\n.XO.\n....\n\n{s}\n");
        let got = cut(&text, Format::Board);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [1, 2, 4, 9]);
        // A one-line board that does not parse is still a record of its own.
        let bad = [&s[1..], &s.replace(" X", " Q"), &s.replace('-', "2")];
        let text = format!("{}\n{s}\n{}\n{s}\n{}\n{s}\n....\n.OX.\n.XO.\n....\n{s}\n", bad[0], bad[1], bad[2]);
        let got = cut(&text, Format::Board);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7, 11]);
        assert_eq!(got[6].2, "....\n.OX.\n.XO.\n....");
        // Text lines over a one-line board are its caption, in its record.
        let text = format!("Exercise 3\nblack to play\n{s}\n{s}\n\nExercise 4\n{s}\n");
        let got = cut(&text, Format::Board);
        let lines: Vec<usize> = got.iter().map(|g| g.0).collect();
        assert_eq!(lines, [1, 4, 6]);
        assert_eq!(got[0].2, format!("Exercise 3\nblack to play\n{s}"));
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
    fn the_caret_stands_under_wide_characters() {
        let raw = RawRecord { index: 0, line: 1, column: 1, offset: 0, body: Body::Text("Ｆ５ｄ６Ｃ９".into()) };
        let text = raw.error("t", Span { start: 12, end: 18 }, "c9").to_string();
        assert!(text.ends_with("1 | Ｆ５ｄ６Ｃ９\n  |         ^^^^"), "{text}");
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
