//! Guessing the move a record meant when it holds an illegal one.
//!
//! A score sheet typo is usually one character off (`c3` for `c4`, `d3` for `c3`), a
//! neighbouring cell, or the file and rank swapped (`c4` for `d3`). [`suggest`] tries every legal
//! move that is such a near miss in place of the illegal one, and ranks them by how far the rest
//! of the record then replays.

use super::game::{Game, Passes};
use super::position::Position;
use super::square::{Move, Square};

/// How a candidate differs from the move written.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Nearness {
    /// The same file or the same rank: one character off.
    OneCharacter,
    /// File and rank swapped (`c4` for `d3`).
    Swapped,
    /// A neighbouring cell, diagonally.
    Neighbour,
}

impl Nearness {
    /// In words.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Nearness::OneCharacter => "one character off",
            Nearness::Swapped => "file and rank swapped",
            Nearness::Neighbour => "a neighbouring cell",
        }
    }
}

/// A move the record may have meant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Suggestion {
    /// The move.
    pub mv: Move,
    /// How it differs from the one written.
    pub nearness: Nearness,
    /// With it, how many of the record's moves replay (all of them: the record is then legal).
    pub replays: usize,
    /// Whether all of them replay.
    pub complete: bool,
}

/// The near misses for the illegal move at index `failed` of `moves` (replayed from `start`
/// with forced passes inferred), best first: those that let the whole record replay, then
/// those that get furthest, then the nearest.
#[must_use]
pub fn suggest(start: &Position, moves: &[Move], failed: usize, before: &Position) -> Vec<Suggestion> {
    let Some(Move::Place(written)) = moves.get(failed).copied() else { return Vec::new() };
    let mut out = Vec::new();
    for candidate in to_play(before).legal_placements() {
        // The written square itself, legal after all (the record's colour was the fault), is no fix.
        if candidate == written {
            continue;
        }
        let Some(nearness) = nearness(written, candidate) else { continue };
        let mut fixed = moves.to_vec();
        fixed[failed] = Move::Place(candidate);
        let game = Game::from_position(start.clone()).with_moves(fixed);
        let (replays, complete) = match game.replay(Passes::Implicit) {
            Ok(_) => (moves.len(), true),
            Err(e) => (e.ply - 1, false),
        };
        out.push(Suggestion { mv: Move::Place(candidate), nearness, replays, complete });
    }
    out.sort_by(|a, b| b.replays.cmp(&a.replays).then(a.nearness.cmp(&b.nearness)));
    out
}

/// The position a record's move is played on when `before` is the position before it: a
/// forced pass, which records may leave out, comes first.
#[must_use]
pub fn to_play(before: &Position) -> Position {
    let mut mover = before.clone();
    if !mover.has_placement() && mover.check(Move::Pass).is_ok() {
        let _ = mover.play_mut(Move::Pass);
    }
    mover
}

/// A move left out of a record, or written in it once too often, near its illegal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gap {
    /// The move at this index is one too many: without it the whole record replays.
    Extra(usize),
    /// A move is missing before this index: with any of these there, the whole record replays.
    Missing(usize, Vec<Move>),
}

/// How far before the illegal move a left-out or doubled move is looked for: such a slip shows
/// a few moves later, when the colours stop fitting.
const GAP_WINDOW: usize = 6;

/// Moves a fix must leave after it, replaying, to count as evidence (any last move can be
/// dropped, and a move can be added before any).
const GAP_EVIDENCE: usize = 2;

/// The nearest [`Gap`] before the illegal move at index `failed` of `moves` (replayed from
/// `start` with forced passes inferred), the illegal move's own place included, after which the
/// whole record replays; `None` when no move dropped or added within a few moves does it.
#[must_use]
pub fn gap(start: &Position, moves: &[Move], failed: usize) -> Option<Gap> {
    let replays =
        |m: &[Move]| Game::from_position(start.clone()).with_moves(m.iter().copied()).replay(Passes::Implicit);
    for at in (failed.saturating_sub(GAP_WINDOW)..=failed).rev() {
        if moves.len() < at + 1 + GAP_EVIDENCE {
            continue;
        }
        let mut without = moves.to_vec();
        without.remove(at);
        if replays(&without).is_ok() {
            return Some(Gap::Extra(at));
        }
        let Ok(before) = replays(&moves[..at]) else { continue };
        let fits: Vec<Move> = before
            .position
            .legal_placements()
            .into_iter()
            .map(Move::Place)
            .filter(|&mv| {
                let mut with = moves[..at].to_vec();
                with.push(mv);
                with.extend_from_slice(&moves[at..]);
                replays(&with).is_ok()
            })
            .collect();
        if !fits.is_empty() {
            return Some(Gap::Missing(at, fits));
        }
    }
    None
}

fn nearness(written: Square, candidate: Square) -> Option<Nearness> {
    let (wf, wr, cf, cr) = (written.file(), written.row(), candidate.file(), candidate.row());
    if wf == cf || wr == cr {
        Some(Nearness::OneCharacter)
    } else if wf == cr && wr == cf {
        Some(Nearness::Swapped)
    } else if wf.abs_diff(cf) <= 1 && wr.abs_diff(cr) <= 1 {
        Some(Nearness::Neighbour)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;

    fn moves(text: &str) -> Vec<Move> {
        text.as_bytes().chunks(2).map(|c| Move::Place(std::str::from_utf8(c).unwrap().parse().unwrap())).collect()
    }

    #[test]
    fn a_typo_is_found_and_the_rest_replays() {
        let start = Position::start(Rules::othello().shared());
        // f5d6c3d3c4f4f6f3e6e7 with c3 mistyped as c2.
        let record = moves("f5d6c2d3c4f4f6f3e6e7");
        let err = Game::from_position(start.clone()).with_moves(record.clone()).replay(Passes::Implicit).unwrap_err();
        assert_eq!(err.ply, 3);
        let s = suggest(&start, &record, 2, &err.position);
        assert_eq!(s[0].mv, Move::Place("c3".parse().unwrap()));
        assert!(s[0].complete);
        assert_eq!(s[0].nearness, Nearness::OneCharacter);
    }

    #[test]
    fn a_move_left_out_or_written_twice_is_found() {
        let start = Position::start(Rules::othello().shared());
        let game = "f5d6c3d3c4f4f6f3e6e7";
        let failed = |record: &[Move]| {
            Game::from_position(start.clone()).with_moves(record.to_vec()).replay(Passes::Implicit).unwrap_err().ply - 1
        };
        // d3 left out: the record goes wrong a little later, when the colours stop fitting.
        let missing = moves("f5d6c3c4f4f6f3e6e7");
        assert_eq!(
            gap(&start, &missing, failed(&missing)),
            Some(Gap::Missing(3, vec![Move::Place("d3".parse().unwrap())]))
        );
        // c3 written twice.
        let twice = moves("f5d6c3c3d3c4f4f6f3e6e7");
        assert_eq!(gap(&start, &twice, failed(&twice)), Some(Gap::Extra(3)));
        // An illegal last move is no evidence of either.
        let last = moves(&format!("{game}a1"));
        assert_eq!(gap(&start, &last, failed(&last)), None);
    }

    #[test]
    fn swapped_coordinates_are_near() {
        assert_eq!(nearness("c4".parse().unwrap(), "d3".parse().unwrap()), Some(Nearness::Swapped));
        assert_eq!(nearness("c4".parse().unwrap(), "d5".parse().unwrap()), Some(Nearness::Neighbour));
        assert_eq!(nearness("c4".parse().unwrap(), "f6".parse().unwrap()), None);
    }
}
