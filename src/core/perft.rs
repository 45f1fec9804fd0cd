//! Perft: counting the leaves of the game tree to a fixed depth, the standard check of a move
//! generator.
//!
//! A game that ends before the depth counts as one leaf. How passes count is a convention
//! ([`PassCount`]): the published Othello figures let a pass use a ply.

use rayon::prelude::*;

use super::bitboard::{Bits, flips, legal_moves, legal_moves_portable};
use super::position::Position;
use super::rules::{PassRule, Placement, Start, Supply};
use super::square::{Color, Move};

/// How a pass counts toward the depth.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PassCount {
    /// A pass is a move and uses a ply (the convention of the published counts).
    #[default]
    Ply,
    /// A forced pass uses no ply: the other side moves at the same depth. (A voluntary pass,
    /// where the rules allow one, is a choice and still uses a ply.)
    Free,
}

/// Counts the leaves `depth` plies below `pos`.
#[must_use]
pub fn perft(pos: &Position, depth: u32, passes: PassCount) -> u64 {
    match fast_start(pos) {
        Some((p, o, mask)) => match passes {
            PassCount::Ply => fast::<true>(p, o, mask, depth),
            PassCount::Free => fast::<false>(p, o, mask, depth),
        },
        None => generic(pos, depth, passes),
    }
}

/// The positions one move below `pos`, each with the depth left to count below it (a forced
/// pass under [`PassCount::Free`] keeps the depth). Empty at depth 0 or when the game is over.
#[must_use]
pub fn children(pos: &Position, depth: u32, passes: PassCount) -> Vec<(Move, Position, u32)> {
    if depth == 0 || pos.is_game_over() {
        return Vec::new();
    }
    let child_depth = if passes == PassCount::Free && !pos.has_placement() { depth } else { depth - 1 };
    pos.legal_moves().into_iter().map(|mv| (mv, pos.clone().play(mv).expect("legal move"), child_depth)).collect()
}

/// The leaves below each legal move of `pos`.
#[must_use]
pub fn divide(pos: &Position, depth: u32, passes: PassCount) -> Vec<(Move, u64)> {
    children(pos, depth, passes).into_iter().map(|(mv, child, d)| (mv, perft(&child, d, passes))).collect()
}

/// [`perft`] on the current rayon thread pool: the tree is split into subtrees near the root
/// and counted in parallel. The count is the same as [`perft`]'s.
#[must_use]
pub fn perft_parallel(pos: &Position, depth: u32, passes: PassCount) -> u64 {
    let min_tasks = 64 * rayon::current_num_threads();
    let mut leaves = 0;
    let mut frontier = vec![(pos.clone(), depth)];
    while frontier.len() < min_tasks && frontier.iter().any(|(_, d)| *d > 4) {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        for (pos, d) in frontier {
            if d <= 4 {
                next.push((pos, d));
                continue;
            }
            let below = children(&pos, d, passes);
            if below.is_empty() {
                leaves += 1;
            }
            next.extend(below.into_iter().map(|(_, child, d)| (child, d)));
        }
        frontier = next;
    }
    leaves + frontier.par_iter().map(|(pos, d)| perft(pos, *d, passes)).sum::<u64>()
}

/// The mover's and opponent's bitboards and the playable mask, when the fast 8x8 path computes
/// the same tree as the rules: boards up to 8x8, captures only, forced passes only, a supply that
/// can't run out, and no empty-board opening under way.
pub(crate) fn fast_start(pos: &Position) -> Option<(u64, u64, u64)> {
    let [black, white] = pos.bitboards()?;
    let rules = pos.rules();
    let variant = rules.variant();
    let (playable, centre) = rules.bitboard_masks()?;
    if variant.placement != Placement::MustFlip || variant.pass != PassRule::Forced {
        return None;
    }
    if variant.start == Start::Empty && centre & !(black | white) != 0 {
        return None;
    }
    let empties = u16::try_from(pos.empties()).ok()?;
    let supply_binds = match variant.supply {
        Supply::Unlimited => false,
        Supply::Limited { borrow, .. } => {
            let (b, w) = (pos.in_hand(Color::Black)?, pos.in_hand(Color::White)?);
            if borrow { b + w < empties } else { b.min(w) < empties }
        }
    };
    if supply_binds {
        return None;
    }
    Some(match pos.side_to_move() {
        Color::Black => (black, white, playable),
        Color::White => (white, black, playable),
    })
}

/// The 8x8 perft. `PLY` says whether a pass uses a ply.
fn fast<const PLY: bool>(p: u64, o: u64, mask: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(p, o) & mask;
    if moves == 0 {
        if PLY && depth == 1 {
            // A pass or the end of the game: one leaf either way.
            return 1;
        }
        if legal_moves(o, p) & mask == 0 {
            return 1;
        }
        return fast::<PLY>(o, p, mask, if PLY { depth - 1 } else { depth });
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    if PLY && depth == 2 {
        for sq in Bits(moves) {
            let flipped = flips(sq, p, o);
            // The scalar move generator here runs on other execution ports than the SIMD flips
            // beside it; measured a few percent faster than two SIMD kernels (BENCHMARKS.md).
            let replies = (legal_moves_portable(o ^ flipped, p ^ flipped ^ (1 << sq)) & mask).count_ones();
            // No reply is one leaf: a pass or the end of the game.
            total += u64::from(replies + u32::from(replies == 0));
        }
        return total;
    }
    for sq in Bits(moves) {
        let flipped = flips(sq, p, o);
        total += fast::<PLY>(o ^ flipped, p ^ flipped ^ (1 << sq), mask, depth - 1);
    }
    total
}

/// Perft through the full rules logic, for every variant.
fn generic(pos: &Position, depth: u32, passes: PassCount) -> u64 {
    let below = children(pos, depth, passes);
    if below.is_empty() {
        return 1;
    }
    below.iter().map(|(_, child, d)| generic(child, *d, passes)).sum()
}

/// [`perft`] through the full rules logic, never the fast path: the slow twin for tests.
#[doc(hidden)]
#[must_use]
pub fn perft_generic(pos: &Position, depth: u32, passes: PassCount) -> u64 {
    generic(pos, depth, passes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;

    /// The published counts from the standard start, depths 1 to 14.
    pub const STANDARD: [u64; 14] = [
        4,
        12,
        56,
        244,
        1396,
        8200,
        55092,
        390216,
        3005288,
        24571284,
        212258800,
        1939886636,
        18429641748,
        184042084512,
    ];

    #[test]
    fn standard_counts_to_depth_8() {
        let pos = Position::start(Rules::othello().shared());
        for depth in 1..=8 {
            assert_eq!(perft(&pos, depth, PassCount::Ply), STANDARD[depth as usize - 1], "depth {depth}");
        }
    }

    #[test]
    fn generic_path_matches_fast_path() {
        let pos = Position::start(Rules::othello().shared());
        for depth in 1..=5 {
            assert_eq!(perft_generic(&pos.clone().into_wide(), depth, PassCount::Ply), STANDARD[depth as usize - 1]);
        }
        for spec in ["othello,size=6", "othello,size=4", "blackhole,seed=5", "othello,size=6,holes=a1/f6"] {
            let pos = Position::start(spec.parse::<Rules>().unwrap().shared());
            for passes in [PassCount::Ply, PassCount::Free] {
                for depth in 1..=6 {
                    let fast = perft(&pos, depth, passes);
                    assert_eq!(fast, perft_generic(&pos, depth, passes), "{spec} {passes:?} depth {depth}");
                    assert_eq!(fast, perft_generic(&pos.clone().into_wide(), depth, passes), "{spec} wide");
                }
            }
        }
    }

    #[test]
    fn pass_conventions_differ_only_with_passes() {
        // 4x4 games end quickly and with passes: the two conventions give different counts.
        let pos = Position::start("othello,size=4".parse::<Rules>().unwrap().shared());
        let ply: Vec<u64> = (1..=12).map(|d| perft(&pos, d, PassCount::Ply)).collect();
        let free: Vec<u64> = (1..=12).map(|d| perft(&pos, d, PassCount::Free)).collect();
        assert_eq!(ply[..4], free[..4]);
        assert_ne!(ply, free);
    }

    #[test]
    fn parallel_and_divide_agree() {
        let pos = Position::start(Rules::othello().shared());
        assert_eq!(perft_parallel(&pos, 8, PassCount::Ply), STANDARD[7]);
        let split = divide(&pos, 7, PassCount::Ply);
        assert_eq!(split.len(), 4);
        assert!(split.iter().all(|&(_, n)| n == STANDARD[6] / 4), "the four first moves are symmetric");
    }

    #[test]
    fn empty_start_opens_with_four_factorial() {
        let pos = Position::start("brainking".parse::<Rules>().unwrap().shared());
        assert_eq!(perft(&pos, 4, PassCount::Ply), 24);
    }
}
