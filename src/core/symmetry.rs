//! The eight symmetries of a square board and canonical forms.

use std::sync::Arc;

use super::bitboard::Bitboard;
use super::position::{Cells, Position, Setup};
use super::rules::Rules;
use super::square::{Color, Move, Square};
use super::wide::WideBits;

/// A symmetry of the square: the identity, three rotations and four mirrors.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// A quarter turn clockwise (`a1` goes to the top-right corner).
    Rotate90,
    /// A half turn (`a1` goes to the bottom-right corner).
    Rotate180,
    /// A quarter turn anticlockwise (`a1` goes to the bottom-left corner).
    Rotate270,
    /// Top and bottom swap.
    FlipVertical,
    /// Left and right swap.
    FlipHorizontal,
    /// Mirror in the a1 diagonal: file and row swap.
    FlipDiagonal,
    /// Mirror in the other diagonal (`a1` and the bottom-right corner swap).
    FlipAntiDiagonal,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipVertical,
        Symmetry::FlipHorizontal,
        Symmetry::FlipDiagonal,
        Symmetry::FlipAntiDiagonal,
    ];

    /// Where `sq` goes on a `size` x `size` board.
    ///
    /// # Panics
    /// When `sq` is not on that board (its file or row is `size` or more).
    #[must_use]
    pub const fn apply(self, sq: Square, size: u8) -> Square {
        let (f, r, last) = (sq.file(), sq.row(), size - 1);
        let (f, r) = match self {
            Symmetry::Identity => (f, r),
            Symmetry::Rotate90 => (last - r, f),
            Symmetry::Rotate180 => (last - f, last - r),
            Symmetry::Rotate270 => (r, last - f),
            Symmetry::FlipVertical => (f, last - r),
            Symmetry::FlipHorizontal => (last - f, r),
            Symmetry::FlipDiagonal => (r, f),
            Symmetry::FlipAntiDiagonal => (last - r, last - f),
        };
        Square::new(f, r)
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// Applies the symmetry to a move (a pass stays a pass).
    #[must_use]
    pub const fn apply_move(self, mv: Move, size: u8) -> Move {
        match mv {
            Move::Place(sq) => Move::Place(self.apply(sq, size)),
            Move::Pass => Move::Pass,
        }
    }

    /// Applies the symmetry to an 8x8 bitboard.
    #[must_use]
    pub const fn apply_bitboard(self, b: Bitboard) -> Bitboard {
        match self {
            Symmetry::Identity => b,
            Symmetry::Rotate90 => b.rotate_90(),
            Symmetry::Rotate180 => b.rotate_180(),
            Symmetry::Rotate270 => b.rotate_270(),
            Symmetry::FlipVertical => b.flip_vertical(),
            Symmetry::FlipHorizontal => b.flip_horizontal(),
            Symmetry::FlipDiagonal => b.flip_diagonal(),
            Symmetry::FlipAntiDiagonal => b.flip_anti_diagonal(),
        }
    }

    /// Applies the symmetry to a set of cells of a `size` x `size` board.
    #[must_use]
    pub fn apply_cells(self, cells: WideBits, size: u8) -> WideBits {
        // As a transpose (file and row swap), then mirrors of the files and of the rows, on
        // the sixteen rows of 16 bits.
        let (transpose, files, rows) = match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::Rotate90 => (true, true, false),
            Symmetry::Rotate180 => (false, true, true),
            Symmetry::Rotate270 => (true, false, true),
            Symmetry::FlipVertical => (false, false, true),
            Symmetry::FlipHorizontal => (false, true, false),
            Symmetry::FlipDiagonal => (true, false, false),
            Symmetry::FlipAntiDiagonal => (true, true, true),
        };
        let n = usize::from(size);
        let mut r: [u16; 16] = std::array::from_fn(|i| (cells.0[i / 4] >> (16 * (i % 4))) as u16);
        if transpose {
            r = transposed(&r);
        }
        if files {
            for row in &mut r[..n] {
                *row = row.reverse_bits() >> (16 - n);
            }
        }
        if rows {
            r[..n].reverse();
        }
        WideBits(std::array::from_fn(|w| (0..4).fold(0, |acc, i| acc | u64::from(r[4 * w + i]) << (16 * i))))
    }

    /// Whether the symmetry maps the board of `rules` (its shape and holes) onto itself.
    #[must_use]
    pub fn preserves(self, rules: &Rules) -> bool {
        self.apply_cells(rules.playable(), rules.size()) == rules.playable()
    }
}

/// A 16x16 bit matrix (bit `f` of row `r`) with files and rows swapped, as four 8x8 blocks,
/// each transposed as an 8x8 bitboard.
fn transposed(rows: &[u16; 16]) -> [u16; 16] {
    let mut out = [0u16; 16];
    for block_row in 0..2 {
        for block_file in 0..2 {
            let block = (0..8)
                .fold(0u64, |acc, i| acc | u64::from((rows[8 * block_row + i] >> (8 * block_file)) & 0xff) << (8 * i));
            if block == 0 {
                continue;
            }
            let flipped = Bitboard(block).flip_diagonal().0;
            // Block (row R, file F) goes to (row F, file R).
            for i in 0..8 {
                out[8 * block_file + i] |= (((flipped >> (8 * i)) & 0xff) as u16) << (8 * block_row);
            }
        }
    }
    out
}

impl Position {
    /// The position under a symmetry, or `None` when the symmetry does not map the board's
    /// shape and holes onto themselves. The rules stay the same, so the start position of the
    /// result may differ from the rules' own start; that is intended.
    #[must_use]
    pub fn transformed(&self, sym: Symmetry) -> Option<Position> {
        let rules = self.rules();
        if !sym.preserves(rules) {
            return None;
        }
        let n = rules.size();
        let map = |c: Color| self.discs_of(c).squares().map(|sq| sym.apply(sq, n)).collect();
        let setup = Setup { black: map(Color::Black), white: map(Color::White), side: self.side_to_move() };
        let mut pos = Position::from_setup(Arc::clone(rules), &setup).ok()?;
        pos.copy_counters(self);
        Some(pos)
    }

    /// The canonical form: of the positions reachable by the symmetries the board allows, the
    /// one with the smallest (black, white) cell sets, with the symmetry that gives it.
    #[must_use]
    pub fn canonical(&self) -> (Position, Symmetry) {
        // On 8x8 bitboards the symmetry is chosen without building the seven other positions.
        let masks = self.rules().bitboard_masks().filter(|_| self.rules().size() == 8);
        if let (Some([black, white]), Some((playable, _))) = (self.bitboards(), masks) {
            let on = |s: Symmetry, b: u64| s.apply_bitboard(Bitboard(b)).0.to_wide();
            let best = Symmetry::ALL
                .iter()
                .copied()
                .filter(|&s| on(s, playable) == playable.to_wide())
                .min_by(|&a, &b| (on(a, black), on(a, white), a).cmp(&(on(b, black), on(b, white), b)))
                .unwrap_or(Symmetry::Identity);
            if let Some(p) = self.transformed(best) {
                return (p, best);
            }
        }
        let (_, _, best) = self.smallest_cells();
        let image = self.transformed(best).expect("the symmetry maps the board onto itself");
        (image, best)
    }

    /// Over the symmetries the board allows: the smallest (black, white) cell sets and the
    /// first symmetry giving them, mapping the cells without building positions.
    fn smallest_cells(&self) -> (WideBits, WideBits, Symmetry) {
        let rules = self.rules();
        let (n, playable) = (rules.size(), rules.playable());
        let (black, white) = (self.discs_of(Color::Black), self.discs_of(Color::White));
        Symmetry::ALL
            .into_iter()
            .filter(|s| s.apply_cells(playable, n) == playable)
            .map(|s| (s.apply_cells(black, n), s.apply_cells(white, n), s))
            .min()
            .expect("the identity always applies")
    }

    /// The discs of a canonical image without building it, as words: on 8x8 bitboards the
    /// smallest (black, white) pair of bitboards over the symmetries, then zeros; else the wide
    /// cells of [`Position::canonical`], black's then white's. Positions of one board have equal
    /// words exactly when a symmetry maps the discs of one onto the other's.
    #[must_use]
    pub fn canonical_words(&self) -> [u64; 8] {
        if let Some((black, white)) = self.smallest_bitboards() {
            return [black, white, 0, 0, 0, 0, 0, 0];
        }
        let (WideBits(black), WideBits(white), _) = self.smallest_cells();
        [black[0], black[1], black[2], black[3], white[0], white[1], white[2], white[3]]
    }

    /// A symmetry that turns this position into the image [`Position::canonical_words`] reads:
    /// positions with equal words all turn into one position by their own.
    #[must_use]
    pub fn canonical_words_symmetry(&self) -> Symmetry {
        let masks = self.rules().bitboard_masks();
        let (Some((black, white)), Some([b, w]), Some((playable, _))) =
            (self.smallest_bitboards(), self.bitboards(), masks)
        else {
            return self.canonical().1;
        };
        let on = |s: Symmetry, x: u64| s.apply_bitboard(Bitboard(x)).0;
        Symmetry::ALL
            .into_iter()
            .find(|&s| on(s, playable) == playable && on(s, b) == black && on(s, w) == white)
            .expect("one of the symmetries gives them")
    }

    /// On 8x8 bitboards: the smallest (black, white) pair of bitboards over the symmetries the
    /// board allows (a representative of the symmetries' images, if not the one
    /// [`Position::canonical`] builds).
    fn smallest_bitboards(&self) -> Option<(u64, u64)> {
        let masks = self.rules().bitboard_masks().filter(|_| self.rules().size() == 8);
        let (Some([black, white]), Some((playable, _))) = (self.bitboards(), masks) else { return None };
        let on = |s: Symmetry, b: u64| s.apply_bitboard(Bitboard(b)).0;
        Symmetry::ALL.iter().filter(|&&s| on(s, playable) == playable).map(|&s| (on(s, black), on(s, white))).min()
    }

    /// [`Position::canonical`] by building every transformed position (the slow twin).
    #[cfg(test)]
    fn canonical_by_transforming(&self) -> (Position, Symmetry) {
        let key = |p: &Position| (p.discs_of(Color::Black), p.discs_of(Color::White));
        Symmetry::ALL
            .iter()
            .filter_map(|&s| self.transformed(s).map(|p| (p, s)))
            .min_by(|a, b| key(&a.0).cmp(&key(&b.0)).then(a.1.cmp(&b.1)))
            .expect("the identity always applies")
    }
}

/// Whether a symmetry maps the start position of `rules` onto itself (for the standard start:
/// the identity, the half turn and the two diagonal mirrors).
#[must_use]
pub fn preserves_start(sym: Symmetry, rules: &Arc<Rules>) -> bool {
    let start = Position::start(Arc::clone(rules));
    // On 8x8 bitboards: the board and both colours map onto themselves.
    let masks = rules.bitboard_masks().filter(|_| rules.size() == 8);
    if let (Some(discs), Some((playable, _))) = (start.bitboards(), masks) {
        return [playable, discs[0], discs[1]].iter().all(|&b| sym.apply_bitboard(Bitboard(b)).0 == b);
    }
    start.transformed(sym).as_ref() == Some(&start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The position after up to `plies` random moves under the rules `spec`.
    fn random_position(spec: &str, seed: u64, plies: usize) -> Position {
        let mut pos = Position::start(spec.parse::<Rules>().unwrap().shared());
        let mut s = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            s = crate::core::splitmix64(s);
            pos.play_mut(moves[(s % moves.len() as u64) as usize]).unwrap();
        }
        pos
    }

    proptest! {
        /// The bitboard test of a symmetry of the start agrees with building the position.
        #[test]
        fn preserves_start_agrees_with_transforming(spec in prop::sample::select(vec!["othello", "othello,start=parallel", "othello,holes=a1/h8", "othello,holes=a1", "8stars", "othello,start=empty"])) {
            let rules = spec.parse::<Rules>().unwrap().shared();
            let start = Position::start(rules.clone());
            for sym in Symmetry::ALL {
                prop_assert_eq!(preserves_start(sym, &rules), start.transformed(sym).as_ref() == Some(&start), "{:?}", sym);
            }
        }

        /// The cell sets' symmetries agree with moving each square.
        #[test]
        fn apply_cells_moves_each_square(words in any::<[u64; 4]>(), size in 4u8..=16) {
            let board = (0..size).flat_map(|r| (0..size).map(move |f| Square::new(f, r)));
            let board = board.fold(WideBits::EMPTY, |acc, sq| acc | WideBits::from_square(sq));
            let cells = WideBits(words) & board;
            for sym in Symmetry::ALL {
                let each = cells.squares().fold(WideBits::EMPTY, |acc, sq| acc | WideBits::from_square(sym.apply(sq, size)));
                prop_assert_eq!(sym.apply_cells(cells, size), each, "{:?} on {}x{}", sym, size, size);
            }
        }

        /// The bitboard choice of the canonical form agrees with building all eight positions.
        #[test]
        fn canonical_agrees_with_its_slow_twin(seed in any::<u64>(), plies in 0usize..60, spec in prop::sample::select(vec!["othello", "othello,holes=a1/h8", "othello,size=6", "8stars", "othello,size=10", "othello,size=10,holes=a1"])) {
            let pos = random_position(spec, seed, plies);
            prop_assert_eq!(pos.canonical(), pos.canonical_by_transforming());
            // The words' own symmetry turns the position into the image the words read.
            let image = pos.transformed(pos.canonical_words_symmetry()).unwrap();
            prop_assert_eq!(image.canonical_words(), pos.canonical_words());
            prop_assert_eq!(image.canonical_words_symmetry(), Symmetry::Identity);
        }
    }

    proptest! {
        /// Each symmetry the board allows commutes with play: the transformed position's legal
        /// moves are the transformed moves, and playing a transformed move gives the
        /// transformed result.
        #[test]
        fn symmetries_commute_with_play(seed in any::<u64>(), plies in 0usize..60, spec in prop::sample::select(vec!["othello", "othello,size=6", "othello,size=10", "othello,holes=a1/h8", "8stars", "anti", "othello,start=empty"])) {
            let pos = random_position(spec, seed, plies);
            let n = pos.rules().size();
            for sym in Symmetry::ALL {
                let Some(image) = pos.transformed(sym) else { continue };
                let key = |m: &Move| format!("{m:?}");
                let mut want: Vec<Move> = pos.legal_moves().into_iter().map(|m| sym.apply_move(m, n)).collect();
                let mut got = image.legal_moves();
                want.sort_by_key(key);
                got.sort_by_key(key);
                prop_assert_eq!(&got, &want, "{:?}", sym);
                for mv in pos.legal_moves() {
                    let after = pos.clone().play(mv).unwrap().transformed(sym).unwrap();
                    let played = image.clone().play(sym.apply_move(mv, n)).unwrap();
                    prop_assert_eq!(played, after, "{:?} {:?}", sym, mv);
                }
            }
        }
    }

    #[test]
    fn inverses_undo() {
        for sym in Symmetry::ALL {
            for index in 0..=255u8 {
                let sq = Square::from_index(index);
                if sq.file() < 10 && sq.row() < 10 {
                    assert_eq!(sym.inverse().apply(sym.apply(sq, 10), 10), sq);
                }
            }
        }
    }

    #[test]
    fn bitboard_symmetries_match_square_symmetries() {
        let b = Bitboard(0x0123_4567_89ab_cdef);
        for sym in Symmetry::ALL {
            let by_squares = b.squares().fold(Bitboard::EMPTY, |acc, sq| acc | Bitboard::from_square(sym.apply(sq, 8)));
            assert_eq!(sym.apply_bitboard(b), by_squares, "{sym:?}");
        }
    }

    #[test]
    fn the_four_first_moves_are_one_up_to_symmetry() {
        let pos = Position::start(Rules::othello().shared());
        let canon: std::collections::HashSet<String> = pos
            .legal_moves()
            .into_iter()
            .map(|mv| pos.clone().play(mv).unwrap().canonical().0.board_string())
            .collect();
        assert_eq!(canon.len(), 1);
        let kept: Vec<Symmetry> =
            Symmetry::ALL.into_iter().filter(|&s| preserves_start(s, &Rules::othello().shared())).collect();
        assert_eq!(kept, [Symmetry::Identity, Symmetry::Rotate180, Symmetry::FlipDiagonal, Symmetry::FlipAntiDiagonal]);
    }

    #[test]
    fn holes_limit_the_symmetries() {
        let rules: Rules = "othello,holes=a2".parse().unwrap();
        let pos = Position::start(rules.shared());
        assert!(pos.transformed(Symmetry::FlipDiagonal).is_none());
        assert!(pos.transformed(Symmetry::Identity).is_some());
    }
}
