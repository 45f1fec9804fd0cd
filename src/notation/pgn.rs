//! PGN-like Othello game exports: tag pairs, then numbered movetext.
//!
//! Read: tag pairs `[Name "value"]` (escapes `\"` and `\\`; any other backslash is kept as
//! written; a tag given twice must have one value, `?` and `*` aside), then movetext: move
//! numbers (`1.`, `1...`, `1.f5`; one behind the moves before it is an error), squares in either
//! case (kept per move in [`MoveToken::upper`]; ranks up to 16), passes (`pass`, `--`, `PA`,
//! `PS`, `@@`), `{comments}` and `;` line comments (a comment after a move is that move's
//! comment, one before the first move goes to the tag `comment`; several are joined with a
//! space), `%` escape lines and `#` comment lines (skipped), and a result token at the end (`1-0`, `0-1`, `1/2-1/2`,
//! `*` or disc counts `33-31`). A result token must match the `Result` tag when both are given
//! (`*`, the result unknown, leaves the tag's standing).
//! Only comments may follow the result; a second game (a tag pair after the movetext) is an
//! error: [`parse`] reads one game. Variations `( ... )` are skipped (nested ones and their
//! comments too): the main line is the game, as in SGF. A byte-order mark and CRLF line
//! ends are accepted.
//!
//! Tags become kifu's tags:
//!
//! | PGN                   | kifu                                                    |
//! |-----------------------|---------------------------------------------------------|
//! | `Event`               | `event`                                                 |
//! | `Site`                | `place`                                                 |
//! | `Date`                | `date` (as written, `2021.03.11`)                       |
//! | `Round`               | `round`                                                 |
//! | `Black`, `White`      | `black`, `white`                                        |
//! | `Result` `33-31`      | `result` = black's margin `+2`, and `score` = `33-31`   |
//! | `Result` `1-0` etc.   | `outcome` = `1-0` (`0-1`, `1/2-1/2`, or any other text) |
//! | `Result` `*`          | nothing (the result is unknown)                         |
//! | `BlackElo`/`WhiteElo` | `black_rating` / `white_rating`                         |
//! | `TimeControl`         | `time`                                                  |
//! | `Time` (time of day)  | `start_time`                                            |
//! | `Variant`             | `variant`                                               |
//! | `FEN`                 | the start board (a board string, see [`board`])         |
//! | `SetUp`               | dropped (implied by `FEN`)                              |
//! | anything else         | the name in lower case (`PlyCount` → `plycount`)        |
//!
//! Tag names are matched case-insensitively. The PGN placeholders for "unknown" are dropped:
//! `?` in `Event`, `Site`, `Date`, `Round`, `Black` and `White`, `????.??.??` in `Date` and
//! `-` in `Round`. A disc-count margin is simply black's discs minus white's. Moves carry no
//! colour, except that a first move written `1... d6` is marked White's
//! ([`MoveToken::color`]) unless the start board already has White to move.
//!
//! Written: the seven-tag roster (`Event`, `Site`, `Date`, `Round`, `Black`, `White`, `Result`,
//! with the placeholders when a tag is missing), `SetUp "1"` and `FEN` for a start board, then
//! every other tag in record order under its PGN name (a kifu name not in the table above is
//! written with its first letter in upper case, `oq_id` → `Oq_id`, which reads back as itself).
//! The `Result` is the `score` tag, else counts made from the `result` margin (the empties going
//! to the winner, as WTHOR counts them), else the `outcome`, else `*`; the movetext ends with the
//! same token when it is one. Movetext: numbered pairs, Black first (`1... d6` when White moves
//! first, and after a comment on Black's move), passes as `--`, the `comment` tag as a leading
//! `{comment}`, lines wrapped before 80 columns. A move's evaluation and time go in its comment
//! as chess PGN writes them, `{[%eval -1.5] [%emt 0:00:03.25]}` (the evaluation in discs for
//! the side that moved, as GGF gives it; the time in hours, minutes and seconds), and are read
//! back from there. Not written: per-move colours (other than a first move by White); a `}`
//! inside a comment is written as `)`.

use std::borrow::Cow;

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_until, take_while1};
use nom::character::complete::{char, digit1, multispace0, satisfy};
use nom::combinator::{recognize, value};
use nom::multi::many1_count;
use nom::sequence::delimited;
use nom::{IResult, Parser};

use super::board::{self, Digits};
use super::numbering::Numbering;
use super::wthor::signed;
use super::{MoveNumber, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::Color;

/// Parses one PGN-like game.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    let mut record = Record::default();
    let mut header_result: Option<String> = None;
    let mut in_movetext = false;
    let mut white_first = false;
    let mut result_seen = false;
    let mut numbering = Numbering::default();
    // The move number written before the next move.
    let mut number = None;
    // The tags read so far (lower-case names), to refuse one given twice with two values.
    let mut seen: Vec<(String, String)> = Vec::new();
    let mut rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    loop {
        rest = rest.trim_start();
        let offset = text.len() - rest.len();
        if rest.is_empty() {
            break;
        }
        if rest.starts_with(['%', '#']) && (offset == 0 || text[..offset].ends_with('\n')) {
            rest = rest.find('\n').map_or("", |i| &rest[i..]);
            continue;
        }
        if let Some(body) = rest.strip_prefix(';') {
            let line = body.split('\n').next().unwrap_or("");
            attach_comment(&mut record, line);
            rest = &body[line.len()..];
            continue;
        }
        if rest.starts_with('{') {
            let (after, comment) = brace_comment(rest).map_err(|_| SyntaxError {
                span: Span { start: offset, end: text.len() },
                message: "a `{` comment is never closed".into(),
            })?;
            attach_comment(&mut record, comment);
            rest = after;
            continue;
        }
        if rest.starts_with('[') {
            if in_movetext || result_seen {
                return Err(SyntaxError {
                    span: Span { start: offset, end: offset + 1 },
                    message: "a tag pair after the movetext: a second game (one game per parse)".into(),
                });
            }
            let (after, (name, value)) = tag_pair(rest).map_err(|_| {
                let line = rest.split('\n').next().unwrap_or("").trim_end();
                SyntaxError {
                    span: Span { start: offset, end: offset + line.len() },
                    message: "not a tag pair `[Name \"value\"]`".into(),
                }
            })?;
            let span = Span { start: offset, end: text.len() - after.len() };
            let lower = name.to_ascii_lowercase();
            // A value that says nothing (`?`, `*`, empty) conflicts with none.
            let unknown =
                |v: &str| v.trim().is_empty() || v.trim() == "*" || is_placeholder(kifu_name(&lower), v.trim());
            // The tag is taken when it is new, or says something where the first said nothing.
            let take = match seen.iter_mut().find(|(n, _)| *n == lower) {
                None => {
                    seen.push((lower, value.clone()));
                    true
                }
                Some((_, first)) if first.trim() == value.trim() || unknown(&value) => false,
                Some((_, first)) if unknown(first) => {
                    *first = value.clone();
                    true
                }
                Some((_, first)) => {
                    return Err(SyntaxError {
                        span,
                        message: format!("the tag `{name}` again, with another value: \"{first}\", then \"{value}\""),
                    });
                }
            };
            if take {
                apply_tag(&mut record, name, value, span, &mut header_result)?;
            }
            rest = after;
            continue;
        }
        if result_seen {
            return Err(SyntaxError {
                message: "only comments may follow the result".into(),
                ..unexpected(text, offset)
            });
        }
        if let Ok((after, token)) = result_token(rest) {
            let span = Span { start: offset, end: text.len() - after.len() };
            // A tag that says nothing (`*`, `?`) is no result to agree with.
            let header = header_result.as_deref().filter(|h| !matches!(h.trim(), "*" | "?" | ""));
            match header {
                // `*` (result unknown) in the movetext leaves the tag's result standing.
                Some(header) if header != token && token != "*" => {
                    // The same result written two ways (`35-29` and `1-0`): the counts are
                    // kept when the movetext gives them.
                    if !results_agree(header, token) {
                        return Err(SyntaxError {
                            span,
                            message: format!("the result `{token}` differs from the Result tag `{header}`"),
                        });
                    }
                    // The counts, a margin or how the game was won, when the movetext says more
                    // than the tag (`33-31`, `B+20` or `W+R` after `1-0`).
                    if counts(token).is_some() || margin(token).is_some() || super::win_without_margin(token).is_some()
                    {
                        for (name, value) in result_tags(token) {
                            record.set_tag(name, value);
                        }
                    }
                }
                Some(_) => {}
                None => {
                    for (name, value) in result_tags(token) {
                        record.set_tag(name, value);
                    }
                }
            }
            result_seen = true;
            rest = after;
            continue;
        }
        if let Ok((after, (digits, dots))) = move_number(rest) {
            if record.moves.is_empty() {
                white_first = dots > 1;
            }
            let span = Span { start: offset, end: offset + digits.len() + dots };
            let value =
                numbering.see(digits, dots > 1, &record.moves).map_err(|message| SyntaxError { span, message })?;
            number = Some(MoveNumber { value, continuation: dots > 1, span });
            in_movetext = true;
            rest = after;
            continue;
        }
        if let Ok((after, (mv, upper))) = move_token(rest) {
            let span = Span { start: offset, end: text.len() - after.len() };
            record.moves.push(MoveToken { mv, span, upper, number: number.take(), ..MoveToken::default() });
            in_movetext = true;
            // A move glyph (`f5!`, `d6?!`), as chess PGN writes them: skipped.
            rest = after.trim_start_matches(['!', '?']);
            continue;
        }
        // A numeric annotation glyph (`$1`): skipped.
        if let Some(digits) = rest.strip_prefix('$')
            && digits.starts_with(|c: char| c.is_ascii_digit())
            && in_movetext
        {
            rest = digits.trim_start_matches(|c: char| c.is_ascii_digit());
            continue;
        }
        if rest.starts_with('(') {
            // A variation: skipped, as SGF's are (the main line is the game).
            let Some(after) = skip_variation(rest) else {
                return Err(SyntaxError {
                    span: Span { start: offset, end: offset + 1 },
                    message: "this variation `(` is never closed with `)`".into(),
                });
            };
            rest = after;
            continue;
        }
        return Err(unexpected(text, offset));
    }
    let start_white = record.start.as_ref().and_then(|b| b.side) == Some(Color::White);
    if white_first
        && !start_white
        && let Some(first) = record.moves.first_mut()
    {
        first.color = Some(Color::White);
    }
    Ok(record)
}

/// The text after the variation that `text` starts with (a `(`), nested variations, `{ }`
/// comments and `;` line comments included; `None` when it is never closed.
fn skip_variation(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[i + 1..]);
                }
            }
            '{' => {
                chars.find(|&(_, c)| c == '}')?;
            }
            ';' => {
                chars.find(|&(_, c)| c == '\n')?;
            }
            _ => {}
        }
    }
    None
}

fn unexpected(text: &str, offset: usize) -> SyntaxError {
    let bad: String = text[offset..].chars().take_while(|c| !c.is_whitespace()).take(12).collect();
    SyntaxError {
        span: Span { start: offset, end: offset + bad.len() },
        message: format!(
            "`{bad}` is not a move (a square like f5, or a pass: --, pass, PA, PS, @@), a move number or a result"
        ),
    }
}

/// Adds a comment to the last move (its `[%eval X]` and `[%emt H:MM:SS]` commands to the
/// move's evaluation and time), or to the tag `comment` before the first move.
fn attach_comment(record: &mut Record, comment: &str) {
    let mut comment = comment.trim().to_owned();
    if let Some(last) = record.moves.last_mut() {
        if let Some((value, rest)) = command(&comment, "eval").and_then(|(v, r)| Some((v.parse().ok()?, r))) {
            last.eval = Some(value);
            comment = rest;
        }
        if let Some((value, rest)) = command(&comment, "emt").and_then(|(v, r)| Some((clock_seconds(&v)?, r))) {
            last.time = Some(value);
            comment = rest;
        }
        if comment.is_empty() {
            return;
        }
    }
    let comment = comment.as_str();
    let join = |prev: &str| match (prev.is_empty(), comment.is_empty()) {
        (true, _) => comment.to_owned(),
        (false, true) => prev.to_owned(),
        (false, false) => format!("{prev} {comment}"),
    };
    match record.moves.last_mut() {
        Some(last) => last.comment = Some(join(last.comment.as_deref().unwrap_or(""))),
        None => {
            let joined = join(record.tag("comment").unwrap_or(""));
            record.set_tag("comment", joined);
        }
    }
}

/// The value of the command `[%name value]` in a comment, and the comment without it.
fn command(comment: &str, name: &str) -> Option<(String, String)> {
    let open = format!("[%{name} ");
    let at = comment.find(&open)?;
    let end = at + comment[at..].find(']')?;
    let value = comment[at + open.len()..end].trim().to_owned();
    let rest = format!("{} {}", comment[..at].trim_end(), comment[end + 1..].trim_start());
    Some((value, rest.trim().to_owned()))
}

/// Seconds from `H:MM:SS`, `MM:SS` or `SS` (seconds with a fraction if any): whole hours,
/// minutes and seconds are added as integers and the fraction read with them, so that the
/// number [`clock`] wrote comes back exactly.
fn clock_seconds(clock: &str) -> Option<f64> {
    let parts: Vec<&str> = clock.split(':').collect();
    let (last, before) = parts.split_last()?;
    let (whole, fraction) = last.split_once('.').unwrap_or((last, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if before.iter().all(|p| digits(p)) && digits(whole) && (fraction.is_empty() || digits(fraction)) {
        let mut total: u64 = 0;
        for part in before.iter().chain([&whole]) {
            total = total.checked_mul(60)?.checked_add(part.parse().ok()?)?;
        }
        return format!("{total}.{fraction}0").parse().ok();
    }
    let mut total = 0.0;
    for part in parts {
        let value: f64 = part.parse().ok()?;
        if !value.is_finite() || value < 0.0 {
            return None;
        }
        total = total * 60.0 + value;
    }
    Some(total)
}

/// Seconds as `H:MM:SS` with the seconds' fraction as the number's shortest decimal
/// (`0:01:37.63`, not a float's `37.629999...`); [`clock_seconds`] reads back the same number.
fn clock(seconds: f64) -> String {
    let text = format!("{seconds}");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let Ok(whole) = whole.parse::<u64>() else { return text };
    let fraction = if fraction.is_empty() { String::new() } else { format!(".{fraction}") };
    format!("{}:{:02}:{:02}{fraction}", whole / 3600, whole / 60 % 60, whole % 60)
}

/// `{text}`: the text.
fn brace_comment(input: &str) -> IResult<&str, &str> {
    delimited(char('{'), take_until("}"), char('}')).parse(input)
}

/// `[Name "value"]`: the name and the unescaped value.
fn tag_pair(input: &str) -> IResult<&str, (&str, String)> {
    let name = take_while1(|c: char| c.is_ascii_alphanumeric() || "_+#=:-".contains(c));
    let (rest, (_, _, name, _, value, _, _)) =
        (char('['), multispace0, name, multispace0, quoted, multispace0, char(']')).parse(input)?;
    Ok((rest, (name, value)))
}

/// A `"` string with `\"` and `\\` escapes (other backslashes are kept).
fn quoted(input: &str) -> IResult<&str, String> {
    let (body, _) = char('"').parse(input)?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((&body[i + 1..], out)),
            '\\' => match chars.clone().next() {
                Some((_, e @ ('"' | '\\'))) => {
                    out.push(e);
                    chars.next();
                }
                _ => out.push('\\'),
            },
            _ => out.push(c),
        }
    }
    Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Char)))
}

/// Whether a tag value is PGN's placeholder for "unknown" in that (kifu-named) tag.
fn is_placeholder(name: &str, value: &str) -> bool {
    match name {
        "event" | "place" | "black" | "white" => value == "?",
        "date" => value == "?" || value == "????.??.??",
        "round" => value == "?" || value == "-",
        _ => false,
    }
}

/// The kifu name of a PGN tag (given in lower case).
fn kifu_name(lower: &str) -> &str {
    match lower {
        "site" => "place",
        "blackelo" => "black_rating",
        "whiteelo" => "white_rating",
        "timecontrol" => "time",
        "time" => "start_time",
        other => other,
    }
}

/// The PGN name of a kifu tag.
fn pgn_name(name: &str) -> Cow<'_, str> {
    let fixed = match name {
        "event" => "Event",
        "place" => "Site",
        "date" => "Date",
        "round" => "Round",
        "black" => "Black",
        "white" => "White",
        "black_rating" => "BlackElo",
        "white_rating" => "WhiteElo",
        "time" => "TimeControl",
        "start_time" => "Time",
        "variant" => "Variant",
        _ => "",
    };
    if !fixed.is_empty() {
        return Cow::Borrowed(fixed);
    }
    let mut out: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    if let Some(first) = out.get(..1) {
        let upper = first.to_ascii_uppercase();
        out.replace_range(..1, &upper);
    }
    if out.is_empty() {
        out.push('_');
    }
    Cow::Owned(out)
}

fn apply_tag(
    record: &mut Record,
    name: &str,
    value: String,
    span: Span,
    header_result: &mut Option<String>,
) -> Result<(), SyntaxError> {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "result" => {
            for (name, v) in result_tags(&value) {
                record.set_tag(name, v);
            }
            *header_result = Some(value);
        }
        "fen" => {
            let board = board::parse(&value, Digits::default())
                .map_err(|e| SyntaxError { span, message: format!("FEN: {}", e.message) })?;
            record.start = board.start;
        }
        "setup" => {}
        _ => {
            let name = kifu_name(&lower);
            if !is_placeholder(name, &value) {
                record.set_tag(name, value);
            }
        }
    }
    Ok(())
}

/// Black's and White's discs in a disc-count result (`33-31`), not `1-0` or `0-1`.
pub(crate) fn counts(result: &str) -> Option<(i32, i32)> {
    // (`0-0` is no game's count: a double forfeit, as some pairing programs write it.)
    if result == "1-0" || result == "0-1" || result == "0-0" {
        return None;
    }
    let (b, w) = result.split_once('-')?;
    let number = |s: &str| {
        if !s.is_empty() && s.len() <= 3 && s.bytes().all(|c| c.is_ascii_digit()) {
            s.parse::<i32>().ok()
        } else {
            None
        }
    };
    Some((number(b)?, number(w)?))
}

/// The winner a result names (`Some(None)` for a draw): `1-0`, `0-1`, `1/2-1/2`, disc counts or
/// a margin (`W+2`, `-2`); `None` for anything else.
pub(crate) fn winner(result: &str) -> Option<Option<Color>> {
    let by_sign = |v: i32| match v.cmp(&0) {
        std::cmp::Ordering::Greater => Some(Color::Black),
        std::cmp::Ordering::Less => Some(Color::White),
        std::cmp::Ordering::Equal => None,
    };
    match result.trim() {
        "1-0" => Some(Some(Color::Black)),
        "0-1" => Some(Some(Color::White)),
        "1/2-1/2" => Some(None),
        text => stated_margin(text)
            .map(by_sign)
            .or_else(|| super::win_without_margin(text).map(|(color, _)| Some(color)))
            .or_else(|| match japanese_result(text)? {
                ("outcome", outcome) => winner(&outcome),
                (_, result) => super::win_without_margin(&result).map(|(color, _)| Some(color)),
            }),
    }
}

/// Whether two results written for one game agree: a known winner, the same in both, and the
/// same margin where both give one (`35-29` and `1-0` agree, `41-23` and `40-24` do not, nor
/// `41-23` and `白勝ち`).
pub(crate) fn results_agree(a: &str, b: &str) -> bool {
    let margins_differ = match (stated_margin(a), stated_margin(b)) {
        (Some(x), Some(y)) => x != y && !empties_to_the_winner(a, y) && !empties_to_the_winner(b, x),
        _ => false,
    };
    winner(a).is_some() && winner(a) == winner(b) && !margins_differ
}

/// Whether `margin` is what the disc counts `text` give with the empty squares counted for the
/// winner, as the official rule (and a Japanese result) does: `5-56` is White's win by 54 on a
/// board of 64 cells, or on any square board the counts fit.
fn empties_to_the_winner(text: &str, margin: i32) -> bool {
    let Some((b, w)) = counts(text.trim()) else { return false };
    let (difference, extra) = (b - w, margin.abs() - (b - w).abs());
    difference != 0
        && difference.signum() == margin.signum()
        && extra > 0
        && (4..=16).any(|n: i32| n * n == b + w + extra)
}

/// Black's margin a result gives, if it gives one: disc counts, a margin, or either in Japanese.
fn stated_margin(text: &str) -> Option<i32> {
    let text = text.trim();
    counts(text).map(|(b, w)| b - w).or_else(|| margin(text)).or_else(|| match japanese_result(text)? {
        ("result", value) => margin(&value),
        _ => None,
    })
}

/// Black's margin in a result written as one (`+2`, `-2`, `0`, `B+2`, `W+2`).
pub(crate) fn margin(text: &str) -> Option<i32> {
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|c| c.is_ascii_digit()))
            .then(|| s.parse::<i32>().ok())
            .flatten()
    };
    let text = text.trim();
    match text.as_bytes().first()? {
        b'+' => number(&text[1..]),
        b'-' => number(&text[1..]).map(|v| -v),
        b'B' | b'b' if text[1..].starts_with('+') => number(&text[2..]),
        b'W' | b'w' if text[1..].starts_with('+') => number(&text[2..]).map(|v| -v),
        _ => number(text).filter(|&v| v == 0),
    }
}

/// A result as players write one in words: `draw`, `Black wins`, `W wins`, with the counts
/// after it (`White wins 40-24`: the winner has the larger count, whichever is first) or the
/// margin (`White wins by 12`, `Black lost by 4 discs`), a win by resignation or on time (`White
/// won on time`, `Black wins by resignation`, `White resigned`, `Black lost on time`: `result`
/// `W+T`, `B+R`, `B+R`, `W+T`), as the tag it gives.
pub(crate) fn worded_result(text: &str) -> Option<(&'static str, String)> {
    let lower = text.trim().trim_end_matches(['.', '!']).to_ascii_lowercase();
    let words: Vec<&str> = lower.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    let (who, wins, rest) = match words.as_slice() {
        ["draw" | "drawn" | "tie"] | ["a", "draw"] => return Some(("outcome", "1/2-1/2".into())),
        [who, "wins" | "won" | "win", rest @ ..] => (*who, true, rest),
        [who, "loses" | "lost" | "lose", rest @ ..] => (*who, false, rest),
        // The side that resigned or ran out of time loses.
        [who, "resigned" | "resigns" | "resign"] => (*who, false, &["by", "resignation"][..]),
        [who, "flagged" | "forfeited"] | [who, "ran", "out", "of", "time"] => (*who, false, &["on", "time"][..]),
        _ => return None,
    };
    let named_black = match who {
        "black" | "b" => true,
        "white" | "w" => false,
        _ => return None,
    };
    let black = named_black == wins;
    let sign = if black { "+" } else { "-" };
    match rest {
        [] => Some(("outcome", if black { "1-0" } else { "0-1" }.into())),
        ["by", "resignation"] => Some(("result", if black { "B+R" } else { "W+R" }.into())),
        ["by", "forfeit" | "default"] => Some(("result", if black { "B+F" } else { "W+F" }.into())),
        ["on" | "by", "time", "forfeit"] | ["on" | "by", "time"] => {
            Some(("result", if black { "B+T" } else { "W+T" }.into()))
        }
        ["by", n] | ["by", n, "disc" | "discs"] if n.bytes().all(|b| b.is_ascii_digit()) => {
            let margin = n.parse::<u32>().ok().filter(|&m| (1..=64).contains(&m))?;
            Some(("result", format!("{sign}{margin}")))
        }
        [counts_text] | ["by", counts_text] => {
            let (a, b) = counts(counts_text)?;
            let (high, low) = (a.max(b), a.min(b));
            if high == low {
                return None;
            }
            Some(("result", if black { format!("{high}-{low}") } else { format!("{low}-{high}") }))
        }
        _ => None,
    }
}

/// A result in Japanese, as Japanese software and clubs write it, as the tag it gives: `黒勝ち`
/// (Black wins: `outcome` `1-0`), `白の4石勝ち` (White wins by 4: `result` `-4`), `黒2石負け`
/// (Black loses by 2), `黒の負け`, `黒中押し勝ち` (Black wins by resignation: `result` `B+R`),
/// `引き分け` (a draw: `result` `0`), counts after a colour
/// ([`japanese_counts`]: `黒33-31`, `result` `+2`); digits in full width too. Chinese as well:
/// `白胜4子` (White wins by 4), `黑胜`, `黑负2子`, `黑中盘胜`, `和棋`.
pub(crate) fn japanese_result(text: &str) -> Option<(&'static str, String)> {
    let text = from_chinese(text);
    if let Some((black, white)) = japanese_counts(&text) {
        return Some(("result", signed(black - white)));
    }
    let text: String = text.chars().map(super::narrow).filter(|c| !c.is_whitespace() && *c != 'の').collect();
    // Closing punctuation as a sentence ends (`白の勝ち！`, `黒勝ち。`).
    let text = text.trim_end_matches(['。', '!', '.', '、']);
    if ["引き分け", "引分け", "引分", "引き分", "和棋", "平局"].contains(&text) {
        return Some(("result", "0".to_owned()));
    }
    // Chinese puts the margin after the verb (`白胜4子`): as Japanese orders it (`白4石勝`).
    let reordered;
    let text = match text.char_indices().nth(1).map(|(i, _)| text.split_at(i)) {
        Some((colour, rest)) if rest.starts_with(['勝', '負']) && rest.ends_with('石') => {
            let verb = rest.chars().next().unwrap_or('勝');
            reordered = format!("{colour}{}{verb}", &rest[verb.len_utf8()..]);
            reordered.as_str()
        }
        _ => text,
    };
    let (black, rest) = match text.chars().next()? {
        '黒' => (true, &text['黒'.len_utf8()..]),
        '白' => (false, &text['白'.len_utf8()..]),
        _ => return None,
    };
    // A colour and its margin (`白+4`): that side wins by it.
    let plus = rest.strip_prefix('+');
    let rest = plus.unwrap_or(rest);
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let margin = (digits > 0).then(|| rest[..digits].parse::<i32>().ok()).flatten();
    let rest = &rest[digits..];
    let rest = match (plus, margin) {
        (Some(_), Some(_)) if rest.is_empty() => "勝",
        (Some(_), _) => return None,
        (None, Some(_)) => rest.strip_prefix('石')?,
        (None, None) => rest,
    };
    let wins = match rest {
        "勝ち" | "勝" => black,
        // A win by resignation: the winner only, as SGF writes it.
        "中押し勝ち" | "中押し勝" | "中押勝ち" | "中押勝" if margin.is_none() => {
            return Some(("result", if black { "B+R" } else { "W+R" }.to_owned()));
        }
        "負け" | "負" => !black,
        _ => return None,
    };
    match margin {
        Some(m) if m <= 64 => Some(("result", super::wthor::signed(if wins { m } else { -m }))),
        Some(_) => None,
        None => Some(("outcome", if wins { "1-0" } else { "0-1" }.to_owned())),
    }
}

/// A result in Chinese in the Japanese characters [`japanese_result`] reads (`黑胜4子` as
/// `黒勝4石`, `中盘` as `中押し`); other text as it is.
fn from_chinese(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['黑', '胜', '负', '子', '盘']) {
        return text.into();
    }
    let text = text.replace("中盘", "中押し");
    text.chars()
        .map(|c| match c {
            '黑' => '黒',
            '胜' => '勝',
            '负' => '負',
            '子' => '石',
            c => c,
        })
        .collect::<String>()
        .into()
}

/// Disc counts after a colour, that colour's first (`黒33-31`, `白34-30黒`, `黒 33 - 31 白`,
/// `黒30 白34`, digits in full width too), as black's and white's.
pub(crate) fn japanese_counts(text: &str) -> Option<(i32, i32)> {
    let text: String = text.chars().map(super::narrow).filter(|c| !c.is_whitespace()).collect();
    let text = text.trim_end_matches(['。', '!', '.', '、']);
    let (white_first, rest) = match text.chars().next()? {
        '黒' => (false, &text['黒'.len_utf8()..]),
        '白' => (true, &text['白'.len_utf8()..]),
        _ => return None,
    };
    let other = if white_first { '黒' } else { '白' };
    // (`黒30白34`: the other colour between the counts.)
    let rest = rest.strip_suffix(other).unwrap_or(rest).replacen(other, "-", 1).replace(':', "-");
    let (first, second) = counts(&rest)?;
    Some(if white_first { (second, first) } else { (first, second) })
}

/// The tags a result (header value or movetext token) gives: disc counts (`33-31`, also written
/// `33:31` or `33 - 31`) as `result` (their difference) and `score`; a margin (`+2`, `-2`, `B+2`,
/// `W+2`) as `result`; a winner (`1-0`, `0-1`, `1/2-1/2`, or in words: `Black wins`, `White
/// wins`, `Draw`) as `outcome` in PGN's form; a result in Japanese ([`japanese_result`]); anything else as `outcome` as written, which
/// `kifu validate` reports as no result.
fn result_tags(result: &str) -> Vec<(&'static str, String)> {
    let text = result.trim();
    if text == "*" {
        return vec![];
    }
    // `33:31`, `1:0` and `½-½` as `33-31`, `1-0` and `1/2-1/2`.
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| {
            if c == ':' {
                "-".to_owned()
            } else if c == '½' {
                "1/2".to_owned()
            } else {
                c.to_string()
            }
        })
        .collect();
    if let Some((b, w)) = counts(&compact).or_else(|| japanese_counts(text)) {
        return vec![("result", signed(b - w)), ("score", format!("{b}-{w}"))];
    }
    if let Some(m) = margin(text) {
        return vec![("result", signed(m))];
    }
    if let Some(tag) = japanese_result(text) {
        return vec![tag];
    }
    // SGF's win by resignation or on time, or its winner alone (`B+R`, `W+T`, `B+`).
    if super::win_without_margin(text).is_some() && !matches!(text, "1-0" | "0-1") {
        return vec![("result", text.to_owned())];
    }
    if matches!(compact.as_str(), "1-0" | "0-1" | "1/2-1/2") {
        return vec![("outcome", compact)];
    }
    // In words (`White won on time`, `Black wins by 4`, `White wins 40-24`).
    match worded_result(text) {
        Some(("result", value)) if counts(&value).is_some() => result_tags(&value),
        Some(tag) => vec![tag],
        None => vec![("outcome", text.to_owned())],
    }
}

/// The result as written in the `Result` tag: the `score`, else counts from the `result` margin,
/// else the `outcome`, else the winner, else a `result` text that is no margin as written
/// (`Void`), else `*`.
pub(crate) fn result_text(record: &Record) -> String {
    if let Some(score) = record.tag("score").filter(|s| counts(s).is_some()) {
        return score.to_owned();
    }
    // (GGS's agreed score, `-12.000:s`, is a margin too.)
    let margin =
        record.tag("result").and_then(|m| m.trim().trim_end_matches(":s").trim_start_matches('+').parse::<f64>().ok());
    // Counts follow from the margin only when the empties go to the winner (then the two
    // counts fill the board's playable squares); a plain or anti-reversi margin says nothing
    // of the empties, and a rules tag that does not read leaves the board unknown.
    let squares = match record.rules() {
        None => Some(record.start.as_ref().map_or(64, |b| i32::from(b.size) * i32::from(b.size))),
        Some(Ok(rules)) if rules.variant().scoring == crate::core::Scoring::EmptiesToWinner => {
            Some(rules.playable().count() as i32)
        }
        Some(_) => None,
    };
    // A margin after komi is no disc count.
    let komi = super::shape::has_komi(record);
    if let (Some(m), Some(total), false) = (margin.filter(|m| m.fract() == 0.0 && m.abs() <= 256.0), squares, komi) {
        let m = m as i32;
        if m.abs() <= total && (total + m) % 2 == 0 {
            return format!("{}-{}", (total + m) / 2, (total - m) / 2);
        }
    }
    if let Some(outcome) = record.tag("outcome") {
        return outcome.to_owned();
    }
    // A win by resignation or on time (GGF's `+64.000:r`, SGF's `W+T`).
    if let Some((winner, _)) = record.tag("result").and_then(super::win_without_margin) {
        return if winner == Color::Black { "1-0" } else { "0-1" }.into();
    }
    match margin {
        Some(m) if m > 0.0 => "1-0".into(),
        Some(m) if m < 0.0 => "0-1".into(),
        Some(_) => "1/2-1/2".into(),
        // A result text that is no margin (SGF's `RE[Void]`): as written, as an outcome is.
        None => record.tag("result").map(str::trim).filter(|r| !r.is_empty()).unwrap_or("*").to_owned(),
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, `*` or disc counts, followed by a space, a comment or the end.
fn result_token(input: &str) -> IResult<&str, &str> {
    // SGF's forms too: `B+4`, `W+12`, `B+R`, `W+T`, `W+Time`, `B+`.
    let sgf = recognize((
        satisfy(|c| matches!(c, 'B' | 'b' | 'W' | 'w')),
        char('+'),
        nom::combinator::opt(nom::character::complete::alphanumeric1),
    ));
    // A colon for the dash too (`1:0`, `33:31`), and `½` for a half (`½-½`).
    let (rest, token) = alt((
        tag("1/2-1/2"),
        tag("½-½"),
        tag("½:½"),
        tag("1/2:1/2"),
        recognize((digit1, alt((char('-'), char(':'))), digit1)),
        tag("*"),
        sgf,
    ))
    .parse(input)?;
    if token.contains('+') && margin(token).is_none() && super::win_without_margin(token).is_none() {
        return Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Verify)));
    }
    match rest.chars().next() {
        None => Ok((rest, token)),
        Some(c) if c.is_whitespace() || c == '{' || c == ';' => Ok((rest, token)),
        Some(_) => Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Verify))),
    }
}

/// `12.`, `12...` or `12)`: the digits and the number of dots (one for `)`).
fn move_number(input: &str) -> IResult<&str, (&str, usize)> {
    (digit1, alt((many1_count(char('.')), value(1, char(')'))))).parse(input)
}

/// A pass or a square, and whether the square's letter is upper case.
pub(crate) fn move_token(input: &str) -> IResult<&str, (MoveSyntax, bool)> {
    let pass = value(
        (MoveSyntax::Pass, false),
        alt((tag_no_case("pass"), tag("--"), tag_no_case("pa"), tag_no_case("ps"), tag("@@"))),
    );
    alt((pass, square)).parse(input)
}

/// A file letter `a`-`p` (either case) and a rank 1-16.
fn square(input: &str) -> IResult<&str, (MoveSyntax, bool)> {
    let (rest, letter) = satisfy(|c| matches!(c.to_ascii_lowercase(), 'a'..='p')).parse(input)?;
    let (mut rest, digit) = satisfy(|c| matches!(c, '1'..='9')).parse(rest)?;
    let mut rank = digit as u8 - b'0';
    if rank == 1
        && let Some(d) = rest.bytes().next().filter(|d| (b'0'..=b'6').contains(d))
    {
        rank = 10 + (d - b'0');
        rest = &rest[1..];
    }
    let file = letter.to_ascii_lowercase() as u8 - b'a';
    Ok((rest, (MoveSyntax::Square { file, rank }, letter.is_ascii_uppercase())))
}

/// `[Name "value"]` with `"` and `\` escaped, and line breaks written as spaces (a tag pair
/// is one line).
pub(crate) fn tag_line(name: &str, value: &str) -> String {
    let value = value.replace("\r\n", " ").replace(['\n', '\r'], " ");
    format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The record's tags not in `skip` (nor written elsewhere), under their PGN names.
pub(crate) fn other_tags<'a>(record: &'a Record, skip: &[&str]) -> Vec<(Cow<'a, str>, &'a str)> {
    const ELSEWHERE: [&str; 6] = ["result", "score", "outcome", "comment", "fen", "setup"];
    let mut tags: Vec<(Cow<'a, str>, &'a str)> = Vec::new();
    for (k, v) in record.tags.iter().filter(|(k, _)| !skip.iter().chain(&ELSEWHERE).any(|s| s.eq_ignore_ascii_case(k)))
    {
        // A tag given twice (a format that repeats a property): its first value, as
        // `Record::tag` reads it, since PGN gives a tag one value.
        let name = pgn_name(k);
        if !tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) {
            tags.push((name, v.as_str()));
        }
    }
    tags
}

/// The tag pairs `SetUp` and `FEN` for a start board (none without one).
pub(crate) fn setup_tags(record: &Record) -> Vec<(Cow<'static, str>, String)> {
    match &record.start {
        Some(b) => vec![(Cow::Borrowed("SetUp"), "1".into()), (Cow::Borrowed("FEN"), board::write_string(b))],
        None => vec![],
    }
}

/// The movetext: the leading comment, numbered moves and the result token, wrapped before 80
/// columns, with a final newline.
pub(crate) fn movetext(record: &Record) -> String {
    let clean = |c: &str| format!("{{{}}}", c.replace('}', ")"));
    let mut words: Vec<String> = Vec::new();
    if let Some(comment) = record.tag("comment") {
        words.push(clean(comment));
    }
    let start_white = record.start.as_ref().and_then(|b| b.side) == Some(Color::White);
    let first_white = record.moves.first().and_then(|t| t.color) == Some(Color::White);
    let mut color = if start_white || first_white { Color::White } else { Color::Black };
    let mut number = 1;
    let mut need_number = true;
    for t in &record.moves {
        if color == Color::Black {
            words.push(format!("{number}."));
        } else if need_number {
            words.push(format!("{number}..."));
        }
        words.push(match t.mv {
            MoveSyntax::Pass => "--".to_owned(),
            MoveSyntax::Square { file, rank } => {
                let letter = (b'a' + file) as char;
                format!("{}{rank}", if t.upper { letter.to_ascii_uppercase() } else { letter })
            }
        });
        need_number = false;
        let mut notes: Vec<String> = Vec::new();
        notes.extend(t.eval.filter(|e| e.is_finite()).map(|e| format!("[%eval {e}]")));
        notes.extend(t.time.filter(|s| s.is_finite() && *s >= 0.0).map(|s| format!("[%emt {}]", clock(s))));
        notes.extend(t.comment.iter().map(|c| c.trim().to_owned()).filter(|c| !c.is_empty()));
        if !notes.is_empty() {
            words.push(clean(&notes.join(" ")));
            need_number = true;
        }
        if color == Color::White {
            number += 1;
        }
        color = !color;
    }
    let result = result_text(record);
    if result_token(&result).is_ok_and(|(rest, _)| rest.is_empty()) {
        words.push(result);
    }
    let mut out = String::new();
    let mut column = 0;
    for word in words {
        let width = word.chars().count();
        if column > 0 && column + 1 + width > 79 {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(&word);
        column += width;
    }
    out.push('\n');
    out
}

/// Writes a record as a PGN-like game: tag pairs, a blank line, the movetext.
#[must_use]
pub fn write(record: &Record) -> String {
    write_layout(record, ("?", "?"), &[])
}

/// The PGN layout shared by PGN dialects: the seven-tag roster (with these defaults for a
/// missing `Site` and `Round`), then `optional` tags (kifu name, PGN name) that the record has,
/// the start board, the other tags, a blank line and the movetext.
pub(crate) fn write_layout(
    record: &Record,
    (site, round): (&'static str, &'static str),
    optional: &[(&str, &str)],
) -> String {
    let or = |name: &str, default: &'static str| record.tag(name).unwrap_or(default).to_owned();
    let mut out = String::new();
    for (name, value) in [
        ("Event", or("event", "?")),
        ("Site", or("place", site)),
        ("Date", or("date", "????.??.??")),
        ("Round", or("round", round)),
        ("Black", or("black", "?")),
        ("White", or("white", "?")),
        ("Result", result_text(record)),
    ] {
        out.push_str(&tag_line(name, &value));
    }
    for &(tag, name) in optional {
        if let Some(value) = record.tag(tag) {
            out.push_str(&tag_line(name, value));
        }
    }
    for (name, value) in setup_tags(record) {
        out.push_str(&tag_line(&name, &value));
    }
    let mut skip = vec!["event", "place", "date", "round", "black", "white"];
    skip.extend(optional.iter().map(|(tag, _)| *tag));
    // A tag whose PGN name is written already (`site` beside `place`, both `Site`): PGN gives
    // a tag one value, the first.
    let written: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix('[')?.split(' ').next()).collect();
    let others: Vec<_> = other_tags(record, &skip)
        .into_iter()
        .filter(|(name, _)| !written.iter().any(|w| w.eq_ignore_ascii_case(name)))
        .collect();
    for (name, value) in others {
        out.push_str(&tag_line(&name, value));
    }
    out.push('\n');
    out.push_str(&movetext(record));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::notation::BoardSyntax;
    use proptest::prelude::*;

    fn squares(r: &Record) -> Vec<String> {
        r.moves.iter().map(|t| t.mv.to_string()).collect()
    }

    const GAME: &str = r#"[Event "Test \"quoted\" \\ cup"]
[Site "Somewhere"]
[Date "2024.05.01"]
[Round "3"]
[Black "Alice"]
[White "Bob"]
[Result "33-31"]
[BlackElo "2001"]
[PlyCount "7"]

{A sharp opening} 1. f5 d6 2. C3 {why?} 2... d3 3. c4 ; book ends
f4 4. pass PA 5. @@ 33-31
"#;

    #[test]
    fn a_result_text_that_is_no_margin_is_kept() {
        let mut r = parse("1. f5").unwrap();
        r.set_tag("result", "Void");
        assert!(write(&r).contains("[Result \"Void\"]"), "{}", write(&r));
        assert_eq!(parse(&write(&r)).unwrap().tag("outcome"), Some("Void"));
    }

    /// Chess PGN's move glyphs and NAGs are skipped; `1)` numbers a move as `1.` does.
    #[test]
    fn glyphs_nags_and_parenthesis_numbers() {
        let r = parse("[Event \"x\"]\n\n1. f5! d6?! $2 2. c3 $14 d3?? 3. c4!? *").unwrap();
        assert_eq!(r.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["f5", "d6", "c3", "d3", "c4"]);
        assert_eq!(parse("1) f5 d6 2) c3 d3 *").unwrap().moves.len(), 4);
        assert!(parse("1) f5 d6 1) c3").is_err(), "numbers are still checked");
        assert!(parse("1. f5!x").is_err());
    }

    /// The Result tag and the movetext's result are compared as results, in any form they take.
    #[test]
    fn a_result_given_twice_must_agree() {
        let game = |tag: &str, token: &str| parse(&format!("[Result \"{tag}\"]\n\n1. f5 d6 {token}"));
        for (tag, token) in [("黒41-23", "41-23"), ("黒勝ち", "41-23"), ("黒の18石勝ち", "1-0"), ("41-23", "1-0")]
        {
            assert!(game(tag, token).is_ok(), "{tag} {token}");
        }
        // The empties go to the winner: 5-56 with 3 empty squares is White's win by 54.
        assert!(results_agree("5-56", "白の54石勝ち") && results_agree("-54", "5-56"));
        assert!(!results_agree("5-56", "白の53石勝ち") && !results_agree("5-56", "黒の54石勝ち"));
        for (tag, token) in [("41-23", "40-24"), ("黒勝ち", "0-1"), ("+18", "40-24")] {
            let e = game(tag, token).unwrap_err();
            assert!(e.message.contains("differs from the Result tag"), "{tag} {token}: {e:?}");
        }
    }

    #[test]
    fn comment_lines_are_skipped() {
        let r = parse("# from the club\n[Event \"x\"]\n\n1. f5 d6\n# a note\n2. c3 d3 *\n").unwrap();
        assert_eq!((r.tag("event"), r.moves.len()), (Some("x"), 4));
    }

    #[test]
    fn results_in_english_words() {
        let tag = |t: &str| worded_result(t).map(|(k, v)| format!("{k} {v}"));
        for (text, expected) in [
            ("White won on time", "result W+T"),
            ("Black wins by resignation.", "result B+R"),
            ("White resigned", "result B+R"),
            ("black lost on time", "result W+T"),
            ("Black ran out of time", "result W+T"),
            ("White wins by 12", "result -12"),
            ("Black lost by 4 discs", "result -4"),
            ("White wins 40-24", "result 24-40"),
            ("Black won", "outcome 1-0"),
            ("White lost", "outcome 1-0"),
            ("Draw", "outcome 1/2-1/2"),
        ] {
            assert_eq!(tag(text).as_deref(), Some(expected), "{text}");
        }
        for text in ["White wins by 0", "White wins by 65", "Black wins on Tuesday", "Eve resigned"] {
            assert_eq!(tag(text), None, "{text}");
        }
        // A PGN Result tag in words gives the tags a result in figures gives.
        assert_eq!(result_tags("White won 34-30"), [("result", "-4".to_owned()), ("score", "30-34".to_owned())]);
        assert_eq!(result_tags("White won on time"), [("result", "W+T".to_owned())]);
        // After a transcript's moves, and in SGF's `RE`.
        let after = crate::notation::transcript::parse("f5 d6 c3 : White resigned").unwrap();
        assert_eq!(after.tag("result"), Some("B+R"));
        let sgf = crate::notation::sgf::parse("(;FF[4]GM[2]SZ[8]RE[White won on time];B[fe])").unwrap();
        assert_eq!(sgf.tag("result"), Some("W+T"));
        let sgf = crate::notation::sgf::parse("(;FF[4]GM[2]SZ[8]RE[White wins 40-24];B[fe])").unwrap();
        assert_eq!(sgf.tag("result"), Some("-16"));
    }

    #[test]
    fn results_in_japanese() {
        let tag = |t: &str| japanese_result(t).map(|(k, v)| format!("{k} {v}"));
        assert_eq!(tag("黒勝ち").as_deref(), Some("outcome 1-0"));
        assert_eq!(tag("白の4石勝ち").as_deref(), Some("result -4"));
        assert_eq!(tag("白の４石勝ち").as_deref(), Some("result -4"));
        assert_eq!(tag("黒2石負け").as_deref(), Some("result -2"));
        assert_eq!(tag("黒の負け").as_deref(), Some("outcome 0-1"));
        assert_eq!(tag("黒 12石 勝ち").as_deref(), Some("result +12"));
        assert_eq!(tag("引き分け").as_deref(), Some("result 0"));
        assert_eq!(tag("黒中押し勝ち").as_deref(), Some("result B+R"));
        assert_eq!(tag("白中押勝").as_deref(), Some("result W+R"));
        // Counts after a colour, that colour's first.
        assert_eq!(tag("黒33-31").as_deref(), Some("result +2"));
        assert_eq!(tag("白 34-30 黒").as_deref(), Some("result -4"));
        assert_eq!(tag("白３４－３０").as_deref(), Some("result -4"));
        assert_eq!(result_tags("黒33-31"), [("result", "+2".to_owned()), ("score", "33-31".to_owned())]);
        assert_eq!(tag("黒30 白34").as_deref(), Some("result -4"));
        assert_eq!(tag("白+4").as_deref(), Some("result -4"));
        // Chinese.
        assert_eq!(tag("白胜4子").as_deref(), Some("result -4"));
        assert_eq!(tag("黑胜").as_deref(), Some("outcome 1-0"));
        assert_eq!(tag("黑负2子").as_deref(), Some("result -2"));
        assert_eq!(tag("黑4子胜").as_deref(), Some("result +4"));
        assert_eq!(tag("白中盘胜").as_deref(), Some("result W+R"));
        assert_eq!(tag("和棋").as_deref(), Some("result 0"));
        for bad in
            ["黒", "白の石勝ち", "黒99石勝ち", "勝ち", "Black wins", "黒33-31黒", "黒33", "白+", "白+4石勝ち", "黑胜子"]
        {
            assert_eq!(tag(bad), None, "{bad}");
        }
        assert_eq!(parse("[Result \"白4石勝ち\"]\n1. f5").unwrap().tag("result"), Some("-4"));
    }

    #[test]
    fn numbers_that_do_not_follow_and_tags_given_twice_are_refused() {
        let e = parse("1. f5 d6 2. c3 d3 2. c4 f4").unwrap_err();
        assert!(e.message.starts_with("move number 2. where 3. was expected"), "{e:?}");
        assert_eq!((e.span.start, e.span.end), (18, 20));
        // One number per move is read too, and a tag given twice with one value.
        assert_eq!(parse("[White \"A\"]\n[White \"A\"]\n1. f5 2. d6 3. c3").unwrap().moves.len(), 3);
        // A record with a tag twice (GGF repeats properties) is written with its first value.
        let mut twice = parse("1. f5").unwrap();
        twice.tags.extend([("black_rating".into(), "1".into()), ("black_rating".into(), "2".into())]);
        assert_eq!(parse(&write(&twice)).unwrap().tag("black_rating"), Some("1"));
        // `?`, `*` and empty values say nothing, and spaces around a value do not count.
        let r =
            parse("[Black \"X\"]\n[Black \"?\"]\n[Black \"X \"]\n[Result \"*\"]\n[Result \"34-30\"]\n1. f5").unwrap();
        assert_eq!((r.tag("black"), r.tag("result")), (Some("X"), Some("+4")));
        let mut both = parse("1. f5").unwrap();
        both.tags.extend([("place".into(), "Paris".into()), ("site".into(), "ggs".into())]);
        assert_eq!(parse(&write(&both)).unwrap().tag("place"), Some("Paris"));
        let e = parse("[White \"A\"]\n[white \"B\"]\n1. f5").unwrap_err();
        assert_eq!(e.message, "the tag `white` again, with another value: \"A\", then \"B\"");
        assert_eq!(e.span.start, 12);
    }

    #[test]
    fn variations_are_skipped() {
        let r = parse("1. f5 (1. d3 c3 {a (b} (2. c4)) d6 ; (x\n 2. c3 *").unwrap();
        let moves: Vec<String> = r.moves.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(moves, ["f5", "d6", "c3"]);
        let e = parse("1. f5 (1. d3 c3 d6 2. c3").unwrap_err();
        assert!(e.message.contains("never closed"), "{e:?}");
        // Deep nesting is no stack overflow.
        assert!(parse(&format!("1. f5 {}{} d6", "(".repeat(100_000), ")".repeat(100_000))).is_ok());
    }

    #[test]
    fn evaluations_and_times_live_in_comments() {
        let r = parse("1. f5 {[%eval 2.5] good [%emt 1:02:03.5]} d6 {[%emt 7]} 2. c3 {[%eval x]}").unwrap();
        assert_eq!((r.moves[0].eval, r.moves[0].time), (Some(2.5), Some(3723.5)));
        assert_eq!(r.moves[0].comment.as_deref(), Some("good"));
        assert_eq!((r.moves[1].eval, r.moves[1].time, r.moves[1].comment.as_deref()), (None, Some(7.0), None));
        // Not a number: left in the comment as written.
        assert_eq!((r.moves[2].eval, r.moves[2].comment.as_deref()), (None, Some("[%eval x]")));
        assert!(write(&r).contains("1. f5 {[%eval 2.5] [%emt 1:02:03.5] good} 1... d6 {[%emt 0:00:07]}"));
        // Float noise is not written: GGF's 97.63 s is 1:37.63.
        assert_eq!(clock(97.63), "0:01:37.63");
        assert_eq!(clock(0.01), "0:00:00.01");
        assert_eq!(clock_seconds("0:01:37.63"), Some(97.63));
        assert_eq!(clock(7322.0), "2:02:02");
    }

    #[test]
    fn reads_tags_moves_comments_and_result() {
        let r = parse(GAME).unwrap();
        assert_eq!(r.tag("event"), Some(r#"Test "quoted" \ cup"#));
        assert_eq!(r.tag("place"), Some("Somewhere"));
        assert_eq!(r.tag("result"), Some("+2"));
        assert_eq!(r.tag("score"), Some("33-31"));
        assert_eq!(r.tag("black_rating"), Some("2001"));
        assert_eq!(r.tag("plycount"), Some("7"));
        assert_eq!(r.tag("comment"), Some("A sharp opening"));
        assert_eq!(squares(&r), ["f5", "d6", "c3", "d3", "c4", "f4", "pass", "pass", "pass"]);
        assert!(r.moves[2].upper);
        assert_eq!(r.moves[2].comment.as_deref(), Some("why?"));
        assert_eq!(r.moves[4].comment.as_deref(), Some("book ends"));
        let words: Vec<&str> = r.moves.iter().map(|t| &GAME[t.span.start..t.span.end]).collect();
        assert_eq!(words, ["f5", "d6", "C3", "d3", "c4", "f4", "pass", "PA", "@@"]);
        assert_eq!(parse(&write(&r)).unwrap().tags, r.tags);
    }

    #[test]
    fn results_placeholders_and_start_boards() {
        let r = parse("[Event \"?\"]\n[Round \"-\"]\n[Date \"????.??.??\"]\n[Result \"1-0\"]\n1. f5 1-0").unwrap();
        assert_eq!(r.tags, [("outcome".to_owned(), "1-0".to_owned())]);
        assert!(parse("1. f5 *").unwrap().tags.is_empty());
        assert_eq!(parse("1. f5 d6 30-34").unwrap().tag("result"), Some("-4"));
        assert!(parse("[Result \"1-0\"]\n1. f5 0-1").is_err());
        assert!(parse("[Result \"35-29\"]\n1. f5 0-1").is_err());
        // The same result written two ways agrees; the counts are kept from either side.
        assert_eq!(parse("[Result \"35-29\"]\n1. f5 1-0").unwrap().tag("score"), Some("35-29"));
        assert_eq!(parse("[Result \"1-0\"]\n1. f5 35-29").unwrap().tag("score"), Some("35-29"));
        // An unknown result in the movetext does not contradict the tag's.
        let r = parse("[Result \"33-31\"]\n1. f5 *").unwrap();
        assert_eq!((r.tag("result"), r.moves.len()), (Some("+2"), 1));
        // Results as people write them in the tag: counts, margins and words.
        for (written, tag, value) in [
            ("31:33", "score", "31-33"),
            ("31 - 33", "score", "31-33"),
            ("W+2", "result", "-2"),
            ("B+4", "result", "+4"),
            ("-2", "result", "-2"),
            ("White wins", "outcome", "0-1"),
            ("Draw", "outcome", "1/2-1/2"),
            ("1 - 0", "outcome", "1-0"),
            ("Black forfeits", "outcome", "Black forfeits"),
        ] {
            let r = parse(&format!("[Result \"{written}\"]\n1. f5")).unwrap();
            assert_eq!(r.tag(tag), Some(value), "{written}: {:?}", r.tags);
        }
        assert!(parse("[Result \"W+2\"]\n1. f5 1-0").is_err(), "a margin names its winner");
        assert!(parse("1. f5 1-0 d6").is_err());
        assert_eq!(parse("1. f5 (1... d6) 1-0").unwrap().moves.len(), 1, "a variation is skipped");
        assert!(parse("1. f5 1-0\n[Event \"next\"]").is_err());
        let fen = "---------------------------OX------XO--------------------------- O";
        let r = parse(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n1... f4")).unwrap();
        assert_eq!(r.start.as_ref().and_then(|b| b.side), Some(Color::White));
        assert_eq!(r.moves[0].color, None, "the board already says white moves first");
        assert!(write(&r).contains("\n1... f4"));
        let r = parse("1... d6 2. c3").unwrap();
        assert_eq!(r.moves[0].color, Some(Color::White));
        assert!(write(&r).ends_with("\n1... d6 2. c3 *\n"), "{}", write(&r));
        let err = parse("[FEN \"XO\"]").unwrap_err();
        assert!(err.message.starts_with("FEN:"), "{}", err.message);
    }

    #[test]
    fn reads_a_byte_order_mark_and_crlf() {
        let text = "\u{feff}[Black \"A\"]\r\n[White \"B\"]\r\n\r\n1. f5 d6 ; note\r\n2. c3 32-32\r\n";
        let r = parse(text).unwrap();
        assert_eq!(r.tag("white"), Some("B"));
        assert_eq!(r.tag("result"), Some("0"));
        assert_eq!(r.moves[1].comment.as_deref(), Some("note"));
        assert_eq!(&text[r.moves[2].span.start..r.moves[2].span.end], "c3");
    }

    #[test]
    fn errors_point_at_the_bad_token() {
        let err = parse("1. f5 x9 2. c3").unwrap_err();
        assert_eq!(err.span, Span { start: 6, end: 8 });
        assert!(parse("1. f5 {open").is_err());
        assert!(parse("[Event \"open]").is_err());
    }

    #[test]
    fn writes_a_margin_as_counts() {
        let mut r = Record::default();
        r.set_tag("result", "+4");
        assert!(write(&r).contains("[Result \"34-30\"]"));
        r.set_tag("result", "+3");
        assert!(write(&r).contains("[Result \"1-0\"]"));
        // The counts fill the board the rules tag names (6x6: 30-6 with +24).
        r.set_tag("result", "+24");
        r.set_tag("rules", "othello,size=6");
        assert!(write(&r).contains("[Result \"30-6\"]"), "{}", write(&r));
        // An anti-reversi margin (fewer discs wins) gives no counts: the winner only.
        r.set_tag("result", "-10");
        r.set_tag("rules", "anti,size=6");
        assert!(write(&r).contains("[Result \"0-1\"]"), "{}", write(&r));
    }

    #[test]
    fn tag_values_stay_on_one_line() {
        assert_eq!(tag_line("Event", "a\r\nb\nc\rd \"e\" \\"), "[Event \"a b c d \\\"e\\\" \\\\\"]\n");
        let mut r = Record::default();
        r.set_tag("event", "Cup\n[Event \"x\"]");
        r.set_tag("black", "A\r\nB");
        let text = write(&r);
        assert!(text.contains("[Event \"Cup [Event \\\"x\\\"]\"]\n"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!((back.tag("event"), back.tag("black")), (Some("Cup [Event \"x\"]"), Some("A B")));
    }

    fn value() -> impl Strategy<Value = String> {
        "[A-Za-z0-9][A-Za-z0-9 .:\"\\\\]{0,10}"
    }

    pub(crate) fn tokens(comments: bool) -> impl Strategy<Value = Vec<MoveToken>> {
        let token = (
            prop_oneof![
                1 => Just(MoveSyntax::Pass),
                6 => (0u8..16, 1u8..=16).prop_map(|(file, rank)| MoveSyntax::Square { file, rank })
            ],
            any::<bool>(),
            prop::option::of("[a-z?!]([a-z ,.]{0,12}[a-z])?"),
        )
            .prop_map(move |(mv, upper, comment)| MoveToken {
                mv,
                upper: upper && mv != MoveSyntax::Pass,
                comment: comment.filter(|_| comments),
                ..MoveToken::default()
            });
        prop::collection::vec(token, 0..70)
    }

    pub(crate) fn board() -> impl Strategy<Value = Option<BoardSyntax>> {
        prop::option::of(
            (prop::collection::vec(prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]), 64), 0u8..3)
                .prop_map(|(cells, side)| BoardSyntax {
                    unplayable: Vec::new(),
                    size: 8,
                    cells,
                    side: [None, Some(Color::Black), Some(Color::White)][usize::from(side)],
                }),
        )
    }

    /// A result: none, disc counts (with the margin) or an outcome.
    pub(crate) fn result() -> impl Strategy<Value = Vec<(String, String)>> {
        prop_oneof![
            Just(vec![]),
            (0i32..=64, 0i32..=64)
                // (`0-0` is a double forfeit, no count.)
                .prop_filter("not 1-0", |&(b, w)| ![(1, 0), (0, 1), (0, 0)].contains(&(b, w)))
                .prop_map(|(b, w)| vec![("result".into(), signed(b - w)), ("score".into(), format!("{b}-{w}"))]),
            prop::sample::select(vec!["1-0", "0-1", "1/2-1/2"]).prop_map(|o| vec![("outcome".into(), o.into())]),
        ]
    }

    prop_compose! {
        fn records()(
            roster in prop::collection::vec(prop::option::of(value()), 6),
            result in result(),
            known in prop::collection::vec(prop::option::of(value()), 5),
            extra in prop::collection::btree_map("x_[a-z]{1,6}", value(), 0..3),
            comment in prop::option::of("[a-z]([a-z ]{0,10}[a-z])?"),
            start in board(),
            mut moves in tokens(true),
            white_first in any::<bool>(),
        ) -> Record {
            let mut tags: Vec<(String, String)> = Vec::new();
            for (name, v) in ["event", "place", "date", "round", "black", "white"].iter().zip(roster) {
                tags.extend(v.map(|v| (name.to_string(), v)));
            }
            tags.extend(result);
            for (name, v) in ["time", "start_time", "black_rating", "white_rating", "variant"].iter().zip(known) {
                tags.extend(v.map(|v| (name.to_string(), v)));
            }
            tags.extend(extra);
            tags.extend(comment.map(|c| ("comment".to_owned(), c)));
            let start_white = start.as_ref().and_then(|b| b.side) == Some(Color::White);
            if let Some(first) = moves.first_mut() {
                first.color = (white_first && !start_white).then_some(Color::White);
            }
            Record { tags, start, moves }
        }
    }

    proptest! {
        #[test]
        fn write_then_parse_gives_the_record_back(record in records()) {
            let text = write(&record);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?.without_layout();
            prop_assert_eq!(&back, &record, "{}", text);
            prop_assert!(text.lines().filter(|l| !l.starts_with('[')).all(|l| l.chars().count() < 80), "{}", text);
        }

        #[test]
        fn evaluations_and_times_come_back_exactly(eval in -64.0f64..64.0, time in 0.0f64..20_000.0) {
            let mut record = parse("1. f5 d6").unwrap();
            record.moves[1].eval = Some(eval);
            record.moves[1].time = Some(time);
            let back = parse(&write(&record)).unwrap();
            prop_assert_eq!((back.moves[1].eval, back.moves[1].time), (Some(eval), Some(time)));
            prop_assert_eq!(&back.moves[1].comment, &None);
        }

        #[test]
        fn never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }

        #[test]
        fn never_panics_on_pgn_like_text(text in "[\\[\\]\"\\\\{};%a-hA-Z1-9. \n*/-]{0,200}") {
            let _ = parse(&text);
        }
    }
}
