//! A quick replay for checking games in bulk: 8x8 bitboards, no allocation, and only a yes or a
//! "look closer here". [`Game::replay`](super::Game::replay) remains the judge that explains;
//! this path only has to agree with it on clean games, which the tests check.

use super::bitboard::{flips, legal_moves};
use super::perft::fast_start;
use super::position::{Outcome, Position};
use super::square::Color;

/// The move code for a pass; other codes are 8x8 bit indices (`row * 8 + file`, row 0 at the top).
pub const PASS: u8 = 64;

/// What a quick replay found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct QuickReplay {
    /// Black's discs after the last move played.
    pub black: u32,
    /// White's discs after the last move played.
    pub white: u32,
    /// Empty playable cells after the last move played.
    pub empties: u32,
    /// Passes played, written or inferred.
    pub passes: u32,
    /// The outcome, when the game is over.
    pub outcome: Option<Outcome>,
    /// The index of the first move that is illegal or made by the wrong colour; the counts are
    /// those before it.
    pub stopped_at: Option<usize>,
}

/// Replays `moves` (bit indices or [`PASS`]) from `start`, inferring forced passes, and checking
/// each move's colour where `colors` gives one (`colors` is empty or as long as `moves`).
/// `None` when the rules need the general path (boards over 8x8, non-capturing placements,
/// voluntary passes, a binding disc supply, an empty-board opening).
#[must_use]
pub fn quick_replay(start: &Position, moves: &[u8], colors: &[Option<Color>]) -> Option<QuickReplay> {
    let (mut p, mut o, playable) = fast_start(start)?;
    let mut side = start.side_to_move();
    let mut passes = 0;
    let mut stopped_at = None;
    for (i, &m) in moves.iter().enumerate() {
        let want = colors.get(i).copied().flatten();
        if m == PASS {
            let forced = legal_moves(p, o) & playable == 0 && legal_moves(o, p) & playable != 0;
            if !forced || want.is_some_and(|c| c != side) {
                stopped_at = Some(i);
                break;
            }
            std::mem::swap(&mut p, &mut o);
            side = side.other();
            passes += 1;
            continue;
        }
        if m >= 64 {
            stopped_at = Some(i);
            break;
        }
        let bit = 1u64 << m;
        let flipped =
            |p: u64, o: u64| if (p | o) & bit == 0 && playable & bit != 0 { flips(u32::from(m), p, o) } else { 0 };
        let mut f = flipped(p, o);
        if f == 0 || want.is_some_and(|c| c != side) {
            // Only a forced pass first can make the move right.
            if legal_moves(p, o) & playable != 0 {
                stopped_at = Some(i);
                break;
            }
            std::mem::swap(&mut p, &mut o);
            side = side.other();
            f = flipped(p, o);
            if f == 0 || want.is_some_and(|c| c != side) {
                std::mem::swap(&mut p, &mut o);
                side = side.other();
                stopped_at = Some(i);
                break;
            }
            passes += 1;
        }
        p |= f | bit;
        o &= !f;
        std::mem::swap(&mut p, &mut o);
        side = side.other();
    }
    let (black, white) = if side == Color::Black { (p, o) } else { (o, p) };
    let (black, white) = (black.count_ones(), white.count_ones());
    let empties = (playable & !(p | o)).count_ones();
    let over = legal_moves(p, o) & playable == 0 && legal_moves(o, p) & playable == 0;
    let outcome = over.then(|| Outcome::scored(start.rules().variant(), black, white, empties));
    Some(QuickReplay { black, white, empties, passes, outcome, stopped_at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Move, Passes, Rules, splitmix64};
    use proptest::prelude::*;

    fn code(mv: Move) -> u8 {
        match mv {
            Move::Pass => PASS,
            Move::Place(sq) => sq.bit8().expect("8x8") as u8,
        }
    }

    proptest! {
        /// On random games, with passes written or left out and one move possibly spoiled, the
        /// quick replay agrees with the general replay.
        #[test]
        fn agrees_with_the_general_replay(seed in any::<u64>(), spec in prop::sample::select(vec!["othello", "othello,size=6", "anti", "othello,first=white", "othello,scoring=plain"]), drop_passes in any::<bool>(), spoil in prop::option::of(0usize..70)) {
            let rules = spec.parse::<Rules>().unwrap().shared();
            let start = Position::start(rules.clone());
            let mut pos = start.clone();
            let mut moves = Vec::new();
            let mut colors = Vec::new();
            let mut s = seed;
            while !pos.is_game_over() {
                let legal = pos.legal_moves();
                s = splitmix64(s);
                let mv = legal[(s % legal.len() as u64) as usize];
                if !(drop_passes && mv == Move::Pass) {
                    moves.push(mv);
                    colors.push(Some(pos.side_to_move()));
                }
                pos.play_mut(mv).unwrap();
            }
            if let Some(k) = spoil.filter(|&k| k < moves.len()) {
                s = splitmix64(s);
                moves[k] = Move::Place(crate::core::Square::from_bit8((s % 64) as u32));
            }
            let codes: Vec<u8> = moves.iter().map(|&m| code(m)).collect();
            let game = Game::from_position(start.clone()).with_moves(moves.iter().copied());
            let general = game.replay(Passes::Implicit);
            let quick = quick_replay(&start, &codes, &[]).unwrap();
            match general {
                Ok(replay) => {
                    prop_assert_eq!(quick.stopped_at, None);
                    prop_assert_eq!(quick.black, replay.position.count(Color::Black));
                    prop_assert_eq!(quick.white, replay.position.count(Color::White));
                    prop_assert_eq!(quick.passes as usize, replay.passes);
                    prop_assert_eq!(quick.outcome, replay.outcome());
                }
                Err(e) => {
                    prop_assert_eq!(quick.stopped_at, Some(e.ply - 1));
                    prop_assert_eq!(quick.black, e.position.count(Color::Black));
                    prop_assert_eq!(quick.white, e.position.count(Color::White));
                }
            }
            if spoil.is_none() {
                prop_assert_eq!(quick_replay(&start, &codes, &colors).unwrap().stopped_at, None);
                // A wrong colour somewhere is caught.
                if !colors.is_empty() {
                    let k = (seed as usize) % colors.len();
                    let mut wrong = colors.clone();
                    wrong[k] = wrong[k].map(Color::other);
                    prop_assert!(quick_replay(&start, &codes, &wrong).unwrap().stopped_at.is_some_and(|i| i <= k));
                }
            }
        }
    }

    #[test]
    fn general_rules_are_declined() {
        for spec in ["othello,size=10", "othello,pass=voluntary", "brainking"] {
            let start = Position::start(spec.parse::<Rules>().unwrap().shared());
            assert!(quick_replay(&start, &[], &[]).is_none(), "{spec}");
        }
    }
}
