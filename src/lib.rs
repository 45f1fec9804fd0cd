//! kifu: a toolkit for Reversi/Othello game records and positions.
//!
//! - [`core`]: squares, bitboards, rules for standard Othello and its variants, positions, games,
//!   symmetries and perft.
//! - [`notation`]: game-record formats read into syntax and written back, and record checks.
//! - [`engine`]: the exact endgame solver, the pattern evaluation, move scores.
//! - [`export`]: rows per game, move and position for data work.
//! - [`stats`]: per-game facts and mergeable statistics (totals, openings, players, duplicates).
//! - [`render`]: SVG charts, and board diagrams (positions and kifu) as text or SVG.
//! - [`cli`]: the `kifu` command line, one module per subcommand.

pub mod cli;
pub mod core;
pub mod engine;
pub mod export;
pub mod notation;
pub mod render;
pub mod stats;
