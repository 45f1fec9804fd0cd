//! Notation: game-record formats turned into syntax ([`Record`]) and written back.
//!
//! Parsers never judge legality: they produce move tokens with their byte spans, and
//! [`Game::replay`](crate::core::Game::replay) decides what is legal. A square is kept as the
//! file and rank *as written*, because which row a rank names depends on the rules
//! (`rows=bottom`).

pub mod transcript;

use crate::core::{Color, Move, Rules};

/// A byte range within a record's text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    /// The first byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// A move as written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveSyntax {
    /// A square: file (0 = `a`) and rank number as written (1-based).
    Square {
        /// The file, 0 = `a`.
        file: u8,
        /// The rank number as written.
        rank: u8,
    },
    /// A pass token.
    Pass,
}

/// One move token of a record.
#[derive(Clone, PartialEq, Eq, Debug)]
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
}

/// A game record as syntax: tags, moves, and where each came from.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Record {
    /// Tags in the order written (`("result", "-04")`, `("black", "Logistello")`, ...).
    pub tags: Vec<(String, String)>,
    /// The moves.
    pub moves: Vec<MoveToken>,
}

impl Record {
    /// The value of a tag, by name (case-insensitive).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
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

/// A syntax error at a byte offset of a record's text.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    /// Where the problem is.
    pub span: Span,
    /// What is wrong, in words.
    pub message: String,
}
