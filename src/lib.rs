//! kifu: a toolkit for Reversi/Othello game records and positions.
//!
//! - [`core`]: squares, bitboards, rules for standard Othello and its variants, positions, games,
//!   symmetries and perft.
//! - [`notation`]: game-record formats read into syntax and written back, and record checks.
//! - [`engine`]: the exact endgame solver, the pattern evaluation, move scores.
//! - [`export`]: rows per game, move and position for data work.
//! - [`stats`]: per-game facts and mergeable statistics (totals, openings, players, duplicates).
//! - [`render`]: SVG charts, and board diagrams (positions and kifu) as text or SVG.
//! - `cli`: the `kifu` command line, one module per subcommand (the `cli` feature, on by
//!   default; a program that uses the library alone takes `default-features = false` and none
//!   of the command line's dependencies: clap, indicatif, anyhow, csv, ctrlc).
//!
//! # Using the library
//!
//! Parsers give syntax ([`notation::Record`]: tags, a start board, move tokens with their
//! places in the text); the core replays it under [`core::Rules`] and decides what is legal.
//!
//! ```
//! use kifu::core::{Color, Move, Rules};
//! use kifu::notation::transcript;
//!
//! // A transcript, replayed under standard Othello: the position it reaches.
//! let rules = Rules::othello().shared();
//! let record = transcript::parse("f5d6c3d3c4").unwrap();
//! let position = record.resolve(rules.clone()).unwrap().end;
//! assert_eq!(position.side_to_move(), Color::White);
//! let moves = position.legal_moves();
//! assert!(moves.contains(&Move::Place("f4".parse().unwrap())));
//! let next = position.play(moves[0]).unwrap();
//! assert!(!next.is_game_over());
//!
//! // An illegal move is reported with its ply, its place in the text and the position.
//! let error = transcript::parse("f5d6a1").unwrap().resolve(rules).unwrap_err();
//! assert_eq!(error.span.start, 4);
//! let illegal = error.illegal.unwrap();
//! assert_eq!((illegal.ply, illegal.position.empties()), (3, 58));
//! ```
//!
//! Any format by name ([`notation::format`]), variants by their spec, and the exact solver
//! ([`engine::solve::Solver`], 8x8; [`engine::scores::MoveScorer`] scores every move of any
//! variant):
//!
//! ```
//! use kifu::core::{Position, Rules};
//! use kifu::engine::solve::{Counting, Solver};
//! use kifu::notation::format::{self, Format, ReadOptions};
//!
//! // FFO #1 (14 empties): g8 wins by 18.
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
//! let record = format::parse(Format::Obf, line, ReadOptions::default()).unwrap();
//! let position = record.resolve(Rules::othello().shared()).unwrap().end;
//! let mut solver = Solver::new(16, Counting::EmptiesToWinner);
//! let solution = solver.solve(&position).unwrap();
//! assert_eq!(solution.score, 18);
//! assert_eq!(solution.best.map(|m| m.to_string()).as_deref(), Some("g8"));
//!
//! // Anti-reversi on 6x6: the rules spec the command line's --rules takes.
//! let anti: Rules = "anti,size=6".parse().unwrap();
//! assert_eq!(Position::start(anti.shared()).legal_moves().len(), 4);
//!
//! // Written back in another format.
//! assert!(format::write(Format::Ggf, &record).starts_with("(;GM[Othello]"));
//! ```
//!
//! Squares, moves and colours print, parse and serialise (serde) as their text (`f5`, `pass`,
//! `black`). Squares print with rank 1 as the top row; under rules that number ranks from the bottom,
//! name them with [`core::Rules::move_name`] and read them with [`core::Rules::parse_square`].
//! Reading whole files (format sniffing, gzip, WTHOR headers and names) is
//! [`notation::reader::Records`] (parsed records, each error located in its file) or
//! [`notation::reader::Reader`] (their text); a game played move by move becomes a record with
//! [`notation::Record::of_game`], and a replayed record is made ready for a format by
//! [`notation::shape::for_format`] before [`notation::format::write`].
//!
//! The bitboard kernels are chosen when kifu is compiled (`target_feature`): a program that
//! depends on kifu gets the portable ones unless it is built with the CPU's features, e.g.
//! `RUSTFLAGS="-C target-cpu=native"` (see the README's "CPU features").

#[cfg(feature = "cli")]
pub mod cli;
pub mod core;
pub mod engine;
pub mod export;
pub mod notation;
pub mod render;
pub mod stats;
