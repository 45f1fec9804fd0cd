//! Move numbers in movetext (`1. f5 2. d6`, `1. f5 d6 2. c3 d3`), checked against the moves
//! written between them: a skipped or repeated number usually means a move left out or typed
//! twice, and replaying such a record would put every later move on the wrong side. Numbers
//! are checked relative to the first one (a record may start from a position), one per move or
//! one per pair of moves (Black's and White's; `12...` before White's move of pair 12), passes
//! counted or not.

use super::{MoveSyntax, MoveToken};

/// The move numbers of one record, taken as they come.
#[derive(Default)]
pub(crate) struct Numbering {
    /// The first number and where it stood.
    origin: Option<Mark>,
    /// One number per move (true) or per pair of moves (false), once the numbers tell.
    per_move: Option<bool>,
}

/// A number and the moves before it.
#[derive(Clone, Copy)]
struct Mark {
    number: i64,
    /// `12...`: White's move of a pair.
    continuation: bool,
    moves: i64,
    placements: i64,
}

impl Numbering {
    /// Takes the move number `number` (with `continuation` for `12...`) written after `moves`;
    /// the reason when it does not follow from the numbers and moves before it.
    pub(crate) fn see(&mut self, number: &str, continuation: bool, moves: &[MoveToken]) -> Result<(), String> {
        let Ok(number) = number.parse::<u16>() else {
            return Err(format!("`{number}` is too large for a move number"));
        };
        let mark = Mark {
            number: i64::from(number),
            continuation,
            moves: moves.len() as i64,
            placements: moves.iter().filter(|m| m.mv != MoveSyntax::Pass).count() as i64,
        };
        let Some(origin) = self.origin else {
            self.origin = Some(mark);
            return Ok(());
        };
        let steps = mark.number - origin.number;
        // Moves since the first number, with and without the passes.
        let since = [mark.moves - origin.moves, mark.placements - origin.placements];
        let per_move = since.contains(&steps);
        let pairs = since.contains(&(2 * steps + i64::from(continuation) - i64::from(origin.continuation)));
        let fits = match self.per_move {
            Some(true) => per_move,
            Some(false) => pairs,
            None => {
                if per_move != pairs {
                    self.per_move = Some(per_move);
                }
                per_move || pairs
            }
        };
        if fits {
            return Ok(());
        }
        let by_move = (origin.number + since[0]).to_string();
        // Pairs: White's move of a pair is numbered `12...`.
        let into_pair = since[0] + i64::from(origin.continuation);
        let dots = if into_pair % 2 == 1 { "..." } else { "" };
        let by_pair = format!("{}{dots}", origin.number + into_pair / 2);
        let expected = match self.per_move {
            Some(true) => by_move,
            Some(false) => by_pair,
            None if by_move == by_pair => by_move,
            None => format!("{by_pair} or {by_move}"),
        };
        let written = if continuation { "..." } else { "" };
        Err(format!(
            "move number {}{written} where {expected} was expected from the moves before it: a move left out \
             or written twice?",
            mark.number
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(items: &[Result<(u16, bool), MoveSyntax>]) -> Result<(), String> {
        let mut numbering = Numbering::default();
        let mut moves = Vec::new();
        for item in items {
            match *item {
                Ok((n, cont)) => numbering.see(&n.to_string(), cont, &moves)?,
                Err(mv) => moves.push(MoveToken::new(mv)),
            }
        }
        Ok(())
    }

    const SQ: Result<(u16, bool), MoveSyntax> = Err(MoveSyntax::Square { file: 0, rank: 1 });
    const PASS: Result<(u16, bool), MoveSyntax> = Err(MoveSyntax::Pass);

    fn n(n: u16) -> Result<(u16, bool), MoveSyntax> {
        Ok((n, false))
    }

    #[test]
    fn either_scheme_is_read_and_kept() {
        assert!(run(&[n(1), SQ, n(2), SQ, n(3), SQ]).is_ok());
        assert!(run(&[n(1), SQ, SQ, n(2), SQ, SQ, n(3), SQ]).is_ok());
        // From a later move, numbers now and then, a pass counted or not.
        assert!(run(&[n(23), SQ, SQ, SQ, n(26), SQ]).is_ok());
        assert!(run(&[n(1), SQ, PASS, SQ, n(3), SQ]).is_ok());
        assert!(run(&[n(1), SQ, PASS, n(2), SQ]).is_ok());
        // White first (`1... d6`), and a continuation after a comment.
        assert!(run(&[Ok((1, true)), SQ, n(2), SQ, SQ, n(3)]).is_ok());
        assert!(run(&[n(1), SQ, Ok((1, true)), SQ, n(2), SQ]).is_ok());
    }

    #[test]
    fn a_number_that_does_not_follow_is_named() {
        let skipped = run(&[n(1), SQ, n(2), SQ, n(4), SQ]).unwrap_err();
        assert!(skipped.starts_with("move number 4 where 3 was expected"), "{skipped}");
        let repeated = run(&[n(1), SQ, SQ, n(2), SQ, SQ, n(2), SQ]).unwrap_err();
        assert!(repeated.starts_with("move number 2 where 3 was expected"), "{repeated}");
        // In the middle of a pair, only White's number fits.
        let mid = run(&[n(1), SQ, SQ, n(2), SQ, n(3)]).unwrap_err();
        assert!(mid.starts_with("move number 3 where 2... was expected"), "{mid}");
        // Which scheme is not known yet: both are named.
        let early = run(&[n(1), SQ, SQ, n(4)]).unwrap_err();
        assert!(early.starts_with("move number 4 where 2 or 3 was expected"), "{early}");
        assert!(run(&[n(1), SQ, n(1)]).is_err());
        assert!(run(&[n(1), SQ, n(2), SQ, SQ, n(3)]).is_err());
        assert_eq!(
            Numbering::default().see("123456", false, &[]).unwrap_err(),
            "`123456` is too large for a move number"
        );
    }
}
