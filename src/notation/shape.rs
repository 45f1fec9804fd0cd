//! A replayed record made ready for a format: refused when the format cannot hold it, shaped
//! to what the format writes (passes, start board, last position, result tags). `kifu convert`
//! and the round-trip checks use the same rules.

use crate::core::{Color, Position, Start, Variant};
use crate::notation::WinBy;
use crate::notation::date::Date;
use crate::notation::format::Format;
use crate::notation::{BoardSyntax, MoveSyntax, Record, Resolved};

/// Why a format cannot hold a record.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ShapeError {
    /// The format has no start board, and the record starts from another position.
    #[error("{0} cannot hold a start position other than the rules' own; the game would change")]
    Start(Format),
    /// WTHOR holds standard 8x8 Othello only; the rules spec is the record's.
    #[error("WTHOR holds standard 8x8 Othello only, not {0}")]
    Rules(String),
    /// The game has voluntary passes, which the format (no pass, or no colours) cannot write.
    #[error("{0} cannot write this game's voluntary passes (a replay could not tell them); use a format with passes")]
    Passes(Format),
}

/// Whether the record's passes must be written for its game to replay: passes chosen under
/// the voluntary-pass rule, which a replay cannot infer as it infers forced ones.
fn needs_its_passes(resolved: &Resolved) -> bool {
    resolved.start.rules().variant().pass == crate::core::PassRule::Voluntary
        && resolved.record.moves.iter().any(|t| t.mv == MoveSyntax::Pass)
}

/// The record as `to` should be given it ([`shape`]), or why `to` cannot hold it ([`fits`]).
pub fn for_format(resolved: Resolved, to: Format) -> Result<Record, ShapeError> {
    fits(&resolved, to)?;
    Ok(shape(resolved, to))
}

/// Reads a logbook record's score as other formats read results: the logbook gives the final
/// board's plain disc difference, the `result` tag black's margin under the rules' scoring
/// (empty squares to the winner; fewer discs winning in anti-reversi). A finished game whose
/// score is that difference gets the margin; any other score is left as written (a wrong one
/// stays wrong, for `validate` to report).
pub fn from_logbook(record: &mut Record, end: &Position) {
    let Some(outcome) = end.outcome() else { return };
    let plain = i64::from(end.count(Color::Black)) - i64::from(end.count(Color::White));
    let stated = record.tag("result").and_then(|r| r.trim().trim_start_matches('+').parse::<i64>().ok());
    if stated == Some(plain) {
        record.set_tag("result", super::wthor::signed(outcome.score(Color::Black)));
    }
}

/// Whether the target format can hold the record: formats without a start board or rules
/// (transcripts, the logbook, Othello Quest, WTHOR) refuse a start that is not the rules' own,
/// and WTHOR refuses anything but standard 8x8 Othello.
pub fn fits(resolved: &Resolved, to: Format) -> Result<(), ShapeError> {
    let rules = resolved.start.rules();
    let own_start =
        BoardSyntax::of_position(&resolved.start) == BoardSyntax::of_position(&Position::start(rules.clone()));
    let holds_start = !matches!(to, Format::Transcript | Format::Logbook | Format::Oq | Format::Wthor);
    if !own_start && !holds_start {
        return Err(ShapeError::Start(to));
    }
    // (The row numbering only names the squares: WTHOR holds the places.)
    if to == Format::Wthor && rules.variant().with_rows_from_top() != Variant::default() {
        return Err(ShapeError::Rules(rules.variant().spec()));
    }
    // A transcript writes passes when asked to, and the logbook's colour signs show them (a
    // move given to the side that did not pass); the kifu grid has neither.
    if !to.writes_passes()
        && !to.is_position()
        && !matches!(to, Format::Transcript | Format::Kifu)
        && needs_its_passes(resolved)
    {
        // The logbook shows a pass by the next move's colour: passes after the last move (two
        // that end the game with moves left) have no move to show them.
        let trailing = resolved.record.moves.last().is_some_and(|t| t.mv == MoveSyntax::Pass);
        if to != Format::Logbook || trailing {
            return Err(ShapeError::Passes(to));
        }
    }
    Ok(())
}

/// Whether `written`, a record as [`format::write`](crate::notation::format::write) wrote it in
/// `to`, reads back (without `--rules`) under rules that replay the game of `variant`: formats
/// with no rules spec (transcripts, the logbook, Othello Quest, boards, OBF) or only some (GGF:
/// size and anti scoring) lose the others. A start board carries the start and who moves
/// first, and a kifu grid's rank labels the row numbering.
#[must_use]
pub fn rules_kept(variant: &Variant, to: Format, written: &str) -> bool {
    // Standard Othello needs no spec (every format reads it back so), formats with a rules tag
    // keep any, and WTHOR refuses anything else ([`fits`]): no reading back for those.
    if *variant == Variant::default()
        || matches!(to, Format::Sgf | Format::Pgn | Format::Playok | Format::Json | Format::Wthor)
    {
        return true;
    }
    // A text kifu cannot read back is not this check's business.
    let Ok(back) = crate::notation::format::parse(to, written, crate::notation::format::ReadOptions::default()) else {
        return true;
    };
    let Ok(mut read) = back.implied_spec().map_or(Ok(Variant::default()), |spec| spec.parse::<Variant>()) else {
        return false;
    };
    // (An empty start is more than its board: the first moves must fill the centre.)
    if back.start.is_some() && variant.start != Start::Empty {
        read.start = variant.start.clone();
        read.first = variant.first;
    }
    if to == Format::Kifu {
        read.rows = variant.rows;
    }
    read == *variant
}

/// What a shaped record says that its text in `to` (`written`) does not read back: the tags it
/// loses (`result` for a stated result of any form), then `move comments`, `move evaluations`
/// and `move times` when its moves lose some. Positions (board strings, OBF) and
/// WTHOR are not checked: a position keeps no game's tags, and WTHOR's losses are told apart.
#[must_use]
pub fn left_out(record: &Record, end: &Position, to: Format, written: &str) -> Vec<String> {
    if matches!(to, Format::Board | Format::Obf | Format::Wthor) {
        return Vec::new();
    }
    let Ok(back) = crate::notation::format::parse(to, written, crate::notation::format::ReadOptions::default()) else {
        return Vec::new();
    };
    let said = |r: &Record, tag: &str| r.tag(tag).is_some_and(says_something);
    let mut lost = Vec::new();
    // Results are read back in other tags and forms (PGN's counts as `score`, `1-0` as `outcome`);
    // a finished game's result that its board gives is no loss.
    let results = ["result", "outcome", "score"];
    let stated = results.iter().find_map(|t| record.tag(t).filter(|_| said(record, t)));
    let cells = end.rules().playable().count().try_into().unwrap_or(i32::MAX);
    // (A result in words, `draw`, as the form it stands for.)
    let read = |stated: &str| {
        super::check::stated_result(stated, cells).or_else(|| {
            let (_, form) = super::pgn::worded_result(stated)?;
            super::check::stated_result(&form, cells)
        })
    };
    let the_boards = |stated: &str| {
        end.outcome().zip(read(stated)).is_some_and(|(board, stated)| {
            stated.winner == board.winner && stated.margin.is_none_or(|m| m == board.score(Color::Black))
        })
    };
    // A termination the result keeps (a transcript's `B+T`, SGF's `W+R`) is no loss.
    let kept_by_result = ["result", "outcome"]
        .iter()
        .filter_map(|t| back.tag(t))
        .any(|r| super::win_without_margin(r).is_some_and(|(_, by)| by != WinBy::Unsaid));
    if stated.is_some_and(|s| !the_boards(s)) && !results.iter().any(|t| said(&back, t)) {
        lost.push("result".to_owned());
    }
    // (The rules are told apart, by [`rules_kept`]; WTHOR's ids are one thing.)
    for (tag, _) in &record.tags {
        let what = if tag.starts_with("wthor_") { "wthor ids" } else { tag.as_str() };
        if !results.contains(&tag.as_str())
            && tag != "rules"
            && (tag != "termination" || !kept_by_result)
            && said(record, tag)
            && !said(&back, tag)
            && !lost.iter().any(|l| l == what)
        {
            lost.push(what.to_owned());
        }
    }
    for ((what, had), (_, kept)) in move_notes(record).into_iter().zip(move_notes(&back)) {
        if kept < had {
            lost.push(what.to_owned());
        }
    }
    lost
}

/// Whether a tag's value says something: not empty nor a placeholder (`?`, WTHOR's unknown
/// name `???`, `-`, `*`).
#[must_use]
pub fn says_something(value: &str) -> bool {
    let value = value.trim();
    !value.chars().all(|c| c == '?') && !matches!(value, "*" | "-")
}

/// How many of a record's moves carry a comment, an evaluation and a time, by those names
/// (`move comments`, ...).
#[must_use]
pub fn move_notes(record: &Record) -> [(&'static str, usize); 3] {
    let count = |has: fn(&super::MoveToken) -> bool| record.moves.iter().filter(|t| has(t)).count();
    [
        ("move comments", count(|t| t.comment.is_some())),
        ("move evaluations", count(|t| t.eval.is_some())),
        ("move times", count(|t| t.time.is_some())),
    ]
}

/// Shapes a replayed record for the target format: passes only where the format writes them
/// (and voluntary ones in transcripts and kifu grids), a start board with its side, a position format gets the
/// last position, a kifu grid always has its start board, the others only a start that is not
/// the rules' own; GGF gets GGS's type and margins, the logbook the board's plain difference,
/// PGN its date form and the board's disc counts when those give the stored margin.
pub fn shape(resolved: Resolved, to: Format) -> Record {
    // (A kifu grid writes voluntary passes in a line under it, as `kifu show --kifu` does.)
    let keep_passes =
        to.writes_passes() || (matches!(to, Format::Transcript | Format::Kifu) && needs_its_passes(&resolved));
    let mut record = resolved.record;
    // A start board that left the side to move unsaid (a kifu grid, a diagram) gets the side
    // the replay began with: formats that write it need it, and it makes the rules' own start
    // recognisable below.
    if let Some(start) = record.start.as_mut()
        && start.side.is_none()
    {
        start.side = Some(resolved.start.side_to_move());
    }
    if !keep_passes {
        // Passes after the last placement (a game cut just after one) are no replay's to infer:
        // a transcript writes them, a kifu grid in its passes line.
        let keep_from = match to {
            Format::Transcript | Format::Kifu => {
                record.moves.iter().rposition(|t| t.mv != MoveSyntax::Pass).map_or(0, |i| i + 1)
            }
            _ => usize::MAX,
        };
        let mut index = 0;
        record.moves.retain(|t| {
            index += 1;
            t.mv != MoveSyntax::Pass || index > keep_from
        });
    }
    if to.is_position() {
        record.start = Some(BoardSyntax::of_position(&resolved.end));
        record.moves.clear();
    } else if to == Format::Kifu {
        record.start = Some(BoardSyntax::of_position(&resolved.start));
    } else if record
        .start
        .as_ref()
        .is_some_and(|b| *b == BoardSyntax::of_position(&Position::start(resolved.start.rules().clone())))
    {
        record.start = None;
    }
    // One `rules` tag, the first (the one the record was replayed under): formats that keep the
    // last of several would read the game under other rules.
    let rules_tags = record.tags.iter().filter(|(k, _)| k.eq_ignore_ascii_case("rules")).count();
    if rules_tags > 1 {
        let mut seen = false;
        record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("rules") || !std::mem::replace(&mut seen, true));
        // GGF types beside conflicting rules belong to the types dropped with them.
        record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("ggf_type"));
    }
    counts_as_margin(&mut record, &resolved.end);
    // WTHOR's squares are places, rank 1 on top.
    let rules = resolved.start.rules();
    if to == Format::Wthor && rules.variant().rows == crate::core::RowNumbering::Bottom {
        record.flip_ranks(rules.size());
    }
    if to == Format::Ggf {
        // GGS names every game's type, the standard one too (`TY[8]`).
        if record.tag("rules").is_none() && record.tag("ggf_type").is_none() {
            record.set_tag("rules", resolved.start.rules().variant().spec());
        }
        super::ggf::use_ggs_margin(&mut record);
        // GGS writes the time of day with the date (`2003.12.15_12:33:18`); PGN's `Time` goes back there.
        if let (Some(date), Some(time)) = (record.tag("date").and_then(Date::parse), record.tag("start_time"))
            && date.day.is_some()
            && let joined = format!("{}_{time}", date.pgn())
            && Date::time_of_day(&joined).is_some()
        {
            record.tags.retain(|(k, _)| k != "start_time");
            record.set_tag("date", joined);
        }
    } else if record.tag("rules").is_some_and(|spec| spec.parse::<Variant>().is_ok_and(|v| v == Variant::default())) {
        record.tags.retain(|(k, _)| k != "rules");
    }
    // A format with no komi stores a finished komi game with its board's result.
    if drops_komi(to)
        && has_komi(&record)
        && let Some(outcome) = resolved.end.outcome()
    {
        record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("outcome"));
        record.set_tag("result", super::wthor::signed(outcome.score(Color::Black)));
    }
    // The logbook's score is the plain difference of the discs on the final board (its own
    // games fill the board; a game that ends early differs from the empties-to-winner margin):
    // a stated margin the board gives becomes that; a wrong one stays as stated.
    let margin = record.tag("result").and_then(|r| r.trim().trim_start_matches('+').parse::<f64>().ok());
    if to == Format::Logbook
        && let Some(outcome) = resolved.end.outcome()
        && margin == Some(f64::from(outcome.score(Color::Black)))
    {
        let plain = i64::from(resolved.end.count(Color::Black)) - i64::from(resolved.end.count(Color::White));
        record.set_tag("result", format!("{plain:+}"));
    }
    if matches!(to, Format::Pgn | Format::Playok) {
        use_pgn_forms(&mut record, &resolved.end);
    }
    use_result_forms(&mut record, to);
    // A transcript is the moves alone, but for how a game given up before its end ended (its
    // moves cannot say): a finished game's result is its board's.
    if to == Format::Transcript && resolved.end.outcome().is_some() {
        record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("result") && !k.eq_ignore_ascii_case("outcome"));
    }
    // SGF's dates are ISO's (`1999-10-22`, `1988`), and a kifu grid's (not GGS's seconds).
    if matches!(to, Format::Sgf | Format::Kifu)
        && let Some(date) = record.tag("date").and_then(Date::parse)
    {
        record.set_tag("date", date.iso());
    }
    record
}

/// Whether `to` writes a result but has no place for a komi (WTHOR, the logbook, kifu grids,
/// Othello Quest): a finished komi game is written there with its board's result.
#[must_use]
pub fn drops_komi(to: Format) -> bool {
    matches!(to, Format::Wthor | Format::Logbook | Format::Kifu | Format::Oq)
}

/// Whether the record has a komi that changes its result (not none, not 0).
#[must_use]
pub fn has_komi(record: &Record) -> bool {
    super::check::komi_of(record).is_some_and(|k| k != Some(0.0))
}

/// Disc counts stated as the result (a transcript's `61-2`; PGN's `Result "61-2"`, read as the
/// `score` beside their difference) become black's margin under the rules' scoring in `result`,
/// the counts staying as `score`, so that every format writes a margin it can read: plain counts
/// of a finished game's board (adding up to its discs) give the rules' margin, the empty squares
/// going to the winner; other counts are scored as they are (counts of every square are already
/// that margin; counts that fit neither stay wrong, for `validate` to report).
fn counts_as_margin(record: &mut Record, end: &Position) {
    let counts = |tag: &str| record.tag(tag).and_then(super::pgn::counts);
    let Some((black, white)) = counts("score").or_else(|| counts("result")) else { return };
    let on_board =
        (u32::try_from(black), u32::try_from(white)) == (Ok(end.count(Color::Black)), Ok(end.count(Color::White)));
    let margin = match end.outcome() {
        Some(outcome) if on_board => outcome.score(Color::Black),
        // Counts as given, scored as the rules score (fewer discs winning in anti-reversi).
        _ => match (u32::try_from(black), u32::try_from(white)) {
            (Ok(b), Ok(w)) => crate::core::Outcome::scored(end.rules().variant(), b, w, 0).score(Color::Black),
            _ => black - white,
        },
    };
    if record.tag("score").is_none() {
        record.set_tag("score", format!("{black}-{white}"));
    }
    // A komi game's result is stated after the komi (its counts stay the discs).
    let komi = super::check::komi_of(record).flatten().unwrap_or(0.0);
    record.set_tag("result", super::margin_after_komi(margin, komi));
}

/// A result won without a margin (by resignation, on time, by forfeit) in the form of `to`:
/// SGF's (and a kifu grid's and a transcript's) `B+R`, `W+T`, `B+` (also for a winner stated
/// alone, PGN's `1-0`), GGF's `+64.000:r` / `-64.000:t` (GGS gives a resignation the whole
/// board), WTHOR's whole board to the winner (`+64`, `-64`; WTHOR stores a disc count, never a
/// winner alone).
fn use_result_forms(record: &mut Record, to: Format) {
    let result = record.tag("result").map(str::to_owned);
    let stated = result.as_deref().or(record.tag("outcome"));
    let Some((winner, mut by)) = stated.and_then(super::win_without_margin) else {
        // A draw stated alone (`1/2-1/2`) is SGF's `0` (a transcript's too), and WTHOR's 32
        // discs each.
        if matches!(to, Format::Sgf | Format::Wthor | Format::Transcript)
            && result.is_none()
            && record.tag("outcome").is_some_and(|o| o.trim() == "1/2-1/2")
        {
            record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("outcome"));
            record.set_tag("result", "0");
        }
        return;
    };
    // How the game was won, from a termination the record gives (PGN's `Termination "time
    // forfeit"`, Othello Quest's `resign`), and back into PGN's tag.
    if by == WinBy::Unsaid {
        by = super::termination_win_by(record);
    }
    if matches!(to, Format::Pgn | Format::Playok) && record.tag("termination").is_none() && by != WinBy::Unsaid {
        let termination = match by {
            WinBy::Time => "time forfeit",
            WinBy::Forfeit => "forfeit",
            _ => "resignation",
        };
        record.set_tag("termination", termination);
    }
    // Formats whose result says how it was won (`W+R`, `-64.000:r`) need no PGN tag beside it.
    if matches!(to, Format::Sgf | Format::Kifu | Format::Ggf)
        && by != WinBy::Unsaid
        && !(to == Format::Ggf && by == WinBy::Forfeit)
        && super::termination_win_by(record) == by
    {
        record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("termination"));
    }
    let text = match to {
        Format::Wthor => (if winner == Color::Black { "+64" } else { "-64" }).to_owned(),
        Format::Sgf | Format::Kifu | Format::Transcript => super::winner_form(winner, by),
        // GGF's own form keeps its margin (`-40.00:r`, the discs when the game was given up);
        // GGS has no flag for a forfeit, which keeps its winner alone.
        Format::Ggf if result.as_deref().is_some_and(|r| r.contains(':')) || by == WinBy::Forfeit => return,
        Format::Ggf if by != WinBy::Unsaid => {
            let sign = if winner == Color::Black { '+' } else { '-' };
            format!("{sign}64.000:{}", if by == WinBy::Resignation { 'r' } else { 't' })
        }
        _ => return,
    };
    record.tags.retain(|(k, _)| !k.eq_ignore_ascii_case("outcome"));
    record.set_tag("result", text);
}

/// Gives a record the forms PGN writes, `end` being the position its moves lead to: the date
/// as PGN writes dates (`1999.10.22`), a time of day it gave as the `start_time` (PGN's
/// `Time`), and the final board's disc counts as the `score` when
/// they give the stored margin.
pub fn use_pgn_forms(record: &mut Record, end: &Position) {
    if let Some(written) = record.tag("date").map(str::to_owned)
        && let Some(date) = Date::parse(&written)
    {
        // The time of day the date gave goes to PGN's `Time` (GGS's, to the second).
        if record.tag("start_time").is_none()
            && let Some(time) = Date::time_of_day(&written)
        {
            record.set_tag("start_time", time);
        }
        record.set_tag("date", date.pgn());
    }
    let (black, white) = (end.count(Color::Black), end.count(Color::White));
    let margin = record.tag("result").and_then(|m| m.trim_start_matches('+').parse::<f64>().ok());
    // Counts say black's margin as most discs wins; under anti-reversi they would say the
    // other winner.
    let most_wins = end.rules().variant().scoring != crate::core::Scoring::Anti;
    if record.tag("score").is_none()
        && most_wins
        && end.is_game_over()
        && margin == Some(f64::from(black) - f64::from(white))
    {
        record.set_tag("score", format!("{black}-{white}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::format;

    /// A kifu grid's start board says no side: shaped, it has the replay's, and the rules' own
    /// start is no setup.
    #[test]
    fn a_start_without_a_side_gets_the_replays() {
        let grid =
            format::write(Format::Kifu, &format::parse(Format::Transcript, "f5d6c3", Default::default()).unwrap());
        let record = format::parse(Format::Kifu, &grid, Default::default()).unwrap();
        assert_eq!(record.start.as_ref().map(|b| b.side), Some(None));
        let resolved = record.resolve(crate::core::Rules::othello().shared()).unwrap();
        let ggf = format::write(Format::Ggf, &for_format(resolved.clone(), Format::Ggf).unwrap());
        assert!(ggf.contains("-------- *]B[f5]"), "{ggf}");
        let pgn = format::write(Format::Pgn, &for_format(resolved, Format::Pgn).unwrap());
        assert!(!pgn.contains("SetUp") && !pgn.contains("FEN"), "{pgn}");
    }

    #[test]
    fn dates_take_each_formats_form() {
        let rules = crate::core::Rules::othello().shared();
        for (date, to, want) in [
            ("2003.12.15_12:33:18.MST", Format::Sgf, "2003-12-15"),
            ("940607137", Format::Sgf, "1999-10-22"),
            ("2024.03.??", Format::Sgf, "2024-03"),
            ("1988", Format::Pgn, "1988.??.??"),
            ("2024-12-24T00:28:43.456Z", Format::Playok, "2024.12.24"),
            ("1988", Format::Ggf, "1988"),
            ("spring 1988", Format::Sgf, "spring 1988"),
        ] {
            let mut record = format::parse(Format::Transcript, "f5d6", Default::default()).unwrap();
            record.set_tag("date", date);
            let shaped = for_format(record.resolve(rules.clone()).unwrap(), to).unwrap();
            assert_eq!(shaped.tag("date"), Some(want), "{date} in {to:?}");
        }
        // A time of day goes to PGN's `Time`, and back into GGF's date.
        let mut record = format::parse(Format::Transcript, "f5d6", Default::default()).unwrap();
        record.set_tag("date", "2003.12.15_12:33:18.MST");
        let pgn = for_format(record.resolve(rules.clone()).unwrap(), Format::Pgn).unwrap();
        assert_eq!((pgn.tag("date"), pgn.tag("start_time")), (Some("2003.12.15"), Some("12:33:18")));
        let ggf = for_format(pgn.resolve(rules).unwrap(), Format::Ggf).unwrap();
        assert_eq!((ggf.tag("date"), ggf.tag("start_time")), (Some("2003.12.15_12:33:18"), None));
    }

    #[test]
    fn wins_without_a_margin_take_each_formats_form() {
        let rules = crate::core::Rules::othello().shared();
        for (tag, value, to, want) in [
            ("result", "+64.000:r", Format::Sgf, Some("B+R")),
            ("result", "-64.000:t", Format::Sgf, Some("W+T")),
            ("result", "B+R", Format::Ggf, Some("+64.000:r")),
            ("result", "W+Time", Format::Ggf, Some("-64.000:t")),
            ("outcome", "0-1", Format::Sgf, Some("W+")),
            ("outcome", "0-1", Format::Transcript, Some("W+")),
            ("result", "+64.000:r", Format::Transcript, Some("B+R")),
            ("outcome", "1/2-1/2", Format::Sgf, Some("0")),
            ("result", "Void", Format::Sgf, Some("Void")),
            ("outcome", "1-0", Format::Ggf, None),
            // WTHOR stores a disc count: the whole board to a winner stated alone.
            ("outcome", "1-0", Format::Wthor, Some("+64")),
            ("result", "W+R", Format::Wthor, Some("-64")),
            ("outcome", "1/2-1/2", Format::Wthor, Some("0")),
        ] {
            let mut record = format::parse(Format::Transcript, "f5d6", Default::default()).unwrap();
            record.set_tag(tag, value);
            let shaped = for_format(record.resolve(rules.clone()).unwrap(), to).unwrap();
            assert_eq!(shaped.tag("result"), want, "{value} in {to:?}");
        }
        // PGN names the winner.
        let ggf = "(;GM[Othello]PB[a]PW[b]TY[8]RE[-64.000:t]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6];)";
        let record = format::parse(Format::Ggf, ggf, Default::default()).unwrap();
        let shaped = for_format(record.resolve(rules.clone()).unwrap(), Format::Pgn).unwrap();
        let pgn = format::write(Format::Pgn, &shaped);
        assert!(pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
        // ... and PGN's termination says how, for the formats that keep it.
        let record = format::parse(Format::Pgn, &pgn, Default::default()).unwrap();
        for (to, want) in
            [(Format::Ggf, "-64.000:t"), (Format::Sgf, "W+T"), (Format::Kifu, "W+T"), (Format::Transcript, "W+T")]
        {
            let shaped = for_format(record.resolve(rules.clone()).unwrap(), to).unwrap();
            assert_eq!(shaped.tag("result"), Some(want), "{to:?}");
        }
    }

    /// Counts stated as a result become the margin under the rules: a finished game's plain
    /// counts the margin with the empty squares to the winner, other counts their difference.
    #[test]
    fn counts_become_the_rules_margin() {
        // A game ending with one empty square, black 61-2.
        let one = "f5d6c5f6e6f4c6e7d3c2f8e8d8c3f7d7c4b4c8b6g5h5e3g6c7e2a6b7b5a5a4g7a8a7b8a3h4h3g4g3a2c1b3g8d1h8b1f1d2b2e1a1h7h6f3g2f2h2g1";
        let rules = crate::core::Rules::othello().shared();
        for (from, text, want) in [
            (Format::Transcript, format!("{one} 61-2"), "+60"),
            (Format::Transcript, format!("{one} 62-2"), "+60"),
            (Format::Transcript, format!("{one} 41-23"), "+18"),
            (Format::Pgn, format!("[Result \"61-2\"]\n\n{one} 61-2\n"), "+60"),
            (Format::Transcript, "f5d6c3 3-2".to_owned(), "+1"),
        ] {
            let record = format::parse(from, &text, Default::default()).unwrap();
            let resolved = record.resolve(rules.clone()).unwrap();
            for to in [Format::Ggf, Format::Sgf, Format::Json, Format::Wthor] {
                let shaped = for_format(resolved.clone(), to).unwrap();
                // (GGF in GGS's form, `+60.000`.)
                let want = if to == Format::Ggf { format!("{want}.000") } else { want.to_owned() };
                assert_eq!(shaped.tag("result"), Some(want.as_str()), "{text} to {to:?}");
            }
            // PGN writes the counts back as they were stated.
            let pgn = format::write(Format::Pgn, &for_format(resolved, Format::Pgn).unwrap());
            let counts = text.rsplit(' ').next().unwrap().trim();
            assert!(pgn.contains(&format!("[Result \"{counts}\"]")), "{pgn}");
        }
        // Counts that are not the board's are scored as the rules score them: in anti-reversi
        // black's 2 against 3 wins (a wrong count must not become the board's margin).
        let anti = "anti".parse::<crate::core::Rules>().unwrap().shared();
        let record = format::parse(Format::Transcript, "f5d6c3 2-3", Default::default()).unwrap();
        let shaped = for_format(record.resolve(anti).unwrap(), Format::Json).unwrap();
        assert_eq!(shaped.tag("result"), Some("+1"));
        // A result text that names no winner is the record's claim: no margin is filled in.
        let record = format::parse(Format::Pgn, &format!("[Result \"foo\"]\n\n{one}\n"), Default::default()).unwrap();
        let shaped = for_format(record.resolve(rules.clone()).unwrap(), Format::Pgn).unwrap();
        assert_eq!((shaped.tag("result"), shaped.tag("outcome")), (None, Some("foo")));
    }

    #[test]
    fn a_record_is_shaped_with_one_rules_tag() {
        // Found by the round_trip fuzz target: a GGF record with `TY[4]` and then `TY[8]` has two
        // rules tags; PGN kept the last and read the game under other rules.
        let record = format::parse(Format::Ggf, "(;GM[Othello]TY[4]TY[8r]B[b1];)", Default::default()).unwrap();
        let rules = record.rules().unwrap().unwrap().shared();
        let resolved = record.resolve(rules).unwrap();
        for to in [Format::Pgn, Format::Json, Format::Ggf, Format::Sgf] {
            let shaped = for_format(resolved.clone(), to).unwrap();
            assert_eq!(shaped.tags.iter().filter(|(k, _)| k == "rules").count(), 1, "{to}");
            let back = format::parse(to, &format::write(to, &shaped), Default::default()).unwrap();
            assert_eq!(back.tag("rules"), Some("othello,size=4"), "{to}");
        }
    }
}
