//! The engine for every variant: a simple evaluation built from the board's own geometry and a
//! depth-limited search over the general rules core ([`crate::core::Position`]).
//!
//! The 8x8 engine ([`crate::engine::solve::Solver`]) plays standard Othello only; this one plays
//! any board size, shape, holes, start, placement, pass, supply and scoring rule kifu knows, more
//! slowly. [`GenericEval`] scores a position from mobility, corner-like squares, stable discs,
//! frontier discs, parity and the disc count; [`GenericSearcher`] runs principal-variation search
//! with iterative deepening and a transposition table on it, and is exact where its depth
//! reaches the end of the game.

mod eval;
mod narrow;
mod search;

pub use eval::{Features, GenericEval, Geometry};
pub use search::{GenericAnalyst, GenericSearcher};

/// Empty squares from which the commands solve positions of other variants exactly unless told
/// otherwise (fewer than for 8x8: this engine is slower).
pub const DEFAULT_EXACT_EMPTIES: u32 = 14;
/// Moves the commands search ahead in positions of other variants unless told otherwise.
pub const DEFAULT_DEPTH: u32 = 6;
