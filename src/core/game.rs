//! Games: rules, a start position and a list of moves, replayed through the rules.

use std::sync::Arc;

use super::position::{IllegalReason, Outcome, Position};
use super::rules::Rules;
use super::square::{Color, Move};

/// How a replay treats passes that the record leaves out.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Passes {
    /// Passes must be written in the record.
    Explicit,
    /// A forced pass is inserted where the side to move has no placement and the record goes
    /// on with a placement (WTHOR, most transcripts).
    #[default]
    Implicit,
}

/// A game record as moves: syntax that has not been judged yet. [`Game::replay`] judges it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    colors: Vec<Option<Color>>,
}

/// The first move of a game that the rules reject.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: {} is illegal: {reason}", position.rules().move_name(*mv))]
pub struct IllegalMove {
    /// The 1-based index of the move in the record (passes count when they are written).
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalReason,
    /// The position it was tried on, unchanged.
    pub position: Box<Position>,
}

/// What a replay found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The position after the last move.
    pub position: Position,
    /// Passes played, written or inserted.
    pub passes: usize,
    /// Passes inserted because the record left them out.
    pub inferred_passes: usize,
}

impl Replay {
    /// The outcome, if the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome()
    }
}

impl Game {
    /// A game from the start position of `rules`, with no moves yet.
    #[must_use]
    pub fn new(rules: Arc<Rules>) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from any position, with no moves yet.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game { start, moves: Vec::new(), colors: Vec::new() }
    }

    /// The game with these moves appended, unchecked.
    #[must_use]
    pub fn with_moves(mut self, moves: impl IntoIterator<Item = Move>) -> Game {
        self.moves.extend(moves);
        self
    }

    /// The game with the colour the record gives each move (`None` where it gives none), one
    /// per move; replay then checks them and infers a forced pass where the colour shows one.
    #[must_use]
    pub fn with_colors(mut self, colors: impl IntoIterator<Item = Option<Color>>) -> Game {
        self.colors = colors.into_iter().collect();
        self
    }

    /// Appends a move, unchecked ([`Game::play`] checks it).
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Appends a move if the rules allow it after the moves so far (replayed with `passes`), and
    /// returns the position after it. The error is the first illegal move: the new one, or one
    /// already in the record; the game is then unchanged. A pass the record leaves out is
    /// inserted before the move as [`Game::replay`] inserts it (with [`Passes::Implicit`]).
    pub fn play(&mut self, mv: Move, passes: Passes) -> Result<Position, IllegalMove> {
        self.moves.push(mv);
        match self.replay(passes) {
            Ok(replay) => Ok(replay.position),
            Err(error) => {
                self.moves.pop();
                self.colors.truncate(self.moves.len());
                Err(error)
            }
        }
    }

    /// Takes back the last recorded move (and the colour the record gave it), if any.
    pub fn pop(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.colors.truncate(self.moves.len());
        Some(mv)
    }

    /// The position after the first `plies` recorded moves (all of them when `plies` is larger),
    /// replayed with `passes`; a pass inserted before a move counts with that move.
    pub fn position_at(&self, plies: usize, passes: Passes) -> Result<Position, IllegalMove> {
        let first = Game {
            start: self.start.clone(),
            moves: self.moves[..plies.min(self.moves.len())].to_vec(),
            colors: self.colors.iter().copied().take(plies).collect(),
        };
        first.replay(passes).map(|replay| replay.position)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Arc<Rules> {
        self.start.rules()
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves as recorded.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Replays the moves, calling `visit` with each move played (inserted passes included),
    /// the position before it and the discs it flipped; stops at the first illegal move.
    pub fn replay_with(
        &self,
        passes: Passes,
        mut visit: impl FnMut(&Position, Move, u32),
    ) -> Result<Replay, IllegalMove> {
        let mut position = self.start.clone();
        let (mut played_passes, mut inferred) = (0, 0);
        for (i, &mv) in self.moves.iter().enumerate() {
            let said = self.colors.get(i).copied().flatten();
            let wrong_side = said.is_some_and(|c| c != position.side_to_move());
            // A pass the record leaves out: forced (a placement with none at hand), or, where
            // the rules let a player pass at will, any move the record gives to the other side.
            if passes == Passes::Implicit
                && position.check(Move::Pass).is_ok()
                && (wrong_side || (matches!(mv, Move::Place(_)) && !position.has_placement()))
            {
                let before = position.clone();
                position.play_mut(Move::Pass).expect("checked");
                visit(&before, Move::Pass, 0);
                played_passes += 1;
                inferred += 1;
            }
            if let Some(c) = said.filter(|&c| c != position.side_to_move()) {
                let reason = IllegalReason::WrongColor(c);
                return Err(IllegalMove { ply: i + 1, mv, reason, position: Box::new(position) });
            }
            let before = position.clone();
            match position.play_mut(mv) {
                Ok(flipped) => visit(&before, mv, flipped),
                Err(reason) => return Err(IllegalMove { ply: i + 1, mv, reason, position: Box::new(before) }),
            }
            if mv == Move::Pass {
                played_passes += 1;
            }
        }
        Ok(Replay { position, passes: played_passes, inferred_passes: inferred })
    }

    /// Replays the moves; the first illegal one is an error that keeps the position.
    pub fn replay(&self, passes: Passes) -> Result<Replay, IllegalMove> {
        self.replay_with(passes, |_, _, _| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Color, Position, Square};

    fn moves(text: &str) -> Vec<Move> {
        text.as_bytes()
            .chunks(2)
            .map(|c| Move::Place(std::str::from_utf8(c).unwrap().parse::<Square>().unwrap()))
            .collect()
    }

    /// The error names the move as the rules do: under ranks numbered from the bottom, `a1`
    /// is the bottom-left cell.
    #[test]
    fn an_illegal_move_is_named_under_the_rules() {
        let rules = "othello,rows=bottom".parse::<crate::core::Rules>().unwrap().shared();
        let mv = |name: &str| Move::Place(rules.parse_square(name).unwrap());
        let game = Game::new(rules.clone()).with_moves(vec![mv("d6"), mv("c6"), mv("c5"), mv("a1")]);
        let error = game.replay(Passes::Implicit).unwrap_err();
        assert_eq!(error.ply, 4);
        assert!(error.to_string().starts_with("ply 4: a1 is illegal"), "{error}");
    }

    #[test]
    fn play_checks_the_move_and_pop_takes_it_back() {
        let mut game = Game::new(Rules::othello().shared());
        let sq = |name: &str| Move::Place(name.parse::<Square>().unwrap());
        let after = game.play(sq("f5"), Passes::Implicit).unwrap();
        assert_eq!(after.count(Color::Black), 4);
        let error = game.play(sq("a1"), Passes::Implicit).unwrap_err();
        assert_eq!((error.ply, error.reason), (2, IllegalReason::FlipsNothing));
        assert_eq!(error.position, Box::new(after.clone()), "the position before the move");
        assert_eq!(game.moves(), [sq("f5")], "the illegal move is not kept");
        game.play(sq("d6"), Passes::Implicit).unwrap();
        assert_eq!(game.position_at(1, Passes::Implicit).unwrap(), after);
        assert_eq!(game.position_at(0, Passes::Implicit).unwrap(), *game.start());
        assert_eq!(game.pop(), Some(sq("d6")));
        assert_eq!(game.position_at(99, Passes::Implicit).unwrap(), after);
        assert_eq!((game.pop(), game.pop()), (Some(sq("f5")), None));
    }

    #[test]
    fn replays_a_real_game() {
        // Game 1 of WTH_2004.wtb (../shared/data/wthor), stored with 41 black discs.
        let game = Game::new(Rules::othello().shared()).with_moves(moves("f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1"));
        assert!(game.replay(Passes::Explicit).is_err(), "the record leaves a pass out");
        let replay = game.replay(Passes::Implicit).unwrap();
        let outcome = replay.outcome().expect("the game is over");
        assert_eq!((outcome.black, outcome.white, outcome.empties), (41, 23, 0));
        assert_eq!(replay.inferred_passes, 1);
    }

    #[test]
    fn illegal_move_keeps_ply_move_and_position() {
        let game = Game::new(Rules::othello().shared()).with_moves(moves("f5d6c3d3a1"));
        let err = game.replay(Passes::Implicit).unwrap_err();
        assert_eq!(err.ply, 5);
        assert_eq!(err.mv, Move::Place("a1".parse().unwrap()));
        assert_eq!(err.reason, IllegalReason::FlipsNothing);
        assert_eq!(err.position.count(crate::core::Color::Black) + err.position.count(crate::core::Color::White), 8);
        assert_eq!(err.to_string(), "ply 5: a1 is illegal: the move flips no disc");
    }

    #[test]
    fn colours_in_the_record_are_checked_and_show_passes() {
        let rules = Rules::othello().shared();
        let game =
            Game::new(rules.clone()).with_moves(moves("f5d6")).with_colors([Some(Color::Black), Some(Color::Black)]);
        let err = game.replay(Passes::Implicit).unwrap_err();
        assert_eq!((err.ply, err.reason), (2, IllegalReason::WrongColor(Color::Black)));
        assert_eq!(err.to_string(), "ply 2: d6 is illegal: the record gives the move to black, but white is to move");
        let ok = Game::new(rules).with_moves(moves("f5d6")).with_colors([None, Some(Color::White)]);
        assert!(ok.replay(Passes::Implicit).is_ok());
    }

    #[test]
    fn explicit_passes_are_required_when_asked() {
        // Random 4x4 games until one has a forced pass before its end.
        let rules = "othello,size=4".parse::<Rules>().unwrap().shared();
        let mut seed = 0u64;
        let (record, end) = loop {
            let mut pos = Position::start(rules.clone());
            let mut record = Vec::new();
            while !pos.is_game_over() {
                let moves = pos.legal_moves();
                seed = crate::core::splitmix64(seed);
                let mv = moves[(seed % moves.len() as u64) as usize];
                record.push(mv);
                pos.play_mut(mv).unwrap();
            }
            if record.last() != Some(&Move::Pass) && record.contains(&Move::Pass) {
                break (record, pos);
            }
        };
        let explicit = Game::new(rules.clone()).with_moves(record.iter().copied());
        assert_eq!(explicit.replay(Passes::Explicit).unwrap().position, end);
        let implicit = Game::new(rules).with_moves(record.iter().copied().filter(|&m| m != Move::Pass));
        let err = implicit.replay(Passes::Explicit).unwrap_err();
        assert_eq!(err.ply, record.iter().position(|&m| m == Move::Pass).unwrap() + 1);
        let replay = implicit.replay(Passes::Implicit).unwrap();
        assert_eq!(replay.position, end);
        assert_eq!(replay.inferred_passes, record.iter().filter(|&&m| m == Move::Pass).count());
    }
}
