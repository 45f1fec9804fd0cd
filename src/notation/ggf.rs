//! GGF: the Generic Game Format of the Internet Othello server GGS.
//!
//! A game is one line `(;GM[Othello]PC[GGS/os]...BO[8 ... *]B[d3//0.01]W[c5/2.39/0.01]...;)`:
//! properties `NAME[value]` between `(;` and `;)`. [`parse`] reads one game (text before `(;`,
//! such as a leading game count `1 `, is skipped; text after `;)` is ignored); [`write()`] writes
//! one line.
//!
//! | GGF | [`Record`] |
//! |---|---|
//! | `GM[Othello]` | implied: dropped (any other game is an error); always written |
//! | `PB`, `PW` | tags `black`, `white` |
//! | `RB`, `RW` | tags `black_rating`, `white_rating` |
//! | `DT`, `PC`, `TI`, `KM` | tags `date`, `place`, `time`, `komi` (text as written) |
//! | `RE` | tag `result`, GGF's text kept (`+0.000`, `-12.000`, `+64.000:r`): black's margin, then flags after `:` |
//! | `TY` | tag `rules`, a kifu rules spec; see below |
//! | `BO[size cells side]` | `start`: cells row by row from rank 1, `*` black, `O` white, `-` empty; side `*` or `O` |
//! | `B[sq/eval/time]`, `W[...]` | a move with `color`; `eval` (empty = none); `time` in seconds (`mm:ss` and `h:mm:ss` are converted) |
//! | `B[PA]`, `B[pass]` | [`MoveSyntax::Pass`] (written `PA`) |
//! | `C` | before any move the tag `comment`, after a move that move's `comment` (several join with a newline) |
//! | anything else | a tag named after the property in lower case (`KB[...]` → `kb`) |
//!
//! `TY` is GGS's game type, `[s]SIZE[k][rN][a]...` (`s` synchro, `k` komi, `rN` random start
//! with N discs, `a` anti). A size N from 4 to 16, even, becomes the `rules` tag `othello` for 8
//! and `othello,size=N` otherwise; with an `a` among the letters after the size it is `anti`
//! (`anti,size=N`). Whenever the type is more than the bare size (`8kr20`, `s8`, `8a`) the raw text is
//! also kept in the tag `ggf_type`, right after `rules`, and written back as it was; a type
//! without such a size is kept in `ggf_type` alone. The random start itself is in `BO`, and
//! komi in `KM`.
//!
//! Squares keep their letter case ([`MoveToken::upper`]). Values may escape `]` and `\` with a
//! backslash; the writer escapes them. An unknown property whose lower-case name is a tag this
//! module writes under another property (`black`, `white`, `date`, `place`, `time`, `result`,
//! `komi`, `comment`, `rules`) is kept as `ggf_<name>` so that it is written back unchanged.
//!
//! Round trip: `parse(&write(&r))` gives `r` back (spans aside) for every record [`parse`]
//! produced from a game with a `BO`. A record without a start board is written with the start
//! of its rules (the standard 4-disc start when the rules tag is missing), since GGS always
//! writes `BO`; it then reads back with that board as `start`.

use nom::branch::alt;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{digit1, satisfy};
use nom::combinator::{all_consuming, map_res, value};
use nom::{IResult, Parser};

use super::property::{
    at_char, bracketed, diagonal, error, identifier, no_value, number, property_of, put_value, skip_whitespace, tag_of,
};
use super::{BoardSyntax, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::{Color, Position, Rules, Scoring};

/// Properties the reader takes as the game, moves, board or type: a tag of another
/// format with such a name is not written.
const RESERVED: &[&str] = &["GM", "B", "W", "BO", "TY"];

/// Tags written under a property of another name, and that property.
const RENAMED: &[(&str, &str)] = &[
    ("black", "PB"),
    ("white", "PW"),
    ("black_rating", "RB"),
    ("white_rating", "RW"),
    ("date", "DT"),
    ("place", "PC"),
    ("time", "TI"),
    ("result", "RE"),
    ("komi", "KM"),
    ("comment", "C"),
];

/// Parses one GGF game, from `(;` to `;)`; text before `(;` is skipped, text after `;)`
/// ignored. Move spans cover the square inside `B[...]`; errors point at the offending bytes.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    let Some(open) = text.find("(;") else {
        return Err(SyntaxError {
            span: Span { start: 0, end: text.len() },
            message: "no GGF game here: a game starts with `(;`".into(),
        });
    };
    let mut record = Record::default();
    let mut pos = open + 2;
    loop {
        pos = skip_whitespace(text, pos);
        let rest = &text[pos..];
        if rest.starts_with(";)") {
            super::no_second_game(text, pos + 2)?;
            return Ok(record);
        }
        if rest.is_empty() {
            return Err(SyntaxError {
                span: Span { start: open, end: text.len() },
                message: "the game is never closed with `;)`".into(),
            });
        }
        let Ok((_, name)) = identifier(rest) else {
            return Err(at_char(text, pos, "expected a property like `PB[name]` or the end of the game `;)`"));
        };
        let name_span = Span { start: pos, end: pos + name.len() };
        let (content, end) = value_of(text, skip_whitespace(text, name_span.end), name)?;
        property(&mut record, text, name, name_span, content)?;
        pos = end;
    }
}

/// The value `[...]` of property `name` at `pos`: the span of its raw content and the offset
/// after `]`.
fn value_of(text: &str, pos: usize, name: &str) -> Result<(Span, usize), SyntaxError> {
    if !text[pos..].starts_with('[') {
        return Err(no_value(text, pos, name));
    }
    bracketed(text, pos, || format!("the value of `{name}` is never closed with `]`"))
}

/// A GGF value with its backslash escapes resolved (a line break is kept).
fn unescape(raw: &str) -> String {
    super::property::unescape(raw, false)
}

/// Writes `NAME[value]`, escaping `\\` and `]`.
fn put(out: &mut String, name: &str, value: &str) {
    out.push_str(name);
    put_value(out, value);
}

fn property(record: &mut Record, text: &str, name: &str, name_span: Span, content: Span) -> Result<(), SyntaxError> {
    let raw = &text[content.start..content.end];
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        "GM" => {
            let game = unescape(raw);
            if !game.trim().eq_ignore_ascii_case("othello") {
                // SGF names Othello `GM[2]`: an SGF game among GGF ones.
                let sgf = if game.trim() == "2" {
                    ": SGF's Othello, so an SGF game in a GGF file (give SGF games a file of their own)"
                } else {
                    ""
                };
                return Err(error(content, format!("`GM[{game}]` is not an Othello game{sgf}")));
            }
        }
        "B" | "W" => {
            let color = if upper == "B" { Color::Black } else { Color::White };
            record.moves.push(parse_move(text, content, color)?);
        }
        "BO" => {
            if record.start.is_some() {
                return Err(error(name_span, "a second `BO` board".into()));
            }
            record.start = Some(parse_board(text, content)?);
        }
        "TY" => record.tags.extend(type_tags(&unescape(raw))),
        "C" => {
            let comment = unescape(raw);
            match record.moves.last_mut() {
                Some(last) => match &mut last.comment {
                    Some(earlier) => {
                        earlier.push('\n');
                        earlier.push_str(&comment);
                    }
                    None => last.comment = Some(comment),
                },
                None => record.tags.push(("comment".into(), comment)),
            }
        }
        _ => {
            record.tags.push((tag_of(&upper, RENAMED, "ggf_"), unescape(raw)));
        }
    }
    Ok(())
}

/// The tags a `TY` value becomes: `rules` when it names a size, and `ggf_type` when it is more
/// than the bare size.
fn type_tags(raw: &str) -> Vec<(String, String)> {
    let body = raw.trim();
    let body = body.strip_prefix(['s', 'S']).unwrap_or(body);
    let digits = &body[..body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len()];
    let size = digits.parse::<u8>().ok().filter(|n| (4..=16).contains(n) && n % 2 == 0);
    let Some(size) = size else {
        return vec![("ggf_type".into(), raw.to_owned())];
    };
    let anti = body[digits.len()..].contains(['a', 'A']);
    let mut spec = String::from(if anti { "anti" } else { "othello" });
    if size != 8 {
        spec.push_str(&format!(",size={size}"));
    }
    let mut tags = vec![("rules".to_owned(), spec)];
    if raw != size.to_string() {
        tags.push(("ggf_type".into(), raw.to_owned()));
    }
    tags
}

/// The `TY` value for a rules spec: the bare size for `othello` / `othello,size=N`; for other
/// specs the size, with `a` when the scoring is anti (what GGS cannot express is lost).
fn type_of_rules(spec: &str) -> Option<String> {
    if spec == "othello" {
        return Some("8".into());
    }
    if let Some(n) = spec.strip_prefix("othello,size=").and_then(|n| n.parse::<u8>().ok())
        && spec == format!("othello,size={n}")
    {
        return Some(n.to_string());
    }
    let rules = spec.parse::<Rules>().ok()?;
    let anti = if rules.variant().scoring == Scoring::Anti { "a" } else { "" };
    Some(format!("{}{anti}", rules.size()))
}

/// The fields of a move value split at `/`, as spans.
fn fields(text: &str, content: Span) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut start = content.start;
    for (i, c) in text[content.start..content.end].char_indices() {
        if c == '/' {
            spans.push(Span { start, end: content.start + i });
            start = content.start + i + 1;
        }
    }
    spans.push(Span { start, end: content.end });
    spans
}

fn parse_move(text: &str, content: Span, color: Color) -> Result<MoveToken, SyntaxError> {
    let fields = fields(text, content);
    if fields.len() > 3 {
        let span = Span { start: fields[3].start, end: content.end };
        return Err(error(span, "a move has at most three fields: square/eval/time".into()));
    }
    let field = |i: usize| fields.get(i).map(|s| (*s, &text[s.start..s.end])).filter(|(_, f)| !f.is_empty());
    let square_text = &text[fields[0].start..fields[0].end];
    let (mv, upper) = all_consuming(square).parse(square_text).map(|(_, m)| m).map_err(|_| {
        error(fields[0], format!("`{square_text}` is not a square (a1 to p16) or a pass (`PA`, `pass`)"))
    })?;
    let eval = match field(1) {
        Some((span, f)) => {
            Some(number(f).ok_or_else(|| error(span, format!("`{f}` is not an evaluation (a number like -2.39)")))?)
        }
        None => None,
    };
    let time = match field(2) {
        Some((span, f)) => {
            Some(duration(f).ok_or_else(|| error(span, format!("`{f}` is not a time (seconds like 0.01, or mm:ss)")))?)
        }
        None => None,
    };
    Ok(MoveToken { mv, span: fields[0], color: Some(color), upper, comment: None, eval, time, number: None })
}

/// A pass, or a square `a1`..`p16` in either case (the flag says upper case).
fn square(input: &str) -> IResult<&str, (MoveSyntax, bool)> {
    let pass = value((MoveSyntax::Pass, false), alt((tag_no_case("pass"), tag_no_case("pa"))));
    let rank = map_res(digit1, |d: &str| d.parse::<u8>().ok().filter(|r| (1..=16).contains(r)).ok_or(()));
    let letter = satisfy(|c| c.is_ascii_alphabetic() && ('a'..='p').contains(&c.to_ascii_lowercase()));
    let place = (letter, rank).map(|(letter, rank)| {
        (MoveSyntax::Square { file: letter.to_ascii_lowercase() as u8 - b'a', rank }, letter.is_ascii_uppercase())
    });
    alt((pass, place)).parse(input)
}

/// Seconds, or `mm:ss` / `h:mm:ss`, in seconds.
fn duration(input: &str) -> Option<f64> {
    let parts: Vec<&str> = input.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut total = 0.0;
    for part in parts {
        total = total * 60.0 + number(part)?;
    }
    Some(total).filter(|x| x.is_finite())
}

fn parse_board(text: &str, content: Span) -> Result<BoardSyntax, SyntaxError> {
    let raw = &text[content.start..content.end];
    let lead = raw.len() - raw.trim_start().len();
    let Ok((_, digits)) = digit1::<_, nom::error::Error<&str>>(&raw[lead..]) else {
        return Err(error(content, "`BO` starts with the board size, like `BO[8 ...`".into()));
    };
    let size_span = Span { start: content.start + lead, end: content.start + lead + digits.len() };
    let size = digits
        .parse::<u8>()
        .ok()
        .filter(|n| (1..=16).contains(n))
        .ok_or_else(|| error(size_span, format!("a board size of {digits}: kifu reads boards up to 16x16")))?;
    let mut board = BoardSyntax::empty(size);
    let cells = board.cells.len();
    let mut filled = 0;
    let mut side_seen = false;
    for (i, c) in text[size_span.end..content.end].char_indices() {
        let pos = size_span.end + i;
        if c.is_whitespace() {
            continue;
        }
        if filled < cells {
            board.cells[filled] = match c {
                '*' | 'X' | 'x' => Some(Color::Black),
                'O' | 'o' => Some(Color::White),
                '-' | '.' => None,
                _ => return Err(at_char(text, pos, &format!("`{c}` is not a cell (`*` black, `O` white, `-` empty)"))),
            };
            filled += 1;
        } else if !side_seen {
            board.side = Some(match c {
                '*' | 'X' | 'x' => Color::Black,
                'O' | 'o' => Color::White,
                _ => return Err(at_char(text, pos, &format!("`{c}` is not a side to move (`*` black, `O` white)"))),
            });
            side_seen = true;
        } else {
            return Err(at_char(text, pos, "text after the side to move"));
        }
    }
    if filled < cells {
        return Err(error(
            content,
            format!("`BO` has {filled} cells, {} board needs {cells}", crate::core::a_board_size(size)),
        ));
    }
    Ok(board)
}

/// The standard start, black to move (an empty board for an odd size).
fn diagonal_start(size: u8) -> BoardSyntax {
    BoardSyntax { side: Some(Color::Black), ..diagonal(size) }
}

/// The board to write when the record has none: the start of its rules.
fn default_start(record: &Record) -> BoardSyntax {
    if let Some(Ok(rules)) = record.rules() {
        return BoardSyntax::of_position(&Position::start(rules.shared()));
    }
    let size = record
        .tag("ggf_type")
        .and_then(|t| type_tags(t).iter().find(|(k, _)| k == "rules").and_then(|(_, spec)| spec.parse::<Rules>().ok()))
        .map_or(8, |rules| rules.size());
    diagonal_start(size)
}

fn file_letter(file: u8, upper: bool) -> char {
    let letter = char::from_u32(u32::from('a') + u32::from(file)).unwrap_or('?');
    if upper { letter.to_ascii_uppercase() } else { letter }
}

/// A whole margin (`-04`, `+8`, `0`) as GGS writes it, with three decimals (`-4.000`); `None` for
/// any other text (`+64.000:r`), which is written as it is.
#[must_use]
pub fn ggs_margin(result: &str) -> Option<String> {
    result.trim().parse::<i32>().ok().map(|m| format!("{:+.3}", f64::from(m)))
}

/// Puts a record's `result` in GGS's form ([`ggs_margin`]): for records that come from other
/// formats, before [`write()`] (which keeps a GGF record's own text as read).
pub fn use_ggs_margin(record: &mut Record) {
    if let Some(margin) = record.tag("result").and_then(ggs_margin) {
        record.set_tag("result", margin);
    }
}

/// Writes a record as one GGF line `(;GM[Othello]...;)`.
///
/// Tags are written in order under their GGF property (see the module table; other tags whose
/// names are letters are written in upper case, `ggf_<name>` as `<NAME>`, unless that names a
/// property read as the game (`GM`, `B`, `W`, `BO`, `TY`); the rest are dropped), then `BO` (the start board, or the rules' start), then the moves. A move without
/// a colour is written for the side after the previous move. Non-finite evals and times are
/// left out.
#[must_use]
pub fn write(record: &Record) -> String {
    let mut out = String::from("(;GM[Othello]");
    let mut tags = record.tags.iter().peekable();
    while let Some((name, value)) = tags.next() {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            // `rules` and the `ggf_type` after it are one `TY` when that type reads back as both.
            "rules" => match tags.next_if(|(next, raw)| {
                next.eq_ignore_ascii_case("ggf_type")
                    && type_tags(raw) == [("rules".to_owned(), value.clone()), ("ggf_type".to_owned(), raw.clone())]
            }) {
                Some((_, raw)) => put(&mut out, "TY", raw),
                None => {
                    if let Some(ty) = type_of_rules(value) {
                        put(&mut out, "TY", &ty);
                    }
                }
            },
            "ggf_type" => put(&mut out, "TY", value),
            _ => {
                if let Some(property) = property_of(&name, RENAMED, "ggf_", RESERVED) {
                    put(&mut out, &property, value);
                }
            }
        }
    }
    let board = record.start.clone().unwrap_or_else(|| default_start(record));
    out.push_str(&format!("BO[{}", board.size));
    for row in board.cells.chunks(usize::from(board.size).max(1)) {
        out.push(' ');
        out.extend(row.iter().map(|cell| match cell {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        }));
    }
    if let Some(side) = board.side {
        out.push_str(if side == Color::Black { " *" } else { " O" });
    }
    out.push(']');
    let mut next = board.side.unwrap_or(Color::Black);
    for t in &record.moves {
        let color = t.color.unwrap_or(next);
        next = !color;
        out.push_str(if color == Color::Black { "B[" } else { "W[" });
        match t.mv {
            MoveSyntax::Pass => out.push_str("PA"),
            MoveSyntax::Square { file, rank } => {
                out.push(file_letter(file, t.upper));
                out.push_str(&rank.to_string());
            }
        }
        let eval = t.eval.filter(|x| x.is_finite());
        let time = t.time.filter(|x| x.is_finite());
        if eval.is_some() || time.is_some() {
            out.push('/');
            if let Some(eval) = eval {
                out.push_str(&eval.to_string());
            }
        }
        if let Some(time) = time {
            out.push('/');
            out.push_str(&time.to_string());
        }
        out.push(']');
        if let Some(comment) = &t.comment {
            put(&mut out, "C", comment);
        }
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Passes;
    use proptest::prelude::*;

    const GAME: &str = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]RB[2196.37]\
        RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- \
        -------- -------- *]B[d3//0.01]W[c5//0.01]B[f6//0.01]W[f5//0.01]B[e6//0.01]W[e3//0.01]B[c3//0.01]\
        W[d2/2.39/0.01];)";

    #[test]
    fn reads_a_ggs_game() {
        let r = parse(GAME).unwrap();
        assert_eq!(r.tag("black"), Some("Saio1200"));
        assert_eq!(r.tag("white"), Some("Saio3000"));
        assert_eq!(r.tag("black_rating"), Some("2196.37"));
        assert_eq!(r.tag("white_rating"), Some("2200.35"));
        assert_eq!(r.tag("date"), Some("2003.12.15_12:33:18.MST"));
        assert_eq!(r.tag("place"), Some("GGS/os"));
        assert_eq!(r.tag("time"), Some("05:00//02:00"));
        assert_eq!(r.tag("result"), Some("+0.000"));
        assert_eq!(r.tag("rules"), Some("othello"));
        assert_eq!(r.tag("ggf_type"), None);
        assert_eq!(r.tag("gm"), None);
        let start = r.start.as_ref().unwrap();
        assert_eq!(start, &diagonal_start(8));
        assert_eq!((start.get(3, 4), start.get(4, 4)), (Some(Color::White), Some(Color::Black)));
        assert_eq!(r.moves.len(), 8);
        assert_eq!(r.moves[0].mv, MoveSyntax::Square { file: 3, rank: 3 });
        assert_eq!(r.moves[0].color, Some(Color::Black));
        assert_eq!((r.moves[0].eval, r.moves[0].time), (None, Some(0.01)));
        assert_eq!(r.moves[7].color, Some(Color::White));
        assert_eq!((r.moves[7].eval, r.moves[7].time), (Some(2.39), Some(0.01)));
        let words: Vec<&str> = r.moves.iter().map(|t| &GAME[t.span.start..t.span.end]).collect();
        assert_eq!(words, ["d3", "c5", "f6", "f5", "e6", "e3", "c3", "d2"]);
        let rules = r.rules().unwrap().unwrap().shared();
        assert!(r.game(rules).unwrap().replay(Passes::Implicit).is_ok());
    }

    #[test]
    fn reads_types_passes_times_and_unknown_properties() {
        let text = "(;GM[Othello]TY[4]BO[4 ---- -O*- -*O- ---- *]B[A2//7.50]W[pass]B[PA/-1.5/1:05]KB[x]C[hm];)";
        let r = parse(text).unwrap();
        assert_eq!(r.tag("rules"), Some("othello,size=4"));
        assert_eq!(r.moves[0].mv, MoveSyntax::Square { file: 0, rank: 2 });
        assert!(r.moves[0].upper);
        assert_eq!((r.moves[1].mv, r.moves[1].color), (MoveSyntax::Pass, Some(Color::White)));
        assert_eq!((r.moves[2].eval, r.moves[2].time), (Some(-1.5), Some(65.0)));
        assert_eq!(r.moves[2].comment.as_deref(), Some("hm"));
        assert_eq!(r.tag("kb"), Some("x"));
        for (ty, rules, raw) in [
            ("8", Some("othello"), None),
            ("10", Some("othello,size=10"), None),
            ("8kr20", Some("othello"), Some("8kr20")),
            ("s8r12", Some("othello"), Some("s8r12")),
            ("8a", Some("anti"), Some("8a")),
            ("10ka", Some("anti,size=10"), Some("10ka")),
            ("7", None, Some("7")),
            ("x", None, Some("x")),
        ] {
            let r = parse(&format!("(;TY[{ty}]BO[4 ---- -O*- -*O- ---- *];)")).unwrap();
            assert_eq!((r.tag("rules"), r.tag("ggf_type")), (rules, raw), "{ty}");
            if let Some(spec) = rules {
                assert!(spec.parse::<Rules>().is_ok(), "{spec}");
            }
        }
    }

    #[test]
    fn comments_escapes_and_clashing_names() {
        let text = r"(;C[a \] b \\ c]RULES[x]BLACK[y]BO[4 ---- -O*- -*O- ---- O]B[d3]C[one]C[two];)";
        let r = parse(text).unwrap();
        assert_eq!(r.tag("comment"), Some(r"a ] b \ c"));
        assert_eq!(r.tag("ggf_rules"), Some("x"));
        assert_eq!(r.tag("ggf_black"), Some("y"));
        assert_eq!(r.moves[0].comment.as_deref(), Some("one\ntwo"));
        let back = parse(&write(&r)).unwrap();
        assert_eq!(back.without_layout(), r.clone().without_layout());
        assert!(write(&r).contains(r"C[a \] b \\ c]"));
    }

    #[test]
    fn writes_one_line_that_reads_back() {
        let r = parse(GAME).unwrap();
        let text = write(&r);
        assert!(text.starts_with("(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]"), "{text}");
        assert!(text.contains("TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]"), "{text}");
        assert!(text.ends_with("W[d2/2.39/0.01];)"), "{text}");
        assert!(!text.contains('\n'));
        assert_eq!(parse(&text).unwrap().without_layout(), r.without_layout());
    }

    #[test]
    fn margins_as_ggs_writes_them() {
        for (result, re) in
            [("-04", Some("-4.000")), ("+8", Some("+8.000")), ("0", Some("+0.000")), ("+64.000:r", None)]
        {
            assert_eq!(ggs_margin(result).as_deref(), re, "{result}");
        }
    }

    #[test]
    fn writes_the_rules_start_when_there_is_no_board() {
        let mut r = Record::default();
        r.set_tag("rules", "othello,size=10");
        r.moves.push(MoveToken::new(MoveSyntax::Square { file: 4, rank: 6 }));
        r.moves.push(MoveToken::new(MoveSyntax::Square { file: 3, rank: 6 }));
        let text = write(&r);
        assert!(
            text.contains("TY[10]BO[10 ---------- ---------- ---------- ---------- ----O*---- ----*O----"),
            "{text}"
        );
        assert!(text.contains("B[e6]W[d6]"), "{text}");
        let back = parse(&text).unwrap();
        assert_eq!(back.start, Some(diagonal_start(10)));
        let anti = Record { tags: vec![("rules".into(), "anti".into())], ..Record::default() };
        assert!(write(&anti).contains("TY[8a]"));
        assert!(write(&Record::default()).contains("BO[8 -------- -------- -------- ---O*--- ---*O---"));
    }

    #[test]
    fn errors_point_at_the_bad_bytes() {
        let at = |text: &str| {
            let e = parse(text).unwrap_err();
            (text[e.span.start..e.span.end].to_owned(), e.message)
        };
        assert_eq!(at("(;B[z9];)").0, "z9");
        assert_eq!(at("(;B[a0];)").0, "a0");
        assert_eq!(at("(;B[d3/x];)").0, "x");
        assert_eq!(at("(;B[d3//1:x];)").0, "1:x");
        assert_eq!(at("(;B[d3/1/2/3];)").0, "3");
        assert_eq!(at("(;GM[Chess];)").0, "Chess");
        assert_eq!(at("(;BO[8 ---];)").0, "8 ---");
        assert_eq!(at("(;BO[4 ---- -O*- -*Q- ---- *];)").0, "Q");
        assert_eq!(at("(;BO[4 ---- -O*- -*O- ---- ?];)").0, "?");
        assert_eq!(at("(;BO[40 -];)").0, "40");
        assert_eq!(at("(;PB[x] ! ;)").0, "!");
        assert_eq!(at("(;PB ;)").0, ";");
        assert_eq!(at("(;PB[x").0, "[x");
        let (bad, message) = at("(;PB[x]");
        assert!(bad.starts_with("(;") && message.contains(";)"), "{message}");
        assert!(parse("no game").is_err());
    }

    /// The shared GGS games: every game parses, writes back to the same record and replays.
    #[test]
    fn shared_ggf_files_parse_round_trip_and_replay() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/ggf");
        if !std::path::Path::new(dir).exists() {
            eprintln!("skipped: {dir} is absent");
            return;
        }
        let mut games = 0;
        for name in ["TestGames.ggf", "test.ggf", "test2.ggf"] {
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            let mut rest = text.as_str();
            while let Some(open) = rest.find("(;") {
                let close = rest[open..].find(";)").map(|i| open + i + 2).expect("a closed game");
                let game = &rest[open..close];
                rest = &rest[close..];
                games += 1;
                let record = parse(game).unwrap_or_else(|e| panic!("{name}: {e} at {:?}", e.span));
                let again = parse(&write(&record)).unwrap_or_else(|e| panic!("{name}: rewritten: {e}"));
                assert_eq!(again.without_layout(), record.clone().without_layout(), "{name}: {game}");
                let rules = record.rules().expect("a TY").unwrap().shared();
                let replay = record.game(rules.clone()).unwrap().replay(Passes::Implicit);
                assert!(replay.is_ok(), "{name}: {replay:?}\n{game}");
                // The colours GGF writes agree with the side to move.
                let mut ply = 0;
                record
                    .game(rules)
                    .unwrap()
                    .replay_with(Passes::Explicit, |before, _, _| {
                        assert_eq!(Some(before.side_to_move()), record.moves[ply].color, "{name} ply {ply}");
                        ply += 1;
                    })
                    .unwrap();
            }
        }
        assert_eq!(games, 16);
    }

    fn boards(size: u8) -> impl Strategy<Value = BoardSyntax> {
        let cells = usize::from(size) * usize::from(size);
        let cell = prop_oneof![Just(None), Just(Some(Color::Black)), Just(Some(Color::White))];
        let side = prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]);
        (prop::collection::vec(cell, cells), side).prop_map(move |(cells, side)| BoardSyntax {
            size,
            cells,
            side,
            unplayable: Vec::new(),
        })
    }

    fn tokens() -> impl Strategy<Value = MoveToken> {
        (
            prop_oneof![
                Just(MoveSyntax::Pass),
                (0u8..16, 1u8..=16).prop_map(|(file, rank)| MoveSyntax::Square { file, rank })
            ],
            prop_oneof![Just(Color::Black), Just(Color::White)],
            any::<bool>(),
            prop::option::of(any::<String>()),
            prop::option::of(-1e4f64..1e4),
            prop::option::of(prop_oneof![0.0f64..1e5, (0u32..100_000).prop_map(|s| f64::from(s) / 100.0)]),
        )
            .prop_map(|(mv, color, upper, comment, eval, time)| MoveToken {
                upper: upper && mv != MoveSyntax::Pass,
                mv,
                span: Span::default(),
                color: Some(color),
                comment,
                eval,
                time,
                number: None,
            })
    }

    /// Tags as the parser produces them: names it reads, with any text.
    fn tags() -> impl Strategy<Value = Vec<(String, String)>> {
        let plain = prop::sample::select(vec![
            "black",
            "white",
            "black_rating",
            "white_rating",
            "date",
            "place",
            "time",
            "result",
            "komi",
            "comment",
            "kb",
            "event",
            "ggf_rules",
            "ggf_black",
        ]);
        let tag = prop_oneof![
            4 => (plain, any::<String>()).prop_map(|(k, v)| vec![(k.to_owned(), v)]),
            1 => prop::sample::select(vec!["8", "10", "6", "4", "16", "8kr20", "s8r12", "8a", "10ka", "7", "x", "08", " 8"])
                .prop_map(type_tags),
        ];
        prop::collection::vec(tag, 0..12).prop_map(|v| v.into_iter().flatten().collect())
    }

    proptest! {
        #[test]
        fn write_then_parse_gives_the_record_back(
            tags in tags(),
            start in (1u8..=16).prop_flat_map(boards),
            moves in prop::collection::vec(tokens(), 0..70),
        ) {
            let record = Record { tags, start: Some(start), moves };
            let text = write(&record);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(back.without_layout(), record, "{}", text);
        }

        #[test]
        fn any_text_is_an_error_or_a_record(text in any::<String>()) {
            let _ = parse(&text);
            let _ = parse(&format!("(;{text};)"));
        }

        #[test]
        fn any_record_is_written_and_read_without_panics(record in crate::notation::sgf::tests::any_record()) {
            let _ = parse(&write(&record));
        }

        #[test]
        fn any_ggf_like_text_is_an_error_or_a_record(text in "[(;)\\[\\]\\\\a-zA-Z0-9/:.*O -]{0,60}") {
            let _ = parse(&format!("(;{text}"));
            let _ = parse(&format!("(;B[{text}]BO[{text}]TY[{text}];)"));
        }
    }

    #[test]
    fn tags_named_like_game_properties_are_not_written() {
        // Found by the round_trip fuzz target: a GGF record's unknown `SZ[6]` became a tag `sz`,
        // which SGF wrote as its board size; likewise an SGF `TY` tag in GGF.
        let mut r = parse("(;GM[Othello]SZ[6]B[f5];)").unwrap();
        r.tags.push(("ty".into(), "6".into()));
        let ggf = write(&r);
        assert!(!ggf.contains("TY["), "{ggf}");
        let sgf = super::super::sgf::write(&r);
        assert!(!sgf.contains("SZ["), "{sgf}");
        assert_eq!(super::super::sgf::parse(&sgf).unwrap().rules(), None);
    }

    #[test]
    fn an_ru_tag_that_is_a_rules_spec_does_not_become_the_rules_in_sgf() {
        // Found by the round_trip fuzz campaign: a GGF game of standard Othello with an unknown
        // `RU[first=O]` kept it as a tag `ru`, which SGF wrote as `RU` and read back as the rules
        // (white first).
        let r = parse("(;GM[Othello]RB[1]RU[first=O]RU[x]B[f5];)").unwrap();
        assert_eq!(r.rules(), None);
        let sgf = super::super::sgf::write(&r);
        assert!(!sgf.contains("RU[first=O]") && sgf.contains("RU[x]"), "{sgf}");
        let back = super::super::sgf::parse(&sgf).unwrap();
        assert_eq!((back.tag("rules"), back.tag("ru")), (None, Some("x")));
    }
}
