//! Move numbers in movetext (`1. f5 2. d6`, `1. f5 d6 2. c3 d3`), checked against the moves
//! written between them: a number behind the moves before it (`1. f5 d6 2. c3 d3 2. c4`)
//! usually means a move typed twice or a wrong number, and the record is refused there. A
//! number ahead of them is let through: a forced pass left out of the moves may still have been
//! counted (`28. h8 29. h2` around White's pass), and only replay knows where passes fall. Each
//! number is taken relative to the one before (a record may start from a position), one per
//! move or one per pair of moves (Black's and White's; `12...` before White's move of pair 12),
//! passes written counted or not.

use super::{MoveSyntax, MoveToken};

/// The move numbers of one record, taken as they come.
#[derive(Default)]
pub(crate) struct Numbering {
    /// The last number and where it stood.
    last: Option<Mark>,
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
    /// the reason when it is behind the numbers and moves before it.
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
        let Some(last) = self.last.replace(mark) else { return Ok(()) };
        let steps = mark.number - last.number;
        // Moves since the last number, with and without the passes written.
        let since = [mark.moves - last.moves, mark.placements - last.placements];
        // The moves those numbers stand for when they count pairs.
        let halves = 2 * steps + i64::from(continuation) - i64::from(last.continuation);
        let (per_move, pairs) = (since.contains(&steps), since.contains(&halves));
        if self.per_move.is_none() && per_move != pairs {
            self.per_move = Some(per_move);
        }
        let behind = match self.per_move {
            Some(true) => steps < since[1],
            _ => halves < since[1],
        };
        if !behind {
            return Ok(());
        }
        let dots = |white: bool| if white { "..." } else { "." };
        let by_move = format!("{}.", last.number + since[0]);
        let into_pair = since[0] + i64::from(last.continuation);
        let by_pair = format!("{}{}", last.number + into_pair / 2, dots(into_pair % 2 == 1));
        let expected = match self.per_move {
            Some(true) => by_move,
            Some(false) => by_pair,
            None if by_move == by_pair => by_move,
            None => format!("{by_pair} or {by_move}"),
        };
        Err(format!(
            "move number {}{} where {expected} was expected from the moves before it: a move written twice, or \
             a wrong number?",
            mark.number,
            dots(continuation)
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
        // Ahead of the moves: a pass left out but counted (White passes after 28. h8).
        assert!(run(&[n(27), SQ, SQ, n(28), SQ, n(29), SQ, SQ, n(30), SQ]).is_ok());
        assert!(run(&[n(55), SQ, n(57), SQ, n(58)]).is_ok());
    }

    #[test]
    fn a_number_behind_the_moves_is_named() {
        let repeated = run(&[n(1), SQ, SQ, n(2), SQ, SQ, n(2), SQ]).unwrap_err();
        assert!(repeated.starts_with("move number 2. where 3. was expected"), "{repeated}");
        let mid = run(&[n(1), SQ, SQ, n(2), SQ, SQ, Ok((2, true))]).unwrap_err();
        assert!(mid.starts_with("move number 2... where 3. was expected"), "{mid}");
        let per_move = run(&[n(1), SQ, n(2), SQ, n(3), SQ, n(3), SQ]).unwrap_err();
        assert!(per_move.starts_with("move number 3. where 4. was expected"), "{per_move}");
        // Which scheme is not known yet: both are named.
        let early = run(&[n(4), SQ, SQ, SQ, n(4)]).unwrap_err();
        assert!(early.starts_with("move number 4. where 5... or 7. was expected"), "{early}");
        // Behind even after a number ahead (the next is taken from the last).
        assert!(run(&[n(1), SQ, n(3), SQ, n(3)]).is_err());
        assert_eq!(
            Numbering::default().see("123456", false, &[]).unwrap_err(),
            "`123456` is too large for a move number"
        );
    }
}
