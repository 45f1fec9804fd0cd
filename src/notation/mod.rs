//! Notation: game-record formats turned into syntax ([`Record`]) and written back.
//!
//! Parsers never judge legality: they produce move tokens with their byte spans, and
//! [`Game::replay`](crate::core::Game::replay) decides what is legal. A square is kept as the
//! file and rank *as written*, because which row a rank names depends on the rules
//! (`rows=bottom`).

pub mod board;
pub mod check;
pub mod date;
pub mod format;
pub mod ggf;
pub mod json;
pub mod kifu;
mod numbering;
pub mod oq;
pub mod pgn;
pub mod playok;
mod property;
pub mod reader;
pub mod sgf;
pub mod shape;
pub mod transcript;
pub mod wthor;

use std::sync::Arc;

use crate::core::{Color, Game, Move, Position, Rules, Setup};

/// A byte range within a record's text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A move as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum MoveSyntax {
    /// A square: file (0 = `a`) and rank number as written (1-based).
    Square {
        /// The file, 0 = `a`.
        file: u8,
        /// The rank number as written.
        rank: u8,
    },
    /// A pass token.
    #[default]
    Pass,
}

/// One move token of a record.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct MoveToken {
    /// What was written.
    pub mv: MoveSyntax,
    /// Where.
    pub span: Span,
    /// The colour the record gives the move, if it gives one (`+d3` / `-c3`).
    pub color: Option<Color>,
    /// Whether the file letter was written in upper case (some transcripts mark colour by case).
    pub upper: bool,
    /// A comment written after the move.
    pub comment: Option<String>,
    /// An evaluation written with the move (GGF `B[d3/1.5]`), in discs for the side that moved.
    pub eval: Option<f64>,
    /// The thinking time written with the move, in seconds.
    pub time: Option<f64>,
    /// The move number written before the move (`12.`, `12...`), if one was.
    pub number: Option<MoveNumber>,
}

/// A move number as written before a move: `12.` (a move, or the pair of moves it starts) or
/// `12...` (White's move of pair 12).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveNumber {
    /// The number.
    pub value: u16,
    /// Whether it was written `12...`.
    pub continuation: bool,
    /// Where.
    pub span: Span,
}

impl MoveToken {
    /// A bare token: the move, nothing else.
    #[must_use]
    pub fn new(mv: MoveSyntax) -> MoveToken {
        MoveToken { mv, ..MoveToken::default() }
    }

    /// The bare token of `mv`, its square named under `rules` (their rank numbering).
    #[must_use]
    pub fn of_move(rules: &Rules, mv: Move) -> MoveToken {
        MoveToken::new(match mv {
            Move::Pass => MoveSyntax::Pass,
            Move::Place(sq) => {
                let (file, rank) = rules.file_and_rank(sq);
                MoveSyntax::Square { file, rank }
            }
        })
    }
}

/// A board as written: the discs by file and rank (as written, so `rows=bottom` applies when the
/// board becomes a position) and, when given, the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoardSyntax {
    /// Cells per side.
    pub size: u8,
    /// `size * size` cells in rank order: index `(rank - 1) * size + file`.
    pub cells: Vec<Option<Color>>,
    /// The side to move, if the board says.
    pub side: Option<Color>,
    /// The cells written `#` (a hole, or a cell off the board's shape), by index as in
    /// `cells` (which has them empty): the rules must not play there.
    pub unplayable: Vec<usize>,
}

impl BoardSyntax {
    /// An empty board.
    #[must_use]
    pub fn empty(size: u8) -> BoardSyntax {
        BoardSyntax {
            size,
            cells: vec![None; usize::from(size) * usize::from(size)],
            side: None,
            unplayable: Vec::new(),
        }
    }

    /// The disc at a file (0-based) and rank (1-based); `None` for an empty cell and for a
    /// file or rank the board does not have.
    #[must_use]
    pub fn get(&self, file: u8, rank: u8) -> Option<Color> {
        if file >= self.size || rank == 0 || rank > self.size {
            return None;
        }
        self.cells.get(usize::from(rank - 1) * usize::from(self.size) + usize::from(file)).copied().flatten()
    }

    /// The board of a position, written in its rules' rank numbering, its holes and cut cells
    /// unplayable (written `#`).
    #[must_use]
    pub fn of_position(position: &Position) -> BoardSyntax {
        let rules = position.rules();
        let mut board = BoardSyntax::empty(rules.size());
        board.side = Some(position.side_to_move());
        for rank in 1..=rules.size() {
            for file in 0..rules.size() {
                let index = usize::from(rank - 1) * usize::from(rules.size()) + usize::from(file);
                match rules.square_at(file, rank) {
                    Some(sq) if rules.playable().contains(sq) => board.cells[index] = position.disc(sq),
                    _ => board.unplayable.push(index),
                }
            }
        }
        board
    }

    /// The position under `rules`, with `side` to move when the board does not say.
    pub fn position(&self, rules: Arc<Rules>, side: Color) -> Result<Position, BoardError> {
        if self.size != rules.size() {
            return Err(BoardError::Size { board: self.size, rules: rules.size() });
        }
        let n = usize::from(self.size);
        if self.cells.len() != n * n {
            return Err(BoardError::Cells { cells: self.cells.len(), size: self.size });
        }
        if let Some(sq) = self.unplayable.iter().find_map(|&i| {
            rules.square_at((i % n) as u8, (i / n + 1) as u8).filter(|&sq| rules.playable().contains(sq))
        }) {
            return Err(BoardError::Played { square: rules.square_name(sq), spec: rules.variant().spec() });
        }
        let mut setup = Setup { black: vec![], white: vec![], side: self.side.unwrap_or(side) };
        for rank in 1..=self.size {
            for file in 0..self.size {
                let Some(color) = self.get(file, rank) else { continue };
                let sq = rules.square_at(file, rank).ok_or(BoardError::OffBoard)?;
                match color {
                    Color::Black => setup.black.push(sq),
                    Color::White => setup.white.push(sq),
                }
            }
        }
        Ok(Position::from_setup(rules, &setup)?)
    }
}

/// Why a written board is no position under the rules ([`BoardSyntax::position`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The board is of another size than the rules'.
    #[error("the board is {board}x{board} but the rules play on {rules}x{rules}")]
    Size {
        /// Cells per side of the board.
        board: u8,
        /// Cells per side of the rules' board.
        rules: u8,
    },
    /// A board whose cells are not `size * size` (one built by hand, its fields being public).
    #[error("the board has {cells} cells, where a {size}x{size} board has {}", usize::from(*size) * usize::from(*size))]
    Cells {
        /// The cells given.
        cells: usize,
        /// Cells per side.
        size: u8,
    },
    /// A cell written as unplayable (`#`) that the rules play on.
    #[error(
        "`#` on {square} marks a hole or a cell off the board, but the rules ({spec}) play there: give the rules \
         (--rules, or a `rules` line under a diagram)"
    )]
    Played {
        /// The cell, named under the rules.
        square: String,
        /// The rules' spec.
        spec: String,
    },
    /// A disc on a cell the rules have no square for.
    #[error("a disc off the board")]
    OffBoard,
    /// The discs make no position under the rules.
    #[error(transparent)]
    Setup(#[from] crate::core::SetupError),
}

/// A game record as syntax: tags, an optional start board, moves, and where each came from.
///
/// Tag names are kifu's, in lower case, whatever the format calls them: `black`, `white`,
/// `event`, `date`, `place`, `round`, `result` (black's disc margin, `+4`, `-12`, `0`),
/// `theoretical` (WTHOR's perfect-play margin), `rules` (a kifu rules spec), `komi`, `time`,
/// `black_rating`, `white_rating`, `comment`; anything else keeps the format's own name.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Record {
    /// Tags in the order written (`("result", "-04")`, `("black", "Logistello")`, ...).
    pub tags: Vec<(String, String)>,
    /// The start board, when the record gives one (otherwise the rules' start).
    pub start: Option<BoardSyntax>,
    /// The moves.
    pub moves: Vec<MoveToken>,
}

impl Record {
    /// The value of a tag, by name (case-insensitive).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// A player's or the event's name (`black`, `white` or `event`), its spaces as single ones
    /// and its accents composed (see [`compose_accents`]); `?` or `???` (WTHOR's unknown) is
    /// none. For a WTHOR game read without its names file, its number there instead (`WTHOR
    /// #95`; 0, WTHOR's unknown, gives none).
    #[must_use]
    pub fn name_or_number(&self, tag: &str) -> Option<String> {
        // One name however it was spaced or its accents typed; `?` and `???` name no one.
        let name = self.tag(tag).map(tidy_name);
        if let Some(name) = name.filter(|n| !n.is_empty() && !n.chars().all(|c| c == '?')) {
            return Some(name);
        }
        let numbered = match tag {
            "black" => "wthor_black",
            "white" => "wthor_white",
            "event" => "wthor_tournament",
            _ => return None,
        };
        let id = self.tag(numbered)?.parse::<u16>().ok().filter(|&id| id > 0)?;
        Some(format!("WTHOR #{id}"))
    }

    /// Names the moves' squares under the other row numbering of a board of `size` ranks (rank
    /// `r` becomes `size + 1 - r`): the same places, as a format of physical squares (WTHOR,
    /// rank 1 on top) meets rules that count ranks from the bottom.
    pub fn flip_ranks(&mut self, size: u8) {
        for token in &mut self.moves {
            if let MoveSyntax::Square { rank, .. } = &mut token.mv
                && (1..=size).contains(rank)
            {
                *rank = size + 1 - *rank;
            }
        }
    }

    /// Sets a tag, replacing an earlier value of the same name.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// Writes in what the replay of the record's moves, ending at `end`, tells and the record
    /// left unsaid: the result (black's margin) of a finished game, and the rules spec of a
    /// variant other than standard Othello. A `rules` tag that names other rules than the
    /// replay's (`--rules` given over it) is replaced, with the GGF type that went with it;
    /// other tags the record has are kept. A stated winner (PGN's `1-0`, `0-1`, `1/2-1/2`)
    /// that the board contradicts, or a result text that names none, is kept as stated, with no
    /// margin beside it: converting a record never corrects what it claims (`kifu validate`
    /// reports it); one the board agrees with gives way to the margin.
    pub fn fill_in(&mut self, end: &Position) {
        if self.tag("result").is_none()
            && let Some(outcome) = end.outcome()
        {
            // A stated winner the board agrees with, or none; a result text that names no winner
            // (`foo`, `B+R` on a finished game) stays the record's claim too. A game with komi
            // is won, and its margin stated, after the komi (as GGS states it).
            let margin = outcome.score(Color::Black);
            let komi = check::komi_of(self).flatten().unwrap_or(0.0);
            let winner = check::winner_after_komi(margin, komi);
            let agrees = self.tag("outcome").is_none_or(|o| pgn::winner(o) == Some(winner));
            if agrees {
                let result = margin_after_komi(margin, komi);
                self.set_tag("result", result);
                // (The winner stated alone says no more than the margin now beside it.)
                self.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("outcome"));
            }
        }
        let variant = end.rules().variant();
        match self.tag("rules").map(str::parse::<crate::core::Variant>) {
            None if *variant != crate::core::Variant::default() => self.set_tag("rules", variant.spec()),
            Some(tagged) if tagged.as_ref() != Ok(variant) => {
                self.set_tag("rules", variant.spec());
                self.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("ggf_type"));
            }
            _ => {}
        }
    }

    /// The record with every move's span and written move number cleared, to compare records
    /// read from different texts.
    #[must_use]
    pub fn without_layout(mut self) -> Record {
        for t in &mut self.moves {
            t.span = Span::default();
            t.number = None;
        }
        self
    }

    /// A record of `game` to write: its moves (passes as the game has them), and its start
    /// board when that is not its rules' start; no tags. [`Record::resolve`] under the game's
    /// rules and [`shape::for_format`] make it ready for a format.
    ///
    /// ```
    /// use kifu::core::{Game, Rules};
    /// use kifu::notation::{Record, format::{self, Format}, shape};
    ///
    /// let rules = Rules::othello().shared();
    /// let mut game = Game::new(rules.clone());
    /// for mv in ["f5", "d6", "c3"] {
    ///     game.push(mv.parse().unwrap());
    /// }
    /// let resolved = Record::of_game(&game).resolve(rules).unwrap();
    /// let ggf = format::write(Format::Ggf, &shape::for_format(resolved, Format::Ggf).unwrap());
    /// assert!(ggf.contains("B[f5]") && ggf.contains("W[d6]"));
    /// ```
    #[must_use]
    pub fn of_game(game: &Game) -> Record {
        let rules = game.rules();
        let start = game.start();
        let standard = Position::start(rules.clone());
        Record {
            tags: Vec::new(),
            start: (start != &standard).then(|| BoardSyntax::of_position(start)),
            moves: game.moves().iter().map(|&mv| MoveToken::of_move(rules, mv)).collect(),
        }
    }

    /// The rules the record names in its `rules` tag, if any.
    pub fn rules(&self) -> Option<Result<Rules, crate::core::RulesError>> {
        self.tag("rules").map(str::parse)
    }

    /// The rules the record is read under when no others are given: those of
    /// [`Record::implied_spec`], else standard Othello.
    pub fn implied_rules(&self) -> Result<Rules, crate::core::RulesError> {
        self.implied_spec().map_or_else(|| Ok(Rules::othello()), |spec| spec.parse())
    }

    /// The rules spec a reader gives the record when no `--rules` is given: its `rules` tag,
    /// else standard Othello on the size of its start board (that board as the rules' start on
    /// an odd size, which has no centre for the standard one); `None` for standard Othello.
    #[must_use]
    pub fn implied_spec(&self) -> Option<std::borrow::Cow<'_, str>> {
        match (self.tag("rules"), self.start.as_ref()) {
            (Some(spec), _) => Some(spec.into()),
            (None, Some(b)) if b.size % 2 == 1 => {
                let cells: String = b.cells.iter().copied().map(board::cell_char).collect();
                let first = if b.side == Some(Color::White) { ",first=white" } else { "" };
                Some(format!("othello,size={},start={cells}{first}", b.size).into())
            }
            (None, Some(b)) if b.size != 8 => Some(format!("othello,size={}", b.size).into()),
            (None, _) => None,
        }
    }

    /// The record as an unjudged game under `rules`: the start board (or the rules' start) and
    /// the moves. Errors name the token (by span) or the board that does not fit the rules.
    pub fn game(&self, rules: Arc<Rules>) -> Result<Game, SyntaxError> {
        let start = match &self.start {
            Some(board) => board
                .position(rules.clone(), rules.variant().first)
                .map_err(|message| SyntaxError { span: Span::default(), message: format!("start board: {message}") })?,
            None => Position::start(rules.clone()),
        };
        let moves = self.moves_under(&rules).map_err(|i| SyntaxError {
            span: self.moves[i].span,
            message: format!("{} is not a square of the board", self.moves[i].mv),
        })?;
        Ok(Game::from_position(start).with_moves(moves).with_colors(self.moves.iter().map(|t| t.color)))
    }

    /// The game of the moves before the first token that names no square of the board (all of
    /// them when every token does), and that token's index if there is one. A start board that
    /// does not fit the rules is still an error.
    pub fn game_before_bad_square(&self, rules: Arc<Rules>) -> Result<(Game, Option<usize>), SyntaxError> {
        let bad = self.moves_under(&rules).err();
        let prefix = match bad {
            Some(i) => Record { tags: Vec::new(), start: self.start.clone(), moves: self.moves[..i].to_vec() },
            None => return self.game(rules).map(|g| (g, None)),
        };
        prefix.game(rules).map(|g| (g, bad))
    }

    /// The moves as squares of `rules` (a rank resolves to a row by its numbering); the index of
    /// the first token that names no square of the board is the error.
    pub fn moves_under(&self, rules: &Rules) -> Result<Vec<Move>, usize> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, t)| match t.mv {
                MoveSyntax::Pass => Ok(Move::Pass),
                MoveSyntax::Square { file, rank } => rules.square_at(file, rank).map(Move::Place).ok_or(i),
            })
            .collect()
    }
}

impl std::fmt::Display for MoveSyntax {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            MoveSyntax::Pass => f.write_str("pass"),
            MoveSyntax::Square { file, rank } => write!(f, "{}{rank}", (b'a' + file) as char),
        }
    }
}

/// A syntax error at a byte offset of a record's text.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Where the problem is.
    pub span: Span,
    /// What is wrong, in words.
    pub message: String,
}

/// A record replayed under its rules: every move with the colour that played it, forced passes
/// written, the result filled in when the game is over and the record gave none.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The record, made explicit.
    pub record: Record,
    /// The position the record starts from.
    pub start: Position,
    /// The position after the last move.
    pub end: Position,
}

/// Why a record does not replay: the syntax error or the illegal move, at its token.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{message}")]
pub struct ResolveError {
    /// The token (or the record, for a bad start board) at fault.
    pub span: Span,
    /// What is wrong, in words.
    pub message: String,
    /// The illegal move, when that is the trouble.
    pub illegal: Option<crate::core::IllegalMove>,
}

impl Record {
    /// Replays the record under `rules` (legality is the core's call) and returns it made
    /// explicit; see [`Resolved`].
    pub fn resolve(&self, rules: Arc<Rules>) -> Result<Resolved, ResolveError> {
        let game =
            self.game(rules.clone()).map_err(|e| ResolveError { span: e.span, message: e.message, illegal: None })?;
        let mut moves = Vec::with_capacity(self.moves.len() + 2);
        let mut tokens = self.moves.iter();
        let replay = game
            .replay_with(crate::core::Passes::Implicit, |before, mv, _| {
                let color = Some(before.side_to_move());
                // An inserted pass has no token; every other move consumes its own.
                let written = match mv {
                    Move::Pass => tokens.as_slice().first().is_some_and(|t| t.mv == MoveSyntax::Pass),
                    Move::Place(_) => true,
                };
                let token = if written { tokens.next().cloned() } else { None };
                let mut token = token.unwrap_or_else(|| MoveToken::new(MoveSyntax::Pass));
                token.color = color;
                moves.push(token);
            })
            .map_err(|e| self.illegal(e))?;
        let mut record = Record { tags: self.tags.clone(), start: self.start.clone(), moves };
        record.fill_in(&replay.position);
        Ok(Resolved { record, start: game.start().clone(), end: replay.position })
    }

    /// The error of an illegal move found replaying this record's game: at the move's token
    /// (for a ply the record has no token of, as after moves added to the game, at no span and
    /// with the move named as the position's rules name it).
    #[must_use]
    pub fn illegal(&self, e: crate::core::IllegalMove) -> ResolveError {
        let (span, name) = match e.ply.checked_sub(1).and_then(|i| self.moves.get(i)) {
            Some(token) => (token.span, token.mv.to_string()),
            None => (Span::default(), e.position.rules().move_name(e.mv)),
        };
        ResolveError { span, message: format!("move {}, {name}, is illegal: {}", e.ply, e.reason), illegal: Some(e) }
    }
}

/// An error when more text after a game (SGF's and GGF's, which end at `end`) opens another
/// with `(;`: the parsers read one game, and a file of several is the reader's
/// ([`reader::Reader`]) to cut.
pub(crate) fn no_second_game(text: &str, end: usize) -> Result<(), SyntaxError> {
    match text[end..].find("(;") {
        Some(at) => Err(SyntaxError {
            span: Span { start: end + at, end: end + at + 2 },
            message: "a second game (one game per parse; a file of several is read with the reader)".into(),
        }),
        None => Ok(()),
    }
}

/// The ASCII form of a full-width character (`Ｆ` is `F`, `５` is `5`, as Japanese input
/// writes them); any other as it is.
pub(crate) fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// A name as kifu compares names: its spaces as single ones (none at either end), its accents
/// composed ([`compose_accents`]) and full-width letters and digits as ASCII, so
/// that `Fre\u{301}de\u{301}ric  Lee ` is `Frédéric Lee` and `Ｔａｎａｋａ` is `Tanaka`.
#[must_use]
pub fn tidy_name(text: &str) -> String {
    let narrowed: String = text.chars().map(narrow).collect();
    compose_accents(&narrowed.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The text with each letter followed by a combining accent composed with it (`e` and U+0301
/// become `é`), as Unicode's NFC composes; everything else as it was.
#[must_use]
pub fn compose_accents(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    text.nfc().collect()
}

/// Latin letters that are no letter and an accent (and so do not decompose), with the plain
/// letter a reader would write for them.
const STROKED: [(char, char); 11] = [
    ('Ł', 'L'),
    ('ł', 'l'),
    ('Đ', 'D'),
    ('đ', 'd'),
    ('Ħ', 'H'),
    ('ħ', 'h'),
    ('Ŧ', 'T'),
    ('ŧ', 't'),
    ('ı', 'i'),
    ('Ø', 'O'),
    ('ø', 'o'),
];

/// A character without its accents: a Latin letter as its plain letter (`ō` is `o`, `Ł` is `L`,
/// `é` is `e`), a full-width one as ASCII (`Ｔ` is `T`); any other as it is.
#[must_use]
pub fn plain_letter(c: char) -> char {
    use unicode_normalization::UnicodeNormalization;
    let c = narrow(c);
    if c.is_ascii() {
        return c;
    }
    if let Some(&(_, plain)) = STROKED.iter().find(|(stroked, _)| *stroked == c) {
        return plain;
    }
    // The letter Unicode decomposes it into, when the rest are combining marks.
    let mut parts = std::iter::once(c).nfd();
    match parts.next() {
        Some(base) if base.is_ascii_alphabetic() && parts.all(is_combining_mark) => base,
        _ => c,
    }
}

/// Whether `c` is a combining diacritical mark (U+0300 to U+036F).
fn is_combining_mark(c: char) -> bool {
    ('\u{300}'..='\u{36F}').contains(&c)
}

/// The text with its accented Latin letters as their plain ones (`Inês` is `Ines`, `Łukasz` is
/// `Lukasz`), full-width letters as ASCII and combining marks dropped: to tell names that may be
/// one name.
#[must_use]
pub fn without_accents(text: &str) -> String {
    compose_accents(text).chars().filter(|&c| !is_combining_mark(c)).map(plain_letter).collect()
}

/// Text from a record as it may be shown on a terminal or in XML: control characters other
/// than tab and newline (an escape sequence, a NUL) each become U+FFFD, one character for one,
/// so carets under the text stay aligned.
#[must_use]
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let shown = |c: char| !c.is_control() || c == '\t' || c == '\n';
    if text.chars().all(shown) {
        return text.into();
    }
    text.chars().map(|c| if shown(c) { c } else { '\u{FFFD}' }).collect::<String>().into()
}

/// How a game was won without a final margin: by resignation, on time, or unsaid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WinBy {
    /// The loser resigned (GGF's flag `r`, SGF's `R`).
    Resignation,
    /// The loser ran out of time (GGF's `t`, SGF's `T` or `Time`).
    Time,
    /// The loser forfeited: did not play, or left (SGF's `F` or `Forfeit`; PGN's `Termination
    /// "forfeit"` or `"abandoned"`).
    Forfeit,
    /// The record names the winner alone (SGF's `B+`, PGN's `1-0`).
    Unsaid,
}

/// A win without a margin as SGF writes it (and a kifu grid): `B+R`, `W+T`, `B+`.
#[must_use]
pub fn winner_form(winner: Color, by: WinBy) -> String {
    let by = match by {
        WinBy::Resignation => "R",
        WinBy::Time => "T",
        WinBy::Forfeit => "F",
        WinBy::Unsaid => "",
    };
    format!("{}+{by}", if winner == Color::Black { 'B' } else { 'W' })
}

/// Black's margin after `komi` points are taken from it, as a result is written: `+2` without
/// a komi, `-1` or `-22.867` with one (to three decimals, trailing zeros dropped).
#[must_use]
pub fn margin_after_komi(margin: i32, komi: f64) -> String {
    if komi == 0.0 {
        return wthor::signed(margin);
    }
    let after = format!("{:+.3}", f64::from(margin) - komi);
    after.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// How a game the record names the winner of alone was won, by its termination tag (PGN's
/// `Termination "time forfeit"`, Othello Quest's `resign`, `"forfeit"` or `"abandoned"`): on
/// time, by resignation, by forfeit, or unsaid.
#[must_use]
pub fn termination_win_by(record: &Record) -> WinBy {
    match record.tag("termination").map(str::to_ascii_lowercase).as_deref() {
        Some(t) if t.contains("time") => WinBy::Time,
        Some(t) if t.contains("resign") => WinBy::Resignation,
        Some(t) if t.contains("forfeit") || t.contains("abandon") => WinBy::Forfeit,
        _ => WinBy::Unsaid,
    }
}

/// The winner of a result that names one without a margin: GGS's flagged results (`+64.000:r`
/// black won by resignation, `-64.000:t` white on time: the sign says who), SGF's `B+R`,
/// `W+T`, `W+Time`, `B+` and PGN's `1-0`, `0-1`; `None` for anything else (margins, draws).
#[must_use]
pub fn win_without_margin(result: &str) -> Option<(Color, WinBy)> {
    let text = result.trim();
    if let Some((margin, flag)) = text.split_once(':') {
        let winner = match margin.trim().parse::<f64>().ok()? {
            m if m > 0.0 => Color::Black,
            m if m < 0.0 => Color::White,
            _ => return None,
        };
        let by = match flag.trim() {
            "r" => WinBy::Resignation,
            "t" => WinBy::Time,
            _ => return None,
        };
        return Some((winner, by));
    }
    match text {
        "1-0" => return Some((Color::Black, WinBy::Unsaid)),
        "0-1" => return Some((Color::White, WinBy::Unsaid)),
        _ => {}
    }
    let winner = match text.get(..2).map(str::to_ascii_uppercase).as_deref() {
        Some("B+") => Color::Black,
        Some("W+") => Color::White,
        _ => return None,
    };
    let by = match text[2..].to_ascii_uppercase().as_str() {
        "R" | "RESIGN" => WinBy::Resignation,
        "T" | "TIME" => WinBy::Time,
        "F" | "FORFEIT" => WinBy::Forfeit,
        "" => WinBy::Unsaid,
        _ => return None,
    };
    Some((winner, by))
}

/// The calendar date of a date written as GGS writes it, in seconds since 1970 (`940607137`:
/// 1999-10-22); `None` for any other text.
#[must_use]
pub fn ggs_date(date: &str) -> Option<(u16, u8, u8)> {
    let date = date.trim();
    if date.len() < 9 || !date.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(civil_date(date.parse::<u64>().ok()? / 86_400))
}

/// The calendar date (year, month, day; proleptic Gregorian) of a day counted from 1970-01-01,
/// for formats that store dates as day or second counts.
#[must_use]
pub fn civil_date(days_since_1970: u64) -> (u16, u8, u8) {
    // Howard Hinnant's days-to-civil algorithm.
    let z = days_since_1970 as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = (yoe + era * 400 + i64::from(month <= 2)) as u16;
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_built_by_hand_is_refused_or_read_never_a_panic() {
        let board = BoardSyntax::empty(8);
        assert_eq!((board.get(0, 0), board.get(9, 9), board.get(0, 1)), (None, None, None));
        let mut short = BoardSyntax::empty(8);
        short.cells.truncate(3);
        assert_eq!(short.get(7, 8), None);
        let err = short.position(Rules::othello().shared(), Color::Black).unwrap_err();
        assert_eq!(err, BoardError::Cells { cells: 3, size: 8 });
        assert_eq!(err.to_string(), "the board has 3 cells, where a 8x8 board has 64");
    }

    #[test]
    fn names_are_tidied_and_their_accents_taken_off_as_names_are_compared() {
        assert_eq!(tidy_name(" Fre\u{301}de\u{301}ric  Lee "), "Frédéric Lee");
        assert_eq!(tidy_name("Ｔａｎａｋａ　Ｋｅｎ"), "Tanaka Ken");
        assert_eq!(tidy_name("山田 太郎"), "山田 太郎");
        assert_eq!(without_accents("Łukasz Wiśniewski"), "Lukasz Wisniewski");
        assert_eq!(without_accents("Tōkyō Søren Inês"), "Tokyo Soren Ines");
        assert_eq!(without_accents("Groß 山田"), "Groß 山田");
        assert_eq!(plain_letter('Ｔ'), 'T');
        assert_eq!(plain_letter('é'), 'e');
        assert_eq!(plain_letter('山'), '山');
    }

    #[test]
    fn a_second_game_is_an_error_of_one_parse_as_in_pgn() {
        let one = transcript::parse("f5d6c3").unwrap();
        for format in [format::Format::Ggf, format::Format::Sgf, format::Format::Pgn] {
            let game = format::write(format, &one);
            assert!(format::parse(format, &game, format::ReadOptions::default()).is_ok(), "{format}: {game}");
            let two = format!("{game}\n{game}");
            let error = format::parse(format, &two, format::ReadOptions::default()).unwrap_err();
            assert!(error.message.contains("a second game (one game per parse"), "{format}: {error:?}");
            assert!(error.span.start > game.len() - 2, "{format}: {error:?}");
        }
    }
}
