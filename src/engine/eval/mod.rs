//! A pattern evaluation of standard 8x8 Othello positions: the expected final disc margin for
//! the side to move, from weights fitted to solved endgames (see [`crate::engine::train`]).
//!
//! The features start with those of the Logistello / Edax family: the edges with their two
//! X-squares, the 3x3 and 2x5 corners, rows and columns 2 to 4, and the diagonals of length 4 to
//! 8 (46 instances of 11 shapes, each shape sharing one table among its instances). Five more
//! 10-square shapes near the corners and edges follow (20 instances). A weights file uses the
//! first 11 or all 16 shapes (the solver's and the evaluation's shipped weights), plus the number
//! of legal moves of each side and a bias per count of empty squares. Every table exists once
//! per game phase ([`PHASES`] buckets of four empty-square counts). The evaluation is exactly
//! symmetric under the eight symmetries of the board.
//!
//! Weights are stored as 16-bit integers in units of `1 / SCALE` of a disc and shipped in the
//! binary ([`Evaluator::embedded`]); the file format is described on [`Evaluator::to_bytes`].

pub(crate) mod pattern;

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::core::bitboard::legal_moves;
pub(crate) use pattern::Features;
use pattern::{EMPTIES_SLOTS, Layout, MOBILITY_SLOTS, PatternSet, layout};

/// Evaluation units per disc: [`Evaluator::evaluate`] returns `SCALE` times the margin in discs.
pub const SCALE: i32 = 32;

/// A value in evaluation units as whole discs, rounded.
#[must_use]
pub fn to_discs(units: i32) -> i32 {
    (f64::from(units) / f64::from(SCALE)).round() as i32
}

/// Game phases: one table set per four empty-square counts (0-3, 4-7, ..., 52-55, 56-60).
pub const PHASES: usize = 15;

/// The phase of a position with `empties` empty squares.
#[inline]
#[must_use]
pub const fn phase(empties: u32) -> usize {
    let p = empties as usize / 4;
    if p < PHASES { p } else { PHASES - 1 }
}

/// Zero weights past the last phase's table: one per value of a 16-bit index.
const PADDING: usize = 1 << 16;

const MAGIC: &[u8; 8] = b"KIFUEVAL";
const VERSION: u32 = 1;
/// Magic, version, phases, values per phase, scale.
const HEADER_LEN: usize = 8 + 4 * 4;

/// Why weights could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The data does not start like a weights file.
    #[error("not a kifu weights file")]
    Magic,
    /// A format version this build does not read.
    #[error("weights format version {0}; this build reads version {VERSION}")]
    Version(u32),
    /// The file was made for another set of patterns, phases or scale.
    #[error(
        "weights for {phases} phases of {len} values at scale {scale}; this build reads {PHASES} phases of {expected} values (or those of the first 11 shapes) at scale {SCALE}"
    )]
    Shape {
        /// Phases in the file.
        phases: u32,
        /// Values per phase in the file.
        len: u32,
        /// Scale in the file.
        scale: u32,
        /// Values per phase of all the shapes this build has.
        expected: usize,
    },
    /// The compressed data is damaged or has the wrong length.
    #[error("damaged weights data: {0}")]
    Data(String),
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file read whole whose contents are not weights this build reads.
    #[error("{}: {reason}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with its contents.
        reason: Box<EvalError>,
    },
}

/// A pattern evaluation with its weights.
#[derive(Clone, PartialEq, Eq)]
pub struct Evaluator {
    /// Per phase, every shape's raw-index table, then the mover's and the opponent's mobility.
    /// Followed by [`PADDING`] zeros, so that any 16-bit index past any instance's offset stays
    /// inside the vector.
    full: Vec<i16>,
    /// Per phase, one bias per empty-square count.
    bias: Vec<i16>,
    /// The shapes the weights are for.
    set: PatternSet,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.full.iter().filter(|&&w| w != 0).count();
        f.debug_struct("Evaluator")
            .field("phases", &PHASES)
            .field("shapes", &self.set.shapes)
            .field("nonzero_weights", &nonzero)
            .finish()
    }
}

/// A shipped weights file, decoded into `cell` on first use.
fn shipped(cell: &'static OnceLock<Arc<Evaluator>>, bytes: &[u8]) -> &'static Arc<Evaluator> {
    cell.get_or_init(|| Arc::new(Evaluator::from_bytes(bytes).expect("a shipped weights file is valid")))
}

impl Evaluator {
    /// The weights shipped with kifu for evaluating positions and the depth-limited search
    /// (`src/engine/weights.bin`, made by `kifu train`; see docs/eval.md), decoded on first use
    /// and shared from then on.
    #[must_use]
    pub fn embedded() -> &'static Arc<Evaluator> {
        static SHIPPED: OnceLock<Arc<Evaluator>> = OnceLock::new();
        shipped(&SHIPPED, include_bytes!("../weights.bin"))
    }

    /// The weights shipped with kifu for the exact solver's move ordering
    /// (`src/engine/solver-weights.bin`, made by `kifu train` from fewer games; see
    /// docs/eval.md: its search takes fewer nodes with them), decoded on first use and shared
    /// from then on.
    #[must_use]
    pub fn embedded_for_solver() -> &'static Arc<Evaluator> {
        static SHIPPED: OnceLock<Arc<Evaluator>> = OnceLock::new();
        shipped(&SHIPPED, include_bytes!("../solver-weights.bin"))
    }

    /// The expected final margin for `player` (the side to move) against `opponent`, in units of
    /// `1 / SCALE` disc, empty squares going to the winner. The two must not overlap.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        self.evaluate_with(player, opponent, pattern::pext)
    }

    /// The static value as `kifu eval` gives it, in units of `1 / SCALE` disc: a finished
    /// game's final margin (empty squares to the winner), else [`Evaluator::evaluate`] held to
    /// +-64 discs (the pattern sum can pass the margins a board allows on extreme positions).
    #[must_use]
    pub fn value(&self, player: u64, opponent: u64) -> i32 {
        if legal_moves(player, opponent) == 0 && legal_moves(opponent, player) == 0 {
            let diff = player.count_ones() as i32 - opponent.count_ones() as i32;
            let empties = 64 - (player | opponent).count_ones() as i32;
            return SCALE * (diff + diff.signum() * empties);
        }
        self.evaluate(player, opponent).clamp(-64 * SCALE, 64 * SCALE)
    }

    /// The [`Features`] of `p` to move against `o` for these weights' shapes, read from the
    /// bitboards.
    #[inline]
    pub(crate) fn features(&self, p: u64, o: u64) -> Features {
        layout().features(&self.set, p, o)
    }

    /// [`Evaluator::evaluate`] from the position's [`Features`] (made by
    /// [`Evaluator::features`] and kept up to date by a search instead of read from the
    /// bitboards). With AVX-512 the weights are gathered 16 at a time.
    #[inline]
    pub(crate) fn evaluate_features(&self, p: u64, o: u64, features: &Features) -> i32 {
        self.features_sum::<false>(p, o, features).unwrap_or_default()
    }

    /// [`Evaluator::evaluate_features`], or `None` when neither side has a move: the game is
    /// over, and its value is its final margin, not an estimate. It costs nothing more: the
    /// mobility terms generate both sides' moves anyway.
    #[inline]
    pub(crate) fn evaluate_unless_over(&self, p: u64, o: u64, features: &Features) -> Option<i32> {
        self.features_sum::<true>(p, o, features)
    }

    /// The sum of [`Evaluator::evaluate_features`]; `None` when `OVER` and the game is over.
    #[inline(always)]
    fn features_sum<const OVER: bool>(&self, p: u64, o: u64, features: &Features) -> Option<i32> {
        debug_assert_eq!(*features, self.features(p, o));
        #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
        {
            // SAFETY: the build enables AVX-512F (checked by the cfg above); a feature index is
            // a 16-bit value and an offset is below `full_len`, so every weight read lies in the
            // phase's table or the `PADDING` entries after it, with room for the two bytes each
            // gather reads past its weight.
            self.sum_with::<OVER>(p, o, |table, layout| unsafe {
                let (offsets, indices) = (&layout.lane_offsets, &features.mover.0);
                // An instance count known at compile time for each set.
                if self.set.instances == pattern::SOLVER_INSTANCES {
                    gathered_sum::<{ pattern::SOLVER_INSTANCES }>(table, offsets, indices)
                } else {
                    gathered_sum::<{ pattern::INSTANCES }>(table, offsets, indices)
                }
            })
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
        self.sum::<OVER>(p, o, features.mover.0[..self.set.instances].iter().map(|&index| usize::from(index)))
    }

    #[inline(always)]
    fn evaluate_with(&self, p: u64, o: u64, extract: impl Fn(u64, u64) -> u64 + Copy) -> i32 {
        let layout = layout();
        let instances = &layout.instances[..self.set.instances];
        self.sum::<false>(p, o, instances.iter().map(|inst| layout.raw_index(inst, p, o, extract))).unwrap_or_default()
    }

    /// The evaluation given the raw index of each instance, in order ([`Evaluator::sum_with`]).
    #[inline(always)]
    fn sum<const OVER: bool>(&self, p: u64, o: u64, indices: impl Iterator<Item = usize>) -> Option<i32> {
        self.sum_with::<OVER>(p, o, |table, layout| {
            let mut sum = 0;
            for (&offset, index) in layout.offsets[..self.set.instances].iter().zip(indices) {
                let at = offset as usize + index;
                debug_assert!(at < self.set.full_mobility);
                // SAFETY: `table` runs `PADDING` entries past this phase's `full_len`. A raw
                // index read from the bitboards is below 3^n (n the shape's squares), the length
                // of the shape's table from its offset; if a caller's mistake made the sides
                // overlap, below 1.5 * 3^n, at most 3^10 / 2 < `PADDING` past that table. A
                // feature index is a 16-bit value and an offset is below `full_len`. Wrong
                // indices read wrong weights, never outside the vector.
                sum += i32::from(unsafe { *table.get_unchecked(at) });
            }
            sum
        })
    }

    /// The evaluation with the pattern weights summed by `patterns` from the phase's table (its
    /// pattern tables, then mobility, then `PADDING` zeros) and the layout: their sum, the
    /// bias of the empty-square count and both sides' mobility terms; `None` instead when `OVER`
    /// and neither side has a move.
    #[inline(always)]
    fn sum_with<const OVER: bool>(&self, p: u64, o: u64, patterns: impl FnOnce(&[i16], &Layout) -> i32) -> Option<i32> {
        debug_assert_eq!(p & o, 0, "the sides overlap");
        let layout = layout();
        let empties = (!(p | o)).count_ones().min(60);
        let phase = phase(empties);
        let table = &self.full[phase * self.set.full_len..];
        let sum = i32::from(self.bias[phase * EMPTIES_SLOTS + empties as usize]) + patterns(table, layout);
        let mobility = &table[self.set.full_mobility..];
        let (mine, theirs) = (legal_moves(p, o).count_ones() as usize, legal_moves(o, p).count_ones() as usize);
        if OVER && mine == 0 && theirs == 0 {
            return None;
        }
        let (mine, theirs) = (mine.min(MOBILITY_SLOTS - 1), theirs.min(MOBILITY_SLOTS - 1));
        Some(sum + i32::from(mobility[mine]) + i32::from(mobility[MOBILITY_SLOTS + theirs]))
    }

    /// [`Evaluator::evaluate`] with the portable bit extraction, for tests.
    #[cfg(test)]
    fn evaluate_portable(&self, player: u64, opponent: u64) -> i32 {
        self.evaluate_with(player, opponent, pattern::pext_portable)
    }

    /// An evaluator for `set` from compact per-phase vectors (see [`PatternSet::compact_len`]),
    /// phase after phase.
    pub(crate) fn from_compact(set: PatternSet, values: &[i16]) -> Evaluator {
        let layout = layout();
        assert_eq!(values.len(), PHASES * set.compact_len, "compact weights of the wrong length");
        let mut full = vec![0i16; PHASES * set.full_len + PADDING];
        let mut bias = vec![0i16; PHASES * EMPTIES_SLOTS];
        for phase in 0..PHASES {
            let compact = &values[phase * set.compact_len..][..set.compact_len];
            let table = &mut full[phase * set.full_len..][..set.full_len];
            for shape in &layout.shapes[..set.shapes] {
                for (raw, &slot) in shape.slot_of.iter().enumerate() {
                    table[shape.full_offset + raw] = compact[shape.compact_offset + slot as usize];
                }
            }
            table[set.full_mobility..][..2 * MOBILITY_SLOTS]
                .copy_from_slice(&compact[set.compact_mobility..][..2 * MOBILITY_SLOTS]);
            bias[phase * EMPTIES_SLOTS..][..EMPTIES_SLOTS]
                .copy_from_slice(&compact[set.compact_bias..][..EMPTIES_SLOTS]);
        }
        Evaluator { full, bias, set }
    }

    /// The compact per-phase vectors, phase after phase (the inverse of `from_compact`).
    fn compact(&self) -> Vec<i16> {
        let layout: &Layout = layout();
        let set = &self.set;
        let mut out = Vec::with_capacity(PHASES * set.compact_len);
        for phase in 0..PHASES {
            let table = &self.full[phase * set.full_len..][..set.full_len];
            for shape in &layout.shapes[..set.shapes] {
                out.extend(shape.representative.iter().map(|&raw| table[shape.full_offset + raw as usize]));
            }
            out.extend_from_slice(&table[set.full_mobility..][..2 * MOBILITY_SLOTS]);
            out.extend_from_slice(&self.bias[phase * EMPTIES_SLOTS..][..EMPTIES_SLOTS]);
        }
        out
    }

    /// The weights file: `KIFUEVAL`, then four little-endian `u32` (format version, phases,
    /// values per phase, scale), then a zlib stream of the values (`i16`, one slot per symmetry
    /// orbit of each shape's indices, then the mobility tables and the biases, phase after phase;
    /// the values per phase tell how many of the shapes the weights use)
    /// as two byte planes: every low byte, then every high byte. The same weights always give the
    /// same bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let values = self.compact();
        let mut out = Vec::with_capacity(HEADER_LEN + values.len());
        out.extend_from_slice(MAGIC);
        for field in [VERSION, PHASES as u32, self.set.compact_len as u32, SCALE as u32] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        let planes: Vec<u8> =
            values.iter().map(|v| v.to_le_bytes()[0]).chain(values.iter().map(|v| v.to_le_bytes()[1])).collect();
        let mut encoder = flate2::write::ZlibEncoder::new(out, flate2::Compression::best());
        encoder.write_all(&planes).expect("writing to memory");
        encoder.finish().expect("writing to memory")
    }

    /// Reads weights written by [`Evaluator::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Evaluator, EvalError> {
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err(EvalError::Magic);
        }
        let field = |i: usize| u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().expect("4 bytes"));
        if field(0) != VERSION {
            return Err(EvalError::Version(field(0)));
        }
        let (phases, len, scale) = (field(1), field(2), field(3));
        let set = layout().set_of_len(len as usize).filter(|_| phases as usize == PHASES && scale == SCALE as u32);
        let Some(set) = set else {
            return Err(EvalError::Shape { phases, len, scale, expected: layout().set(PatternSet::ALL).compact_len });
        };
        let count = PHASES * set.compact_len;
        let mut planes = Vec::with_capacity(2 * count);
        flate2::read::ZlibDecoder::new(&bytes[HEADER_LEN..])
            .take(2 * count as u64 + 1)
            .read_to_end(&mut planes)
            .map_err(|e| EvalError::Data(e.to_string()))?;
        if planes.len() != 2 * count {
            return Err(EvalError::Data(format!("{} bytes of values, expected {}", planes.len(), 2 * count)));
        }
        let values: Vec<i16> = (0..count).map(|i| i16::from_le_bytes([planes[i], planes[count + i]])).collect();
        Ok(Evaluator::from_compact(set, &values))
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<Evaluator, EvalError> {
        let bytes = std::fs::read(path).map_err(|source| EvalError::Io { path: path.to_path_buf(), source })?;
        Evaluator::from_bytes(&bytes).map_err(|e| EvalError::File { path: path.to_path_buf(), reason: Box::new(e) })
    }
}

/// The sum over the first `INSTANCES` lanes of the weights at `offsets[k] + indices[k]` in
/// `table`, by one gather per 16 lanes (each reads the 32-bit word at its weight and keeps the
/// low half; the lanes past the last instance are masked off).
///
/// # Safety
/// The processor has AVX-512F, and for each lane `k` below `INSTANCES` the entries
/// `offsets[k] + indices[k]` and the one after it lie in `table`.
#[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
#[inline(always)]
unsafe fn gathered_sum<const INSTANCES: usize>(
    table: &[i16],
    offsets: &[u32; pattern::LANES],
    indices: &[u16; pattern::LANES],
) -> i32 {
    use std::arch::x86_64::*;
    const { assert!(INSTANCES <= pattern::INSTANCES) };
    // SAFETY: the caller's promises; `INSTANCES` lanes lie in the arrays.
    unsafe {
        let mut acc = _mm512_setzero_si512();
        for k in 0..INSTANCES.div_ceil(16) {
            let index = _mm512_cvtepu16_epi32(_mm256_loadu_si256(indices.as_ptr().add(16 * k).cast()));
            let at = _mm512_add_epi32(index, _mm512_loadu_si512(offsets.as_ptr().add(16 * k).cast()));
            let live = (INSTANCES - 16 * k).min(16);
            let lanes = (u32::MAX >> (32 - live)) as u16;
            let words = _mm512_mask_i32gather_epi32::<2>(_mm512_setzero_si512(), lanes, at, table.as_ptr().cast());
            // The wanted weight is the low half of each gathered word.
            acc = _mm512_add_epi32(acc, _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(words)));
        }
        _mm512_reduce_add_epi32(acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Bitboard;
    use proptest::prelude::*;

    /// Weights of the first `shapes` shapes with every value different and spread over the whole
    /// `i16` range.
    fn scrambled_set(seed: u64, shapes: usize) -> Evaluator {
        let set = layout().set(shapes);
        let mut s = seed;
        let values: Vec<i16> = (0..PHASES * set.compact_len)
            .map(|_| {
                s = crate::core::splitmix64(s);
                s as i16
            })
            .collect();
        Evaluator::from_compact(set, &values)
    }

    /// [`scrambled_set`] of all the shapes.
    fn scrambled(seed: u64) -> Evaluator {
        scrambled_set(seed, PatternSet::ALL)
    }

    fn scrambled_once() -> &'static Evaluator {
        static E: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
        E.get_or_init(|| scrambled(42))
    }

    /// Scrambled weights of the solver's eleven shapes.
    fn scrambled_solver_set() -> &'static Evaluator {
        static E: std::sync::OnceLock<Evaluator> = std::sync::OnceLock::new();
        E.get_or_init(|| scrambled_set(43, PatternSet::SOLVER))
    }

    /// A position reached by `plies` random moves from the start (passes when forced).
    fn random_position(seed: u64, plies: usize) -> (u64, u64) {
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut s = seed;
        for _ in 0..plies {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            s = crate::core::splitmix64(s);
            let pick = (s % u64::from(moves.count_ones())) as usize;
            let sq = crate::core::bitboard::Bits(moves).nth(pick).expect("in range");
            let f = crate::core::bitboard::flips(sq, p, o);
            (p, o) = (o & !f, p | f | 1 << sq);
        }
        (p, o)
    }

    proptest! {
        /// The leaf value of the searches is the evaluation, but for a game that is over, which
        /// it tells apart (a random game played to its end, or stopped anywhere before).
        #[test]
        fn evaluate_unless_over_tells_the_end(seed in any::<u64>(), plies in 0usize..70, wipe in any::<bool>()) {
            let e = scrambled_once();
            let (p, o) = random_position(seed, plies);
            // A side wiped out: over with empty squares left.
            let (p, o) = if wipe { (p | o, 0) } else { (p, o) };
            let over = legal_moves(p, o) == 0 && legal_moves(o, p) == 0;
            let features = e.features(p, o);
            let got = e.evaluate_unless_over(p, o, &features);
            prop_assert_eq!(got.is_none(), over);
            if !over {
                prop_assert_eq!(got, Some(e.evaluate_features(p, o, &features)));
            }
        }

        /// The evaluation does not change under any of the eight symmetries, whatever the weights.
        #[test]
        fn exactly_symmetric(seed in any::<u64>(), plies in 0usize..62) {
            let e = scrambled_once();
            let (p, o) = random_position(seed, plies);
            let value = e.evaluate(p, o);
            let transforms: [fn(Bitboard) -> Bitboard; 7] = [
                Bitboard::rotate_90, Bitboard::rotate_180, Bitboard::rotate_270, Bitboard::flip_vertical,
                Bitboard::flip_horizontal, Bitboard::flip_diagonal, Bitboard::flip_anti_diagonal,
            ];
            for t in transforms {
                prop_assert_eq!(e.evaluate(t(Bitboard(p)).0, t(Bitboard(o)).0), value);
            }
        }

        /// Features updated move by move (and pass by pass) along a random game are those read
        /// from the bitboards, and evaluate the same.
        #[test]
        fn features_follow_the_moves(seed in any::<u64>(), all in any::<bool>()) {
            let e = if all { scrambled_once() } else { scrambled_solver_set() };
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut features = e.features(p, o);
            let mut s = seed;
            loop {
                prop_assert_eq!(features, e.features(p, o));
                prop_assert_eq!(e.evaluate_features(p, o, &features), e.evaluate(p, o));
                let moves = legal_moves(p, o);
                if moves == 0 {
                    if legal_moves(o, p) == 0 {
                        break;
                    }
                    (p, o, features) = (o, p, features.passed());
                    continue;
                }
                s = crate::core::splitmix64(s);
                let pick = (s % u64::from(moves.count_ones())) as usize;
                let sq = crate::core::bitboard::Bits(moves).nth(pick).expect("in range");
                let f = crate::core::bitboard::flips(sq, p, o);
                features = features.play(sq, f);
                (p, o) = (o & !f, p | f | 1 << sq);
            }
        }

        /// Arbitrary disjoint boards (not only reachable ones) evaluate the same both ways.
        #[test]
        fn portable_extraction_agrees(a in any::<u64>(), b in any::<u64>()) {
            let (p, o) = (a & b, !a & (b ^ a.rotate_left(7)));
            for e in [scrambled_once(), scrambled_solver_set()] {
                prop_assert_eq!(e.evaluate(p, o), e.evaluate_portable(p, o));
            }
        }

        /// Weights of fewer shapes evaluate as those of all the shapes with the others' weights
        /// at zero: the shapes left out count for nothing.
        #[test]
        fn fewer_shapes_are_the_rest_at_zero(seed in any::<u64>(), plies in 0usize..62) {
            let few = scrambled_solver_set();
            let (set, all) = (layout().set(PatternSet::SOLVER), layout().set(PatternSet::ALL));
            let mut values = vec![0i16; PHASES * all.compact_len];
            for (phase, compact) in few.compact().chunks_exact(set.compact_len).enumerate() {
                let to = &mut values[phase * all.compact_len..][..all.compact_len];
                to[..set.compact_mobility].copy_from_slice(&compact[..set.compact_mobility]);
                to[all.compact_mobility..].copy_from_slice(&compact[set.compact_mobility..]);
            }
            let padded = Evaluator::from_compact(all, &values);
            let (p, o) = random_position(seed, plies);
            prop_assert_eq!(few.evaluate(p, o), padded.evaluate(p, o));
            prop_assert_eq!(few.evaluate_features(p, o, &few.features(p, o)), padded.evaluate(p, o));
        }
    }

    #[test]
    fn round_trip_through_bytes() {
        for e in [scrambled(3), scrambled_set(3, PatternSet::SOLVER)] {
            let bytes = e.to_bytes();
            let back = Evaluator::from_bytes(&bytes).unwrap();
            assert!(back == e);
            assert_eq!(back.set, e.set);
            assert_eq!(back.to_bytes(), bytes);
        }
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = scrambled(4).to_bytes();
        assert!(matches!(Evaluator::from_bytes(b"hello"), Err(EvalError::Magic)));
        let mut v = bytes.clone();
        v[8] = 9;
        assert!(matches!(Evaluator::from_bytes(&v), Err(EvalError::Version(9))));
        let mut v = bytes.clone();
        v[12] = 3;
        assert!(matches!(Evaluator::from_bytes(&v), Err(EvalError::Shape { phases: 3, .. })));
        // Values per phase that no set of shapes has.
        let mut v = bytes.clone();
        v[16] ^= 1;
        assert!(matches!(Evaluator::from_bytes(&v), Err(EvalError::Shape { .. })), "{:?}", Evaluator::from_bytes(&v));
        assert!(matches!(Evaluator::from_bytes(&bytes[..bytes.len() - 10]), Err(EvalError::Data(_))));
        let missing = Evaluator::load(Path::new("/nonexistent/weights.bin")).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/weights.bin"), "{missing}");
    }

    #[test]
    fn the_shipped_weights_load_and_make_sense() {
        let e = Evaluator::embedded();
        let start = e.evaluate(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert!(start.abs() < 8 * SCALE, "{start}");
        // Three empties; 50 discs against the 11 of row 8 and a7-c7: won by far.
        let o = 0xff07_0000_0000_0000u64;
        let p = !o & !0x0038_0000_0000_0000;
        assert!(e.evaluate(p, o) > 20 * SCALE, "{}", e.evaluate(p, o));
        assert!(e.evaluate(o, p) < -20 * SCALE, "{}", e.evaluate(o, p));
        assert_eq!(Evaluator::from_bytes(&e.to_bytes()).unwrap(), **e);
        assert_eq!(e.set.shapes, PatternSet::ALL);
        assert_eq!(Evaluator::embedded_for_solver().set.shapes, PatternSet::SOLVER);
    }

    #[test]
    fn phases_cover_every_count() {
        assert_eq!(phase(0), 0);
        assert_eq!(phase(3), 0);
        assert_eq!(phase(4), 1);
        assert_eq!(phase(55), 13);
        assert_eq!(phase(56), 14);
        assert_eq!(phase(60), 14);
    }
}
