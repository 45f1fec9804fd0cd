//! An exact endgame solver for 8x8 positions: principal-variation search over bitboards with a
//! transposition table and enhanced transposition cut-offs, fastest-first move ordering (fewest
//! replies and least potential mobility for the opponent, corners first), and alpha-beta with
//! quadrant parity near the end, the last two empty squares played out directly.
//!
//! Scores are the final disc margin from the side to move, with the empty squares going to the
//! winner (the official rule), or plain disc counts when asked.

use crate::core::bitboard::{Bits, flips, legal_moves};
use crate::core::{Move, Position, Scoring, Square};

/// The solver's answer for a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution {
    /// The exact final margin for the side to move under perfect play.
    pub score: i32,
    /// The best move (a pass when the side to move must pass; none when the game is over).
    pub best: Option<Move>,
    /// The principal variation, from the transposition table.
    pub pv: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
}

/// How final positions are scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Counting {
    /// Empty squares go to the winner (the official rule).
    #[default]
    EmptiesToWinner,
    /// Plain disc difference.
    Plain,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
}

/// An exact solver with its transposition table, reusable across positions.
pub struct Solver {
    table: Vec<Entry>,
    nodes: u64,
    counting: Counting,
}

const NO_MOVE: u8 = 255;
const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Empties at and below which the search drops the table and the ordering.
const SHALLOW: u32 = 6;

impl Solver {
    /// A solver with a table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize, counting: Counting) -> Solver {
        let entries = (hash_mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let size = entries.next_power_of_two() / 2;
        let empty = Entry { lower: -64, upper: 64, best: NO_MOVE, ..Entry::default() };
        Solver { table: vec![empty; size.max(1024)], nodes: 0, counting }
    }

    /// The scoring a position's rules call for, when the solver can play them (standard 8x8
    /// Othello captures and forced passes; either scoring).
    #[must_use]
    pub fn counting_for(position: &Position) -> Option<Counting> {
        let v = position.rules().variant();
        let standard = crate::core::Variant { scoring: v.scoring, ties: v.ties, ..crate::core::Variant::default() };
        if *v != standard {
            return None;
        }
        match v.scoring {
            Scoring::EmptiesToWinner => Some(Counting::EmptiesToWinner),
            Scoring::Plain => Some(Counting::Plain),
            Scoring::Anti => None,
        }
    }

    /// Solves a position of standard 8x8 Othello; `None` for other rules or boards.
    pub fn solve(&mut self, position: &Position) -> Option<Solution> {
        let [black, white] = position.bitboards()?;
        Solver::counting_for(position)?;
        let (p, o) = match position.side_to_move() {
            crate::core::Color::Black => (black, white),
            crate::core::Color::White => (white, black),
        };
        self.nodes = 0;
        let score = self.search(p, o, -64, 64, false);
        let pv = self.principal_variation(p, o);
        let best = pv.first().copied();
        Some(Solution { score, best, pv, nodes: self.nodes })
    }

    /// Solves every legal move of a position: the move and its exact score for the side to
    /// move, best first (ties keep board order).
    pub fn solve_moves(&mut self, position: &Position) -> Option<Vec<(Move, i32)>> {
        let [black, white] = position.bitboards()?;
        Solver::counting_for(position)?;
        let (p, o) = match position.side_to_move() {
            crate::core::Color::Black => (black, white),
            crate::core::Color::White => (white, black),
        };
        let mut moves = legal_moves(p, o);
        let mut out = Vec::new();
        if moves == 0 {
            if legal_moves(o, p) != 0 {
                out.push((Move::Pass, -self.search(o, p, -64, 64, true)));
            }
            return Some(out);
        }
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let f = flips(sq, p, o);
            let score = -self.search(o & !f, p | f | (1 << sq), -64, 64, false);
            out.push((Move::Place(Square::from_bit8(sq)), score));
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.1));
        Some(out)
    }

    /// Positions searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn final_score(&self, p: u64, o: u64) -> i32 {
        let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
        let diff = mine - theirs;
        if self.counting == Counting::Plain {
            return diff;
        }
        let empties = 64 - mine - theirs;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + empties,
            std::cmp::Ordering::Less => diff - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }

    fn slot(&self, p: u64, o: u64) -> usize {
        let h = (p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).rotate_left(29);
        (h as usize) & (self.table.len() - 1)
    }

    /// Negamax principal-variation search; `passed` says the opponent just passed.
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        self.nodes += 1;
        let empties = 64 - (p | o).count_ones();
        if empties == 0 {
            return self.final_score(p, o);
        }
        if empties == 1 {
            return self.last_move(p, o);
        }
        if empties == 2 {
            return self.two_empties(p, o, alpha, beta, passed);
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return self.final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        if empties <= SHALLOW {
            return self.shallow(p, o, moves, alpha, beta);
        }
        let slot = self.slot(p, o);
        let entry = self.table[slot];
        let mut hash_move = NO_MOVE;
        if entry.player == p && entry.opponent == o {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            hash_move = entry.best;
        }
        let original_alpha = alpha;
        // Order: the table's move, then corners, then fewest replies for the opponent and the
        // fewest empty squares next to our discs (the opponent's potential mobility).
        let mut ordered: [(i32, u8, u64); 32] = [(0, 0, 0); 32];
        let mut n = 0;
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1 << sq), o & !f);
            // Enhanced transposition cut-off: a child the table already refutes ends the search.
            let child = self.table[self.slot(no, np)];
            if child.player == no && child.opponent == np && -i32::from(child.upper) >= beta {
                return -i32::from(child.upper);
            }
            let replies = legal_moves(no, np);
            let frontier = crate::core::Bitboard(np).neighbours().0 & !(np | no);
            let mut key = (replies.count_ones() as i32) * 16
                + (replies & CORNERS).count_ones() as i32 * 32
                + frontier.count_ones() as i32 * 8;
            if (1u64 << sq) & CORNERS != 0 {
                key -= 40;
            }
            if sq as u8 == hash_move {
                key = -1000;
            }
            ordered[n] = (key, sq as u8, f);
            n += 1;
        }
        ordered[..n].sort_unstable_by_key(|m| m.0);
        let mut best = -65;
        let mut best_move = NO_MOVE;
        for (i, &(_, sq, f)) in ordered[..n].iter().enumerate() {
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let score = if i == 0 {
                -self.search(no, np, -beta, -alpha, false)
            } else {
                let probe = -self.search(no, np, -alpha - 1, -alpha, false);
                if probe > alpha && probe < beta { -self.search(no, np, -beta, -probe, false) } else { probe }
            };
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best <= original_alpha {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        self.table[slot] = Entry { player: p, opponent: o, lower: lower as i8, upper: upper as i8, best: best_move };
        best
    }

    /// The score with one empty square: the side to move takes it if it flips something, else
    /// the opponent does if it can, else the game ends as it stands.
    fn last_move(&mut self, p: u64, o: u64) -> i32 {
        let sq = (!(p | o)).trailing_zeros();
        let f = flips(sq, p, o);
        if f != 0 {
            return self.final_score(p | f | (1 << sq), o & !f);
        }
        let g = flips(sq, o, p);
        if g != 0 {
            self.nodes += 1;
            return -self.final_score(o | g | (1 << sq), p & !g);
        }
        self.final_score(p, o)
    }

    /// Two empty squares: each placement is followed by [`Solver::last_move`]; a side with no
    /// placement passes, and the game ends when neither has one.
    fn two_empties(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        let empty = !(p | o);
        let a = empty.trailing_zeros();
        let b = (empty & (empty - 1)).trailing_zeros();
        let mut best = -65;
        for sq in [a, b] {
            let f = flips(sq, p, o);
            if f == 0 {
                continue;
            }
            self.nodes += 1;
            let score = -self.last_move(o & !f, p | f | (1 << sq));
            if score > best {
                best = score;
                if best >= beta {
                    return best;
                }
            }
        }
        if best > -65 {
            return best;
        }
        if passed {
            return self.final_score(p, o);
        }
        -self.two_empties(o, p, -beta, -alpha, true)
    }

    /// Alpha-beta without a table for the last few empties; moves in quadrants with an odd
    /// number of empty squares go first (parity: the last move of a region is worth having).
    fn shallow(&mut self, p: u64, o: u64, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        const QUADRANTS: [u64; 4] =
            [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];
        let empty = !(p | o);
        let odd = QUADRANTS.iter().filter(|&&q| (empty & q).count_ones() % 2 == 1).fold(0u64, |acc, &q| acc | q);
        let mut best = -65;
        let (first, second) = (moves & odd, moves & !odd);
        for sq in Bits(first).chain(Bits(second)) {
            let f = flips(sq, p, o);
            let score = -self.search(o & !f, p | f | (1 << sq), -beta, -alpha, false);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The moves the table holds as best from this position on, checked for legality.
    fn principal_variation(&mut self, mut p: u64, mut o: u64) -> Vec<Move> {
        let mut pv = Vec::new();
        for _ in 0..64 {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                continue;
            }
            let entry = self.table[self.slot(p, o)];
            let sq = if entry.player == p && entry.opponent == o && entry.best != NO_MOVE {
                u32::from(entry.best)
            } else {
                // Near the end the table holds nothing: find the best move by search.
                let target = self.search(p, o, -64, 64, false);
                let mut found = None;
                let mut rest = moves;
                while rest != 0 {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    let f = flips(sq, p, o);
                    if -self.search(o & !f, p | f | (1 << sq), -64, 64, false) == target {
                        found = Some(sq);
                        break;
                    }
                }
                match found {
                    Some(sq) => sq,
                    None => break,
                }
            };
            if moves & (1u64 << sq) == 0 {
                break;
            }
            pv.push(Move::Place(Square::from_bit8(sq)));
            let f = flips(sq, p, o);
            let (np, no) = (p | f | (1 << sq), o & !f);
            p = no;
            o = np;
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Rules, splitmix64};
    use proptest::prelude::*;

    /// Plain minimax over the general rules: the slow twin.
    fn minimax(pos: &Position) -> i32 {
        if pos.is_game_over() {
            return pos.score().score(pos.side_to_move());
        }
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let next = pos.clone().play(mv).unwrap();
                -minimax(&next)
            })
            .max()
            .unwrap()
    }

    fn random_position(seed: u64, plies: usize, spec: &str) -> Position {
        let mut pos = Position::start(spec.parse::<Rules>().unwrap().shared());
        let mut s = seed;
        for _ in 0..plies {
            if pos.is_game_over() {
                break;
            }
            let moves = pos.legal_moves();
            s = splitmix64(s);
            pos.play_mut(moves[(s % moves.len() as u64) as usize]).unwrap();
        }
        pos
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// On positions with few empties the solver equals plain minimax, for both scorings.
        #[test]
        fn equals_minimax(seed in any::<u64>(), plain in any::<bool>()) {
            let spec = if plain { "othello,scoring=plain" } else { "othello" };
            let pos = random_position(seed, 52, spec);
            let counting = Solver::counting_for(&pos).unwrap();
            let mut solver = Solver::new(1, counting);
            let solution = solver.solve(&pos).unwrap();
            prop_assert_eq!(solution.score, minimax(&pos));
            // Every move's score too, and the best move's score is the position's.
            if let Some(moves) = solver.solve_moves(&pos) {
                for (mv, score) in &moves {
                    let next = pos.clone().play(*mv).unwrap();
                    prop_assert_eq!(*score, -minimax(&next));
                }
                if let Some(first) = moves.first() {
                    prop_assert_eq!(first.1, solution.score);
                }
            }
            // The principal variation is legal and ends where the score says.
            let mut p = pos.clone();
            for mv in &solution.pv {
                p = p.play(*mv).unwrap();
            }
            if !solution.pv.is_empty() {
                prop_assert!(p.is_game_over());
                let me = pos.side_to_move();
                prop_assert_eq!(p.score().score(me), solution.score);
            }
        }
    }

    #[test]
    fn other_rules_are_declined() {
        let pos = Position::start("othello,size=6".parse::<Rules>().unwrap().shared());
        assert!(Solver::new(1, Counting::default()).solve(&pos).is_none());
    }
}
