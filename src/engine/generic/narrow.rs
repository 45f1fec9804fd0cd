//! The exact search of [`super::GenericSearcher`] on boards of up to 8x8 whose moves are plain
//! captures: any size, shape, holes and start, either colour first, any scoring and tie rule, as
//! long as a disc may only go where it flips (`placement=flip`), a player passes only when it
//! must (`pass=forced`) and nobody can run out of discs.
//!
//! Such a game is the 8x8 one played on part of the board: the cells off the board or in holes
//! are empty to the 8x8 move generator and flips, which lines never cross (a run of discs stops
//! at them) and where no move lands once its moves are masked with the playable cells. So this
//! search works on two 64-bit boards with the 8x8 kernels instead of the general rules core, and
//! solves 6x6 positions 60 to 160 times faster (docs/BENCHMARKS.md, "Other variants"). It orders
//! moves by the table's move, then the fewest replies (a corner-like reply counting twice), then
//! the parity of the quadrants; looks the children up in the table before searching them far from
//! the end; keeps exact bounds in a table of its own keyed by the whole position; and searches the
//! last few empty cells without the table.
//!
//! [`Evaluation`] is the generic evaluation on the same boards, for the depth-limited search of
//! such positions ([`super::GenericSearcher`] runs it on its general table).

use std::time::Instant;

use super::{Features, GenericEval};
use crate::core::{Color, Move, PassRule, Placement, Position, Rules, Scoring, Square, Start, Supply, bitboard};
use crate::engine::search::proven_bounds;

/// Empty cells from which a node uses the table and orders its moves.
const TABLE_FROM: u32 = 7;
/// Empty cells from which a node looks its children up in the table before searching them.
const ETC_FROM: u32 = 11;
/// How often (in nodes, a power of two) the limits are checked.
const POLL: u64 = 1 << 12;
/// Above every value (a board of at most 64 cells).
const INFINITY: i32 = 100;
/// No best move stored.
const NO_MOVE: u8 = u8::MAX;

/// A board the fast path can play: its playable cells, its corner-like ones and its scoring.
#[derive(Clone, Copy, Debug)]
pub(super) struct Board {
    playable: u64,
    corners: u64,
    /// The playable cells in four quadrants, for the parity of the empty regions.
    quadrants: [u64; 4],
    scoring: Scoring,
}

impl Board {
    /// The board of `position` and its discs, the side to move's first, when the position can
    /// be searched here: a board of at most 8x8, placements that must flip, forced passes, no
    /// player short of discs for the rest of the game, past an empty-board start's opening, and
    /// the game not over.
    pub(super) fn of(position: &Position) -> Option<(Board, u64, u64)> {
        let rules = position.rules();
        let variant = rules.variant();
        let (playable, centre) = rules.bitboard_masks()?;
        let [black, white] = position.bitboards()?;
        let empties = position.empties();
        let in_hand = |color| position.in_hand(color).is_none_or(|n| u32::from(n) >= empties);
        // With borrowing a player runs out only when both supplies do.
        let pooled = matches!(variant.supply, Supply::Limited { borrow: true, .. })
            && [Color::Black, Color::White].map(|c| position.in_hand(c).map_or(0, u32::from)).iter().sum::<u32>()
                >= empties;
        let enough = pooled || (in_hand(Color::Black) && in_hand(Color::White));
        let opening = variant.start == Start::Empty && centre & !(black | white) != 0;
        if variant.placement != Placement::MustFlip
            || variant.pass != PassRule::Forced
            || !enough
            || opening
            || position.is_game_over()
        {
            return None;
        }
        let corners = rules.corners().squares().filter_map(Square::bit8).fold(0, |acc, bit| acc | 1 << bit);
        let half = rules.size() / 2;
        let mut quadrants = [0; 4];
        for bit in 0..64 {
            let sq = Square::from_bit8(bit);
            quadrants[usize::from(sq.file() >= half) + 2 * usize::from(sq.row() >= half)] |= playable & 1 << bit;
        }
        let board = Board { playable, corners, quadrants, scoring: variant.scoring };
        let (p, o) = match position.side_to_move() {
            Color::Black => (black, white),
            Color::White => (white, black),
        };
        Some((board, p, o))
    }

    /// The placements of the player with discs `p`.
    #[inline]
    pub(super) fn moves(self, p: u64, o: u64) -> u64 {
        bitboard::legal_moves(p, o) & self.playable
    }

    /// The final margin for the player with discs `p` when the game ends here, under the
    /// board's scoring ([`crate::core::Outcome::score`]; a tie scores 0 whoever wins it).
    #[inline]
    pub(super) fn final_score(self, p: u64, o: u64) -> i32 {
        let diff = p.count_ones() as i32 - o.count_ones() as i32;
        match self.scoring {
            Scoring::EmptiesToWinner => {
                let empties = (self.playable & !(p | o)).count_ones() as i32;
                diff + diff.signum() * empties
            }
            Scoring::Plain => diff,
            Scoring::Anti => -diff,
        }
    }
}

/// The generic evaluation ([`GenericEval`]) on the fast path's boards: the same features and
/// weights, read off two 64-bit boards with the 8x8 kernels instead of the general rules core.
#[derive(Clone, Debug)]
pub(super) struct Evaluation {
    /// The board searched.
    pub(super) board: Board,
    /// Per direction of [`crate::core::WideBits::DIRECTIONS`], the playable cells whose
    /// neighbour that way is playable too.
    open: [u64; 8],
    general: GenericEval,
}

/// One step of the cells of `b` in direction `dir` ([`crate::core::WideBits::DIRECTIONS`]'
/// order) on an 8x8 bitboard, dropping those that leave it.
#[inline]
fn step(b: u64, dir: usize) -> u64 {
    const NOT_A_FILE: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H_FILE: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    match dir {
        0 => (b & NOT_H_FILE) << 1,
        1 => (b & NOT_A_FILE) >> 1,
        2 => b << 8,
        3 => b >> 8,
        4 => (b & NOT_H_FILE) << 9,
        5 => (b & NOT_A_FILE) >> 9,
        6 => (b & NOT_A_FILE) << 7,
        _ => (b & NOT_H_FILE) >> 7,
    }
}

impl Evaluation {
    /// The evaluation of positions under `rules` on `board` (the board of a position under them).
    pub(super) fn new(board: Board, rules: &Rules) -> Evaluation {
        let open = std::array::from_fn(|d| board.playable & step(board.playable, d ^ 1));
        Evaluation { board, open, general: GenericEval::new(rules) }
    }

    /// [`GenericEval::evaluate`] of the position with discs `p` for the side to move and `o`.
    pub(super) fn evaluate(&self, p: u64, o: u64) -> i32 {
        let board = self.board;
        let occupied = p | o;
        let empty = board.playable & !occupied;
        let near_empty = bitboard::Bitboard(empty).neighbours().0;
        let count = |b: u64| b.count_ones() as i32;
        let features = Features {
            mobility: count(board.moves(p, o)) - count(board.moves(o, p)),
            corners: count(p & board.corners) - count(o & board.corners),
            stable: count(self.stable(p, occupied)) - count(self.stable(o, occupied)),
            frontier: count(p & near_empty) - count(o & near_empty),
            discs: count(p) - count(o),
            parity: if count(empty) % 2 == 1 { 1 } else { -1 },
        };
        self.general.weigh(&features, count(occupied))
    }

    /// [`super::Geometry::stable`] on 64-bit boards.
    fn stable(&self, mine: u64, occupied: u64) -> u64 {
        let playable = self.board.playable;
        let empty = playable & !occupied;
        let mut full = [0; 4];
        for (axis, full) in full.iter_mut().enumerate() {
            let mut reach = 0;
            for d in [2 * axis, 2 * axis + 1] {
                let mut r = step(empty, d ^ 1) & playable;
                loop {
                    let next = r | (step(r, d ^ 1) & playable);
                    if next == r {
                        break;
                    }
                    r = next;
                }
                reach |= r;
            }
            *full = occupied & !reach;
        }
        let mut stable = 0;
        loop {
            let mut next = mine;
            for (axis, &full) in full.iter().enumerate() {
                let side = |d: usize| !self.open[d] | step(stable, d ^ 1);
                next &= full | side(2 * axis) | side(2 * axis + 1);
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// The position after the player with discs `p` places on `bit`: the opponent's discs first.
#[inline]
pub(super) fn play(p: u64, o: u64, bit: u32) -> (u64, u64) {
    let flipped = bitboard::flips(bit, p, o);
    (o ^ flipped, p | flipped | 1 << bit)
}

/// One stored position: its discs (the side to move's first), bounds of its exact value and
/// the best move found.
#[derive(Clone, Copy, Debug)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// The empty cells of the position: the deeper of two entries is kept.
    empties: u8,
}

/// Never a searched position: a board with no disc is over before it is searched.
const EMPTY_ENTRY: Entry = Entry { p: 0, o: 0, lower: 0, upper: 0, best: NO_MOVE, empties: 0 };

/// The fast path's table: buckets of two entries; a new entry replaces the same position's, else
/// the one of fewer empty cells. It holds the values of one board and scoring at a time (the
/// same discs are worth otherwise under other rules) and forgets them when used for another.
pub(super) struct Table {
    entries: Vec<Entry>,
    shift: u32,
    /// The playable cells and the scoring of the values held.
    rules: Option<(u64, Scoring)>,
}

impl Table {
    /// A table of about `hash_mb` MiB.
    pub(super) fn new(hash_mb: usize) -> Table {
        let wanted = (hash_mb.max(1) << 20) / std::mem::size_of::<[Entry; 2]>();
        let bits = usize::BITS - 1 - wanted.leading_zeros();
        Table { entries: vec![EMPTY_ENTRY; 2 << bits], shift: u64::BITS - bits, rules: None }
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.entries.fill(EMPTY_ENTRY);
    }

    /// Makes the table hold `board`'s values: forgets those of another board or scoring.
    fn hold(&mut self, board: Board) {
        let rules = Some((board.playable, board.scoring));
        if self.rules != rules {
            self.clear();
            self.rules = rules;
        }
    }

    #[inline]
    fn index(&self, p: u64, o: u64) -> usize {
        let mixed = (p ^ o.rotate_left(23)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        // A table of a single bucket shifts by 64: bucket 0.
        2 * mixed.checked_shr(self.shift).unwrap_or(0) as usize
    }

    #[inline]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let i = self.index(p, o);
        self.entries[i..i + 2].iter().find(|e| e.p == p && e.o == o).copied()
    }

    #[inline]
    fn store(&mut self, entry: Entry) {
        let i = self.index(entry.p, entry.o);
        let bucket = &mut self.entries[i..i + 2];
        let slot = if bucket[1].p == entry.p && bucket[1].o == entry.o {
            1
        } else {
            usize::from(bucket[0].p != entry.p || bucket[0].o != entry.o)
                & usize::from(bucket[1].empties < bucket[0].empties)
        };
        bucket[slot] = entry;
    }
}

/// One call's state: the board, the table, the count of positions and the limits.
pub(super) struct Exact<'a> {
    board: Board,
    table: &'a mut Table,
    /// Positions searched so far.
    pub(super) nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Whether a limit stopped the search (its values are then meaningless).
    pub(super) stopped: bool,
}

impl<'a> Exact<'a> {
    /// A search of `board`'s positions on `table`, stopped after about `node_limit` positions
    /// or at `deadline`.
    pub(super) fn new(board: Board, table: &'a mut Table, node_limit: u64, deadline: Option<Instant>) -> Exact<'a> {
        table.hold(board);
        Exact { board, table, nodes: 0, node_limit, deadline, stopped: false }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (POLL - 1) == 0
            && (self.nodes >= self.node_limit || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
    }

    /// The exact final margin of the position (`p` to move) under perfect play, in discs, in
    /// the window (`alpha`, `beta`) (fail-soft: a value at or below `alpha` is an upper bound, at
    /// or above `beta` a lower one).
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let board = self.board;
        let moves = board.moves(p, o);
        if moves == 0 {
            if board.moves(o, p) == 0 {
                return board.final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha);
        }
        let empties = (board.playable & !(p | o)).count_ones();
        if empties < TABLE_FROM {
            return self.shallow(p, o, moves, alpha, beta);
        }
        let mut hash_move = NO_MOVE;
        if let Some(e) = self.table.probe(p, o) {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            hash_move = e.best;
        }
        let mut list = [(0u32, 0u32); 64];
        let count = match self.order(p, o, moves, hash_move, beta, &mut list) {
            Ok(count) => count,
            Err(cut) => return cut,
        };
        let original = (alpha, beta);
        let mut best = -INFINITY;
        let mut best_move = NO_MOVE;
        for (i, &(_, bit)) in list[..count].iter().enumerate() {
            let (cp, co) = play(p, o, bit);
            let score = if i == 0 {
                -self.search(cp, co, -beta, -alpha)
            } else {
                let probe = -self.search(cp, co, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.stopped { -self.search(cp, co, -beta, -probe) } else { probe }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = bit as u8;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = proven_bounds(best, original, INFINITY);
        self.table.store(Entry {
            p,
            o,
            lower: clamp(lower),
            upper: clamp(upper),
            best: best_move,
            empties: empties as u8,
        });
        best
    }

    /// The moves of `moves` into `list`, best first: the table's move, then the fewest replies
    /// (a corner-like reply counting twice), ties in square order. Returns how many, or the
    /// value of a move the table already proves at least `beta`.
    fn order(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        hash_move: u8,
        beta: i32,
        list: &mut [(u32, u32); 64],
    ) -> Result<usize, i32> {
        let board = self.board;
        let empty = board.playable & !(p | o);
        let odd = board.quadrants.iter().filter(|&&q| (q & empty).count_ones() % 2 == 1).fold(0, |acc, q| acc | q);
        // Looking the children up costs more than it saves near the end.
        let etc = empty.count_ones() >= ETC_FROM;
        let mut count = 0;
        let mut rest = moves;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let (cp, co) = play(p, o, bit);
            if etc
                && let Some(e) = self.table.probe(cp, co)
                && -i32::from(e.upper) >= beta
            {
                return Err(-i32::from(e.upper));
            }
            let key = if bit == u32::from(hash_move) {
                0
            } else {
                let replies = board.moves(cp, co);
                let parity = u32::from(odd & 1 << bit == 0);
                1 + ((replies.count_ones() + (replies & board.corners).count_ones()) * 4 + parity) * 64 + bit
            };
            list[count] = (key, bit);
            count += 1;
        }
        list[..count].sort_unstable();
        Ok(count)
    }

    /// The search of the last few empty cells: no table, moves in square order.
    fn shallow(&mut self, p: u64, o: u64, moves: u64, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        let mut rest = moves;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            let (cp, co) = play(p, o, bit);
            let score = -self.search(cp, co, -beta, -alpha);
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

    /// The exact final margin of the position (`p` to move) and a line of perfect play to the
    /// end, or `None` when a limit stopped the search.
    pub(super) fn solve(&mut self, p: u64, o: u64) -> Option<(i32, Vec<Move>)> {
        let value = self.search(p, o, -INFINITY, INFINITY);
        let line = self.line(p, o, value);
        (!self.stopped).then_some((value, line))
    }

    /// Whether the position (`p` to move) is worth at least `bound` under perfect play, or
    /// `None` when a limit stopped the search.
    pub(super) fn reaches(&mut self, p: u64, o: u64, bound: i32) -> Option<bool> {
        let value = self.search(p, o, bound - 1, bound);
        (!self.stopped).then_some(value >= bound)
    }

    /// A line of perfect play from the position (`p` to move, worth `value` to it) to the end of
    /// the game: at each step the first move, in the search's order, whose exact value is the
    /// position's. Shorter only if a limit stops the searches it takes.
    pub(super) fn line(&mut self, mut p: u64, mut o: u64, mut value: i32) -> Vec<Move> {
        let board = self.board;
        let mut line = Vec::new();
        loop {
            let moves = board.moves(p, o);
            if moves == 0 {
                if board.moves(o, p) == 0 {
                    return line;
                }
                line.push(Move::Pass);
                (p, o, value) = (o, p, -value);
                continue;
            }
            let hash_move = self.table.probe(p, o).map_or(NO_MOVE, |e| e.best);
            let mut list = [(0u32, 0u32); 64];
            let count = self.order(p, o, moves, hash_move, INFINITY, &mut list).unwrap_or(0);
            let mut next = None;
            for &(_, bit) in &list[..count] {
                let (cp, co) = play(p, o, bit);
                // The window (value - 1, value + 1) tells the value itself from anything else.
                let found = -self.search(cp, co, -value - 1, -value + 1);
                if self.stopped {
                    return line;
                }
                if found == value {
                    next = Some((bit, cp, co));
                    break;
                }
            }
            let Some((bit, cp, co)) = next else { return line };
            line.push(Move::Place(Square::from_bit8(bit)));
            (p, o, value) = (cp, co, -value);
        }
    }
}

/// A bound as stored (values lie within +-64; the infinite bounds become +-100).
fn clamp(value: i32) -> i8 {
    value.clamp(-INFINITY, INFINITY) as i8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bitboard::Bitboard;
    use crate::engine::generic::search::tests::{minimax, random_position};

    #[test]
    fn the_evaluation_on_64_bit_boards_equals_the_generic_one() {
        let specs =
            ["othello,size=4", "othello,size=6", "anti,size=6", "othello,size=6,shape=8stars", "othello,holes=c3/f6"];
        for spec in specs {
            for seed in 0..40 {
                let pos = random_position(spec, seed, 4 + seed as u32 % 30);
                let Some((board, p, o)) = Board::of(&pos) else { continue };
                let general = GenericEval::new(pos.rules());
                let eval = Evaluation::new(board, pos.rules());
                assert_eq!(eval.evaluate(p, o), general.evaluate(&pos), "{spec} seed {seed}");
                let theirs = general
                    .geometry()
                    .stable(pos.discs_of(pos.side_to_move()), pos.discs_of(Color::Black) | pos.discs_of(Color::White));
                let ours: Vec<Square> = Bitboard(eval.stable(p, p | o)).squares().collect();
                assert_eq!(ours, theirs.squares().collect::<Vec<_>>(), "{spec} seed {seed}");
            }
        }
    }

    #[test]
    fn the_fast_path_equals_minimax_over_the_general_rules() {
        let specs = [
            "othello,size=4",
            "othello,size=6",
            "anti,size=6",
            "othello,size=6,scoring=plain",
            "othello,size=6,holes=b2/e5",
            "othello,size=6,shape=8stars",
            "othello,size=6,first=white,ties=second",
            "othello,size=6,start=parallel",
            "brainking,size=6",
            "ravensburger,size=6",
            "othello,holes=c3/f6",
            "anti",
        ];
        for spec in specs {
            let mut table = Table::new(1);
            for seed in 0..8 {
                let pos = random_position(spec, seed, 9);
                let Some((board, p, o)) = Board::of(&pos) else {
                    assert!(pos.is_game_over(), "{spec} seed {seed}: {pos:?} is not searched here");
                    continue;
                };
                let exact = minimax(&pos);
                let mut search = Exact::new(board, &mut table, u64::MAX, None);
                let (value, line) = search.solve(p, o).unwrap();
                assert_eq!(value, exact, "{spec} seed {seed}");
                assert_eq!(search.reaches(p, o, exact), Some(true), "{spec} seed {seed}");
                assert_eq!(search.reaches(p, o, exact + 1), Some(false), "{spec} seed {seed}");
                // The line is legal and ends where the value says.
                let mut end = pos.clone();
                for mv in line {
                    end = end.play(mv).unwrap();
                }
                assert!(end.is_game_over(), "{spec} seed {seed}");
                assert_eq!(end.score().score(pos.side_to_move()), exact, "{spec} seed {seed}");
            }
        }
    }

    #[test]
    fn rules_beyond_plain_captures_take_the_general_path() {
        for spec in ["italian,size=6", "reversi-1880,size=6", "othello,size=6,pass=voluntary", "grand"] {
            let pos = random_position(spec, 1, 12);
            assert!(Board::of(&pos).is_none(), "{spec}");
        }
        // An empty-board start is searched here once its centre is full, not before.
        let rules = "brainking,size=6".parse::<Rules>().unwrap().shared();
        assert!(Board::of(&Position::start(rules.clone())).is_none());
        assert!(Board::of(&random_position("brainking,size=6", 1, 28)).is_some());
        // A supply too small for the rest of the game takes the general path.
        let short = random_position("othello,size=6,supply=10,borrow=no", 2, 30);
        assert!(Board::of(&short).is_none());
    }
}
