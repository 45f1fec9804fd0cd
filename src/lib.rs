//! kifu: a toolkit for Reversi/Othello game records and positions.
//!
//! - [`core`]: squares, bitboards, rules for standard Othello and its variants, positions, games,
//!   symmetries and perft.
//! - [`notation`]: game-record formats read into syntax and written back.
//! - [`cli`]: the `kifu` command line, one module per subcommand.

pub mod cli;
pub mod core;
pub mod notation;
