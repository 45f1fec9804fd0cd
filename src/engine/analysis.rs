//! Move-by-move analysis of a game: for each ply the best move and its value, the played move's
//! value, the discs lost and a mark.
//!
//! One search per position, carried backward: the played move's value is minus the value of the
//! position it leads to, when both positions were searched alike (both exactly, or both to the
//! same depth); otherwise the played move is searched on its own, as the position was. The
//! positions are searched from the last to the first, so that each search finds the table filled
//! by the one after it. Best is never below played: when the played move turns out better than
//! the move the search preferred, it is the best move.

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

impl Found {
    /// Whether two values were found the same way, so that one may be carried to the other.
    #[must_use]
    pub fn alike(&self, other: &Found) -> bool {
        (self.exact && other.exact) || (!self.exact && !other.exact && self.depth == other.depth)
    }
}

/// What analyses positions: the engine behind [`analyse`] (a fake one in tests).
pub trait Analyst {
    /// The best move and value of a position that is not over.
    fn position(&mut self, position: &Position) -> Result<Found, SolveError>;
    /// The value of playing `mv`, searched as `like` was (exactly, or to the same depth).
    fn move_like(&mut self, position: &Position, mv: Move, like: &Found) -> Result<Found, SolveError>;
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
/// once per position searched.
pub fn analyse(
    analyst: &mut dyn Analyst,
    positions: &[Position],
    moves: &[Move],
    thresholds: &Thresholds,
    mut done: impl FnMut(),
) -> Result<Vec<Ply>, AnalysisError> {
    assert_eq!(positions.len(), moves.len() + 1, "one more position than moves");
    let n = moves.len();
    let last = &positions[n];
    let mut next = match last.outcome() {
        Some(outcome) => {
            Found { best: None, score: outcome.score(last.side_to_move()), exact: true, depth: 0, nodes: 0 }
        }
        None if n == 0 => return Ok(Vec::new()),
        None => analyst.position(last).map_err(|error| AnalysisError { ply: n + 1, error })?,
    };
    done();
    let mut plies = Vec::with_capacity(n);
    for k in (0..n).rev() {
        let position = &positions[k];
        let played = moves[k];
        let fail = |error| AnalysisError { ply: k + 1, error };
        // A pass is chosen, and judged like a placement, where the rules let a player pass
        // with placements at hand (voluntary passes).
        let forced = played == Move::Pass && !position.legal_moves().iter().any(|m| matches!(m, Move::Place(_)));
        let ply = if forced {
            // A forced pass: nothing to choose, nothing lost.
            Ply {
                ply: k + 1,
                color: position.side_to_move(),
                played,
                best: played,
                best_score: -next.score,
                played_score: -next.score,
                loss: 0,
                exact: next.exact,
                depth: next.depth,
                mark: Mark::None,
                empties: position.empties(),
                nodes: 0,
                forced: true,
            }
        } else {
            let found = analyst.position(position).map_err(fail)?;
            let mut nodes = found.nodes;
            let after = if found.alike(&next) {
                Found { score: -next.score, ..next }
            } else {
                let own = analyst.move_like(position, played, &found).map_err(fail)?;
                nodes += own.nodes;
                own
            };
            let played_score = after.score;
            let (best, best_score) = match found.best {
                // The deeper look decides the value of the move both searches chose.
                Some(mv) if mv == played => (played, played_score),
                _ if played_score > found.score => (played, played_score),
                Some(mv) => (mv, found.score),
                None => (played, played_score),
            };
            let loss = best_score - played_score;
            let exact = found.exact && after.exact;
            let mut mark = Mark::for_loss(loss, thresholds);
            let mover = position.side_to_move();
            if exact
                && loss == 0
                && result_sign(best_score, mover, tie_taker(position)) >= 0
                && only_move(analyst, position, played, best_score).map_err(fail)?
            {
                mark = Mark::Only;
            }
            Ply {
                ply: k + 1,
                color: position.side_to_move(),
                played,
                best,
                best_score,
                played_score,
                loss,
                exact,
                depth: found.depth,
                mark,
                empties: position.empties(),
                nodes,
                forced: false,
            }
        };
        done();
        next = Found { best: Some(ply.best), score: ply.best_score, exact: ply.exact, depth: ply.depth, nodes: 0 };
        plies.push(ply);
    }
    plies.reverse();
    Ok(plies)
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
    fn position(&mut self, position: &Position) -> Result<Found, SolveError> {
        let empties = position.empties();
        if empties <= self.settings.exact_empties {
            let s = self.solver.solve_best_with(position, Limits::default())?;
            return Ok(Found { best: s.best, score: s.score, exact: true, depth: empties, nodes: s.nodes });
        }
        let e = self.solver.search_with(position, self.settings.depth, self.settings.limits())?;
        Ok(Found { best: e.best, score: e.score, exact: e.exact, depth: e.depth, nodes: e.nodes })
    }

    fn move_like(&mut self, position: &Position, mv: Move, like: &Found) -> Result<Found, SolveError> {
        if like.exact {
            let score = self.solver.solve_move_with(position, mv, Limits::default())?;
            let depth = position.empties();
            return Ok(Found { best: Some(mv), score, exact: true, depth, nodes: self.solver.nodes() });
        }
        let e = self.solver.search_move_with(position, mv, like.depth, Limits::default())?;
        Ok(Found { best: Some(mv), score: e.score, exact: e.exact, depth: e.depth, nodes: e.nodes })
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

    /// Discs lost per move.
    #[must_use]
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.loss as f64 / f64::from(self.moves) }
    }

    /// The share of moves that lost nothing, in percent.
    #[must_use]
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 { 100.0 } else { 100.0 * f64::from(self.best) / f64::from(self.moves) }
    }
}

/// A game's summary: each side's tally and the move that decided the result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Summary {
    /// Black's and White's figures.
    pub sides: [Tally; 2],
    /// The decisive mistake: the last ply whose move turned a win into a draw or a loss, or a
    /// draw into a loss, so that no later move changed the result (by the signs of the values:
    /// exact in the solved part, estimates before).
    pub decisive: Option<usize>,
}

impl Summary {
    /// Sums up analysed plies; `tie_taker` wins level games ([`tie_taker`]).
    #[must_use]
    pub fn of(plies: &[Ply], tie_taker: Option<Color>) -> Summary {
        let mut summary = Summary::default();
        for ply in plies {
            summary.sides[ply.color.index()].add(ply);
            let result = |score| result_sign(score, ply.color, tie_taker);
            if result(ply.best_score) > result(ply.played_score) {
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
        assert_eq!(Summary::of(&[ply(Color::Black, 0, -2)], Some(Color::Black)).decisive, Some(1));
        // ...while White going from 0 to -2 lost nothing: 0 was already a loss for White.
        assert_eq!(Summary::of(&[ply(Color::White, 0, -2)], Some(Color::Black)).decisive, None);
        assert_eq!(Summary::of(&[ply(Color::White, 0, -2)], None).decisive, Some(1));
    }
    use crate::core::{Passes, Rules};

    /// A fake engine: the exact values of a small tree by plain minimax, searched "to depth 1"
    /// (a fixed table of scores) before `exact_from` empties, and counting its calls.
    struct Fake {
        exact_from: u32,
        /// Estimates by (empty squares, side to move, move): unique along one game.
        values: HashMap<(u32, Color, Move), i32>,
        calls: usize,
        own: usize,
    }

    impl Fake {
        fn exact(&self, position: &Position) -> i32 {
            if let Some(o) = position.outcome() {
                return o.score(position.side_to_move());
            }
            position.legal_moves().into_iter().map(|m| -self.exact(&position.clone().play(m).unwrap())).max().unwrap()
        }
    }

    impl Analyst for Fake {
        fn position(&mut self, position: &Position) -> Result<Found, SolveError> {
            self.calls += 1;
            let moves = position.legal_moves();
            let exact = position.empties() <= self.exact_from;
            let value = |s: &Fake, m: Move| {
                if exact {
                    -s.exact(&position.clone().play(m).unwrap())
                } else {
                    *s.values.get(&(position.empties(), position.side_to_move(), m)).unwrap_or(&0)
                }
            };
            let (best, score) =
                moves.iter().map(|&m| (m, value(self, m))).max_by_key(|&(m, v)| (v, m == moves[0])).unwrap();
            Ok(Found { best: Some(best), score, exact, depth: if exact { position.empties() } else { 1 }, nodes: 1 })
        }

        fn move_like(&mut self, position: &Position, mv: Move, like: &Found) -> Result<Found, SolveError> {
            self.own += 1;
            let child = position.clone().play(mv).unwrap();
            let score = if like.exact {
                -self.exact(&child)
            } else {
                *self.values.get(&(position.empties(), position.side_to_move(), mv)).unwrap_or(&0)
            };
            Ok(Found { best: Some(mv), score, ..*like })
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
        let mut fake = Fake { exact_from: 64, values: HashMap::new(), calls: 0, own: 0 };
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
        assert_eq!(plies.len(), moves.len());
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
        // Every value was carried back: no move searched on its own.
        assert_eq!(fake.own, 0);
        assert_eq!(fake.calls, plies.iter().filter(|p| p.played != Move::Pass).count());
    }

    #[test]
    fn estimates_meeting_exact_values_search_the_played_move_like_the_position() {
        let (positions, moves) = whole_game();
        let mut values = HashMap::new();
        for (k, pos) in positions.iter().enumerate().take(moves.len()) {
            for m in pos.legal_moves() {
                // Estimates that prefer the move played by 5 discs.
                values.insert((pos.empties(), pos.side_to_move(), m), if m == moves[k] { 5 } else { 0 });
            }
        }
        let mut fake = Fake { exact_from: positions[3].empties(), values, calls: 0, own: 0 };
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
        // Before the boundary the estimates carry back; at the boundary the played move is
        // searched on its own (estimate meets exact).
        assert_eq!(fake.own, 1);
        for ply in &plies[..3] {
            assert!(!ply.exact);
            assert_eq!(ply.loss, 0);
        }
        assert!(plies[3..].iter().all(|p| p.exact));
    }

    #[test]
    fn a_played_move_searched_on_its_own_is_valued_like_the_position() {
        let (positions, moves) = whole_game();
        let mut values = HashMap::new();
        let pos = &positions[0];
        for m in pos.legal_moves() {
            values.insert((pos.empties(), pos.side_to_move(), m), if m == moves[0] { -3 } else { 2 });
        }
        // Position 0 is estimated, position 1 solved: the played move is estimated too.
        let mut fake = Fake { exact_from: positions[1].empties(), values, calls: 0, own: 0 };
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
        let first = &plies[0];
        assert_eq!((first.best_score, first.played_score, first.loss), (2, -3, 5));
        assert_ne!(first.best, moves[0]);
        assert_eq!(first.mark, Mark::Dubious);
        assert!(!first.exact);
    }

    #[test]
    fn a_played_move_found_better_than_the_best_becomes_the_best() {
        let (positions, moves) = whole_game();
        let mut values = HashMap::new();
        for m in positions[0].legal_moves() {
            let p = &positions[0];
            values.insert((p.empties(), p.side_to_move(), m), if m == moves[0] { -3 } else { 2 });
        }
        for m in positions[1].legal_moves() {
            let p = &positions[1];
            values.insert((p.empties(), p.side_to_move(), m), -4);
        }
        // Positions 0 and 1 estimated alike: the played move's value is carried back from
        // position 1 (4) and beats the move the search preferred (2).
        let mut fake = Fake { exact_from: positions[2].empties(), values, calls: 0, own: 0 };
        let plies = analyse(&mut fake, &positions, &moves, &Thresholds::default(), || {}).unwrap();
        let first = &plies[0];
        assert_eq!((first.best, first.best_score, first.played_score, first.loss), (moves[0], 4, 4, 0));
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
