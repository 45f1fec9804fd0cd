//! Reading records for a subcommand: the input options every reading command shares, and a
//! loop that handles records in parallel batches and hands the results back in input order.

use std::collections::HashMap;
use std::io::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use rayon::prelude::*;

use super::output::Output;
use super::progress::Progress;
use crate::core::{RowNumbering, Rules};
use crate::notation::board::Digits;
use crate::notation::format::{self, Format, ReadOptions};
use crate::notation::reader::{self, Body, FileError, RawRecord, ReadError, Reader, RecordError};
use crate::notation::{Record, Span, SyntaxError, wthor};

/// Input options shared by the commands that read records.
#[derive(clap::Args, Debug, Clone)]
pub struct InputArgs {
    /// Input files or folders (a folder's record files: .pgn, .ggf, .wtb, .txt, ... under it);
    /// `-` is stdin (the default). Gzip is read whatever the name.
    pub inputs: Vec<PathBuf>,
    /// The input format (default: recognised from each file's name and first bytes): transcript,
    /// kifu, board, obf, ggf, wthor, sgf, pgn, oq, playok, logbook, json.
    #[arg(long, value_parser = FormatParser::ANY)]
    pub from: Option<Format>,
    /// The rules for every record (default: the record's own, else standard Othello on the
    /// record's board size).
    #[arg(long, short, value_parser = super::parse_rules)]
    pub rules: Option<Rules>,
    /// The text encoding of the inputs, by its usual label: gbk, gb18030, big5, euc-kr,
    /// shift_jis, euc-jp, windows-1252, utf-8, utf-16le, ... (default: UTF-8, UTF-16 by its mark
    /// or zero bytes, an SGF file's own `CA`, Japanese Shift_JIS or EUC-JP when it reads as
    /// such, else Windows-1252). WTHOR files are binary and read as ever.
    #[arg(long, value_name = "LABEL", value_parser = parse_encoding)]
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// What digits mean on boards: `01` (0 black, 1 white) or `012` (0 empty, 1 black, 2 white).
    #[arg(long, value_enum, default_value_t = DigitsArg::D01)]
    pub digits: DigitsArg,
    /// WTHOR player names (default: STEM.JOU, else WTHOR.JOU, beside the .wtb file).
    #[arg(long, value_name = "JOU")]
    pub players: Option<PathBuf>,
    /// WTHOR tournament names (default: STEM.TRN, else WTHOR.TRN, beside the .wtb file).
    #[arg(long, value_name = "TRN")]
    pub tournaments: Option<PathBuf>,
    /// Whether the command shows and selects no names, so that WTHOR names files missing
    /// beside an input are not warned of.
    #[arg(skip)]
    pub names_unused: bool,
    /// How many records the command wants at most, counted over all the inputs (`--games`'s
    /// last number): reading stops after them.
    #[arg(skip)]
    pub records_wanted: Option<u64>,
}

/// An `--encoding` label: any of the WHATWG Encoding Standard's (`gbk`, `big5`, `sjis`,
/// `latin1`, ...).
fn parse_encoding(label: &str) -> Result<&'static encoding_rs::Encoding, String> {
    // Windows' code page numbers, as Windows tools name these encodings.
    let label = match label.trim().to_ascii_lowercase().as_str() {
        "cp936" | "ms936" => "gbk".to_owned(),
        "cp949" | "uhc" => "euc-kr".to_owned(),
        "cp950" => "big5".to_owned(),
        "cp932" | "ms932" => "shift_jis".to_owned(),
        other => other.to_owned(),
    };
    // (The Encoding Standard's `replacement` turns a whole file into one U+FFFD.)
    let found = encoding_rs::Encoding::for_label(label.as_bytes()).filter(|e| *e != encoding_rs::REPLACEMENT);
    found.ok_or_else(|| {
        format!(
            "no text encoding is called `{label}`; try gbk, gb18030, big5, euc-kr, shift_jis, euc-jp, \
             windows-1252, iso-8859-2, koi8-r, utf-8 or utf-16le"
        )
    })
}

/// The file name endings a folder's record files have (each also with `.gz`).
const RECORD_EXTENSIONS: [&str; 11] = ["txt", "pgn", "ggf", "sgf", "wtb", "obf", "gam", "json", "jsonl", "kifu", "oq"];

impl InputArgs {
    /// Puts each folder among the inputs in its place as its record files: every file under it
    /// (its folders too) whose name ends in a record format's extension (`.pgn`, `.ggf`, `.wtb`,
    /// `.txt`, ..., also with `.gz`), in path order, hidden ones left out. A folder with none
    /// is an error.
    pub fn expand_folders(&mut self) -> anyhow::Result<()> {
        if !self.inputs.iter().any(|i| !is_stdin(i) && i.is_dir()) {
            return Ok(());
        }
        let mut inputs = Vec::with_capacity(self.inputs.len());
        for input in &self.inputs {
            if is_stdin(input) || !input.is_dir() {
                inputs.push(input.clone());
                continue;
            }
            let shown = input.display();
            let mut files = Vec::new();
            let mut seen = std::collections::HashSet::new();
            record_files(input, &mut files, &mut seen).with_context(|| format!("cannot read the folder {shown}"))?;
            if files.is_empty() {
                anyhow::bail!(
                    "the folder {shown} holds no record files (names ending in .{}, or those with .gz)",
                    RECORD_EXTENSIONS.join(", .")
                );
            }
            files.sort();
            inputs.extend(files);
        }
        self.inputs = inputs;
        Ok(())
    }

    /// Checks the inputs before any output is written: every file is there and readable (see
    /// [`check_readable`]), and none is the `-o` file (see [`refuse_input_as_output`]).
    pub fn check(&self, output: Option<&Path>) -> anyhow::Result<()> {
        check_readable(&self.inputs)?;
        refuse_input_as_output(self.inputs.iter().filter(|i| !is_stdin(i)).map(PathBuf::as_path), output)
    }

    /// [`InputArgs::check`] for an output written whole once every input is read (a WTHOR
    /// file): `-o` may be an input, which is how games are added to it.
    pub fn check_readable(&self) -> anyhow::Result<()> {
        check_readable(&self.inputs)
    }

    /// Whether stdin is among the inputs (it is when none is given).
    #[must_use]
    pub fn reads_stdin(&self) -> bool {
        self.inputs.is_empty() || self.inputs.iter().any(|i| is_stdin(i))
    }
}

/// Whether an input path is `-`, stdin.
fn is_stdin(input: &Path) -> bool {
    input.as_os_str() == "-"
}

/// The record files under `dir` (see [`InputArgs::expand_folders`]), added to `files`; a folder
/// met again (through a link) is not read twice.
fn record_files(
    dir: &Path,
    files: &mut Vec<PathBuf>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> std::io::Result<()> {
    if !seen.insert(dir.canonicalize()?) {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        if entry.file_type()?.is_dir() || (entry.file_type()?.is_symlink() && path.is_dir()) {
            record_files(&path, files, seen)?;
            continue;
        }
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        if name.rsplit_once('.').is_some_and(|(_, ext)| RECORD_EXTENSIONS.contains(&ext)) {
            files.push(path);
        }
    }
    Ok(())
}

/// Every input file is there, readable and no archive (stdin, `-`, aside): such a file stops
/// the run before its work begins (and before a CSV header is written), not after the files
/// before it.
fn check_readable(inputs: &[PathBuf]) -> anyhow::Result<()> {
    for input in inputs.iter().filter(|i| !is_stdin(i)) {
        let shown = input.display();
        let mut file = std::fs::File::open(input).with_context(|| format!("cannot read {shown}"))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            anyhow::bail!("cannot read {shown}: it is a directory");
        }
        let mut head = [0u8; 8];
        let read = std::io::Read::read(&mut file, &mut head).with_context(|| format!("cannot read {shown}"))?;
        if let Some(what) = reader::packed(&head[..read]) {
            anyhow::bail!("cannot read {shown}: it is {what}: kifu reads plain files and gzip; unpack it first");
        }
    }
    Ok(())
}

/// Refuses an `-o` file that is also one of `inputs`: written under a temporary name and moved
/// into place at the end, it would replace the file being read, records that did not read
/// included.
pub fn refuse_input_as_output<'a>(
    mut inputs: impl Iterator<Item = &'a Path>,
    output: Option<&Path>,
) -> anyhow::Result<()> {
    let Some(given) = output else { return Ok(()) };
    if let Some(input) = inputs.find(|i| same_file(i, given)) {
        let which = if input == given { String::new() } else { format!(" ({}, by another name)", input.display()) };
        anyhow::bail!(
            "-o {} is also an input{which}: it would replace the records being read; write elsewhere, then move it",
            given.display()
        );
    }
    Ok(())
}

/// Whether `input` is the file at `output` by any path: a link to it, or another name of it
/// (a hard link); an `output` that does not exist yet is no input.
pub fn same_file(input: &Path, output: &Path) -> bool {
    let Some(out) = output.canonicalize().ok() else { return false };
    input.canonicalize().is_ok_and(|i| i == out) || {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let id = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
            id(input).is_some_and(|i| Some(i) == id(output))
        }
        #[cfg(not(unix))]
        false
    }
}

/// `--digits` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum DigitsArg {
    /// 0 black, 1 white.
    #[value(name = "01")]
    D01,
    /// 0 empty, 1 black, 2 white.
    #[value(name = "012")]
    D012,
}

/// Parses a format name for clap (its aliases too: `wtb`, `gam`, ...), offering the names to
/// shell completion; [`FormatParser::TEXT`] only the text formats.
#[derive(Clone, Copy)]
pub struct FormatParser {
    text_only: bool,
}

impl FormatParser {
    /// Every format.
    pub const ANY: FormatParser = FormatParser { text_only: false };
    /// The text formats (not WTHOR).
    pub const TEXT: FormatParser = FormatParser { text_only: true };

    fn offered(self) -> impl Iterator<Item = Format> {
        Format::ALL.into_iter().filter(move |f| !(self.text_only && f.is_binary()))
    }
}

impl clap::builder::TypedValueParser for FormatParser {
    type Value = Format;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Format, clap::Error> {
        let parse: fn(&str) -> Result<Format, format::UnknownFormat> = str::parse;
        let format = parse.parse_ref(cmd, arg, value)?;
        if self.offered().any(|f| f == format) {
            return Ok(format);
        }
        let names: Vec<&str> = self.offered().map(Format::name).collect();
        let message = format!(
            "`{}` is a binary format; this command writes the text formats ({}): convert its output with `kifu \
             convert --to {}`\n",
            format.name(),
            names.join(", "),
            format.name()
        );
        Err(clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(self.offered().map(|f| clap::builder::PossibleValue::new(f.name()))))
    }
}

/// Problems with whole inputs met while reading (a WTHOR header's wrong game count, damaged
/// gzip data after a record), in input order; the records read were all handed on. The command
/// reports them.
#[must_use = "the problems of the inputs must be reported"]
#[derive(Debug, Default)]
pub struct FileProblems(pub Vec<FileError>);

impl FileProblems {
    /// Prints each on stderr as a warning of `command` (`kifu stats`); returns how many are
    /// damaged files (records may be missing: the command exits 1).
    #[must_use = "a damaged input makes the run's exit status 1"]
    pub fn warn(self, command: &str) -> u64 {
        let damaged = self.0.iter().filter(|p| p.damaged).count() as u64;
        for problem in self.0 {
            stderr!("{command}: warning: {problem}");
        }
        damaged
    }
}

/// Records handled together: read in order, handled in parallel, handed back in order.
const BATCH: usize = 2048;

/// One input being read: its name, format and what its records are parsed with.
pub struct Source<'a> {
    /// The name as given (`-` for stdin).
    pub name: &'a str,
    /// The format being read.
    pub format: Format,
    /// The WTHOR header, for a WTHOR input.
    pub header: Option<wthor::Header>,
    options: ReadOptions,
    names: wthor::Names,
    forced: Option<Arc<Rules>>,
    default_rules: Arc<Rules>,
    rules_cache: &'a Mutex<HashMap<String, Arc<Rules>>>,
    /// The format was told from the input's start, not given with `--from`.
    sniffed: bool,
}

/// A record that does not read to its end.
#[derive(Debug)]
pub struct Unread {
    /// Why, located in the file.
    pub error: RecordError,
    /// For a record of moves whose text goes wrong after its start (a token that is no move, a
    /// tag that does not read): the record as far as it reads (its tags, its moves up to the
    /// fault) with its rules.
    pub before: Option<(Record, Arc<Rules>)>,
    /// For a token that is no move (`x4`, `pas`), the move it likely meant (see
    /// [`crate::notation::check::token_fix`]).
    pub fix: Option<String>,
    /// The text at fault.
    pub token: String,
    /// The ply the text at fault stands at, in a record of moves: one more than the moves
    /// before it.
    pub ply: Option<usize>,
}

/// Adds the likely fix to a message about a record: `...; suggestion: c4? (...)`.
pub fn add_suggestion(message: &mut String, fix: Option<String>) {
    if let Some(fix) = fix {
        message.push_str(&format!("; suggestion: {fix}"));
    }
}

impl Unread {
    /// The error alone.
    pub fn bare(error: RecordError) -> Unread {
        Unread { error, before: None, fix: None, token: String::new(), ply: None }
    }
}

/// Where a record's text gives its result in a field of its own: SGF's and GGF's `RE[...]`
/// value, a kifu grid's `Result:` or `結果` line.
fn result_field(text: &str) -> Option<Span> {
    // (`RE[` as a property of its own, not the end of `SCORE[`.)
    let property = text
        .match_indices("RE[")
        .map(|(at, _)| at)
        .filter(|&at| !text[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphabetic()));
    if let Some(at) = property.last() {
        let start = at + 3;
        let end = text[start..].find(']').map_or(text.len(), |n| start + n);
        return Some(Span { start, end });
    }
    let lower = text.to_ascii_lowercase();
    for key in ["result:", "結果:", "結果："] {
        if let Some(at) = lower.rfind(key) {
            let start = at + key.len();
            let line = &text[start..];
            let value = line.split('\n').next().unwrap_or_default();
            let skip = value.len() - value.trim_start().len();
            return Some(Span { start: start + skip, end: start + value.trim_end().len() });
        }
    }
    None
}

/// The last word of a record's text that reads as a result (`draw`, `40-24` after `White
/// wins`, `白勝ち`).
fn last_result_word(text: &str) -> Option<Span> {
    let is_result = |word: &str| {
        use crate::notation::pgn;
        pgn::japanese_result(word).is_some()
            || pgn::winner(word).is_some()
            || pgn::worded_result(word).is_some()
            || crate::notation::win_without_margin(word).is_some()
    };
    // The words with their places, last first; a result in two words (`Black wins`) too.
    let mut words: Vec<Span> = Vec::new();
    let mut end = text.len();
    for word in text.split_whitespace().rev() {
        let at = text[..end].rfind(word)?;
        words.push(Span { start: at, end: at + word.len() });
        end = at;
    }
    words.iter().enumerate().find_map(|(i, span)| {
        if is_result(&text[span.start..span.end]) {
            return Some(*span);
        }
        let before = words.get(i + 1)?;
        is_result(&text[before.start..span.end]).then_some(Span { start: before.start, end: span.end })
    })
}

impl Source<'_> {
    /// Parses one record.
    pub fn parse(&self, raw: &RawRecord) -> Result<Record, SyntaxError> {
        match &raw.body {
            Body::Text(text) => format::parse(self.format, text, self.options).map_err(|mut e| {
                // An input whose records are of several formats is read in the format of its
                // start: a record that reads in another says so.
                let own = format::sniff("", text.as_bytes());
                if self.sniffed && own != self.format && format::parse(own, text, self.options).is_ok() {
                    e.message.push_str(&format!(
                        " (the input is read as {}, the format of its start; this record is {own}: give \
                         --from {own}, or put the records of each format in a file of their own)",
                        self.format
                    ));
                }
                e
            }),
            Body::Binary(bytes) => wthor::parse_game(bytes, self.header.map_or(0, |h| h.year), &self.names),
        }
    }

    /// Parses a record and finds its rules; the error is located in the file.
    pub fn read(&self, raw: &RawRecord) -> Result<(Record, Arc<Rules>), RecordError> {
        let record = self.parse(raw).map_err(|e| raw.error(self.name, e.span, e.message))?;
        self.with_rules(raw, record)
    }

    /// Reads a record as [`Source::read`] does; one that does not read to its end comes with
    /// what does (see [`Unread`]).
    pub fn read_partly(&self, raw: &RawRecord) -> Result<(Record, Arc<Rules>), Box<Unread>> {
        match self.parse(raw) {
            Ok(record) => self.with_rules(raw, record).map_err(|error| Box::new(Unread::bare(error))),
            Err(e) => Err(Box::new(self.unread(raw, e))),
        }
    }

    /// A record that does not read: the error, and in a record of moves (a transcript, PGN,
    /// GGF, SGF, a logbook line) the record as far as it reads and the move a bad token meant.
    fn unread(&self, raw: &RawRecord, e: SyntaxError) -> Unread {
        let mut error = raw.error(self.name, e.span, e.message);
        let Body::Text(text) = &raw.body else { return Unread::bare(error) };
        let closers: &[&str] = match self.format {
            Format::Transcript | Format::Logbook | Format::Pgn | Format::Playok => &[""],
            Format::Ggf => &["", ";)"],
            Format::Sgf => &["", ")"],
            _ => return Unread::bare(error),
        };
        let (Some(head), Some(token)) = (text.get(..e.span.start), text.get(e.span.start..e.span.end)) else {
            return Unread::bare(error);
        };
        // The text before the fault, or before the property it is in (GGF's and SGF's moves
        // are `B[d3]`), closed as the format closes a game.
        let heads = [Some(head), head.rfind(']').map(|i| &head[..=i])];
        let mut before = heads.into_iter().flatten().filter(|h| !h.trim().is_empty()).find_map(|head| {
            closers.iter().find_map(|closer| {
                let record = format::parse(self.format, &format!("{head}{closer}"), self.options).ok()?;
                if record.moves.is_empty() && record.tags.is_empty() {
                    return None;
                }
                let rules = self.rules_for(&record).ok()?;
                Some((record, rules))
            })
        });
        // The result stated after the fault (a transcript's `Result:` line under its moves, a
        // PGN game's result token) is the record's all the same: read from the text with the
        // fault blanked out.
        if let Some((record, _)) = &mut before {
            const STATED: [&str; 4] = ["result", "outcome", "score", "termination"];
            if !record.tags.iter().any(|(k, _)| STATED.contains(&k.as_str())) {
                let blanked = format!("{head}{}{}", " ".repeat(token.len()), &text[e.span.end..]);
                if let Ok(whole) = format::parse(self.format, &blanked, self.options) {
                    record.tags.extend(whole.tags.into_iter().filter(|(k, _)| STATED.contains(&k.as_str())));
                }
            }
        }
        // A bad first move is tried from the rules' start (though nothing of the record reads).
        let first = (before.is_none() && head.trim().is_empty() && crate::notation::check::move_like(token))
            .then(|| (Record::default(), self.untagged_rules()));
        let fix = before.as_ref().or(first.as_ref()).and_then(|(record, rules)| {
            crate::notation::check::token_fix(record, rules, token, |way| {
                format::parse(self.format, &format!("{head}{way}{}", &text[e.span.end..]), self.options).ok()
            })
        });
        let ply = before.as_ref().or(first.as_ref()).map(|(record, _)| record.moves.len() + 1);
        // The replay's fix stands for the parser's guess from the token alone (`c 4`: c4?).
        if fix.is_some()
            && let Some(at) = error.message.find(" is not a move: ")
        {
            error.message.truncate(at + " is not a move".len());
        }
        Unread { error, before, fix, token: token.to_owned(), ply }
    }

    /// A parsed record with its rules (`--rules`, else its own), its squares named under them.
    fn with_rules(&self, raw: &RawRecord, mut record: Record) -> Result<(Record, Arc<Rules>), RecordError> {
        let rules = self.rules_for(&record).map_err(|(span, message)| {
            // Rules that do not read: at their text in the record, where it has it.
            let written = record.implied_spec().and_then(|spec| {
                let at = raw.text().find(spec.as_ref()).filter(|_| !spec.is_empty())?;
                Some(Span { start: at, end: at + spec.len() })
            });
            raw.error(self.name, written.unwrap_or(span), message)
        })?;
        // WTHOR's squares are places, rank 1 on top: rules that count ranks from the bottom
        // name them otherwise.
        if self.format == Format::Wthor && rules.variant().rows == RowNumbering::Bottom {
            record.flip_ranks(rules.size());
        }
        Ok((record, rules))
    }

    /// The position a record leads to (its start board after its moves, replayed by the core),
    /// with the record; and for a board given without its side to move (a board string or a
    /// diagram alone), read as the rules' first player's turn, a warning saying so, since a
    /// score's sign depends on it.
    pub fn end_position(
        &self,
        raw: &RawRecord,
    ) -> Result<(crate::core::Position, Record, Option<String>), RecordError> {
        let (record, rules) = self.read(raw)?;
        let resolved = record.resolve(rules).map_err(|e| raw.error(self.name, e.span, e.message))?;
        let warning = self.unstated_side(raw, &record, &resolved.end);
        Ok((resolved.end, record, warning))
    }

    /// For a board no game reaches (an empty board, a centre cell cleared), a warning saying
    /// so: its scores are no labels, its legal moves no game's.
    pub fn unreachable(&self, raw: &RawRecord, pos: &crate::core::Position) -> Option<String> {
        let why = pos.unreachable()?;
        Some(format!("{}#{}: {}", self.name, raw.index + 1, crate::notation::check::unreachable(pos.rules(), why)))
    }

    /// For a board given without its side to move and no moves (a board string or a diagram
    /// alone, read as the rules' first player's turn), a warning saying so, since a score's
    /// sign and the moves shown depend on it.
    pub fn unstated_side(&self, raw: &RawRecord, record: &Record, pos: &crate::core::Position) -> Option<String> {
        let unstated = record.moves.is_empty() && record.start.as_ref().is_some_and(|b| b.side.is_none());
        unstated.then(|| {
            format!(
                "{}#{}: no side to move given: {} to move assumed (write X or O after the board)",
                self.name,
                raw.index + 1,
                pos.side_to_move().name()
            )
        })
    }

    /// The first problem `check` found in the record, as an error at its place: the move at
    /// fault, or the whole record for a problem that is no move's (a stored result that does
    /// not match). `None` when the check found none.
    pub fn problem(&self, raw: &RawRecord, check: &crate::notation::check::Check) -> Option<RecordError> {
        check.problem.as_ref().map(|p| {
            let message = match p.ply {
                // (A record that does not read says why, as the reader's own errors do.)
                0 if check.status == crate::notation::check::Status::ParseError => p.reason.clone(),
                0 => format!("{}: {}", check.status.name(), p.reason),
                ply => format!("{}: move {ply}, {}: {}", check.status.name(), p.mv, p.reason),
            };
            let span = match (p.ply, &check.stored) {
                (0, Some(stored)) if check.status == crate::notation::check::Status::ResultMismatch => {
                    // The stored result where the text last gives it (a PGN's movetext result
                    // after its tag; a logbook's score at the end of its line), or SGF's form of
                    // its margin (`W+2` read as -2), or the last result in Japanese (`白勝ち`).
                    let stored = stored.trim();
                    let sgf = stored.parse::<i32>().ok().map(|m| match m {
                        m if m < 0 => format!("W+{}", -m),
                        m => format!("B+{m}"),
                    });
                    let text = raw.text();
                    result_field(text)
                        .or_else(|| {
                            [Some(stored.to_owned()), sgf]
                                .into_iter()
                                .flatten()
                                .filter(|form| !form.is_empty())
                                .find_map(|form| text.rfind(&form).map(|at| Span { start: at, end: at + form.len() }))
                        })
                        .or_else(|| last_result_word(text))
                        .unwrap_or_default()
                }
                _ => p.span,
            };
            raw.error(self.name, span, message)
        })
    }

    /// The rules of a record with no tags or start board: `--rules`, else standard Othello.
    pub fn untagged_rules(&self) -> Arc<Rules> {
        self.forced.clone().unwrap_or_else(|| self.default_rules.clone())
    }

    /// The rules of a record: `--rules`, else its `rules` tag, else standard Othello on the size
    /// of its start board.
    pub fn rules_for(&self, record: &Record) -> Result<Arc<Rules>, (Span, String)> {
        if let Some(r) = &self.forced {
            return Ok(r.clone());
        }
        let Some(spec) = record.implied_spec().map(std::borrow::Cow::into_owned) else {
            return Ok(self.default_rules.clone());
        };
        let mut cache = self.rules_cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(r) = cache.get(&spec) {
            return Ok(r.clone());
        }
        let r = spec.parse::<Rules>().map_err(|e| (Span::default(), format!("rules `{spec}`: {e}")))?.shared();
        cache.insert(spec, r.clone());
        Ok(r)
    }
}

/// Reads every input record by record: `work` runs on each record in parallel batches, and
/// `sink` gets each result (or the reader's error for a record it could not cut out) in input
/// order, with the progress counter advanced. An I/O error stops the run.
pub fn for_each<T: Send>(
    args: &InputArgs,
    progress: &Progress,
    work: impl Fn(&Source, &RawRecord) -> T + Sync,
    sink: impl FnMut(&Source, Result<T, RecordError>) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    for_each_in_batches(args, progress, BATCH, work, sink)
}

/// [`for_each`] for a sink that writes to `out`: `out` is flushed whenever no record is ready,
/// so that a record piped in alone (a program asking and waiting) is answered at once.
pub fn for_each_to<T: Send>(
    args: &InputArgs,
    progress: &Progress,
    out: &mut Output,
    work: impl Fn(&Source, &RawRecord) -> T + Sync,
    sink: impl FnMut(&mut Output, &Source, Result<T, RecordError>) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    in_batches(args, progress, BATCH, work, out, sink, |out| Ok(out.flush()?))
}

/// [`for_each`] with a `state` the sink gets, and `idle` run on it whenever no record is
/// ready (to flush what the sink wrote, as [`for_each_to`] does).
pub fn for_each_with<S, T: Send>(
    args: &InputArgs,
    progress: &Progress,
    state: &mut S,
    work: impl Fn(&Source, &RawRecord) -> T + Sync,
    sink: impl FnMut(&mut S, &Source, Result<T, RecordError>) -> anyhow::Result<()>,
    idle: impl FnMut(&mut S) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    in_batches(args, progress, BATCH, work, state, sink, idle)
}

/// [`for_each`] with `batch` records at a time (1: one after the other, each result passed on
/// as soon as it is ready, for work that is parallel inside).
pub fn for_each_in_batches<T: Send>(
    args: &InputArgs,
    progress: &Progress,
    batch_size: usize,
    work: impl Fn(&Source, &RawRecord) -> T + Sync,
    mut sink: impl FnMut(&Source, Result<T, RecordError>) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    in_batches(args, progress, batch_size, work, &mut (), |(), source, result| sink(source, result), |()| Ok(()))
}

/// The loop of [`for_each`]: a reader thread cuts records one by one, and the workers take
/// every record ready, up to `batch_size`, as a batch (a slow input, such as a pipe fed line by
/// line, is not held back until a batch fills); `idle` runs whenever the workers have handled
/// every record read so far.
fn in_batches<S, T: Send>(
    args: &InputArgs,
    progress: &Progress,
    batch_size: usize,
    work: impl Fn(&Source, &RawRecord) -> T + Sync,
    state: &mut S,
    mut sink: impl FnMut(&mut S, &Source, Result<T, RecordError>) -> anyhow::Result<()>,
    mut idle: impl FnMut(&mut S) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    use std::sync::mpsc::TryRecvError;
    // Records read so far over all the inputs, against `records_wanted`.
    let mut read = 0u64;
    each_input(args, |input, source, reader, problems| {
        // The bounded channel keeps at most a few batches in memory.
        let (records, received) =
            std::sync::mpsc::sync_channel::<Result<Result<RawRecord, RecordError>, std::io::Error>>(2 * batch_size);
        let wanted = args.records_wanted.unwrap_or(u64::MAX);
        let before = read;
        std::thread::scope(|scope| -> anyhow::Result<ControlFlow<()>> {
            let reading = scope.spawn(move || {
                let (mut problems, mut read) = (Vec::new(), before);
                for item in reader {
                    if read >= wanted {
                        break;
                    }
                    read += u64::from(!matches!(item, Err(ReadError::File(_))));
                    let sent = match item {
                        Ok(raw) => records.send(Ok(Ok(raw))),
                        Err(ReadError::Record(e)) => records.send(Ok(Err(e))),
                        Err(ReadError::File(e)) => {
                            problems.push(e);
                            Ok(())
                        }
                        Err(ReadError::Io(e)) => {
                            let _ = records.send(Err(e));
                            break;
                        }
                    };
                    if sent.is_err() {
                        break;
                    }
                }
                (problems, read)
            });
            // Owned here: an early return (a closed output) drops it, so that a reader
            // waiting on a full channel stops instead of being waited for.
            let received = received;
            let mut batch = Vec::with_capacity(batch_size);
            loop {
                let first = match received.try_recv() {
                    Ok(item) => item,
                    Err(TryRecvError::Disconnected) => break,
                    Err(TryRecvError::Empty) => {
                        idle(state)?;
                        match received.recv() {
                            Ok(item) => item,
                            Err(_) => break,
                        }
                    }
                };
                batch.push(first.with_context(|| format!("reading {input}"))?);
                while batch.len() < batch_size
                    && let Ok(item) = received.try_recv()
                {
                    batch.push(item.with_context(|| format!("reading {input}"))?);
                }
                let results: Vec<Result<T, RecordError>> =
                    batch.par_drain(..).map(|item| item.map(|raw| work(source, &raw))).collect();
                for result in results {
                    progress.inc();
                    sink(state, source, result)?;
                }
            }
            let (found, now) = reading.join().map_err(|_| anyhow::anyhow!("the reader of {input} panicked"))?;
            problems.extend(found);
            read = now;
            Ok(if read >= wanted { ControlFlow::Break(()) } else { ControlFlow::Continue(()) })
        })
    })
}

/// Reads every input record by record and hands each one to the first free worker, each worker
/// with its own state (`states`, one per worker thread, kept across records and inputs); `sink`
/// gets the results in input order as soon as they are ready. Records are numbered from 0
/// across all the inputs (`work` gets the number), and those `wanted` refuses are passed over
/// unread.
pub fn for_each_ordered<S: Send, T: Send>(
    args: &InputArgs,
    states: &mut [S],
    wanted: impl Fn(u64) -> bool + Sync,
    work: impl Fn(&mut S, &Source, u64, &RawRecord) -> T + Sync,
    mut sink: impl FnMut(&Source, u64, Result<T, RecordError>) -> anyhow::Result<()>,
) -> anyhow::Result<FileProblems> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let mut first = 0u64;
    each_input(args, |input, source, reader, problems| {
        let stop = AtomicBool::new(false);
        // Jobs carry their place among the records handed out (to put the results back in
        // order) and their record number.
        type Job = (usize, u64, Result<RawRecord, RecordError>);
        let (jobs, job_queue) = std::sync::mpsc::sync_channel::<Job>(states.len() * 2);
        let job_queue = Mutex::new(job_queue);
        let (results, finished) = std::sync::mpsc::channel::<(usize, u64, Result<T, RecordError>)>();
        first = std::thread::scope(|scope| -> anyhow::Result<u64> {
            let (stop, wanted) = (&stop, &wanted);
            let reading = scope.spawn(move || -> Result<(u64, Vec<FileError>), std::io::Error> {
                let (mut index, mut handed, mut problems) = (first, 0, Vec::new());
                for item in reader {
                    if stop.load(Ordering::Relaxed) || index >= args.records_wanted.unwrap_or(u64::MAX) {
                        break;
                    }
                    let item = match item {
                        Ok(raw) => Ok(raw),
                        Err(ReadError::Record(e)) => Err(e),
                        Err(ReadError::File(e)) => {
                            problems.push(e);
                            continue;
                        }
                        Err(ReadError::Io(e)) => return Err(e),
                    };
                    if wanted(index) {
                        if jobs.send((handed, index, item)).is_err() {
                            break;
                        }
                        handed += 1;
                    }
                    index += 1;
                }
                Ok((index, problems))
            });
            for state in states.iter_mut() {
                let (job_queue, results, work) = (&job_queue, results.clone(), &work);
                scope.spawn(move || {
                    loop {
                        let job = job_queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).recv();
                        let Ok((place, index, item)) = job else { return };
                        // Once stopped, the queue is drained (so the reader is never stuck
                        // on a full queue) until the reader closes it.
                        if !stop.load(Ordering::Relaxed) {
                            let _ = results.send((place, index, item.map(|raw| work(state, source, index, &raw))));
                        }
                    }
                });
            }
            drop(results);
            // Results come back in any order; they go on in input order.
            let mut waiting = std::collections::BTreeMap::new();
            let mut next = 0;
            let mut sunk = Ok(());
            'results: for (place, index, result) in finished.iter() {
                waiting.insert(place, (index, result));
                while let Some((index, result)) = waiting.remove(&next) {
                    next += 1;
                    sunk = sink(source, index, result);
                    if sunk.is_err() {
                        stop.store(true, Ordering::Relaxed);
                        break 'results;
                    }
                }
            }
            drop(finished);
            let read = reading.join().map_err(|_| anyhow::anyhow!("the reader of {input} panicked"))?;
            sunk?;
            let (next, found) = read.with_context(|| format!("reading {input}"))?;
            problems.extend(found);
            Ok(next)
        })?;
        Ok(if first >= args.records_wanted.unwrap_or(u64::MAX) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    })
}

/// Opens each input in turn (stdin for none) and calls `each` with its name, its [`Source`],
/// its reader and where to put the problems of the whole file, until `each` says to stop.
fn each_input(
    args: &InputArgs,
    mut each: impl FnMut(&str, &Source, Reader, &mut Vec<FileError>) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<FileProblems> {
    let inputs = if args.inputs.is_empty() { vec![PathBuf::from("-")] } else { args.inputs.clone() };
    let options = ReadOptions {
        digits: match args.digits {
            DigitsArg::D01 => Digits::BlackWhite,
            DigitsArg::D012 => Digits::EmptyBlackWhite,
        },
    };
    let rules_cache = Mutex::new(HashMap::new());
    let default_rules = Rules::othello().shared();
    let mut problems = Vec::new();
    let mut wthor_read = false;
    check_readable(&inputs)?;
    for path in &inputs {
        // Named in messages and rows as it prints (a name that is not UTF-8 with U+FFFD).
        let name = path.to_string_lossy();
        let input = name.as_ref();
        let stream = reader::open(path).with_context(|| format!("cannot read {input}"))?;
        let reader = Reader::with_encoding(input, stream, args.from, args.encoding)
            .with_context(|| format!("cannot read {input}"))?;
        let header = reader.header();
        let names = match header {
            Some(_) => wthor_names(path, args.players.as_deref(), args.tournaments.as_deref(), args.names_unused)?,
            None => wthor::Names::default(),
        };
        let source = Source {
            name: input,
            format: reader.format(),
            header,
            options,
            names,
            forced: args.rules.clone().map(Rules::shared),
            default_rules: default_rules.clone(),
            rules_cache: &rules_cache,
            sniffed: args.from.is_none(),
        };
        wthor_read |= header.is_some();
        if each(input, &source, reader, &mut problems)?.is_break() {
            break;
        }
    }
    // Name files for no WTHOR input: likely `--players NAME` for `--player NAME`. Said once
    // (a command may read its inputs twice).
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let given = [("--players", &args.players), ("--tournaments", &args.tournaments)];
    if let Some((option, Some(path))) = given.into_iter().find(|(_, p)| p.is_some())
        && !wthor_read
        && !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed)
    {
        stderr!(
            "kifu: warning: {option} {} is for WTHOR inputs, and none was read: it changes nothing (--player TEXT and --event TEXT select games by name)",
            path.display()
        );
    }
    Ok(FileProblems(problems))
}

/// Reads every input record by record on this thread, handing each (or the reader's error for
/// a record it could not cut out) to `visit` until it says to stop. An I/O error stops the run.
pub fn scan(
    args: &InputArgs,
    mut visit: impl FnMut(&Source, Result<RawRecord, RecordError>) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<FileProblems> {
    each_input(args, |input, source, reader, problems| {
        for item in reader {
            let item = match item {
                Ok(raw) => Ok(raw),
                Err(ReadError::Record(e)) => Err(e),
                Err(ReadError::File(e)) => {
                    problems.push(e);
                    continue;
                }
                Err(ReadError::Io(e)) => return Err(anyhow::Error::new(e).context(format!("reading {input}"))),
            };
            if visit(source, item)?.is_break() {
                return Ok(ControlFlow::Break(()));
            }
        }
        Ok(ControlFlow::Continue(()))
    })
}

/// Counts the records of every input (files only: stdin cannot be read twice).
pub fn count(args: &InputArgs) -> anyhow::Result<u64> {
    let mut total = 0;
    if args.reads_stdin() {
        anyhow::bail!("counting the records needs input files, not stdin");
    }
    // (The problems of whole files are reported by the reading that follows.)
    let _ = each_input(args, |input, _, reader, _| {
        for item in reader {
            match item {
                Err(ReadError::Io(e)) => return Err(anyhow::Error::new(e).context(format!("reading {input}"))),
                Err(ReadError::File(_)) => {}
                Ok(_) | Err(ReadError::Record(_)) => total += 1,
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(total)
}

/// The file of folder `dir` (the current one when empty) named `file` in any case.
pub(super) fn find_any_case(dir: &Path, file: &str) -> Option<PathBuf> {
    wthor::find_any_case(dir, file)
}

/// Finds the name files for a WTHOR input: the given paths, else `STEM.JOU` / `STEM.TRN`
/// beside `STEM.wtb`, else `WTHOR.JOU` / `WTHOR.TRN` in the same folder (any case; stdin has
/// only the given ones). Missing
/// files mean no names (the ids are kept), with a warning on stderr, once per input, unless the
/// command uses no names (`unused`).
fn wthor_names(
    path: &Path,
    players: Option<&Path>,
    tournaments: Option<&Path>,
    unused: bool,
) -> anyhow::Result<wthor::Names> {
    let input = path.to_string_lossy();
    let find = |given: Option<&Path>, ext: &str| -> Option<PathBuf> {
        if let Some(p) = given {
            return Some(p.to_path_buf());
        }
        // The database's own names (`club.JOU` beside `club.wtb`), else the federation's;
        // stdin is beside nothing (not the current folder's files).
        if is_stdin(path) {
            return None;
        }
        wthor::names_file(path, ext)
    };
    let mut names = wthor::Names::default();
    let mut missing = Vec::new();
    for (given, file, width, slot) in [
        (players, "JOU", wthor::PLAYER_LEN, &mut names.players),
        (tournaments, "TRN", wthor::TOURNAMENT_LEN, &mut names.tournaments),
    ] {
        if let Some(path) = find(given, file) {
            let bytes = std::fs::read(&path).with_context(|| {
                // `--players NAME` for `--player NAME` (selecting games) is an easy slip.
                let slip = match (given.is_some() && !path.exists(), file) {
                    (true, "JOU") => " (--players names a WTHOR players file; --player TEXT selects games by name)",
                    (true, _) => " (--tournaments names a WTHOR tournaments file; --event TEXT selects games by event)",
                    (false, _) => "",
                };
                format!("cannot read {}{slip}", path.display())
            })?;
            *slot = wthor::parse_names(&bytes, width).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        } else {
            missing.push(file);
        }
    }
    // Said once per input (a command may read its inputs twice: counting, then working).
    static WARNED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !missing.is_empty() && !unused && !warned.iter().any(|w| w == path) {
        warned.push(path.to_path_buf());
        let options: Vec<&str> =
            missing.iter().map(|ext| if *ext == "JOU" { "--players" } else { "--tournaments" }).collect();
        let options =
            format!("{} {}", options.join(", "), if options.len() == 1 { "names the file" } else { "name the files" });
        if is_stdin(path) {
            stderr!(
                "kifu: warning: a WTHOR database read from stdin has no name files beside it: its names are kept as WTHOR numbers (`WTHOR #95`; {options})"
            );
            return Ok(names);
        }
        let what = if missing.len() == 2 {
            "players and tournaments"
        } else if missing[0] == "JOU" {
            "players"
        } else {
            "tournaments"
        };
        let stem = wthor::database_stem(path);
        let files: Vec<String> = missing.iter().map(|ext| format!("{stem}.{ext} or WTHOR.{ext}")).collect();
        stderr!(
            "kifu: warning: {input}: no name files beside it ({}): {what} are kept as WTHOR numbers (`WTHOR #95`; {options})",
            files.join(", ")
        );
    }
    Ok(names)
}
