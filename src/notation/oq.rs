//! Othello Quest games: one JSON object per game.
//!
//! ```json
//! {"attrs":["opp:human"],"id":"id","gtype":"reversi1",
//!  "players":[{"id":"b_id","name":"b_player","oldR":1500.0,"newR":1500.0,"oldD":0,"newD":0},
//!             {"id":"w_id","name":"w_player","oldR":1500.0,"newR":1500.0,"oldD":1,"newD":1}],
//!  "position":{"moves":[{"t":1,"m":"e6"},{"t":218,"m":"f6"},{"t":639,"m":"f5"}]},
//!  "tcb":60000,"created":"2024-12-24T00:00:00.000Z","finished":false}
//! ```
//!
//! The game may come wrapped in a message, `{"name":"...","args":[game, ...]}`: the name goes
//! to the tag `oq_message`, arguments after the game are dropped. Fields read:
//!
//! | Othello Quest                  | kifu                                                |
//! |--------------------------------|-----------------------------------------------------|
//! | `id`, `gtype`                  | `oq_id`, `oq_type`                                  |
//! | `players[0]`, `players[1]`     | Black, White (further players are dropped)          |
//! | player `name`                  | `black` / `white`                                   |
//! | player `newR`                  | `black_rating` / `white_rating`                     |
//! | player `oldR`                  | `black_old_rating` / `white_old_rating`             |
//! | player `id`                    | `black_oq_id` / `white_oq_id`                       |
//! | player's other fields (`oldD`) | `black_oq_oldD` ... (the value's JSON text)         |
//! | `position.startPos`            | opening moves (a transcript, for XOT) put first;    |
//! |                                | the text is kept in `oq_start_pos`                  |
//! | `position.moves[].m`           | a move: a square, or `-` for a pass                 |
//! | `position.moves[].t`           | the move's time (milliseconds; kifu: seconds)       |
//! | the last move's `s`            | `termination`                                       |
//! | a last move without `m`        | a resignation: no move, `termination` = `resign`    |
//! |                                | (unless the move has an `s`)                        |
//! | `tcb`                          | `time`, in seconds (`60000` → `60`)                 |
//! | `created`                      | `date`, as written; a number (milliseconds since    |
//! |                                | 1970) as the same instant in the written form       |
//! | a numeric `id`                 | `oq_id`, its digits (written back as a string)      |
//! | other fields (`attrs`...)      | `oq_attrs` ... (the value's JSON text)              |
//!
//! Dropped: other fields of `position` and of the moves, the `s` of moves before the last, the
//! `t` of a resignation, known fields of an unexpected type (a `name` that is not a string, a
//! `tcb` that is not a number...), top-level fields named `type`, `message` or `start_pos`
//! (their tag names are taken), the order of fields, and all but the last value of a repeated
//! field (which keeps the place of its first). A move without `m` before the last is an error.
//! A move's span is its `m` string (without the quotes) when it can be found in the text (an
//! escaped value cannot), else the whole text.
//!
//! [`write()`] writes one line of compact JSON in the same shape: `attrs`, `id`, `gtype`,
//! `players` (always two objects: `id`, `name`, `oldR`, `newR` as numbers, then the player's
//! other fields), `position` (`startPos` when `oq_start_pos` still matches the first moves,
//! then `moves` with `t` in whole milliseconds and `m`; a `termination` other than `resign`
//! becomes the last move's `s`, `resign` an extra move `{}`), `tcb`, `created`, then the other
//! `oq_*` fields in tag order. Other tags (event, comments, evaluations ...) and a start board
//! are not written; a rating or `time` that is not a number is left out. A tag naming a field
//! already written (`oq_tcb`, `black_oq_name`) replaces its value rather than repeat the field.

use serde_json::{Map, Number, Value};

use super::{MoveSyntax, MoveToken, Record, Span, SyntaxError, pgn, transcript};

/// The JSON a tag's text stands for: the text parsed, or else the text as a string.
fn from_tag(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

/// A number from a tag's text, as a float.
fn float(text: &str) -> Option<Value> {
    text.trim().parse::<f64>().ok().and_then(Number::from_f64).map(Value::Number)
}

/// A number, as an integer when it is whole.
fn whole(x: f64) -> Option<Value> {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Some(Value::Number(Number::from(x as i64)))
    } else {
        Number::from_f64(x).map(Value::Number)
    }
}

/// Milliseconds since 1970-01-01 as Othello Quest's `created` text (`2024-12-24T00:00:00.000Z`).
fn timestamp(ms: u64) -> String {
    let (days, ms) = (ms / 86_400_000, ms % 86_400_000);
    let (year, month, day) = super::civil_date(days);
    let (h, m, sec, milli) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{sec:02}.{milli:03}Z")
}

/// Top-level fields whose `oq_` tag names are taken by mapped fields.
const TAKEN: [&str; 3] = ["type", "message", "start_pos"];

/// Tags the writer places itself rather than as other fields.
const MAPPED: [&str; 5] = ["oq_attrs", "oq_id", "oq_type", "oq_message", "oq_start_pos"];

/// A number of seconds from milliseconds, written shortest (`60`, `0.218`).
fn seconds(ms: f64) -> String {
    format!("{}", ms / 1000.0)
}

/// Finds the string values of a key in the text, in order.
struct Finder<'a> {
    text: &'a str,
    pos: usize,
}

impl Finder<'_> {
    /// The span of the next `"key": "want"` value (without the quotes), if the raw text holds it.
    fn next(&mut self, key: &str, want: &str) -> Option<Span> {
        let pattern = format!("\"{key}\"");
        let mut pos = self.pos;
        while let Some(i) = self.text[pos..].find(&pattern) {
            pos += i + pattern.len();
            let Some(rest) = self.text[pos..].trim_start().strip_prefix(':') else { continue };
            let Some(body) = rest.trim_start().strip_prefix('"') else { continue };
            let start = self.text.len() - body.len();
            let end = start + body.find('"')?;
            if &self.text[start..end] == want {
                self.pos = end;
                return Some(Span { start, end });
            }
        }
        None
    }
}

fn json_error(text: &str, e: &serde_json::Error) -> SyntaxError {
    let before: usize = text.split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum();
    let mut start = (before + e.column().saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = start + text[start..].chars().next().map_or(0, char::len_utf8);
    SyntaxError { span: Span { start, end }, message: format!("JSON: {e}") }
}

/// Parses one Othello Quest game.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    let whole = Span { start: 0, end: text.len() };
    let fail = |message: &str| SyntaxError { span: whole, message: message.to_owned() };
    let root: Value = serde_json::from_str(text).map_err(|e| json_error(text, &e))?;
    let mut record = Record::default();
    let wrapped = root.get("args").is_some() && root.get("players").is_none() && root.get("position").is_none();
    let game = if wrapped {
        if let Some(Value::String(name)) = root.get("name") {
            record.set_tag("oq_message", name.as_str());
        }
        match root.get("args") {
            Some(Value::Array(args)) => args.first().unwrap_or(&Value::Null),
            _ => &Value::Null,
        }
    } else {
        &root
    };
    let Value::Object(fields) = game else {
        return Err(fail("an Othello Quest game is a JSON object (or a message whose args hold one)"));
    };
    let mut termination = None;
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("id", Value::String(s)) => record.set_tag("oq_id", s.as_str()),
            ("gtype", Value::String(s)) => record.set_tag("oq_type", s.as_str()),
            ("players", Value::Array(players)) => {
                for (player, side) in players.iter().zip(["black", "white"]) {
                    read_player(&mut record, side, player);
                }
            }
            ("position", Value::Object(_)) => termination = read_position(&mut record, value, text)?,
            ("tcb", Value::Number(n)) => {
                if let Some(ms) = n.as_f64() {
                    record.set_tag("time", seconds(ms));
                }
            }
            ("created", Value::String(s)) => record.set_tag("date", s.as_str()),
            // A count of milliseconds since 1970: the same instant as Othello Quest writes it.
            ("created", Value::Number(n)) if n.as_u64().is_some() => {
                record.set_tag("date", timestamp(n.as_u64().unwrap_or_default()));
            }
            ("id", Value::Number(n)) => record.set_tag("oq_id", n.to_string()),
            ("id" | "gtype" | "players" | "position" | "tcb" | "created", _) => {}
            (key, _) if TAKEN.contains(&key) => {}
            (key, value) => record.set_tag(&format!("oq_{key}"), value.to_string()),
        }
    }
    if let Some(t) = termination {
        record.set_tag("termination", t);
    }
    Ok(record)
}

fn read_player(record: &mut Record, side: &str, player: &Value) {
    let Value::Object(fields) = player else { return };
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("name", Value::String(s)) => record.set_tag(side, s.as_str()),
            ("newR", Value::Number(n)) => {
                record.set_tag(&format!("{side}_rating"), format!("{}", n.as_f64().unwrap_or(0.0)))
            }
            ("oldR", Value::Number(n)) => {
                record.set_tag(&format!("{side}_old_rating"), format!("{}", n.as_f64().unwrap_or(0.0)));
            }
            ("id", Value::String(s)) => record.set_tag(&format!("{side}_oq_id"), s.as_str()),
            ("name" | "newR" | "oldR" | "id", _) => {}
            (key, value) => record.set_tag(&format!("{side}_oq_{key}"), value.to_string()),
        }
    }
}

/// Reads the opening and the moves; the termination, if the moves say.
fn read_position(record: &mut Record, position: &Value, text: &str) -> Result<Option<String>, SyntaxError> {
    let whole = Span { start: 0, end: text.len() };
    if let Some(Value::String(opening)) = position.get("startPos") {
        let at = Finder { text, pos: 0 }.next("startPos", opening);
        let parsed = transcript::parse(opening).map_err(|e| SyntaxError {
            span: at.map_or(whole, |s| Span { start: s.start + e.span.start, end: s.start + e.span.end }),
            message: format!("startPos: {}", e.message),
        })?;
        for mut t in parsed.moves {
            t.span = at.map_or(whole, |s| Span { start: s.start + t.span.start, end: s.start + t.span.end });
            record.moves.push(t);
        }
        record.set_tag("oq_start_pos", opening.as_str());
    }
    let Some(Value::Array(moves)) = position.get("moves") else { return Ok(None) };
    let mut finder = Finder { text, pos: 0 };
    let mut termination = None;
    for (i, entry) in moves.iter().enumerate() {
        let last = i + 1 == moves.len();
        if !matches!(entry, Value::Object(_)) {
            return Err(SyntaxError { span: whole, message: format!("move {} is not an object", i + 1) });
        }
        let status = match entry.get("s") {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        };
        match entry.get("m") {
            Some(Value::String(m)) => {
                let span = finder.next("m", m).unwrap_or(whole);
                let (mv, upper) = if m == "-" {
                    (MoveSyntax::Pass, false)
                } else {
                    match pgn::move_token(m) {
                        Ok(("", token)) => token,
                        _ => {
                            return Err(SyntaxError {
                                span,
                                message: format!("`{m}` is not a move (a square like f5, or - for a pass)"),
                            });
                        }
                    }
                };
                let time = entry.get("t").and_then(Value::as_f64).map(|ms| ms / 1000.0);
                record.moves.push(MoveToken { mv, span, upper, time, ..MoveToken::default() });
                if last {
                    termination = status;
                }
            }
            None if last => termination = Some(status.unwrap_or_else(|| "resign".to_owned())),
            None => {
                return Err(SyntaxError {
                    span: whole,
                    message: format!("move {} has no `m` (a resignation) but is not the last", i + 1),
                });
            }
            Some(_) => {
                return Err(SyntaxError { span: whole, message: format!("move {}: `m` is not a string", i + 1) });
            }
        }
    }
    Ok(termination)
}

fn player(record: &Record, side: &str) -> Value {
    let mut fields = Map::new();
    if let Some(id) = record.tag(&format!("{side}_oq_id")) {
        fields.insert("id".to_owned(), Value::String(id.to_owned()));
    }
    if let Some(name) = record.tag(side) {
        fields.insert("name".to_owned(), Value::String(name.to_owned()));
    }
    for (tag, key) in [("old_rating", "oldR"), ("rating", "newR")] {
        if let Some(r) = record.tag(&format!("{side}_{tag}")).and_then(float) {
            fields.insert(key.to_owned(), r);
        }
    }
    let prefix = format!("{side}_oq_");
    for (k, v) in &record.tags {
        if let Some(key) = k.strip_prefix(&prefix).filter(|&key| key != "id") {
            fields.insert(key.to_owned(), from_tag(v));
        }
    }
    Value::Object(fields)
}

fn moves(record: &Record) -> Value {
    let mut fields = Map::new();
    let mut moves = &record.moves[..];
    if let Some(opening) = record.tag("oq_start_pos")
        && let Ok(parsed) = transcript::parse(opening)
    {
        let n = parsed.moves.len();
        if moves.len() >= n && moves.iter().zip(&parsed.moves).all(|(a, b)| a.mv == b.mv) {
            fields.insert("startPos".to_owned(), Value::String(opening.to_owned()));
            moves = &moves[n..];
        }
    }
    let mut list: Vec<Value> = moves
        .iter()
        .map(|t| {
            let mut m = Map::new();
            if let Some(t) = t.time.and_then(|s| whole((s * 1000.0).round())) {
                m.insert("t".to_owned(), t);
            }
            let text = match t.mv {
                MoveSyntax::Pass => "-".to_owned(),
                MoveSyntax::Square { file, rank } => {
                    let letter = (b'a' + file) as char;
                    format!("{}{rank}", if t.upper { letter.to_ascii_uppercase() } else { letter })
                }
            };
            m.insert("m".to_owned(), Value::String(text));
            Value::Object(m)
        })
        .collect();
    match record.tag("termination") {
        Some("resign") => list.push(Value::Object(Map::new())),
        Some(status) => {
            let status = Value::String(status.to_owned());
            match list.last_mut() {
                Some(Value::Object(last)) => {
                    last.insert("s".to_owned(), status);
                }
                _ => list.push(Value::Object(Map::from_iter([("s".to_owned(), status)]))),
            }
        }
        None => {}
    }
    fields.insert("moves".to_owned(), Value::Array(list));
    Value::Object(fields)
}

/// Writes a record as one line of Othello Quest game JSON.
#[must_use]
pub fn write(record: &Record) -> String {
    let mut game = Map::new();
    let mut put = |key: &str, value: Value| {
        game.insert(key.to_owned(), value);
    };
    if let Some(attrs) = record.tag("oq_attrs") {
        put("attrs", from_tag(attrs));
    }
    if let Some(id) = record.tag("oq_id") {
        put("id", Value::String(id.to_owned()));
    }
    if let Some(kind) = record.tag("oq_type") {
        put("gtype", Value::String(kind.to_owned()));
    }
    put("players", Value::Array(vec![player(record, "black"), player(record, "white")]));
    put("position", moves(record));
    if let Some(ms) =
        record.tag("time").and_then(|t| t.trim().parse::<f64>().ok()).and_then(|s| whole((s * 1000.0).round()))
    {
        put("tcb", ms);
    }
    if let Some(date) = record.tag("date") {
        put("created", Value::String(date.to_owned()));
    }
    for (k, v) in &record.tags {
        if let Some(key) = k.strip_prefix("oq_").filter(|_| !MAPPED.contains(&k.as_str())) {
            put(key, from_tag(v));
        }
    }
    let root = match record.tag("oq_message") {
        Some(name) => Value::Object(Map::from_iter([
            ("name".to_owned(), Value::String(name.to_owned())),
            ("args".to_owned(), Value::Array(vec![Value::Object(game)])),
        ])),
        None => Value::Object(game),
    };
    root.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const GAME: &str = r#"{"attrs":["opp:human"],"id":"id","gtype":"reversi1","players":[{"id":"b_id","name":"b_player","oldR":1500.0,"newR":1500.0,"oldD":0,"newD":0},{"id":"w_id","name":"w_player","oldR":1500.0,"newR":1500.0,"oldD":1,"newD":1}],"position":{"moves":[{"t":1,"m":"e6"},{"t":218,"m":"f6"},{"t":639,"m":"f5"}]},"tcb":60000,"created":"2024-12-24T00:00:00.000Z","finished":false}"#;

    #[test]
    fn reads_a_game() {
        let r = parse(GAME).unwrap();
        let tags: Vec<(&str, &str)> = r.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            tags,
            [
                ("oq_attrs", r#"["opp:human"]"#),
                ("oq_id", "id"),
                ("oq_type", "reversi1"),
                ("black_oq_id", "b_id"),
                ("black", "b_player"),
                ("black_old_rating", "1500"),
                ("black_rating", "1500"),
                ("black_oq_oldD", "0"),
                ("black_oq_newD", "0"),
                ("white_oq_id", "w_id"),
                ("white", "w_player"),
                ("white_old_rating", "1500"),
                ("white_rating", "1500"),
                ("white_oq_oldD", "1"),
                ("white_oq_newD", "1"),
                ("time", "60"),
                ("date", "2024-12-24T00:00:00.000Z"),
                ("oq_finished", "false"),
            ]
        );
        let moves: Vec<String> = r.moves.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(moves, ["e6", "f6", "f5"]);
        let times: Vec<Option<f64>> = r.moves.iter().map(|t| t.time).collect();
        assert_eq!(times, [Some(0.001), Some(0.218), Some(0.639)]);
        let words: Vec<&str> = r.moves.iter().map(|t| &GAME[t.span.start..t.span.end]).collect();
        assert_eq!(words, ["e6", "f6", "f5"]);
    }

    #[test]
    fn numeric_ids_and_times_are_kept() {
        let game =
            GAME.replace(r#""id":"id""#, r#""id":987"#).replace(r#""2024-12-24T00:00:00.000Z""#, "1735000123456");
        let r = parse(&game).unwrap();
        assert_eq!(r.tag("oq_id"), Some("987"));
        assert_eq!(r.tag("date"), Some("2024-12-24T00:28:43.456Z"));
        assert_eq!(timestamp(0), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn writes_the_same_shape() {
        assert_eq!(write(&parse(GAME).unwrap()), GAME);
        let wrapped = format!(r#"{{"name":"game","args":[{GAME}]}}"#);
        let r = parse(&wrapped).unwrap();
        assert_eq!(r.tag("oq_message"), Some("game"));
        assert_eq!(write(&r), wrapped);
        assert_eq!(&wrapped[r.moves[2].span.start..r.moves[2].span.end], "f5");
    }

    #[test]
    fn openings_passes_resignations_and_errors() {
        let text = r#"{"position":{"startPos":"f5d6c3","moves":[{"t":1500,"m":"D3"},{"m":"-"},{"t":2}]}}"#;
        let r = parse(text).unwrap();
        let moves: Vec<String> = r.moves.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(moves, ["f5", "d6", "c3", "d3", "pass"]);
        assert_eq!(&text[r.moves[1].span.start..r.moves[1].span.end], "d6");
        assert!(r.moves[3].upper);
        assert_eq!(r.moves[3].time, Some(1.5));
        assert_eq!(r.tag("termination"), Some("resign"));
        assert_eq!(r.tag("oq_start_pos"), Some("f5d6c3"));
        let back = write(&r);
        assert_eq!(
            back,
            r#"{"players":[{},{}],"position":{"startPos":"f5d6c3","moves":[{"t":1500,"m":"D3"},{"m":"-"},{}]}}"#
        );
        let r = parse(r#"{"position":{"moves":[{"m":"f5","s":"timeout"}]}}"#).unwrap();
        assert_eq!(r.tag("termination"), Some("timeout"));
        assert!(parse(r#"{"position":{"moves":[{"m":"z9"}]}}"#).is_err());
        assert!(parse(r#"{"position":{"moves":[{"t":1},{"m":"f5"}]}}"#).is_err());
        assert!(parse("[1, 2]").is_err());
        let text = "{\"id\":\n  \"x\",]";
        let err = parse(text).unwrap_err();
        assert_eq!(&text[err.span.start..err.span.end], "]", "{}", err.message);
    }

    fn ratings() -> impl Strategy<Value = Option<String>> {
        prop::option::of((0u32..3000, any::<bool>()).prop_map(|(r, half)| {
            let r = f64::from(r) + if half { 0.5 } else { 0.0 };
            format!("{r}")
        }))
    }

    prop_compose! {
        fn player_tags(side: &'static str)(
            id in prop::option::of("[a-z0-9_]{1,8}"),
            name in prop::option::of("[a-zA-Z0-9_ \"\\\\é]{1,10}"),
            old in ratings(),
            new in ratings(),
            deviation in prop::option::of(0u32..400),
        ) -> Vec<(String, String)> {
            let mut tags = Vec::new();
            tags.extend(id.map(|v| (format!("{side}_oq_id"), v)));
            tags.extend(name.map(|v| (side.to_owned(), v)));
            tags.extend(old.map(|v| (format!("{side}_old_rating"), v)));
            tags.extend(new.map(|v| (format!("{side}_rating"), v)));
            tags.extend(deviation.map(|v| (format!("{side}_oq_oldD"), v.to_string())));
            tags
        }
    }

    fn moves() -> impl Strategy<Value = MoveSyntax> {
        prop_oneof![
            1 => Just(MoveSyntax::Pass),
            6 => (0u8..8, 1u8..=8).prop_map(|(file, rank)| MoveSyntax::Square { file, rank }),
        ]
    }

    prop_compose! {
        fn records()(
            message in prop::option::of("[a-z]{1,8}"),
            attrs in prop::option::of(prop::collection::vec("[a-z:]{1,10}", 0..3)),
            id in prop::option::of("[a-z0-9]{1,8}"),
            kind in prop::option::of("[a-z0-9]{1,8}"),
            black in player_tags("black"),
            white in player_tags("white"),
            opening in prop::option::of(prop::collection::vec((0u8..8, 1u8..=8), 1..6)),
            tcb in prop::option::of(0u32..10_000_000),
            date in prop::option::of("[0-9TZ:.-]{1,24}"),
            finished in prop::option::of(any::<bool>()),
            extra in prop::collection::btree_map("x_[a-z]{1,6}", 0i32..1000, 0..3),
            moves in prop::collection::vec((moves(), any::<bool>(), prop::option::of(0u32..1_000_000)), 0..60),
            termination in prop::option::of(prop_oneof![Just("resign".to_owned()), "[a-z]{1,8}"]),
        ) -> Record {
            let mut tags: Vec<(String, String)> = Vec::new();
            let mut add = |k: &str, v: Option<String>| tags.extend(v.map(|v| (k.to_owned(), v)));
            add("oq_message", message);
            add("oq_attrs", attrs.map(|a| serde_json::to_string(&a).unwrap()));
            add("oq_id", id);
            add("oq_type", kind);
            tags.extend(black);
            tags.extend(white);
            let opening =
                opening.map(|o| o.iter().map(|&(f, r)| format!("{}{r}", (b'a' + f) as char)).collect::<String>());
            let mut record_moves = match &opening {
                Some(o) => transcript::parse(o).unwrap().moves,
                None => vec![],
            };
            for t in &mut record_moves {
                t.span = Span::default();
            }
            let mut add = |k: &str, v: Option<String>| tags.extend(v.map(|v| (k.to_owned(), v)));
            add("oq_start_pos", opening);
            add("time", tcb.map(|ms| seconds(f64::from(ms))));
            add("date", date);
            add("oq_finished", finished.map(|f| f.to_string()));
            for (k, v) in extra {
                tags.push((format!("oq_{k}"), v.to_string()));
            }
            tags.extend(termination.map(|t| ("termination".to_owned(), t)));
            record_moves.extend(moves.into_iter().map(|(mv, upper, ms)| MoveToken {
                mv,
                upper: upper && mv != MoveSyntax::Pass,
                time: ms.map(|ms| f64::from(ms) / 1000.0),
                ..MoveToken::default()
            }));
            Record { tags, start: None, moves: record_moves }
        }
    }

    proptest! {
        #[test]
        fn write_then_parse_gives_the_record_back(record in records()) {
            let text = write(&record);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?.without_layout();
            prop_assert_eq!(&back, &record, "{}", text);
        }

        #[test]
        fn never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }

        #[test]
        fn never_panics_on_json_like_text(text in "[{}\\[\\]\":,a-z0-9 \\\\-]{0,200}") {
            let _ = parse(&text);
        }
    }
}
