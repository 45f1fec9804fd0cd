//! A simple evaluation for every board: features read off the board's own geometry, weighted by
//! how full the board is.

use crate::core::{Color, Position, Rules, Scoring, WideBits};
use crate::engine::eval::SCALE;

/// The cells of a board as lines see them: which cells are playable, which have a playable
/// neighbour in each direction, and which are corner-like.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    playable: WideBits,
    /// Per direction of [`WideBits::DIRECTIONS`], the playable cells whose neighbour that way is
    /// playable too.
    open: [WideBits; 8],
    corners: WideBits,
}

impl Geometry {
    /// The geometry of a board: its size, shape and holes.
    #[must_use]
    pub fn of(rules: &Rules) -> Geometry {
        let playable = rules.playable();
        // A cell's neighbour in direction `d` is playable when the cell is in the playable set
        // moved one step back (`d ^ 1` is the opposite direction).
        let open = std::array::from_fn(|d| playable & playable.step(d ^ 1));
        Geometry { playable, open, corners: rules.corners() }
    }

    /// The corner-like cells ([`Rules::corners`]).
    #[must_use]
    pub fn corners(&self) -> WideBits {
        self.corners
    }

    /// The playable cells.
    #[must_use]
    pub fn playable(&self) -> WideBits {
        self.playable
    }

    /// A lower bound of the discs of `mine` that can never be flipped, with `occupied` the cells
    /// holding a disc: a disc is stable when, on each of the four lines through it, the line's
    /// run of playable cells is full, or a neighbour on that line is off the board, a hole or a
    /// stable disc of its own colour (repeated until nothing more is found).
    #[must_use]
    pub fn stable(&self, mine: WideBits, occupied: WideBits) -> WideBits {
        let empty = self.playable & !occupied;
        let mut full = [WideBits::EMPTY; 4];
        for (axis, full) in full.iter_mut().enumerate() {
            let mut reach = WideBits::EMPTY;
            for d in [2 * axis, 2 * axis + 1] {
                // The cells from which an empty cell lies ahead in direction `d` along playable
                // cells.
                let mut r = empty.step(d ^ 1) & self.playable;
                loop {
                    let next = r | (r.step(d ^ 1) & self.playable);
                    if next == r {
                        break;
                    }
                    r = next;
                }
                reach |= r;
            }
            *full = occupied & !reach;
        }
        let mut stable = WideBits::EMPTY;
        loop {
            let mut next = mine;
            for (axis, &full) in full.iter().enumerate() {
                let side = |d: usize| !self.open[d] | stable.step(d ^ 1);
                next &= full | side(2 * axis) | side(2 * axis + 1);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// The features of a position from the side to move's view: each is the mover's figure less the
/// opponent's, except parity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// Capturing placements.
    pub mobility: i32,
    /// Discs on corner-like cells ([`Geometry::corners`]).
    pub corners: i32,
    /// Stable discs ([`Geometry::stable`]).
    pub stable: i32,
    /// Discs next to an empty cell (fewer is better).
    pub frontier: i32,
    /// Discs on the board.
    pub discs: i32,
    /// 1 when the number of empty cells is odd (the mover would play last if nobody passes),
    /// else -1.
    pub parity: i32,
}

/// Weights of the features in `1 / SCALE` of a disc, on an empty board and on a full one (the
/// weight in between goes linearly with the share of the cells filled). Set by hand: on a full
/// board only the discs count, so that the evaluation meets the final margin there (stable
/// discs and corners are discs too, and weighing them fully as well would count them two or
/// three times). Checked on 6x6 and 10x10 positions against exact scores (docs/BENCHMARKS.md).
const WEIGHTS: [(i32, i32); 6] = [
    // mobility
    (SCALE, SCALE / 4),
    // corners
    (4 * SCALE, SCALE / 2),
    // stable
    (SCALE, SCALE / 2),
    // frontier
    (-SCALE / 2, 0),
    // discs
    (-SCALE / 4, SCALE),
    // parity
    (0, SCALE),
];

/// The evaluation for every variant: a weighted sum of [`Features`], in units of
/// [`crate::engine::eval::SCALE`] per disc of the final margin for the side to move under the
/// variant's scoring.
///
/// Under anti-reversi (fewest discs wins) the terms that count discs (discs, corners, stable
/// discs) change sign: a stable disc is a disc one cannot get rid of. Mobility, frontier and
/// parity keep theirs.
#[derive(Clone, Debug)]
pub struct GenericEval {
    geometry: Geometry,
    anti: bool,
    cells: i32,
}

impl GenericEval {
    /// The evaluation for positions under `rules`.
    #[must_use]
    pub fn new(rules: &Rules) -> GenericEval {
        let geometry = Geometry::of(rules);
        let cells = geometry.playable.count() as i32;
        GenericEval { geometry, anti: rules.variant().scoring == Scoring::Anti, cells }
    }

    /// The board's geometry.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The features of a position, from the side to move's view.
    #[must_use]
    pub fn features(&self, position: &Position) -> Features {
        let side = position.side_to_move();
        let (me, them) = (position.discs_of(side), position.discs_of(side.other()));
        let occupied = me | them;
        let empty = self.geometry.playable & !occupied;
        let count = |b: WideBits| b.count() as i32;
        let near_empty = empty.neighbours();
        let corners = self.geometry.corners;
        Features {
            mobility: count(WideBits::legal_moves(me, them) & empty) - count(WideBits::legal_moves(them, me) & empty),
            corners: count(me & corners) - count(them & corners),
            stable: count(self.geometry.stable(me, occupied)) - count(self.geometry.stable(them, occupied)),
            frontier: count(me & near_empty) - count(them & near_empty),
            discs: count(me) - count(them),
            parity: if count(empty) % 2 == 1 { 1 } else { -1 },
        }
    }

    /// The expected final margin for the side to move, in `1 / SCALE` of a disc, strictly
    /// within the largest possible margin.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let filled = (position.count(Color::Black) + position.count(Color::White)) as i32;
        self.weigh(&self.features(position), filled)
    }

    /// The evaluation of a position with these features and `filled` discs on the board.
    pub(super) fn weigh(&self, f: &Features, filled: i32) -> i32 {
        let sign = if self.anti { -1 } else { 1 };
        let values = [f.mobility, sign * f.corners, sign * f.stable, f.frontier, sign * f.discs, f.parity];
        let cells = self.cells.max(1);
        let sum: i32 = values
            .iter()
            .zip(WEIGHTS)
            .map(|(&v, (open, end))| v * (open * (cells - filled) + end * filled) / cells)
            .sum();
        let bound = SCALE * self.cells - 1;
        sum.clamp(-bound, bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Square, Symmetry, splitmix64};

    fn rules(spec: &str) -> Rules {
        spec.parse().unwrap()
    }

    #[test]
    fn stable_discs_grow_from_corners_and_full_lines() {
        let r = rules("othello,size=4").shared();
        let pos = Position::from_setup(
            r.clone(),
            &crate::core::Setup {
                black: ["a1", "b1", "a2", "c3"].iter().map(|s| s.parse::<Square>().unwrap()).collect(),
                white: ["c1", "d1", "b2"].iter().map(|s| s.parse::<Square>().unwrap()).collect(),
                side: Color::Black,
            },
        )
        .unwrap();
        let g = Geometry::of(&r);
        let occupied = pos.discs_of(Color::Black) | pos.discs_of(Color::White);
        let stable: Vec<String> =
            g.stable(pos.discs_of(Color::Black), occupied).squares().map(|s| s.to_string()).collect();
        // a1 is a corner; b1 and a2 lean on it along the edge and the full first row; c3 is not.
        assert_eq!(stable, ["a1", "b1", "a2"]);
        // The first row is full: d1 is a corner, c1 leans on it.
        let white: Vec<String> =
            g.stable(pos.discs_of(Color::White), occupied).squares().map(|s| s.to_string()).collect();
        assert_eq!(white, ["c1", "d1"]);
    }

    /// Random positions under `spec` after up to `plies` random moves.
    fn random_position(spec: &str, seed: u64, plies: usize) -> Position {
        let mut pos = Position::start(rules(spec).shared());
        let mut s = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            s = splitmix64(s);
            pos.play_mut(moves[(s % moves.len() as u64) as usize]).unwrap();
        }
        pos
    }

    #[test]
    fn the_evaluation_is_symmetric_under_the_boards_symmetries() {
        for spec in
            ["othello,size=6", "anti", "grand", "8stars", "othello,holes=c3/f6", "othello,size=10,start=parallel"]
        {
            for seed in 0..20 {
                let pos = random_position(spec, seed, 8 + seed as usize * 3);
                let eval = GenericEval::new(pos.rules());
                let value = eval.evaluate(&pos);
                for sym in Symmetry::ALL {
                    if let Some(other) = pos.transformed(sym) {
                        assert_eq!(eval.evaluate(&other), value, "{spec} seed {seed} {sym:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn anti_inverts_the_disc_terms() {
        let pos = random_position("othello,size=6", 3, 20);
        let anti = random_position("anti,size=6", 3, 20);
        assert_eq!(pos.board_string(), anti.board_string());
        let f = GenericEval::new(pos.rules()).features(&pos);
        assert_eq!(f, GenericEval::new(anti.rules()).features(&anti));
        // A position where the mover has every corner is good in Othello and bad in anti.
        let r = rules("othello,size=4").shared();
        let a = rules("anti,size=4").shared();
        let setup = crate::core::Setup {
            black: ["a1", "d1", "a4", "d4", "b2"].iter().map(|s| s.parse::<Square>().unwrap()).collect(),
            white: ["c3"].iter().map(|s| s.parse::<Square>().unwrap()).collect(),
            side: Color::Black,
        };
        let good = Position::from_setup(r, &setup).unwrap();
        let bad = Position::from_setup(a, &setup).unwrap();
        assert!(GenericEval::new(good.rules()).evaluate(&good) > 0);
        assert!(GenericEval::new(bad.rules()).evaluate(&bad) < 0);
    }
}
