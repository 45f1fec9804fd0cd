//! Stable discs: discs that no sequence of moves can flip. A disc is stable when, along each of
//! the four lines through it, the line is full, or the board ends there, or it touches a stable
//! disc of its own colour; the edges are settled exactly by a table of every edge pattern.

use std::sync::OnceLock;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// For every pair of 8-bit edge patterns (discs of one side, of the other), the discs of either
/// colour that no sequence of placements along the edge can flip, indexed `p << 8 | o`.
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut memo = vec![None; 1 << 16];
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o == 0 {
                    edge_stable(p as u8, o as u8, &mut memo);
                }
            }
        }
        memo.into_iter().map(|s| s.unwrap_or(0)).collect()
    })
}

/// The discs flipped along one line of 8 when the side with `p` places on `x`.
fn line_flips(x: u32, p: u8, o: u8) -> u8 {
    let mut flipped = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) {
            let bit = 1u8 << i;
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    flipped |= run;
                }
                break;
            }
            i += step;
        }
    }
    flipped
}

/// The stable discs of the edge pattern: those of both colours unchanged by any placement (of
/// either side, capturing along the edge or not) and stable in every position that follows.
fn edge_stable(p: u8, o: u8, memo: &mut [Option<u8>]) -> u8 {
    let key = usize::from(p) << 8 | usize::from(o);
    if let Some(s) = memo[key] {
        return s;
    }
    let mut stable = p | o;
    let empty = !(p | o);
    for x in 0..8 {
        if empty & (1 << x) == 0 {
            continue;
        }
        let f = line_flips(x, p, o);
        stable &= !f & edge_stable(p | f | (1 << x), o & !f, memo);
        let g = line_flips(x, o, p);
        stable &= !g & edge_stable(p & !g, o | g | (1 << x), memo);
        if stable == 0 {
            break;
        }
    }
    memo[key] = Some(stable);
    stable
}

/// The 8 cells of file A (bit 0 = a1) as a byte.
#[inline]
fn file_a_byte(x: u64) -> u8 {
    (((x & FILE_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u8
}

/// A byte spread back onto file A (the inverse of [`file_a_byte`]).
#[inline]
fn byte_to_file_a(b: u8) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 (checked by the cfg above).
        unsafe { std::arch::x86_64::_pdep_u64(u64::from(b), FILE_A) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        byte_to_file_a_portable(b)
    }
}

/// [`byte_to_file_a`] bit by bit, for any target.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn byte_to_file_a_portable(b: u8) -> u64 {
    (0..8).filter(|i| b >> i & 1 != 0).fold(0, |x, i| x | 1 << (8 * i))
}

/// The stable discs along the four edges, for both colours.
fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let table = edge_table();
    let lookup = |a: u8, b: u8| table[usize::from(a) << 8 | usize::from(b)];
    let rank1 = u64::from(lookup(p as u8, o as u8));
    let rank8 = u64::from(lookup((p >> 56) as u8, (o >> 56) as u8)) << 56;
    let file_a = byte_to_file_a(lookup(file_a_byte(p), file_a_byte(o)));
    let file_h = byte_to_file_a(lookup(file_a_byte(p >> 7), file_a_byte(o >> 7))) << 7;
    rank1 | rank8 | file_a | file_h
}

/// The lines of each direction that are full: (horizontal, vertical, a1-h8 diagonal, h1-a8).
fn full_lines(filled: u64) -> [u64; 4] {
    // Horizontal: a row is full when every cell is.
    let mut h = filled & (filled >> 1) & 0x7F7F_7F7F_7F7F_7F7F;
    h &= h >> 2 & 0x3F3F_3F3F_3F3F_3F3F;
    h &= h >> 4 & 0x0F0F_0F0F_0F0F_0F0F;
    h = (h & FILE_A).wrapping_mul(0xFF);
    // Vertical.
    let mut v = filled & (filled >> 8);
    v &= v >> 16;
    v &= v >> 32;
    v = (v & RANK_1).wrapping_mul(FILE_A);
    [
        h,
        v,
        diagonal_full(filled, 9, FILE_A | RANK_1, FILE_H | RANK_8),
        diagonal_full(filled, 7, FILE_H | RANK_1, FILE_A | RANK_8),
    ]
}

/// Cells of `filled` whose diagonal of step `step` (9: a1-h8, 7: h1-a8) is full: full toward the
/// low end (`low_end` cells start it) and toward the high end.
fn diagonal_full(filled: u64, step: u32, low_end: u64, high_end: u64) -> u64 {
    // Toward low bits: a cell is good if it is filled and either on the low end or its lower
    // neighbour on the diagonal is good; a doubling fill (runs of 1, 2, then 4 steps) settles
    // the at most 7 steps in three. Only cells off the end carry it on (`through`), so no shift
    // wraps around the board.
    #[inline(always)]
    fn fill(mut good: u64, mut through: u64, shift: impl Fn(u64) -> u64) -> u64 {
        good |= through & shift(good);
        through &= shift(through);
        good |= through & shift(shift(good));
        through &= shift(shift(through));
        good | (through & shift(shift(shift(shift(good)))))
    }
    let low = fill(filled & low_end, filled & !low_end, |x| x << step);
    let high = fill(filled & high_end, filled & !high_end, |x| x >> step);
    low & high
}

/// All the discs of `p` (with `o` the other side) that can never be flipped: the full count
/// the tests check [`stable_count_reaches`] against.
#[cfg(test)]
fn stable_discs(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let lines = full_lines(filled);
    grow_stable(p, edge_stable_discs(p, o) & p, lines, u32::MAX)
}

/// Whether `p` (with `o` the other side) has at least `need` discs that can never be flipped:
/// `Some` of a count of them that is at least `need` (not always all of them), else `None`.
/// Cheaper than counting them all: it gives up as soon as too few discs could be stable, and
/// stops as soon as enough are.
#[must_use]
pub fn stable_count_reaches(p: u64, o: u64, need: u32) -> Option<u32> {
    let filled = p | o;
    let lines = full_lines(filled);
    let [h, v, d9, d7] = lines;
    let edge = edge_stable_discs(p, o) & p;
    // An inner disc is stable only if, along each line, the line is full or a neighbour on
    // it is one of its own (stable) discs: those that pass bound the count from above.
    let inner =
        p & !BORDER & (h | p << 1 | p >> 1) & (v | p << 8 | p >> 8) & (d9 | p << 9 | p >> 9) & (d7 | p << 7 | p >> 7);
    if (edge | inner).count_ones() < need {
        return None;
    }
    let count = grow_stable(p, edge, lines, need).count_ones();
    (count >= need).then_some(count)
}

/// The stable discs of `p`, grown from `stable` (its stable edge discs) and the discs whose four
/// lines are full (`lines`: [`full_lines`]) one step at a time, stopping once there are `enough`.
#[inline(always)]
fn grow_stable(p: u64, mut stable: u64, [h, v, d9, d7]: [u64; 4], enough: u32) -> u64 {
    stable |= p & h & v & d9 & d7;
    if stable == 0 {
        return 0;
    }
    loop {
        if stable.count_ones() >= enough {
            return stable;
        }
        let safe_h = h | (stable << 1 & !FILE_A) | (stable >> 1 & !FILE_H) | FILE_A | FILE_H;
        let safe_v = v | stable << 8 | stable >> 8 | RANK_1 | RANK_8;
        let safe_d9 = d9 | (stable << 9 & !FILE_A) | (stable >> 9 & !FILE_H) | BORDER;
        let safe_d7 = d7 | (stable << 7 & !FILE_H) | (stable >> 7 & !FILE_A) | BORDER;
        let grown = stable | (p & safe_h & safe_v & safe_d9 & safe_d7 & !BORDER);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::{flips, legal_moves};
    use crate::core::splitmix64;

    #[test]
    fn file_bytes_round_trip() {
        for b in 0..=255u8 {
            assert_eq!(file_a_byte(byte_to_file_a(b)), b);
            assert_eq!(byte_to_file_a(b), byte_to_file_a_portable(b));
        }
        let mut s = 1;
        for _ in 0..1000 {
            s = splitmix64(s);
            assert_eq!(byte_to_file_a(file_a_byte(s)), s & FILE_A);
        }
    }

    /// Slow twin: which discs a full row, column or diagonal covers, cell by cell.
    fn full_lines_by_walking(filled: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (k, (df, dr)) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)].into_iter().enumerate() {
            for sq in 0..64 {
                let (f, r) = (sq % 8, sq / 8);
                let mut full = true;
                for sign in [-1, 1] {
                    let (mut x, mut y) = (f + sign * df, r + sign * dr);
                    while (0..8).contains(&x) && (0..8).contains(&y) {
                        full &= filled & (1 << (y * 8 + x)) != 0;
                        x += sign * df;
                        y += sign * dr;
                    }
                }
                if full && filled & (1 << sq) != 0 {
                    out[k] |= 1 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_the_walk() {
        let mut s = 7;
        for _ in 0..3000 {
            s = splitmix64(s);
            let t = splitmix64(s);
            let filled = s | t | splitmix64(t);
            assert_eq!(full_lines(filled), full_lines_by_walking(filled), "{filled:#x}");
        }
        assert_eq!(full_lines(!0), [!0; 4]);
    }

    /// `p` and `o` after `p` plays one of its `moves` (not empty), chosen by the `seed`, which
    /// moves on.
    fn play_random(seed: &mut u64, p: u64, o: u64, moves: u64) -> (u64, u64) {
        *seed = splitmix64(*seed);
        let mut m = moves;
        for _ in 0..(*seed % u64::from(moves.count_ones())) {
            m &= m - 1;
        }
        let sq = m.trailing_zeros();
        let f = flips(sq, p, o);
        (p | f | 1 << sq, o & !f)
    }

    /// Every disc called stable keeps its colour through random play to the end.
    #[test]
    fn stable_discs_never_flip() {
        let mut s = 11;
        for _ in 0..2000 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut passes = 0;
            let mut stable_p: u64 = 0;
            let mut stable_o: u64 = 0;
            let mut mover_is_first = true;
            while passes < 2 {
                // Everything found stable so far stays with its colour.
                let (first, second) = if mover_is_first { (p, o) } else { (o, p) };
                assert_eq!(first & stable_p, stable_p);
                assert_eq!(second & stable_o, stable_o);
                stable_p |= stable_discs(first, second);
                stable_o |= stable_discs(second, first);
                let moves = legal_moves(p, o);
                if moves == 0 {
                    passes += 1;
                } else {
                    passes = 0;
                    (p, o) = play_random(&mut s, p, o, moves);
                }
                std::mem::swap(&mut p, &mut o);
                mover_is_first = !mover_is_first;
            }
        }
    }

    /// [`stable_count_reaches`] answers as counting all of [`stable_discs`] would, for every
    /// `need`, on positions from random play.
    #[test]
    fn the_count_reaches_what_the_full_count_does() {
        let mut s = 5;
        let mut positions = 0;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                let moves = legal_moves(p, o);
                if moves == 0 {
                    if legal_moves(o, p) == 0 {
                        break;
                    }
                } else {
                    (p, o) = play_random(&mut s, p, o, moves);
                }
                std::mem::swap(&mut p, &mut o);
                let all = stable_discs(p, o).count_ones();
                for need in 0..=64 {
                    match stable_count_reaches(p, o, need) {
                        Some(count) => assert!(need <= count && count <= all, "{p:#x} {o:#x} {need}"),
                        None => assert!(all < need, "{p:#x} {o:#x} {need}"),
                    }
                }
                positions += 1;
            }
        }
        assert!(positions > 10_000);
    }

    #[test]
    fn corners_and_full_boards() {
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(2, 0), 0);
        assert_eq!(stable_discs(0x0F0F_0F0F_0F0F_0F0F, 0xF0F0_F0F0_F0F0_F0F0), 0x0F0F_0F0F_0F0F_0F0F);
    }
}
