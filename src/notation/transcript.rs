//! Transcripts: a game as a line of moves.
//!
//! Read: compact (`f5d6c3`), spaced (`f5 d6 c3`), numbered (`1. f5 d6 2. c3`, `1.F5 2.d6`; a
//! number behind the moves before it is an error), any
//! case (kept per move, since some transcripts mark colour by case), colour-signed (`+d3-c3`, as in
//! Logistello's logbook), dashed (`f5-d6-c3`, `f5 - d6`: after a first square without a sign, a
//! `-` separates moves; full-width, en and em dashes always do), full-width (`Ｆ５ｄ６`, `１．Ｆ５`,
//! as Japanese input writes them), pass tokens (`pass`, `(pass)`, `passe`, `PA`, `PS`, `P`
//! alone, `--`, `@@`, `パス`, `(パス)`, half-width `ﾊﾟｽ`),
//! `{comments}` or `（コメント）` after a move, a trailing score (`: -04 10`, kept as the tags
//! `result` and `extra`), a result alone after the moves (`35-29` or `B+2` as `result`, `1-0` as
//! `outcome`; in Japanese, `白の4石勝ち`, as either, also after the counts, `41-23 黒勝ち`, which it
//! must agree with) and a trailing name after two spaces, a tab
//! or a full-width space, or one space before a name in another script (`F5d6C3d3C4   Tiger`,
//! `f5d6 山田`, the tag `name`; nothing square-like in it), after a result too. Ranks up to 16 (`a10`, `p16`). Written back compact, spaced or numbered.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_until, take_while1};
use nom::character::complete::{one_of, satisfy};
use nom::combinator::{eof, not, opt, peek, recognize, value};
use nom::sequence::terminated;
use nom::{IResult, Parser};

use super::narrow;
use super::numbering::Numbering;
use super::{MoveNumber, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::Color;

/// Parses one transcript: a line of moves (or a numbered game over several lines), perhaps
/// under header lines of `key: value` pairs (`Black: Ann`, `White: Bob`, `Event: Club night`,
/// `Result: 16-47`; the keys of a kifu grid's header, in the same languages).
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    // (Most transcripts start with a square or a sign, never a header's key: the common
    // path, the logbook's lines among them, skips the look for header lines.)
    let head = text.trim_start();
    if starts_square(head.as_bytes()) || head.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-') {
        return parse_moves(text);
    }
    let (mut tags, at) = header(text)?;
    if at == 0 {
        return parse_moves(text);
    }
    // Lines under the moves: a result (`Result: 16-47`), `White first`.
    let mut end = text.len();
    let mut footer = Vec::new();
    while let Some(i) = text[..end].trim_end().rfind('\n').filter(|&i| i >= at)
        && let Some(read) = super::kifu::header_line(&text[i + 1..end], i + 1)
    {
        footer.splice(0..0, read?);
        end = i + 1;
    }
    let shift = |span: Span| Span { start: span.start + at, end: span.end + at };
    // Header lines alone that name both players, and state no result or a winner alone (no
    // disc count but a whole board's), are a game of no moves: one not begun yet (a live game's
    // sheet), or a forfeit.
    let mut record = if text[at..end].trim().is_empty() {
        let has = |key: &str| tags.iter().chain(&footer).any(|(k, _)| k == key);
        let stated = tags.iter().chain(&footer).find(|(k, _)| k == "result" || k == "outcome");
        let forfeit = |(_, v): &(String, String)| {
            super::check::stated_result(v, 64)
                .is_some_and(|r| r.winner.is_some() && r.margin.is_none_or(|m| m.abs() == 64))
        };
        if !(has("black") && has("white") && stated.is_none_or(forfeit)) {
            let end = text.trim_end().len();
            return Err(SyntaxError {
                span: Span { start: end - text[..end].lines().last().map_or(0, str::len), end },
                message: "header lines with no moves after them".to_owned(),
            });
        }
        Record::default()
    } else {
        parse_moves(&text[at..end]).map_err(|e| SyntaxError { span: shift(e.span), ..e })?
    };
    for m in &mut record.moves {
        m.span = shift(m.span);
        if let Some(n) = &mut m.number {
            n.span = shift(n.span);
        }
    }
    // A result after the moves, on their line or under them, must agree with the header's.
    let stated =
        |tags: &[(String, String)]| tags.iter().find(|(k, _)| k == "result" || k == "outcome").map(|(_, v)| v.clone());
    record.tags.append(&mut footer);
    if let (Some(header), Some(after)) = (stated(&tags), stated(&record.tags))
        && !super::pgn::results_agree(&header, &after)
    {
        let moves = text[at..].trim();
        let start = at + text[at..].find(moves).unwrap_or(0);
        return Err(SyntaxError {
            span: Span { start, end: start + moves.len() },
            message: format!("the result after the moves, {after}, and the header's, {header}, disagree"),
        });
    }
    tags.append(&mut record.tags);
    record.tags = tags;
    // `White first` over or under the moves: the standard start with that side to move.
    if let Some(at) = record.tags.iter().position(|(k, _)| k == "first") {
        let (_, side) = record.tags.remove(at);
        let mut start = super::kifu::standard_start();
        start.side = side.parse().ok();
        record.start = Some(start);
        record.tags.retain(|(k, _)| k != "first");
    }
    Ok(record)
}

/// The tags of the header lines at the start of `text` and where the moves start after them
/// (0 without header lines).
fn header(text: &str) -> Result<(Vec<(String, String)>, usize), SyntaxError> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut at = 0;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        if line.trim().is_empty() {
            continue;
        }
        let Some(read) = super::kifu::header_line(line, start) else { break };
        for (tag, value) in read? {
            let result = |k: &str| k == "result" || k == "outcome";
            if result(&tag)
                && let Some((_, before)) = tags.iter().find(|(k, _)| result(k))
                && !super::pgn::results_agree(before, &value)
            {
                return Err(SyntaxError {
                    span: Span { start, end: start + line.trim_end().len() },
                    message: format!("`{}` and the result before it, {before}, disagree", line.trim()),
                });
            }
            tags.push((tag, value));
        }
        at = pos;
    }
    Ok((tags, at))
}

/// Parses a transcript's moves and what follows them on their line.
fn parse_moves(text: &str) -> Result<Record, SyntaxError> {
    parse_plain(text).map_or_else(|| parse_full(text), Ok)
}

/// The whole grammar (the slow twin of [`parse_plain`]).
fn parse_full(text: &str) -> Result<Record, SyntaxError> {
    let mut record = Record::default();
    let mut numbering = Numbering::default();
    // The move number written before the next move.
    let mut number = None;
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | '、'));
        let offset = text.len() - rest.len();
        if rest.is_empty() {
            return Ok(record);
        }
        // A dash standing alone between moves (`f5 - d6`), or a dash that is never a colour sign
        // (full-width, en or em: `ｆ５－ｄ６`, `f5–d6`).
        if let Some(after) = rest
            .strip_prefix('-')
            .filter(|a| a.starts_with(char::is_whitespace))
            .or_else(|| rest.strip_prefix(['－', '–', '—']))
            && !record.moves.is_empty()
        {
            rest = after;
            continue;
        }
        if let Ok((after, written)) = move_number(rest) {
            let digits: String = written.chars().map(narrow).take_while(char::is_ascii_digit).collect();
            let span = Span { start: offset, end: offset + written.len() };
            let continuation = written.ends_with("...");
            let value =
                numbering.see(&digits, continuation, &record.moves).map_err(|message| SyntaxError { span, message })?;
            number = Some(MoveNumber { value, continuation, span });
            rest = after;
            continue;
        }
        // A comment: `{good}`, or in full-width brackets as Japanese input writes one (`（中割り）`).
        if let Some((open, close, body)) =
            rest.strip_prefix('{').map(|b| ("{", "}", b)).or_else(|| rest.strip_prefix('（').map(|b| ("（", "）", b)))
        {
            let (after, comment) =
                take_until::<_, _, nom::error::Error<&str>>(close).parse(body).map_err(|_| SyntaxError {
                    span: Span { start: offset, end: text.len() },
                    message: format!("a `{open}` comment is never closed"),
                })?;
            match record.moves.last_mut() {
                Some(last) => last.comment = Some(comment.trim().to_owned()),
                None => record.tags.push(("comment".into(), comment.trim().to_owned())),
            }
            rest = &after[close.len()..];
            continue;
        }
        if let Some(tail) = rest.strip_prefix(':') {
            push_score(&mut record, tail);
            return Ok(record);
        }
        match token(rest) {
            // (`P` as a name's initial after the moves: `f5d6  P Smith`.)
            Ok((after, _)) if rest.len() - after.len() == 1 && is_trailing_name(text, offset, &record) => {
                record.tags.push(("name".into(), text[offset..].trim().to_owned()));
                return Ok(record);
            }
            Ok((after, (mv, mut color, upper))) => {
                let mut span = Span { start: offset, end: text.len() - after.len() };
                if color == Some(Color::White) && dashes_separate(&record) {
                    color = None;
                    span.start += 1;
                }
                record.moves.push(MoveToken { mv, span, color, upper, number: number.take(), ..MoveToken::default() });
                rest = after;
            }
            Err(_) if let Some(tag) = trailing_result(rest, &record) => {
                record.tags.push(tag);
                return Ok(record);
            }
            // A result, then a name after two spaces or a tab (`... a1 33-31  Smith - Jones`).
            Err(_) if let Some((tag, at)) = result_before_name(text, offset, &record) => {
                let after = text[at..].trim();
                // The result again in Japanese (`41-23 黒勝ち`, perhaps before a name) is no
                // name; it must agree.
                let word = after.split(char::is_whitespace).next().unwrap_or("");
                if super::pgn::japanese_result(word).is_some() {
                    if !super::pgn::results_agree(&tag.1, word) {
                        return Err(SyntaxError {
                            span: Span { start: at, end: at + word.len() },
                            message: format!("`{word}` and the result before it, {}, disagree", tag.1),
                        });
                    }
                    record.tags.push(tag);
                    let name = after[word.len()..].trim();
                    if !name.is_empty() {
                        record.tags.push(("name".into(), name.to_owned()));
                    }
                    return Ok(record);
                }
                record.tags.extend([tag, ("name".into(), after.to_owned())]);
                return Ok(record);
            }
            Err(_) if is_trailing_name(text, offset, &record) => {
                record.tags.push(("name".into(), text[offset..].trim().to_owned()));
                return Ok(record);
            }
            Err(_) => return Err(after_result(rest, offset, &record).unwrap_or_else(|| unexpected(text, offset))),
        }
    }
}

/// A square read by [`scan_plain`]: file, rank, colour sign, span, upper case.
pub type PlainMove = (u8, u8, Option<Color>, Span, bool);

/// Reads the common transcript shapes with a byte loop and no allocation: squares (`f5`, `F5`,
/// `a10`), optionally signed (`+d3-c3`), separated by nothing, spaces or commas, and an optional
/// `: result extra` tail, whose text it returns. Each square goes to `on_move`. A `-` after a
/// first move without a sign separates moves (`f5-d6-c3`) instead of giving the next to white.
/// `None` for anything else (numbers, passes, comments, names), which [`parse`]'s full grammar
/// reads.
pub fn scan_plain(text: &str, mut on_move: impl FnMut(PlainMove)) -> Option<Option<&str>> {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Whether the first move came without a sign (None before it).
    let mut first_unsigned = None;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' {
            i += 1;
            continue;
        }
        if b == b':' {
            return Some(Some(&text[i + 1..]));
        }
        let mut start = i;
        let mut color = match b {
            b'+' => Some(Color::Black),
            b'-' => Some(Color::White),
            _ => None,
        };
        if color.is_some() {
            i += 1;
        }
        if color == Some(Color::White) && first_unsigned == Some(true) {
            color = None;
            start = i;
        }
        first_unsigned.get_or_insert(color.is_none());
        let letter = *bytes.get(i)?;
        let file = letter.to_ascii_lowercase().wrapping_sub(b'a');
        if file >= 16 {
            return None;
        }
        let d1 = bytes.get(i + 1)?.wrapping_sub(b'0');
        if !(1..=9).contains(&d1) {
            return None;
        }
        i += 2;
        let mut rank = d1;
        if d1 == 1
            && let Some(d2) = bytes.get(i).map(|d| d.wrapping_sub(b'0')).filter(|&d| d <= 6)
        {
            rank = 10 + d2;
            i += 1;
        }
        if bytes.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        on_move((file, rank, color, Span { start, end: i }, letter.is_ascii_uppercase()));
    }
    Some(None)
}

/// [`scan_plain`] into a record (the fast twin of [`parse_full`]).
fn parse_plain(text: &str) -> Option<Record> {
    let mut record = Record::default();
    record.moves.reserve(text.len() / 2);
    let tail = scan_plain(text, |(file, rank, color, span, upper)| {
        record.moves.push(MoveToken {
            mv: MoveSyntax::Square { file, rank },
            span,
            color,
            upper,
            ..MoveToken::default()
        });
    })?;
    if let Some(tail) = tail {
        push_score(&mut record, tail);
    }
    Some(record)
}

/// The `: result extra` tail as the tags `result` and `extra`.
fn push_score(record: &mut Record, tail: &str) {
    // A result in words (`: White resigned`, `: Black wins by 4`, `: draw`) is the whole tail.
    if let Some((tag, value)) = super::pgn::worded_result(tail).filter(|_| in_words(tail)) {
        record.tags.push((tag.into(), value));
        return;
    }
    let mut words = tail.split_whitespace();
    if let Some(result) = words.next() {
        let (tag, value) = super::pgn::japanese_result(result)
            .or_else(|| is_outcome(result).then(|| ("outcome", result.to_owned())))
            .unwrap_or(("result", result.to_owned()));
        record.tags.push((tag.into(), value));
    }
    let extra: Vec<&str> = words.collect();
    if !extra.is_empty() {
        record.tags.push(("extra".into(), extra.join(" ")));
    }
}

/// Whether the tail after `:` may be a result in words: more than one word, or one of letters
/// alone (`draw`; not `W+R` or `+12`, which are results of their own forms).
#[must_use]
pub fn in_words(tail: &str) -> bool {
    let tail = tail.trim();
    tail.contains(' ') || !tail.is_empty() && tail.chars().all(char::is_alphabetic)
}

/// Whether `word` is a winner in PGN's form (`1-0`, `0-1`, `1/2-1/2`), read as the tag `outcome`
/// after `:` as after the moves.
#[must_use]
pub fn is_outcome(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2")
}

/// Whether a `-` before the next move separates it from the one before (`f5-d6-c3`) rather than
/// giving it to white: the first square came without a colour sign (passes carry none).
fn dashes_separate(record: &Record) -> bool {
    record.moves.iter().find(|m| m.mv != MoveSyntax::Pass).is_some_and(|m| m.color.is_none())
}

/// A result written alone after the moves, as players add it (`... a1 35-29`, `... a1 1-0`): the
/// tag `result` for disc counts (as after `:`), `outcome` for a winner; `None` for anything else.
fn trailing_result(rest: &str, record: &Record) -> Option<(String, String)> {
    let trimmed = rest.trim();
    if record.moves.is_empty() {
        return None;
    }
    // Counts after a colour, spaced as they come (`黒 41-23 白`).
    if let Some((black, white)) = super::pgn::japanese_counts(trimmed) {
        return Some(("result".into(), format!("{black}-{white}")));
    }
    if let Some(tag) = super::pgn::worded_result(trimmed) {
        return Some((tag.0.into(), tag.1));
    }
    if trimmed.contains(char::is_whitespace) {
        return None;
    }
    // In ASCII, as full-width input writes it too (`３３－３１`).
    let word: String = trimmed.chars().map(narrow).collect();
    let word = word.as_str();
    if let Some((tag, value)) = super::pgn::japanese_result(word) {
        return Some((tag.into(), value));
    }
    match word {
        _ if is_outcome(word) => Some(("outcome".into(), word.to_owned())),
        // SGF's win by resignation or on time, or its winner alone (`W+R`, `B+T`, `B+`).
        _ if super::win_without_margin(word).is_some() => Some(("result".into(), word.to_owned())),
        _ if super::pgn::margin(word).is_some() && !word.starts_with(['+', '-']) => {
            Some(("result".into(), word.to_owned()))
        }
        _ => super::pgn::counts(word).map(|_| ("result".into(), word.to_owned())),
    }
}

/// The error for a result after the moves followed by something that is not a name (`44-20
/// draw`): the words after the result, not the result, are what cannot be read.
fn after_result(rest: &str, offset: usize, record: &Record) -> Option<SyntaxError> {
    let word_end = rest.find(char::is_whitespace)?;
    let (word, after) = (&rest[..word_end], rest[word_end..].trim_start());
    trailing_result(word, record)?;
    let start = offset + rest.len() - after.len();
    let end = offset + rest.trim_end().len();
    Some(SyntaxError {
        span: Span { start, end },
        message: format!(
            "`{}` after the result `{word}` is neither that result in words nor a name (a name after a \
             result follows two spaces or a tab)",
            after.trim_end()
        ),
    })
}

/// A result after the moves followed by a name ([`is_trailing_name`]): the result's tag and
/// where the name starts.
fn result_before_name(text: &str, offset: usize, record: &Record) -> Option<((String, String), usize)> {
    let rest = &text[offset..];
    let word_end = rest.find(char::is_whitespace)?;
    let tag = trailing_result(&rest[..word_end], record)?;
    let at = offset + word_end + rest[word_end..].len() - rest[word_end..].trim_start().len();
    is_trailing_name(text, at, record).then_some((tag, at))
}

/// Whether the text at `offset` is a name after the moves (`F5d6C3d3C4   Tiger`, `8-Shot`, as
/// opening lists write them): at least two spaces, a tab or a full-width space before it (one
/// space before a name in another script: `f5d6 山田`), moves before it, starting
/// with a letter or a digit, its first word not a score (`29-35`), and nothing square-like (a
/// letter then a digit) anywhere in it: a garbled move (`bb3`, `(b3)`, `c4!`, `3a` rank first) followed by the
/// rest of the game is an error at that move, never a name.
fn is_trailing_name(text: &str, offset: usize, record: &Record) -> bool {
    let before = &text[..offset];
    let rest = &text[offset..];
    // One space is enough before a name in another script than the moves' Latin (`f5d6  Tiger`,
    // `f5d6 山田`; `f5d6 Éloïse` is a bad move).
    let gap = before.ends_with("  ")
        || before.ends_with(['\t', '\u{3000}'])
        || before.ends_with(' ') && rest.starts_with(|c: char| c.is_alphabetic() && !is_latin(narrow(c)));
    let starts_well = rest.starts_with(|c: char| c.is_alphanumeric());
    // Full-width letters and digits as the ASCII ones they stand for (`ｘ３` is square-like).
    let rest: Vec<char> = rest.chars().map(narrow).collect();
    let score = rest
        .split(|c| c.is_whitespace())
        .find(|w| !w.is_empty())
        .is_some_and(|w| w.iter().all(|&c| c.is_ascii_digit() || "-:+.".contains(c)));
    // A Latin letter then a digit, or a square written rank first (`3a`).
    let square_like = rest.windows(2).any(|w| is_latin(w[0]) && w[1].is_ascii_digit())
        || rest.split(|c| c.is_whitespace()).any(|w| w.len() == 2 && w[0].is_ascii_digit() && is_latin(w[1]));
    gap && !record.moves.is_empty() && starts_well && !score && !square_like
}

/// Whether a character is a letter of the Latin script (accented ones too), which moves are
/// written in.
fn is_latin(c: char) -> bool {
    c.is_alphabetic() && u32::from(c) < 0x250
}

fn unexpected(text: &str, offset: usize) -> SyntaxError {
    let rest = &text[offset..];
    // A move number with a letter O for a zero (`1O.`).
    let number = rest.bytes().take_while(|c| c.is_ascii_digit() || matches!(c, b'o' | b'O')).count();
    if rest.starts_with(|c: char| c.is_ascii_digit())
        && rest[..number].contains(['o', 'O'])
        && rest[number..].starts_with(['.', ')'])
    {
        let meant = format!("{}{}", rest[..number].replace(['o', 'O'], "0"), &rest[number..=number]);
        let message =
            format!("`{}` is not a move: {meant}? (a letter O for the digit 0 in a move number)", &rest[..=number]);
        return SyntaxError { span: Span { start: offset, end: offset + number + 1 }, message };
    }
    if let Some((len, square, why)) = likely_square(rest) {
        let message = format!("`{}` is not a move: {square}? ({why})", &rest[..len]);
        return SyntaxError { span: Span { start: offset, end: offset + len }, message };
    }
    let word = rest.chars().take_while(|c| !c.is_whitespace() && *c != ':').take(12);
    // In a compact transcript the bad token is its letters up to the next square and their
    // digits (`x3`, `pas` of `pasc3`), after a colour sign if it has one (`-zz` of `-zz+c2`),
    // not the rest of the line.
    let sign = usize::from(rest.starts_with(['+', '-']));
    let bad: String = match rest[sign..].chars().next() {
        Some(c) if c.is_ascii_alphabetic() => {
            let b = &rest.as_bytes()[sign..];
            let letters =
                1 + (1..b.len()).take_while(|&i| b[i].is_ascii_alphabetic() && !starts_square(&b[i..])).count();
            let digits = rest[sign + letters..].chars().take_while(char::is_ascii_digit).take(2).count();
            rest[..sign + letters + digits].to_owned()
        }
        _ => word.collect(),
    };
    let end = offset + bad.len();
    // Control characters shown as escapes, which a terminal would not show at all.
    let shown: String =
        bad.chars().map(|c| if c.is_control() { c.escape_unicode().to_string() } else { c.to_string() }).collect();
    let message = if bad.starts_with(|c: char| c.is_ascii_alphabetic()) && bad[1..].starts_with('0') {
        format!("`{shown}`: ranks start at 1")
    } else {
        format!(
            "`{shown}` is not a move (a square like f5, or a pass: pass, (pass), passe, PA, PS, P, --, @@, パス, ﾊﾟｽ)"
        )
    };
    SyntaxError { span: Span { start: offset, end }, message }
}

/// The square a bad token typed by hand likely means, with its length and why: a letter `l`
/// or `I` for the digit 1 (`dl`), the rank before the file (`5c`), a space inside the square
/// (`g 4`).
fn likely_square(rest: &str) -> Option<(usize, String, &'static str)> {
    let b = rest.as_bytes();
    let file = |c: u8| c.is_ascii_alphabetic() && c.to_ascii_lowercase() <= b'p';
    let rank = |c: u8| (b'1'..=b'9').contains(&c);
    let ends = |i: usize| b.get(i).is_none_or(|c| !c.is_ascii_digit());
    match (b.first().copied()?, b.get(1).copied()) {
        (f, Some(b'l' | b'I' | b'|')) if file(f) && ends(2) => {
            Some((2, format!("{}1", f as char), "a letter for the digit 1"))
        }
        (r, Some(f)) if rank(r) && file(f) && ends(2) => {
            Some((2, format!("{}{}", f as char, r as char), "the rank written before the file"))
        }
        (f, Some(b' ')) if file(f) => {
            let digits = rest[1..].trim_start_matches(' ');
            let at = rest.len() - digits.len();
            let d = *digits.as_bytes().first()?;
            (rank(d) && ends(at + 1))
                .then(|| (at + 1, format!("{}{}", f as char, d as char), "a space inside the square"))
        }
        _ => None,
    }
}

/// `12.`, `12...`, `12)`, `１２．` (full width).
fn move_number(input: &str) -> IResult<&str, &str> {
    let digits = take_while1(|c| narrow(c).is_ascii_digit());
    recognize(terminated(digits, alt((tag("..."), tag("."), tag(")"), tag("．"), tag("）"))))).parse(input)
}

/// Whether `word` is moves alone (`pass`, `PAPA`, `passe`, `パス`, `f5`).
pub(crate) fn is_moves(word: &str) -> bool {
    parse_moves(word).is_ok_and(|r| !r.moves.is_empty() && r.tags.is_empty())
}

/// A pass, or an optionally signed square.
fn token(input: &str) -> IResult<&str, (MoveSyntax, Option<Color>, bool)> {
    let pass = value(
        (MoveSyntax::Pass, None, false),
        alt((
            tag_no_case("(pass)"),
            tag("(パス)"),
            // French, as a word of its own (`passe3` is `pass` and `e3`).
            terminated(tag_no_case("passe"), peek(not(satisfy(|c: char| c.is_alphanumeric())))),
            tag_no_case("pass"),
            tag_no_case("pa"),
            tag_no_case("ps"),
            tag("--"),
            tag("@@"),
            tag("パス"),
            tag("ﾊﾟｽ"),
            // `P` as a word of its own (`f5 d6 P c3`), never a file letter: `p1` is a square.
            terminated(tag_no_case("p"), peek(alt((eof, recognize(satisfy(|c| c.is_whitespace() || c == ',')))))),
        )),
    );
    let signed = (opt(one_of("+-")), square).map(|(sign, (mv, upper))| {
        let color = sign.map(|s| if s == '+' { Color::Black } else { Color::White });
        (mv, color, upper)
    });
    let (rest, found) = alt((pass, signed)).parse(input)?;
    // A pass token is a word of its own or runs into the next square or pass (`PAd3`, `PAPA`),
    // never into a word (`Parallel`, an opening's name).
    let b = rest.as_bytes();
    let next_pass = b.len() >= 2 && matches!(&[b[0].to_ascii_lowercase(), b[1].to_ascii_lowercase()], b"pa" | b"ps");
    let into_a_word = b.first().is_some_and(u8::is_ascii_alphabetic) && !starts_square(b) && !next_pass;
    if found.0 == MoveSyntax::Pass && into_a_word {
        return Err(nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Verify)));
    }
    Ok((rest, found))
}

/// Whether `b` starts like a square: a file letter `a`-`p` (either case) then a digit.
fn starts_square(b: &[u8]) -> bool {
    b.first().is_some_and(|c| c.is_ascii_alphabetic() && c.to_ascii_lowercase() <= b'p')
        && b.get(1).is_some_and(u8::is_ascii_digit)
}

/// A file letter `a`-`p` (either case) and a rank 1-16, in ASCII or full width.
fn square(input: &str) -> IResult<&str, (MoveSyntax, bool)> {
    let (rest, letter) = satisfy(|c| {
        let c = narrow(c);
        c.is_ascii_alphabetic() && ('a'..='p').contains(&c.to_ascii_lowercase())
    })
    .parse(input)?;
    let letter = narrow(letter);
    let (rest, first) = satisfy(|c| ('1'..='9').contains(&narrow(c))).parse(rest)?;
    let mut rank = narrow(first) as u8 - b'0';
    let mut rest = rest;
    // Greedy second digit when it keeps the rank within 16 (`a10` .. `a16`), or when the token
    // ends there (`a17 `: a rank off every board, which the replay names, not `a1` and `7`).
    if let Some(d) = rest.chars().next().filter(|&d| narrow(d).is_ascii_digit()) {
        let two = rank * 10 + (narrow(d) as u8 - b'0');
        let ends = rest[d.len_utf8()..].chars().next().is_none_or(|c| !narrow(c).is_ascii_alphanumeric());
        if (rank == 1 && two <= 16) || ends {
            rank = two;
            rest = &rest[d.len_utf8()..];
        }
    }
    let file = letter.to_ascii_lowercase() as u8 - b'a';
    Ok((rest, (MoveSyntax::Square { file, rank }, letter.is_ascii_uppercase())))
}

/// How a transcript is laid out when written.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Style {
    /// `f5d6c3` (passes as `PA`).
    #[default]
    Compact,
    /// `f5 d6 c3`.
    Spaced,
    /// `1. f5 2. d6 3. c3`: one number per move, as Othello numbers them.
    Numbered,
}

/// Writes a record as one line; [`parse`] reads it back to the same moves, colours, cases,
/// comments and score tags (but white's `-` signs after a first square without one, which read
/// as separators).
#[must_use]
pub fn write(record: &Record, style: Style) -> String {
    let mut out = String::new();
    for (i, t) in record.moves.iter().enumerate() {
        match style {
            Style::Compact => {}
            Style::Spaced if i > 0 => out.push(' '),
            Style::Spaced => {}
            Style::Numbered => {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{}. ", i + 1));
            }
        }
        if let Some(color) = t.color {
            out.push(if color == Color::Black { '+' } else { '-' });
        }
        match t.mv {
            MoveSyntax::Pass => out.push_str(if style == Style::Compact { "PA" } else { "pass" }),
            MoveSyntax::Square { file, rank } => {
                let letter = (b'a' + file) as char;
                out.push(if t.upper { letter.to_ascii_uppercase() } else { letter });
                out.push_str(&rank.to_string());
            }
        }
        if let Some(comment) = &t.comment {
            out.push_str(&format!(" {{{comment}}} "));
        }
    }
    if let Some(result) = record.tag("result") {
        out.push_str(": ");
        out.push_str(result);
        if let Some(extra) = record.tag("extra") {
            out.push(' ');
            out.push_str(extra);
        }
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Passes, Rules};
    use proptest::prelude::*;

    #[test]
    fn japanese_around_the_moves() {
        for (text, moves, tag) in [
            ("f5d6c3d3c4 山田", 5, ("name", "山田")),
            ("f5d6c3d3c4　黒勝ち", 5, ("outcome", "1-0")),
            ("f5 d6 c3 d3 c4 白の4石勝ち", 5, ("result", "-4")),
            ("f5d6c3d3c4: 白の4石勝ち", 5, ("result", "-4")),
            ("f5 パス d6", 3, ("comment", "")),
            ("f5（中割り）d6", 2, ("comment", "")),
        ] {
            let r = parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(r.moves.len(), moves, "{text}");
            match tag {
                ("comment", _) => {}
                (name, value) => assert_eq!(r.tag(name), Some(value), "{text}"),
            }
        }
        // The result again in Japanese after the counts: no name, and it must agree.
        let r = parse("f5d6c3d3c4 41-23 黒勝ち").unwrap();
        assert_eq!((r.tag("result"), r.tag("name"), r.tag("outcome")), (Some("41-23"), None, None));
        assert_eq!(parse("f5d6c3d3c4 41-23 黒18石勝ち").unwrap().tag("name"), None);
        assert_eq!(parse("f5d6c3d3c4 41-23  山田").unwrap().tag("name"), Some("山田"));
        for wrong in ["f5d6c3d3c4 41-23 白勝ち", "f5d6c3d3c4 41-23 黒16石勝ち", "f5d6c3d3c4 1-0 引き分け"] {
            let e = parse(wrong).unwrap_err();
            assert!(e.message.ends_with("disagree"), "{wrong}: {e:?}");
            assert_eq!(&wrong[e.span.start..e.span.end], wrong.rsplit(' ').next().unwrap());
        }
        assert_eq!(parse("f5d6c3d3c4 黒33-31").unwrap().tag("result"), Some("33-31"));
        // Before a name, with closing punctuation, spaced counts.
        let r = parse("f5d6c3d3c4 41-23 黒勝ち  山田").unwrap();
        assert_eq!((r.tag("result"), r.tag("name")), (Some("41-23"), Some("山田")));
        assert!(parse("f5d6c3d3c4 41-23 白勝ち  山田").unwrap_err().message.starts_with("`白勝ち` and the result"));
        assert!(parse("f5d6c3d3c4 41-23 白の勝ち！").is_err());
        assert_eq!(parse("f5d6c3d3c4 41-23 黒の勝ち！").unwrap().tag("name"), None);
        assert_eq!(parse("f5d6c3d3c4 黒 41-23 白").unwrap().tag("result"), Some("41-23"));
        assert_eq!(parse("f5d6c3d3c4 白 23-41").unwrap().tag("result"), Some("41-23"));
        let r = parse("f5（中割り）d6 パス").unwrap();
        assert_eq!(r.moves[0].comment.as_deref(), Some("中割り"));
        assert_eq!(r.moves[2].mv, MoveSyntax::Pass);
        assert!(parse("f5（中割り d6").unwrap_err().message.contains("`（` comment is never closed"));
    }

    #[test]
    fn move_numbers_must_follow_from_the_moves() {
        assert_eq!(squares(&parse("1. f5 2. d6 3. c3").unwrap()), ["f5", "d6", "c3"]);
        assert_eq!(squares(&parse("１．ｆ５　２．ｄ６").unwrap()), ["f5", "d6"]);
        let e = parse("1. f5 2. d6 3. c3 3. d3").unwrap_err();
        assert!(e.message.starts_with("move number 3. where 4. was expected"), "{e:?}");
        assert_eq!((e.span.start, e.span.end), (18, 20));
        let e = parse("1. f5 d6 2. c3 d3 3. c4 3. f4").unwrap_err();
        assert!(e.message.starts_with("move number 3. where 3... was expected"), "{e:?}");
        // A number ahead may stand for a pass left out: replay decides.
        assert_eq!(parse("1. f5 2. d6 4. c3").unwrap().moves.len(), 3);
    }

    fn squares(r: &Record) -> Vec<String> {
        r.moves
            .iter()
            .map(|t| match t.mv {
                MoveSyntax::Pass => "pass".to_owned(),
                MoveSyntax::Square { file, rank } => format!("{}{rank}", (b'a' + file) as char),
            })
            .collect()
    }

    #[test]
    fn reads_every_layout() {
        for text in [
            "f5d6c3d3",
            "f5 d6 c3 d3",
            "1. f5 d6 2. c3 d3",
            "1.F5 2.d6 3.C3 4.d3",
            "F5D6C3D3",
            "1) f5, 2) d6, 3) c3, 4) d3",
        ] {
            let r = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(squares(&r), ["f5", "d6", "c3", "d3"], "{text}");
        }
        let r = parse("1.F5 2.d6").unwrap();
        assert_eq!((r.moves[0].upper, r.moves[1].upper), (true, false));
    }

    #[test]
    fn reads_a_logbook_line() {
        let r = parse("+d3-c3+c4-c5+b4: -04 10").unwrap();
        assert_eq!(squares(&r), ["d3", "c3", "c4", "c5", "b4"]);
        assert_eq!(r.moves[1].color, Some(Color::White));
        assert_eq!(r.tag("result"), Some("-04"));
        assert_eq!(r.tag("extra"), Some("10"));
    }

    #[test]
    fn dashes_after_an_unsigned_first_move_separate_moves() {
        for text in ["f5-d6-c3-d3", "f5 - d6 - c3 - d3", "F5-d6-C3-d3: 33-31"] {
            let r = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(squares(&r), ["f5", "d6", "c3", "d3"], "{text}");
            assert!(r.moves.iter().all(|m| m.color.is_none()), "{text}: no move is given to a colour");
            // The spans leave the dashes out, as the errors' carets should.
            assert!(r.moves.iter().all(|m| !text[m.span.start..m.span.end].contains('-')), "{text}");
        }
        // The fast path and the full grammar (after a number) agree.
        let numbered = parse("1. f5-d6-c3").unwrap();
        assert!(numbered.moves.iter().all(|m| m.color.is_none()));
        // A first move with a sign keeps the signs of the others.
        assert_eq!(parse("-d3+c3").unwrap().moves[0].color, Some(Color::White));
        assert_eq!(parse("+d3 -c3").unwrap().moves[1].color, Some(Color::White));
        assert!(parse("- f5").is_err(), "a dash before any move separates nothing");
    }

    #[test]
    fn reads_full_width_characters() {
        for text in ["Ｆ５ｄ６Ｃ３ｄ３", "１．Ｆ５　ｄ６　２．Ｃ３　ｄ３", "ｆ５，ｄ６、ｃ３，ｄ３"]
        {
            let r = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(squares(&r), ["f5", "d6", "c3", "d3"], "{text}");
        }
        let r = parse("ａ１０Ｐ１６").unwrap();
        assert_eq!(squares(&r), ["a10", "p16"]);
        assert!(r.moves[1].upper);
        // Spans are byte ranges of the text as written.
        let text = "Ｆ５ｄ６";
        let words: Vec<&str> = parse(text).unwrap().moves.iter().map(|m| &text[m.span.start..m.span.end]).collect();
        assert_eq!(words, ["Ｆ５", "ｄ６"]);
    }

    #[test]
    fn header_lines_give_tags() {
        let r = parse("Event: Club night\nBlack: Ann Lee  White: Bob\nResult: Black 16, White 47\nf5 d6\n").unwrap();
        let tags: Vec<(&str, &str)> = r.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(tags, [("event", "Club night"), ("black", "Ann Lee"), ("white", "Bob"), ("result", "16-47")]);
        // Spans are the record's.
        let text = "Black: Ann\n1. f5 d6 2. x3";
        let e = parse(text).unwrap_err();
        assert_eq!(&text[e.span.start..e.span.end], "x3");
        let text = "黒：山田\n白：佐藤\nf5d6\n結果：白の4石勝ち";
        let r = parse(text).unwrap();
        assert_eq!((r.tag("black"), r.tag("white")), (Some("山田"), Some("佐藤")));
        assert_eq!(r.moves[1].span.start, text.find("d6").unwrap());
        assert!(r.tag("result").is_some_and(|v| super::super::pgn::results_agree(v, "-4")));
        // Results in the header, after the moves and under them must agree.
        let e = parse("Result: 16-47\nf5d6 30-34").unwrap_err();
        assert!(e.message.contains("disagree"), "{}", e.message);
        assert!(parse("Black: A\nf5d6\nResult: 30-34").unwrap().tag("result") == Some("30-34"));
        assert!(parse("Result: 16-47\nResult: B+2\nf5").unwrap_err().message.contains("disagree"));
        // Header lines alone: a game of no moves.
        let r = parse("Black: A  White: B\nResult: 0-1\n").unwrap();
        assert!(r.moves.is_empty() && r.tag("black") == Some("A") && r.tag("outcome") == Some("0-1"), "{:?}", r.tags);
        assert_eq!(parse("Event: Club night\n").unwrap_err().message, "header lines with no moves after them");
        // A line that only looks like one is moves, or an error at the moves.
        assert!(parse("Blackwood f5").is_err());
        // A key that starts as another does (`Resultado`, `Result`), any case, accents too; Chinese.
        let tags = |text: &str| {
            let r = parse(text).unwrap();
            r.tags.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(tags("Negras: Ann  Resultado: 30-34\nf5"), "black=Ann result=30-34");
        assert_eq!(tags("RÉSULTAT: 30-34\nNOIR: Zoë\nf5"), "result=30-34 black=Zoë");
        assert_eq!(tags("RESULTAT : 30:34\nf5"), "result=30-34");
        assert_eq!(tags("Result: ３０：３４\nf5"), "result=30-34");
        assert_eq!(tags("Result: 黒30 白34\nf5"), "result=-4");
        assert_eq!(tags("黑方: 张伟\n白方: 李娜\n结果: 白胜4子\nf5"), "black=张伟 white=李娜 result=-4");
    }

    #[test]
    fn header_lines_of_other_keys_are_kept() {
        let tags = |text: &str| {
            let r = parse(text).unwrap();
            r.tags.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")
        };
        // A source and a comment (keys kifu knows, in other languages too), and any other key of
        // a word (`Opening`, `Time-control`) at the start of its line.
        assert_eq!(
            tags("Event: Open\nSource: FFO Bulletin no. 12\nComment: torn after move 50\nf5d6"),
            "event=Open source=FFO Bulletin no. 12 comment=torn after move 50"
        );
        assert_eq!(tags("Quelle: Heft 3\n備考: 写し\nf5"), "source=Heft 3 comment=写し");
        assert_eq!(tags("Opening: Tiger\nTime-control: 30 min\nf5"), "opening=Tiger time_control=30 min");
        // Not a key: moves after a word and a colon, a web address, the reader's own tags, a word
        // of two letters.
        for text in ["Moves: f5 d6 c3\nf5", "http://example.com\nf5", "FEN: x\nf5", "Ab: c\nf5"] {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_white_first_line_starts_the_game_with_white() {
        for text in
            ["White first\nBlack: Ann\ne3d3c3", "Black: Ann\nFirst: White\ne3d3c3", "Black: Ann\ne3d3c3\nwhite first"]
        {
            let r = parse(text).unwrap();
            assert_eq!(r.moves.len(), 3, "{text}");
            let start = r.start.as_ref().expect("a start board");
            assert_eq!((start.side, start.cells.iter().flatten().count()), (Some(Color::White), 4), "{text}");
            assert!(r.tag("first").is_none());
        }
    }

    #[test]
    fn reads_passes_and_comments_and_big_boards() {
        let r = parse("f5 PA d6 {good move} pass -- @@ ps a10 p16 b1").unwrap();
        assert_eq!(squares(&r), ["f5", "pass", "d6", "pass", "pass", "pass", "pass", "a10", "p16", "b1"]);
        assert_eq!(r.moves[2].comment.as_deref(), Some("good move"));
    }

    #[test]
    fn reads_a_named_opening() {
        let r = parse("F5d6C3d3C4f4C6   Spencer opening").unwrap();
        assert_eq!(r.moves.len(), 7);
        assert_eq!(r.tag("name"), Some("Spencer opening"));
        assert!(parse("f5d6  x3").is_err(), "a square-like word is a bad move, not a name");
        // Full-width too, and an accented Latin word after one space is no name in another script.
        for garbled in
            ["ｆ５　ｄ６　ｃ３　ｘ３　ｃ４", "ｆ５　ｄ６　ｃ３　ｆ　ｃ４", "f5 d6 c3 é3", "f5d6c3 Éloïse Dupré"]
        {
            assert!(parse(garbled).is_err(), "{garbled}");
        }
        assert_eq!(parse("ｆ５ｄ６ｃ３　山田").unwrap().tag("name"), Some("山田"));
        assert!(parse("f5d6 Tiger").is_err(), "one space is not a column gap");
        assert_eq!(parse("F5d6C3d3C4d3C5b3  8-Shot").unwrap().tag("name"), Some("8-Shot"));
        let r = parse("f5 (pass) d6 P c3 p, e3 p").unwrap();
        assert_eq!(squares(&r), ["f5", "pass", "d6", "pass", "c3", "pass", "e3", "pass"]);
        let r = parse("f5 (パス) d6 ﾊﾟｽ c3 passe e3(パス)f4").unwrap();
        assert_eq!(squares(&r), ["f5", "pass", "d6", "pass", "c3", "pass", "e3", "pass", "f4"]);
        // `passe3` is a pass and e3, as a compact transcript writes them.
        assert_eq!(squares(&parse("f5passe3").unwrap()), ["f5", "pass", "e3"]);
        assert_eq!(squares(&parse("p1 p16").unwrap()), ["p1", "p16"]);
        // `P` as an initial after the moves is a name's.
        assert_eq!(parse("f5d6  P Smith").unwrap().tag("name"), Some("P Smith"));
        // `Pa` of `Parallel` is no pass; `PA` before a square is.
        assert_eq!(parse("F5f4      Parallel").unwrap().tag("name"), Some("Parallel"));
        assert_eq!(parse("f5PAd6").unwrap().moves[1].mv, MoveSyntax::Pass);
        // A garbled move and the rest of the game after a tab or two spaces are no name: an
        // error at the garbled token (the game had been cut short there).
        for (text, at) in [
            ("f5\td6\tbb3\tc2", 6),
            ("f5  d6  (b3)  c2", 8),
            ("f5  d6  c4!", 10),
            ("f5  d6  ??", 8),
            ("f5 d6 c4  3a", 10),
        ] {
            let err = parse(text).unwrap_err();
            assert_eq!(err.span.start, at, "{text}: {err:?}");
        }
    }

    #[test]
    fn reads_a_result_after_the_moves() {
        assert_eq!(parse("f5 d6 c3  35-29").unwrap().tag("result"), Some("35-29"));
        assert_eq!(parse("f5 d6 c3 35-29").unwrap().tag("result"), Some("35-29"));
        assert_eq!(parse("f5d6c3 1/2-1/2").unwrap().tag("outcome"), Some("1/2-1/2"));
        assert!(parse("35-29").is_err(), "a result needs moves before it");
        assert!(parse("f5 d6 35-29 c3").is_err(), "a result comes last");
        // ... but for a name after it, two spaces or a tab away.
        let r = parse("f5 d6 c3 33-31  Smith - Jones").unwrap();
        assert_eq!((r.tag("result"), r.tag("name")), (Some("33-31"), Some("Smith - Jones")));
        assert_eq!(parse("f5d6c3\t1-0\tTiger").unwrap().tag("outcome"), Some("1-0"));
        assert_eq!(parse("f5 d6 c3 B+2").unwrap().tag("result"), Some("B+2"));
        assert_eq!(parse("f5 d6 c3 W+4").unwrap().tag("result"), Some("W+4"));
        assert_eq!(parse("ｆ５ ｄ６ ｃ３ ３３－３１").unwrap().tag("result"), Some("33-31"));
        // SGF's wins without a margin, and results in words.
        for (text, tag, value) in [
            ("f5 d6 c3 W+R", "result", "W+R"),
            ("f5 d6 c3 B+T", "result", "B+T"),
            ("f5 d6 c3 B+", "result", "B+"),
            ("f5 d6 c3 draw", "outcome", "1/2-1/2"),
            ("f5 d6 c3 Black wins", "outcome", "1-0"),
            ("f5 d6 c3 W wins 44-20", "result", "20-44"),
            ("f5 d6 c3 White wins by 20-44.", "result", "20-44"),
        ] {
            assert_eq!(parse(text).unwrap().tag(tag), Some(value), "{text}");
        }
        assert!(parse("f5 d6 c3 W wins 32-32").is_err());
        // A winner after `:` is the outcome too, as convert writes a game given up.
        for outcome in ["1-0", "0-1", "1/2-1/2"] {
            let r = parse(&format!("f5d6c3: {outcome}")).unwrap();
            assert_eq!((r.tag("outcome"), r.tag("result")), (Some(outcome), None));
        }
        assert_eq!(parse("f5d6c3: draw").unwrap().tag("outcome"), Some("1/2-1/2"));
    }

    #[test]
    fn errors_point_at_the_bad_token() {
        for text in ["f5 d6 pas c3", "f5d6pasc3"] {
            let err = parse(text).unwrap_err();
            assert!(err.message.starts_with("`pas` is not a move"), "{text}: {}", err.message);
        }
        let err = parse("f5 d6 x3 c3").unwrap_err();
        assert_eq!(err.span, Span { start: 6, end: 8 });
        assert!(err.message.contains("`x3`"), "{}", err.message);
        let err = parse("f5 a0").unwrap_err();
        assert!(err.message.contains("ranks start at 1"), "{}", err.message);
        // A control character is shown escaped.
        assert!(parse("f5\u{1f}").unwrap_err().message.starts_with("`\\u{1f}` is not a move"));
        // A logbook's bad move with its colour sign, not the moves after it.
        let err = parse("+f5-d6+c3-zz+c2: +04").unwrap_err();
        assert_eq!((err.span, err.message.starts_with("`-zz` is not a move")), (Span { start: 9, end: 12 }, true));
        // Slips of the hand get the square they likely meant.
        for (text, at, message) in [
            ("f5dlc3", 2, "`dl` is not a move: d1? (a letter for the digit 1)"),
            ("f5 eI c3", 3, "`eI` is not a move: e1? (a letter for the digit 1)"),
            ("f5d65cg5g4", 4, "`5c` is not a move: c5? (the rank written before the file)"),
            ("1. f5 d6 1O. c3", 9, "`1O.` is not a move: 10.? (a letter O for the digit 0 in a move number)"),
            ("f5 d6 g 4 c3", 6, "`g 4` is not a move: g4? (a space inside the square)"),
        ] {
            let err = parse(text).unwrap_err();
            assert_eq!((err.span.start, err.message.as_str()), (at, message), "{text}");
        }
        assert!(parse("f5 {unclosed").is_err());
    }

    #[test]
    fn spans_cover_the_tokens() {
        let text = "1. f5 d6 2. c3";
        let r = parse(text).unwrap();
        let words: Vec<&str> = r.moves.iter().map(|t| &text[t.span.start..t.span.end]).collect();
        assert_eq!(words, ["f5", "d6", "c3"]);
    }

    #[test]
    fn a_parsed_game_replays() {
        let r = parse("f5d6c3d3c4f4f6f3e6e7").unwrap();
        let rules = Rules::othello().shared();
        let game = Game::new(rules.clone()).with_moves(r.moves_under(&rules).unwrap());
        assert!(game.replay(Passes::Implicit).is_ok());
        let bottom = "othello,rows=bottom".parse::<Rules>().unwrap();
        assert_eq!(r.moves_under(&bottom).unwrap()[0], crate::core::Move::Place("f4".parse().unwrap()));
    }

    fn tokens() -> impl Strategy<Value = MoveToken> {
        (
            prop_oneof![
                Just(MoveSyntax::Pass),
                (0u8..16, 1u8..=16).prop_map(|(file, rank)| MoveSyntax::Square { file, rank })
            ],
            prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]),
            any::<bool>(),
            prop::option::of("[a-z]([a-z ]{0,10}[a-z])?"),
        )
            .prop_map(|(mv, color, upper, comment)| MoveToken {
                upper: upper && mv != MoveSyntax::Pass,
                mv,
                span: Span::default(),
                color: if mv == MoveSyntax::Pass { None } else { color },
                comment,
                ..MoveToken::default()
            })
    }

    proptest! {
        #[test]
        fn the_byte_loop_agrees_with_the_grammar(text in "([+-]?[a-hA-H][0-9]{1,2}[ ,]?){0,30}(: [+-]?[0-9]{1,2}( 10)?)?") {
            if let Some(fast) = parse_plain(&text) {
                prop_assert_eq!(Ok(fast), parse_full(&text));
            }
        }

        #[test]
        fn write_then_parse_gives_the_record_back(moves in prop::collection::vec(tokens(), 0..70), score in prop::option::of(-64i32..=64)) {
            let mut record = Record { moves, ..Record::default() };
            if let Some(s) = score {
                record.tags.push(("result".into(), s.to_string()));
            }
            // After a first square without a sign, `-` separates moves: white's signs are not kept.
            let mut expected = record.clone();
            if dashes_separate(&record) {
                expected.moves.iter_mut().filter(|m| m.color == Some(Color::White)).for_each(|m| m.color = None);
            }
            for style in [Style::Compact, Style::Spaced, Style::Numbered] {
                let text = write(&record, style);
                let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?.without_layout();
                prop_assert_eq!(&back, &expected, "{}", text);
            }
        }
    }
}
