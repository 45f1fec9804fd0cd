//! Checking a record: replay it (the core judges legality), compare its stored result with the
//! board, and explain what is wrong in a player's words, with the likely intended move.

use std::sync::Arc;

use super::format::Format;
use super::{MoveNumber, MoveSyntax, Record, Span, numbering, transcript};
use crate::core::diagnose::{self, Gap, Suggestion};
use crate::core::quick::{self, PASS};
use crate::core::{
    Color, Game, IllegalMove, IllegalReason, Move, Outcome, Passes, Position, RowNumbering, Rules, Square, Start,
    Unreachable, Variant,
};

/// A record's verdict.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Status {
    /// Every move legal, the game over (or resigned or lost on time, as the record says), the
    /// stored result (if any) right.
    Ok,
    /// A move is illegal.
    Illegal,
    /// Every move legal but the game is not over, and the record does not say why.
    Unfinished,
    /// The stored result disagrees with the board.
    ResultMismatch,
    /// The record could not be read.
    ParseError,
}

impl Status {
    /// Whether the record is invalid: an illegal move, a stored result that does not match, or
    /// a record that could not be read (an unfinished game is not invalid).
    #[must_use]
    pub fn is_invalid(self) -> bool {
        !matches!(self, Status::Ok | Status::Unfinished)
    }

    /// The name used in output (`ok`, `illegal`, `unfinished`, `result_mismatch`, `parse_error`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Illegal => "illegal",
            Status::Unfinished => "unfinished",
            Status::ResultMismatch => "result_mismatch",
            Status::ParseError => "parse_error",
        }
    }
}

/// What is wrong, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Problem {
    /// The 1-based index of the move token at fault (0 when the fault is not a move).
    pub ply: usize,
    /// The move as written (empty when the fault is not a move).
    pub mv: String,
    /// Why, in words.
    pub reason: String,
    /// Where in the record's text.
    pub span: Span,
}

/// The verdict on one record, with the board as replayed up to the last legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Check {
    /// The verdict.
    pub status: Status,
    /// Move tokens replayed (passes count when written).
    pub plies: usize,
    /// Black's discs.
    pub black: u32,
    /// White's discs.
    pub white: u32,
    /// Empty cells.
    pub empties: u32,
    /// Passes played, written or inferred.
    pub passes: u32,
    /// The board scored as it stands, under the rules' scoring.
    pub score: Outcome,
    /// Whether the game is over.
    pub over: bool,
    /// The result the record states, as written.
    pub stored: Option<String>,
    /// The first problem.
    pub problem: Option<Problem>,
    /// The likely fix.
    pub suggestion: Option<String>,
}

impl Check {
    /// `black`, `white` or `draw` when the game is over, else empty.
    #[must_use]
    pub fn winner(&self) -> &'static str {
        match (self.over, self.score.winner) {
            (false, _) => "",
            (true, Some(Color::Black)) => "black",
            (true, Some(Color::White)) => "white",
            (true, None) => "draw",
        }
    }

    /// Black's margin under the rules' scoring, when the game is over.
    #[must_use]
    pub fn margin(&self) -> Option<i32> {
        self.over.then(|| self.score.score(Color::Black))
    }
}

/// Checks a record of `format` under `rules`.
#[must_use]
pub fn check(record: &Record, rules: &Arc<Rules>, format: Format) -> Check {
    let mut check = judge(record, rules, format);
    // A record that states only the winner (`0-1`) shows that as its stored result.
    if check.stored.is_none() {
        check.stored = record.tag("outcome").map(str::to_owned);
    }
    check
}

/// [`check`] but for the stored result shown.
fn judge(record: &Record, rules: &Arc<Rules>, format: Format) -> Check {
    // Disc counts as a PGN record wrote them (`33-31`, kept in `score`) say more than the
    // margin read from them: their sum is checked too. (Other formats' result is `result`.)
    let pgn = matches!(format, Format::Pgn | Format::Playok);
    let counts = record.tag("score").filter(|s| pgn && super::pgn::counts(s).is_some());
    let stored = counts.or(record.tag("result")).map(str::to_owned);
    // Written move numbers are checked against the replay's passes, which the quick path
    // does not report.
    let numbered = record.moves.iter().any(|t| t.number.is_some());
    if !numbered && let Some(mut check) = quick_check(record, rules, format, &stored) {
        judge_outcome(&mut check, record, komi_of(record));
        return check;
    }
    let game = match record.game_before_bad_square(rules.clone()) {
        Ok((game, None)) => game,
        Ok((game, Some(i))) => {
            // A square the board does not have is an illegal move: judge the moves before it.
            let prefix =
                Record { tags: record.tags.clone(), start: record.start.clone(), moves: record.moves[..i].to_vec() };
            let mut before = check(&prefix, rules, format);
            if before.status == Status::Illegal {
                // Rules under which the whole record replays (a 10x10 game's `j10` further on)
                // say more than a fix of the moves before the square.
                if let Some(other) = rules_that_fit(record, rules, format) {
                    before.suggestion = Some(other);
                }
                return before;
            }
            let token = &record.moves[i];
            let mut replay_passes = 0;
            let end = match game.replay_with(Passes::Implicit, |_, mv, _| replay_passes += u32::from(mv == Move::Pass))
            {
                Ok(r) => r.position,
                Err(e) => *e.position,
            };
            let mut check = verdict(Status::Illegal, i, &end, replay_passes, stored);
            check.problem = Some(Problem {
                ply: i + 1,
                mv: token.mv.to_string(),
                reason: "the square is outside the board".into(),
                span: token.span,
            });
            check.suggestion = suggest_on_board(record, rules, i, &end);
            return check;
        }
        Err(e) => {
            let start = Position::start(rules.clone());
            return Check {
                problem: Some(Problem { ply: 0, mv: String::new(), reason: e.message, span: e.span }),
                ..verdict(Status::ParseError, 0, &start, 0, stored)
            };
        }
    };
    // A board no game under these rules has (an empty board, the centre discs turned).
    if record.start.is_some()
        && let Some(why) = game.start().unreachable()
    {
        let mut check = verdict(Status::Illegal, 0, game.start(), 0, stored);
        check.problem =
            Some(Problem { ply: 0, mv: String::new(), reason: unreachable(rules, why), span: Span::default() });
        // A board read the other way up (a game of rows=bottom written without its rules), or
        // of a game the other side began.
        check.suggestion = rules_that_fit(record, rules, format);
        return check;
    }
    let mut passes = 0;
    // The passes the replay inserted before each move token (all of them up to it).
    let (mut inserted, mut inserted_so_far) = (Vec::new(), 0);
    let replay = game.replay_with(Passes::Implicit, |before, mv, _| {
        passes += u32::from(mv == Move::Pass);
        let token = record.moves.get(inserted.len());
        // A pass the record did not write: before a placement, or before a pass given to the
        // other side.
        if mv == Move::Pass
            && token.is_some_and(|t| t.mv != MoveSyntax::Pass || t.color.is_some_and(|c| c != before.side_to_move()))
        {
            inserted_so_far += 1;
        } else {
            inserted.push(inserted_so_far);
        }
    });
    if replay.is_err() {
        // The illegal move's own number counts the passes inserted before it.
        inserted.push(inserted_so_far);
    }
    let skipped = if numbered { numbering::ahead_of_replay(&record.moves, &inserted) } else { None };
    let mut check = match replay {
        Ok(replay) => {
            let mut check = verdict(Status::Ok, record.moves.len(), &replay.position, passes, stored);
            judge_result(&mut check, format, komi_of(record), record.start.is_none(), termination_off_board(record));
            judge_outcome(&mut check, record, komi_of(record));
            // A position (a board string, an OBF line, a diagram) is a position to play on, not
            // a game that stopped: a legal one is all it has to be.
            if format.is_position() && record.moves.is_empty() && check.status == Status::Unfinished {
                check.status = Status::Ok;
                check.problem = None;
                if let Some(scores) = record.tag("scores") {
                    judge_scores(&mut check, scores, &replay.position);
                }
            }
            check
        }
        Err(e) => {
            let token = &record.moves[e.ply - 1];
            let mut check = verdict(Status::Illegal, e.ply - 1, &e.position, passes, stored);
            check.problem =
                Some(Problem { ply: e.ply, mv: token.mv.to_string(), reason: e.reason.to_string(), span: token.span });
            check.suggestion = suggest(record, rules, &game, &e, format);
            check
        }
    };
    if let Some((at, number, expected)) = skipped {
        misnumbered(&mut check, at, number, &expected);
    }
    check
}

/// Why a board is no position of a game under `rules`, in words (see
/// [`Position::unreachable`]).
#[must_use]
pub fn unreachable(rules: &Rules, why: Unreachable) -> String {
    match why {
        Unreachable::EmptiedStartCell(cell) => format!(
            "{} is empty, but the start position fills it and discs never leave the board: no game under these \
             rules reaches this board",
            rules.square_name(cell)
        ),
        Unreachable::NoGameGives { placements: 0 } => {
            "the board has the start position's number of discs but not its discs: no game under these rules \
             reaches it"
                .to_owned()
        }
        Unreachable::NoGameGives { placements } => format!(
            "the board has {placements} disc{s} more than the start position, and no game of {placements} move{s} \
             from the start gives it: no game under these rules reaches it",
            s = if placements == 1 { "" } else { "s" },
        ),
    }
}

/// A move as a scores list names it (OBF's `G8:+18; PS:+6`), in lower case, with the pass
/// tokens transcripts take (`PS`, `PA`, `--`, `@@`) as `pass`.
#[must_use]
pub fn scored_move(name: &str) -> String {
    let name = name.trim().to_lowercase();
    if matches!(name.as_str(), "ps" | "pa" | "--" | "@@") { "pass".to_owned() } else { name }
}

/// Whether `name` names a square of the board (or a pass) under `rules`.
pub fn is_square_name(name: &str, rules: &Rules) -> bool {
    name.eq_ignore_ascii_case("pass")
        || rules.playable().squares().any(|sq| rules.square_name(sq).eq_ignore_ascii_case(name))
}

/// Checks the move scores a position stores (OBF's `G8:+18; H1:+12`) without solving: each
/// entry a move and a whole score, the move legal here and listed once, the score within the
/// board's cells. (`kifu solve --check` compares the values with the solver's.)
fn judge_scores(check: &mut Check, scores: &str, position: &Position) {
    let rules = position.rules();
    let cells = rules.playable().count() as i32;
    let legal = position.legal_moves();
    let mut seen: Vec<String> = Vec::new();
    for entry in scores.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        let parsed = entry.split_once(':').and_then(|(mv, score)| {
            let mv = scored_move(mv);
            let square = legal.iter().copied().find(|&m| rules.move_name(m).eq_ignore_ascii_case(&mv));
            Some((mv, square, score.trim().parse::<i32>().ok()?))
        });
        let (status, reason) = match parsed {
            None => (Status::ParseError, format!("`{entry}` is not a move and its score (`G8:+18`)")),
            Some((mv, None, _)) if !is_square_name(&mv, rules) => {
                (Status::ParseError, format!("the scores list {mv}, which is not a square of this board"))
            }
            Some((mv, None, _)) => (Status::Illegal, format!("the scores list {mv}, which is not a legal move here")),
            Some((mv, _, _)) if seen.contains(&mv) => (Status::ParseError, format!("the scores list {mv} twice")),
            Some((mv, _, score)) if score.abs() > cells => {
                (Status::ParseError, format!("the score of {mv}, {score:+}, is beyond the board's {cells} cells"))
            }
            Some((mv, _, _)) => {
                seen.push(mv);
                continue;
            }
        };
        check.status = status;
        check.problem = Some(Problem { ply: 0, mv: String::new(), reason, span: Span::default() });
        return;
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Reports move number `number`, ahead of the moves replayed before it (which call for
/// `expected`), standing before move `at`. Where a move is illegal or the stored result wrong,
/// that stays the problem and the number becomes the first suggestion (moves left out explain
/// both); otherwise the number is the problem, and the record is refused as one with a number
/// behind its moves is.
fn misnumbered(check: &mut Check, at: usize, number: MoveNumber, expected: &str) {
    if matches!(check.status, Status::Illegal | Status::ResultMismatch) {
        let hint = format!(
            "a move left out before move number {number}? It runs ahead of the moves played before it, where \
             {expected} was expected (it stands before the {} move written)",
            ordinal(at + 1)
        );
        check.suggestion = Some(match check.suggestion.take() {
            Some(other) => format!("{hint}; or {other}"),
            None => hint,
        });
        return;
    }
    check.status = Status::ParseError;
    let reason = format!(
        "move number {number} where {expected} was expected from the moves played before it: a move left out, or a \
         wrong number?"
    );
    check.problem = Some(Problem { ply: 0, mv: String::new(), reason, span: number.span });
}

/// The verdict on a clean game from the quick 8x8 replay, straight from the tokens; `None`
/// when the record needs the general replay (other boards or rules, a start board, a problem).
fn quick_check(record: &Record, rules: &Arc<Rules>, format: Format, stored: &Option<String>) -> Option<Check> {
    // (A game won on time or by forfeit by its Termination tag is judged on the full path.)
    if rules.size() != 8 || record.start.is_some() || record.moves.len() > 128 || termination_off_board(record) {
        return None;
    }
    let bottom = rules.variant().rows == RowNumbering::Bottom;
    let mut codes = [0u8; 128];
    let mut colors = [None; 128];
    for (i, t) in record.moves.iter().enumerate() {
        codes[i] = match t.mv {
            MoveSyntax::Pass => PASS,
            MoveSyntax::Square { file, rank } if file < 8 && (1..=8).contains(&rank) => {
                let row = if bottom { 8 - rank } else { rank - 1 };
                row * 8 + file
            }
            MoveSyntax::Square { .. } => return None,
        };
        colors[i] = t.color;
    }
    let n = record.moves.len();
    quick_verdict(rules, &codes[..n], &colors[..n], format, stored.clone(), komi_of(record))
}

/// The verdict from the quick replay of 8x8 codes, when the game replays cleanly.
fn quick_verdict(
    rules: &Arc<Rules>,
    codes: &[u8],
    colors: &[Option<Color>],
    format: Format,
    stored: Option<String>,
    komi: Option<Option<f64>>,
) -> Option<Check> {
    let q = quick::quick_replay(&Position::start(rules.clone()), codes, colors)?;
    if q.stopped_at.is_some() {
        return None;
    }
    let mut check = Check {
        status: Status::Ok,
        plies: codes.len(),
        black: q.black,
        white: q.white,
        empties: q.empties,
        passes: q.passes,
        score: Outcome::scored(rules.variant(), q.black, q.white, q.empties),
        over: q.outcome.is_some(),
        stored,
        problem: None,
        suggestion: None,
    };
    judge_result(&mut check, format, komi, true, false);
    Some(check)
}

/// The verdict on a plain transcript line (see [`transcript::scan_plain`]) straight from its
/// text, without building a record; `None` when the line needs the full path (another shape,
/// other rules, or a problem to explain).
#[must_use]
pub fn check_plain_line(text: &str, rules: &Arc<Rules>, format: Format) -> Option<Check> {
    if rules.size() != 8 {
        return None;
    }
    let bottom = rules.variant().rows == RowNumbering::Bottom;
    let mut codes = [0u8; 128];
    let mut colors = [None; 128];
    let mut n = 0;
    let mut fits = true;
    let tail = transcript::scan_plain(text, |(file, rank, color, _, _)| {
        if n == 128 || file >= 8 || !(1..=8).contains(&rank) {
            fits = false;
            return;
        }
        codes[n] = if bottom { 8 - rank } else { rank - 1 } * 8 + file;
        colors[n] = color;
        n += 1;
    })?;
    if !fits {
        return None;
    }
    // (A result in words, `: White resigned`, takes the full path, which reads it whole, and so
    // does a winner, `: 1-0`, which the full path reads as the record's outcome.)
    if tail.is_some_and(|t| {
        transcript::in_words(t) && super::pgn::worded_result(t).is_some()
            || t.split_whitespace().next().is_some_and(transcript::is_outcome)
    }) {
        return None;
    }
    let stored = tail.and_then(|t| t.split_whitespace().next()).map(str::to_owned);
    quick_verdict(rules, &codes[..n], &colors[..n], format, stored, None)
}

fn verdict(status: Status, plies: usize, pos: &Position, passes: u32, stored: Option<String>) -> Check {
    Check {
        status,
        plies,
        black: pos.count(Color::Black),
        white: pos.count(Color::White),
        empties: pos.empties(),
        passes,
        score: pos.score(),
        over: pos.is_game_over(),
        stored,
        problem: None,
        suggestion: None,
    }
}

/// The komi a record states (GGS's `KM`, PGN's `Komi`), the points taken from black's margin:
/// `None` without one (or with a placeholder: empty, `?`, `-`, `*`, `none`), `Some(None)` for
/// one that is no number.
#[must_use]
pub fn komi_of(record: &Record) -> Option<Option<f64>> {
    let text = record.tag("komi")?.trim();
    if matches!(text.to_ascii_lowercase().as_str(), "" | "?" | "-" | "*" | "none" | "n/a") {
        return None;
    }
    Some(text.parse::<f64>().ok().filter(|k| k.is_finite()))
}

/// The winner of a finished game whose black margin is `margin`, after `komi` points are
/// taken from it (`None` for a draw).
#[must_use]
pub fn winner_after_komi(margin: i32, komi: f64) -> Option<Color> {
    let after = f64::from(margin) - komi;
    if after > 0.0 {
        Some(Color::Black)
    } else if after < 0.0 {
        Some(Color::White)
    } else {
        None
    }
}

/// Whether the record says the game was won on time or by forfeit (`B+T`, `W+F`, GGS's
/// `-64.000:t`, PGN's `1-0` with `Termination "time forfeit"`): a result that stands whatever
/// the board gives.
fn won_off_board(record: &Record, check: &Check) -> bool {
    match check.stored.as_deref().and_then(super::win_without_margin) {
        // A margin or counts (`31-33`, as WOC sheets score a loss on time) or a winner alone
        // say why by the Termination tag.
        None | Some((_, super::WinBy::Unsaid)) => termination_off_board(record),
        Some((_, by)) => matches!(by, super::WinBy::Time | super::WinBy::Forfeit),
    }
}

/// Whether the record's Termination tag says the game was won on time or by forfeit.
fn termination_off_board(record: &Record) -> bool {
    matches!(super::termination_win_by(record), super::WinBy::Time | super::WinBy::Forfeit)
}

/// Whether a finished game's record gives it to the other player (or a draw) on time or by
/// forfeit (`B+T` against a board white won), against the board's result.
#[must_use]
pub fn overruled_board(record: &Record, check: &Check) -> bool {
    let stated =
        check.stored.as_deref().and_then(|s| stated_result(s, (check.black + check.white + check.empties) as i32));
    check.over
        && won_off_board(record, check)
        && stated.is_some_and(|s| s.winner != final_winner(&check.score, komi_of(record).flatten().unwrap_or(0.0)))
}

/// [`overruled_board`] for `record` replayed to `end`.
#[must_use]
pub fn overruled_at(record: &Record, end: &Position) -> bool {
    let stored = ["score", "result", "outcome"].iter().find_map(|tag| record.tag(tag)).map(str::to_owned);
    overruled_board(record, &verdict(Status::Ok, record.moves.len(), end, 0, stored))
}

/// Sets `Unfinished` or `ResultMismatch` on a legal game. The stored result is black's margin;
/// it is compared under the rules' scoring, except that the logbook counts plain discs and PGN
/// exports may do either. A game with komi states its margin after the komi (GGS's `RE[-22.87]`
/// with `KM[-3.133]` for a board of -26), and its winner is the one after the komi; with a komi
/// that is no number the result is not compared. Wins on time or by forfeit are not compared
/// (`off_board`: the Termination tag says the game was won so, whatever form its result takes).
/// A game of no moves from the rules' start (`from_start`) with a winner stated alone was
/// forfeited.
fn judge_result(check: &mut Check, format: Format, komi: Option<Option<f64>>, from_start: bool, off_board: bool) {
    let plain = check.black as i32 - check.white as i32;
    if !check.over {
        // A game the record says was resigned or lost on time ended there, and one of no moves
        // with a winner (`1-0`) was forfeited: nothing is missing.
        if check
            .stored
            .as_deref()
            .and_then(super::win_without_margin)
            .is_some_and(|(_, by)| by != super::WinBy::Unsaid || (check.plies == 0 && from_start))
        {
            return;
        }
        check.status = Status::Unfinished;
        let cells = if check.empties == 1 { "cell" } else { "cells" };
        let mut reason = format!("the game is not over ({} empty {cells})", check.empties);
        // Counts are answered with counts, a margin with a margin.
        let stated = check.stored.as_deref().map_or(Stated::Unreadable, stated_margin);
        let differs = match stated {
            Stated::Margin(v) => (v - f64::from(plain)).abs() > 1e-9,
            Stated::Counts(black, white) => black - white != plain,
            _ => false,
        };
        let text = check.stored.as_deref().unwrap_or_default().trim();
        if differs {
            let board = match stated {
                Stated::Counts(..) => format!("{}-{}", check.black, check.white),
                _ if sgf_form(text) => sgf_margin(plain),
                _ => super::wthor::signed(plain),
            };
            reason.push_str(&format!("; the record says {text}, the board as it stands gives {board}"));
        } else if matches!(stated, Stated::Margin(_) | Stated::Counts(..)) {
            // (A result agreed before the end, a draw say, is the board as it stands.)
            reason.push_str(&format!("; the record says {text}, as the board stands"));
        } else if matches!(stated, Stated::Winner(_) | Stated::NotCompared) && !unknown_result(text) {
            // A winner without a margin (a resignation, a loss on time) is shown as it is.
            reason.push_str(&format!("; the record says {text}"));
        } else if matches!(stated, Stated::Unreadable) && !unknown_result(text) {
            reason.push_str(&format!("; {}", no_result_reason(text)));
        }
        check.problem = Some(Problem { ply: 0, mv: String::new(), reason, span: Span::default() });
        return;
    }
    let Some(stored) = check.stored.as_deref() else { return };
    // A komi that is no number leaves a margin or a winner unjudged; disc counts still add up.
    let komi = match komi {
        None => 0.0,
        Some(None) if matches!(stated_margin(stored), Stated::Counts(..)) => 0.0,
        Some(None) => return,
        Some(Some(k)) => k,
    };
    // Stated counts are answered with counts (their sum, the board's discs or every square).
    let mut counts_sum = None;
    let discs = (check.black + check.white) as i32;
    let value = match stated_margin(stored) {
        Stated::Margin(value) => value,
        Stated::Counts(black, white) => {
            // Counts must add up to the discs on the board, or to every square when the
            // empty ones went to the winner.
            let sum = black + white;
            if sum != discs && sum != discs + check.empties as i32 {
                let empty = match check.empties {
                    0 => String::new(),
                    n => format!(" and {n} empty squares"),
                };
                let reason = format!(
                    "the record says {}, but the board has {} black and {} white discs{empty}",
                    stored.trim(),
                    check.black,
                    check.white
                );
                mismatch(check, reason);
                return;
            }
            counts_sum = Some(sum);
            f64::from(black - white)
        }
        // A resignation on a game the board finished is the board's result: its winner must be
        // the board's (a loss on time or a forfeit may overrule the board, and is not judged).
        Stated::NotCompared => {
            if let Some((color, super::WinBy::Resignation)) = super::win_without_margin(stored)
                && final_winner(&check.score, komi) != Some(color)
            {
                let text = format!("{} (a resignation)", stored.trim());
                wrong_winner(check, &text, komi);
            }
            return;
        }
        Stated::Winner(color) => {
            if !off_board && final_winner(&check.score, komi) != Some(color) {
                let text = stored.trim().to_owned();
                wrong_winner(check, &text, komi);
            }
            return;
        }
        Stated::Unreadable => {
            let text = stored.to_owned();
            no_result(check, &text);
            return;
        }
    };
    // A win on time or by forfeit (the Termination tag says so) stands against the board.
    if off_board {
        return;
    }
    let rules_margin = check.score.score(Color::Black);
    // Counts are discs, which komi does not change; a margin is stated after the komi, which
    // GGS rounds to two decimals.
    let komi = if counts_sum.is_some() { 0.0 } else { komi };
    let tolerance = if komi == 0.0 { 1e-9 } else { 0.005 + 1e-9 };
    let fits = |m: i32| (value - (f64::from(m) - komi)).abs() < tolerance;
    let right = match (counts_sum, format) {
        // Counts tell their convention by their sum: the discs on the board (plain counts), or
        // every square (the empty ones to the winner).
        (Some(sum), _) if sum == discs => fits(plain),
        (Some(_), _) => fits(rules_margin),
        (None, Format::Logbook) => fits(plain),
        (None, Format::Pgn | Format::Playok) => fits(plain) || fits(rules_margin),
        (None, _) => fits(rules_margin),
    };
    if !right {
        let board = if format == Format::Logbook { plain } else { rules_margin };
        let board = match counts_sum {
            Some(sum) if sum == discs => format!("{}-{}", check.black, check.white),
            Some(sum) if (sum + board) % 2 == 0 => {
                format!("{}-{} (the empty squares to the winner)", (sum + board) / 2, (sum - board) / 2)
            }
            _ if komi != 0.0 => {
                format!("{}, {:+} after the komi of {komi}", super::wthor::signed(board), f64::from(board) - komi)
            }
            // In the form the record gives (`W+2` against `B+2`).
            _ if sgf_form(stored) => sgf_margin(board),
            _ => super::wthor::signed(board),
        };
        mismatch(check, format!("the record says {stored}, the board gives {board}"));
    }
}

/// Sets `ResultMismatch` for a stored result that is none of the forms results take.
fn no_result(check: &mut Check, text: &str) {
    mismatch(check, no_result_reason(text));
}

/// Why `text` is no result.
fn no_result_reason(text: &str) -> String {
    let text = text.trim();
    let double = if text == "0-0" { " (a double forfeit is no result a game can have)" } else { "" };
    format!(
        "the record's result `{text}` is neither a margin (+4, -12, B+4), disc counts (34-30) nor a winner (1-0, 0-1, 1/2-1/2){double}"
    )
}

/// Whether a stated result says only that the result is unknown (`*`, `?`, `void`).
fn unknown_result(text: &str) -> bool {
    matches!(text.trim().to_ascii_lowercase().as_str(), "" | "?" | "*" | "void" | "unknown")
}

/// Sets `ResultMismatch`, with the problem (not a move's) in `reason`.
fn mismatch(check: &mut Check, reason: String) {
    check.status = Status::ResultMismatch;
    check.problem = Some(Problem { ply: 0, mv: String::new(), reason, span: Span::default() });
}

/// What a stored result says of black's margin.
enum Stated {
    /// A margin: `+4`, `-12`, `0`, `+4.000` (GGS), SGF's `B+4` / `W+4`.
    Margin(f64),
    /// Black's and White's disc counts: `34-30`.
    Counts(i32, i32),
    /// A winner alone, SGF's `B+` / `W+`.
    Winner(Color),
    /// A result that gives no margin to compare: GGS's flagged ones (`+64.000:r`, a resignation),
    /// SGF's wins by resignation, time or forfeit (`B+R`, `W+Time`), `?`, `Void`.
    NotCompared,
    /// Text that is none of those.
    Unreadable,
}

fn stated_margin(stored: &str) -> Stated {
    let text = stored.trim();
    let number = |s: &str| s.parse::<f64>().ok().filter(|v| v.is_finite());
    // GGS's score the players agreed on (`-12.000:s`): that margin.
    if let Some(v) = text.strip_suffix(":s").and_then(|m| number(m.strip_prefix('+').unwrap_or(m))) {
        return Stated::Margin(v);
    }
    if text.contains(':') || text == "?" || text.eq_ignore_ascii_case("void") {
        return Stated::NotCompared;
    }
    if let Some(v) = number(text.strip_prefix('+').unwrap_or(text)) {
        return Stated::Margin(v);
    }
    for (prefix, sign) in [("B+", 1.0), ("W+", -1.0)] {
        if let Some(rest) = text.strip_prefix(prefix).or_else(|| text.strip_prefix(&prefix.to_lowercase())) {
            if rest.is_empty() {
                return Stated::Winner(if sign > 0.0 { Color::Black } else { Color::White });
            }
            return number(rest).map_or(Stated::NotCompared, |v| Stated::Margin(sign * v));
        }
    }
    match super::pgn::counts(text) {
        Some((black, white)) => Stated::Counts(black, white),
        None => Stated::Unreadable,
    }
}

/// A result as a record states it, read for scoring a tournament: who won and, when the record
/// says, by how much.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StatedResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Black's margin with the empty squares given to the winner, when the record gives one
    /// (not for `1-0`, `B+R`, a GGS resignation or a loss on time).
    pub margin: Option<i32>,
}

/// Reads the result a record states (its `result` or `score`, else its `outcome`; see
/// [`Check::stored`]) on a board of `cells` squares: a margin (`+4`, `-12`, `B+4`), disc counts
/// (`35-29`; counts that leave squares empty give them to the winner, as the official rules
/// count), a winner (`1-0`, `0-1`, `1/2-1/2`, `B+`, `W+R`, GGS's `+64.000:r`, a Japanese
/// result); `None` for `?`, `*`, `void` or text that is none of these.
#[must_use]
pub fn stated_result(stored: &str, cells: i32) -> Option<StatedResult> {
    let by_sign = |m: i32| match m.cmp(&0) {
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Equal => None,
    };
    let with_margin = |m: i32| Some(StatedResult { winner: by_sign(m), margin: Some(m) });
    if let Some((winner, _)) = super::win_without_margin(stored) {
        return Some(StatedResult { winner: Some(winner), margin: None });
    }
    match stated_margin(stored) {
        Stated::Margin(v) if v.fract() == 0.0 && v.abs() <= f64::from(cells) => with_margin(v as i32),
        // A margin after a komi (GGS's `-22.87`): a winner, its discs not a count.
        Stated::Margin(v) if v.fract() != 0.0 && v.abs() <= f64::from(cells) + 64.0 => {
            Some(StatedResult { winner: by_sign(if v > 0.0 { 1 } else { -1 }), margin: None })
        }
        Stated::Counts(black, white) if black + white <= cells => {
            let plain = black - white;
            with_margin(plain + plain.signum() * (cells - black - white))
        }
        Stated::Winner(color) => Some(StatedResult { winner: Some(color), margin: None }),
        Stated::Unreadable => {
            super::pgn::winner(stored).map(|winner| StatedResult { winner, margin: winner.is_none().then_some(0) })
        }
        _ => None,
    }
}

/// Sets `ResultMismatch` on a finished game whose record states only the winner (PGN's `1-0`,
/// `0-1`, `1/2-1/2`) and names the wrong one; any other text is not compared, nor is a game
/// with a stored margin or already found wanting.
fn judge_outcome(check: &mut Check, record: &Record, komi: Option<Option<f64>>) {
    // An unfinished game's winner (a resignation, a loss on time) is shown with the board;
    // text that is no result is named.
    if check.status == Status::Unfinished
        && check.stored.is_none()
        && let (Some(text), Some(problem)) = (record.tag("outcome").map(str::trim), check.problem.as_mut())
        && !unknown_result(text)
    {
        let stated = super::pgn::winner(text);
        let winner = stated.flatten().or_else(|| super::win_without_margin(text).map(|(w, _)| w));
        let known = stated.is_some() || winner.is_some();
        match (known, super::termination_win_by(record)) {
            (false, _) => problem.reason.push_str(&format!("; {}", no_result_reason(text))),
            // A win by resignation, on time or by forfeit (PGN's `Termination`) ended the game
            // there.
            (true, super::WinBy::Resignation | super::WinBy::Time | super::WinBy::Forfeit) if winner.is_some() => {
                check.status = Status::Ok;
                check.problem = None;
            }
            // A game of no moves with a winner (tags alone, as pairing programs write a
            // forfeit).
            (true, _) if winner.is_some() && check.plies == 0 && record.start.is_none() => {
                check.status = Status::Ok;
                check.problem = None;
            }
            (true, _) => problem.reason.push_str(&format!("; the record says {text}")),
        }
        return;
    }
    // A loss on time or by forfeit (PGN's `Termination "time forfeit"`, `"forfeit"`) may
    // overrule the board.
    if check.status != Status::Ok
        || check.stored.is_some()
        || matches!(super::termination_win_by(record), super::WinBy::Time | super::WinBy::Forfeit)
    {
        return;
    }
    let outcome = record.tag("outcome");
    let Some(text) = outcome else { return };
    let stated = match super::pgn::winner(text).or_else(|| super::win_without_margin(text).map(|(w, _)| Some(w))) {
        Some(stated) => stated,
        // An unknown result says nothing to compare.
        None if unknown_result(text) => return,
        None => {
            no_result(check, text);
            return;
        }
    };
    let komi = match komi {
        None => 0.0,
        Some(None) => return,
        Some(Some(k)) => k,
    };
    if stated != final_winner(&check.score, komi) {
        wrong_winner(check, text.trim(), komi);
    }
}

/// Black's margin as SGF writes a result: `B+12`, `W+2`, `0 (a draw)`.
fn sgf_margin(margin: i32) -> String {
    match margin {
        0 => "0 (a draw)".to_owned(),
        m if m > 0 => format!("B+{m}"),
        m => format!("W+{}", -m),
    }
}

/// Whether a result is written as SGF writes one: `B+12`, `W+2`.
fn sgf_form(result: &str) -> bool {
    let result = result.trim().to_ascii_uppercase();
    (result.starts_with("B+") || result.starts_with("W+")) && result[2..].starts_with(|c: char| c.is_ascii_digit())
}

/// The winner of a game that ended with `score`, after `komi` points are taken from black's
/// margin; without komi, the rules' winner (whose tie rule may give a drawn board to the
/// second player).
#[must_use]
pub fn final_winner(score: &Outcome, komi: f64) -> Option<Color> {
    if komi == 0.0 { score.winner } else { winner_after_komi(score.score(Color::Black), komi) }
}

/// Sets `ResultMismatch` for a stated winner (`stated`, as written) that the board (after
/// `komi`) does not give.
fn wrong_winner(check: &mut Check, stated: &str, komi: f64) {
    let board = match final_winner(&check.score, komi) {
        Some(Color::Black) => "a win for black",
        Some(Color::White) => "a win for white",
        None => "a draw",
    };
    let komi = if komi == 0.0 {
        String::new()
    } else {
        let board = check.score.score(Color::Black);
        format!(
            " ({} on the board, {:+} after the komi of {komi})",
            super::wthor::signed(board),
            f64::from(board) - komi
        )
    };
    mismatch(check, format!("the record says {stated}, the board gives {board}{komi}"));
}

/// The rules with their variant changed by `change`, if those are rules.
fn changed(rules: &Rules, change: impl FnOnce(&mut Variant)) -> Option<Arc<Rules>> {
    let mut variant = rules.variant().clone();
    change(&mut variant);
    Rules::new(variant).ok().map(Rules::shared)
}

/// The rules with the other row numbering.
fn rows_flipped(rules: &Rules) -> Option<Arc<Rules>> {
    changed(rules, |v| {
        v.rows = match v.rows {
            RowNumbering::Top => RowNumbering::Bottom,
            RowNumbering::Bottom => RowNumbering::Top,
        }
    })
}

/// Other rules under which the whole record replays, as the suggestion for a record that does
/// not under its own: the ranks counted from the other side, the other side first, the
/// parallel start, an empty board to start (BrainKing's), old Reversi's rules (an empty board, White first, placements
/// without captures), and for moves alone (no board given) a smaller or larger board their
/// squares fit on (a 6x6 or a 10x10 game's transcript); `the whole game replays with ranks
/// counted from the bottom: --rules othello,rows=bottom`.
fn rules_that_fit(record: &Record, rules: &Arc<Rules>, format: Format) -> Option<String> {
    let size = rules.variant().size;
    let old_reversi = || format!("reversi-1880,size={size}").parse::<Rules>().ok().map(Rules::shared);
    let way = if rules.variant().rows == RowNumbering::Bottom { "top" } else { "bottom" };
    let mut candidates: Vec<(Option<Arc<Rules>>, String)> = vec![
        (rows_flipped(rules), format!("with ranks counted from the {way}")),
        (changed(rules, |v| v.first = v.first.other()), format!("with {} moving first", rules.variant().first.other())),
        (
            changed(rules, |v| v.start = Start::Parallel),
            "from the parallel start (each colour's discs side by side)".to_owned(),
        ),
        (changed(rules, |v| v.start = Start::Empty), "from an empty board".to_owned()),
        (old_reversi(), "under old Reversi's rules".to_owned()),
    ];
    // The smallest even board below this one that every square of the moves is on.
    let reach = record
        .moves
        .iter()
        .filter_map(|t| match t.mv {
            MoveSyntax::Square { file, rank } => Some(u32::from(file + 1).max(u32::from(rank))),
            _ => None,
        })
        .max();
    if record.start.is_none()
        && let Some(reach) = reach
        && reach + 1 < u32::from(size)
    {
        let smaller = (reach.max(4) + 1) & !1;
        candidates.push((changed(rules, |v| v.size = smaller as u8), format!("on a {smaller}x{smaller} board")));
    }
    // The smallest even board above this one that they all are on (a 10x10 game's `j10`).
    if record.start.is_none()
        && let Some(reach) = reach.filter(|&r| r > u32::from(size) && r <= 16)
    {
        let larger = (reach + 1) & !1;
        candidates.push((changed(rules, |v| v.size = larger as u8), format!("on a {larger}x{larger} board")));
    }
    let all: Vec<(Arc<Rules>, String)> = candidates
        .into_iter()
        .filter_map(|(other, how)| {
            let other = other.filter(|other| other.variant() != rules.variant())?;
            let fits = record
                .game(other.clone())
                .is_ok_and(|g| g.start().unreachable().is_none() && g.replay(Passes::Implicit).is_ok());
            fits.then_some((other, how))
        })
        .collect();
    // An empty board to start fits any board of four discs: named only when nothing nearer
    // does.
    let empty_start = |r: &Arc<Rules>| r.variant().start == Start::Empty;
    let mut fits = all;
    if fits.iter().any(|(r, _)| !empty_start(r)) {
        fits.retain(|(r, _)| !empty_start(r));
    }
    // Rules under which the game ends with the result it states come first; where others
    // fit as well (a game read the other way up, or begun by the other side: the same moves,
    // opposite results), they are named too.
    let agrees = |other: &Arc<Rules>| check(record, other, format).status != Status::ResultMismatch;
    let (mut named, others): (Vec<_>, Vec<_>) = fits.into_iter().partition(|(other, _)| agrees(other));
    let disagree = !named.is_empty() && !others.is_empty();
    if named.is_empty() {
        named = others;
    }
    let ((first, how), rest) = named.split_first()?;
    let spec = first.variant().spec();
    let mut text = if record.moves.is_empty() {
        format!("a game {how} reaches the board: --rules {spec}")
    } else {
        format!("the whole game replays {how}: --rules {spec}")
    };
    for (other, how) in rest.iter().take(2) {
        text.push_str(&format!(", or {how}: --rules {}", other.variant().spec()));
    }
    if !rest.is_empty() && record.moves.len() > 1 {
        text.push_str(" (not the same game: see which the record means)");
    } else if disagree {
        text.push_str(" (the one that gives the result the record states)");
    }
    Some(text)
}

/// The likely fix for an illegal move: a board read the other way up, else a near miss that
/// lets the rest replay.
fn suggest(record: &Record, rules: &Arc<Rules>, game: &Game, e: &IllegalMove, format: Format) -> Option<String> {
    if let Some(other) = rules_that_fit(record, rules, format) {
        return Some(other);
    }
    if matches!(e.reason, IllegalReason::WrongColor(_)) {
        // The square may be right (a near miss is then no fix): the colours alone may be wrong.
        let mut uncoloured = record.clone();
        for t in &mut uncoloured.moves {
            t.color = None;
        }
        let replays = uncoloured.game(rules.clone()).is_ok_and(|g| g.replay(Passes::Implicit).is_ok());
        return replays
            .then(|| "the whole game replays without the record's colours: they are wrong, not the moves".into());
    }
    let best: Option<Suggestion> =
        diagnose::suggest(game.start(), game.moves(), e.ply - 1, &e.position).into_iter().next();
    let near_miss = |best: Suggestion| {
        let Move::Place(sq) = best.mv else { return None };
        let written = &record.moves[e.ply - 1];
        proposal(rules, sq, written, best.nearness.describe(), (best.replays, best.complete), e.ply)
    };
    // A square already taken may have been written for an earlier move onto it (`f2` for f3
    // at move 14 shows only when the real f2 comes at move 40): a typo there that lets the
    // whole game replay is named too.
    let earlier = if matches!(e.reason, IllegalReason::Occupied) { earlier_typo(record, rules, game, e) } else { None };
    // A typo that lets the whole game replay first, then two moves swapped, then a move left
    // out or written twice.
    if let Some(best) = best.filter(|b| b.complete) {
        return match (near_miss(best), earlier) {
            (Some(here), Some(there)) => Some(format!("{here}; or {there}")),
            (here, there) => here.or(there),
        };
    }
    if earlier.is_some() {
        return earlier;
    }
    if let Some(swap) = swapped(record, rules, e.ply - 1) {
        return Some(swap);
    }
    match diagnose::gap(game.start(), game.moves(), e.ply - 1) {
        Some(Gap::Extra(at)) => Some(format!(
            "move {}, {}, looks written once too often: without it the rest of the game replays",
            at + 1,
            record.moves[at].mv
        )),
        Some(Gap::Missing(at, fits)) => {
            let names: Vec<String> = fits.iter().map(|&mv| rules.move_name(mv)).collect();
            let which = match names.len() {
                1 => format!("{}?", names[0]),
                2 | 3 => format!("{}?", names.join(" or ")),
                n => format!("one of {n} moves"),
            };
            Some(format!("a move seems missing before move {} ({which}): with it the rest of the game replays", at + 1))
        }
        None => best.and_then(near_miss),
    }
}

/// For a move onto a square an earlier move of the record took: that earlier move written for
/// a near square, such that with it the whole game replays (`move 14, f2, may be f3? (...)`).
fn earlier_typo(record: &Record, rules: &Arc<Rules>, game: &Game, e: &IllegalMove) -> Option<String> {
    let taken = *game.moves().get(e.ply - 1)?;
    let at = game.moves()[..e.ply - 1].iter().rposition(|&m| m == taken)?;
    let before = game.position_at(at, Passes::Implicit).ok()?;
    let fix = diagnose::suggest(game.start(), game.moves(), at, &before).into_iter().find(|s| s.complete)?;
    let Move::Place(sq) = fix.mv else { return None };
    let written = record.moves.get(at)?;
    let text = proposal(rules, sq, written, fix.nearness.describe(), (fix.replays, true), at + 1)?;
    Some(format!("move {}, {}, may be {text}", at + 1, written.mv))
}

/// Two moves written in each other's place (a grid's numbers or a transcript's squares
/// transposed): the illegal move at index `at` and one of the eight moves on either side, such
/// that with the two swapped the whole game replays.
fn swapped(record: &Record, rules: &Arc<Rules>, at: usize) -> Option<String> {
    let around = at.saturating_sub(8)..(at + 9).min(record.moves.len());
    around.filter(|&j| j != at).find_map(|j| {
        // The squares change places; the colours a record gives its moves (GGF, SGF, the
        // logbook) stay in their order.
        let mut fixed = record.clone();
        let mv = fixed.moves[at].mv;
        fixed.moves[at].mv = fixed.moves[j].mv;
        fixed.moves[j].mv = mv;
        let replays = fixed.game(rules.clone()).is_ok_and(|g| g.replay(Passes::Implicit).is_ok());
        let (a, b) = (at.min(j), at.max(j));
        replays.then(|| {
            format!(
                "moves {} and {} look swapped ({} and {}): swapped, the whole game replays",
                a + 1,
                b + 1,
                record.moves[a].mv,
                record.moves[b].mv
            )
        })
    })
}

/// The square of the board a move written off it (`c9`, `i4` on 8x8) likely meant: a legal
/// move on `before` (the position it was tried on) in the same file or rank with which the whole
/// record replays, else the one with which most of it does (at least one more move).
fn suggest_on_board(record: &Record, rules: &Arc<Rules>, at: usize, before: &Position) -> Option<String> {
    let MoveSyntax::Square { file, rank } = record.moves[at].mv else { return None };
    let mut best: Option<(usize, bool, Square)> = None;
    for sq in diagnose::to_play(before).legal_placements() {
        let (f, r) = rules.file_and_rank(sq);
        if f != file && r != rank {
            continue;
        }
        let mut fixed = record.clone();
        fixed.moves[at].mv = MoveSyntax::Square { file: f, rank: r };
        let Ok(game) = fixed.game(rules.clone()) else { continue };
        let (replays, complete) = match game.replay(Passes::Implicit) {
            Ok(_) => (record.moves.len(), true),
            Err(e) => (e.ply - 1, false),
        };
        if best.is_none_or(|(most, _, _)| replays > most) {
            best = Some((replays, complete, sq));
        }
    }
    let (replays, complete, sq) = best?;
    let how = if rules.file_and_rank(sq).0 == file { "the same file" } else { "the same rank" };
    proposal(rules, sq, &record.moves[at], how, (replays, complete), at + 1)
}

/// Whether a token that does not read looks like a move written wrong (`x4`, `cc4`, `f55`,
/// `pas`) rather than a word or a result.
#[must_use]
pub fn move_like(token: &str) -> bool {
    // (A logbook's colour sign, `+x4`, is no result's.)
    let lower = token.strip_prefix(['+', '-']).unwrap_or(token).to_lowercase();
    let digits = lower.chars().filter(char::is_ascii_digit).count();
    let results = lower.contains(['-', ':', '/', '+']) && digits > 0;
    pass_like(&lower) || (digits > 0 && lower.chars().count() <= 4 && !results)
}

/// Whether a token that does not read is two or three letters of one case (`zz`, `el`): a
/// square typed wrong rather than a word (`No` may be a name's start), at a ply of its own,
/// though the legal moves are not tried for it as for [`move_like`] tokens.
#[must_use]
pub fn short_letters(token: &str) -> bool {
    let bare = token.strip_prefix(['+', '-']).unwrap_or(token);
    let one_case = bare.chars().all(|c| c.is_ascii_lowercase()) || bare.chars().all(|c| c.is_ascii_uppercase());
    (2..=3).contains(&bare.len()) && one_case
}

/// Whether a lower-case token looks like a pass written wrong (`pas`, `pss`, `pase`, `---`): the
/// letters of `pass` alone, or dashes and at signs.
fn pass_like(lower: &str) -> bool {
    let word = lower.starts_with('p') && (2..=5).contains(&lower.len()) && lower.chars().all(|c| "pase".contains(c));
    word || (!lower.is_empty() && lower.chars().all(|c| "-@".contains(c)))
}

/// For a record of moves with a token that is no move (`x4`, `cc4`, `pas`): the move it likely
/// meant. `before` is the record as read up to the token, under `rules`; `token` the text at
/// fault; `reparse` reads the record's whole text with something else in the token's place.
/// The legal moves there (a pass when the side to move has no placement) with which the whole
/// record reads and replays are offered, those sharing a character with the token first:
/// `c4? (the rest of the game then replays)`, or two or three joined by `or`. When no near move
/// fits, the token left out, if the rest then replays (a stray character), comes before the
/// others. None when nothing fits, more than three moves do, or the token looks like no move
/// and cannot be left out.
pub fn token_fix(
    before: &Record,
    rules: &Arc<Rules>,
    token: &str,
    reparse: impl Fn(&str) -> Option<Record>,
) -> Option<String> {
    // The legal moves that fit, those near the token first; a word (a name after the moves, a
    // comment) is no move written wrong.
    let mut fits = if move_like(token) { fitting_moves(before, rules, token, &reparse) } else { Vec::new() };
    // Those that finish the game first (a pass put where the last move was lets the rest
    // replay, the game left unfinished).
    let finishing = fits.iter().any(|f| f.finishes);
    fits.retain(|f| f.finishes || !finishing);
    let near = fits.iter().any(|f| f.near);
    // A stray character (`cc4`, `f5,,d6`), unless a move near it fits: without it the rest
    // replays.
    if !near
        && let Some(record) = reparse("")
        && record.moves.len() > before.moves.len()
        && record.resolve(rules.clone()).is_ok_and(|r| r.end.is_game_over() || !finishing)
    {
        return Some(format!("leave `{token}` out? (without it the rest of the game replays)"));
    }
    if near {
        fits.retain(|f| f.near);
    }
    let after = fits.first()?.after;
    let upper = token.chars().any(|c| c.is_ascii_uppercase()) && !pass_like(&token.to_lowercase());
    let names: Vec<String> = fits.iter().map(|f| if upper { f.name.to_uppercase() } else { f.name.clone() }).collect();
    let rest = if after == 0 { "legal here" } else { "the rest of the game then replays" };
    match names.len() {
        1 => Some(format!("{}? ({rest})", names[0])),
        2 | 3 => Some(format!("{}? ({} {rest})", names.join(" or "), if after == 0 { "each" } else { "with each," })),
        _ => None,
    }
}

/// A move that, put in a bad token's place, lets the whole record read and replay.
struct Fit {
    /// Its name (`c4`, `pass`).
    name: String,
    /// Whether it is near the token: shares its file or rank, or a pass for a pass-like token.
    near: bool,
    /// The record's moves after it.
    after: usize,
    /// Whether the game is then over.
    finishes: bool,
}

/// The legal moves after `before` (a pass when the side to move has no placement) with which
/// the record, `token` replaced by the move, reads and replays to its end.
fn fitting_moves(
    before: &Record,
    rules: &Arc<Rules>,
    token: &str,
    reparse: &impl Fn(&str) -> Option<Record>,
) -> Vec<Fit> {
    // A colour sign (`+x4`) stays with the moves put in the token's place.
    let (sign, bare) = match token.strip_prefix(['+', '-']) {
        Some(bare) => (&token[..1], bare),
        None => ("", token),
    };
    let lower = bare.to_lowercase();
    let Some(end) = before.resolve(rules.clone()).ok().map(|r| r.end).filter(|end| !end.is_game_over()) else {
        return Vec::new();
    };
    // Each move by name, whether it is near the token, and the ways to write it.
    let mut names: Vec<(String, bool, Vec<String>)> = Vec::new();
    if !end.has_placement() {
        // (A pass as each format writes one.)
        names.push(("pass".to_owned(), pass_like(&lower), ["pass", "PA", "--"].map(|p| format!("{sign}{p}")).to_vec()));
    }
    // The side to move's placements, or after a forced pass, which a record may leave out, the
    // other side's.
    for sq in diagnose::to_play(&end).legal_placements() {
        let name = rules.square_name(sq);
        let (file, rank) = name.split_at(1);
        let near = lower.contains(file) || lower.contains(rank);
        names.push((name.clone(), near, vec![format!("{sign}{name}")]));
    }
    names
        .into_iter()
        .filter_map(|(name, near, ways)| {
            let record = ways.iter().find_map(|way| reparse(way))?;
            let finishes = record.resolve(rules.clone()).ok()?.end.is_game_over();
            Some(Fit { name, near, after: record.moves.len().saturating_sub(before.moves.len() + 1), finishes })
        })
        .collect()
}

/// A square proposed for the move `written` at `ply` (1-based), `how` it differs from it, and
/// how far the record then replays (`replays` moves; `complete` when all do): `c3? (one
/// character off; the rest of the game then replays)`. None when nothing after `ply` replays:
/// such a square is no likelier than any other.
fn proposal(
    rules: &Rules,
    sq: Square,
    written: &super::MoveToken,
    how: &str,
    (replays, complete): (usize, bool),
    ply: usize,
) -> Option<String> {
    let rest = if complete {
        "the rest of the game then replays".to_owned()
    } else {
        let more = replays.checked_sub(ply).filter(|&n| n > 0)?;
        format!("{more} more {} then replay", if more == 1 { "move" } else { "moves" })
    };
    let name = rules.square_name(sq);
    let name = if written.upper { name.to_uppercase() } else { name };
    Some(format!("{name}? ({how}; {rest})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::splitmix64;
    use crate::notation::transcript;
    use proptest::prelude::*;

    /// An unfinished game's stated result is shown beside the board: a winner alone, and text
    /// that is no result named as such (a double forfeit's `0-0`). A game the record says was
    /// resigned or lost on time ended there, and is ok.
    #[test]
    fn an_unfinished_games_result_is_shown() {
        let rules = Rules::othello().shared();
        let judged = |result: &str, termination: &str| {
            let text =
                format!("[Result \"{result}\"]\n[Termination \"{termination}\"]\n\n1. f5 d6 2. c3 d3 {result}\n");
            check(&super::super::pgn::parse(&text).unwrap(), &rules, Format::Pgn)
        };
        let reason = |result: &str, termination: &str| {
            let c = judged(result, termination);
            assert_eq!(c.status, Status::Unfinished, "{result}");
            c.problem.unwrap().reason
        };
        for (result, termination) in [("1-0", "resignation"), ("0:1", "time forfeit"), ("B+R", ""), ("W+T", "")] {
            let c = judged(result, termination);
            assert_eq!((c.status, c.problem), (Status::Ok, None), "{result} {termination}");
        }
        assert!(reason("½-½", "resignation").ends_with("; the record says 1/2-1/2"));
        assert!(reason("1-0", "normal").ends_with("; the record says 1-0"));
        assert!(reason("B+", "").ends_with("; the record says B+"));
        assert!(reason("0-0", "").contains("`0-0` is neither a margin"));
        assert!(reason("*", "").ends_with("(56 empty cells)"));
        // `0-0` is no count: no winner, no discs, in the standings either.
        assert_eq!(stated_result("0-0", 64), None);
    }

    /// A random game as a logbook line, possibly cut short, spoiled or given a wrong score.
    fn line(seed: u64, cut: usize, spoil: Option<usize>, score_off: i32) -> String {
        let mut pos = Position::start(Rules::othello().shared());
        let mut s = seed;
        let mut text = String::new();
        let mut n = 0;
        while !pos.is_game_over() && n < cut {
            let moves = pos.legal_placements();
            if moves.is_empty() {
                pos.play_mut(Move::Pass).unwrap();
                continue;
            }
            s = splitmix64(s);
            let mut sq = moves[(s % moves.len() as u64) as usize];
            if spoil == Some(n) {
                sq = crate::core::Square::from_bit8((s >> 20) as u32 % 64);
            }
            text.push(if pos.side_to_move() == Color::Black { '+' } else { '-' });
            text.push_str(&sq.to_string());
            if pos.play_mut(Move::Place(sq)).is_err() {
                break;
            }
            n += 1;
        }
        let margin = pos.count(Color::Black) as i32 - pos.count(Color::White) as i32 + score_off;
        format!("{text}: {margin:+03}")
    }

    proptest! {
        /// The no-record path and the record path give the same verdict whenever the first answers.
        #[test]
        fn the_plain_line_path_agrees(seed in any::<u64>(), cut in 0usize..70, spoil in prop::option::of(0usize..60), off in prop::sample::select(vec![0, 0, 2])) {
            let text = line(seed, cut, spoil, off);
            let rules = Rules::othello().shared();
            let full = check(&transcript::parse(&text).unwrap(), &rules, Format::Logbook);
            if let Some(fast) = check_plain_line(&text, &rules, Format::Logbook) {
                prop_assert_eq!(fast, full, "{}", text);
            } else {
                prop_assert!(full.status != Status::Ok, "{}: the quick path declined a clean game", text);
            }
        }
    }

    #[test]
    fn an_off_board_square_keeps_the_moves_before_it() {
        let rules = "othello,size=6".parse::<Rules>().unwrap().shared();
        let c = check(&transcript::parse("c2d2e3g4").unwrap(), &rules, Format::Transcript);
        assert_eq!(c.status, Status::Illegal);
        assert_eq!(c.plies, 3);
        assert_eq!(c.black + c.white, 7, "the discs after three moves");
        assert_eq!(
            c.problem.as_ref().map(|p| (p.ply, p.reason.as_str())),
            Some((4, "the square is outside the board"))
        );
        // An earlier illegal move is the one reported.
        let c = check(&transcript::parse("c2c2g4").unwrap(), &rules, Format::Transcript);
        assert_eq!(c.problem.map(|p| p.ply), Some(2));
        // A rank typed one too high: the legal move of the same file is suggested.
        let rules = Rules::othello().shared();
        let c = check(&transcript::parse("f5d6c9d3c4f4f6f3e6e7").unwrap(), &rules, Format::Transcript);
        assert_eq!(c.problem.as_ref().map(|p| p.ply), Some(3));
        assert_eq!(c.suggestion.as_deref(), Some("c3? (the same file; the rest of the game then replays)"));
    }

    #[test]
    fn stated_results_are_read_for_standings() {
        let read = |text: &str| stated_result(text, 64).map(|r| (r.winner, r.margin));
        let (b, w) = (Some(Color::Black), Some(Color::White));
        assert_eq!(read("+4"), Some((b, Some(4))));
        assert_eq!(read("-12.000"), Some((w, Some(-12))));
        assert_eq!(read("W+6"), Some((w, Some(-6))));
        assert_eq!(read("0"), Some((None, Some(0))));
        // Counts that leave squares empty give them to the winner.
        assert_eq!(read("33-31"), Some((b, Some(2))));
        assert_eq!(read("30-33"), Some((w, Some(-4))));
        assert_eq!(read("32-32"), Some((None, Some(0))));
        // A winner alone: points, no discs.
        for (text, winner) in [("1-0", b), ("0-1", w), ("B+", b), ("W+R", w), ("+64.000:r", b), ("-3.000:t", w)] {
            assert_eq!(read(text), Some((winner, None)), "{text}");
        }
        assert_eq!(read("1/2-1/2"), Some((None, Some(0))));
        // A margin after komi names a winner, not a disc count.
        assert_eq!(read("-22.87"), Some((w, None)));
        assert_eq!(read("+0.5"), Some((b, None)));
        for text in ["?", "*", "void", "", "40-40", "+70", "+200.5", "abc"] {
            assert_eq!(read(text), None, "{text}");
        }
    }

    /// Counts after a game tell their convention by their sum: plain counts add up to the discs
    /// on the board, counts with the empty squares to the winner to every square.
    #[test]
    fn counts_are_compared_by_their_own_convention() {
        let rules = Rules::othello().shared();
        // A wipe-out with 21 empty squares, and a game ending with one empty square.
        let wipe = "f5d6c6f4f3g4d3f6h5h3g6g5h4h6f7g3d7e6e7f8g8h8g7e8h2h7h1g2d8c8c7e3f2e1g1f1e2d2c5";
        let one = "f5d6c5f6e6f4c6e7d3c2f8e8d8c3f7d7c4b4c8b6g5h5e3g6c7e2a6b7b5a5a4g7a8a7b8a3h4h3g4g3a2c1b3g8d1h8b1f1d2b2e1a1h7h6f3g2f2h2g1";
        let verdict = |t: String| check(&transcript::parse(&t).unwrap(), &rules, Format::Transcript);
        for good in [format!("{wipe} 0-43"), format!("{wipe} 0-64"), format!("{one} 61-2"), format!("{one} 62-2")] {
            let c = verdict(good.clone());
            assert_eq!(c.status, Status::Ok, "{good}: {:?}", c.problem);
        }
        let c = verdict(format!("{one} 61-3"));
        assert_eq!(c.status, Status::ResultMismatch);
        assert_eq!(
            c.problem.unwrap().reason,
            "the record says 61-3, the board gives 62-2 (the empty squares to the winner)"
        );
        let c = verdict(format!("{one} 60-3"));
        assert_eq!(c.problem.unwrap().reason, "the record says 60-3, the board gives 61-2");
        // SGF's winner alone (`B+`) is compared too.
        let mut record = transcript::parse(one).unwrap();
        record.set_tag("result", "W+");
        let c = check(&record, &rules, Format::Sgf);
        assert_eq!(c.problem.unwrap().reason, "the record says W+, the board gives a win for black");
        record.set_tag("result", "B+");
        assert_eq!(check(&record, &rules, Format::Sgf).status, Status::Ok);
        // A resignation on a game the board finished must name the board's winner; a loss on
        // time may overrule the board.
        for (result, status) in [
            ("W+R", Status::ResultMismatch),
            ("-64.000:r", Status::ResultMismatch),
            ("B+R", Status::Ok),
            ("W+T", Status::Ok),
        ] {
            record.set_tag("result", result);
            assert_eq!(check(&record, &rules, Format::Sgf).status, status, "{result}");
        }
        record.set_tag("result", "W+R");
        assert_eq!(
            check(&record, &rules, Format::Sgf).problem.unwrap().reason,
            "the record says W+R (a resignation), the board gives a win for black"
        );
    }

    /// A game with komi states its margin after the komi (GGS's `RE`), and is won after it.
    #[test]
    fn komi_results_are_compared_after_the_komi() {
        let rules = Rules::othello().shared();
        // A real game's moves ending 33-31 (black +2 on the board).
        let moves = "c4e3f4c5c6b6b5g5f2c3c2e2f3b2d3d2e6g3h3g1b3g4g6h5e1f6g7c7h4b4g2f7b1h1d6g8h8e7a7h2b7f1a4a3e8f5d8b8h6d7f8a5a6d1c1h7a8a1a2c8";
        let verdict = |tags: &[(&str, &str)], format: Format| {
            let mut record = transcript::parse(moves).unwrap();
            for (k, v) in tags {
                record.set_tag(k, *v);
            }
            check(&record, &rules, format)
        };
        assert_eq!(verdict(&[("result", "+2")], Format::Ggf).status, Status::Ok);
        for (komi, result) in [("+3", "-1.000"), ("-3.133", "+5.13"), ("+2", "0")] {
            let c = verdict(&[("komi", komi), ("result", result)], Format::Ggf);
            assert_eq!(c.status, Status::Ok, "{komi} {result}: {:?}", c.problem);
        }
        let c = verdict(&[("komi", "+3"), ("result", "+2.000")], Format::Ggf);
        assert_eq!(c.problem.unwrap().reason, "the record says +2.000, the board gives +2, -1 after the komi of 3");
        // PGN's winner alone, after the komi; disc counts stay discs.
        assert_eq!(verdict(&[("komi", "+3"), ("outcome", "0-1")], Format::Pgn).status, Status::Ok);
        let c = verdict(&[("komi", "+3"), ("outcome", "1-0")], Format::Pgn);
        assert_eq!(
            c.problem.unwrap().reason,
            "the record says 1-0, the board gives a win for white (+2 on the board, -1 after the komi of 3)"
        );
        assert_eq!(verdict(&[("komi", "+3"), ("score", "33-31"), ("result", "+2")], Format::Pgn).status, Status::Ok);
        // A komi that is no number leaves the result uncompared.
        assert_eq!(verdict(&[("komi", "lots"), ("result", "+40")], Format::Ggf).status, Status::Ok);
        assert_eq!(winner_after_komi(2, 3.0), Some(Color::White));
        assert_eq!(winner_after_komi(2, 2.0), None);
    }

    #[test]
    fn statuses_of_hand_made_records() {
        let rules = Rules::othello().shared();
        let verdict = |t: &str| check(&transcript::parse(t).unwrap(), &rules, Format::Transcript);
        assert_eq!(verdict("f5d6c3").status, Status::Unfinished);
        let bad = verdict("f5d6c2d3c4f4f6f3e6e7");
        assert_eq!(bad.status, Status::Illegal);
        assert_eq!(bad.problem.as_ref().map(|p| p.ply), Some(3));
        assert!(bad.suggestion.unwrap().starts_with("c3?"));
        // The right square given to the wrong side: the colours are the fault, not the square.
        let wrong = check(&transcript::parse("-f5+d6").unwrap(), &rules, Format::Logbook);
        assert_eq!(wrong.status, Status::Illegal);
        assert!(wrong.suggestion.unwrap().contains("without the record's colours"));
    }

    /// Real games with move numbers in every scheme (one per move or per pair, forced passes
    /// left out but counted or not) check as they do without numbers; with a pair of moves left
    /// out, the numbers name the place.
    #[test]
    fn move_numbers_are_checked_against_the_replay() {
        let wtb = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wthor/WTH_2004-50.wtb")).unwrap();
        let rules = Rules::othello().shared();
        let names = super::super::wthor::Names::default();
        let mut games_with_passes = 0;
        for bytes in wtb[16..].chunks(68) {
            let record = super::super::wthor::parse_game(bytes, 2004, &names).unwrap();
            let plain = check(&record, &rules, Format::Pgn);
            // The moves as played, forced passes included.
            let mut played = Vec::new();
            record.game(rules.clone()).unwrap().replay_with(Passes::Implicit, |_, mv, _| played.push(mv)).unwrap();
            games_with_passes += usize::from(played.contains(&Move::Pass));
            for (per_move, counted) in [(true, true), (true, false), (false, true), (false, false)] {
                let numbered = |leave_out: Option<usize>| {
                    let mut text = String::new();
                    let (mut n, mut number) = (0usize, None);
                    for (i, &mv) in played.iter().enumerate() {
                        if mv == Move::Pass && !counted {
                            continue;
                        }
                        n += 1;
                        if per_move || n % 2 == 1 {
                            number = Some(if per_move { n } else { n.div_ceil(2) });
                        }
                        // A pass left out: its number, if it has one, goes to the next move
                        // (`23. -- f7` as `23. f7`), as a writer dropping passes leaves it.
                        if mv == Move::Pass || leave_out.is_some_and(|at| at == i || at + 1 == i) {
                            continue;
                        }
                        if let Some(k) = number.take() {
                            text.push_str(&format!("{k}. "));
                        }
                        text.push_str(&format!("{mv} "));
                    }
                    text
                };
                let whole = numbered(None);
                let c = check(&transcript::parse(&whole).unwrap(), &rules, Format::Transcript);
                assert_eq!((c.status, c.plies), (plain.status, record.moves.len()), "{whole}");
                // A pair left out (two moves at an odd place, so that its number is skipped).
                let at = 20 + usize::from(played[..20].iter().filter(|&&m| m == Move::Pass).count() % 2 == 1);
                let short = numbered(Some(at));
                let c = check(&transcript::parse(&short).unwrap(), &rules, Format::Transcript);
                let named = match c.status {
                    Status::ParseError => c.problem.unwrap().reason.starts_with("move number "),
                    _ => c.suggestion.unwrap_or_default().starts_with("a move left out before move number "),
                };
                assert!(named, "{short}");
            }
        }
        assert!(games_with_passes > 0, "the set has games with a forced pass");
    }

    /// A board with a start cell empty is no game's position; under an empty-board start it is.
    #[test]
    fn a_board_no_game_reaches_is_illegal() {
        let read = |text: &str| super::super::board::parse(text, super::super::board::Digits::default()).unwrap();
        let board = |text: &str, rules: &Arc<Rules>| check(&read(text), rules, Format::Board);
        let othello = Rules::othello().shared();
        let empty = format!("{} X", "-".repeat(64));
        let c = board(&empty, &othello);
        assert_eq!(c.status, Status::Illegal);
        assert!(c.problem.unwrap().reason.starts_with("d4 is empty, but the start position fills it"));
        // The standard start with e5 cleared.
        let cleared = format!("{}OX{}X-{} X", "-".repeat(27), "-".repeat(6), "-".repeat(27));
        assert!(board(&cleared, &othello).problem.unwrap().reason.starts_with("e5 is empty"));
        let start = format!("{}OX{}XO{} X", "-".repeat(27), "-".repeat(6), "-".repeat(27));
        assert_eq!(board(&start, &othello).status, Status::Ok);
        let empty_start = "othello,start=empty".parse::<Rules>().unwrap().shared();
        assert_eq!(board(&empty, &empty_start).status, Status::Ok);
    }

    /// The move scores an OBF line stores are checked for form and legality (not for value).
    #[test]
    fn stored_move_scores_are_moves_of_the_position() {
        let rules = Rules::othello().shared();
        let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
        let verdict = |scores: &str| {
            let record = super::super::board::parse(&format!("{obf} {scores}"), Default::default()).unwrap();
            let c = check(&record, &rules, Format::Obf);
            (c.status, c.problem.map(|p| p.reason).unwrap_or_default())
        };
        assert_eq!(verdict("G8:+18; H1:+12; B1:-4;"), (Status::Ok, String::new()));
        assert_eq!(verdict("A1:+4;").0, Status::Illegal);
        assert_eq!(verdict("G8:+18; g8:+18;").1, "the scores list g8 twice");
        assert_eq!(scored_move(" PS"), "pass");
        assert_eq!(scored_move("@@"), "pass");
        assert_eq!(scored_move("G8"), "g8");
        assert_eq!(verdict("G8:+90;").1, "the score of g8, +90, is beyond the board's 64 cells");
        assert_eq!(verdict("G8 18;").0, Status::ParseError);
    }

    #[test]
    fn two_numbers_swapped_in_a_grid_are_named() {
        let grid = include_str!("../../samples/kifu.txt");
        let swapped = grid.replace(" 22 ", " XX ").replace(" 23 ", " 22 ").replace(" XX ", " 23 ");
        let record = super::super::kifu::parse(&swapped).unwrap();
        let c = check(&record, &Rules::othello().shared(), Format::Kifu);
        assert_eq!(c.status, Status::Illegal);
        assert_eq!(
            c.suggestion.as_deref(),
            Some("moves 22 and 23 look swapped (g5 and f5): swapped, the whole game replays")
        );
    }

    #[test]
    fn tokens_like_moves_written_wrong() {
        for token in ["x4", "cc4", "f55", "pas", "---", "+x4"] {
            assert!(move_like(token), "{token}");
        }
        for token in ["zz", "ZZ", "el", "abc", "+zz"] {
            assert!(short_letters(token) && !move_like(token), "{token}");
        }
        for token in ["hello", "No", "Tiger", "30-34", "B+4", "1/2", "z"] {
            assert!(!move_like(token) && !short_letters(token), "{token}");
        }
    }
}
