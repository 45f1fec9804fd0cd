//! Squares, colours and moves.

use std::fmt;
use std::str::FromStr;

/// The largest board side kifu supports (files `a..p`, ranks `1..16`).
pub const MAX_SIZE: u8 = 16;

/// A cell of a board up to 16x16, addressed by file (column, `a` = 0) and row (0 = the top row).
///
/// Rows are stored from the top. A rank number is a *name* for a row: with the standard Othello
/// numbering rank 1 is row 0; with ranks numbered from the bottom (see
/// [`RowNumbering`](crate::core::RowNumbering)) the name depends on the board size, so that
/// conversion lives on [`Rules`](crate::core::Rules). [`Square`]'s own `Display`/`FromStr` use
/// the standard numbering (`a1` is the top-left cell).
///
/// ```text
///   a  b  c  d ...
/// 1 a1 b1 c1 d1
/// 2 a2 b2 ...
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// `Square(f5)`: the standard name (rank 1 the top row), so that moves and variations print
/// readably.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

impl Square {
    /// The square at `file` (0 = `a`) and `row` (0 = the top row). Both must be below 16.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, row: u8) -> Square {
        assert!(file < MAX_SIZE && row < MAX_SIZE);
        Square(row << 4 | file)
    }

    /// The square at `file` and `row`, or `None` when either is 16 or more.
    #[inline]
    #[must_use]
    pub const fn try_new(file: u8, row: u8) -> Option<Square> {
        if file < MAX_SIZE && row < MAX_SIZE { Some(Square(row << 4 | file)) } else { None }
    }

    /// The square with this dense index (`row * 16 + file`, 0..256).
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The dense index `row * 16 + file` (0..256).
    #[inline]
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file (column), 0 = `a`.
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 15
    }

    /// The row counted from the top, 0 = the top row.
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 >> 4
    }

    /// The bit of this square on an 8x8 bitboard (`row * 8 + file`), if it lies within 8x8.
    #[inline]
    #[must_use]
    pub const fn bit8(self) -> Option<u32> {
        if self.file() < 8 && self.row() < 8 { Some((self.row() * 8 + self.file()) as u32) } else { None }
    }

    /// The square of bit `bit` (0..64) of an 8x8 bitboard; `bit` must be below 64.
    #[inline]
    #[must_use]
    pub const fn from_bit8(bit: u32) -> Square {
        debug_assert!(bit < 64, "an 8x8 bitboard has bits 0..64");
        Square::new((bit & 7) as u8, (bit >> 3) as u8)
    }

    /// Parses a file letter and a rank number as written, case-insensitively (`c4`, `C4`, `p16`),
    /// returning the file and the rank number (1-based) without deciding which row it names.
    pub fn parse_name(text: &str) -> Result<(u8, u8), ParseSquareError> {
        let bytes = text.as_bytes();
        let err = || ParseSquareError(text.to_owned());
        let (&letter, digits) = bytes.split_first().ok_or_else(err)?;
        let file = match letter.to_ascii_lowercase() {
            l @ b'a'..=b'p' => l - b'a',
            _ => return Err(err()),
        };
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err());
        }
        if digits[0] == b'0' {
            return Err(err());
        }
        let rank = digits.iter().fold(0u8, |acc, d| acc * 10 + (d - b'0'));
        if rank == 0 || rank > MAX_SIZE {
            return Err(err());
        }
        Ok((file, rank))
    }

    /// The file letter, lower case.
    #[must_use]
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.row() + 1)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses a square with rank 1 as the top row (`a1` top-left), case-insensitively.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let (file, rank) = Square::parse_name(s)?;
        Ok(Square::new(file, rank - 1))
    }
}

/// A text that does not name a square (`a1` to `p16`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (a file a-p and a rank 1-16, like f5)")]
pub struct ParseSquareError(pub String);

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// Black (moves first in standard Othello).
    Black,
    /// White.
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for black, 1 for white.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The name in lower case (`black`, `white`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Color, String> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(format!("`{s}` is not a colour (black or white)")),
        }
    }
}

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a disc on this square.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl Move {
    /// The square of a placement, `None` for a pass.
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    /// A placement prints as its square with the standard numbering, a pass as `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a move as it prints: a square with rank 1 as the top row (`f5`, any case), or
    /// `pass` (also `PA`, `PS`, `--` and `@@`, as GGF, transcripts and PGN write one). Other
    /// notations, with their rules' numbering, are the parsers' (`crate::notation`).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let s = s.trim();
        if ["pass", "pa", "ps", "--", "@@"].iter().any(|p| s.eq_ignore_ascii_case(p)) {
            return Ok(Move::Pass);
        }
        s.parse().map(Move::Place).map_err(|_| ParseMoveError(s.to_owned()))
    }
}

/// Serialises as its text (`f5`, `pass`, `black`), and reads back from it: a web service's
/// JSON names squares, moves and colours as people write them.
macro_rules! serde_as_text {
    ($($t:ty),*) => {$(
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$t, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

serde_as_text!(Square, Move, Color);

/// A text that does not name a move (a square `a1` to `p16`, or `pass`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a move (a square like f5, or pass)")]
pub struct ParseMoveError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_case_insensitively() {
        for row in 0..16 {
            for file in 0..16 {
                let sq = Square::new(file, row);
                assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
                assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
            }
        }
        assert_eq!("F5".parse::<Square>(), Ok(Square::new(5, 4)));
        assert_eq!("p16".parse::<Square>(), Ok(Square::new(15, 15)));
    }

    #[test]
    fn bad_square_names_are_rejected() {
        for bad in ["", "a", "a0", "a17", "q1", "1a", "a01", "aa1", "a1x", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_parse_as_they_print() {
        for mv in [Move::Pass, Move::Place(Square::new(5, 4)), Move::Place(Square::new(15, 15))] {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
        for pass in ["PA", "ps", "--", "@@", "Pass"] {
            assert_eq!(pass.parse::<Move>(), Ok(Move::Pass), "{pass}");
        }
        assert_eq!(" F5 ".parse::<Move>(), Ok(Move::Place(Square::new(5, 4))));
        assert_eq!("x9".parse::<Move>(), Err(ParseMoveError("x9".into())));
    }

    #[test]
    fn squares_moves_and_colours_serialise_as_their_text() {
        let moves = vec![Move::Place(Square::new(5, 4)), Move::Pass];
        let json = serde_json::to_string(&(Square::new(0, 0), &moves, Color::White)).unwrap();
        assert_eq!(json, r#"["a1",["f5","pass"],"white"]"#);
        let back: (Square, Vec<Move>, Color) = serde_json::from_str(&json).unwrap();
        assert_eq!(back, (Square::new(0, 0), moves, Color::White));
        let bad = serde_json::from_str::<Move>(r#""z9""#).unwrap_err().to_string();
        assert!(bad.contains("`z9` is not a move"), "{bad}");
    }

    #[test]
    fn bit8_round_trips() {
        for bit in 0..64 {
            assert_eq!(Square::from_bit8(bit).bit8(), Some(bit));
        }
        assert_eq!(Square::new(8, 0).bit8(), None);
    }
}
