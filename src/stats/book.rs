//! The positions games pass through, each up to the board's symmetries, with how often each was
//! reached, how those games ended and which moves were played from it: an opening book made from
//! the games (`kifu stats --by position`).

use std::collections::HashMap;
use std::sync::Arc;

use super::{Tally, Winner, rules_spec};
use crate::core::{Color, Game, Move, Passes, Position, Symmetry};

/// A position's identity: its discs up to the board's symmetries, its side to move and the
/// rules, as two independent 64-bit hashes.
pub type PositionKey = (u64, u64);

/// One position of a game and the move played from it (worked out beside the game's other
/// facts, in parallel; [`Book::add`] gathers them in input order).
#[derive(Clone, Debug)]
pub struct Step {
    key: PositionKey,
    /// The position after the move (and after a pass it forces), which names the move: moves
    /// that lead to one position up to symmetry are one move.
    next: PositionKey,
    /// The rules as a spec (`othello` for the standard game).
    rules: Arc<str>,
    position: Position,
    /// The symmetry that turns this game's position into the one its key reads.
    to_canonical: Symmetry,
    mv: Move,
}

/// The key of a position under rules named by `spec_hash`.
fn key(position: &Position, spec_hash: u64) -> PositionKey {
    let words = position.canonical_words().into_iter().chain([position.side_to_move().index() as u64, spec_hash]);
    let mix = |seed: u64, multiplier: u64| {
        words.clone().fold(seed, |h, w| {
            let h = (h ^ w).wrapping_mul(multiplier);
            h ^ (h >> 31)
        })
    };
    (mix(0x243f_6a88_85a3_08d3, 0x9e37_79b9_7f4a_7c15), mix(0x1319_8a2e_0370_7344, 0xbf58_476d_1ce4_e5b9))
}

/// The positions before each of the first `depth` moves of a game (up to its first illegal
/// move), with the moves played. A side that must pass has no choice: such positions are left
/// out, as a forced pass is no move (under voluntary passes a pass is one of the moves).
#[must_use]
pub fn steps(game: &Game, depth: usize) -> Vec<Step> {
    let spec: Arc<str> = rules_spec(game.rules()).into();
    let spec_hash = super::fnv(super::FNV_START, [spec.as_bytes()]);
    let mut chosen: Vec<(Position, Move)> = Vec::new();
    let mut counted = 0usize;
    // One position past the last move taken, to name it.
    let end = match game.replay_with(Passes::Implicit, |before, mv, _| {
        if (mv != Move::Pass || before.has_placement()) && counted <= depth {
            counted += 1;
            chosen.push((before.clone(), mv));
        }
    }) {
        Ok(replay) => replay.position,
        Err(e) => *e.position,
    };
    let mut keys: Vec<PositionKey> = chosen.iter().map(|(p, _)| key(p, spec_hash)).collect();
    keys.push(key(&end, spec_hash));
    chosen
        .into_iter()
        .take(depth)
        .enumerate()
        .map(|(i, (position, mv))| Step {
            key: keys[i],
            next: keys[i + 1],
            rules: Arc::clone(&spec),
            to_canonical: position.canonical_words_symmetry(),
            position,
            mv,
        })
        .collect()
}

/// A position of the book.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The board as the first game to reach it had it (cells from a1 rank by rank, rank 1 on
    /// top: `X` black, `O` white, `-` empty, `#` no cell).
    pub board: Box<str>,
    /// The rules as a spec, rank 1 on top (`othello` for the standard game).
    pub rules: Arc<str>,
    /// The side to move.
    pub side: Color,
    /// Empty cells.
    pub empties: u32,
    /// The games that reached it and their results.
    pub tally: Tally,
    /// The moves played from it, each with the games that played it and their results.
    moves: Vec<BookMove>,
    /// From the key's image of the position to [`Entry::board`].
    to_shown: Symmetry,
    size: u8,
}

/// A move played from a position of the book.
#[derive(Clone, Debug)]
struct BookMove {
    /// Named on [`Entry::board`] as the first game to play it from the position had it.
    shown: Move,
    /// The position it leads to (what makes two moves one).
    next: PositionKey,
    tally: Tally,
}

impl Entry {
    /// The moves played from the position, most played first (ties by name), each named on
    /// [`Entry::board`] as the first game to play it from there had it, with the games that
    /// played it and their results.
    #[must_use]
    pub fn moves_ranked(&self) -> Vec<(Move, &Tally)> {
        let mut moves: Vec<(Move, &Tally)> = self.moves.iter().map(|m| (m.shown, &m.tally)).collect();
        moves.sort_by(|a, b| b.1.games.cmp(&a.1.games).then_with(|| a.0.to_string().cmp(&b.0.to_string())));
        moves
    }
}

/// Positions gathered from games, up to the board's symmetries.
#[derive(Debug, Default)]
pub struct Book {
    entries: HashMap<PositionKey, Entry>,
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// Adds a game's positions ([`steps`]) and its result (as a [`Tally`] counts it: `from_record` when
    /// it is the record's; `margin`: black's, when the game is over on the board).
    pub fn add(&mut self, steps: &[Step], result: Option<Winner>, from_record: bool, margin: Option<i32>) {
        for step in steps {
            let entry = self.entries.entry(step.key).or_insert_with(|| Entry {
                board: step.position.board_string_from_top().into(),
                rules: Arc::clone(&step.rules),
                side: step.position.side_to_move(),
                empties: step.position.empties(),
                tally: Tally::default(),
                moves: Vec::new(),
                to_shown: step.to_canonical.inverse(),
                size: step.position.rules().size(),
            });
            entry.tally.add(result, from_record, margin);
            let at = entry.moves.iter().position(|m| m.next == step.next).unwrap_or_else(|| {
                let size = entry.size;
                let shown = entry.to_shown.apply_move(step.to_canonical.apply_move(step.mv, size), size);
                // Most positions deep in a book have one move: no room kept for more.
                entry.moves.reserve_exact(1);
                entry.moves.push(BookMove { shown, next: step.next, tally: Tally::default() });
                entry.moves.len() - 1
            });
            entry.moves[at].tally.add(result, from_record, margin);
        }
    }

    /// Distinct positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The positions, most reached first (ties: fewer discs first, then by board and side).
    #[must_use]
    pub fn ranked(&self) -> Vec<&Entry> {
        let mut v: Vec<&Entry> = self.entries.values().collect();
        v.sort_by(|a, b| {
            (b.tally.games, a.size, std::cmp::Reverse(a.empties), &a.board, a.side.index(), &a.rules).cmp(&(
                a.tally.games,
                b.size,
                std::cmp::Reverse(b.empties),
                &b.board,
                b.side.index(),
                &b.rules,
            ))
        });
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rules;
    use crate::notation::transcript;

    fn game(moves: &str) -> Game {
        let record = transcript::parse(moves).unwrap();
        record.game(Rules::othello().shared()).unwrap()
    }

    #[test]
    fn transpositions_and_symmetric_games_share_positions_and_moves() {
        let mut book = Book::new();
        // The Tiger, the same line turned (c4 for f5, and so on), and a transposition of it.
        for line in ["f5d6c3d3c4", "c4e3f6e6f5", "f5d6c4d3c3"] {
            book.add(&steps(&game(line), 5), Some(Winner::Black), false, Some(10));
        }
        book.add(&steps(&game("f5f6e6f4"), 5), Some(Winner::White), false, Some(-4));
        let ranked = book.ranked();
        let start = ranked[0];
        assert_eq!((start.empties, start.tally.games, start.tally.black_wins), (60, 4, 3));
        // Every first move is one move: named as the first game played it.
        let first: Vec<(String, u64)> = start.moves_ranked().iter().map(|(m, t)| (m.to_string(), t.games)).collect();
        assert_eq!(first, [("f5".to_owned(), 4)]);
        let after_f5 = ranked[1];
        assert_eq!((after_f5.empties, after_f5.tally.games), (59, 4));
        let replies: Vec<(String, u64)> =
            after_f5.moves_ranked().iter().map(|(m, t)| (m.to_string(), t.games)).collect();
        assert_eq!(replies, [("d6".to_owned(), 3), ("f6".to_owned(), 1)]);
        // f5 d6 c3 d3 c4 and f5 d6 c4 d3 c3 meet after their fifth move only: the position
        // before it is reached by two different positions' moves, the Tiger's by none here.
        let two_moves_in = ranked.iter().filter(|e| e.empties == 58).map(|e| e.tally.games).collect::<Vec<_>>();
        assert_eq!(two_moves_in, [3, 1]);
        assert_eq!(book.ranked().iter().map(|e| e.tally.games).sum::<u64>(), 4 * 5 - 1);
    }

    #[test]
    fn depth_counts_moves_and_a_forced_pass_is_none() {
        let steps = steps(&game("f5d6c3"), 2);
        assert_eq!(steps.len(), 2);
        assert_eq!(steps[1].mv.to_string(), "d6");
        assert_eq!(steps[1].position.empties(), 59);
        assert_eq!(super::steps(&game("f5"), 10).len(), 1);
    }
}
