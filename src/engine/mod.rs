//! Engines: the exact endgame solver, the pattern evaluation and its trainer, and the scores of
//! a position's moves (midgame search to come).

pub mod analysis;
pub mod eval;
pub mod scores;
pub mod search;
pub mod solve;
mod stability;
mod table;
pub mod train;
