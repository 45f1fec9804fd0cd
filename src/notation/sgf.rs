//! SGF for Othello (`GM[2]`): the Smart Game Format's game tree `(;FF[4]GM[2]SZ[8]...;B[fe];W[df]...)`.
//!
//! [`parse`] reads one game tree (text before its `(` is skipped, text after its `)` ignored).
//! Only the main line is read: the first variation at every branch; the other variations are
//! checked for balanced brackets and skipped. [`write()`] writes the root node, then one node per
//! move.
//!
//! | SGF | [`Record`] |
//! |---|---|
//! | `FF`, `GM[2]`, `CA` | dropped (`GM` other than 2 is an error); written `FF[4]GM[2]`, then `CA[UTF-8]` when the text is not ASCII |
//! | `SZ[N]` (4 to 16) | tag `rules`: `othello` for 8, `othello,size=N` otherwise; no `SZ` means 8x8; on an odd size with discs set up and no `RU`, no tag: the setup is the rules' start |
//! | `RU[spec]` | replaces that `rules` when it is a kifu rules spec for the board size (`RU[anti]` with `SZ[6]` is `anti,size=6`; a spec of another size than `SZ`'s is an error); otherwise the tag `ru` |
//! | `PB`, `PW`, `BR`, `WR` | tags `black`, `white`, `black_rating`, `white_rating` |
//! | `DT`, `EV`, `PC`, `RO`, `KM` | tags `date`, `event`, `place`, `round`, `komi` |
//! | `TM` | tag `time` (written as `TM` when it is a number of seconds, else as `TIME`) |
//! | `RE` | tag `result` as black's margin: `B+4` → `+4`, `W+12` → `-12`, `0`/`Draw`/`D` → `0`; anything else (`B+R`, `W+T`, `Void`) kept as written |
//! | `C` | in a node with a move, that move's `comment`; in other nodes the tag `comment` before the first move, the previous move's comment after it (several join with a newline) |
//! | `V[x]` | in a node with a move, that move's `eval` (`V` is for black; kifu's eval is for the mover, so white's is negated) |
//! | `B[xy]`, `W[xy]` | a move with `color`; `B[]`, `B[tt]`, `B[pass]`, `B[PA]` are passes (written `B[]`) |
//! | `AB`, `AW`, `AE`, `PL` | `start` (see below); only before the first move |
//! | other properties | tags named after the property in lower case; ignored in nodes with a move (`BL`, `WL`, ...) |
//!
//! Coordinates are two lower-case letters, column then row, `a` first, counted from the top
//! left: column `a` is file `a` and row `a` is rank 1 (Othello numbers ranks from the top), so
//! `B[fe]` is f5. Compressed point lists (`AB[cc:dd]`) are read.
//!
//! Setup: when the root (or a node before the first move) has `AB` or `AW`, `start` holds
//! exactly those discs; with only `AE` / `PL`, the standard start of the board size is assumed
//! and `AE` clears cells of it. `PL` gives the side to move. Without any of these, `start` is
//! none. Values escape `]` and `\` with a backslash (a backslash before a newline is a soft
//! break and disappears). An unknown property whose lower-case name is a tag this module writes
//! under another property (`black`, `white`, `date`, `event`, `place`, `round`, `result`,
//! `komi`, `comment`, `rules`) is kept as `sgf_<name>`.
//!
//! Move times are not written: SGF has no property for the time a move took.
//!
//! Round trip: `parse(&write(&r))` gives `r` back (spans aside) for every record [`parse`]
//! produced (properties it ignores are not in the record, so they are not written).

use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{all_consuming, opt};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::property::{
    at_char, bracketed, consumed, diagonal, error, identifier, no_value, number, property_of, put_value,
    skip_whitespace, tag_of,
};
use super::{BoardSyntax, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::{Color, Rules};

/// Tags written under a property of another name, and that property.
const RENAMED: &[(&str, &str)] = &[
    ("black", "PB"),
    ("white", "PW"),
    ("black_rating", "BR"),
    ("white_rating", "WR"),
    ("date", "DT"),
    ("event", "EV"),
    ("place", "PC"),
    ("round", "RO"),
    ("result", "RE"),
    ("komi", "KM"),
    ("comment", "C"),
];

/// Properties the reader takes as moves, the board, the size or the result: a tag of another
/// format with such a name is not written.
const RESERVED: &[&str] = &["B", "W", "AB", "AW", "AE", "PL", "SZ", "RE", "FF", "GM", "CA"];

/// A property as read: its name (the upper-case letters of the identifier), where the name
/// is, and the raw contents of its values.
struct Property {
    name: String,
    span: Span,
    values: Vec<Span>,
}

/// Parses one SGF game tree `(;...)`, keeping its main line.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    let nodes = main_line(text)?;
    let mut reader = Reader { text, record: Record::default(), size: None, ru: None, setup: Vec::new(), side: None };
    for node in &nodes {
        reader.node(node)?;
    }
    reader.finish()
}

/// The nodes of the main line, without recursion (any nesting depth is safe).
fn main_line(text: &str) -> Result<Vec<Vec<Property>>, SyntaxError> {
    let Some(open) = text.find('(') else {
        return Err(error(Span { start: 0, end: text.len() }, "no SGF game tree here: a game starts with `(;`".into()));
    };
    let unclosed = || error(Span { start: open, end: text.len() }, "the game tree is never closed with `)`".into());
    let mut nodes = Vec::new();
    let (mut pos, mut depth, mut in_main) = (open + 1, 1usize, true);
    let after_open = skip_whitespace(text, pos);
    if !text[after_open..].starts_with(';') {
        return Err(at_char(text, after_open, "a game tree starts with a node `;`"));
    }
    loop {
        pos = skip_whitespace(text, pos);
        match text[pos..].chars().next() {
            None => return Err(unclosed()),
            Some(';') if in_main => {
                let (properties, end) = node(text, pos + 1)?;
                nodes.push(properties);
                pos = end;
            }
            Some('(') if in_main => {
                depth += 1;
                pos = skip_whitespace(text, pos + 1);
                if !text[pos..].starts_with(';') {
                    return Err(at_char(text, pos, "a variation starts with a node `;`"));
                }
            }
            Some('(') => pos = skip_tree(text, pos)?,
            Some(')') => {
                depth -= 1;
                pos += 1;
                in_main = false;
                if depth == 0 {
                    super::no_second_game(text, pos)?;
                    return Ok(nodes);
                }
            }
            Some(_) if in_main => {
                return Err(at_char(text, pos, "expected a node `;`, a variation `(` or the end `)`"));
            }
            Some(_) => return Err(at_char(text, pos, "expected a variation `(` or the end `)`")),
        }
    }
}

/// Skips the variation starting at `pos` (a `(`); the offset after its `)`.
fn skip_tree(text: &str, start: usize) -> Result<usize, SyntaxError> {
    let (mut pos, mut depth) = (start, 0usize);
    loop {
        match text[pos..].chars().next() {
            None => {
                return Err(error(Span { start, end: text.len() }, "a variation is never closed with `)`".into()));
            }
            Some('(') => depth += 1,
            Some(')') => {
                depth -= 1;
                if depth == 0 {
                    return Ok(pos + 1);
                }
            }
            Some('[') => {
                pos = value_at(text, pos)?.1;
                continue;
            }
            Some(_) => {}
        }
        pos += text[pos..].chars().next().map_or(1, char::len_utf8);
    }
}

/// The value `[...]` at `pos`: the span of its raw content and the offset after `]`.
fn value_at(text: &str, pos: usize) -> Result<(Span, usize), SyntaxError> {
    bracketed(text, pos, || "a value is never closed with `]`".into())
}

/// The properties of the node whose `;` is just before `pos`, and the offset after them.
fn node(text: &str, mut pos: usize) -> Result<(Vec<Property>, usize), SyntaxError> {
    let mut properties = Vec::new();
    loop {
        pos = skip_whitespace(text, pos);
        let Ok((_, ident)) = identifier(&text[pos..]) else {
            return Ok((properties, pos));
        };
        let span = Span { start: pos, end: pos + ident.len() };
        // FF[3] and older let lower-case letters decorate names (`AddBlack` is `AB`).
        let name: String = ident.chars().filter(char::is_ascii_uppercase).collect();
        if name.is_empty() {
            return Err(error(span, format!("`{ident}`: a property name needs upper-case letters")));
        }
        pos = span.end;
        let mut values = Vec::new();
        loop {
            let next = skip_whitespace(text, pos);
            if !text[next..].starts_with('[') {
                if values.is_empty() {
                    return Err(no_value(text, next, ident));
                }
                break;
            }
            let (content, end) = value_at(text, next)?;
            values.push(content);
            pos = end;
        }
        properties.push(Property { name, span, values });
    }
}

/// An SGF value with its escapes resolved (`\x` is `x`; a backslash before a line break removes both).
fn unescape(raw: &str) -> String {
    super::property::unescape(raw, true)
}

/// Writes `NAME[value]...`, escaping `\` and `]`.
fn put<S: AsRef<str>>(out: &mut String, name: &str, values: &[S]) {
    out.push_str(name);
    for value in values {
        put_value(out, value.as_ref());
    }
}

/// A setup operation: the colour `AB` / `AW` put on its points, or none for `AE`.
type Setup = (Option<Color>, Span);

/// Reads the main line's nodes into a record.
struct Reader<'a> {
    text: &'a str,
    record: Record,
    /// The board size `SZ` gave.
    size: Option<u8>,
    /// Where the first `RU` value is.
    ru: Option<Span>,
    setup: Vec<Setup>,
    side: Option<Option<Color>>,
}

impl Reader<'_> {
    fn raw(&self, span: Span) -> &str {
        &self.text[span.start..span.end]
    }

    fn node(&mut self, node: &[Property]) -> Result<(), SyntaxError> {
        let moves_before = self.record.moves.len();
        let has_move = node.iter().any(|p| p.name == "B" || p.name == "W");
        let (mut comments, mut value) = (Vec::new(), None);
        for property in node {
            let values = &property.values;
            match property.name.as_str() {
                "B" | "W" => {
                    let color = if property.name == "B" { Color::Black } else { Color::White };
                    for &span in values {
                        self.record.moves.push(self.parse_move(span, color)?);
                    }
                }
                "C" if has_move => comments.extend(values.iter().map(|&s| unescape(self.raw(s)))),
                "C" => {
                    for &span in values {
                        let comment = unescape(self.raw(span));
                        self.comment(comment);
                    }
                }
                "V" if has_move => value = Some(values[values.len() - 1]),
                "AB" | "AW" | "AE" | "PL" => {
                    if !self.record.moves.is_empty() {
                        return Err(error(
                            property.span,
                            format!("`{}` after the first move: setup in mid-game is not supported", property.name),
                        ));
                    }
                    match property.name.as_str() {
                        "PL" => {
                            let span = values[values.len() - 1];
                            let color = self.raw(span).trim().parse::<Color>().map_err(|_| {
                                error(span, format!("`PL[{}]` names no player (`B` or `W`)", self.raw(span)))
                            })?;
                            self.side = Some(Some(color));
                        }
                        name => {
                            let color = match name {
                                "AB" => Some(Color::Black),
                                "AW" => Some(Color::White),
                                _ => None,
                            };
                            self.setup.extend(values.iter().map(|&s| (color, s)));
                            self.side.get_or_insert(None);
                        }
                    }
                }
                // The reader decodes the text (UTF-8, else Shift_JIS or EUC-JP Japanese, else
                // Latin-1), whatever `CA` says.
                "FF" | "CA" => {}
                "GM" => {
                    let game = unescape(self.raw(values[0]));
                    if game.trim() != "2" {
                        return Err(error(values[0], format!("`GM[{game}]` is not Othello (`GM[2]`)")));
                    }
                }
                "SZ" => {
                    let span = values[0];
                    let raw = self.raw(span).trim();
                    let (width, height) = raw.split_once(':').unwrap_or((raw, raw));
                    let size = width
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (4..=16).contains(n) && height.parse::<u8>().ok() == Some(*n))
                        .ok_or_else(|| {
                            error(span, format!("`SZ[{raw}]`: kifu plays square boards from 4x4 to 16x16"))
                        })?;
                    self.size = Some(size);
                    self.record.tags.push(("rules".into(), plain_spec(size)));
                }
                "RE" => {
                    for &span in values {
                        let result = result_of(&unescape(self.raw(span)));
                        self.record.tags.push(("result".into(), result));
                    }
                }
                name if !has_move => {
                    if name == "RU" {
                        self.ru = self.ru.or(values.first().copied());
                    }
                    // `TM` (the time limit in seconds) and kifu's own `TIME` are both the time.
                    let tag = if name == "TM" { "time".to_owned() } else { tag_of(name, RENAMED, "sgf_") };
                    for &span in values {
                        self.record.tags.push((tag.clone(), unescape(self.raw(span))));
                    }
                }
                _ => {}
            }
        }
        if let Some(span) = value {
            let raw = self.raw(span);
            let v = number(raw.trim()).ok_or_else(|| error(span, format!("`V[{raw}]` is not a number")))?;
            if let Some(mv) = self.record.moves[moves_before..].last_mut() {
                mv.eval = Some(if mv.color == Some(Color::White) { -v } else { v });
            }
        }
        for comment in comments {
            self.comment(comment);
        }
        Ok(())
    }

    /// A comment for the last move (joined to an earlier one), or the record before any move.
    fn comment(&mut self, comment: String) {
        match self.record.moves.last_mut() {
            Some(last) => match &mut last.comment {
                Some(earlier) => {
                    earlier.push('\n');
                    earlier.push_str(&comment);
                }
                None => last.comment = Some(comment),
            },
            None => self.record.tags.push(("comment".into(), comment)),
        }
    }

    fn parse_move(&self, span: Span, color: Color) -> Result<MoveToken, SyntaxError> {
        let raw = self.raw(span);
        let mv = if raw.is_empty() || raw == "tt" || raw == "PA" || raw.eq_ignore_ascii_case("pass") {
            MoveSyntax::Pass
        } else {
            // A point, or a square as Othello writes it (`F5`), as some programs put in SGF.
            let (col, row) = point(raw).or_else(|| square(raw)).ok_or_else(|| {
                error(span, format!("`{raw}` is not a point like `fe` (column, then row from the top) or a pass `[]`"))
            })?;
            MoveSyntax::Square { file: col, rank: row + 1 }
        };
        Ok(MoveToken { mv, span, color: Some(color), ..MoveToken::default() })
    }

    /// Resolves `RU` into `rules` and builds the start board.
    fn finish(mut self) -> Result<Record, SyntaxError> {
        let size = self.size.unwrap_or(8);
        // (`othello,size=9` is no rules alone, but says the board is not the start.)
        let fits = |spec: &str| spec.parse::<Rules>().is_ok_and(|r| r.size() == size) || plain_size(spec) == Some(size);
        // A variant that names no size (`RU[anti]`) is played on the board `SZ` gives; one
        // that names another size than `SZ` is an error, not a game on either board.
        if let (Some(sz), Some(span)) = (self.size, self.ru) {
            let written = unescape(self.raw(span));
            let ru = written.trim();
            if let Ok(rules) = ru.parse::<Rules>()
                && rules.size() != sz
            {
                if rules.size() != 8 || ru.to_ascii_lowercase().contains("size") {
                    return Err(error(
                        span,
                        format!("`RU[{ru}]` is played on a {0}x{0} board, but `SZ[{sz}]` says {sz}x{sz}", rules.size()),
                    ));
                }
                let sized = format!("{ru},size={sz}");
                if let Err(e) = sized.parse::<Rules>() {
                    return Err(error(span, format!("`RU[{ru}]` on the board of `SZ[{sz}]`: {e}")));
                }
                if let Some(tag) = self.record.tags.iter_mut().find(|(k, v)| k == "ru" && *v == written) {
                    tag.1 = sized;
                }
            }
        }
        let tags = &mut self.record.tags;
        // Whether an `RU` gave the rules (else `SZ` alone, or nothing).
        let mut ruled = false;
        if self.size.is_some() {
            if let Some(i) = tags.iter().position(|(k, v)| k == "ru" && fits(v)) {
                let spec = tags.remove(i).1;
                if let Some(rules) = tags.iter_mut().find(|(k, _)| k == "rules") {
                    rules.1 = spec;
                }
                ruled = true;
            }
        } else if let Some(ru) = tags.iter_mut().find(|(k, v)| k == "ru" && fits(v)) {
            ru.0 = "rules".into();
            ruled = true;
        }
        if let Some(side) = self.side {
            let discs = self.setup.iter().any(|(color, _)| color.is_some());
            let mut board = if discs { BoardSyntax::empty(size) } else { diagonal(size) };
            for &(color, span) in &self.setup {
                for (col, row) in points(self.raw(span), size).ok_or_else(|| {
                    error(span, format!("`{}` is not a point (or `aa:cc`) of the {size}x{size} board", self.raw(span)))
                })? {
                    board.cells[usize::from(row) * usize::from(size) + usize::from(col)] = color;
                }
            }
            board.side = side;
            // An odd board has no standard start: its setup is the rules' start, as for a board
            // that names no rules (`SZ` alone says only the size).
            if size % 2 == 1 && discs && !ruled {
                self.record.tags.retain(|(k, v)| !(k == "rules" && plain_size(v) == Some(size)));
            }
            self.record.start = Some(board);
        }
        Ok(self.record)
    }
}

/// The rules spec `SZ[size]` stands for.
fn plain_spec(size: u8) -> String {
    if size == 8 { "othello".into() } else { format!("othello,size={size}") }
}

/// Whether a spec is what some `SZ` stands for, and for which size.
fn plain_size(spec: &str) -> Option<u8> {
    let size = if spec == "othello" { 8 } else { spec.strip_prefix("othello,size=")?.parse().ok()? };
    (plain_spec(size) == spec && (4..=16).contains(&size)).then_some(size)
}

fn coordinate(input: &str) -> IResult<&str, (u8, u8)> {
    let letter = || satisfy(|c| c.is_ascii_lowercase()).map(|c| c as u8 - b'a');
    (letter(), letter()).parse(input)
}

/// A point `fe`: column and row, 0-based.
fn point(raw: &str) -> Option<(u8, u8)> {
    all_consuming(coordinate).parse(raw).ok().map(|(_, p)| p)
}

/// A square `F5` or `f5` (ranks up to 16) as a point: column and row, 0-based.
fn square(raw: &str) -> Option<(u8, u8)> {
    let mut chars = raw.chars();
    let file = chars.next().filter(char::is_ascii_alphabetic)?.to_ascii_lowercase() as u8 - b'a';
    let digits = chars.as_str();
    let rank: u8 = digits.parse().ok().filter(|r| (1..=16).contains(r) && !digits.starts_with('0'))?;
    (file < 16).then_some((file, rank - 1))
}

/// The points of a value `fe` or `cc:dd` on a board of `size`.
fn points(raw: &str, size: u8) -> Option<Vec<(u8, u8)>> {
    let (_, (a, b)) = all_consuming((coordinate, opt(preceded(char(':'), coordinate)))).parse(raw).ok()?;
    let b = b.unwrap_or(a);
    if a.0.max(b.0) >= size || a.1.max(b.1) >= size {
        return None;
    }
    let mut all = Vec::new();
    for col in a.0.min(b.0)..=a.0.max(b.0) {
        for row in a.1.min(b.1)..=a.1.max(b.1) {
            all.push((col, row));
        }
    }
    Some(all)
}

/// An unsigned decimal: digits with an optional fraction.
fn unsigned(input: &str) -> bool {
    all_consuming(consumed((digit1::<_, nom::error::Error<&str>>, opt((char('.'), digit1))))).parse(input).is_ok()
}

/// `RE` as black's margin when it is one.
fn result_of(re: &str) -> String {
    // In Japanese, or in English words (`White won on time`: `W+T`).
    match super::pgn::japanese_result(re).or_else(|| super::pgn::worded_result(re)) {
        Some(("outcome", winner)) => {
            return match winner.as_str() {
                "1-0" => "B+",
                "0-1" => "W+",
                _ => "0",
            }
            .into();
        }
        // (Counts in words, `White won 34-30`, as a margin.)
        Some((_, text)) => return super::pgn::counts(&text).map_or(text, |(b, w)| super::wthor::signed(b - w)),
        None => {}
    }
    if let Some(margin) = re.strip_prefix("B+").filter(|m| unsigned(m)) {
        format!("+{margin}")
    } else if let Some(margin) = re.strip_prefix("W+").filter(|m| unsigned(m)) {
        format!("-{margin}")
    } else if re == "0" || re == "D" || re.eq_ignore_ascii_case("draw") {
        "0".into()
    } else {
        re.to_owned()
    }
}

/// The `RE` text of a `result` tag: a signed whole margin without leading zeros (`-04` →
/// `W+4`, `+0` a draw, `0`), a margin with zero decimals whole (`-18.000` → `W+18`), other margins and texts as written.
fn re_of(result: &str, tie_taker: Option<Color>) -> String {
    let signed = result.starts_with(['+', '-']);
    let level = match tie_taker {
        // A level game is the tie taker's win (`ties=second`), not SGF's draw.
        Some(Color::Black) => "B+0",
        Some(Color::White) => "W+0",
        None => "0",
    };
    match result.parse::<i32>() {
        Ok(0) => return level.into(),
        Ok(m) if signed && m > 0 => return format!("B+{m}"),
        Ok(m) if signed => return format!("W+{}", m.unsigned_abs()),
        _ => {}
    }
    // A level margin with decimals (GGS's `+0.000`) is a draw too, not a win by nothing.
    if signed && result[1..].parse::<f64>().is_ok_and(|m| m == 0.0) {
        return level.into();
    }
    // A whole margin with zero decimals (GGS's `-18.000`) is written whole: `W+18`.
    let tidy = |m: &str| match m.split_once('.') {
        Some((whole, decimals)) if decimals.bytes().all(|b| b == b'0') => whole.trim_start_matches('0').to_owned(),
        _ => m.to_owned(),
    };
    if let Some(margin) = result.strip_prefix('+').filter(|m| unsigned(m)) {
        format!("B+{}", tidy(margin))
    } else if let Some(margin) = result.strip_prefix('-').filter(|m| unsigned(m)) {
        format!("W+{}", tidy(margin))
    } else {
        result.to_owned()
    }
}

fn letter(index: u32) -> char {
    char::from_u32(u32::from('a') + index).unwrap_or('?')
}

/// Writes a record as an SGF game tree: the root node (`FF[4]GM[2]`, the tags, the start board as
/// `AB`/`AW`/`PL`), then one node per move with its comment (`C`) and eval (`V`).
///
/// Tags are written in order under their SGF property (see the module table); a `rules` tag
/// that `SZ` cannot say is written `SZ[N]RU[spec]`, and a tag `ru` that is a rules spec is dropped
/// (it would be read back as the rules); other tags whose names are letters are
/// written in upper case (`sgf_<name>` as `<NAME>`) unless that names a property read as the game
/// (moves, setup, size, result), the rest are dropped. A move without a
/// colour is written for the side after the previous move. Times and non-finite evals are left
/// out.
#[must_use]
pub fn write(record: &Record) -> String {
    let mut out = String::from("(;FF[4]GM[2]");
    if record.tag("rules").is_none()
        && let Some(board) = record.start.as_ref().filter(|b| b.size != 8)
    {
        put(&mut out, "SZ", &[&board.size.to_string()]);
    }
    for (name, value) in &record.tags {
        let name = name.to_ascii_lowercase();
        match name.as_str() {
            "rules" => {
                let size = plain_size(value).or_else(|| value.parse::<Rules>().ok().map(|r| r.size()));
                if let Some(size) = size {
                    put(&mut out, "SZ", &[&size.to_string()]);
                }
                // (An odd size with a start board says it in `RU`: `SZ` alone makes the board
                // the rules' start.)
                let odd_start = size.is_some_and(|n| n % 2 == 1) && record.start.is_some();
                if plain_size(value).is_none() || odd_start {
                    put(&mut out, "RU", &[value]);
                }
            }
            "result" => {
                // Who wins a level game, where the rules give ties to a player.
                let tie_taker = match record.rules() {
                    Some(Ok(rules)) if rules.variant().ties == crate::core::TieRule::SecondPlayer => {
                        Some(rules.variant().first.other())
                    }
                    _ => None,
                };
                put(&mut out, "RE", &[&re_of(value, tie_taker)]);
            }
            // SGF's time limit is a number of seconds; other time controls (GGF's `05:00//02:00`)
            // go under `TIME`.
            "time" if number(value).is_some() => put(&mut out, "TM", &[value]),
            // Read back, an `RU` that is a rules spec could become the rules.
            "ru" if value.parse::<Rules>().is_ok() => {}
            _ => {
                if let Some(property) = property_of(&name, RENAMED, "sgf_", RESERVED) {
                    put(&mut out, &property, &[value]);
                }
            }
        }
    }
    if let Some(board) = &record.start {
        let n = usize::from(board.size).max(1);
        let at = |i: usize| format!("{}{}", letter((i % n) as u32), letter((i / n) as u32));
        let of = |color: Color| -> Vec<String> {
            board.cells.iter().enumerate().filter(|(_, c)| **c == Some(color)).map(|(i, _)| at(i)).collect()
        };
        let (black, white) = (of(Color::Black), of(Color::White));
        if !black.is_empty() {
            put(&mut out, "AB", &black);
        }
        if !white.is_empty() {
            put(&mut out, "AW", &white);
        }
        if black.is_empty() && white.is_empty() {
            // An empty board: clear the standard start (on an odd size there is none to clear).
            let h = n / 2;
            let centre = if board.size % 2 == 0 && board.size >= 2 {
                vec![at((h - 1) * n + h - 1), at((h - 1) * n + h), at(h * n + h - 1), at(h * n + h)]
            } else {
                vec![at(0)]
            };
            put(&mut out, "AE", &centre);
        }
        if let Some(side) = board.side {
            put(&mut out, "PL", &[if side == Color::Black { "B" } else { "W" }]);
        }
    }
    out.push('\n');
    let mut next = record.start.as_ref().and_then(|b| b.side).unwrap_or(Color::Black);
    for t in &record.moves {
        let color = t.color.unwrap_or(next);
        next = !color;
        let point = match t.mv {
            MoveSyntax::Pass => String::new(),
            MoveSyntax::Square { file, rank } => {
                format!("{}{}", letter(u32::from(file)), letter(u32::from(rank).saturating_sub(1)))
            }
        };
        out.push(';');
        put(&mut out, if color == Color::Black { "B" } else { "W" }, &[&point]);
        if let Some(comment) = &t.comment {
            put(&mut out, "C", &[comment]);
        }
        if let Some(eval) = t.eval.filter(|x| x.is_finite()) {
            let v = if color == Color::White { -eval } else { eval };
            // A white move's 0 is written 0, not -0.
            let v = if v == 0.0 { 0.0 } else { v };
            put(&mut out, "V", &[&v.to_string()]);
        }
    }
    out.push(')');
    // SGF's text is Latin-1 unless the root says otherwise.
    if !out.is_ascii() {
        out.insert_str("(;FF[4]GM[2]".len(), "CA[UTF-8]");
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::Passes;
    use proptest::prelude::*;

    /// The first 20 moves of the GGS game in `shared/data/ggf/test.ggf` (Saio1200 - Saio3000,
    /// 2003), with its players and ratings, written as an Othello SGF by hand: d3 is `dc`.
    const GAME: &str = "(;FF[4]GM[2]SZ[8]PB[Saio1200]PW[Saio3000]BR[2196.37]WR[2200.35]DT[2003-12-15]PC[GGS/os]
        RE[Draw]C[Played on GGS;\\] a comment with a bracket]
        ;B[dc];W[ce];B[ff];W[fe];B[ef];W[ec];B[cc];W[db]V[-2.39]C[white thinks +2.39];B[cd];W[be]V[2.37]
        ;B[fd];W[df];B[fc];W[bd];B[cg];W[dg];B[cf];W[eg];B[bf](;W[fg])(;W[aa]))";

    fn names(r: &Record) -> Vec<String> {
        r.moves.iter().map(|t| t.mv.to_string()).collect()
    }

    #[test]
    fn moves_written_as_othello_squares_are_read() {
        assert_eq!(names(&parse("(;GM[2];B[F5];W[d6];B[fe])").unwrap()), ["f5", "d6", "f5"]);
        assert_eq!(names(&parse("(;GM[2]SZ[10];B[j10])").unwrap()), ["j10"]);
        for bad in ["F0", "F05", "F17", "5F"] {
            assert!(parse(&format!("(;GM[2];B[{bad}])")).is_err(), "{bad}");
        }
    }

    #[test]
    fn text_that_is_not_ascii_says_its_character_set() {
        let r = parse("(;GM[2]PB[M\u{fc}ller];B[fe])").unwrap();
        let written = write(&r);
        assert!(written.starts_with("(;FF[4]GM[2]CA[UTF-8]PB[M\u{fc}ller]"), "{written}");
        assert_eq!((parse(&written).unwrap().tags, names(&parse(&written).unwrap())), (r.tags.clone(), names(&r)));
        assert!(!write(&parse("(;GM[2]CA[UTF-8]PB[Bob];B[fe])").unwrap()).contains("CA["));
    }

    #[test]
    fn the_time_limit_is_tm_when_it_is_seconds() {
        let r = parse("(;GM[2]TM[300];B[fe])").unwrap();
        assert_eq!(r.tag("time"), Some("300"));
        assert!(write(&r).contains("TM[300]"), "{}", write(&r));
        // GGF's time control is no number of seconds: kept under a property of its own.
        let mut r = parse("(;GM[2];B[fe])").unwrap();
        r.set_tag("time", "05:00//02:00");
        let written = write(&r);
        assert!(written.contains("TIME[05:00//02:00]") && !written.contains("TM["), "{written}");
        assert_eq!(parse(&written).unwrap().tag("time"), Some("05:00//02:00"));
    }

    #[test]
    fn reads_an_othello_game() {
        let r = parse(GAME).unwrap();
        assert_eq!(r.tag("rules"), Some("othello"));
        assert_eq!(r.tag("black"), Some("Saio1200"));
        assert_eq!(r.tag("white"), Some("Saio3000"));
        assert_eq!(r.tag("black_rating"), Some("2196.37"));
        assert_eq!(r.tag("white_rating"), Some("2200.35"));
        assert_eq!(r.tag("date"), Some("2003-12-15"));
        assert_eq!(r.tag("place"), Some("GGS/os"));
        assert_eq!(r.tag("result"), Some("0"));
        assert_eq!(r.tag("comment"), Some("Played on GGS;] a comment with a bracket"));
        assert_eq!(r.start, None);
        let moves = "d3 c5 f6 f5 e6 e3 c3 d2 c4 b5 f4 d6 f3 b4 c7 d7 c6 e7 b6 f7";
        assert_eq!(names(&r).join(" "), moves, "the main line, not the second variation");
        assert_eq!(r.moves[7].color, Some(Color::White));
        assert_eq!(r.moves[7].eval, Some(2.39));
        assert_eq!(r.moves[7].comment.as_deref(), Some("white thinks +2.39"));
        assert_eq!(&GAME[r.moves[0].span.start..r.moves[0].span.end], "dc");
        let rules = r.rules().unwrap().unwrap().shared();
        assert!(r.game(rules).unwrap().replay(Passes::Implicit).is_ok());
        // The same moves as the GGF game they were copied from.
        let ggf = super::super::ggf::parse(
            "(;GM[Othello]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
             B[d3]W[c5]B[f6]W[f5]B[e6]W[e3]B[c3]W[d2];)",
        )
        .unwrap();
        assert_eq!(names(&ggf), names(&r)[..8]);
    }

    #[test]
    fn writes_what_it_reads() {
        let r = parse(GAME).unwrap();
        let text = write(&r);
        assert!(text.starts_with("(;FF[4]GM[2]SZ[8]PB[Saio1200]PW[Saio3000]BR[2196.37]"), "{text}");
        assert!(text.contains("RE[0]C[Played on GGS;\\] a comment with a bracket]\n;B[dc];W[ce];"), "{text}");
        assert!(text.contains(";W[db]C[white thinks +2.39]V[-2.39];B[cd]"), "{text}");
        assert_eq!(parse(&text).unwrap().without_layout(), r.without_layout());
        // A white move valued 0 is written `V[0]`, not `V[-0]`.
        let mut zero = parse("(;GM[2];B[fe];W[df])").unwrap();
        zero.moves[1].eval = Some(0.0);
        assert!(write(&zero).contains(";W[df]V[0])"), "{}", write(&zero));
    }

    #[test]
    fn results_passes_and_setup() {
        for (re, result) in [("B+4", "+4"), ("W+12", "-12"), ("0", "0"), ("Draw", "0"), ("B+R", "B+R"), ("W+T", "W+T")]
        {
            let r = parse(&format!("(;RE[{re}])")).unwrap();
            assert_eq!(r.tag("result"), Some(result), "{re}");
            assert!(write(&r).contains(&format!("RE[{}]", if re == "Draw" { "0" } else { re })));
        }
        // Where the rules give a level game to the player who moved second, it is that
        // player's win, not SGF's draw.
        // An odd board's setup is its start (it has no centre for the standard one).
        let odd = parse("(;FF[4]GM[2]SZ[5]AB[cb][bc]AW[bb][cc]PL[B];B[dc])").unwrap();
        assert_eq!(odd.tag("rules"), None);
        assert!(odd.implied_spec().is_some_and(|s| s.starts_with("othello,size=5,start=")));
        let level = parse("(;SZ[4]RU[ravensburger,size=4]RE[0])").unwrap();
        assert!(write(&level).contains("RE[B+0]"), "{}", write(&level));
        // Counts in Japanese, the named colour's first.
        assert_eq!(parse("(;RE[黒33-31])").unwrap().tag("result"), Some("+2"));
        assert_eq!(parse("(;RE[白 34-30 黒])").unwrap().tag("result"), Some("-4"));
        // A logbook's zero-padded margin is written as SGF writes margins.
        for (result, re) in [
            ("-04", "W+4"),
            ("+08", "B+8"),
            ("-00", "0"),
            ("+0.000", "0"),
            ("-2.500", "W+2.500"),
            ("-18.000", "W+18"),
            ("+10.0", "B+10"),
        ] {
            let r = Record { tags: vec![("result".into(), result.into())], ..Record::default() };
            assert!(write(&r).contains(&format!("RE[{re}]")), "{}", write(&r));
        }
        let r = parse("(;SZ[6];B[];W[tt];B[pass];W[PA];B[af])").unwrap();
        assert_eq!(r.tag("rules"), Some("othello,size=6"));
        assert_eq!(names(&r), ["pass", "pass", "pass", "pass", "a6"]);
        let r = parse("(;SZ[4]AB[aa][bb:cc]AW[dd]PL[W])").unwrap();
        let board = r.start.unwrap();
        assert_eq!(board.side, Some(Color::White));
        let discs: Vec<_> =
            board.cells.iter().map(|c| c.map_or('-', |c| if c == Color::Black { '*' } else { 'O' })).collect();
        assert_eq!(discs.iter().collect::<String>(), "*----**--**----O");
        let r = parse("(;AE[ee]PL[B])").unwrap();
        let board = r.start.unwrap();
        assert_eq!((board.get(3, 4), board.get(4, 5), board.get(3, 5)), (Some(Color::White), None, Some(Color::Black)));
        assert_eq!(board.side, Some(Color::Black));
    }

    #[test]
    fn rules_beyond_the_board_size_go_in_ru() {
        let mut r = Record::default();
        r.set_tag("rules", "anti,size=10");
        let text = write(&r);
        assert!(text.contains("SZ[10]RU[anti,size=10]"), "{text}");
        assert_eq!(parse(&text).unwrap().tag("rules"), Some("anti,size=10"));
        let r = parse("(;RU[Japanese]SZ[8])").unwrap();
        assert_eq!((r.tag("rules"), r.tag("ru")), (Some("othello"), Some("Japanese")));
        let r = parse("(;RU[anti])").unwrap();
        assert_eq!((r.tag("rules"), r.tag("ru")), (Some("anti"), None));
        // A variant without a size is played on `SZ`'s board; another size is an error.
        let r = parse("(;SZ[6]RU[anti])").unwrap();
        assert_eq!((r.tag("rules"), r.tag("ru")), (Some("anti,size=6"), None));
        let e = parse("(;RU[anti,size=6]SZ[8])").unwrap_err();
        assert!(e.message.contains("`RU[anti,size=6]` is played on a 6x6 board, but `SZ[8]`"), "{}", e.message);
        let r = parse("(;SZ[8]RULES[x]BLACK[y])").unwrap();
        assert_eq!((r.tag("sgf_rules"), r.tag("sgf_black")), (Some("x"), Some("y")));
        assert!(write(&r).contains("RULES[x]BLACK[y]"));
    }

    #[test]
    fn errors_point_at_the_bad_bytes() {
        let at = |text: &str| {
            let e = parse(text).unwrap_err();
            (text[e.span.start..e.span.end].to_owned(), e.message)
        };
        assert_eq!(at("(;GM[1])").0, "1");
        assert_eq!(at("(;SZ[19])").0, "19");
        assert_eq!(at("(;B[3d])").0, "3d");
        assert_eq!(at("(;AB[ii])").0, "ii");
        assert_eq!(at("(;PL[X3])").0, "X3");
        assert_eq!(at("(;B[aa];AB[bb])").0, "AB");
        assert_eq!(at("(;B[aa]V[x])").0, "x");
        assert_eq!(at("(;PB[x] ! )").0, "!");
        assert_eq!(at("(;PB )").0, ")");
        assert_eq!(at("(;PB[x)").0, "[x)");
        assert_eq!(at("(;B[aa](;W[bb])(;W[cc]").0, "(;W[cc]");
        assert_eq!(at("(;B[aa](;W[bb])").0, "(;B[aa](;W[bb])");
        assert_eq!(at("(;B[aa](;W[bb]);B[cc])").0, ";");
        assert_eq!(at("(B[aa])").0, "B");
        assert!(parse("no game").is_err());
    }

    #[test]
    fn deep_variations_do_not_overflow() {
        let deep = format!("(;B[aa]{}{})", "(;W[bb]".repeat(100_000), ")".repeat(100_000));
        assert_eq!(parse(&deep).unwrap().moves.len(), 100_001);
        let skipped = format!("(;B[aa](;W[bb]){}{})", "(;W[cc]".repeat(100_000), ")".repeat(100_000));
        assert_eq!(parse(&skipped).unwrap().moves.len(), 2);
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

    fn tokens(size: u8) -> impl Strategy<Value = MoveToken> {
        (
            prop_oneof![
                Just(MoveSyntax::Pass),
                (0..size, 1..=size).prop_map(|(file, rank)| MoveSyntax::Square { file, rank })
            ],
            prop_oneof![Just(Color::Black), Just(Color::White)],
            prop::option::of(any::<String>()),
            prop::option::of(-1e4f64..1e4),
        )
            .prop_map(|(mv, color, comment, eval)| MoveToken {
                mv,
                color: Some(color),
                comment,
                eval,
                ..MoveToken::default()
            })
    }

    /// Tags as the parser produces them, for a board of `size`.
    fn tags(size: u8) -> impl Strategy<Value = Vec<(String, String)>> {
        let names = prop::sample::select(vec![
            "black",
            "white",
            "black_rating",
            "white_rating",
            "date",
            "event",
            "place",
            "round",
            "komi",
            "comment",
            "gn",
            "ap",
            "v",
            "sgf_rules",
            "sgf_black",
        ]);
        let results = prop::sample::select(vec!["+4", "-12", "0", "+0.5", "B+R", "W+T", "Void", "?", "4"]);
        let rules = match size {
            8 => vec!["othello", "anti"],
            _ if size.is_multiple_of(2) => vec!["othello,size=N", "anti,size=N"],
            _ => vec!["othello,size=N"],
        };
        let rules = prop::sample::select(rules).prop_map(move |r| r.replace('N', &size.to_string()));
        let tag = prop_oneof![
            5 => (names, any::<String>()).prop_map(|(k, v)| (k.to_owned(), v)),
            1 => results.prop_map(|v| ("result".to_owned(), v.to_owned())),
            1 => prop::sample::select(vec!["Japanese", "x"]).prop_map(|v| ("ru".to_owned(), v.to_owned())),
        ];
        (prop::collection::vec(tag, 0..10), prop::option::of((rules, any::<prop::sample::Index>()))).prop_map(
            move |(mut tags, rules)| {
                // Without `SZ` the board is 8x8: other sizes always have a rules tag.
                match rules {
                    Some((rules, at)) => tags.insert(at.index(tags.len() + 1), ("rules".to_owned(), rules)),
                    None if size != 8 => tags.insert(0, ("rules".to_owned(), plain_spec(size))),
                    None => {}
                }
                tags
            },
        )
    }

    fn records() -> impl Strategy<Value = Record> {
        (4u8..=16).prop_flat_map(|size| {
            (tags(size), prop::option::of(boards(size)), prop::collection::vec(tokens(size), 0..70))
                .prop_map(|(tags, start, moves)| Record { tags, start, moves })
        })
    }

    /// Any record at all, sensible or not: writers must not panic on it.
    pub(crate) fn any_record() -> impl Strategy<Value = Record> {
        let board = (
            0u8..=20,
            prop::collection::vec(prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]), 0..300),
            prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]),
        )
            .prop_map(|(size, cells, side)| BoardSyntax { size, cells, side, unplayable: Vec::new() });
        let token = (
            prop_oneof![
                Just(MoveSyntax::Pass),
                (any::<u8>(), any::<u8>()).prop_map(|(file, rank)| MoveSyntax::Square { file, rank })
            ],
            prop::option::of(prop_oneof![Just(Color::Black), Just(Color::White)]),
            any::<bool>(),
            prop::option::of(any::<String>()),
            prop::option::of(any::<f64>()),
            prop::option::of(any::<f64>()),
        )
            .prop_map(|(mv, color, upper, comment, eval, time)| MoveToken {
                mv,
                span: Span::default(),
                color,
                upper,
                comment,
                eval,
                time,
                number: None,
            });
        let name = prop_oneof![
            prop::sample::select(vec![
                "rules", "ru", "ggf_type", "result", "comment", "black", "sgf_x", "ggf_", "sgf_"
            ])
            .prop_map(str::to_owned),
            any::<String>(),
        ];
        let value = prop_oneof![
            prop::sample::select(vec![
                "othello",
                "anti,size=10",
                "grand",
                "8stars",
                "othello,size=5",
                "+4",
                "-3",
                "8kr20",
                "x"
            ])
            .prop_map(str::to_owned),
            any::<String>(),
        ];
        (prop::collection::vec((name, value), 0..8), prop::option::of(board), prop::collection::vec(token, 0..20))
            .prop_map(|(tags, start, moves)| Record { tags, start, moves })
    }

    proptest! {
        #[test]
        fn write_then_parse_gives_the_record_back(record in records()) {
            let text = write(&record);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(back.without_layout(), record, "{}", text);
        }

        #[test]
        fn any_text_is_an_error_or_a_record(text in any::<String>()) {
            let _ = parse(&text);
            let _ = parse(&format!("(;{text})"));
        }

        #[test]
        fn any_record_is_written_and_read_without_panics(record in any_record()) {
            let _ = parse(&write(&record));
        }

        #[test]
        fn any_sgf_like_text_is_an_error_or_a_record(text in "[(;)\\[\\]\\\\a-zA-Z0-9:. \n+-]{0,60}") {
            let _ = parse(&format!("(;{text}"));
            let _ = parse(&format!("(;SZ[{text}]AB[{text}]PL[{text}];B[{text}]V[{text}](;W[{text}]))"));
        }
    }
}
