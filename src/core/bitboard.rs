//! 8x8 bitboards: the fast path for standard Othello and every board up to 8x8.
//!
//! Bit `row * 8 + file` is the square at that file and row, so bit 0 is `a1` (top-left) and bit
//! 63 is `h8` (bottom-right). Smaller boards and holed shapes live in the same layout with the
//! unplayable cells always empty: a line of discs can never run through an empty cell, so the
//! 8x8 move generator and flip routine are exact for them as long as moves are masked with the
//! playable cells.
//!
//! Two implementations of each kernel are always compiled: a portable one and, on x86-64 builds
//! with AVX2, a SIMD one. [`legal_moves`] and [`flips`] pick the fastest the build allows; the
//! tests check every implementation against the others.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares of an 8x8 board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The set holding only `sq`; `sq` must lie within 8x8.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        match sq.bit8() {
            Some(bit) => Bitboard(1 << bit),
            None => panic!("square outside an 8x8 board"),
        }
    }

    /// Whether `sq` is in the set (squares outside 8x8 never are).
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        match sq.bit8() {
            Some(bit) => self.0 >> bit & 1 != 0,
            None => false,
        }
    }

    /// The number of squares.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares one step away in any of the 8 directions from a square of the set.
    #[inline]
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        let x = self.0;
        let h = (x & NOT_H_FILE) << 1 | (x & NOT_A_FILE) >> 1;
        let row = x | h;
        Bitboard(h | row << 8 | row >> 8)
    }

    /// Mirrors top and bottom (row 1 <-> row 8).
    ///
    /// ```text
    /// a1 . .      a8 . .
    /// . . .   ->  . . .
    /// a8 . .      a1 . .
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Mirrors left and right (file a <-> file h).
    ///
    /// ```text
    /// a1 . h1      h1 . a1
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_horizontal(self) -> Bitboard {
        let mut x = self.0;
        x = (x >> 1) & 0x5555_5555_5555_5555 | (x & 0x5555_5555_5555_5555) << 1;
        x = (x >> 2) & 0x3333_3333_3333_3333 | (x & 0x3333_3333_3333_3333) << 2;
        x = (x >> 4) & 0x0f0f_0f0f_0f0f_0f0f | (x & 0x0f0f_0f0f_0f0f_0f0f) << 4;
        Bitboard(x)
    }

    /// Mirrors in the a1-h8 diagonal (file and row swap: `b1` <-> `a2`).
    ///
    /// ```text
    /// a1 b1      a1 a2
    /// a2 .   ->  b1 .
    /// ```
    #[inline]
    #[must_use]
    pub const fn flip_diagonal(self) -> Bitboard {
        let mut x = self.0;
        let mut t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
        x ^= t ^ (t << 7);
        t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
        x ^= t ^ (t << 14);
        t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
        x ^= t ^ (t << 28);
        Bitboard(x)
    }

    /// Mirrors in the h1-a8 diagonal (`a1` <-> `h8`).
    #[inline]
    #[must_use]
    pub const fn flip_anti_diagonal(self) -> Bitboard {
        self.flip_diagonal().flip_vertical().flip_horizontal()
    }

    /// Rotates a quarter turn clockwise (`a1` -> `h1`).
    ///
    /// ```text
    /// a1 b1      a2 a1
    /// a2 .   ->  .  b1
    /// ```
    #[inline]
    #[must_use]
    pub const fn rotate_90(self) -> Bitboard {
        self.flip_vertical().flip_diagonal()
    }

    /// Rotates a half turn (`a1` -> `h8`).
    #[inline]
    #[must_use]
    pub const fn rotate_180(self) -> Bitboard {
        Bitboard(self.0.reverse_bits())
    }

    /// Rotates a quarter turn anticlockwise (`a1` -> `a8`).
    #[inline]
    #[must_use]
    pub const fn rotate_270(self) -> Bitboard {
        self.flip_diagonal().flip_vertical()
    }

    /// The squares of the set, from bit 0 (`a1`) upward.
    #[inline]
    pub fn squares(self) -> impl Iterator<Item = Square> {
        Bits(self.0).map(Square::from_bit8)
    }
}

/// Iterates the set bits of a `u64`, lowest first, as bit indices.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for row in 0..8 {
            for file in 0..8 {
                let c = if self.0 >> (row * 8 + file) & 1 != 0 { 'x' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt;)*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Move generation
// ---------------------------------------------------------------------------------------------

/// The empty squares where the player with discs `p` captures at least one disc of `o`.
///
/// `p` and `o` must not overlap. Every board up to 8x8 can use this, masking the result with its
/// playable cells.
#[inline(always)]
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the build enables AVX2 (checked by the cfg above).
        unsafe { avx2::legal_moves(p, o) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_portable(p, o)
    }
}

/// One direction of the portable move generator: the squares reached from `p` across a run of
/// `mask` discs by shifts of `dir`, both ways (a dumb7 fill shortened by doubling the step).
#[inline(always)]
fn moves_along(p: u64, mask: u64, dir: u32) -> u64 {
    let mut left = mask & (p << dir);
    let mut right = mask & (p >> dir);
    left |= mask & (left << dir);
    right |= mask & (right >> dir);
    let pair_left = mask & (mask << dir);
    let pair_right = mask & (mask >> dir);
    left |= pair_left & (left << (2 * dir));
    right |= pair_right & (right >> (2 * dir));
    left |= pair_left & (left << (2 * dir));
    right |= pair_right & (right >> (2 * dir));
    (left << dir) | (right >> dir)
}

/// [`legal_moves`] in plain Rust, for any target.
#[inline(always)]
#[must_use]
pub fn legal_moves_portable(p: u64, o: u64) -> u64 {
    let inner = o & INNER_FILES;
    (moves_along(p, inner, 1) | moves_along(p, o, 8) | moves_along(p, inner, 7) | moves_along(p, inner, 9)) & !(p | o)
}

// ---------------------------------------------------------------------------------------------
// Flips
// ---------------------------------------------------------------------------------------------

/// Steps (file, row) of the four directions in which bit indices grow: east, south-west, south,
/// south-east. The other four are their opposites.
const UP_STEPS: [(i8, i8); 4] = [(1, 0), (-1, 1), (0, 1), (1, 1)];

/// For every square, the rays (the square itself excluded) toward growing bit indices
/// (`[0]`) and toward falling ones (`[1]`), one per direction of [`UP_STEPS`].
static RAYS: [[[u64; 4]; 2]; 64] = build_rays();

const fn build_rays() -> [[[u64; 4]; 2]; 64] {
    let mut rays = [[[0u64; 4]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let mut sign = 0;
            while sign < 2 {
                let (df, dr) = UP_STEPS[d];
                let (df, dr) = if sign == 0 { (df, dr) } else { (-df, -dr) };
                let mut f = (sq % 8) as i8 + df;
                let mut r = (sq / 8) as i8 + dr;
                let mut ray = 0u64;
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    ray |= 1 << (r * 8 + f);
                    f += df;
                    r += dr;
                }
                rays[sq][sign][d] = ray;
                sign += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// The discs of `o` flipped when the player with discs `p` plays on the empty bit `sq` (0..64).
///
/// Zero means the move captures nothing. `sq` must be empty and `p`, `o` must not overlap.
#[inline(always)]
#[must_use]
pub fn flips(sq: u32, p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512vl", target_feature = "avx512cd"))]
    {
        // SAFETY: the build enables AVX-512 VL and CD (checked by the cfg above).
        unsafe { avx512::flips(sq, p, o) }
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512vl", target_feature = "avx512cd"))
    ))]
    {
        // SAFETY: the build enables AVX2 (checked by the cfg above).
        unsafe { avx2::flips(sq, p, o) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(sq, p, o)
    }
}

/// [`flips`] in plain Rust, for any target.
///
/// Toward growing bits, adding one to `o` with every off-ray bit set carries through the run of
/// opponent discs and stops on the first ray cell that is not one; toward falling bits, the
/// highest non-opponent cell of the ray ends the run. Either end must hold a disc of `p`.
#[inline(always)]
#[must_use]
pub fn flips_portable(sq: u32, p: u64, o: u64) -> u64 {
    let [ups, downs] = &RAYS[sq as usize];
    let mut flipped = 0;
    for (&up, &down) in ups.iter().zip(downs) {
        let outflank = up & (o | !up).wrapping_add(1) & p;
        flipped |= outflank.wrapping_sub((outflank != 0) as u64) & up;

        let stop = !o & down;
        let outflank = (1u64 << 63).wrapping_shr(stop.leading_zeros()) & stop & p;
        flipped |= outflank.wrapping_neg().wrapping_shl(1) & down;
    }
    flipped
}

/// The slow, obvious flip routine: walk each of the 8 directions cell by cell. Used by tests as
/// the reference for the fast routines.
#[must_use]
pub fn flips_by_walking(sq: u32, p: u64, o: u64) -> u64 {
    let mut flipped = 0;
    for (df, dr) in UP_STEPS.iter().flat_map(|&(f, r)| [(f, r), (-f, -r)]) {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        let mut run = 0u64;
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    flipped |= run;
                }
                break;
            }
            f += df;
            r += dr;
        }
    }
    flipped
}

/// The number of discs flipped when the player with discs `p` plays on `sq`, the only empty
/// square of the board (every other square holds a disc of `p` or of the opponent).
///
/// Zero means the move is not legal. With BMI2, each of the four lines through `sq` is packed
/// into a byte by `pext` and a table gives the flips along it.
#[inline(always)]
#[must_use]
pub fn last_flip_count(sq: u32, p: u64) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        let lines = &LINES[sq as usize & 63];
        let mut n = 0;
        for d in 0..4 {
            // SAFETY: the build enables BMI2 (checked by the cfg above).
            let own = unsafe { std::arch::x86_64::_pext_u64(p, lines.masks[d]) };
            // A line has at most 8 cells, so `own` fits a byte.
            n += u32::from(LINE_FLIPS[(usize::from(lines.offsets[d]) | usize::from(own as u8)) & 2047]);
        }
        n
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        last_flip_count_portable(sq, p)
    }
}

/// [`last_flip_count`] by the portable flips, for any target.
#[inline(always)]
#[must_use]
pub fn last_flip_count_portable(sq: u32, p: u64) -> u32 {
    flips_portable(sq, p, !p & !(1u64 << sq)).count_ones()
}

/// The four lines (row, column, both diagonals) through a square, each with the offset in
/// [`LINE_FLIPS`] of the square's rank among the line's cells in bit order.
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "bmi2")), allow(dead_code))]
struct Lines {
    masks: [u64; 4],
    offsets: [u16; 4],
}

#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "bmi2")), allow(dead_code))]
static LINES: [Lines; 64] = build_lines();

const fn build_lines() -> [Lines; 64] {
    let mut lines = [const { Lines { masks: [0; 4], offsets: [0; 4] } }; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let mask = RAYS[sq][0][d] | RAYS[sq][1][d] | 1 << sq;
            lines[sq].masks[d] = mask;
            lines[sq].offsets[d] = ((mask & ((1u64 << sq) - 1)).count_ones() * 256) as u16;
            d += 1;
        }
        sq += 1;
    }
    lines
}

/// For a line of up to 8 cells, every cell but `x` full: the discs flipped by placing on `x`
/// with one's own discs on the bits of the index (the others the opponent's, cells past the end
/// of a shorter line counting as the opponent's, which never closes a run), at `x * 256 + own`.
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "bmi2")), allow(dead_code))]
static LINE_FLIPS: [u8; 2048] = build_line_flips();

const fn build_line_flips() -> [u8; 2048] {
    let mut table = [0u8; 2048];
    let mut x = 0;
    while x < 8 {
        let mut own = 0;
        while own < 256 {
            let mut n = 0;
            // Toward higher cells, then toward lower ones: count the run up to an own disc.
            let mut i = x + 1;
            while i < 8 && own >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - x - 1;
            }
            let mut i = x as i32 - 1;
            while i >= 0 && own >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += x - i as usize - 1;
            }
            table[x * 256 + own] = n as u8;
            own += 1;
        }
        x += 1;
    }
    table
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    //! AVX2 kernels: four directions per 256-bit register.

    use std::arch::x86_64::*;

    use super::{INNER_FILES, RAYS};

    /// The operands of the flips kernels: the four upward and the four downward rays from
    /// `sq`, and `p` and `o` in every lane.
    #[inline(always)]
    pub(super) fn flip_operands(sq: u32, p: u64, o: u64) -> [__m256i; 4] {
        // SAFETY: AVX2 is enabled for this module by its cfg; RAYS rows are 32 bytes each.
        unsafe {
            let rays = &RAYS[sq as usize];
            [
                _mm256_loadu_si256(rays[0].as_ptr().cast()),
                _mm256_loadu_si256(rays[1].as_ptr().cast()),
                _mm256_set1_epi64x(p as i64),
                _mm256_set1_epi64x(o as i64),
            ]
        }
    }

    /// The bits set in any of the four lanes.
    #[inline(always)]
    pub(super) fn or_lanes(v: __m256i) -> u64 {
        // SAFETY: AVX2 is enabled for this module by its cfg.
        unsafe {
            let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            (_mm_cvtsi128_si64(half) | _mm_extract_epi64::<1>(half)) as u64
        }
    }

    /// AVX2 [`legal_moves`](super::legal_moves): the portable algorithm on four directions
    /// (shifts 1, 8, 7, 9) at once.
    #[inline(always)]
    pub unsafe fn legal_moves(p: u64, o: u64) -> u64 {
        // SAFETY: AVX2 is enabled for this module by its cfg.
        unsafe {
            let shift1 = _mm256_set_epi64x(9, 7, 8, 1);
            let shift2 = _mm256_set_epi64x(18, 14, 16, 2);
            let pp = _mm256_set1_epi64x(p as i64);
            let inner = (o & INNER_FILES) as i64;
            let mask = _mm256_set_epi64x(inner, inner, o as i64, inner);

            let mut left = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift1));
            let mut right = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift1));
            left = _mm256_or_si256(left, _mm256_and_si256(mask, _mm256_sllv_epi64(left, shift1)));
            right = _mm256_or_si256(right, _mm256_and_si256(mask, _mm256_srlv_epi64(right, shift1)));
            let pair_left = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift1));
            let pair_right = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift1));
            left = _mm256_or_si256(left, _mm256_and_si256(pair_left, _mm256_sllv_epi64(left, shift2)));
            right = _mm256_or_si256(right, _mm256_and_si256(pair_right, _mm256_srlv_epi64(right, shift2)));
            left = _mm256_or_si256(left, _mm256_and_si256(pair_left, _mm256_sllv_epi64(left, shift2)));
            right = _mm256_or_si256(right, _mm256_and_si256(pair_right, _mm256_srlv_epi64(right, shift2)));
            let moves = _mm256_or_si256(_mm256_sllv_epi64(left, shift1), _mm256_srlv_epi64(right, shift1));
            or_lanes(moves) & !(p | o)
        }
    }

    /// AVX2 [`flips`](super::flips): the portable algorithm with the four upward rays in one
    /// register; the downward rays find their highest non-opponent cell by filling down the ray.
    #[inline(always)]
    pub unsafe fn flips(sq: u32, p: u64, o: u64) -> u64 {
        // SAFETY: AVX2 is enabled for this module by its cfg.
        unsafe {
            let [up, down, pp, oo] = flip_operands(sq, p, o);
            let zero = _mm256_setzero_si256();
            let ones = _mm256_set1_epi64x(-1);

            // Upward: carry through the run of opponent discs.
            let carried = _mm256_add_epi64(_mm256_or_si256(oo, _mm256_xor_si256(up, ones)), _mm256_set1_epi64x(1));
            let outflank = _mm256_and_si256(_mm256_and_si256(up, carried), pp);
            let below = _mm256_and_si256(_mm256_add_epi64(outflank, ones), up);
            let flipped_up = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), below);

            // Downward: smear the non-opponent cells of each ray toward bit 0 along its step.
            let step = _mm256_set_epi64x(9, 8, 7, 1);
            let stop = _mm256_andnot_si256(oo, down);
            let mut fill = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
            fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, _mm256_slli_epi64::<1>(step)));
            fill = _mm256_or_si256(fill, _mm256_srlv_epi64(fill, _mm256_slli_epi64::<2>(step)));
            // The highest stop cell is the fill cell with no fill cell one step above it.
            let top = _mm256_andnot_si256(_mm256_srlv_epi64(fill, step), fill);
            let outflank = _mm256_and_si256(_mm256_and_si256(top, stop), pp);
            let above = _mm256_andnot_si256(fill, down);
            let flipped_down = _mm256_andnot_si256(_mm256_cmpeq_epi64(outflank, zero), above);

            or_lanes(_mm256_or_si256(flipped_up, flipped_down))
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx512vl", target_feature = "avx512cd"))]
mod avx512 {
    //! AVX-512 kernels (VL and CD: 256-bit registers with mask registers, ternary logic and a
    //! per-lane leading-zero count), for builds that target such processors
    //! (`-C target-cpu=x86-64-v4` or `native` on one; docs/BENCHMARKS.md).

    use std::arch::x86_64::*;

    use super::avx2::{flip_operands, or_lanes};

    /// AVX-512 [`flips`](super::flips): as the AVX2 kernel, but the downward rays find their
    /// highest non-opponent cell by a leading-zero count instead of a fill.
    #[inline(always)]
    pub unsafe fn flips(sq: u32, p: u64, o: u64) -> u64 {
        // SAFETY: AVX-512 VL and CD (and so AVX2) are enabled for this module by its cfg.
        unsafe {
            let [up, down, pp, oo] = flip_operands(sq, p, o);

            // Upward: carry through the run of opponent discs (o | !up, plus one).
            let carried = _mm256_add_epi64(_mm256_ternarylogic_epi64::<0xF3>(oo, up, up), _mm256_set1_epi64x(1));
            // up & carried & p
            let outflank = _mm256_ternarylogic_epi64::<0x80>(up, carried, pp);
            let closed = _mm256_test_epi64_mask(outflank, outflank);
            let flipped_up = _mm256_maskz_and_epi64(closed, _mm256_add_epi64(outflank, _mm256_set1_epi64x(-1)), up);

            // Downward: the highest cell of the ray that is not the opponent's must be ours.
            let stop = _mm256_andnot_si256(oo, down);
            let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
            let outflank = _mm256_and_si256(top, pp);
            let flipped_down =
                _mm256_and_si256(_mm256_slli_epi64::<1>(_mm256_sub_epi64(_mm256_setzero_si256(), outflank)), down);

            or_lanes(_mm256_or_si256(flipped_up, flipped_down))
        }
    }
}

/// The AVX2 kernels when the build has them, for cross-testing against the portable ones.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[doc(hidden)]
pub mod simd {
    /// AVX2 move generation.
    #[must_use]
    pub fn legal_moves(p: u64, o: u64) -> u64 {
        // SAFETY: this module exists only when the build enables AVX2.
        unsafe { super::avx2::legal_moves(p, o) }
    }
    /// AVX2 flips.
    #[must_use]
    pub fn flips(sq: u32, p: u64, o: u64) -> u64 {
        // SAFETY: this module exists only when the build enables AVX2.
        unsafe { super::avx2::flips(sq, p, o) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious move generator: every empty square whose walk flips something.
    fn moves_by_walking(p: u64, o: u64) -> u64 {
        (0..64).filter(|&sq| (p | o) >> sq & 1 == 0 && flips_by_walking(sq, p, o) != 0).fold(0, |acc, sq| acc | 1 << sq)
    }

    /// A deterministic stream of random disjoint (p, o) boards.
    fn random_boards(n: usize) -> Vec<(u64, u64)> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..n)
            .map(|_| {
                let occupied = next() | next();
                let p = next() & occupied;
                (p, occupied & !p)
            })
            .collect()
    }

    #[test]
    fn kernels_agree_with_walking() {
        for (p, o) in random_boards(20_000) {
            let reference = moves_by_walking(p, o);
            assert_eq!(legal_moves_portable(p, o), reference, "moves p={p:#x} o={o:#x}");
            assert_eq!(legal_moves(p, o), reference, "moves p={p:#x} o={o:#x}");
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            assert_eq!(simd::legal_moves(p, o), reference);
            for sq in Bits(!(p | o)) {
                let reference = flips_by_walking(sq, p, o);
                assert_eq!(flips_portable(sq, p, o), reference, "flips {sq} p={p:#x} o={o:#x}");
                assert_eq!(flips(sq, p, o), reference);
                #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
                assert_eq!(simd::flips(sq, p, o), reference);
                // SAFETY: the build enables AVX-512 VL and CD (checked by the cfg).
                #[cfg(all(target_arch = "x86_64", target_feature = "avx512vl", target_feature = "avx512cd"))]
                assert_eq!(unsafe { avx512::flips(sq, p, o) }, reference);
            }
        }
    }

    #[test]
    fn last_flip_counts_agree_with_walking() {
        for (p, _) in random_boards(5_000) {
            for sq in 0..64 {
                let p = p & !(1u64 << sq);
                let reference = flips_by_walking(sq, p, !p & !(1u64 << sq)).count_ones();
                assert_eq!(last_flip_count(sq, p), reference, "{sq} p={p:#x}");
                assert_eq!(last_flip_count_portable(sq, p), reference, "{sq} p={p:#x}");
            }
        }
    }

    #[test]
    fn start_position_moves() {
        // Black to move: black d5 e4, white d4 e5. Moves: d3, c4, f5, e6.
        let black = Bitboard::from_square("d5".parse().unwrap()) | Bitboard::from_square("e4".parse().unwrap());
        let white = Bitboard::from_square("d4".parse().unwrap()) | Bitboard::from_square("e5".parse().unwrap());
        let moves: Vec<String> = Bitboard(legal_moves(black.0, white.0)).squares().map(|s| s.to_string()).collect();
        assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
    }

    fn map_squares(b: Bitboard, f: impl Fn(u8, u8) -> (u8, u8)) -> Bitboard {
        b.squares().fold(Bitboard::EMPTY, |acc, sq| {
            let (file, row) = f(sq.file(), sq.row());
            acc | Bitboard::from_square(Square::new(file, row))
        })
    }

    #[test]
    fn symmetries_move_each_square_where_they_should() {
        for (b, _) in random_boards(500) {
            let b = Bitboard(b);
            assert_eq!(b.flip_vertical(), map_squares(b, |f, r| (f, 7 - r)));
            assert_eq!(b.flip_horizontal(), map_squares(b, |f, r| (7 - f, r)));
            assert_eq!(b.flip_diagonal(), map_squares(b, |f, r| (r, f)));
            assert_eq!(b.flip_anti_diagonal(), map_squares(b, |f, r| (7 - r, 7 - f)));
            assert_eq!(b.rotate_90(), map_squares(b, |f, r| (7 - r, f)));
            assert_eq!(b.rotate_180(), map_squares(b, |f, r| (7 - f, 7 - r)));
            assert_eq!(b.rotate_270(), map_squares(b, |f, r| (r, 7 - f)));
        }
    }

    #[test]
    fn neighbours_are_the_king_steps() {
        for (b, _) in random_boards(500) {
            let b = Bitboard(b);
            let expected = b.squares().fold(Bitboard::EMPTY, |acc, sq| {
                let mut acc = acc;
                for df in -1i8..=1 {
                    for dr in -1i8..=1 {
                        let (f, r) = (sq.file() as i8 + df, sq.row() as i8 + dr);
                        if (df, dr) != (0, 0) && (0..8).contains(&f) && (0..8).contains(&r) {
                            acc |= Bitboard::from_square(Square::new(f as u8, r as u8));
                        }
                    }
                }
                acc
            });
            assert_eq!(b.neighbours(), expected, "{b:?}");
        }
    }
}
