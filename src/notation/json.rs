//! kifu's JSON form of a record, one object a line (JSON Lines), for other tools:
//!
//! ```json
//! {"tags":{"black":"Tastet","result":"+18"},
//!  "start":{"size":8,"board":"---...OX...","side":"black"},
//!  "moves":[{"move":"f5","color":"black"},{"move":"pass"},{"move":"d6","eval":-1.5,"time":0.2,"comment":"!"}]}
//! ```
//!
//! `tags` keeps the record's order (a repeated tag name keeps its last value); `start` is
//! present when the record gives a board (cells from a1 rank by rank, `X` `O` `-`); a move has
//! `color`, `eval` (discs), `time` (seconds) and `comment` only when the record gives them. The
//! case a move was written in is not kept. Read, `moves` may also be a list of names
//! (`["f5","d6"]`) or a transcript (`"f5d6c3"`). A move's span (for errors) is its value between
//! the quotes.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{BoardSyntax, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::Color;

#[derive(Serialize)]
struct JsonRecord {
    tags: Map<String, Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<JsonBoard>,
    moves: Vec<JsonMove>,
}

/// A record as read: its moves as kifu writes them (objects), as names (`["f5","d6"]`) or as a
/// transcript (`"f5d6c3"`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonInput {
    #[serde(default)]
    tags: Map<String, Value>,
    #[serde(default)]
    start: Option<JsonBoard>,
    #[serde(default)]
    moves: Value,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonBoard {
    size: u8,
    board: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    side: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
}

fn color_name(c: Color) -> String {
    c.name().to_owned()
}

fn parse_color(s: &str) -> Option<Color> {
    match s {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// Writes a record as one line of JSON.
#[must_use]
pub fn write(record: &Record) -> String {
    let tags = record.tags.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
    let start = record.start.as_ref().map(|b| JsonBoard {
        size: b.size,
        board: super::board::write_string(&BoardSyntax { side: None, ..b.clone() }),
        side: b.side.map(color_name),
    });
    let moves = record
        .moves
        .iter()
        .map(|t| JsonMove {
            mv: t.mv.to_string(),
            color: t.color.map(color_name),
            eval: t.eval,
            time: t.time,
            comment: t.comment.clone(),
        })
        .collect();
    serde_json::to_string(&JsonRecord { tags, start, moves }).expect("a record always serialises")
}

/// Parses one JSON record. Errors point at the line and column serde reports, at the move for a
/// bad move, or at the whole record for another bad value.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    let whole = Span { start: 0, end: text.len() };
    let json: JsonInput = serde_json::from_str(text).map_err(|e| {
        let at = offset_of(text, e.line(), e.column());
        SyntaxError { span: Span { start: at, end: (at + 1).min(text.len()) }, message: format!("JSON: {e}") }
    })?;
    let bad = |message: String| SyntaxError { span: whole, message };
    let mut record = Record::default();
    for (k, v) in json.tags {
        let value = match v {
            Value::String(s) => s,
            other => other.to_string(),
        };
        record.tags.push((k, value));
    }
    if let Some(b) = json.start {
        let parsed = super::board::parse(&b.board, super::board::Digits::default())
            .map_err(|e| bad(format!("start board: {}", e.message)))?;
        let mut board = parsed.start.ok_or_else(|| bad("start board: no board".into()))?;
        if board.size != b.size {
            return Err(bad(format!("start board has {0}x{0} cells, size says {1}", board.size, b.size)));
        }
        board.side = match b.side.as_deref() {
            None => None,
            Some(s) => Some(parse_color(s).ok_or_else(|| bad(format!("side `{s}` is not black or white")))?),
        };
        record.start = Some(board);
    }
    let moves = match json.moves {
        Value::Null => Vec::new(),
        Value::String(line) => return transcript_moves(text, &line, record),
        Value::Array(items) => items,
        _ => return Err(bad("`moves` is not a list of moves (nor a line of them)".into())),
    };
    let mut spans = move_spans(text);
    // (Where names alone are given, each is looked for as a quoted string in turn.)
    let mut after = text.find("\"moves\"").unwrap_or(0);
    for (i, item) in moves.into_iter().enumerate() {
        let m = match item {
            Value::String(mv) => JsonMove { mv, color: None, eval: None, time: None, comment: None },
            Value::Object(_) => serde_json::from_value(item).map_err(|e| {
                bad(format!("move {}: {e} (a move is a name, `\"f5\"`, or `{{\"move\":\"f5\"}}`)", i + 1))
            })?,
            other => return Err(bad(format!("move {}: {other} is no move (a name, `\"f5\"`, or an object)", i + 1))),
        };
        let quoted = format!("\"{}\"", m.mv);
        let named =
            text[after..].find(&quoted).map(|at| Span { start: after + at + 1, end: after + at + quoted.len() - 1 });
        // The move's own text when it is found as written, else the whole record.
        let span = spans.next().filter(|s| text[s.start..s.end] == m.mv).or(named).unwrap_or(whole);
        after = after.max(span.end.min(text.len()));
        let mv = if m.mv.eq_ignore_ascii_case("pass") {
            MoveSyntax::Pass
        } else {
            let (file, rank) = crate::core::Square::parse_name(&m.mv)
                .map_err(|_| SyntaxError { span, message: format!("`{}` is not a move", m.mv) })?;
            MoveSyntax::Square { file, rank }
        };
        let color = match m.color.as_deref() {
            None => None,
            Some(s) => Some(parse_color(s).ok_or_else(|| bad(format!("colour `{s}` is not black or white")))?),
        };
        record.moves.push(MoveToken {
            mv,
            color,
            eval: m.eval,
            time: m.time,
            comment: m.comment,
            span,
            ..MoveToken::default()
        });
    }
    Ok(record)
}

/// The record with the moves of `line`, a transcript given as the `moves` value (spans in
/// `text` when the line is found in it as written).
fn transcript_moves(text: &str, line: &str, mut record: Record) -> Result<Record, SyntaxError> {
    let at = text.find(&format!("\"{line}\"")).map_or(0, |i| i + 1);
    let shift = |span: Span| {
        if at == 0 { Span { start: 0, end: text.len() } } else { Span { start: span.start + at, end: span.end + at } }
    };
    let read = super::transcript::parse(line).map_err(|e| SyntaxError { span: shift(e.span), message: e.message })?;
    record.moves = read.moves.into_iter().map(|t| MoveToken { span: shift(t.span), number: None, ..t }).collect();
    Ok(record)
}

/// The spans of the `"move"` values after the `"moves"` key, in order (the text between the
/// quotes; a value with escapes is not matched against its move by [`parse`]).
fn move_spans(text: &str) -> impl Iterator<Item = Span> + '_ {
    let mut at = text.find("\"moves\"").map_or(text.len(), |i| i + 7);
    std::iter::from_fn(move || {
        let key = at + text[at..].find("\"move\"")? + 6;
        let rest = &text[key..];
        let value = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ':');
        let start = key + (rest.len() - value.len());
        at = start;
        let inner = value.strip_prefix('"')?;
        let len = inner.find('"')?;
        at = start + 1 + len;
        Some(Span { start: start + 1, end: start + 1 + len })
    })
}

/// The byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column.saturating_sub(1)).min(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_what_it_writes() {
        let mut record = crate::notation::transcript::parse("f5 {good} d6 pass c3").unwrap();
        record.tags.push(("black".into(), "Tastet \"Marc\"".into()));
        record.tags.push(("result".into(), "+18".into()));
        record.moves[1].eval = Some(-1.5);
        record.moves[1].color = Some(Color::White);
        record.start = crate::notation::board::parse(
            "---------------------------OX------XO--------------------------- X",
            super::super::board::Digits::default(),
        )
        .unwrap()
        .start;
        let text = write(&record);
        let mut back = parse(&text).unwrap();
        for (t, u) in back.moves.iter_mut().zip(&record.moves) {
            t.span = u.span;
        }
        assert_eq!(back, record);
    }

    #[test]
    fn moves_as_names_or_a_transcript() {
        let names = |r: &Record| r.moves.iter().map(|t| t.mv.to_string()).collect::<Vec<_>>().join(" ");
        for text in [
            r#"{"moves":["f5","d6","pass","c3"]}"#,
            r#"{"moves":"f5 d6 PA c3"}"#,
            r#"{"moves":["f5",{"move":"d6"},"pass","c3"]}"#,
        ] {
            assert_eq!(names(&parse(text).unwrap()), "f5 d6 pass c3", "{text}");
        }
        // Errors point at the move.
        for text in [r#"{"moves":["f5","zz","c3"]}"#, r#"{"moves":"f5 zz c3"}"#] {
            let e = parse(text).unwrap_err();
            assert_eq!(&text[e.span.start..e.span.end], "zz", "{text}");
        }
        assert!(parse(r#"{"moves":[1]}"#).unwrap_err().message.contains("move 1: 1 is no move"));
        assert!(parse(r#"{"moves":{"a":1}}"#).unwrap_err().message.contains("is not a list of moves"));
    }

    #[test]
    fn errors_say_where() {
        let text = "{\"tags\":{\"move\":\"x\"},\"moves\":[{\"move\":\"f5\"},{\"move\" : \"z9\"}]}";
        let err = parse(text).unwrap_err();
        assert!(err.message.contains("z9"), "{}", err.message);
        assert_eq!(&text[err.span.start..err.span.end], "z9");
        let good = text.replace("z9", "d6");
        let r = parse(&good).unwrap();
        assert_eq!(r.moves.iter().map(|t| &good[t.span.start..t.span.end]).collect::<Vec<_>>(), ["f5", "d6"]);
        let err = parse("{\"tags\":{}, \"mooves\":[]}").unwrap_err();
        assert!(err.message.contains("mooves"), "{}", err.message);
        assert!(err.span.start > 0);
    }

    proptest! {
        #[test]
        fn never_panics(text in "[{}\\[\\]\":,a-z0-9 ]{0,100}") {
            let _ = parse(&text);
        }
    }
}
