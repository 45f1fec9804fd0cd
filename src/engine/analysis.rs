//! Move-by-move analysis of a game: for each ply the best move and its value, the played move's
//! value, the discs lost and a mark.
//!
//! One search per position: the played move's value is minus the value of the position it leads
//! to. Where a position is solved exactly, its best move's value is its own; where it is searched
//! by depth, the move the search prefers is valued like the played one, by a search of the
//! position it leads to (exact when that position is in the exact part), so that the two values
//! compared always come from searches of the same kind and depth. The order of the searches
//! keeps them alike too ([`analyse`]). Best is never below played: when the played move is worth
//! at least the move the search preferred, it is the best move.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::solve::{Limits, SolveError, Solver};
use crate::core::{Color, Move, Position, TieRule};

/// A position's value as an analyst found it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Found {
    /// The best move (a pass when the side to move must pass; none when the game is over).
    pub best: Option<Move>,
    /// The value for the side to move, in discs.
    pub score: i32,
    /// Whether the value is exact (perfect play to the end).
    pub exact: bool,
    /// Moves searched ahead (the empty squares when exact).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
}

/// What analyses positions: the engine behind [`analyse`] (a fake one in tests).
pub trait Analyst {
    /// Whether [`Analyst::position`] solves this position exactly rather than searching it by
    /// depth.
    fn exact_at(&self, position: &Position) -> bool;
    /// The best move and value of a position that is not over.
    fn position(&mut self, position: &Position) -> Result<Found, SolveError>;
    /// Whether `mv` gives the side to move at least `bound` under perfect play.
    fn reaches(&mut self, position: &Position, mv: Move, bound: i32) -> Result<bool, SolveError>;
}

/// Losses (in discs) from which a move is marked `?!`, `?` and `??`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct Thresholds {
    /// `?!` from this loss.
    pub dubious: i32,
    /// `?` from this loss.
    pub mistake: i32,
    /// `??` from this loss.
    pub blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds { dubious: 2, mistake: 6, blunder: 12 }
    }
}

/// A move's mark.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash, PartialOrd, Ord)]
pub enum Mark {
    /// Nothing to say.
    #[default]
    None,
    /// `!`: the only move that keeps the result (exact scores only).
    Only,
    /// `?!`: a small loss.
    Dubious,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Mark {
    /// The mark as written after a move (empty for none).
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Only => "!",
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark for a loss.
    #[must_use]
    pub fn for_loss(loss: i32, thresholds: &Thresholds) -> Mark {
        if loss >= thresholds.blunder {
            Mark::Blunder
        } else if loss >= thresholds.mistake {
            Mark::Mistake
        } else if loss >= thresholds.dubious {
            Mark::Dubious
        } else {
            Mark::None
        }
    }
}

/// One analysed ply. Scores are final disc margins from the mover's side.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ply {
    /// 1-based; passes count.
    pub ply: usize,
    /// Who moved.
    pub color: Color,
    /// The move played.
    pub played: Move,
    /// The best move.
    pub best: Move,
    /// The best move's value.
    pub best_score: i32,
    /// The played move's value.
    pub played_score: i32,
    /// `best_score - played_score`, never negative.
    pub loss: i32,
    /// Whether both values are exact.
    pub exact: bool,
    /// Moves searched ahead from this position (its empty squares when exact).
    pub depth: u32,
    /// The mark.
    pub mark: Mark,
    /// Empty squares before the move.
    pub empties: u32,
    /// Positions searched for this ply.
    pub nodes: u64,
    /// A pass with no placement to choose instead: nothing chosen, nothing lost, not counted.
    pub forced: bool,
}

/// Why a game could not be analysed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("ply {ply}: {error}")]
pub struct AnalysisError {
    /// The 1-based ply whose position could not be searched.
    pub ply: usize,
    /// Why.
    pub error: SolveError,
}

/// Analyses a game given as its positions `positions[0..=n]` and the `n` moves between them
/// (`positions[k + 1]` is `positions[k]` after `moves[k]`; passes are moves). `done` is called
/// once per position.
///
/// The positions searched by depth go first, from the first to the last, each followed by the
/// position its preferred move leads to when that is not the move played: a search then finds in
/// the table only what searches of the same depth from the same or earlier positions left, never
/// a deeper look along the played line, so that the values compared are alike. The positions
/// solved exactly follow, from the last to the first (each solve finds the table filled by the
/// one after it), and last the preferred moves of the positions whose next one is solved.
pub fn analyse(
    analyst: &mut dyn Analyst,
    positions: &[Position],
    moves: &[Move],
    thresholds: &Thresholds,
    mut done: impl FnMut(),
) -> Result<Vec<Ply>, AnalysisError> {
    assert_eq!(positions.len(), moves.len() + 1, "one more position than moves");
    let n = moves.len();
    if n == 0 && positions[n].outcome().is_none() {
        return Ok(Vec::new());
    }
    let fail = |k: usize| move |error| AnalysisError { ply: k + 1, error };
    // A pass is chosen, and judged like a placement, where the rules let a player pass with
    // placements at hand (voluntary passes); a forced pass is not searched.
    let searched = |k: usize| {
        k == n || moves[k] != Move::Pass || positions[k].legal_moves().iter().any(|m| matches!(m, Move::Place(_)))
    };
    // Each position's own value (none for a forced pass), and the value of each preferred move
    // that is not the played one, by a search of the position it leads to.
    let mut found: Vec<Option<Found>> = vec![None; n + 1];
    let mut preferred: Vec<Option<(Move, Found)>> = vec![None; n];
    // Searches by depth, forward.
    for k in 0..=n {
        let position = &positions[k];
        if !searched(k) || position.outcome().is_some() || analyst.exact_at(position) {
            continue;
        }
        let here = analyst.position(position).map_err(fail(k))?;
        done();
        if k < n
            && let Some(mv) = here.best.filter(|&mv| mv != moves[k] && !here.exact)
        {
            let child = position.clone().play(mv).map_err(|_| fail(k)(SolveError::IllegalMove(mv)))?;
            if child.outcome().is_some() || !analyst.exact_at(&child) {
                preferred[k] = Some((mv, value_of(analyst, &child).map_err(fail(k))?));
            }
        }
        found[k] = Some(here);
    }
    // Exact solves, backward.
    for k in (0..=n).rev() {
        let position = &positions[k];
        if searched(k) && found[k].is_none() {
            found[k] = Some(value_of(analyst, position).map_err(fail(k))?);
            done();
        } else if !searched(k) {
            done();
        }
    }
    // Preferred moves into the exact part.
    for k in 0..n {
        if let Some(here) = found[k].filter(|h| !h.exact)
            && let Some(mv) = here.best.filter(|&mv| mv != moves[k])
            && preferred[k].is_none()
        {
            let child = positions[k].clone().play(mv).map_err(|_| fail(k)(SolveError::IllegalMove(mv)))?;
            preferred[k] = Some((mv, value_of(analyst, &child).map_err(fail(k))?));
        }
    }
    // The plies, backward: each played move is worth minus the value of the position it leads to.
    let mut next = found[n].expect("the last position is valued");
    let mut plies = Vec::with_capacity(n);
    for k in (0..n).rev() {
        let position = &positions[k];
        let played = moves[k];
        let played_score = -next.score;
        let (ply, value) = match found[k] {
            // A forced pass: nothing to choose, nothing lost.
            None => {
                let ply = Ply {
                    ply: k + 1,
                    color: position.side_to_move(),
                    played,
                    best: played,
                    best_score: played_score,
                    played_score,
                    loss: 0,
                    exact: next.exact,
                    depth: next.depth,
                    mark: Mark::None,
                    empties: position.empties(),
                    nodes: 0,
                    forced: true,
                };
                // The same position, the other side to move.
                (ply, Found { score: played_score, ..next })
            }
            Some(here) => {
                let mut nodes = here.nodes;
                let rival = match (here.best, preferred[k]) {
                    (_, Some((mv, after))) => {
                        nodes += after.nodes;
                        Some((mv, -after.score))
                    }
                    (Some(mv), None) if mv != played => Some((mv, here.score)),
                    _ => None,
                };
                let (best, best_score) = match rival {
                    Some((mv, score)) if score > played_score => (mv, score),
                    _ => (played, played_score),
                };
                let loss = best_score - played_score;
                let exact = here.exact && next.exact;
                let mut mark = Mark::for_loss(loss, thresholds);
                if exact
                    && loss == 0
                    && result_sign(best_score, position.side_to_move(), tie_taker(position)) >= 0
                    && only_move(analyst, position, played, best_score).map_err(fail(k))?
                {
                    mark = Mark::Only;
                }
                let ply = Ply {
                    ply: k + 1,
                    color: position.side_to_move(),
                    played,
                    best,
                    best_score,
                    played_score,
                    loss,
                    exact,
                    depth: here.depth,
                    mark,
                    empties: position.empties(),
                    nodes,
                    forced: false,
                };
                (ply, here)
            }
        };
        next = value;
        plies.push(ply);
    }
    plies.reverse();
    Ok(plies)
}

/// A position's value: its final margin when the game is over, else the analyst's search.
fn value_of(analyst: &mut dyn Analyst, position: &Position) -> Result<Found, SolveError> {
    match position.outcome() {
        Some(outcome) => {
            Ok(Found { best: None, score: outcome.score(position.side_to_move()), exact: true, depth: 0, nodes: 0 })
        }
        None => analyst.position(position),
    }
}

/// Who wins a game that ends level under `position`'s rules, if anyone (`ties=second`: the
/// player who moved second).
#[must_use]
pub fn tie_taker(position: &Position) -> Option<Color> {
    let variant = position.rules().variant();
    (variant.ties == TieRule::SecondPlayer).then(|| variant.first.other())
}

/// The result a score means for `mover`: 1 a win, 0 a draw, -1 a loss; a level score is a
/// win or a loss where the rules give ties to a player (`tie_taker`).
#[must_use]
pub fn result_sign(score: i32, mover: Color, tie_taker: Option<Color>) -> i32 {
    match (score.signum(), tie_taker) {
        (0, Some(taker)) if taker == mover => 1,
        (0, Some(_)) => -1,
        (sign, _) => sign,
    }
}

/// Whether `played`, worth `score` (a win or a draw), is the only legal move that keeps that
/// result (a forced move is not marked).
fn only_move(analyst: &mut dyn Analyst, position: &Position, played: Move, score: i32) -> Result<bool, SolveError> {
    let others: Vec<Move> = position.legal_moves().into_iter().filter(|&m| m != played).collect();
    if others.is_empty() {
        return Ok(false);
    }
    // The least value that keeps the result: a level score wins for the player who takes ties.
    let bound = if tie_taker(position) == Some(position.side_to_move()) { 0 } else { i32::from(score > 0) };
    for mv in others {
        if analyst.reaches(position, mv, bound)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How the solver analyses: exactly near the end, by a depth-limited search before.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_empties: u32,
    /// Moves searched ahead before that.
    pub depth: u32,
    /// At most this long per position searched by depth (the depth is then a ceiling).
    pub time: Option<Duration>,
    /// A budget of nodes per position searched by depth ([`Limits::deepening_nodes`]: the
    /// depth is then a ceiling); unlike a time, the same on every machine.
    pub nodes: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { exact_empties: 18, depth: 10, time: None, nodes: None }
    }
}

impl Settings {
    /// The limits of a position's search by depth.
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits { time: self.time, deepening_nodes: self.nodes, ..Limits::default() }
    }
}

/// The solver as an [`Analyst`].
pub struct SolverAnalyst<'a> {
    /// The solver (its table is kept from one position to the next).
    pub solver: &'a mut Solver,
    /// How to search.
    pub settings: Settings,
}

impl Analyst for SolverAnalyst<'_> {
    fn exact_at(&self, position: &Position) -> bool {
        position.empties() <= self.settings.exact_empties
    }

    fn position(&mut self, position: &Position) -> Result<Found, SolveError> {
        let empties = position.empties();
        if self.exact_at(position) {
            let s = self.solver.solve_best_with(position, Limits::default())?;
            return Ok(Found { best: s.best, score: s.score, exact: true, depth: empties, nodes: s.nodes });
        }
        let e = self.solver.search_with(position, self.settings.depth, self.settings.limits())?;
        Ok(Found { best: e.best, score: e.score, exact: e.exact, depth: e.depth, nodes: e.nodes })
    }

    fn reaches(&mut self, position: &Position, mv: Move, bound: i32) -> Result<bool, SolveError> {
        self.solver.move_reaches(position, mv, bound, Limits::default())
    }
}

/// One side's figures over the plies of a game (or many games).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Tally {
    /// Moves chosen (forced passes left out).
    pub moves: u32,
    /// Discs lost in total.
    pub loss: i64,
    /// Moves that lost nothing.
    pub best: u32,
    /// Moves marked `!`.
    pub only: u32,
    /// Moves marked `?!`.
    pub dubious: u32,
    /// Moves marked `?`.
    pub mistakes: u32,
    /// Moves marked `??`.
    pub blunders: u32,
}

impl Tally {
    /// Counts one ply (a forced pass counts for nothing).
    pub fn add(&mut self, ply: &Ply) {
        if ply.forced {
            return;
        }
        self.moves += 1;
        self.loss += i64::from(ply.loss);
        self.best += u32::from(ply.loss == 0);
        match ply.mark {
            Mark::None => {}
            Mark::Only => self.only += 1,
            Mark::Dubious => self.dubious += 1,
            Mark::Mistake => self.mistakes += 1,
            Mark::Blunder => self.blunders += 1,
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.loss += other.loss;
        self.best += other.best;
        self.only += other.only;
        self.dubious += other.dubious;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
    }

    /// Discs lost per move; none without a move.
    #[must_use]
    pub fn average_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss as f64 / f64::from(self.moves))
    }

    /// The share of moves that lost nothing, in percent; none without a move.
    #[must_use]
    pub fn accuracy(&self) -> Option<f64> {
        (self.moves > 0).then(|| 100.0 * f64::from(self.best) / f64::from(self.moves))
    }
}

/// How far from level (in discs) an estimated value must be to count as a win or a loss when
/// the decisive mistake is looked for: searches by depth err by a few discs.
pub const ESTIMATED_LEVEL: i32 = 2;

/// A game's summary: each side's tally and the move that decided the result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Summary {
    /// Black's and White's figures.
    pub sides: [Tally; 2],
    /// The decisive mistake: the last ply whose move turned a win into a draw or a loss, or a
    /// draw into a loss, for the result the game ended with for that player (by the signs of
    /// the values: exact in the solved part, estimates before, those within
    /// [`ESTIMATED_LEVEL`] discs of level counting as level). None when no move did: the
    /// values before the solved part can drift from one search to the next.
    pub decisive: Option<usize>,
}

impl Summary {
    /// Sums up analysed plies; `tie_taker` wins level games ([`tie_taker`]); `stated` is the
    /// winner (`None` a draw) a record states for a game that stops before its end.
    #[must_use]
    pub fn of(plies: &[Ply], tie_taker: Option<Color>, stated: Option<Option<Color>>) -> Summary {
        let mut summary = Summary::default();
        // The result the game ended with, from black's side: the one its record states for a
        // game that stops before its end (a resignation), else the value of its last position.
        let end = match stated {
            Some(Some(Color::Black)) => Some(1),
            Some(Some(Color::White)) => Some(-1),
            Some(None) => Some(0),
            None => plies.last().map(|p| if p.color == Color::Black { p.played_score } else { -p.played_score }),
        };
        for ply in plies {
            summary.sides[ply.color.index()].add(ply);
            // An estimate within a few discs of level says no more than "about level": a drop
            // from +1 to -1 at move 2 is the search's noise, not the game's turn.
            let result = |score: i32| {
                if !ply.exact && score.abs() <= ESTIMATED_LEVEL { 0 } else { result_sign(score, ply.color, tie_taker) }
            };
            let ended = end.map(|e| result(if ply.color == Color::Black { e } else { -e }));
            // Only a move that left the mover with the result the game ended with decided it:
            // between searches by depth the values drift, and a drop that a later drift undid
            // decided nothing.
            if result(ply.best_score) > result(ply.played_score) && ended == Some(result(ply.played_score)) {
                summary.decisive = Some(ply.ply);
            }
        }
        summary
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Under `ties=second` a level score is the second player's win and the first's loss, so a
    /// move from a level win to a loss by two is decisive for the first player only as a loss.
    #[test]
    fn level_scores_under_ties_second() {
        let rules: crate::core::Rules = "ravensburger,size=6".parse().unwrap();
        let start = Position::start(rules.shared());
        // White moves first in the Ravensburger rules: black takes the ties.
        assert_eq!(tie_taker(&start), Some(Color::Black));
        assert_eq!(tie_taker(&Position::start(crate::core::Rules::othello().shared())), None);
        assert_eq!(result_sign(0, Color::Black, Some(Color::Black)), 1);
        assert_eq!(result_sign(0, Color::White, Some(Color::Black)), -1);
        assert_eq!(result_sign(0, Color::White, None), 0);
        assert_eq!(result_sign(-2, Color::Black, Some(Color::Black)), -1);
        let ply = |color, best_score, played_score| Ply {
            ply: 1,
            color,
            played: Move::Pass,
            best: Move::Pass,
            best_score,
            played_score,
            loss: best_score - played_score,
            exact: true,
            depth: 0,
            mark: Mark::None,
            empties: 0,
            nodes: 0,
            forced: false,
        };
        // Black (the tie taker) going from a level score to -2 threw the game away...
        assert_eq!(Summary::of(&[ply(Color::Black, 0, -2)], Some(Color::Black), None).decisive, Some(1));
        // ...while White going from 0 to -2 lost nothing: 0 was already a loss for White.
        assert_eq!(Summary::of(&[ply(Color::White, 0, -2)], Some(Color::Black), None).decisive, None);
        assert_eq!(Summary::of(&[ply(Color::White, 0, -2)], None, None).decisive, Some(1));
        // A drop the game did not end with decided nothing: White fell from a win to a draw by
        // the estimates, then the values drifted and White won.
        let mut second = ply(Color::Black, -10, -12);
        second.ply = 2;
        assert_eq!(Summary::of(&[ply(Color::White, 3, 0), second.clone()], None, None).decisive, None);
        // A game that stops where the record says black won (White resigned): White's drop to
        // a draw did not decide it, and Black's would not have either.
        assert_eq!(Summary::of(&[ply(Color::White, 3, 0), second], None, Some(Some(Color::Black))).decisive, None);
        // Black's later drop to the loss the game ended with decided it.
        let mut second = ply(Color::Black, 2, -12);
        second.ply = 2;
        assert_eq!(Summary::of(&[ply(Color::White, 3, 0), second], None, None).decisive, Some(2));
        // Estimates near level are level: White's ~+0 to ~-2 early on decided nothing; Black's
        // later ~+1 to ~-8 did.
        let estimate = |color, best, played, at| Ply { exact: false, ply: at, ..ply(color, best, played) };
        let game =
            [estimate(Color::White, 0, -2, 1), estimate(Color::Black, 6, 4, 2), estimate(Color::Black, 1, -8, 3)];
        assert_eq!(Summary::of(&game[..2], None, None).decisive, None);
        assert_eq!(Summary::of(&game, None, None).decisive, Some(3));
    }
    use crate::core::{Passes, Rules};

    /// A fake engine: the exact values of a small tree by plain minimax at `exact_from` empty
    /// squares or fewer, given estimates before (best move and value by position; the first
    /// legal move and 0 for the others), logging the positions it searches.
    struct Fake {
        exact_from: u32,
        estimates: HashMap<Position, (Move, i32)>,
        searched: Vec<Position>,
    }

    impl Fake {
        fn new(exact_from: u32) -> Fake {
            Fake { exact_from, estimates: HashMap::new(), searched: Vec::new() }
        }

        fn exact(&self, position: &Position) -> i32 {
            if let Some(o) = position.outcome() {
                return o.score(position.side_to_move());
            }
            position.legal_moves().into_iter().map(|m| -self.exact(&position.clone().play(m).unwrap())).max().unwrap()
        }
    }

    impl Analyst for Fake {
        fn exact_at(&self, position: &Position) -> bool {
            position.empties() <= self.exact_from
        }

        fn position(&mut self, position: &Position) -> Result<Found, SolveError> {
            self.searched.push(position.clone());
            let moves = position.legal_moves();
            if self.exact_at(position) {
                let value = |m: Move| -self.exact(&position.clone().play(m).unwrap());
                let (best, score) =
                    moves.iter().map(|&m| (m, value(m))).max_by_key(|&(m, v)| (v, m == moves[0])).unwrap();
                return Ok(Found { best: Some(best), score, exact: true, depth: position.empties(), nodes: 1 });
            }
            let (best, score) = self.estimates.get(position).copied().unwrap_or((moves[0], 0));
            Ok(Found { best: Some(best), score, exact: false, depth: 1, nodes: 1 })
        }

        fn reaches(&mut self, position: &Position, mv: Move, bound: i32) -> Result<bool, SolveError> {
            Ok(-self.exact(&position.clone().play(mv).unwrap()) >= bound)
        }
    }

    /// The positions and moves of a game on the 4x4 board, passes included.
    fn game(moves: &str) -> (Vec<Position>, Vec<Move>) {
        let rules = "othello,size=4".parse::<Rules>().unwrap().shared();
        let record = crate::notation::transcript::parse(moves).unwrap();
        let game = record.game(rules).unwrap();
        let mut positions = Vec::new();
        let mut played = Vec::new();
        let replay = game
            .replay_with(Passes::Implicit, |before, mv, _| {
                positions.push(before.clone());
                played.push(mv);
            })
            .unwrap();
        positions.push(replay.position);
        (positions, played)
    }

    fn whole_game() -> (Vec<Position>, Vec<Move>) {
        // A complete 4x4 game (found by playing the first legal move each time).
        let rules = "othello,size=4".parse::<Rules>().unwrap().shared();
        let mut pos = Position::start(rules);
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let mv = pos.legal_moves()[0];
            moves.push(mv);
            pos = pos.play(mv).unwrap();
        }
        let text: String = moves
            .iter()
            .map(|m| match m {
                Move::Pass => "pass ".to_owned(),
                Move::Place(sq) => format!("{sq} "),
            })
            .collect();
        game(&text)
    }

    #[test]
    fn exact_scores_carry_back_to_the_final_margin() {
        let (positions, moves) = whole_game();
        let mut fake = Fake::new(64);
        let mut done = 0;
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || done += 1).unwrap();
        assert_eq!(plies.len(), moves.len());
        assert_eq!(done, positions.len(), "one call per position");
        let last = plies.last().unwrap();
        let end = positions.last().unwrap();
        assert_eq!(last.played_score, end.outcome().unwrap().score(last.color));
        for (k, ply) in plies.iter().enumerate() {
            assert!(ply.exact);
            assert!(ply.best_score >= ply.played_score);
            assert_eq!(ply.loss, ply.best_score - ply.played_score);
            // The played value is the exact value of the move.
            let child = positions[k].clone().play(moves[k]).unwrap();
            assert_eq!(ply.played_score, -fake.exact(&child));
            assert_eq!(ply.best_score, fake.exact(&positions[k]));
        }
        // One search per position that has a choice, from the last to the first: every value
        // was carried back, no move searched on its own.
        let chosen: Vec<&Position> =
            (0..moves.len()).rev().filter(|&k| !plies[k].forced).map(|k| &positions[k]).collect();
        assert_eq!(fake.searched.iter().collect::<Vec<_>>(), chosen);
    }

    #[test]
    fn estimates_that_agree_with_the_moves_played_cost_one_search_each() {
        let (positions, moves) = whole_game();
        let mut fake = Fake::new(positions[3].empties());
        for k in 0..3 {
            fake.estimates.insert(positions[k].clone(), (moves[k], 5));
        }
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
        // The estimated positions first, forward; then the solved ones, backward.
        assert_eq!(fake.searched[..3], positions[..3]);
        assert_eq!(fake.searched.len(), plies.iter().filter(|p| !p.forced).count());
        for ply in &plies[..3] {
            assert!(!ply.exact);
            assert_eq!((ply.best, ply.loss), (ply.played, 0));
        }
        // The third move meets the exact part: its value is exact.
        assert_eq!(plies[2].played_score, -fake.exact(&positions[3]));
        assert!(plies[3..].iter().all(|p| p.exact));
    }

    #[test]
    fn a_preferred_move_is_valued_like_the_played_one() {
        let (positions, moves) = whole_game();
        let (p0, p1) = (&positions[0], &positions[1]);
        let rival = p0.legal_moves().into_iter().find(|&m| m != moves[0]).unwrap();
        let after_rival = p0.clone().play(rival).unwrap();
        let thresholds = Thresholds::default();
        for (rival_after, best, played_score, best_score) in [(-7, rival, 4, 7), (-1, moves[0], 4, 4)] {
            let mut fake = Fake::new(positions[2].empties());
            // Position 0 prefers the rival by its own look (2 against whatever the move played
            // gets): the rival's value comes from a search of the position it leads to, as the
            // played move's comes from position 1's.
            fake.estimates.insert(p0.clone(), (rival, 2));
            fake.estimates.insert(p1.clone(), (p1.legal_moves()[0], -4));
            fake.estimates.insert(after_rival.clone(), (after_rival.legal_moves()[0], rival_after));
            let plies = analyse(&mut fake, &positions, &moves, &thresholds, || {}).unwrap();
            let first = &plies[0];
            assert_eq!((first.best, first.played_score, first.best_score), (best, played_score, best_score));
            assert_eq!(first.loss, best_score - played_score);
            assert!(!first.exact);
            // Searched forward: the position, its preferred move's position, the next position.
            assert_eq!(fake.searched[..3], [p0.clone(), after_rival.clone(), p1.clone()]);
        }
    }

    #[test]
    fn at_the_exact_part_both_moves_are_valued_exactly() {
        let (positions, moves) = whole_game();
        let p0 = &positions[0];
        for rival in p0.legal_moves().into_iter().filter(|&m| m != moves[0]) {
            // Position 0 is estimated, the positions after it solved.
            let mut fake = Fake::new(positions[1].empties());
            fake.estimates.insert(p0.clone(), (rival, 30));
            let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
            let first = &plies[0];
            let played = -fake.exact(&positions[1]);
            let rival_value = -fake.exact(&p0.clone().play(rival).unwrap());
            assert_eq!(first.played_score, played);
            assert_eq!(first.best_score, played.max(rival_value), "never the estimate's 30");
            assert_eq!(first.best, if rival_value > played { rival } else { moves[0] });
            assert!(!first.exact, "the best move is not proven");
        }
    }

    #[test]
    fn marks_follow_the_thresholds() {
        let t = Thresholds::default();
        assert_eq!(Mark::for_loss(0, &t), Mark::None);
        assert_eq!(Mark::for_loss(2, &t), Mark::Dubious);
        assert_eq!(Mark::for_loss(6, &t), Mark::Mistake);
        assert_eq!(Mark::for_loss(30, &t), Mark::Blunder);
    }
}
