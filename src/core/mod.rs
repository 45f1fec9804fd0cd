//! The rules core: squares, bitboards, rules and variants, positions, games, symmetry, perft.
//!
//! Legality lives here and only here: parsers produce moves, [`Game::replay`] judges them.

pub mod bitboard;
pub mod diagnose;
mod game;
pub mod perft;
mod position;
pub mod quick;
mod rules;
mod square;
mod symmetry;
mod wide;

pub use bitboard::Bitboard;
pub use game::{Game, IllegalMove, Passes, Replay};
pub use position::{FEW_PLACEMENTS, IllegalReason, Outcome, PlayError, Position, Setup, SetupError, Unreachable};
pub use rules::{
    Holes, KEYS, Key, PRESETS, PassRule, Placement, Preset, RowNumbering, Rules, RulesError, Scoring, Shape, Start,
    Supply, TieRule, Variant, a_board_size, splitmix64,
};
pub use square::{Color, MAX_SIZE, Move, ParseMoveError, ParseSquareError, Square};
pub use symmetry::{Symmetry, preserves_start};
pub use wide::WideBits;
