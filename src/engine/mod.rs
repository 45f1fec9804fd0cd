//! Engines: the exact endgame solver and the depth-limited search, the pattern evaluation and
//! its trainer, the scores of a position's moves, and the analysis of whole games.

pub mod analysis;
pub mod eval;
pub mod generic;
pub mod scores;
pub mod search;
pub mod solve;
mod stability;
mod table;
pub mod train;
