//! The patterns of the evaluation: their shapes, their instances on the board, and the ternary
//! index of an instance read straight from the bitboards.
//!
//! A shape is a list of squares in digit order (digit `k` counts `3^k`; empty 0, the side to
//! move 1, the opponent 2). Its instances are its images under the eight symmetries of the board,
//! one per distinct set of squares, each keeping the square order of the symmetry that made it.
//! When two symmetries give the same set (a shape that is its own mirror image), the two square
//! orders differ by a permutation of the digits; the shape's table gives every index of such a
//! permutation's orbit the same weight, so the evaluation is exactly symmetric.
//!
//! An instance's index comes from two bit extractions (`pext` of each side's discs under the
//! instance's mask) and a small table per instance that turns the extracted bits, in bit order,
//! into the powers of three of the instance's digit order.

use crate::core::{Square, Symmetry};

/// The shapes: name and squares (bit indices, `a1` = 0, `b1` = 1, `a2` = 8) in digit order. A
/// weights file uses the first eleven (the set of the solver's weights) or all sixteen (that of
/// the evaluation's); see [`PatternSet`].
pub(crate) const SHAPES: [(&str, &[u8]); 16] = [
    ("corner 3x3", &[0, 1, 2, 8, 9, 10, 16, 17, 18]),
    ("corner 2x5", &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]),
    ("edge + 2X", &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]),
    ("row 2", &[8, 9, 10, 11, 12, 13, 14, 15]),
    ("row 3", &[16, 17, 18, 19, 20, 21, 22, 23]),
    ("row 4", &[24, 25, 26, 27, 28, 29, 30, 31]),
    ("diagonal 8", &[0, 9, 18, 27, 36, 45, 54, 63]),
    ("diagonal 7", &[1, 10, 19, 28, 37, 46, 55]),
    ("diagonal 6", &[2, 11, 20, 29, 38, 47]),
    ("diagonal 5", &[3, 12, 21, 30, 39]),
    ("diagonal 4", &[4, 13, 22, 31]),
    ("triangle", &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24]),
    ("edge block", &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13]),
    ("cross", &[0, 9, 18, 27, 1, 10, 19, 8, 17, 26]),
    ("narrow triangle", &[0, 1, 2, 3, 4, 8, 9, 16, 24, 32]),
    ("edge + 2Y", &[0, 1, 2, 3, 4, 5, 6, 7, 10, 13]),
];

/// Legal-move counts at and above this share the last mobility slot.
pub(crate) const MOBILITY_SLOTS: usize = 32;

/// Empty-square counts a position can have (0 to 60).
pub(crate) const EMPTIES_SLOTS: usize = 61;

/// One instance of a shape on the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    /// The instance's squares.
    pub(crate) mask: u64,
    /// Where its bit-order-to-ternary table starts in [`Layout::ternary`].
    ternary_at: u32,
    /// Its shape (an index of [`SHAPES`]).
    pub(crate) shape: u8,
    /// Where its shape's table starts in an expanded phase table.
    pub(crate) full_offset: u32,
}

/// A shape's tables: its full (raw-index) and compact (one slot per symmetry orbit) layouts.
#[derive(Debug)]
pub(crate) struct ShapeTables {
    /// Where the shape's raw table starts in an expanded phase table.
    pub(crate) full_offset: usize,
    /// Where the shape's orbits start in a compact phase vector.
    pub(crate) compact_offset: usize,
    /// The compact slot of each raw index.
    pub(crate) slot_of: Vec<u32>,
    /// The smallest raw index of each compact slot.
    pub(crate) representative: Vec<u32>,
}

/// Every instance and every table of the pattern set, built once.
#[derive(Debug)]
pub(crate) struct Layout {
    /// All instances, shape by shape ([`INSTANCES`]).
    pub(crate) instances: Vec<Instance>,
    /// Per-instance tables: extracted bits (bit order) to the sum of the digits' powers of three.
    ternary: Vec<u16>,
    /// Per square, the power of three of its digit in each instance (0 where it has none):
    /// what a disc on the square adds to each raw index per unit of its digit.
    square_powers: Vec<[u16; LANES]>,
    /// Each instance's `full_offset`, in a fixed-size array.
    pub(crate) offsets: [u32; INSTANCES],
    /// The same in the lanes of an [`Indices`] vector (lanes past the last instance 0), for the
    /// AVX-512 evaluation.
    #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "avx512f")), allow(dead_code))]
    pub(crate) lane_offsets: [u32; LANES],
    /// Per shape.
    pub(crate) shapes: Vec<ShapeTables>,
}

/// The first [`PatternSet::SOLVER`] or [`PatternSet::ALL`] shapes of [`SHAPES`], and where
/// their tables lie. Every shape's instances and tables come after those of the shapes before
/// it, so a set's tables are a prefix of a larger set's, followed by the mobility tables (and in
/// a compact vector the biases).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PatternSet {
    /// Shapes used.
    pub(crate) shapes: usize,
    /// Their instances: the first this many of [`Layout::instances`].
    pub(crate) instances: usize,
    /// The instances padded to a multiple of 16: the lanes of an [`Indices`] vector in use.
    pub(crate) lanes: usize,
    /// Entries of an expanded phase table: every shape's raw table, then the two mobility tables
    /// (the mover's, then the opponent's).
    pub(crate) full_len: usize,
    /// Where the mobility tables start in an expanded phase table.
    pub(crate) full_mobility: usize,
    /// Entries of a compact phase vector: every shape's orbits, the two mobility tables, then one
    /// bias per empty-square count.
    pub(crate) compact_len: usize,
    /// Where the mobility tables start in a compact phase vector.
    pub(crate) compact_mobility: usize,
    /// Where the biases start in a compact phase vector.
    pub(crate) compact_bias: usize,
}

impl PatternSet {
    /// All the shapes.
    pub(crate) const ALL: usize = SHAPES.len();
    /// The set of the shipped solver weights (the Logistello / Edax family).
    pub(crate) const SOLVER: usize = 11;
    /// The shape counts a set can have.
    pub(crate) const COUNTS: [usize; 2] = [PatternSet::SOLVER, PatternSet::ALL];
}

/// The bit index of a square after a symmetry.
fn map_bit(sym: Symmetry, bit: u8) -> u8 {
    sym.apply(Square::from_bit8(u32::from(bit)), 8).bit8().expect("8x8 square") as u8
}

impl Layout {
    fn build() -> Layout {
        let mut instances = Vec::new();
        let mut ternary = Vec::new();
        let mut shapes = Vec::new();
        let mut square_powers = vec![[0u16; LANES]; 64];
        let (mut full_len, mut compact_len) = (0, 0);
        for (shape, (_, squares)) in SHAPES.iter().enumerate() {
            let n = squares.len();
            let base_mask = squares.iter().fold(0u64, |m, &b| m | 1 << b);
            // The symmetries that map the shape onto itself, as digit permutations: under one,
            // digit k of the image reads the square of base digit perm[k].
            let mut perms: Vec<Vec<usize>> = Vec::new();
            let mut masks: Vec<u64> = Vec::new();
            for sym in Symmetry::ALL {
                let seq: Vec<u8> = squares.iter().map(|&b| map_bit(sym, b)).collect();
                let mask = seq.iter().fold(0u64, |m, &b| m | 1 << b);
                if mask == base_mask {
                    perms.push(seq.iter().map(|b| squares.iter().position(|s| s == b).expect("same set")).collect());
                }
                if masks.contains(&mask) {
                    continue;
                }
                masks.push(mask);
                // Extracted bit j is the j-th lowest square of the mask; its digit is its place
                // in this instance's square order.
                let powers: Vec<u16> = (0..64u8)
                    .filter(|b| mask >> b & 1 != 0)
                    .map(|b| 3u16.pow(seq.iter().position(|&s| s == b).expect("in mask") as u32))
                    .collect();
                for (digit, &b) in seq.iter().enumerate() {
                    square_powers[usize::from(b)][instances.len()] = 3u16.pow(digit as u32);
                }
                let at = ternary.len() as u32;
                ternary.extend((0..1usize << n).map(|bits| {
                    powers.iter().enumerate().filter(|(j, _)| bits >> j & 1 != 0).map(|(_, &p)| p).sum::<u16>()
                }));
                instances.push(Instance { mask, ternary_at: at, shape: shape as u8, full_offset: full_len as u32 });
            }
            let size = 3usize.pow(n as u32);
            let mut slot_of = vec![u32::MAX; size];
            let mut representative = Vec::new();
            let mut digits = vec![0usize; n];
            for raw in 0..size {
                if slot_of[raw] != u32::MAX {
                    continue;
                }
                let mut rest = raw;
                for d in digits.iter_mut() {
                    *d = rest % 3;
                    rest /= 3;
                }
                // The orbit of `raw` under the self-symmetries; `raw` is its smallest member
                // because every smaller index was given a slot already.
                let slot = representative.len() as u32;
                representative.push(raw as u32);
                for perm in &perms {
                    let image: usize = (0..n).map(|k| digits[perm[k]] * 3usize.pow(k as u32)).sum();
                    slot_of[image] = slot;
                }
            }
            shapes.push(ShapeTables {
                full_offset: full_len,
                compact_offset: compact_len,
                slot_of,
                representative: representative.clone(),
            });
            full_len += size;
            compact_len += representative.len();
        }
        assert_eq!(instances.len(), INSTANCES, "the shapes' instances");
        let mut offsets = [0u32; INSTANCES];
        for (offset, inst) in offsets.iter_mut().zip(&instances) {
            *offset = inst.full_offset;
        }
        let mut lane_offsets = [0u32; LANES];
        lane_offsets[..INSTANCES].copy_from_slice(&offsets);
        Layout { instances, ternary, square_powers, offsets, lane_offsets, shapes }
    }

    /// The set of the first `shapes` shapes ([`PatternSet::SOLVER`] or [`PatternSet::ALL`]).
    pub(crate) fn set(&self, shapes: usize) -> PatternSet {
        assert!(PatternSet::COUNTS.contains(&shapes), "{shapes} shapes");
        let instances = self.instances.iter().filter(|i| usize::from(i.shape) < shapes).count();
        let (full, compact) = match self.shapes.get(shapes) {
            Some(next) => (next.full_offset, next.compact_offset),
            None => {
                let last = &self.shapes[shapes - 1];
                (last.full_offset + last.slot_of.len(), last.compact_offset + last.representative.len())
            }
        };
        PatternSet {
            shapes,
            instances,
            lanes: instances.div_ceil(16) * 16,
            full_len: full + 2 * MOBILITY_SLOTS,
            full_mobility: full,
            compact_len: compact + 2 * MOBILITY_SLOTS + EMPTIES_SLOTS,
            compact_mobility: compact,
            compact_bias: compact + 2 * MOBILITY_SLOTS,
        }
    }

    /// The set whose compact phase vectors have `compact_len` entries, if any.
    pub(crate) fn set_of_len(&self, compact_len: usize) -> Option<PatternSet> {
        PatternSet::COUNTS.map(|n| self.set(n)).into_iter().find(|set| set.compact_len == compact_len)
    }

    /// The raw index (digit order of the instance) of an instance, with `extract` as the bit
    /// extraction (`pext` or its portable twin).
    #[inline(always)]
    pub(crate) fn raw_index(&self, inst: &Instance, p: u64, o: u64, extract: impl Fn(u64, u64) -> u64) -> usize {
        let (tp, to) = self.digit_sums(inst, p, o, extract);
        usize::from(tp) + 2 * usize::from(to)
    }

    /// The sums of the powers of three of the squares of `p` and of `o` in an instance (its raw
    /// index counts each side's discs once and twice, in either view).
    #[inline(always)]
    fn digit_sums(&self, inst: &Instance, p: u64, o: u64, extract: impl Fn(u64, u64) -> u64) -> (u16, u16) {
        let (bits_p, bits_o) = (extract(p, inst.mask) as usize, extract(o, inst.mask) as usize);
        let at = inst.ternary_at as usize;
        let size = 1usize << inst.mask.count_ones();
        debug_assert!(bits_p < size && bits_o < size && at + size <= self.ternary.len());
        // SAFETY: `build` gives each instance a table of 2^(its squares) entries from
        // `ternary_at`, and an extraction under the instance's mask has that many bits at most.
        unsafe { (*self.ternary.get_unchecked(at + bits_p), *self.ternary.get_unchecked(at + bits_o)) }
    }

    /// The raw indices of the instances in the set's lanes from both sides' views, read from
    /// the bitboards (its instances, and in the padding lanes the next ones, which it does not read).
    #[inline]
    pub(crate) fn features(&self, set: &PatternSet, p: u64, o: u64) -> Features {
        let mut f = Features { mover: Indices([0; LANES]), other: Indices([0; LANES]), lanes: set.lanes as u8 };
        for (i, inst) in self.instances[..set.lanes.min(INSTANCES)].iter().enumerate() {
            let (tp, to) = self.digit_sums(inst, p, o, pext);
            f.mover.0[i] = tp + 2 * to;
            f.other.0[i] = to + 2 * tp;
        }
        f
    }
}

/// Instances of all the shapes.
pub(crate) const INSTANCES: usize = 66;

/// Instances of the solver's set, the first [`PatternSet::SOLVER`] shapes.
pub(crate) const SOLVER_INSTANCES: usize = 46;

/// Lanes of the solver's set: its instances padded to a multiple of 16.
pub(crate) const SOLVER_LANES: usize = SOLVER_INSTANCES.div_ceil(16) * 16;

/// Lanes of an [`Indices`] vector: the instances, padded to a multiple of 16.
pub(crate) const LANES: usize = INSTANCES.div_ceil(16) * 16;

/// The raw index of every instance (lanes past the last instance in use are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(32))]
pub(crate) struct Indices(pub(crate) [u16; LANES]);

/// A position's raw indices from the view of the side to move (its discs digit 1, the
/// opponent's 2) and from the opponent's view, updated move by move instead of read again. Only
/// the lanes of one [`PatternSet`] are kept (made by [`crate::engine::eval::Evaluator::features`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Features {
    /// The side to move's view: what the evaluation reads.
    pub(crate) mover: Indices,
    /// The opponent's view.
    pub(crate) other: Indices,
    /// The lanes kept up to date (the set's [`PatternSet::lanes`]); the others stay zero.
    lanes: u8,
}

impl Features {
    /// The features after the side to move places a disc on `sq`, turning `flipped`, from the
    /// view of the new side to move (the opponent).
    #[inline(always)]
    pub(crate) fn play(&self, sq: u32, flipped: u64) -> Features {
        // A lane count known at compile time keeps the sums in registers.
        if usize::from(self.lanes) == SOLVER_LANES {
            self.play_lanes::<SOLVER_LANES>(sq, flipped)
        } else {
            self.play_lanes::<LANES>(sq, flipped)
        }
    }

    /// [`Features::play`] on the first `N` lanes (the others are zero and stay so).
    #[inline(always)]
    fn play_lanes<const N: usize>(&self, sq: u32, flipped: u64) -> Features {
        debug_assert_eq!(usize::from(self.lanes), N);
        let layout = layout();
        let placed = &layout.square_powers[sq as usize];
        let mut turned = [0u16; N];
        let mut rest = flipped;
        while rest != 0 {
            let powers = &layout.square_powers[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            for (t, &w) in turned.iter_mut().zip(powers) {
                *t = t.wrapping_add(w);
            }
        }
        // The mover's new disc is digit 1 in its view and 2 in the opponent's; each turned disc
        // goes from 2 to 1 in the mover's view and from 1 to 2 in the opponent's.
        let mut next = Features { mover: Indices([0; LANES]), other: Indices([0; LANES]), lanes: self.lanes };
        for k in 0..N {
            next.mover.0[k] = self.other.0[k].wrapping_add(2 * placed[k]).wrapping_add(turned[k]);
            next.other.0[k] = self.mover.0[k].wrapping_add(placed[k]).wrapping_sub(turned[k]);
        }
        next
    }

    /// The features of the same board with the other side to move (a pass).
    #[inline]
    pub(crate) fn passed(&self) -> Features {
        Features { mover: self.other, other: self.mover, lanes: self.lanes }
    }
}

/// The layout, built on first use.
pub(crate) fn layout() -> &'static Layout {
    static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();
    LAYOUT.get_or_init(Layout::build)
}

/// The bits of `x` under `mask`, packed toward bit 0 in bit order: BMI2 `pext` when the build
/// has it, else [`pext_portable`].
#[inline(always)]
pub(crate) fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 (checked by the cfg above).
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// [`pext`] in plain Rust: walks the mask's bits, lowest first.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
#[inline(always)]
pub(crate) fn pext_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask ^= low;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instances_are_the_usual_46_and_20_more() {
        let layout = layout();
        let per_shape: Vec<usize> =
            (0..SHAPES.len()).map(|s| layout.instances.iter().filter(|i| usize::from(i.shape) == s).count()).collect();
        assert_eq!(per_shape, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4]);
        // Every square is covered; corners by the most instances.
        let cover = |bit: u32, shapes: usize| {
            layout.instances.iter().filter(|i| usize::from(i.shape) < shapes && i.mask >> bit & 1 != 0).count()
        };
        assert!((0..64).all(|b| cover(b, PatternSet::SOLVER) > 0));
        assert_eq!(cover(0, PatternSet::SOLVER), 6, "a1: 3x3, two 2x5, two edges, the long diagonal");
        assert_eq!(
            cover(0, PatternSet::ALL),
            13,
            "a1: and a triangle, two edge blocks, a cross, a narrow triangle, two edges + 2Y"
        );
        // Instances come shape by shape.
        assert!(layout.instances.windows(2).all(|w| w[0].shape <= w[1].shape));
    }

    #[test]
    fn pattern_sets_are_prefixes() {
        let layout = layout();
        let solver = layout.set(PatternSet::SOLVER);
        assert_eq!((solver.instances, solver.lanes), (SOLVER_INSTANCES, 48));
        // The format's values per phase of the shipped solver weights.
        assert_eq!(solver.compact_len, 114_002);
        let all = layout.set(PatternSet::ALL);
        assert_eq!((all.instances, all.lanes), (INSTANCES, LANES));
        assert_eq!(all.full_mobility, layout.shapes[15].full_offset + 59_049);
        assert_eq!(solver.full_mobility, layout.shapes[11].full_offset);
        assert_eq!(layout.set_of_len(solver.compact_len), Some(solver));
        assert_eq!(layout.set_of_len(all.compact_len), Some(all));
        assert_eq!(layout.set_of_len(all.compact_len + 1), None);
        assert_eq!(SOLVER_LANES, 48);
        assert!(solver.compact_len < all.compact_len && solver.full_len < all.full_len);
    }

    #[test]
    fn orbits_are_closed_and_counted() {
        let layout = layout();
        // The 3x3 corner mirrors in its diagonal: (3^9 + 3^6) / 2 orbits (6 squares swap in pairs).
        assert_eq!(layout.shapes[0].representative.len(), (19_683 + 729) / 2);
        // The 2x5 corner has no self-symmetry.
        assert_eq!(layout.shapes[1].representative.len(), 59_049);
        // The long diagonal is fixed by the diagonal mirror and reversed by the half turn.
        assert_eq!(layout.shapes[6].representative.len(), (6_561 + 81) / 2);
        for shape in &layout.shapes {
            for (slot, &raw) in shape.representative.iter().enumerate() {
                assert_eq!(shape.slot_of[raw as usize], slot as u32);
            }
            assert!(shape.slot_of.iter().all(|&s| (s as usize) < shape.representative.len()));
        }
    }

    #[test]
    fn ternary_index_matches_the_digits() {
        let layout = layout();
        let mut s = 7u64;
        for _ in 0..2000 {
            s = crate::core::splitmix64(s);
            let occupied = s | crate::core::splitmix64(s ^ 1);
            let p = crate::core::splitmix64(s ^ 2) & occupied;
            let o = occupied & !p;
            for (n, inst) in layout.instances.iter().enumerate() {
                // Rebuild the instance's square order from its symmetry and read the digits.
                let squares = SHAPES[usize::from(inst.shape)].1;
                let sym = Symmetry::ALL
                    .into_iter()
                    .find(|&sym| squares.iter().fold(0u64, |m, &b| m | 1 << map_bit(sym, b)) == inst.mask)
                    .expect("an image");
                let expected: usize = squares
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| {
                        let bit = map_bit(sym, b);
                        let digit = if p >> bit & 1 != 0 {
                            1
                        } else if o >> bit & 1 != 0 {
                            2
                        } else {
                            0
                        };
                        digit * 3usize.pow(k as u32)
                    })
                    .sum();
                let raw = layout.raw_index(inst, p, o, pext);
                // The first symmetry giving the mask is the one the instance was built with.
                assert_eq!(raw, expected, "instance {n}");
                assert_eq!(layout.raw_index(inst, p, o, pext_portable), expected, "instance {n}");
            }
        }
    }

    #[test]
    fn pext_and_its_portable_twin_agree() {
        let mut s = 11u64;
        for _ in 0..20_000 {
            s = crate::core::splitmix64(s);
            let mask = crate::core::splitmix64(s ^ 5) & crate::core::splitmix64(s ^ 6);
            assert_eq!(pext(s, mask), pext_portable(s, mask), "{s:#x} {mask:#x}");
        }
        assert_eq!(pext_portable(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(pext_portable(!0, 0), 0);
    }
}
