//! Positions: discs, side to move and the rules that judge moves.
//!
//! One rules logic (placement, passes, supply, game end) runs over two bit-set backends: 8x8
//! bitboards ([`u64`]) for every board up to 8x8, and [`WideBits`] for every board up to 16x16.
//! The two are interchangeable; the tests play random games on both and compare them.

use std::fmt;
use std::sync::Arc;

use super::bitboard;
use super::rules::{PassRule, Placement, Rules, Scoring, Start, Supply, TieRule, Variant};
use super::square::{Color, Move, Square};
use super::wide::WideBits;

/// What a bit-set backend offers the rules logic.
pub(crate) trait Cells: Copy + Eq + fmt::Debug {
    const EMPTY: Self;
    fn of(sq: Square) -> Self;
    fn has(self, sq: Square) -> bool;
    fn count(self) -> u32;
    fn none(self) -> bool;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
    fn and_not(self, other: Self) -> Self;
    fn capture_moves(p: Self, o: Self) -> Self;
    fn flips(sq: Square, p: Self, o: Self) -> Self;
    fn neighbours(self) -> Self;
    fn to_vec(self) -> Vec<Square>;
    fn from_wide(wide: WideBits) -> Self;
    fn to_wide(self) -> WideBits;
}

impl Cells for u64 {
    const EMPTY: u64 = 0;
    #[inline]
    fn of(sq: Square) -> u64 {
        bitboard::Bitboard::from_square(sq).0
    }
    #[inline]
    fn has(self, sq: Square) -> bool {
        bitboard::Bitboard(self).contains(sq)
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn none(self) -> bool {
        self == 0
    }
    #[inline]
    fn and(self, other: u64) -> u64 {
        self & other
    }
    #[inline]
    fn or(self, other: u64) -> u64 {
        self | other
    }
    #[inline]
    fn xor(self, other: u64) -> u64 {
        self ^ other
    }
    #[inline]
    fn and_not(self, other: u64) -> u64 {
        self & !other
    }
    #[inline]
    fn capture_moves(p: u64, o: u64) -> u64 {
        bitboard::legal_moves(p, o)
    }
    #[inline]
    fn flips(sq: Square, p: u64, o: u64) -> u64 {
        bitboard::flips(sq.bit8().expect("square within 8x8"), p, o)
    }
    #[inline]
    fn neighbours(self) -> u64 {
        bitboard::Bitboard(self).neighbours().0
    }
    fn to_vec(self) -> Vec<Square> {
        bitboard::Bitboard(self).squares().collect()
    }
    fn from_wide(wide: WideBits) -> u64 {
        wide.squares().fold(0, |acc, sq| acc | u64::of(sq))
    }
    fn to_wide(self) -> WideBits {
        bitboard::Bitboard(self).squares().fold(WideBits::EMPTY, |acc, sq| acc | WideBits::from_square(sq))
    }
}

impl Cells for WideBits {
    const EMPTY: WideBits = WideBits::EMPTY;
    #[inline]
    fn of(sq: Square) -> WideBits {
        WideBits::from_square(sq)
    }
    #[inline]
    fn has(self, sq: Square) -> bool {
        self.contains(sq)
    }
    #[inline]
    fn count(self) -> u32 {
        WideBits::count(self)
    }
    #[inline]
    fn none(self) -> bool {
        self.is_empty()
    }
    #[inline]
    fn and(self, other: WideBits) -> WideBits {
        self & other
    }
    #[inline]
    fn or(self, other: WideBits) -> WideBits {
        self | other
    }
    #[inline]
    fn xor(self, other: WideBits) -> WideBits {
        self ^ other
    }
    #[inline]
    fn and_not(self, other: WideBits) -> WideBits {
        self & !other
    }
    fn capture_moves(p: WideBits, o: WideBits) -> WideBits {
        WideBits::legal_moves(p, o)
    }
    fn flips(sq: Square, p: WideBits, o: WideBits) -> WideBits {
        WideBits::flips(sq, p, o)
    }
    fn neighbours(self) -> WideBits {
        WideBits::neighbours(self)
    }
    fn to_vec(self) -> Vec<Square> {
        WideBits::squares(self).collect()
    }
    fn from_wide(wide: WideBits) -> WideBits {
        wide
    }
    fn to_wide(self) -> WideBits {
        self
    }
}

/// The discs of a position in one of the two backends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Discs {
    /// Boards up to 8x8.
    Narrow([u64; 2]),
    /// Any board up to 16x16.
    Wide([WideBits; 2]),
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, thiserror::Error)]
pub enum IllegalReason {
    /// The square lies outside the board.
    #[error("the square is outside the board")]
    OutsideBoard,
    /// The square is a hole.
    #[error("the square is a hole in the board")]
    Hole,
    /// The square is cut from the board's shape (the 8-stars board's corners).
    #[error("the square is cut from the board's shape")]
    Cut,
    /// A disc already stands there.
    #[error("the square is already occupied")]
    Occupied,
    /// The placement captures nothing and the rules require a capture.
    #[error("the move flips no disc")]
    FlipsNothing,
    /// The placement captures nothing and is not next to a disc (or to an own disc) either.
    #[error("the move flips no disc and is not next to a disc it may stand beside")]
    NotAdjacent,
    /// An empty-board start: the first four discs go on the centre cells.
    #[error("the first four discs go on the centre cells")]
    NotCentre,
    /// The mover has no disc left to place.
    #[error("the player has no disc left")]
    NoDiscsLeft,
    /// A pass while a legal placement exists, and passes are not voluntary.
    #[error("a pass while a legal move exists")]
    PassWithMoves,
    /// The game is already over.
    #[error("the game is already over")]
    GameOver,
    /// The record gives the move to this colour, but the other one is to move (and has a move).
    #[error("the record gives the move to {0}, but {other} is to move", other = .0.other())]
    WrongColor(Color),
}

/// A move that can't be played, with the position it was tried on, unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is illegal: {reason}")]
pub struct PlayError {
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalReason,
    /// The position, as it was before the attempt.
    pub position: Box<Position>,
}

/// The result of a finished (or scored) game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Black discs on the board.
    pub black: u32,
    /// White discs on the board.
    pub white: u32,
    /// Empty playable cells.
    pub empties: u32,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// The winner's margin under the rules' scoring (0 for a draw).
    pub margin: u32,
}

impl Outcome {
    /// The outcome of a board with these counts under `variant`'s scoring and tie rule.
    #[must_use]
    pub fn scored(variant: &Variant, black: u32, white: u32, empties: u32) -> Outcome {
        let leader = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        let diff = black.abs_diff(white);
        let (winner, margin) = match variant.scoring {
            Scoring::EmptiesToWinner => (leader, if leader.is_some() { diff + empties } else { 0 }),
            Scoring::Plain => (leader, diff),
            Scoring::Anti => (leader.map(Color::other), diff),
        };
        let winner = match (winner, variant.ties) {
            (None, TieRule::SecondPlayer) => Some(variant.first.other()),
            (w, _) => w,
        };
        Outcome { black, white, empties, winner, margin }
    }

    /// The score from `color`'s side: the margin if it won, minus the margin if it lost, 0 for a
    /// draw.
    #[must_use]
    pub fn score(&self, color: Color) -> i32 {
        match self.winner {
            Some(w) if w == color => self.margin as i32,
            Some(_) => -(self.margin as i32),
            None => 0,
        }
    }
}

/// A position: discs on a board, the side to move, the discs left in hand and the passes just
/// played, under shared [`Rules`]. Two positions are equal when all of these are, whichever
/// backend holds the discs.
#[derive(Clone, Eq)]
pub struct Position {
    rules: Arc<Rules>,
    discs: Discs,
    side: Color,
    stock: [u16; 2],
    passes: u8,
}

/// The cell masks of the rules in one backend.
struct Layout<B> {
    playable: B,
    centre: B,
}

/// An unchecked description of a position: any discs, any side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// Black's discs.
    pub black: Vec<Square>,
    /// White's discs.
    pub white: Vec<Square>,
    /// Who is to move.
    pub side: Color,
}

/// Boards up to this many discs past the start are checked against every game that far
/// ([`Position::unreachable`]).
pub const FEW_PLACEMENTS: u32 = 3;

/// Why no game reaches a board ([`Position::unreachable`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Unreachable {
    /// A cell the start position fills is empty.
    EmptiedStartCell(Square),
    /// The board has this many discs more than the start, and no game of that many
    /// placements gives it.
    NoGameGives {
        /// The discs past the start.
        placements: u32,
    },
}

/// A setup that is not a position under the given rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A disc on a cell that is not part of the board.
    #[error("a disc on {0}, which is not a cell of the board")]
    OffBoard(Square),
    /// Both colours on one cell.
    #[error("both colours on {0}")]
    Overlap(Square),
}

impl Position {
    /// The start position of `rules`.
    #[must_use]
    pub fn start(rules: Arc<Rules>) -> Position {
        let (black, white) = rules.start_discs();
        let side = rules.variant().first;
        let stock = match rules.variant().supply {
            Supply::Unlimited => [u16::MAX; 2],
            Supply::Limited { per_player, .. } => {
                [per_player - black.count() as u16, per_player - white.count() as u16]
            }
        };
        let discs = Discs::new(&rules, black, white);
        Position { rules, discs, side, stock, passes: 0 }
    }

    /// A position from a setup, checked against the rules' board. The discs in hand (with a
    /// limited supply) are the supply less the discs of each colour on the board.
    pub fn from_setup(rules: Arc<Rules>, setup: &Setup) -> Result<Position, SetupError> {
        let mut black = WideBits::EMPTY;
        let mut white = WideBits::EMPTY;
        for (cells, set) in [(&setup.black, &mut black), (&setup.white, &mut white)] {
            for &sq in cells {
                if !rules.playable().contains(sq) {
                    return Err(SetupError::OffBoard(sq));
                }
                *set |= WideBits::from_square(sq);
            }
        }
        if let Some(sq) = (black & white).squares().next() {
            return Err(SetupError::Overlap(sq));
        }
        let stock = match rules.variant().supply {
            Supply::Unlimited => [u16::MAX; 2],
            Supply::Limited { per_player, .. } => {
                [per_player.saturating_sub(black.count() as u16), per_player.saturating_sub(white.count() as u16)]
            }
        };
        let discs = Discs::new(&rules, black, white);
        Ok(Position { rules, discs, side: setup.side, stock, passes: 0 })
    }

    /// Takes the discs in hand and the pass count from `other`.
    pub(crate) fn copy_counters(&mut self, other: &Position) {
        self.stock = other.stock;
        self.passes = other.passes;
    }

    /// The same position held in the generic 16x16 backend (the slow twin of the 8x8 path).
    #[must_use]
    pub fn into_wide(self) -> Position {
        let [black, white] = self.discs.wide();
        Position { discs: Discs::Wide([black, white]), ..self }
    }

    /// The rules of the game.
    #[must_use]
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Who is to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The disc on `sq`, if any.
    #[must_use]
    pub fn disc(&self, sq: Square) -> Option<Color> {
        let (black, white) = match self.discs {
            Discs::Narrow([b, w]) => (b.has(sq), w.has(sq)),
            Discs::Wide([b, w]) => (b.contains(sq), w.contains(sq)),
        };
        if black {
            Some(Color::Black)
        } else if white {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The discs of `color` on the board.
    #[must_use]
    pub fn count(&self, color: Color) -> u32 {
        match self.discs {
            Discs::Narrow(d) => d[color.index()].count_ones(),
            Discs::Wide(d) => d[color.index()].count(),
        }
    }

    /// The cells of `color`, as a 256-bit set.
    #[must_use]
    pub fn discs_of(&self, color: Color) -> WideBits {
        self.discs.wide()[color.index()]
    }

    /// Black's and white's discs as 8x8 bitboards, for boards up to 8x8.
    #[must_use]
    pub fn bitboards(&self) -> Option<[u64; 2]> {
        match self.discs {
            Discs::Narrow(d) => Some(d),
            Discs::Wide(_) => None,
        }
    }

    /// The empty cells of the board.
    #[must_use]
    pub fn empties(&self) -> u32 {
        match self.discs {
            Discs::Narrow([b, w]) => self.layout_narrow().playable.and_not(b | w).count_ones(),
            Discs::Wide([b, w]) => (self.rules.playable() & !(b | w)).count(),
        }
    }

    /// The discs `color` still has in hand, `None` with an unlimited supply.
    #[must_use]
    pub fn in_hand(&self, color: Color) -> Option<u16> {
        match self.rules.variant().supply {
            Supply::Unlimited => None,
            Supply::Limited { .. } => Some(self.stock[color.index()]),
        }
    }

    /// Why no game under these rules reaches this board, when that can be told: a cell the
    /// start fills is empty (discs never leave the board), or a board a few discs past the
    /// start (at most [`FEW_PLACEMENTS`]) that no game of that many placements gives. The side to
    /// move is not checked.
    #[must_use]
    pub fn unreachable(&self) -> Option<Unreachable> {
        let (black, white) = self.rules.start_discs();
        let [now_black, now_white] = self.discs.wide();
        if let Some(cell) = (black | white).squares().find(|&sq| !(now_black | now_white).contains(sq)) {
            return Some(Unreachable::EmptiedStartCell(cell));
        }
        // Every placement adds one disc and nothing takes one away.
        let placements = (now_black | now_white).count() - (black | white).count();
        if placements > FEW_PLACEMENTS {
            return None;
        }
        let mut level = vec![Position::start(self.rules.clone())];
        for _ in 0..placements {
            let mut next: Vec<Position> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for position in &level {
                // A placement now, or after a pass where one is allowed.
                let passed = position.clone().play(Move::Pass).ok();
                for from in std::iter::once(position).chain(passed.as_ref()) {
                    for sq in from.legal_placements() {
                        let after = from.clone().play(Move::Place(sq)).expect("a legal placement plays");
                        if seen.insert((after.discs.wide(), after.side_to_move())) {
                            next.push(after);
                        }
                    }
                }
            }
            level = next;
        }
        let reached = level.iter().any(|p| p.discs.wide() == [now_black, now_white]);
        (!reached).then_some(Unreachable::NoGameGives { placements })
    }

    /// Passes played in a row just before this position.
    #[must_use]
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes
    }

    /// The squares where the side to move may place a disc (none once the game is over).
    #[must_use]
    pub fn legal_placements(&self) -> Vec<Square> {
        match self.discs {
            Discs::Narrow(d) => self.current_placements(&self.layout_narrow(), d).to_vec(),
            Discs::Wide(d) => self.current_placements(&self.layout_wide(), d).to_vec(),
        }
    }

    /// How many placements `color` would have if it were to move (0 once the game is over).
    #[must_use]
    pub fn mobility(&self, color: Color) -> u32 {
        if self.is_game_over() {
            return 0;
        }
        match self.discs {
            Discs::Narrow(d) => self.placements_for(&self.layout_narrow(), d, color).count(),
            Discs::Wide(d) => self.placements_for(&self.layout_wide(), d, color).count(),
        }
    }

    /// Every legal move: the placements, then a pass when one is allowed.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self.legal_placements().into_iter().map(Move::Place).collect();
        if self.check(Move::Pass).is_ok() {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Whether the side to move has a legal placement (false once the game is over).
    #[must_use]
    pub fn has_placement(&self) -> bool {
        match self.discs {
            Discs::Narrow(d) => !self.current_placements(&self.layout_narrow(), d).none(),
            Discs::Wide(d) => !self.current_placements(&self.layout_wide(), d).none(),
        }
    }

    /// Whether the game is over: the board is full, a side has no disc on the board (after an
    /// empty-board opening), neither side can place a disc, or two passes were just played.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        match self.discs {
            Discs::Narrow(d) => self.game_over(&self.layout_narrow(), d),
            Discs::Wide(d) => self.game_over(&self.layout_wide(), d),
        }
    }

    /// The outcome if the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_game_over().then(|| self.score())
    }

    /// The position scored as it stands, under the rules' scoring and tie rule.
    #[must_use]
    pub fn score(&self) -> Outcome {
        Outcome::scored(self.rules.variant(), self.count(Color::Black), self.count(Color::White), self.empties())
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        match self.discs {
            Discs::Narrow(d) => self.check_in(&self.layout_narrow(), d, mv).map(drop),
            Discs::Wide(d) => self.check_in(&self.layout_wide(), d, mv).map(drop),
        }
    }

    /// Plays a move in place and returns the number of discs it flipped; on an illegal move the
    /// position is left unchanged.
    pub fn play_mut(&mut self, mv: Move) -> Result<u32, IllegalReason> {
        match self.discs {
            Discs::Narrow(d) => {
                let (d, flipped) = self.apply(&self.layout_narrow(), d, mv)?;
                self.discs = Discs::Narrow(d);
                Ok(flipped)
            }
            Discs::Wide(d) => {
                let (d, flipped) = self.apply(&self.layout_wide(), d, mv)?;
                self.discs = Discs::Wide(d);
                Ok(flipped)
            }
        }
    }

    /// Plays a move and returns the new position; an illegal move gives back the position.
    pub fn play(mut self, mv: Move) -> Result<Position, PlayError> {
        match self.play_mut(mv) {
            Ok(_) => Ok(self),
            Err(reason) => Err(PlayError { mv, reason, position: Box::new(self) }),
        }
    }

    /// The discs `mv` would flip (empty for a pass or an illegal move).
    #[must_use]
    pub fn flips(&self, mv: Move) -> Vec<Square> {
        match self.discs {
            Discs::Narrow(d) => self.check_in(&self.layout_narrow(), d, mv).map(Cells::to_vec).unwrap_or_default(),
            Discs::Wide(d) => self.check_in(&self.layout_wide(), d, mv).map(Cells::to_vec).unwrap_or_default(),
        }
    }

    fn layout_narrow(&self) -> Layout<u64> {
        let (playable, centre) = self.rules.bitboard_masks().expect("narrow discs only on boards up to 8x8");
        Layout { playable, centre }
    }

    fn layout_wide(&self) -> Layout<WideBits> {
        Layout { playable: self.rules.playable(), centre: self.rules.centre() }
    }

    fn in_opening<B: Cells>(&self, layout: &Layout<B>, occupied: B) -> bool {
        self.rules.variant().start == Start::Empty && !layout.centre.and_not(occupied).none()
    }

    fn has_stock(&self, side: Color) -> bool {
        match self.rules.variant().supply {
            Supply::Unlimited => true,
            Supply::Limited { borrow, .. } => {
                self.stock[side.index()] > 0 || (borrow && self.stock[side.other().index()] > 0)
            }
        }
    }

    fn placements_for<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2], side: Color) -> B {
        let (me, opp) = (discs[side.index()], discs[side.other().index()]);
        let occupied = me.or(opp);
        let empty = layout.playable.and_not(occupied);
        if !self.has_stock(side) {
            return B::EMPTY;
        }
        if self.in_opening(layout, occupied) {
            return layout.centre.and(empty);
        }
        let captures = B::capture_moves(me, opp).and(empty);
        match self.rules.variant().placement {
            Placement::MustFlip => captures,
            Placement::NextToAny => captures.or(occupied.neighbours().and(empty)),
            Placement::NextToOwn => captures.or(me.neighbours().and(empty)),
        }
    }

    fn placements<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2]) -> B {
        self.placements_for(layout, discs, self.side)
    }

    /// The end conditions that don't need move generation: two passes in a row, or a side
    /// with no disc left on the board after the opening.
    fn over_without_moves<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2]) -> bool {
        let occupied = discs[0].or(discs[1]);
        self.passes >= 2 || (!self.in_opening(layout, occupied) && (discs[0].none() || discs[1].none()))
    }

    /// The placements of the side to move, none once the game is over. A placement proves
    /// that someone can move, so only the cheap end conditions need testing.
    fn current_placements<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2]) -> B {
        let placements = self.placements(layout, discs);
        if self.over_without_moves(layout, discs) { B::EMPTY } else { placements }
    }

    fn game_over<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2]) -> bool {
        let occupied = discs[0].or(discs[1]);
        if self.over_without_moves(layout, discs) || layout.playable.and_not(occupied).none() {
            return true;
        }
        self.placements_for(layout, discs, self.side).none()
            && self.placements_for(layout, discs, self.side.other()).none()
    }

    /// Checks `mv` and returns the discs it flips. A move after the end of the game is reported
    /// as such whatever else is wrong with it.
    fn check_in<B: Cells>(&self, layout: &Layout<B>, discs: [B; 2], mv: Move) -> Result<B, IllegalReason> {
        let result = self.check_placement_or_pass(layout, discs, mv);
        // A legal placement proves that the side to move can move, so only the cheap end
        // conditions remain; anything else needs the full test.
        let over = match (mv, &result) {
            (Move::Place(_), Ok(_)) => self.over_without_moves(layout, discs),
            _ => self.game_over(layout, discs),
        };
        if over { Err(IllegalReason::GameOver) } else { result }
    }

    fn check_placement_or_pass<B: Cells>(
        &self,
        layout: &Layout<B>,
        discs: [B; 2],
        mv: Move,
    ) -> Result<B, IllegalReason> {
        let sq = match mv {
            Move::Pass => {
                let voluntary = self.rules.variant().pass == PassRule::Voluntary;
                return if voluntary || self.placements(layout, discs).none() {
                    Ok(B::EMPTY)
                } else {
                    Err(IllegalReason::PassWithMoves)
                };
            }
            Move::Place(sq) => sq,
        };
        let size = self.rules.size();
        if sq.file() >= size || sq.row() >= size {
            return Err(IllegalReason::OutsideBoard);
        }
        if !layout.playable.has(sq) {
            return Err(if self.rules.holes().contains(&sq) { IllegalReason::Hole } else { IllegalReason::Cut });
        }
        let (me, opp) = (discs[self.side.index()], discs[self.side.other().index()]);
        if me.or(opp).has(sq) {
            return Err(IllegalReason::Occupied);
        }
        if !self.has_stock(self.side) {
            return Err(IllegalReason::NoDiscsLeft);
        }
        if self.in_opening(layout, me.or(opp)) {
            return if layout.centre.has(sq) { Ok(B::EMPTY) } else { Err(IllegalReason::NotCentre) };
        }
        let flipped = B::flips(sq, me, opp);
        if !flipped.none() {
            return Ok(flipped);
        }
        match self.rules.variant().placement {
            Placement::MustFlip => Err(IllegalReason::FlipsNothing),
            Placement::NextToAny if !me.or(opp).neighbours().has(sq) => Err(IllegalReason::NotAdjacent),
            Placement::NextToOwn if !me.neighbours().has(sq) => Err(IllegalReason::NotAdjacent),
            _ => Ok(B::EMPTY),
        }
    }

    fn apply<B: Cells>(&mut self, layout: &Layout<B>, discs: [B; 2], mv: Move) -> Result<([B; 2], u32), IllegalReason> {
        let flipped = self.check_in(layout, discs, mv)?;
        let side = self.side;
        self.side = side.other();
        let Move::Place(sq) = mv else {
            self.passes = self.passes.saturating_add(1);
            return Ok((discs, 0));
        };
        self.passes = 0;
        if let Supply::Limited { .. } = self.rules.variant().supply {
            let own = &mut self.stock[side.index()];
            if *own > 0 {
                *own -= 1;
            } else {
                self.stock[side.other().index()] -= 1;
            }
        }
        let mut next = discs;
        next[side.index()] = discs[side.index()].or(flipped).or(B::of(sq));
        next[side.other().index()] = discs[side.other().index()].xor(flipped);
        Ok((next, flipped.count()))
    }
}

impl Discs {
    fn new(rules: &Rules, black: WideBits, white: WideBits) -> Discs {
        if rules.size() <= 8 {
            Discs::Narrow([u64::from_wide(black), u64::from_wide(white)])
        } else {
            Discs::Wide([black, white])
        }
    }

    fn wide(&self) -> [WideBits; 2] {
        match *self {
            Discs::Narrow([b, w]) => [b.to_wide(), w.to_wide()],
            Discs::Wide(d) => d,
        }
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        let same_discs = match (self.discs, other.discs) {
            (Discs::Narrow(a), Discs::Narrow(b)) => a == b,
            (Discs::Wide(a), Discs::Wide(b)) => a == b,
            (a, b) => a.wide() == b.wide(),
        };
        same_discs
            && self.side == other.side
            && self.stock == other.stock
            && self.passes == other.passes
            && (Arc::ptr_eq(&self.rules, &other.rules) || self.rules == other.rules)
    }
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.discs.wide().hash(state);
        self.side.hash(state);
        self.stock.hash(state);
        self.passes.hash(state);
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {}", self.board_string(), self.side)?;
        if self.passes > 0 {
            write!(f, ", {} passes", self.passes)?;
        }
        write!(f, ", rules {})", self.rules)
    }
}

impl Position {
    /// The board as one line of `size * size` cells from a1, rank by rank as the rules number
    /// them (from the top-left, or the bottom-left under `rows=bottom`): `X` black, `O` white,
    /// `-` empty, `#` a hole or a cell cut from the shape.
    #[must_use]
    pub fn board_string(&self) -> String {
        let n = self.rules.size();
        let mut s = String::with_capacity(usize::from(n) * usize::from(n));
        for rank in 1..=n {
            for file in 0..n {
                let Some(sq) = self.rules.square_at(file, rank) else { continue };
                s.push(self.cell_char(sq));
            }
        }
        s
    }

    /// The cells as [`board_string`](Position::board_string) writes them, but always from the
    /// top row down whatever the rules' row numbering: the same string for the same board.
    #[must_use]
    pub fn board_string_from_top(&self) -> String {
        let n = self.rules.size();
        (0..n).flat_map(|row| (0..n).map(move |file| Square::new(file, row))).map(|sq| self.cell_char(sq)).collect()
    }

    /// A cell as board strings and diagrams write it.
    fn cell_char(&self, sq: Square) -> char {
        match self.disc(sq) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None if self.rules.playable().contains(sq) => '-',
            None => '#',
        }
    }
}

impl fmt::Display for Position {
    /// A plain diagram with files on top and ranks on the left, named by the rules' numbering.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.rules.size();
        write!(f, "   ")?;
        for file in 0..n {
            write!(f, " {}", (b'a' + file) as char)?;
        }
        writeln!(f)?;
        for row in 0..n {
            let name = self.rules.square_name(Square::new(0, row));
            write!(f, "{:>3}", &name[1..])?;
            for file in 0..n {
                write!(f, " {}", self.cell_char(Square::new(file, row)))?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move; black {}, white {}", self.side, self.count(Color::Black), self.count(Color::White))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(spec: &str) -> Position {
        Position::start(spec.parse::<Rules>().unwrap().shared())
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn boards_a_few_moves_from_the_start_are_checked_against_every_game() {
        for spec in ["othello", "othello,size=6", "8stars", "othello,pass=voluntary", "othello,start=empty", "anti"] {
            let mut seed = 7;
            for _ in 0..200 {
                let mut pos = start(spec);
                for _ in 0..=(seed % 4) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = crate::core::splitmix64(seed);
                    pos = pos.play(moves[(seed % moves.len() as u64) as usize]).unwrap();
                }
                assert_eq!(pos.unreachable(), None, "{spec}: {}", pos.board_string());
            }
        }
        let setup = |black: &[&str], white: &[&str]| {
            let squares = |names: &[&str]| names.iter().map(|n| sq(n)).collect();
            let rules = "othello".parse::<Rules>().unwrap().shared();
            Position::from_setup(rules, &Setup { black: squares(black), white: squares(white), side: Color::Black })
                .unwrap()
        };
        // The centre turned, a disc of the wrong colour after f5, and a cell of the start emptied.
        assert_eq!(setup(&["d4", "e5"], &["d5", "e4"]).unreachable(), Some(Unreachable::NoGameGives { placements: 0 }));
        let after_f5 = setup(&["e4", "d5", "e5", "f5"], &["d4"]);
        assert_eq!(after_f5.unreachable(), None);
        assert_eq!(
            setup(&["e4", "d5", "f5"], &["d4", "e5"]).unreachable(),
            Some(Unreachable::NoGameGives { placements: 1 })
        );
        assert_eq!(setup(&["e4", "d5"], &["e5"]).unreachable(), Some(Unreachable::EmptiedStartCell(sq("d4"))));
        // Far from the start: not checked.
        let far = setup(&["a1", "b1", "c1", "h8", "e4", "d5"], &["d4", "e5"]);
        assert_eq!(far.unreachable(), None);
    }

    #[test]
    fn standard_start() {
        let pos = start("othello");
        assert_eq!(pos.side_to_move(), Color::Black);
        assert_eq!(pos.disc(sq("d5")), Some(Color::Black));
        assert_eq!(pos.disc(sq("e4")), Some(Color::Black));
        assert_eq!(pos.disc(sq("d4")), Some(Color::White));
        assert_eq!(pos.legal_placements(), vec![sq("d3"), sq("c4"), sq("f5"), sq("e6")]);
        assert_eq!(pos.legal_moves().len(), 4, "no pass while moves exist");
        let next = pos.clone().play(Move::Place(sq("f5"))).unwrap();
        assert_eq!((next.count(Color::Black), next.count(Color::White)), (4, 1));
        let err = pos.clone().play(Move::Place(sq("a1"))).unwrap_err();
        assert_eq!(err.reason, IllegalReason::FlipsNothing);
        assert_eq!(*err.position, pos, "the position comes back unchanged");
        assert_eq!(pos.check(Move::Place(sq("d4"))), Err(IllegalReason::Occupied));
        assert_eq!(pos.check(Move::Place(sq("i1"))), Err(IllegalReason::OutsideBoard));
        assert_eq!(pos.check(Move::Pass), Err(IllegalReason::PassWithMoves));
    }

    #[test]
    fn shortest_game_ends_with_a_wipe_out() {
        // The shortest possible game: black wipes out white in nine moves.
        let mut pos = start("othello");
        for m in ["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] {
            pos.play_mut(Move::Place(sq(m))).unwrap();
        }
        assert!(pos.is_game_over());
        let outcome = pos.outcome().unwrap();
        assert_eq!((outcome.black, outcome.white, outcome.winner), (13, 0, Some(Color::Black)));
        assert_eq!(outcome.margin, 64, "13 discs and 51 empties to the winner");
        assert_eq!(pos.check(Move::Place(sq("a1"))), Err(IllegalReason::GameOver));
    }

    #[test]
    fn empty_start_fills_the_centre_first() {
        let mut pos = start("brainking");
        assert_eq!(pos.legal_placements().len(), 4);
        assert_eq!(pos.check(Move::Place(sq("a1"))), Err(IllegalReason::NotCentre));
        assert!(!pos.is_game_over(), "no discs yet is not a wipe-out");
        for m in ["d4", "d5", "e4", "e5"] {
            pos.play_mut(Move::Place(sq(m))).unwrap();
        }
        assert_eq!(pos.count(Color::Black), 2);
        assert_eq!(pos.legal_placements().len(), 4);
    }

    #[test]
    fn non_capturing_placements() {
        let italian = start("italian");
        // Every empty neighbour of the centre is playable: 12 cells.
        assert_eq!(italian.legal_placements().len(), 12);
        let own = start("othello,placement=own");
        // Black's d5 and e4 have 12 empty neighbours together... minus none: all neighbours of
        // a black disc, plus the captures (which are next to black too).
        assert!(own.legal_placements().len() > 4);
        assert_eq!(own.check(Move::Place(sq("a1"))), Err(IllegalReason::NotAdjacent));
    }

    #[test]
    fn voluntary_passes_end_the_game_after_two() {
        let pos = start("othello,pass=voluntary");
        assert_eq!(pos.legal_moves().len(), 5);
        let pos = pos.play(Move::Pass).unwrap().play(Move::Pass).unwrap();
        assert!(pos.is_game_over());
    }

    #[test]
    fn limited_supply_without_borrowing_forces_passes() {
        // Black d5; white d4 e4 e5. With 4 discs each, black has 3 in hand and white 1.
        let board = "-".repeat(27) + "OO" + &"-".repeat(6) + "XO" + &"-".repeat(27);
        let rules: Rules = format!("othello,start={board},supply=4,borrow=no").parse().unwrap();
        let mut pos = Position::start(rules.shared());
        assert_eq!((pos.in_hand(Color::Black), pos.in_hand(Color::White)), (Some(3), Some(1)));
        while pos.in_hand(Color::White) != Some(0) || pos.side_to_move() != Color::White {
            let mv = pos.legal_moves()[0];
            pos.play_mut(mv).unwrap();
        }
        assert!(!pos.is_game_over(), "black still has discs and moves");
        assert!(!pos.has_placement(), "white has nothing left to place");
        let empty = (0..64).map(Square::from_bit8).find(|&s| pos.disc(s).is_none()).unwrap();
        assert_eq!(pos.check(Move::Place(empty)), Err(IllegalReason::NoDiscsLeft));
        pos.play_mut(Move::Pass).unwrap();
        assert!(pos.has_placement());
        let borrowing: Rules = format!("othello,start={board},supply=4,borrow=yes").parse().unwrap();
        let mut pos = Position::start(borrowing.shared());
        for _ in 0..3 {
            let mv = pos.legal_moves()[0];
            pos.play_mut(mv).unwrap();
        }
        assert_eq!(pos.in_hand(Color::White), Some(0));
        assert!(pos.side_to_move() == Color::Black || pos.has_placement(), "white borrows from black");
    }

    #[test]
    fn tie_rules_and_scoring() {
        let setup = Setup { black: vec![sq("a1"), sq("h1")], white: vec![sq("a8"), sq("h8")], side: Color::Black };
        let draw = Position::from_setup(Rules::othello().shared(), &setup).unwrap();
        assert!(draw.is_game_over());
        assert_eq!(draw.outcome().unwrap().winner, None);
        let second: Rules = "ravensburger".parse().unwrap();
        let pos = Position::from_setup(second.shared(), &setup).unwrap();
        assert_eq!(pos.outcome().unwrap().winner, Some(Color::Black), "white moved first, so black is second");
        let setup = Setup { black: vec![sq("a1")], white: vec![sq("a8"), sq("h8")], side: Color::Black };
        let anti = Position::from_setup("anti".parse::<Rules>().unwrap().shared(), &setup).unwrap();
        assert_eq!(anti.outcome().unwrap().winner, Some(Color::Black));
        assert_eq!(anti.outcome().unwrap().margin, 1);
        let official = Position::from_setup(Rules::othello().shared(), &setup).unwrap();
        assert_eq!(official.outcome().unwrap().margin, 1 + 61);
    }

    #[test]
    fn holes_break_lines() {
        // White d4 e5 and a hole on f6: black can't capture e5 along the diagonal through f6.
        let rules: Rules = "othello,holes=f6".parse().unwrap();
        let pos = Position::start(rules.clone().shared());
        assert_eq!(pos.check(Move::Place(sq("f6"))), Err(IllegalReason::Hole));
        let setup = Setup { black: vec![sq("c3")], white: vec![sq("d4"), sq("e5")], side: Color::Black };
        let pos = Position::from_setup(rules.clone().shared(), &setup).unwrap();
        assert!(!pos.legal_placements().contains(&sq("f6")));
        assert!(
            Position::from_setup(rules.shared(), &Setup { black: vec![sq("f6")], white: vec![], side: Color::Black })
                .is_err()
        );
    }

    /// Plays random games on the narrow and wide backends side by side.
    fn compare_backends(spec: &str, games: usize) {
        let rules = spec.parse::<Rules>().unwrap().shared();
        let mut state = 0x9e37_79b9_7f4a_7c15u64 ^ spec.len() as u64;
        for _ in 0..games {
            let mut narrow = Position::start(rules.clone());
            let mut wide = narrow.clone().into_wide();
            assert_eq!(wide, narrow, "the same position in either backend");
            while !narrow.is_game_over() {
                let moves = narrow.legal_moves();
                assert_eq!(moves, wide.legal_moves(), "{spec}: {narrow:?}");
                state = super::super::rules::splitmix64(state);
                let mv = moves[(state % moves.len() as u64) as usize];
                assert_eq!(narrow.flips(mv), wide.flips(mv));
                assert_eq!(narrow.play_mut(mv), wide.play_mut(mv));
                assert_eq!(narrow.board_string(), wide.board_string());
            }
            assert!(wide.is_game_over());
            assert_eq!(narrow.outcome(), wide.outcome());
        }
    }

    #[test]
    fn narrow_and_wide_backends_agree_on_random_games() {
        for spec in [
            "othello",
            "othello,size=6",
            "othello,size=4",
            "blackhole,seed=3",
            "brainking",
            "italian",
            "reversi-1880",
            "othello,pass=voluntary",
            "othello,size=6,shape=8stars",
        ] {
            compare_backends(spec, 300);
        }
    }
}
