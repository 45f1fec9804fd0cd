//! Engines: the exact endgame solver (midgame search and evaluation to come).

pub mod solve;
mod stability;
mod table;
