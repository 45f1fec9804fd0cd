//! Move numbers in movetext (`1. f5 2. d6`, `1. f5 d6 2. c3 d3`), checked against the moves
//! written between them: a number behind the moves before it (`1. f5 d6 2. c3 d3 2. c4`)
//! usually means a move typed twice or a wrong number, and the record is refused there. A
//! number ahead of them is let through: a forced pass left out of the moves may still have been
//! counted (`28. h8 29. h2` around White's pass), and only replay knows where passes fall: a
//! number still ahead of the moves once replay has inserted the forced passes
//! ([`ahead_of_replay`]; `1. f5 d6 2. c3 d3 4. c4`) means a move left out or a wrong number. Each
//! number is taken relative to the one before (a record may start from a position), one per
//! move or one per pair of moves (Black's and White's; `12...` before White's move of pair 12),
//! passes written counted or not.

use super::{MoveNumber, MoveSyntax, MoveToken};

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
    /// Move tokens written before it.
    moves: i64,
    /// Placements written before it.
    placements: i64,
    /// Moves played before it, passes the replay inserted included (`moves` before replay):
    /// without and with the passes inserted right after the number, before its move, which may
    /// belong before the number (`28. h8 29. h2`, White's pass) or after it (`23. f7`, Black's).
    played: [i64; 2],
}

/// A mark beside the one before it: the moves between them (written, placements, and played in
/// each way the passes inserted at either number may fall, the most last) and the number's
/// steps from the last counted per move and per half of a pair.
struct Step {
    last: Mark,
    since: [i64; 5],
    steps: i64,
    halves: i64,
}

impl Numbering {
    /// Takes the move number `number` (with `continuation` for `12...`) written after `moves`:
    /// the number, or the reason when it is behind the numbers and moves before it.
    pub(crate) fn see(&mut self, number: &str, continuation: bool, moves: &[MoveToken]) -> Result<u16, String> {
        let Ok(value) = number.parse::<u16>() else {
            return Err(format!("`{number}` is too large for a move number"));
        };
        let placements = moves.iter().filter(|m| m.mv != MoveSyntax::Pass).count() as i64;
        let n = moves.len() as i64;
        let mark = Mark { number: i64::from(value), continuation, moves: n, placements, played: [n; 2] };
        match self.take(mark) {
            Some(step) if self.behind(&step) => Err(format!(
                "move number {} where {} was expected from the moves before it: a move written twice, or a \
                 wrong number?",
                written(mark),
                self.expected(&step, step.since[0])
            )),
            _ => Ok(value),
        }
    }

    /// Takes a mark after the one before.
    fn take(&mut self, mark: Mark) -> Option<Step> {
        // `12...` (White's move of pair 12) is written only where numbers count pairs.
        if mark.continuation {
            self.per_move = Some(false);
        }
        let last = self.last.replace(mark)?;
        let steps = mark.number - last.number;
        let since = [
            mark.moves - last.moves,
            mark.placements - last.placements,
            mark.played[0] - last.played[0],
            mark.played[1] - last.played[1],
            mark.played[1] - last.played[0],
        ];
        let halves = 2 * steps + i64::from(mark.continuation) - i64::from(last.continuation);
        let (per_move, pairs) = (since.contains(&steps), since.contains(&halves));
        if self.per_move.is_none() && per_move != pairs {
            self.per_move = Some(per_move);
        }
        Some(Step { last, since, steps, halves })
    }

    /// Whether the number stands for fewer moves than the placements written since the last.
    fn behind(&self, step: &Step) -> bool {
        match self.per_move {
            Some(true) => step.steps < step.since[1],
            _ => step.halves < step.since[1],
        }
    }

    /// Whether the number stands for more moves than were played since the last, passes the
    /// replay inserted included (under either scheme while the numbers do not tell).
    fn ahead(&self, step: &Step) -> bool {
        match self.per_move {
            Some(true) => step.steps > step.since[4],
            Some(false) => step.halves > step.since[4],
            None => step.steps.min(step.halves) > step.since[4],
        }
    }

    /// The number that `moves` moves after the last mark call for.
    fn expected(&self, step: &Step, moves: i64) -> String {
        let by_move = format!("{}.", step.last.number + moves);
        let into_pair = moves + i64::from(step.last.continuation);
        let by_pair = format!("{}{}", step.last.number + into_pair / 2, dots(into_pair % 2 == 1));
        match self.per_move {
            Some(true) => by_move,
            Some(false) => by_pair,
            None if by_move == by_pair => by_move,
            None => format!("{by_pair} or {by_move}"),
        }
    }
}

/// `.` or `...`.
fn dots(continuation: bool) -> &'static str {
    if continuation { "..." } else { "." }
}

/// A mark's number as written.
fn written(mark: Mark) -> String {
    format!("{}{}", mark.number, dots(mark.continuation))
}

/// After a replay: the first move number ahead of the moves played before it (a move left out,
/// or a wrong number): the index of the move it stands before, the number, and the number those
/// moves call for. `inserted[i]` is the number of passes the replay inserted before move `i`
/// (all of them up to it); the moves after the last entry were not replayed and are not looked
/// at.
pub(crate) fn ahead_of_replay(moves: &[MoveToken], inserted: &[usize]) -> Option<(usize, MoveNumber, String)> {
    let mut numbering = Numbering::default();
    let mut placements = 0;
    let mut passes_before = 0;
    for (i, (token, &passes)) in moves.iter().zip(inserted).enumerate() {
        if let Some(number) = token.number {
            let mark = Mark {
                number: i64::from(number.value),
                continuation: number.continuation,
                moves: i as i64,
                placements,
                played: [(i + passes_before) as i64, (i + passes) as i64],
            };
            if let Some(step) = numbering.take(mark)
                && numbering.ahead(&step)
            {
                return Some((i, number, numbering.expected(&step, step.since[4])));
            }
        }
        placements += i64::from(token.mv != MoveSyntax::Pass);
        passes_before = passes;
    }
    None
}

impl std::fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.value, dots(self.continuation))
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
                Ok((n, cont)) => {
                    numbering.see(&n.to_string(), cont, &moves)?;
                }
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

    /// Moves with numbers (`Ok`) and the passes the replay inserted before each (cumulative).
    fn replayed(items: &[(Option<(u16, bool)>, usize)]) -> Option<(usize, String)> {
        let moves: Vec<MoveToken> = items
            .iter()
            .map(|&(n, _)| MoveToken {
                number: n.map(|(value, continuation)| MoveNumber { value, continuation, span: Default::default() }),
                ..MoveToken::new(MoveSyntax::Square { file: 0, rank: 1 })
            })
            .collect();
        let inserted: Vec<usize> = items.iter().map(|&(_, p)| p).collect();
        ahead_of_replay(&moves, &inserted).map(|(at, number, expected)| (at, format!("{number} for {expected}")))
    }

    #[test]
    fn a_number_ahead_of_the_moves_played_is_named() {
        let n = |v| Some((v, false));
        // Pairs: a pair left out (`1. f5 d6 2. c3 d3 4. c4`).
        assert_eq!(replayed(&[(n(1), 0), (None, 0), (n(2), 0), (None, 0), (n(4), 0)]), Some((4, "4. for 3.".into())));
        // The same numbers with a forced pass inserted between them: White's pass counted.
        assert_eq!(replayed(&[(n(27), 0), (None, 0), (n(28), 0), (n(29), 1), (None, 1)]), None);
        // Black's pass, inserted after the number (`23. -- f7` written `23. f7`).
        assert_eq!(replayed(&[(n(22), 0), (None, 0), (n(23), 1), (n(24), 1), (None, 1), (n(25), 1)]), None);
        // Without the pass, 29. is a move ahead.
        assert_eq!(replayed(&[(n(27), 0), (None, 0), (n(28), 0), (n(29), 0)]), Some((3, "29. for 28...".into())));
        // One number per move: 4. after three moves with one pass inserted is right, 5. is not.
        assert_eq!(replayed(&[(n(1), 0), (n(2), 0), (n(4), 1)]), None);
        assert_eq!(replayed(&[(n(1), 0), (n(2), 0), (n(3), 0), (n(5), 0)]), Some((3, "5. for 4.".into())));
        // After `1...`, numbers count pairs: `1... h2 2. h6 h5 4. h1` skips pair 3.
        let c = |v| Some((v, true));
        assert_eq!(replayed(&[(c(1), 0), (n(2), 0), (None, 0), (n(4), 0)]), Some((3, "4. for 3.".into())));
        // Moves not replayed (after an illegal one) are not looked at.
        let moves = vec![MoveToken::new(MoveSyntax::Pass); 3];
        assert_eq!(ahead_of_replay(&moves, &[0]), None);
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
