//! Scores of every legal move of a position, for annotated diagrams: exact from the endgame
//! solver when the position has few enough empty squares, else from the depth-limited search;
//! positions of other variants than standard 8x8 from the generic engine.

use crate::core::{Move, Position};
use crate::engine::generic::{self, GenericSearcher};
use crate::engine::solve::{Estimate, Limits, SolveError, Solver, SolverSet, probcut_for};

/// One legal move and its score: the final disc margin for the side to move after playing it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveScore {
    /// The move (a pass when the side to move must pass).
    pub mv: Move,
    /// The margin in discs for the side to move (exact, or an estimate rounded to a disc).
    pub score: i32,
    /// Whether the score is exact (solved, or the search reached the end of the game).
    pub exact: bool,
    /// Moves searched ahead after the move; the empty squares when exact.
    pub depth: u32,
}

/// Why moves could not be scored.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ScoreError {
    /// The game is over: there is no move to score.
    #[error("the game is over")]
    GameOver,
    /// The engine stopped.
    #[error(transparent)]
    Engine(#[from] SolveError),
}

/// How deep [`MoveScorer`] looks.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Settings {
    /// Moves into positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// Moves searched ahead after the move scored, before that.
    pub depth: u32,
    /// The depth-limited search's ProbCut width ([`crate::engine::solve::probcut_for`]; none:
    /// no pruning).
    pub probcut: Option<f64>,
}

impl Default for Settings {
    /// Those of `kifu annotate`: exact from 18 empty squares, 10 moves ahead at 87%.
    fn default() -> Settings {
        Settings { exact_empties: 18, depth: 10, probcut: probcut_for(87).ok().flatten() }
    }
}

/// Scores the moves of positions with a [`Solver`] per scoring, or the [`GenericSearcher`] for
/// other variants, whose tables are kept from one position to the next.
pub struct MoveScorer {
    settings: Settings,
    generic_settings: Settings,
    solvers: SolverSet,
    generic: Option<GenericSearcher>,
    hash_mb: usize,
}

impl MoveScorer {
    /// A scorer searching as `settings` say, with a table of about `hash_mb` MiB (made on first
    /// use for each scoring).
    #[must_use]
    pub fn new(hash_mb: usize, settings: Settings) -> MoveScorer {
        let generic_settings =
            Settings { exact_empties: generic::DEFAULT_EXACT_EMPTIES, depth: generic::DEFAULT_DEPTH, probcut: None };
        let solvers = SolverSet::new(hash_mb, 1, settings.probcut, None);
        MoveScorer { settings, generic_settings, solvers, generic: None, hash_mb }
    }

    /// The same, searching positions of other variants with these `exact_empties` and `depth`
    /// (default [`generic::DEFAULT_EXACT_EMPTIES`] and [`generic::DEFAULT_DEPTH`]; the generic
    /// engine does not prune selectively).
    #[must_use]
    pub fn with_generic(mut self, exact_empties: u32, depth: u32) -> MoveScorer {
        self.generic_settings = Settings { exact_empties, depth, probcut: None };
        self
    }

    /// Every legal move of `position` with its score, best first (ties in board order), as `kifu
    /// annotate` values a move, by the position it leads to: exact when that position has at
    /// most [`Settings::exact_empties`] empty squares, else searched [`Settings::depth`] moves
    /// ahead from there (exact all the same when that reaches the end).
    ///
    /// Positions of other variants go to the generic engine with the settings of
    /// [`MoveScorer::with_generic`].
    ///
    /// # Errors
    /// [`ScoreError::GameOver`] for a finished game.
    pub fn score(&mut self, position: &Position) -> Result<Vec<MoveScore>, ScoreError> {
        if position.is_game_over() {
            return Err(ScoreError::GameOver);
        }
        let Some(counting) = Solver::counting_for(position) else { return self.score_generic(position) };
        let solver = self.solvers.get(counting);
        let empties = position.empties();
        if exact_after(position, self.settings.exact_empties) {
            let moves = solver.solve_moves_with(position, Limits::default())?;
            return Ok(moves
                .into_iter()
                .map(|(mv, score)| MoveScore { mv, score, exact: true, depth: empties })
                .collect());
        }
        // Each move by the search `kifu annotate` runs on the position it leads to (deepening
        // one move at a time), so that both give a move the same value.
        let mut moves = Vec::new();
        for mv in position.legal_moves() {
            let child = position.clone().play(mv).map_err(|_| SolveError::IllegalMove(mv))?;
            let (units, score) = match child.outcome() {
                Some(outcome) => {
                    let score = outcome.score(position.side_to_move());
                    (score * crate::engine::eval::SCALE, MoveScore { mv, score, exact: true, depth: 0 })
                }
                None => {
                    let e = solver.search_with(&child, self.settings.depth, Limits::default())?;
                    (-e.units, MoveScore { mv, score: -e.score, exact: e.exact, depth: e.depth })
                }
            };
            moves.push((units, score));
        }
        // Best first; ties in board order (the legal moves' order).
        moves.sort_by_key(|(units, _)| std::cmp::Reverse(*units));
        Ok(moves.into_iter().map(|(_, score)| score).collect())
    }

    /// The best line from `position` and its value: solved when the position has at most
    /// [`Settings::exact_empties`] empty squares, else searched [`Settings::depth`] moves ahead
    /// (exact all the same when that reaches the end). Positions of other variants go to the
    /// generic engine with the settings of [`MoveScorer::with_generic`].
    ///
    /// # Errors
    /// [`ScoreError::GameOver`] for a finished game.
    pub fn line(&mut self, position: &Position) -> Result<Estimate, ScoreError> {
        if position.is_game_over() {
            return Err(ScoreError::GameOver);
        }
        let empties = position.empties();
        let Some(counting) = Solver::counting_for(position) else {
            let settings = self.generic_settings;
            let hash_mb = self.hash_mb;
            let searcher = self.generic.get_or_insert_with(|| GenericSearcher::new(hash_mb));
            let depth = if empties <= settings.exact_empties { empties } else { settings.depth };
            return Ok(searcher.search_with(position, depth, Limits::default())?);
        };
        let depth = if empties <= self.settings.exact_empties { empties } else { self.settings.depth };
        Ok(self.solvers.get(counting).search_with(position, depth, Limits::default())?)
    }

    /// [`MoveScorer::score`] for a position of another variant than standard 8x8.
    fn score_generic(&mut self, position: &Position) -> Result<Vec<MoveScore>, ScoreError> {
        let settings = self.generic_settings;
        let hash_mb = self.hash_mb;
        let searcher = self.generic.get_or_insert_with(|| GenericSearcher::new(hash_mb));
        let empties = position.empties();
        let depth = if exact_after(position, settings.exact_empties) { empties } else { settings.depth + 1 };
        let moves = searcher.search_moves_with(position, depth, Limits::default())?;
        Ok(moves
            .into_iter()
            .map(|(mv, e)| MoveScore {
                mv,
                score: e.score,
                exact: e.exact,
                depth: if e.exact { empties } else { e.depth.saturating_sub(1) },
            })
            .collect())
    }
}

/// Whether the moves of `position` lead into the part solved exactly: a placement leaves one
/// empty square fewer (a pass, the only move then, leaves as many).
fn exact_after(position: &Position, exact_empties: u32) -> bool {
    let placements = position.legal_moves().iter().any(|m| matches!(m, Move::Place(_)));
    position.empties() - u32::from(placements) <= exact_empties
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Rules, Setup, Square};

    fn play(moves: &str) -> Position {
        let mut pos = Position::start(Rules::othello().shared());
        for m in moves.as_bytes().chunks(2) {
            let sq: Square = std::str::from_utf8(m).unwrap().parse().unwrap();
            pos.play_mut(Move::Place(sq)).unwrap();
        }
        pos
    }

    #[test]
    fn the_opening_moves_are_searched_and_symmetric() {
        let settings = Settings { depth: 4, ..Settings::default() };
        let scores = MoveScorer::new(1, settings).score(&play("")).unwrap();
        assert_eq!(scores.len(), 4);
        assert!(scores.iter().all(|s| !s.exact && s.depth == 4));
        // The four first moves are symmetric, so the search gives them one score.
        assert!(scores.iter().all(|s| s.score == scores[0].score), "{scores:?}");
    }

    #[test]
    fn small_positions_are_solved_and_agree_with_the_solver() {
        // Game 1 of the wthor sample after 48 moves: 12 empty squares.
        let pos =
            play("f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1");
        assert_eq!(pos.empties(), 12);
        let scores = MoveScorer::new(8, Settings::default()).score(&pos).unwrap();
        assert!(scores.iter().all(|s| s.exact && s.depth == 12));
        let best = Solver::new(8, crate::engine::solve::Counting::EmptiesToWinner).solve(&pos).unwrap().score;
        assert_eq!(scores[0].score, best);
        assert!(scores.windows(2).all(|w| w[0].score >= w[1].score), "best first");
        // Under a lower limit the same position is searched 4 moves ahead instead.
        let settings = Settings { exact_empties: 10, depth: 4, probcut: None };
        let estimates = MoveScorer::new(8, settings).score(&pos).unwrap();
        assert!(estimates.iter().all(|s| !s.exact && s.depth == 4));
        let mut a: Vec<Move> = scores.iter().map(|s| s.mv).collect();
        let mut b: Vec<Move> = estimates.iter().map(|s| s.mv).collect();
        a.sort_by_key(|m| m.square());
        b.sort_by_key(|m| m.square());
        assert_eq!(a, b, "the same legal moves");
    }

    #[test]
    fn other_variants_are_scored_by_the_generic_engine_and_finished_games_declined() {
        let mut scorer = MoveScorer::new(1, Settings::default()).with_generic(12, 2);
        // 6x6 from the start: 32 empties, searched two moves ahead; the four moves symmetric.
        let six = Position::start("othello,size=6".parse::<Rules>().unwrap().shared());
        let scores = scorer.score(&six).unwrap();
        assert_eq!(scores.len(), 4);
        assert!(scores.iter().all(|s| !s.exact && s.depth == 2 && s.score == scores[0].score), "{scores:?}");
        // 4x4: 12 empties, solved; the best move's score is the generic engine's exact value.
        let four = Position::start("othello,size=4".parse::<Rules>().unwrap().shared());
        let scores = scorer.score(&four).unwrap();
        let exact = GenericSearcher::new(1).solve_with(&four, Limits::default()).unwrap();
        assert!(scores.iter().all(|s| s.exact && s.depth == 12), "{scores:?}");
        assert_eq!(scores[0].score, exact.score);
        let setup = Setup { black: (0..64).map(Square::from_bit8).collect(), white: vec![], side: Color::White };
        let full = Position::from_setup(Rules::othello().shared(), &setup).unwrap();
        assert_eq!(scorer.score(&full), Err(ScoreError::GameOver));
    }
}
