//! Scores of every legal move of a position, for annotated diagrams: exact from the endgame
//! solver when the position has few enough empty squares, else estimates from the depth-limited
//! search.

use crate::core::{Move, Position};
use crate::engine::solve::{Limits, SolveError, Solver, probcut_for};

/// One legal move and its score: the final disc margin for the side to move after playing it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveScore {
    /// The move (a pass when the side to move must pass).
    pub mv: Move,
    /// The margin in discs for the side to move (exact, or an estimate rounded to a disc).
    pub score: i32,
    /// Whether the score is exact (solved, or the move ends the game) rather than estimated.
    pub exact: bool,
}

/// Why moves could not be scored.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ScoreError {
    /// The engine does not play these rules.
    #[error("the engine plays standard 8x8 Othello only")]
    Unsupported,
    /// The game is over: there is no move to score.
    #[error("the game is over")]
    GameOver,
}

/// Moves searched ahead for the estimates (with ProbCut at 87%).
pub const ESTIMATE_DEPTH: u32 = 10;

/// Scores the moves of positions, exactly up to a number of empty squares, else by a search
/// [`ESTIMATE_DEPTH`] moves ahead; the solver's table is kept from one position to the next.
pub struct MoveScorer {
    hash_mb: usize,
    exact_empties: u32,
    solver: Option<Solver>,
}

impl MoveScorer {
    /// A scorer that solves positions with at most `exact_empties` empty squares, with a table
    /// of about `hash_mb` MiB (made on first use).
    #[must_use]
    pub fn new(hash_mb: usize, exact_empties: u32) -> MoveScorer {
        MoveScorer { hash_mb, exact_empties, solver: None }
    }

    /// Every legal move of `position` with its score, best first (ties in board order): exact
    /// when the position has at most the scorer's empty squares, else estimated.
    pub fn score(&mut self, position: &Position) -> Result<Vec<MoveScore>, ScoreError> {
        let counting = Solver::counting_for(position).ok_or(ScoreError::Unsupported)?;
        if position.bitboards().is_none() {
            return Err(ScoreError::Unsupported);
        }
        if position.is_game_over() {
            return Err(ScoreError::GameOver);
        }
        if self.solver.as_ref().is_none_or(|s| s.counting() != counting) {
            let probcut = probcut_for(87).ok().flatten();
            self.solver = Some(Solver::new(self.hash_mb, counting).with_probcut(probcut));
        }
        let Some(solver) = self.solver.as_mut() else { return Err(ScoreError::Unsupported) };
        match solver.solve_moves_with(position, Limits { empties: Some(self.exact_empties), ..Limits::default() }) {
            Ok(moves) => Ok(moves.into_iter().map(|(mv, score)| MoveScore { mv, score, exact: true }).collect()),
            Err(SolveError::TooManyEmpties { .. }) => {
                let moves = solver
                    .search_moves_with(position, ESTIMATE_DEPTH, Limits::default())
                    .map_err(|_| ScoreError::Unsupported)?;
                Ok(moves.into_iter().map(|(mv, e)| MoveScore { mv, score: e.score, exact: e.exact }).collect())
            }
            Err(_) => Err(ScoreError::Unsupported),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Rules, Square};

    fn play(moves: &str) -> Position {
        let mut pos = Position::start(Rules::othello().shared());
        for m in moves.as_bytes().chunks(2) {
            let sq: Square = std::str::from_utf8(m).unwrap().parse().unwrap();
            pos.play_mut(Move::Place(sq)).unwrap();
        }
        pos
    }

    #[test]
    fn the_opening_moves_are_estimated_and_symmetric() {
        let scores = MoveScorer::new(1, 18).score(&play("")).unwrap();
        assert_eq!(scores.len(), 4);
        assert!(scores.iter().all(|s| !s.exact));
        // The four first moves are symmetric, so the search gives them one score.
        assert!(scores.iter().all(|s| s.score == scores[0].score), "{scores:?}");
    }

    #[test]
    fn small_positions_are_solved_and_agree_with_the_solver() {
        // Game 1 of the wthor sample after 48 moves: 12 empty squares.
        let pos =
            play("f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1");
        assert_eq!(pos.empties(), 12);
        let scores = MoveScorer::new(8, 18).score(&pos).unwrap();
        assert!(scores.iter().all(|s| s.exact));
        let best = Solver::new(8, crate::engine::solve::Counting::EmptiesToWinner).solve(&pos).unwrap().score;
        assert_eq!(scores[0].score, best);
        assert!(scores.windows(2).all(|w| w[0].score >= w[1].score), "best first");
        // Below the limit the same position is estimated instead.
        let estimates = MoveScorer::new(8, 10).score(&pos).unwrap();
        assert!(estimates.iter().all(|s| !s.exact));
        let mut a: Vec<Move> = scores.iter().map(|s| s.mv).collect();
        let mut b: Vec<Move> = estimates.iter().map(|s| s.mv).collect();
        a.sort_by_key(|m| m.square());
        b.sort_by_key(|m| m.square());
        assert_eq!(a, b, "the same legal moves");
    }

    #[test]
    fn other_rules_and_finished_games_are_declined() {
        let six = Position::start("othello,size=6".parse::<Rules>().unwrap().shared());
        assert_eq!(MoveScorer::new(1, 18).score(&six), Err(ScoreError::Unsupported));
        let full = Position::from_setup(
            Rules::othello().shared(),
            &crate::core::Setup { black: (0..64).map(Square::from_bit8).collect(), white: vec![], side: Color::White },
        )
        .unwrap();
        assert_eq!(MoveScorer::new(1, 18).score(&full), Err(ScoreError::GameOver));
    }
}
