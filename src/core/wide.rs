//! 256-bit sets of squares for boards up to 16x16: the generic path.
//!
//! Bit `row * 16 + file` is the square at that file and row (the square's dense index), so a
//! board of any size up to 16x16 sits in the top-left corner with the rest always empty. Move
//! generation and flips use the same shift-and-fill technique as the 8x8 path, with steps of 1,
//! 15, 16 and 17.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares of a board up to 16x16.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct WideBits(pub [u64; 4]);

const NOT_FIRST_FILE: u64 = 0xfffe_fffe_fffe_fffe;
const NOT_LAST_FILE: u64 = 0x7fff_7fff_7fff_7fff;

impl WideBits {
    /// No squares.
    pub const EMPTY: WideBits = WideBits([0; 4]);

    /// The set holding only `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> WideBits {
        let i = sq.index();
        let mut limbs = [0; 4];
        limbs[(i >> 6) as usize] = 1 << (i & 63);
        WideBits(limbs)
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        let i = sq.index();
        self.0[(i >> 6) as usize] >> (i & 63) & 1 != 0
    }

    /// The number of squares.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones() + self.0[3].count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// The squares of the set, in index order (row by row from the top).
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..4).flat_map(move |limb| {
            super::bitboard::Bits(self.0[limb]).map(move |bit| Square::from_index((limb as u32 * 64 + bit) as u8))
        })
    }

    /// Shifts toward higher indices by `n` (1..64).
    #[inline]
    #[must_use]
    pub const fn shl(self, n: u32) -> WideBits {
        let [a, b, c, d] = self.0;
        WideBits([a << n, b << n | a >> (64 - n), c << n | b >> (64 - n), d << n | c >> (64 - n)])
    }

    /// Shifts toward lower indices by `n` (1..64).
    #[inline]
    #[must_use]
    pub const fn shr(self, n: u32) -> WideBits {
        let [a, b, c, d] = self.0;
        WideBits([a >> n | b << (64 - n), b >> n | c << (64 - n), c >> n | d << (64 - n), d >> n])
    }

    #[inline]
    const fn and_limbs(self, mask: u64) -> WideBits {
        let [a, b, c, d] = self.0;
        WideBits([a & mask, b & mask, c & mask, d & mask])
    }

    /// One step in direction `dir` (0..8, see [`WideBits::DIRECTIONS`]), dropping squares that
    /// would leave the 16 files.
    #[inline]
    #[must_use]
    pub const fn step(self, dir: usize) -> WideBits {
        match dir {
            0 => self.and_limbs(NOT_LAST_FILE).shl(1),
            1 => self.and_limbs(NOT_FIRST_FILE).shr(1),
            2 => self.shl(16),
            3 => self.shr(16),
            4 => self.and_limbs(NOT_LAST_FILE).shl(17),
            5 => self.and_limbs(NOT_FIRST_FILE).shr(17),
            6 => self.and_limbs(NOT_FIRST_FILE).shl(15),
            _ => self.and_limbs(NOT_LAST_FILE).shr(15),
        }
    }

    /// The eight directions as (file, row) steps, in the order [`WideBits::step`] numbers them:
    /// east, west, south, north, south-east, north-west, south-west, north-east.
    pub const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1)];

    /// The squares one step away in any direction from a square of the set.
    #[inline]
    #[must_use]
    pub fn neighbours(self) -> WideBits {
        let h = self.step(0) | self.step(1);
        let row = self | h;
        h | row.shl(16) | row.shr(16)
    }

    /// The empty squares where the player with discs `p` captures at least one disc of `o`.
    #[must_use]
    pub fn legal_moves(p: WideBits, o: WideBits) -> WideBits {
        let mut moves = WideBits::EMPTY;
        for dir in 0..8 {
            // Grow the runs of opponent discs next to the mover's one step at a time; each step
            // only needs the discs reached by the last one, and runs are short, so stop as soon
            // as no run grows (at most 14 steps on a 16-square line).
            let mut front = p.step(dir) & o;
            while !front.is_empty() {
                front = front.step(dir);
                moves |= front;
                front &= o;
            }
        }
        moves & !(p | o)
    }

    /// The discs of `o` flipped when the player with discs `p` plays on the empty square `sq`.
    #[must_use]
    pub fn flips(sq: Square, p: WideBits, o: WideBits) -> WideBits {
        let from = WideBits::from_square(sq);
        let mut flipped = WideBits::EMPTY;
        for dir in 0..8 {
            let mut run = WideBits::EMPTY;
            let mut next = from.step(dir);
            while !(next & o).is_empty() {
                run |= next;
                next = next.step(dir);
            }
            if !(next & p).is_empty() {
                flipped |= run;
            }
        }
        flipped
    }
}

impl fmt::Debug for WideBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "WideBits")?;
        for row in 0..16 {
            for file in 0..16 {
                let c = if self.contains(Square::new(file, row)) { 'x' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt;)*) => {$(
        impl $tr for WideBits {
            type Output = WideBits;
            #[inline]
            fn $f(self, rhs: WideBits) -> WideBits {
                let (a, b) = (self.0, rhs.0);
                WideBits([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $atr for WideBits {
            #[inline]
            fn $af(&mut self, rhs: WideBits) { *self = *self $op rhs; }
        }
    )*};
}
bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for WideBits {
    type Output = WideBits;
    #[inline]
    fn not(self) -> WideBits {
        let [a, b, c, d] = self.0;
        WideBits([!a, !b, !c, !d])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_match_the_directions() {
        for index in 0..=255u8 {
            let sq = Square::from_index(index);
            for (dir, (df, dr)) in WideBits::DIRECTIONS.iter().enumerate() {
                let (f, r) = (sq.file() as i8 + df, sq.row() as i8 + dr);
                let expected = if (0..16).contains(&f) && (0..16).contains(&r) {
                    WideBits::from_square(Square::new(f as u8, r as u8))
                } else {
                    WideBits::EMPTY
                };
                assert_eq!(WideBits::from_square(sq).step(dir), expected, "{sq} dir {dir}");
            }
        }
    }

    #[test]
    fn flips_a_long_line() {
        // Mover on a1, opponent b1..o1, playing p1 flips all fourteen.
        let p = WideBits::from_square(Square::new(0, 0));
        let o = (1..15).fold(WideBits::EMPTY, |acc, f| acc | WideBits::from_square(Square::new(f, 0)));
        assert_eq!(WideBits::flips(Square::new(15, 0), p, o), o);
        assert!(WideBits::legal_moves(p, o).contains(Square::new(15, 0)));
    }
}
