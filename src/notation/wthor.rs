//! WTHOR: the French Othello Federation's binary game databases (`WTH_yyyy.wtb`) with their
//! player (`WTHOR.JOU`) and tournament (`WTHOR.TRN`) name files.
//!
//! Every file starts with a 16-byte header: the creation date (century, year in century,
//! month, day), the number of games (u32), the number of names (u16), the year of the games
//! (u16), the board size (0 or 8 = 8x8), the game type and the depth of the theoretical score.
//! A `.wtb` game record is 68 bytes: tournament id, black id, white id (u16 each), black's disc
//! count, black's theoretical disc count, then 60 move bytes (`10 * row + column`, both 1-based,
//! `0` = no move). Passes are not stored. Names are 20 bytes (players) or 26 bytes
//! (tournaments), NUL-padded, in Windows-1252 (Latin-1 and a few more letters and signs).
//!
//! In a [`Record`], the stored disc counts become the tags `result` and `theoretical` as black's
//! margin (`2 * discs - 64`, the empties going to the winner as WTHOR counts them); the ids stay
//! in `wthor_tournament`, `wthor_black` and `wthor_white` so a database written back keeps them,
//! and the names (when the JOU/TRN files are at hand) fill `event`, `black` and `white`.
//! 10x10 databases (board-size byte 10) are refused: kifu has no sample to check their layout.

use super::{MoveSyntax, MoveToken, Record, Span, SyntaxError};

/// Bytes in a header.
pub const HEADER_LEN: usize = 16;
/// Bytes in an 8x8 game record.
pub const RECORD_LEN: usize = 68;
/// Bytes in a player name.
pub const PLAYER_LEN: usize = 20;
/// Bytes in a tournament name.
pub const TOURNAMENT_LEN: usize = 26;

/// A WTHOR file header.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Header {
    /// When the file was made: year, month, day.
    pub created: (u16, u8, u8),
    /// Games in a `.wtb` file.
    pub games: u32,
    /// Names in a `.JOU` or `.TRN` file.
    pub names: u16,
    /// The year the games were played.
    pub year: u16,
    /// The board-size byte (0 or 8 for 8x8).
    pub board_size: u8,
    /// The game-type byte (0 = games, 1 = solitaires).
    pub kind: u8,
    /// The depth from which the theoretical score was computed.
    pub depth: u8,
}

impl Header {
    /// Reads a header.
    #[must_use]
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Header {
        Header {
            created: (u16::from(bytes[0]) * 100 + u16::from(bytes[1]), bytes[2], bytes[3]),
            games: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            names: u16::from_le_bytes([bytes[8], bytes[9]]),
            year: u16::from_le_bytes([bytes[10], bytes[11]]),
            board_size: bytes[12],
            kind: bytes[13],
            depth: bytes[14],
        }
    }

    /// Writes a header.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0] = (self.created.0 / 100) as u8;
        out[1] = (self.created.0 % 100) as u8;
        out[2] = self.created.1;
        out[3] = self.created.2;
        out[4..8].copy_from_slice(&self.games.to_le_bytes());
        out[8..10].copy_from_slice(&self.names.to_le_bytes());
        out[10..12].copy_from_slice(&self.year.to_le_bytes());
        out[12] = self.board_size;
        out[13] = self.kind;
        out[14] = self.depth;
        out
    }

    /// Whether the games are 8x8 (the only layout kifu reads).
    #[must_use]
    pub fn is_8x8(&self) -> bool {
        matches!(self.board_size, 0 | 8)
    }
}

/// Player and tournament names by id, from `WTHOR.JOU` and `WTHOR.TRN`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Names {
    /// Player names; the index is the id.
    pub players: Vec<String>,
    /// Tournament names; the index is the id.
    pub tournaments: Vec<String>,
}

impl Names {
    /// The names of the WTHOR database at `path`, from the files beside it: `STEM.JOU` and
    /// `STEM.TRN` for `STEM.wtb` (or `STEM.wtb.gz`), else the federation's `WTHOR.JOU` and
    /// `WTHOR.TRN`, in any case. A file that is not there leaves its names empty (games then
    /// keep their ids); one that does not read is an error.
    pub fn beside(path: &std::path::Path) -> std::io::Result<Names> {
        let mut names = Names::default();
        for (ext, width, slot) in
            [("JOU", PLAYER_LEN, &mut names.players), ("TRN", TOURNAMENT_LEN, &mut names.tournaments)]
        {
            if let Some(file) = names_file(path, ext) {
                let bytes = std::fs::read(&file)?;
                *slot = parse_names(&bytes, width).map_err(|e| {
                    std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{}: {e}", file.display()))
                })?;
            }
        }
        Ok(names)
    }
}

/// The names file (`ext`: `JOU` or `TRN`) for the WTHOR database at `path`: `STEM.ext` beside
/// it, else `WTHOR.ext` (any case); `None` when there is neither.
pub fn names_file(path: &std::path::Path, ext: &str) -> Option<std::path::PathBuf> {
    let dir = path.parent().unwrap_or(std::path::Path::new(""));
    let own = [stem_bytes(path), b".", ext.as_bytes()].concat();
    let federation = [b"WTHOR.", ext.as_bytes()].concat();
    [own, federation].into_iter().find_map(|file| find_bytes_any_case(dir, &file))
}

/// The name of the WTHOR database at `path` without its folder and extension: `club` for
/// `games/club.wtb`, and for `club.wtb.gz` too (`club.wtb` compressed); a name that is not
/// UTF-8 with U+FFFD.
#[must_use]
pub fn database_stem(path: &std::path::Path) -> String {
    String::from_utf8_lossy(stem_bytes(path)).into_owned()
}

/// [`database_stem`] as the bytes of the file's name (which need not be UTF-8).
fn stem_bytes(path: &std::path::Path) -> &[u8] {
    let name = path.file_name().map_or(&b""[..], std::ffi::OsStr::as_encoded_bytes);
    let name = name.strip_suffix(b".gz").or_else(|| name.strip_suffix(b".GZ")).unwrap_or(name);
    name.iter().rposition(|&b| b == b'.').map_or(name, |dot| &name[..dot])
}

/// The file of folder `dir` (the current one when empty) named `file` in any case.
pub fn find_any_case(dir: &std::path::Path, file: &str) -> Option<std::path::PathBuf> {
    find_bytes_any_case(dir, file.as_bytes())
}

/// [`find_any_case`] for a name given as bytes (which need not be UTF-8); ASCII letters match
/// in any case.
fn find_bytes_any_case(dir: &std::path::Path, file: &[u8]) -> Option<std::path::PathBuf> {
    std::fs::read_dir(if dir.as_os_str().is_empty() { std::path::Path::new(".") } else { dir })
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.file_name().is_some_and(|n| n.as_encoded_bytes().eq_ignore_ascii_case(file)))
}

/// Reads the names of a `.JOU` (`width` 20) or `.TRN` (`width` 26) file.
pub fn parse_names(bytes: &[u8], width: usize) -> Result<Vec<String>, String> {
    if bytes.len() < HEADER_LEN {
        return Err(format!("{} bytes is too short for a WTHOR header", bytes.len()));
    }
    let body = &bytes[HEADER_LEN..];
    if !body.len().is_multiple_of(width) {
        return Err(format!("{} bytes of names is not a whole number of {width}-byte names", body.len()));
    }
    Ok(body.chunks(width).map(cp1252).collect())
}

/// Writes a `.JOU` (`width` 20) or `.TRN` (`width` 26) file, each name as [`encode_name`] stores
/// it.
#[must_use]
pub fn write_names(names: &[String], width: usize, created: (u16, u8, u8)) -> Vec<u8> {
    let header = Header { created, names: names.len() as u16, ..Header::default() };
    let mut out = header.to_bytes().to_vec();
    for name in names {
        out.extend_from_slice(&encode_name(name, width));
    }
    out
}

/// A name as a `width`-byte field of a names file: Windows-1252 (Latin-1 and `Œ œ Š š Ž ž Ÿ`,
/// quotes and dashes), cut to `width - 1` bytes and ended by a zero. A letter followed by a
/// combining accent (`e` and U+0301, as some systems type `é`) is the letter with the accent;
/// a letter Windows-1252 does not have is its plain letter (`Tōkyō` is `Tokyo`, `Łukasz` is
/// `Lukasz`, full-width `Ｔａｎａｋａ` is `Tanaka`), and any other character `?`.
#[must_use]
pub fn encode_name(name: &str, width: usize) -> Vec<u8> {
    let byte = |c: char| cp1252_byte(c).or_else(|| cp1252_byte(super::plain_letter(c))).unwrap_or(b'?');
    let mut bytes: Vec<u8> = super::compose_accents(name).chars().map(byte).collect();
    bytes.resize(width - 1, 0);
    bytes.push(0);
    bytes
}

/// The Windows-1252 byte of a character, if it has one (not the C1 controls, which names never
/// hold).
#[must_use]
pub fn cp1252_byte(c: char) -> Option<u8> {
    if ('\u{80}'..='\u{9F}').contains(&c) {
        return None;
    }
    let mut buf = [0; 4];
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(c.encode_utf8(&mut buf));
    (!unmappable && bytes.len() == 1).then(|| bytes[0])
}

/// The name as a names file gives it back once written ([`encode_name`], then read).
#[must_use]
pub fn stored_name(name: &str, width: usize) -> String {
    cp1252(&encode_name(name.trim(), width))
}

/// A names file's field as text: Windows-1252 up to its first zero byte, as the text files of
/// the same systems are read.
fn cp1252(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    encoding_rs::WINDOWS_1252.decode_without_bom_handling(&field[..end]).0.trim_end().to_owned()
}

/// Decodes one 68-byte game record. Spans are byte offsets within the record. `year` is the
/// header's year (0 = unknown).
pub fn parse_game(bytes: &[u8], year: u16, names: &Names) -> Result<Record, SyntaxError> {
    if bytes.len() != RECORD_LEN {
        return Err(SyntaxError {
            span: Span { start: 0, end: bytes.len() },
            message: format!("a game record is {RECORD_LEN} bytes, this one {}", bytes.len()),
        });
    }
    let id = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let (tournament, black, white) = (id(0), id(2), id(4));
    let mut record = Record::default();
    let name = |list: &[String], i: u16| list.get(usize::from(i)).filter(|n| !n.is_empty()).cloned();
    if let Some(event) = name(&names.tournaments, tournament) {
        record.tags.push(("event".into(), event));
    }
    if let Some(n) = name(&names.players, black) {
        record.tags.push(("black".into(), n));
    }
    if let Some(n) = name(&names.players, white) {
        record.tags.push(("white".into(), n));
    }
    if year != 0 {
        record.tags.push(("date".into(), year.to_string()));
    }
    record.tags.push(("result".into(), margin(bytes[6])));
    record.tags.push(("theoretical".into(), margin(bytes[7])));
    record.tags.push(("wthor_tournament".into(), tournament.to_string()));
    record.tags.push(("wthor_black".into(), black.to_string()));
    record.tags.push(("wthor_white".into(), white.to_string()));
    let mut ended = false;
    for (i, &b) in bytes[8..].iter().enumerate() {
        let span = Span { start: 8 + i, end: 9 + i };
        if b == 0 {
            ended = true;
            continue;
        }
        let (row, col) = (b / 10, b % 10);
        if ended || !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            let message = if ended {
                format!("move byte {b} after the end of the moves (a 0 byte)")
            } else {
                format!("move byte {b} is not a square (10 * row + column, each 1..8)")
            };
            return Err(SyntaxError { span, message });
        }
        record.moves.push(MoveToken {
            mv: MoveSyntax::Square { file: col - 1, rank: row },
            span,
            ..MoveToken::default()
        });
    }
    Ok(record)
}

fn margin(black_discs: u8) -> String {
    signed(2 * i32::from(black_discs) - 64)
}

/// A margin written with its sign (`+4`, `-12`, `0`).
#[must_use]
pub fn signed(margin: i32) -> String {
    if margin > 0 { format!("+{margin}") } else { margin.to_string() }
}

/// Black's disc count from a margin tag (`+4` → 34), as WTHOR stores it.
fn discs(text: &str) -> Result<u8, String> {
    let text = text.trim();
    let value: f64 = text.strip_prefix('+').unwrap_or(text).parse().map_err(|_| format!("`{text}` is not a margin"))?;
    let m = value.round() as i32;
    if !(-64..=64).contains(&m) {
        return Err(format!("margin {m} is outside -64..64"));
    }
    Ok(((64 + m) / 2) as u8)
}

/// Encodes a record as a 68-byte game with the given ids. Passes are left out; the record must
/// be an 8x8 game of at most 60 placements. Black's discs come from the `result` margin (flags
/// after a `:` ignored), else are `board_black` (the count on the board the record leaves).
pub fn write_game(record: &Record, ids: [u16; 3], board_black: u8) -> Result<[u8; RECORD_LEN], String> {
    let mut out = [0u8; RECORD_LEN];
    for (i, id) in ids.iter().enumerate() {
        out[2 * i..2 * i + 2].copy_from_slice(&id.to_le_bytes());
    }
    out[6] = match record.tag("result") {
        Some(result) => discs(result.split(':').next().unwrap_or(result))?,
        None => board_black,
    };
    out[7] = match record.tag("theoretical") {
        Some(t) => discs(t)?,
        None => out[6],
    };
    let mut n = 0;
    for t in &record.moves {
        let MoveSyntax::Square { file, rank } = t.mv else { continue };
        if file >= 8 || !(1..=8).contains(&rank) {
            return Err(format!("{} is not a square of an 8x8 board", t.mv));
        }
        if n == 60 {
            return Err("more than 60 moves".into());
        }
        out[8 + n] = rank * 10 + file + 1;
        n += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Passes, Rules};

    #[test]
    fn header_round_trips() {
        let h = Header { created: (2005, 1, 17), games: 9113, names: 0, year: 2004, board_size: 8, kind: 0, depth: 22 };
        assert_eq!(Header::parse(&h.to_bytes()), h);
    }

    #[test]
    fn game_round_trips_and_replays() {
        let moves = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
        let mut bytes = [0u8; RECORD_LEN];
        bytes[0..6].copy_from_slice(&[3, 0, 7, 0, 9, 0]);
        bytes[6] = 41;
        bytes[7] = 40;
        for (i, c) in moves.as_bytes().chunks(2).enumerate() {
            bytes[8 + i] = (c[1] - b'0') * 10 + (c[0] - b'a' + 1);
        }
        let names = Names { players: (0..10).map(|i| format!("P{i}")).collect(), tournaments: vec!["".into(); 4] };
        let record = parse_game(&bytes, 2004, &names).unwrap();
        assert_eq!(record.tag("black"), Some("P7"));
        assert_eq!(record.tag("result"), Some("+18"));
        assert_eq!(record.tag("theoretical"), Some("+16"));
        assert_eq!(record.tag("event"), None, "an empty name is no name");
        assert_eq!(record.moves.len(), 60);
        let replay = record.game(Rules::othello().shared()).unwrap().replay(Passes::Implicit).unwrap();
        assert_eq!(replay.position.count(crate::core::Color::Black), 41);
        assert_eq!(write_game(&record, [3, 7, 9], 0).unwrap(), bytes);
    }

    #[test]
    fn bad_bytes_are_errors_with_spans() {
        let mut bytes = [0u8; RECORD_LEN];
        bytes[8] = 56;
        bytes[9] = 99;
        let err = parse_game(&bytes, 0, &Names::default()).unwrap_err();
        assert_eq!(err.span, Span { start: 9, end: 10 });
        bytes[9] = 0;
        bytes[10] = 43;
        assert!(parse_game(&bytes, 0, &Names::default()).unwrap_err().message.contains("after the end"));
        assert!(parse_game(&bytes[..10], 0, &Names::default()).is_err());
    }

    #[test]
    fn names_round_trip() {
        let names = vec!["Tastet Marc".to_owned(), "Müller".to_owned(), String::new()];
        let bytes = write_names(&names, PLAYER_LEN, (2026, 11, 22));
        assert_eq!(bytes.len(), HEADER_LEN + 3 * PLAYER_LEN);
        assert_eq!(parse_names(&bytes, PLAYER_LEN).unwrap(), names);
        assert!(parse_names(&bytes[..HEADER_LEN + 5], PLAYER_LEN).is_err());
        // What a names file keeps of a name: 19 Windows-1252 bytes, accents typed as combining
        // marks composed, other Latin letters plain, full-width ones ASCII, other characters `?`.
        assert_eq!(stored_name("Jean-Christophe Dupont-Aignan", PLAYER_LEN), "Jean-Christophe Dup");
        assert_eq!(stored_name("Fre\u{301}de\u{301}ric Le\u{301}ve\u{302}que", PLAYER_LEN), "Frédéric Lévêque");
        assert_eq!(stored_name("Coupe de l\u{2019}\u{152}uvre", TOURNAMENT_LEN), "Coupe de l\u{2019}\u{152}uvre");
        assert_eq!(encode_name("\u{152}\u{20AC}", PLAYER_LEN)[..2], [0x8C, 0x80]);
        assert_eq!(stored_name("\u{141}ukasz Wi\u{15B}niewski \u{0080}", PLAYER_LEN), "Lukasz Wisniewski ?");
        assert_eq!(stored_name("T\u{14D}ky\u{14D} \u{FF34}\u{FF41}\u{FF4E}", PLAYER_LEN), "Tokyo Tan");
        assert_eq!(stored_name("山田 Ann", PLAYER_LEN), "?? Ann");
        assert_eq!(stored_name(" Ann  ", PLAYER_LEN), "Ann");
    }
}
