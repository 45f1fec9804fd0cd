//! kifu: a toolkit for Reversi/Othello game records and positions.
//!
//! - [`core`]: squares, bitboards, rules for standard Othello and its variants, positions, games,
//!   symmetries and perft.
//! - [`cli`]: the `kifu` command line, one module per subcommand.

pub mod cli;
pub mod core;
