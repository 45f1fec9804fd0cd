//! Kifu grids: the board drawn with each cell holding the number of the move played there, as
//! printed in books and Japanese game records.
//!
//! One line per rank (rank 1 first, or as the rank numbers say), optional file letters over the
//! columns and rank numbers before or after each line. A cell is a move number (`1`..), a start
//! disc (`X x B b * ●` black, `O o W w ○` white), empty (`.`, `-`, `--`, `·`) or a hole (`#`).
//! A cell off the board's shape (the cut corners of 8-stars) is written as an empty one. A line with
//! more tokens than the board has files has its rank number first (when the first token is that
//! rank), last, or both. The moves are read in
//! number order; the numbers must run 1, 2, 3, ... without a gap or a repeat. Passes are not
//! written: replay infers them. An optional last line gives the side that made move 1
//! (`white first`), for games that do not start with black, and a line `rules SPEC` the rules
//! of a game of another variant (`rules 8stars`). A grid of the moves after a position, as
//! `kifu show --kifu --ply K` draws it, says `from move N, white to move`: its numbers start at
//! N over the discs of that position.

use super::{BoardSyntax, MoveSyntax, MoveToken, Record, Span, SyntaxError};
use crate::core::Color;

/// A cell with no disc and no move: empty, or not on the board (8-stars' cut corners).
pub const BLANK: &str = ".";
/// A hole: a cell of the board nobody may play on.
pub const HOLE: &str = "#";

enum Cell {
    Empty,
    Disc(Color),
    Move(u16),
}

/// A grid's cell as written (full-width forms narrowed): empty (`0` too, which no move has, and
/// `・` `□` as Japanese records draw an empty cell), a start disc, or a move number.
fn cell(word: &str) -> Option<Cell> {
    match word {
        BLANK | HOLE | "-" | "--" | "·" | "+" | "0" | "00" | "_" | "・" | "□" => Some(Cell::Empty),
        "X" | "x" | "B" | "b" | "*" | "●" => Some(Cell::Disc(Color::Black)),
        "O" | "o" | "W" | "w" | "○" | "◯" | "〇" => Some(Cell::Disc(Color::White)),
        _ if word.bytes().all(|b| b.is_ascii_digit()) => word.parse::<u16>().ok().filter(|&n| n > 0).map(Cell::Move),
        _ => None,
    }
}

/// Whether a grid's word is a cell (empty, a start disc, a move number); for recognising a
/// grid, `Some(number)` for a move number.
pub(crate) fn grid_cell(word: &str) -> Option<Option<u16>> {
    cell(word).map(|c| match c {
        Cell::Move(n) => Some(n),
        _ => None,
    })
}

/// The words of a grid's line with their byte ranges in it: split at white space (full-width
/// too), commas and the bars of a drawn grid (`|`, `│`), brackets around a cell dropped
/// (`[44]`), full-width forms narrowed (`４４` is `44`, `ａ` is `a`).
pub(crate) fn grid_words(line: &str) -> Vec<(String, Span)> {
    // A spreadsheet's row (`1,,,28,,` or, in Europe, `1;;;28;;`): an empty field is an empty
    // cell, the spreadsheet writing nothing there.
    if let Some(delimiter) = [';', ','].into_iter().find(|&d| spreadsheet_row(line, d)) {
        let mut words = Vec::new();
        let mut start = 0;
        for field in line.split(delimiter) {
            let end = start + field.len();
            let trimmed = field.trim();
            let at = start + (field.len() - field.trim_start().len());
            if trimmed.is_empty() {
                words.push((".".to_owned(), Span { start: at.min(end), end: (at + 1).min(line.len()).max(at) }));
            } else {
                words.extend(
                    grid_words(trimmed)
                        .into_iter()
                        .map(|(w, span)| (w, Span { start: at + span.start, end: at + span.end })),
                );
            }
            start = end + delimiter.len_utf8();
        }
        return words;
    }
    let separator =
        |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '，' | '、' | '|' | '│' | '┃' | '[' | ']' | '［' | '］');
    let mut words = Vec::new();
    let mut word: Option<(String, usize)> = None;
    for (i, c) in line.char_indices() {
        if separator(c) {
            if let Some((w, start)) = word.take() {
                words.push((w, Span { start, end: i }));
            }
        } else {
            word.get_or_insert_with(|| (String::new(), i)).0.push(super::narrow(c));
        }
    }
    if let Some((w, start)) = word {
        words.push((w, Span { start, end: line.len() }));
    }
    words
}

/// Whether a line is a spreadsheet's row with `delimiter` between its fields and some field
/// empty: two delimiters in a row, or one first; a row of empty fields only when it has the
/// fields of a rank of the smallest board (`,,` alone is separators to skip).
fn spreadsheet_row(line: &str, delimiter: char) -> bool {
    let line = line.trim();
    let doubled: String = [delimiter, delimiter].iter().collect();
    let content = line.chars().any(|c| c != delimiter && !c.is_whitespace());
    line.contains(delimiter)
        && (line.contains(&doubled) || line.starts_with(delimiter))
        && (content || line.matches(delimiter).count() >= 3)
}

/// Whether a line is the border of a drawn grid (`+--+--+`, `┌──┬──┐`, `--------`): drawing
/// characters only, with a box-drawing one or no space (a rank of empty cells `-- -- --` is
/// not a border).
pub(crate) fn is_border(line: &str) -> bool {
    let line = line.trim();
    let boxed = |c: char| ('\u{2500}'..='\u{257F}').contains(&c);
    line.chars().count() >= 3
        && line.chars().all(|c| boxed(c) || matches!(c, '+' | '-' | '=' | '|' | ' '))
        && (line.chars().any(boxed) || !line.contains(' '))
}

/// Whether a line near a grid is text rather than a rank (not a rank of six words or more with
/// a misread cell in four at most): a word of two letters or more, a
/// letter of another script than Latin (`黒`), a `key: value` pair or a result (`30-34`).
pub(crate) fn is_text(line: &str) -> bool {
    // A rank with a cell or two misread (`5 40 22 ll X O 1 16 23`: short words) is no text; a
    // players' line of names in digits (`1 2 3 4 5 6 (black) - ...`) is.
    let words = grid_words(line);
    let bad: Vec<&(String, Span)> = words.iter().filter(|(w, _)| grid_cell(w).is_none()).collect();
    if words.len() >= 6 && bad.len() * 4 <= words.len() && bad.iter().all(|(w, _)| w.chars().count() <= 3) {
        return false;
    }
    super::board::is_text_line(line)
        || words.iter().any(|(w, _)| {
            w.bytes().filter(u8::is_ascii_alphabetic).count() >= 2
                || w.chars().any(|c| !c.is_ascii() && c.is_alphabetic())
                || w.contains(':')
                || super::pgn::counts(w).is_some()
        })
}

/// The keys of a header line's `key: value` pairs, in lower case, and the tags they give:
/// English, Japanese, Chinese, French, German, Dutch, Spanish and Italian.
const HEADER_KEYS: [(&str, &str); 98] = [
    ("black", "black"),
    ("黒番", "black"),
    ("黒", "black"),
    ("先手", "black"),
    ("noir", "black"),
    ("schwarz", "black"),
    ("zwart", "black"),
    ("negras", "black"),
    ("negro", "black"),
    ("nero", "black"),
    ("黑方", "black"),
    ("黑", "black"),
    ("white", "white"),
    ("白番", "white"),
    ("白", "white"),
    ("後手", "white"),
    ("blancas", "white"),
    ("blanco", "white"),
    ("blanc", "white"),
    ("weiß", "white"),
    ("weiss", "white"),
    ("wit", "white"),
    ("bianco", "white"),
    ("白方", "white"),
    ("event", "event"),
    ("tournament", "event"),
    ("大会名", "event"),
    ("大会", "event"),
    ("棋戦", "event"),
    ("tournoi", "event"),
    ("turnier", "event"),
    ("toernooi", "event"),
    ("torneo", "event"),
    ("比赛", "event"),
    ("赛事", "event"),
    ("date", "date"),
    ("対局日", "date"),
    ("日付", "date"),
    ("datum", "date"),
    ("fecha", "date"),
    ("data", "date"),
    ("日期", "date"),
    ("place", "place"),
    ("site", "place"),
    ("場所", "place"),
    ("会場", "place"),
    ("lieu", "place"),
    ("ort", "place"),
    ("plaats", "place"),
    ("lugar", "place"),
    ("luogo", "place"),
    ("地点", "place"),
    ("round", "round"),
    ("ronde", "round"),
    ("runde", "round"),
    ("ronda", "round"),
    ("turno", "round"),
    ("轮次", "round"),
    ("table", "table"),
    ("tisch", "table"),
    ("tafel", "table"),
    ("mesa", "table"),
    ("tavolo", "table"),
    ("source", "source"),
    ("出典", "source"),
    ("出处", "source"),
    ("来源", "source"),
    ("quelle", "source"),
    ("bron", "source"),
    ("fuente", "source"),
    ("fonte", "source"),
    ("annotator", "annotator"),
    ("comment", "comment"),
    ("comments", "comment"),
    ("note", "comment"),
    ("notes", "comment"),
    ("remarks", "comment"),
    ("備考", "comment"),
    ("注", "comment"),
    ("备注", "comment"),
    ("commentaire", "comment"),
    ("remarque", "comment"),
    ("kommentar", "comment"),
    ("anmerkung", "comment"),
    ("opmerking", "comment"),
    ("commentaar", "comment"),
    ("comentario", "comment"),
    ("nota", "comment"),
    ("commento", "comment"),
    ("result", "result"),
    ("結果", "result"),
    ("résultat", "result"),
    ("resultat", "result"),
    ("ergebnis", "result"),
    ("uitslag", "result"),
    ("resultado", "result"),
    ("risultato", "result"),
    ("结果", "result"),
];

/// The header key that `text` starts with, followed by its colon (`Resultado:`, `RÉSULTAT :`,
/// `黒：`): its length in `text` and its tag. Any case; the longest key when several fit.
fn header_key(text: &str) -> Option<(usize, &'static str)> {
    HEADER_KEYS
        .iter()
        .filter(|(key, _)| {
            text.get(..key.len()).is_some_and(|k| k.to_lowercase() == *key)
                && text[key.len()..].trim_start().starts_with([':', '：'])
        })
        .max_by_key(|(key, _)| key.len())
        .map(|&(key, tag)| (key.len(), tag))
}

/// Tags a header line of another key may not set: the reader's own.
const RESERVED_TAGS: [&str; 10] =
    ["rules", "fen", "setup", "score", "scores", "outcome", "extra", "first", "name", "passes"];

/// A key kifu does not know at the start of a header line (`Opening: Tiger`, `Source: OQ
/// 1979/4`): a word of three letters or more (any script; `-` and `_` inside) that is no moves
/// (`pass`, `PAPA`), its colon, and a value that is no line of moves (nor a web address). Its
/// length and its tag (the key in lower case, `-` as `_`).
fn other_key(text: &str) -> Option<(usize, String)> {
    let len = text.find(|c: char| !(c.is_alphabetic() || c == '-' || c == '_'))?;
    let key = &text[..len];
    let value = text[len..].trim_start().strip_prefix([':', '：'])?.trim();
    let letters = key.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 3 || !key.starts_with(char::is_alphabetic) || value.starts_with("//") {
        return None;
    }
    let tag = key.to_lowercase().replace('-', "_");
    // (`pass: 0`: a pass and a score.)
    let moves = super::transcript::is_moves(key) || super::transcript::parse(value).is_ok_and(|r| r.moves.len() >= 2);
    (!moves && !RESERVED_TAGS.contains(&tag.as_str())).then_some((len, tag))
}

/// The tags whose header values are short fields, after which another key may follow on the
/// same line (`Black: Ann  White: Bob`); any other key's value (a comment, a source) runs to the
/// end of the line.
const FIELD_TAGS: [&str; 8] = ["black", "white", "event", "date", "place", "round", "table", "result"];

/// The tags of a header line over a grid: `key: value` pairs with keys kifu knows (`Black:
/// Yamada  White: Sato`, `黒：山田太郎　白：佐藤花子`, `Event: Club meeting`, `大会: 例会`),
/// a result as disc counts or in Japanese (`結果: 白の4石勝ち`).
fn header_tags(line: &str) -> Vec<(String, String)> {
    // Each key at the start of a word, followed by a colon: (where it starts, where its value
    // starts, its tag).
    let mut keys: Vec<(usize, usize, String)> = Vec::new();
    let lead = line.len() - line.trim_start().len();
    for (i, _) in line.char_indices() {
        if i > 0 && !line[..i].ends_with(char::is_whitespace) {
            continue;
        }
        // A key after one space only for the players (`Black: Ann White: Bob`) or after a
        // player's name (`白: 佐藤 大会: 月例会`); others start the line or follow two spaces, a
        // tab or a full-width space (`Event: Final Round: 2` is one event).
        let after_player = keys.last().is_some_and(|(_, _, tag)| matches!(tag.as_str(), "black" | "white"));
        let segment = i == lead || after_player || line[..i].ends_with("  ") || line[..i].ends_with(['\t', '\u{3000}']);
        let rest = &line[i..];
        let known = header_key(rest).filter(|(_, tag)| segment || matches!(*tag, "black" | "white"));
        // A key kifu does not know only where the line starts.
        let Some((key, tag)) =
            known.map(|(key, tag)| (key, tag.to_owned())).or_else(|| (i == lead).then(|| other_key(rest)).flatten())
        else {
            continue;
        };
        let after = rest[key..].trim_start();
        if let Some(value) = after.strip_prefix(':').or_else(|| after.strip_prefix('：')) {
            // A comment, a source or another key's free text runs to the end of the line
            // (`Comment: great game  White: Eve` names no player).
            let free = !FIELD_TAGS.contains(&tag.as_str());
            keys.push((i, line.len() - value.len(), tag));
            if free {
                break;
            }
        }
    }
    let mut tags = Vec::new();
    for (k, (_, from, tag)) in keys.iter().enumerate() {
        let from = *from;
        let to = keys.get(k + 1).map_or(line.len(), |next| next.0);
        // (A leading `-` is a value's own: a result `-18`.)
        let value = line[from..to]
            .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '、' | '/'))
            .trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '、' | '/' | '-'));
        if value.is_empty() {
            continue;
        }
        // A result as written: `parse` reads it with `stated_result`.
        tags.push((tag.clone(), value.to_owned()));
    }
    tags
}

/// Disc counts as people write a result by hand, when they are the whole value: `35 - 29`,
/// `35–29`, `35/29` (not `1/2`: at least the four discs of the start), `B 35 W 29`, `Black 35 -
/// White 29`, `White 29, Black 35`; black's count first.
fn handwritten_counts(value: &str) -> Option<(&str, &str)> {
    let number = |s: &str| (1..=3).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    // Two numbers and one sign between them.
    if let Some((a, b)) = value.split_once(['-', '–', '—', '/']) {
        let (a, b) = (a.trim(), b.trim());
        if number(a) && number(b) {
            let slash = value.contains('/');
            let sum = a.parse::<u32>().ok()? + b.parse::<u32>().ok()?;
            return (!slash || sum >= 4).then_some((a, b));
        }
    }
    // Each count after its colour.
    let words: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ';' | '-' | '–' | '—'))
        .filter(|w| !w.is_empty())
        .collect();
    let [c1, n1, c2, n2] = words[..] else { return None };
    let colour = |w: &str| match w.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(true),
        "w" | "white" => Some(false),
        _ => None,
    };
    match (colour(c1)?, colour(c2)?) {
        (true, false) if number(n1) && number(n2) => Some((n1, n2)),
        (false, true) if number(n1) && number(n2) => Some((n2, n1)),
        _ => None,
    }
}

/// The result a `result:` header value states, as the tag a record keeps it in (`at`: where the
/// value starts in the record): disc counts (also as written by hand: [`handwritten_counts`]), a
/// result in Japanese, a margin, or in words (`Black wins`); other text is kept as the result,
/// for `validate` to say it is none, rather than dropped.
fn result_value(value: &str, at: usize) -> Result<Option<(String, String)>, SyntaxError> {
    // Counts written with a colon (`40:24`, as German results are; `３３：３１`) as counts.
    let narrowed: String = value.trim().chars().map(super::narrow).collect();
    let colon = narrowed.split_once(':').filter(|(a, b)| {
        let number = |s: &str| !s.trim().is_empty() && s.trim().chars().all(|c| c.is_ascii_digit());
        number(a) && number(b)
    });
    let dashed;
    let value = match colon.or_else(|| handwritten_counts(&narrowed)) {
        Some((black, white)) => {
            dashed = format!("{}-{}", black.trim(), white.trim());
            dashed.as_str()
        }
        None => value,
    };
    // The value's words, with their spans in the record.
    let words: Vec<(String, Span)> = grid_words(value)
        .into_iter()
        .map(|(w, span)| (w, Span { start: at + span.start, end: at + span.end }))
        .collect();
    Ok(stated_result(&words)?
        .or_else(|| other_result(value))
        .or_else(|| super::pgn::worded_result(value).map(|(tag, v)| (tag.to_owned(), v)))
        .or_else(|| super::pgn::japanese_result(value).map(|(tag, v)| (tag.to_owned(), v)))
        .or_else(|| {
            let text = value.trim();
            (!matches!(text, "" | "*")).then(|| ("result".to_owned(), text.to_owned()))
        }))
}

/// The tags of a header line over a transcript's moves (`Black: Ann  White: Bob`, `Event:
/// Club night`, `Result: 16-47`, `結果: 白の4石勝ち`; `start`: where the line starts in the
/// record), or `None` when the line is no header line: one that starts with a key kifu knows
/// and its colon. The error is a result that does not read (Japanese that contradicts its
/// counts).
pub(crate) fn header_line(line: &str, start: usize) -> Option<Result<Vec<(String, String)>, SyntaxError>> {
    let text = line.trim_start();
    // `White first` (`first: white`, `白先`): the tag `first`, which a transcript reads as its
    // start.
    // (Checked on every transcript line: moves, which have digits, are not lowered first.)
    if !text.bytes().any(|b| b.is_ascii_digit())
        && let Some(side) = first_side(&text.to_lowercase())
    {
        return Some(Ok(vec![("first".to_owned(), side.to_string())]));
    }
    // `Rules: othello,size=6` over a transcript's moves: the rules, when they are a kifu spec
    // (another program's `Rules: Standard` stays a line kifu does not read).
    if let Some(value) = text
        .get(..5)
        .filter(|k| k.eq_ignore_ascii_case("rules"))
        .and_then(|_| text[5..].trim_start().strip_prefix([':', '：']))
        .map(str::trim)
        .filter(|v| v.parse::<crate::core::Rules>().is_ok())
    {
        return Some(Ok(vec![("rules".to_owned(), value.to_owned())]));
    }
    if header_key(text).is_none() {
        other_key(text)?;
    }
    let mut tags: Vec<(String, String)> = Vec::new();
    for (tag, value) in header_tags(line) {
        if tag != "result" {
            tags.push((tag, value));
            continue;
        }
        let at = start + line.find(value.as_str()).unwrap_or(0);
        match result_value(&value, at) {
            Ok(Some(read)) => tags.push(read),
            Ok(None) => {}
            Err(e) => return Some(Err(e)),
        }
    }
    Some(Ok(tags))
}

/// The result a grid's result line or `result:` value states (`words` with their spans in the
/// file): disc counts ([`counts_line`]) or a result in Japanese (`白勝ち`, `白の4石勝ち`). Both
/// (`30-34 白勝ち`) must agree: the error names the Japanese word that does not.
fn stated_result(words: &[(String, Span)]) -> Result<Option<(String, String)>, SyntaxError> {
    let japanese = words
        .iter()
        .filter(|(w, _)| super::pgn::japanese_counts(w).is_none())
        .find_map(|(w, span)| super::pgn::japanese_result(w).map(|tag| (w, *span, tag)));
    match (counts_line(words), japanese) {
        (Some(counts), Some((word, span, _))) if !super::pgn::results_agree(&counts, word) => {
            Err(SyntaxError { span, message: format!("`{word}` and the result before it, {counts}, disagree") })
        }
        (Some(counts), _) => Ok(Some(("result".to_owned(), counts))),
        (None, Some((_, _, (tag, value)))) => Ok(Some((tag.to_owned(), value))),
        (None, None) => Ok(None),
    }
}

/// The final disc counts a line near a grid gives, black's first: a result alone (`30-34`),
/// between the colours (`黒 30-34 白`, `白 34-30 黒`), or `kifu show`'s count line of a finished
/// game (`black 30, white 34: white wins by 4`).
fn counts_line(words: &[(String, Span)]) -> Option<String> {
    let lower: Vec<String> = words.iter().map(|(w, _)| w.to_lowercase()).collect();
    // (`Black 16, White 47` alone too.)
    if let [black, b, white, w, ..] = &lower[..]
        && black == "black"
        && white == "white"
        && (lower.len() == 4 || lower.iter().any(|w| w.starts_with("win") || w.starts_with("draw")))
    {
        let count = |w: &str| w.trim_end_matches([':', ',', ';', '.']).parse::<u8>().ok();
        let (b, w) = (count(b)?, count(w)?);
        return Some(format!("{b}-{w}"));
    }
    // Counts after a colour in one word (`黒34-30`), the colour's first.
    if let Some((b, w)) = lower.iter().find_map(|w| super::pgn::japanese_counts(w)) {
        return Some(format!("{b}-{w}"));
    }
    // (`30対34`, digits in full width too.)
    let (b, w) = lower.iter().find_map(|w| {
        let w: String = w.chars().map(super::narrow).map(|c| if c == '対' { '-' } else { c }).collect();
        super::pgn::counts(&w)
    })?;
    let white_first = lower.first().is_some_and(|w| w.starts_with('白') || w == "white" || w == "w");
    Some(if white_first { format!("{w}-{b}") } else { format!("{b}-{w}") })
}

/// Whether a line over a grid starts another grid's record when it follows a grid: file letters,
/// `kifu show`'s players line, or a header line of `key: value` pairs kifu knows.
pub(crate) fn starts_a_grid(line: &str) -> bool {
    is_file_letters(&grid_words(line))
        || !super::board::players_line(line).is_empty()
        || header_tags(line).iter().any(|(tag, _)| tag != "result")
}

/// Whether the words are file letters over the columns (`a b c ...`).
fn is_file_letters(words: &[(String, Span)]) -> bool {
    !words.is_empty()
        && words
            .iter()
            .enumerate()
            .all(|(i, (w, _))| w.len() == 1 && w.as_bytes()[0].to_ascii_lowercase() == b'a' + i as u8)
}

/// Whether a line is a grid's rank (cells, not text, file letters or a border).
pub(crate) fn is_rank_line(line: &str) -> bool {
    let words = grid_words(line);
    !words.is_empty() && !is_border(line) && !is_text(line) && !is_file_letters(&words)
}

/// Parses a kifu grid.
pub fn parse(text: &str) -> Result<Record, SyntaxError> {
    // (word, span) per rank line.
    let mut lines: Vec<Vec<(String, Span)>> = Vec::new();
    let mut first = None;
    let mut rules = None;
    // The first move's number when the grid starts after the game's start (`from move 41`).
    let mut from = 1usize;
    // The players of a line `kifu show` writes over the grid.
    let mut players = Vec::new();
    // The passes of a line `kifu show --kifu` writes under it (`passes: white after 1, black
    // before 41`): the number of the placement each follows (`before` the first: one less).
    let mut passes: Vec<(usize, Span)> = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let lower = line.trim().to_ascii_lowercase();
        if lower.is_empty() {
            continue;
        }
        if lower.starts_with("rules ") {
            // The spec as written (a start board's letters keep their case).
            rules = Some(line.trim()["rules ".len()..].trim().to_owned());
            continue;
        }
        if let Some(side) = first_side(&lower) {
            first = Some(side);
            continue;
        }
        let words: Vec<(String, Span)> = grid_words(line)
            .into_iter()
            .map(|(w, span)| (w, Span { start: start + span.start, end: start + span.end }))
            .collect();
        // File letters, a border, or separators alone (`|  |`, `,,`).
        if words.is_empty() || is_file_letters(&words) || is_border(line) {
            continue;
        }
        // Lines of text around the grid (players, passes, the count, as `kifu show --kifu`
        // writes them; a header of `key: value` pairs; a result): a word of two letters or more
        // is never a cell. What the `from move` line says of the first move is kept (the side
        // to move in the count line is the end's).
        if is_text(line) {
            // The players' line is that alone, whatever the names say (`pass: x (black) - ...`).
            let named = super::board::players_line(line);
            if !named.is_empty() {
                players.extend(named);
                continue;
            }
            let header = header_tags(line);
            // A result (a result line, or a `result:` header value, not another header's value
            // such as `Event: 30-34`), which must agree with one given on an earlier line.
            let line_span =
                Span { start: start + (line.len() - line.trim_start().len()), end: start + line.trim_end().len() };
            let add_result = |players: &mut Vec<(String, String)>, tag: Option<(String, String)>| {
                let Some(tag) = tag else { return Ok(()) };
                let before = players.iter().find(|(k, _)| k == "result" || k == "outcome");
                if let Some((_, before)) = before.filter(|(_, v)| !super::pgn::results_agree(v, &tag.1)) {
                    return Err(SyntaxError {
                        span: line_span,
                        message: format!("`{}` and the result before it, {before}, disagree", line.trim()),
                    });
                }
                players.push(tag);
                Ok(())
            };
            if header.is_empty() {
                add_result(&mut players, stated_result(&words)?)?;
            }
            for (tag, value) in header {
                if tag != "result" {
                    players.push((tag, value));
                    continue;
                }
                let at = start + line.find(value.as_str()).unwrap_or(0);
                add_result(&mut players, result_value(&value, at)?)?;
            }
            if let Some(list) = lower.strip_prefix("pass: ").or_else(|| lower.strip_prefix("passes: ")) {
                let span = Span { start, end: start + line.trim_end().len() };
                for entry in list.split(',') {
                    let words: Vec<&str> = entry.split_whitespace().collect();
                    let after = match words[..] {
                        [_, "after", n] => n.parse::<usize>().ok(),
                        [_, "before", n] => n.parse::<usize>().ok().map(|n| n.saturating_sub(1)),
                        _ => None,
                    };
                    let after = after.ok_or_else(|| SyntaxError {
                        span,
                        message: format!("`{}` is no pass (`white after 12`, `black before 1`)", entry.trim()),
                    })?;
                    passes.push((after, span));
                }
            }
            if let Some(after) = lower.strip_prefix("from move ") {
                let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
                from = digits.parse().unwrap_or(1).max(1);
                if lower.contains("black to move") {
                    first = Some(Color::Black);
                } else if lower.contains("white to move") {
                    first = Some(Color::White);
                }
            }
            continue;
        }
        lines.push(words);
    }
    if let Some(e) = rank_missing_or_twice(&lines) {
        return Err(e);
    }
    let n = lines.len();
    if !(4..=16).contains(&n) {
        return Err(SyntaxError {
            span: Span { start: 0, end: text.trim_end().len() },
            message: format!("a kifu grid of {n} rank lines is not a board of 4 to 16 ranks"),
        });
    }
    let mut board = BoardSyntax::empty(n as u8);
    let mut moves: Vec<Option<(MoveSyntax, Span)>> = Vec::new();
    // The cells without a disc or a move, and the first number written twice.
    let mut empty: Vec<(MoveSyntax, Span)> = Vec::new();
    let mut discs: Vec<(MoveSyntax, Span)> = Vec::new();
    let mut twice: Option<(usize, MoveSyntax, MoveSyntax, Span)> = None;
    let number = |(word, _): &(String, Span)| word.parse::<usize>().ok();
    // Whether every line that has room for a rank label has the rank it would have with rank
    // `n` on top (`descending`) or rank 1 on top at one of its ends.
    let labels_fit = |descending: bool| {
        lines.iter().enumerate().all(|(i, words)| {
            let rank = if descending { n - i } else { i + 1 };
            words.len() <= n
                || words.first().and_then(number) == Some(rank)
                || words.last().and_then(number) == Some(rank)
        })
    };
    let labelled = lines.iter().any(|words| words.len() > n);
    // Without rank numbers the first line is rank 1, unless the start discs then stand upside
    // down (Black on d4 and e5): the grid was drawn with rank 8 on top.
    let disc = |line: usize, file: usize| match lines[line].get(file).and_then(|(w, _)| cell(w)) {
        Some(Cell::Disc(c)) => Some(c),
        _ => None,
    };
    let (mid, black, white) = (n / 2, Some(Color::Black), Some(Color::White));
    let upside_down = !labelled
        && rules.is_none()
        && from == 1
        && n.is_multiple_of(2)
        && [disc(mid - 1, mid - 1), disc(mid - 1, mid), disc(mid, mid - 1), disc(mid, mid)]
            == [black, white, white, black];
    let descending = upside_down
        || labelled && labels_fit(true) && (!labels_fit(false) || lines[0].first().and_then(number) == Some(n));
    for (i, words) in lines.iter().enumerate() {
        let rank = if descending { n - i } else { i + 1 };
        let mut cells = &words[..];
        // A leading label only when it is the expected rank; else a trailing one.
        if cells.len() > n && number(&cells[0]) == Some(rank) {
            cells = &cells[1..];
        }
        if cells.len() == n + 1 && number(&cells[n]) == Some(rank) {
            cells = &cells[..n];
        }
        if cells.len() > n && cells.len() <= n + 2 {
            // A label that is not the expected rank: name the end that holds a number.
            let (label, span) = if cells.len() == n + 2 || number(&cells[0]).is_some() && number(&cells[n]).is_none() {
                &cells[0]
            } else {
                &cells[cells.len() - 1]
            };
            let span = *span;
            if label.parse::<usize>().is_ok() {
                return Err(SyntaxError { span, message: format!("rank {label} where rank {rank} was expected") });
            }
        }
        if cells.len() != n {
            let span = Span { start: words[0].1.start, end: words[words.len() - 1].1.end };
            let count = match cells.len() {
                1 => "1 cell".to_owned(),
                k => format!("{k} cells"),
            };
            let blanks = if cells.len() < n { " (an empty cell needs a mark: `.`, `-` or `・`)" } else { "" };
            return Err(SyntaxError {
                span,
                message: format!("{count} on a rank of {} grid{blanks}", crate::core::a_board_size(n as u8)),
            });
        }
        for (file, (word, span)) in cells.iter().enumerate() {
            let span = *span;
            match cell(word) {
                Some(Cell::Empty) if word != HOLE => {
                    empty.push((MoveSyntax::Square { file: file as u8, rank: rank as u8 }, span));
                }
                // A hole: the rules must have it (a grid without a `rules` line is told so).
                Some(Cell::Empty) => board.unplayable.push((rank - 1) * n + file),
                Some(Cell::Disc(c)) => {
                    board.cells[(rank - 1) * n + file] = Some(c);
                    discs.push((MoveSyntax::Square { file: file as u8, rank: rank as u8 }, span));
                }
                Some(Cell::Move(k)) => {
                    let number = usize::from(k);
                    if number < from {
                        return Err(SyntaxError { span, message: format!("move {number} in a grid from move {from}") });
                    }
                    let k = number + 1 - from;
                    if k > n * n {
                        return Err(SyntaxError {
                            span,
                            message: format!("move {number} on a board of {} cells", n * n),
                        });
                    }
                    if moves.len() < k {
                        moves.resize(k, None);
                    }
                    let square = MoveSyntax::Square { file: file as u8, rank: rank as u8 };
                    match moves[k - 1] {
                        // The first number written twice, told after the grid (with the one
                        // missing, if one is).
                        Some((first, _)) => {
                            twice.get_or_insert((number, first, square, span));
                        }
                        None => moves[k - 1] = Some((square, span)),
                    }
                }
                None => {
                    // A number misread (`3O`, `ll`, `4S`): the number it reads as, when the grid
                    // lacks it.
                    let written = |k: usize| lines.iter().flatten().any(|(w, _)| w.parse::<usize>().ok() == Some(k));
                    let reading = misread_number(word).filter(|&k| (from..from + n * n).contains(&k) && !written(k));
                    // Else, a smudged cell (`?`, `x`) where one number is missing.
                    let highest = (from..from + n * n).rev().find(|&k| written(k)).unwrap_or(0);
                    let missing: Vec<usize> = (from..highest).filter(|&k| !written(k)).collect();
                    let hint = match (reading, &missing[..]) {
                        (Some(k), _) => format!(": {k}, which the grid lacks?"),
                        (None, [k]) => format!(": move {k}, the one number the grid lacks?"),
                        _ => String::new(),
                    };
                    return Err(SyntaxError {
                        span,
                        message: format!(
                            "`{word}` is not a move number, a start disc (X O) or an empty cell (.){hint}"
                        ),
                    });
                }
            }
        }
    }
    check_numbers(&moves, from, &empty, &stray_discs(&board, &discs), twice)?;
    let mut record = Record { tags: players, ..Record::default() };
    let last = from - 1 + moves.len();
    let pass_after = |number: usize, record: &mut Record| {
        for &(_, span) in passes.iter().filter(|(after, _)| *after == number) {
            record.moves.push(MoveToken { mv: MoveSyntax::Pass, span, ..MoveToken::default() });
        }
    };
    if let Some(&(after, span)) = passes.iter().find(|(after, _)| *after + 1 < from || *after > last) {
        return Err(SyntaxError { span, message: format!("a pass after move {after}, outside the grid's moves") });
    }
    pass_after(from - 1, &mut record);
    // Every move is there (`check_numbers`).
    for (k, (mv, span)) in moves.into_iter().flatten().enumerate() {
        record.moves.push(MoveToken { mv, span, ..MoveToken::default() });
        pass_after(k + from, &mut record);
    }
    board.side = first;
    record.start = Some(board);
    if let Some(spec) = rules {
        record.tags.push(("rules".into(), spec));
    }
    Ok(record)
}

/// The numbers of a grid's moves (`moves[k]` holds move `from + k`) must run without a gap or a
/// repeat: the error names the number written `twice` (both squares) or the first missing one
/// (where the next stands, or the one `empty` cell that must be it), with the likely fix.
/// A grid with a rank line left out or written twice, its lines all as long: a rank label and
/// a cell for each of the board's ranks, the labels in order but for the one (or, unlabelled,
/// two lines alike one after the other): the error naming it.
fn rank_missing_or_twice(lines: &[Vec<(String, Span)>]) -> Option<SyntaxError> {
    let width = lines.first()?.len();
    if width < 4 || lines.iter().any(|l| l.len() != width) {
        return None;
    }
    let whole = |line: &[(String, Span)]| Span { start: line[0].1.start, end: line[line.len() - 1].1.end };
    let words = |line: &[(String, Span)]| line.iter().map(|(w, _)| w.clone()).collect::<Vec<_>>();
    // Unlabelled: a rank line too many, two alike.
    if lines.len() == width + 1 && (4..=16).contains(&width) {
        let twice = (1..lines.len()).find(|&i| words(&lines[i]) == words(&lines[i - 1]))?;
        return Some(SyntaxError {
            span: whole(&lines[twice]),
            message: format!("this rank line is written twice: the grid has {} lines of {width} cells", lines.len()),
        });
    }
    // Unlabelled (no column of rank numbers at either end): a rank line too few (the lines
    // would otherwise read as labelled by their first or last numbers).
    let numbered =
        |column: usize| lines.iter().all(|l| l[column].0.parse::<usize>().is_ok_and(|r| (1..=16).contains(&r)));
    if lines.len() + 1 == width && (4..=16).contains(&width) && !numbered(0) && !numbered(width - 1) {
        let first = &lines[0];
        return Some(SyntaxError {
            span: whole(first),
            message: format!("a rank line is missing: the grid has {} lines of {width} cells", lines.len()),
        });
    }
    // (Labels on both sides take two words.)
    let both_sides = lines.iter().all(|l| l[0].0 == l[width - 1].0);
    let n = width - 1 - usize::from(both_sides);
    let labels: Vec<usize> = lines.iter().map(|l| l[0].0.parse().ok()).collect::<Option<_>>()?;
    if !(4..=16).contains(&n) || labels.len() < 2 {
        return None;
    }
    let expected: Vec<usize> =
        if labels[0] > labels[labels.len() - 1] { (1..=n).rev().collect() } else { (1..=n).collect() };
    if lines.len() + 1 == n {
        let gap = (0..n).find(|&i| labels.get(i) != Some(&expected[i]))?;
        let mut rest = expected.clone();
        rest.remove(gap);
        if rest != labels {
            return None;
        }
        let (rank, next) = (expected[gap], &lines[gap.min(lines.len() - 1)]);
        return Some(SyntaxError {
            span: next[0].1,
            message: format!("rank {rank} is missing: the grid has {} rank lines of {n} cells", lines.len()),
        });
    }
    if lines.len() == n + 1 {
        let twice = (1..lines.len()).find(|&i| labels[i] == labels[i - 1])?;
        let mut rest = labels.clone();
        rest.remove(twice);
        if rest != expected {
            return None;
        }
        return Some(SyntaxError {
            span: whole(&lines[twice]),
            message: format!("rank {} is written twice: on this line and the one before", labels[twice]),
        });
    }
    None
}

/// The side a line under a grid says began the game: `white first` (as kifu writes it),
/// `White moves first`, `first: white`, `白先` (and the same for black).
fn first_side(lower: &str) -> Option<Color> {
    let line = lower.trim().trim_end_matches(['.', '。']);
    let side = |word: &str| match word {
        "black" | "黒" => Some(Color::Black),
        "white" | "白" => Some(Color::White),
        _ => None,
    };
    if let Some(word) = line.strip_suffix(" first") {
        return side(word.trim_end_matches(" moves"));
    }
    if let Some(word) = line.strip_prefix("first:") {
        return side(word.trim());
    }
    line.strip_suffix('先').and_then(|word| side(word.trim()))
}

/// The number a cell misread by hand or by OCR likely is: letters that look like digits read as
/// them (`3O` 30, `ll` 11, `4S` 45, `B` 8); none when that gives no number or the word has no
/// such letter.
fn misread_number(word: &str) -> Option<usize> {
    let mut changed = false;
    let digits: String = word
        .chars()
        .map(|c| {
            let digit = match c {
                'O' | 'o' | 'D' | 'Q' => '0',
                'l' | 'I' | 'i' | '|' | '!' => '1',
                'Z' | 'z' => '2',
                'S' | 's' => '5',
                'G' | 'b' => '6',
                'T' => '7',
                'B' => '8',
                'g' | 'q' => '9',
                c => return c,
            };
            changed = true;
            digit
        })
        .collect();
    digits.parse().ok().filter(|_| changed)
}

/// The discs of a grid outside the centre's four squares, where a standard start has them: a
/// move number misread as a disc (`b` for 6), when a number is missing.
fn stray_discs(board: &BoardSyntax, spans: &[(MoveSyntax, Span)]) -> Vec<(MoveSyntax, Span)> {
    let n = usize::from(board.size);
    let centre = |i: usize| (n / 2 - 1..=n / 2).contains(&(i / n)) && (n / 2 - 1..=n / 2).contains(&(i % n));
    spans
        .iter()
        .filter(|(mv, _)| match *mv {
            MoveSyntax::Square { file, rank } => {
                let i = (usize::from(rank) - 1) * n + usize::from(file);
                !centre(i) && board.cells[i].is_some()
            }
            MoveSyntax::Pass => false,
        })
        .copied()
        .collect()
}

fn check_numbers(
    moves: &[Option<(MoveSyntax, Span)>],
    from: usize,
    empty: &[(MoveSyntax, Span)],
    stray: &[(MoveSyntax, Span)],
    twice: Option<(usize, MoveSyntax, MoveSyntax, Span)>,
) -> Result<(), SyntaxError> {
    let missing: Vec<usize> = moves.iter().enumerate().filter(|(_, m)| m.is_none()).map(|(k, _)| k + from).collect();
    if let Some((number, first, second, span)) = twice {
        let hint = match missing[..] {
            [m] => format!(", and move {m} is missing: one of them is likely {m}"),
            _ => String::new(),
        };
        return Err(SyntaxError {
            span,
            message: format!("move {number} is written twice ({first} and {second}){hint}"),
        });
    }
    let Some(&gap) = missing.first() else { return Ok(()) };
    // One number well past the moves written (not just the next), and one missing among them:
    // likely a typo for it.
    let written = moves.iter().filter(|m| m.is_some()).count();
    let last = from + written - 1;
    let past: Vec<(usize, Span)> = moves
        .iter()
        .enumerate()
        .skip(written)
        .filter_map(|(k, m)| m.map(|(_, span)| (k + from, span)))
        .filter(|&(number, _)| number > last + 1)
        .collect();
    if let ([(number, span)], [typo]) = (&past[..], &missing.iter().filter(|&&m| m <= last).collect::<Vec<_>>()[..]) {
        return Err(SyntaxError {
            span: *span,
            message: format!(
                "move {typo} is missing, and move {number} is past the {written} moves written: {number} is likely {typo}"
            ),
        });
    }
    let mut message = format!("move {gap} is missing");
    // The next number written (the last always is).
    let (next, (square, mut span)) =
        moves.iter().enumerate().skip(gap + 1 - from).find_map(|(k, m)| m.map(|m| (k + from, m))).unwrap_or_default();
    if let ([(only, at)], [_]) = (empty, &missing[..]) {
        message.push_str(&format!(": {only} is the only cell without a disc or a number"));
        span = *at;
    } else if let ([(square, at)], [_]) = (stray, &missing[..]) {
        message.push_str(&format!(": the disc on {square} is outside the start's four squares: likely move {gap}?"));
        span = *at;
    } else if next > 0 {
        message.push_str(&format!(" (move {next} is on {square})"));
    }
    Err(SyntaxError { span, message })
}

/// Writes a kifu grid of the record's placements over its start board (the standard 8x8 start
/// when it has none): the players' line when the record names a player, a line each for its
/// event, date, place, round, table, source, annotator and comment (`Event: ...`), file
/// letters on top, rank numbers on the left, two-digit cells, holes as `#`; then the
/// [`footer`].
#[must_use]
pub fn write(record: &Record) -> String {
    let board = record.start.clone().unwrap_or_else(standard_start);
    let n = usize::from(board.size);
    let mut grid: Vec<String> = board
        .cells
        .iter()
        .map(|c| match c {
            Some(Color::Black) => "X".to_owned(),
            Some(Color::White) => "O".to_owned(),
            None => BLANK.to_owned(),
        })
        .collect();
    let rules = record.rules().and_then(Result::ok);
    // Holes and cut cells, from rules of the board's size.
    if let Some(rules) = rules.as_ref().filter(|r| r.size() == board.size) {
        for (i, cell) in grid.iter_mut().enumerate() {
            let (file, rank) = ((i % n) as u8, (i / n + 1) as u8);
            if rules.square_at(file, rank).is_some_and(|sq| !rules.playable().contains(sq)) {
                *cell = HOLE.to_owned();
            }
        }
    }
    let placements = record.moves.iter().filter_map(|t| match t.mv {
        MoveSyntax::Square { file, rank } if file < board.size && (1..=board.size).contains(&rank) => {
            Some(usize::from(rank - 1) * n + usize::from(file))
        }
        _ => None,
    });
    for (k, i) in placements.enumerate() {
        grid[i] = (k + 1).to_string();
    }
    // Columns as wide as the widest cell (move 100 on a board of 10x10 and more).
    let width = grid.iter().map(String::len).max().unwrap_or(2).max(2);
    let mut out = String::new();
    // The players, as `kifu show` writes them over a board, when the record names one.
    if let Some([black, white]) = super::board::players_of(record) {
        out.push_str(&super::board::write_players(&black, &white));
        out.push('\n');
    }
    // The tags a header line reads back.
    const NAMED: [(&str, &str); 8] = [
        ("event", "Event"),
        ("date", "Date"),
        ("place", "Place"),
        ("round", "Round"),
        ("table", "Table"),
        ("source", "Source"),
        ("annotator", "Annotator"),
        ("comment", "Comment"),
    ];
    // (Runs of spaces as one: two spaces would start another key, `  White: Eve`.)
    let one_line = |value: &str| super::printable(value).split_whitespace().collect::<Vec<_>>().join(" ");
    // Whether a header line reads back as that tag and value alone.
    let reads_back = |line: &str, tag: &str, value: &str| matches!(header_line(line, 0), Some(Ok(read)) if read == [(tag.to_owned(), value.to_owned())]);
    for (tag, key) in NAMED {
        if let Some(value) = record.tag(tag).map(str::trim).filter(|v| !v.is_empty() && *v != "?") {
            out.push_str(&format!("{key}: {}\n", one_line(value)));
        }
    }
    // Every other tag as `Key: value` (`Termination: time forfeit`, `Black_rating: 2101`), where
    // the line reads back as that tag and value; the players, the result and the rules have
    // their own lines, and a komi game is written with its board's result (so no komi).
    const OWN_LINES: [&str; 8] = ["black", "white", "result", "outcome", "score", "rules", "passes", "komi"];
    for (tag, value) in &record.tags {
        let value = value.trim().to_owned();
        if NAMED.iter().any(|(named, _)| named == tag)
            || OWN_LINES.contains(&tag.as_str())
            || RESERVED_TAGS.contains(&tag.as_str())
            || matches!(value.as_str(), "" | "?")
            || one_line(&value) != value
        {
            continue;
        }
        let mut key: Vec<char> = tag.chars().collect();
        key[0] = key[0].to_uppercase().next().unwrap_or(key[0]);
        let line = format!("{}: {value}", key.into_iter().collect::<String>());
        if reads_back(&line, tag, &value) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str("  ");
    for file in 0..n {
        out.push_str(&format!(" {:>width$}", (b'a' + file as u8) as char));
    }
    out.push('\n');
    // Ranks as the rules number them: rank 1 at the bottom under `rows=bottom` (the labels say
    // which way the grid runs, and the reader follows them).
    let bottom_up = rules.is_some_and(|r| r.variant().rows == crate::core::RowNumbering::Bottom);
    let ranks: Vec<usize> = if bottom_up { (0..n).rev().collect() } else { (0..n).collect() };
    for rank in ranks {
        out.push_str(&format!("{:>2}", rank + 1));
        for file in 0..n {
            out.push_str(&format!(" {:>width$}", grid[rank * n + file]));
        }
        out.push('\n');
    }
    // The passes the record keeps (voluntary ones), as `kifu show --kifu` writes them: the
    // placement each follows.
    let mut passes = Vec::new();
    let mut next = 1u32;
    for token in &record.moves {
        match token.mv {
            MoveSyntax::Pass => {
                let who = token.color.map_or("a player".to_owned(), |c| c.to_string());
                passes.push(pass_entry(&who, next, 1));
            }
            _ => next += 1,
        }
    }
    if let Some(line) = passes_line(&passes) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(result) = written_result(record) {
        out.push_str(&format!("Result: {result}\n"));
    } else if let Some(stated) =
        record.tag("result").or(record.tag("outcome")).map(str::trim).filter(|s| one_line(s) == *s)
    {
        // Other text (`Void`, a margin in fractions) as it is, where it reads back so.
        let line = format!("Result: {stated}");
        if reads_back(&line, "result", stated) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    for line in footer(board.side, record.tag("rules")) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The result a record states, as a grid's `Result:` line writes it: the disc counts when it
/// has them (`41-23`), else the margin (`B+16`, `W+4`, `draw`) or the winner alone (`B+R` for a
/// resignation, `W+T` on time, `B+` for PGN's `1-0`); `None` when it states none, or nothing
/// the line reads back (text that is no result, a margin in fractions).
pub(crate) fn written_result(record: &Record) -> Option<String> {
    if let Some((black, white)) = record.tag("score").and_then(super::pgn::counts) {
        return Some(format!("{black}-{white}"));
    }
    let stated = record.tag("result").or(record.tag("outcome")).map(str::trim).filter(|r| !r.is_empty())?;
    let margin = stated.strip_prefix('+').unwrap_or(stated).parse::<f64>().ok();
    match (margin, stated) {
        (Some(m), _) if m.fract() != 0.0 || m.abs() > 256.0 => None,
        (Some(m), _) if m > 0.0 => Some(format!("B+{m}")),
        (Some(m), _) if m < 0.0 => Some(format!("W+{}", -m)),
        (Some(_), _) | (None, "1/2-1/2") => Some("draw".to_owned()),
        (None, other) => super::win_without_margin(other).map(|(winner, by)| {
            let by = if by == super::WinBy::Unsaid { super::termination_win_by(record) } else { by };
            super::winner_form(winner, by)
        }),
    }
}

/// A result value in the forms other records state it (`B+16`, `W+R`, `+16`, `-4`, `1-0`,
/// `0-1`, `1/2-1/2`, `draw`), as the tag a record keeps it in; `None` for other text.
fn other_result(value: &str) -> Option<(String, String)> {
    let value = value.trim();
    if value.eq_ignore_ascii_case("draw") {
        return Some(("result".to_owned(), "0".to_owned()));
    }
    if matches!(value, "1-0" | "0-1" | "1/2-1/2") {
        return Some(("outcome".to_owned(), value.to_owned()));
    }
    if super::win_without_margin(value).is_some() {
        return Some(("result".to_owned(), value.to_ascii_uppercase()));
    }
    // (Margins up to 256, a 16x16 board's: PGN's reader takes two digits.)
    let margin = value.get(..2).filter(|p| ["B+", "W+"].contains(&p.to_ascii_uppercase().as_str()));
    let number = |s: &str| s.parse::<f64>().ok().filter(|m| m.is_finite() && m.abs() <= 256.0 && m.fract() == 0.0);
    let m = match margin {
        Some(prefix) if prefix.eq_ignore_ascii_case("W+") => -number(&value[2..])?,
        Some(_) => number(&value[2..])?,
        None if value.starts_with(['+', '-']) || value == "0" => number(value)?,
        None => return None,
    };
    Some(("result".to_owned(), super::wthor::signed(m as i32)))
}

/// One pass of a grid's passes line: `white after 9`, or `black before 41` for a pass before
/// the grid's first number `first` (`next` is the number of the placement after the pass).
#[must_use]
pub fn pass_entry(who: &str, next: u32, first: u32) -> String {
    if next == first { format!("{who} before {next}") } else { format!("{who} after {}", next - 1) }
}

/// The line under a grid that lists its passes (`passes: white after 9, black after 12`), read
/// back by [`parse`]; `None` without passes.
#[must_use]
pub fn passes_line(passes: &[String]) -> Option<String> {
    let word = if passes.len() == 1 { "pass" } else { "passes" };
    (!passes.is_empty()).then(|| format!("{word}: {}", passes.join(", ")))
}

/// The lines under a grid for what its cells cannot say: `white first` for a game White opened
/// (`first`), `rules SPEC` for a game of another variant than standard Othello.
#[must_use]
pub fn footer(first: Option<Color>, rules: Option<&str>) -> Vec<String> {
    let white = (first == Some(Color::White)).then(|| "white first".to_owned());
    white.into_iter().chain(rules.map(|spec| format!("rules {spec}"))).collect()
}

pub(crate) fn standard_start() -> BoardSyntax {
    let mut b = BoardSyntax::empty(8);
    for (file, rank, c) in [(3, 4, Color::White), (4, 5, Color::White), (3, 5, Color::Black), (4, 4, Color::Black)] {
        b.cells[(rank - 1) * 8 + file] = Some(c);
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Passes, Rules};
    use crate::notation::transcript;

    #[test]
    fn a_game_round_trips_through_a_grid() {
        let game = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
        let record = transcript::parse(game).unwrap();
        let grid = write(&record);
        let back = parse(&grid).unwrap();
        assert_eq!(transcript::write(&back, transcript::Style::Compact), game);
        assert_eq!(back.start, Some(standard_start()));
        let replay = back.game(Rules::othello().shared()).unwrap().replay(Passes::Implicit).unwrap();
        assert_eq!(replay.inferred_passes, 1);
        // Unlabelled, rank 8 on top.
        let lines: Vec<&str> = grid.lines().skip(1).collect();
        let flipped: Vec<String> = lines.iter().rev().map(|l| l[2..].to_owned()).collect();
        let mut labelled: Vec<String> = lines.iter().rev().map(|l| l.to_string()).collect();
        labelled.push(grid.lines().next().unwrap().to_owned());
        let moves = |r: &Record| transcript::write(r, transcript::Style::Compact);
        assert_eq!(moves(&parse(&labelled.join("\n")).unwrap()), game);
        // No numbers: the first line is rank 1, unless the start discs then stand upside down.
        assert_eq!(moves(&parse(&flipped.join("\n")).unwrap()), game);
        let swapped: Vec<String> = lines.iter().map(|l| l[2..].to_owned()).collect();
        assert_eq!(moves(&parse(&swapped.join("\n")).unwrap()), game);
    }

    /// A partial game saved from a spreadsheet: its empty cells are empty fields, separated by
    /// commas or (European settings) semicolons.
    #[test]
    fn a_spreadsheets_empty_fields_are_empty_cells() {
        let ranks =
            [",,,,,,,", ",,,,,,,", ",,3,4,,8,,", ",,5,O,X,6,,", ",,,X,O,1,,", ",,,2,9,7,,", ",,,,10,,,", ",,,,,,,"];
        let moves = |r: &Record| transcript::write(r, transcript::Style::Compact);
        let comma = ranks.join("\r\n");
        assert_eq!(moves(&parse(&comma).unwrap()), "f5d6c3d3c4f4f6f3e6e7");
        assert_eq!(moves(&parse(&comma.replace(',', ";")).unwrap()), "f5d6c3d3c4f4f6f3e6e7");
        // A full grid with semicolons.
        let full = "1;2;3\n4;X;O\n5;O;X";
        assert_eq!(grid_words(full.lines().next().unwrap()).len(), 3);
        assert_eq!(grid_words(";;3").iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>(), [".", ".", "3"]);
    }

    /// A stated result is written under the grid and read back in the tag it came from:
    /// counts, margins, a winner alone, a resignation.
    #[test]
    fn a_stated_result_round_trips_through_a_grid() {
        let mut record = transcript::parse("f5d6c3").unwrap();
        for (tag, value, line, back) in [
            ("score", "40-24", "Result: 40-24", ("result", "40-24")),
            ("result", "+16.000", "Result: B+16", ("result", "+16")),
            ("result", "-4", "Result: W+4", ("result", "-4")),
            ("result", "0", "Result: draw", ("result", "0")),
            ("result", "B+R", "Result: B+R", ("result", "B+R")),
            ("outcome", "0-1", "Result: W+", ("result", "W+")),
        ] {
            record.tags = vec![(tag.to_owned(), value.to_owned())];
            let grid = write(&record);
            assert!(grid.lines().any(|l| l == line), "{value}: {grid}");
            assert_eq!(parse(&grid).unwrap().tag(back.0), Some(back.1), "{value}");
        }
        // Text that is no result (or a margin in fractions) is written as it is when it reads
        // back so, else not at all.
        for (text, written) in [("-2.00 8. b2\nc8", false), ("Void", true), ("+16.5", true)] {
            record.tags = vec![("result".to_owned(), text.to_owned())];
            let grid = write(&record);
            assert_eq!(grid.contains("Result:"), written, "{text}: {grid}");
            if written {
                assert_eq!(parse(&grid).unwrap().tag("result"), Some(text), "{grid}");
            }
        }
        // Other forms a secretary writes.
        let grid = write(&transcript::parse("f5d6c3").unwrap());
        for (line, tag, value) in
            [("Result: 1-0", "outcome", "1-0"), ("結果: 30対34", "result", "30-34"), ("Result: -18", "result", "-18")]
        {
            assert_eq!(parse(&format!("{grid}{line}\n")).unwrap().tag(tag), Some(value), "{line}");
        }
    }

    /// Keys after a player's name on one line start their own values.
    #[test]
    fn keys_after_a_players_name_are_their_own() {
        let tags = |line: &str| header_tags(line);
        let pairs = |v: &[(&str, &str)]| v.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        assert_eq!(
            tags("黒: 田中 白: 佐藤 大会: 月例会"),
            pairs(&[("black", "田中"), ("white", "佐藤"), ("event", "月例会")])
        );
        assert_eq!(
            tags("Black: Tanaka White: Sato Event: Club"),
            pairs(&[("black", "Tanaka"), ("white", "Sato"), ("event", "Club")])
        );
        assert_eq!(tags("Event: Final Round: 2"), pairs(&[("event", "Final Round: 2")]));
    }

    #[test]
    fn a_rules_line_names_the_variant() {
        let grid = "  a b c d\n1 . . . .\n2 . O X 1\n3 . X O .\n4 . . . .\nrules anti,size=4\n";
        let record = parse(grid).unwrap();
        assert_eq!(record.tag("rules"), Some("anti,size=4"));
        assert_eq!(record.moves.len(), 1);
        assert!(write(&record).ends_with("\nrules anti,size=4\n"));
        assert_eq!(parse(&write(&record)).unwrap().without_layout(), record.without_layout());
    }

    #[test]
    fn errors_name_the_cell() {
        let grid = ". . . .\n. O X .\n. X O 2\n. . 1 3";
        let r = parse(grid).unwrap();
        assert_eq!(r.moves.len(), 3);
        let err = parse(&grid.replace('3', "1")).unwrap_err();
        assert!(err.message.contains("twice"), "{}", err.message);
        assert!(parse(&grid.replace('3', "5")).unwrap_err().message.contains("move 3 is missing"));
        let bad = grid.replace('2', "z");
        let err = parse(&bad).unwrap_err();
        assert_eq!(&bad[err.span.start..err.span.end], "z");
        assert!(parse(". .\n. .").is_err());
    }

    /// A grid copied by hand or by OCR: a cell misread (`3O`, `ll`, `?`), a number read as a
    /// disc, a rank line left out or printed twice; each named with what it likely was.
    #[test]
    fn misread_grids_say_what_was_likely_meant() {
        let grid = include_str!("../../samples/kifu.txt");
        let message = |from: &str, to: &str| {
            assert!(grid.contains(from), "{from}");
            parse(&grid.replacen(from, to, 1)).unwrap_err().message
        };
        let ranks: Vec<&str> =
            grid.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
        let rank = |r: usize| ranks[r - 1];
        // A cell's number with a letter for a digit, or smudged.
        let cell = |r: usize, k: usize| rank(r).split_whitespace().nth(k).unwrap().to_owned();
        let (number, line) = (cell(5, 3), rank(5));
        let misread = number.replace('1', "l").replace('0', "O").replace('5', "S").replace('8', "B");
        if misread != number {
            let m = message(line, &line.replacen(&format!(" {number} "), &format!(" {misread} "), 1));
            assert!(m.ends_with(&format!(": {number}, which the grid lacks?")), "{m}");
        }
        let m = message(line, &line.replacen(&format!(" {number} "), " ? ", 1));
        assert!(m.ends_with(&format!(": move {number}, the one number the grid lacks?")), "{m}");
        // A number read as a disc, outside the centre.
        let m = message(line, &line.replacen(&format!(" {number} "), " X ", 1));
        assert!(m.starts_with(&format!("move {number} is missing: the disc on ")) && m.contains("likely move"), "{m}");
        // Two misread in one rank: still a rank, the first named.
        let two = line.replacen(&format!(" {number} "), &format!(" {misread} "), 1).replacen(" 22 ", " 2Z ", 1);
        assert!(message(line, &two).starts_with(&format!("`{misread}` is not a move number")), "{two}");
        // A rank line left out, or printed twice.
        assert_eq!(message(&format!("{}\n", rank(5)), ""), "rank 5 is missing: the grid has 7 rank lines of 8 cells");
        let twice = message(&format!("{}\n", rank(6)), &format!("{}\n{}\n", rank(6), rank(6)));
        assert_eq!(twice, "rank 6 is written twice: on this line and the one before");
    }

    /// Players named in digits write a line that reads back as the players', not as a rank.
    #[test]
    fn players_named_in_digits_read_back() {
        let mut record = transcript::parse("f5d6c3d3c4").unwrap();
        record.set_tag("black", "1 2 3 4 5 6");
        record.set_tag("white", "7 8");
        let back = parse(&write(&record)).unwrap();
        assert_eq!(back.tag("black"), Some("1 2 3 4 5 6"));
        assert_eq!(back.moves.len(), 5);
    }

    /// The line saying White began, in the words printed records use.
    #[test]
    fn the_first_side_in_other_words() {
        for line in ["white first", "White moves first.", "first: white", "白先", "White first"] {
            assert_eq!(first_side(&line.to_ascii_lowercase()), Some(Color::White), "{line}");
        }
        assert_eq!(first_side("black moves first"), Some(Color::Black));
        assert_eq!(first_side("黒先"), Some(Color::Black));
        assert_eq!(first_side("who moves first"), None);
    }

    /// The cells of `samples/kifu.txt` (a whole game, white wins 34-30) by rank.
    fn sample_ranks() -> Vec<Vec<String>> {
        let grid = include_str!("../../samples/kifu.txt");
        grid.lines().skip(1).map(|l| l.split_whitespace().skip(1).map(str::to_owned).collect()).collect()
    }

    #[test]
    fn grids_as_people_type_them() {
        let ranks = sample_ranks();
        let expected =
            parse(&write(&parse(&ranks.iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n")).unwrap()))
                .unwrap()
                .moves
                .len();
        let full_width = |s: &str| {
            s.chars()
                .map(|c| if ('!'..='~').contains(&c) { char::from_u32(c as u32 + 0xFEE0).unwrap() } else { c })
                .collect::<String>()
        };
        let layouts: Vec<String> = vec![
            // Bordered, with rank labels.
            std::iter::once("+--".repeat(8) + "+")
                .chain(ranks.iter().enumerate().map(|(i, r)| format!("{} |{}|", i + 1, r.join("|"))))
                .chain(std::iter::once("+--".repeat(8) + "+"))
                .collect::<Vec<_>>()
                .join("\n"),
            // Box drawing.
            std::iter::once(format!("┌{}──┐", "──┬".repeat(7)))
                .chain(ranks.iter().map(|r| format!("│{}│", r.join("│"))))
                .chain(std::iter::once(format!("└{}──┘", "──┴".repeat(7))))
                .collect::<Vec<_>>()
                .join("\n"),
            // From a spreadsheet; bracketed cells.
            ranks.iter().map(|r| r.join(",")).collect::<Vec<_>>().join("\n"),
            ranks
                .iter()
                .map(|r| r.iter().map(|c| format!("[{c:>2}]")).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n"),
            // Full width, file letters and rank labels too.
            std::iter::once(full_width("a b c d e f g h"))
                .chain(ranks.iter().enumerate().map(|(i, r)| full_width(&format!("{} {}", i + 1, r.join(" ")))))
                .collect::<Vec<_>>()
                .join("\n"),
        ];
        for text in &layouts {
            let record = parse(text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
            assert_eq!(record.moves.len(), expected, "{text}");
        }
        // Japanese empty cells: the first 20 moves.
        let partial = |blank: &str| {
            let rows = ranks.iter().map(|r| {
                r.iter()
                    .map(|c| if c.parse::<u32>().is_ok_and(|n| n > 20) { blank.to_owned() } else { c.clone() })
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            rows.collect::<Vec<_>>().join("\n")
        };
        for blank in ["・", "□", "0", "_"] {
            assert_eq!(parse(&partial(blank)).unwrap().moves.len(), 20, "{blank}");
        }
    }

    #[test]
    fn text_around_a_grid_is_read_or_skipped() {
        let grid = sample_ranks().iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n");
        let text = format!("第12回 例会 2024年3月10日\n黒：山田太郎　白：佐藤花子\n大会: 例会\n{grid}\n黒 30-34 白\n");
        assert_eq!(parse(&format!("{grid}\n結果：白の４石勝ち\n")).unwrap().tag("result"), Some("-4"));
        // Headers in other languages federations write in.
        for (header, black, white, event) in [
            ("Tournoi: Coupe  Ronde: 3\nNoir: Ann  Blanc: Bob\nRésultat: 30-34", "Ann", "Bob", "Coupe"),
            ("Schwarz: Ann  Weiß: Bob\nTurnier: DM  Datum: 2024", "Ann", "Bob", "DM"),
            ("Zwart: Ann  Wit: Bob\nToernooi: NK", "Ann", "Bob", "NK"),
            ("Negras: Ann  Blancas: Bob\nTorneo: Abierto", "Ann", "Bob", "Abierto"),
            ("Nero: Ann  Bianco: Bob\nTorneo: Coppa", "Ann", "Bob", "Coppa"),
        ] {
            let r = parse(&format!("{header}\n{grid}")).unwrap();
            assert_eq!((r.tag("black"), r.tag("white"), r.tag("event")), (Some(black), Some(white), Some(event)));
        }
        let r = parse(&format!("Tournoi: Coupe  Ronde: 3\nNoir: Ann  Blanc: Bob\n{grid}\nRésultat: 30-34")).unwrap();
        assert_eq!((r.tag("round"), r.tag("result")), (Some("3"), Some("30-34")));
        let r = parse(&format!("Event: Final Round: 2\nPlace: Date: 2000\n{grid}")).unwrap();
        assert_eq!(
            (r.tag("event"), r.tag("place"), r.tag("round")),
            (Some("Final Round: 2"), Some("Date: 2000"), None)
        );
        let r = parse(&text).unwrap();
        assert_eq!(r.moves.len(), 60);
        let tags: Vec<(&str, &str)> = r.tags.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(tags, [("black", "山田太郎"), ("white", "佐藤花子"), ("event", "例会"), ("result", "30-34")]);
        for footer in [
            "白 34-30 黒",
            "白34-30",
            "黒30-34",
            "30-34",
            "結果: 黒の負け",
            "black 30, white 34: white wins by 4",
            "Result: 30-34",
        ] {
            let r = parse(&format!("Black: Yamada White: Sato\n{grid}\n{footer}\n")).unwrap();
            assert_eq!((r.tag("black"), r.tag("white")), (Some("Yamada"), Some("Sato")), "{footer}");
            let result = if footer.contains('負') { None } else { Some("30-34") };
            assert_eq!(r.tag("result"), result, "{footer}");
            assert_eq!(r.tag("outcome"), footer.contains('負').then_some("0-1"), "{footer}");
        }
        // Counts with the result in Japanese, which must agree; a winner in Japanese alone.
        for footer in ["30-34 白勝ち", "結果: 30-34 白の4石勝ち", "黒 30-34 白　白勝ち！"] {
            assert_eq!(parse(&format!("{grid}\n{footer}\n")).unwrap().tag("result"), Some("30-34"), "{footer}");
        }
        assert_eq!(parse(&format!("{grid}\n白勝ち\n")).unwrap().tag("outcome"), Some("0-1"));
        // On two lines too.
        assert!(parse(&format!("{grid}\n30-34\n白勝ち\n")).is_ok());
        let e = parse(&format!("{grid}\n30-34\n黒勝ち\n")).unwrap_err();
        assert_eq!(e.message, "`黒勝ち` and the result before it, 30-34, disagree");
        for footer in ["30-34 黒勝ち", "結果: 30-34 白の2石勝ち  大会: 例会"] {
            let text = format!("{grid}\n{footer}\n");
            let e = parse(&text).unwrap_err();
            let word = &text[e.span.start..e.span.end];
            assert_eq!(e.message, format!("`{word}` and the result before it, 30-34, disagree"), "{footer}");
            assert!(word.ends_with("勝ち"), "{footer}");
        }
        // A count line at a ply is no result.
        assert_eq!(
            parse(&format!("{grid}\nblack 4, white 1 after move 1; white to move\n")).unwrap().tag("result"),
            None
        );
        assert!(
            starts_a_grid("黒: 山田  白: 佐藤")
                && starts_a_grid("  a b c d e f g h")
                && starts_a_grid("A (black) - B (white)")
        );
        assert!(!starts_a_grid("white first") && !starts_a_grid("30-34") && !starts_a_grid("Result: 30-34"));
        let block = format!("Event: x\n   a b c d e f g h\n{grid}\n30-34\n");
        assert_eq!(block.lines().filter(|l| is_rank_line(l)).count(), 8);
    }

    #[test]
    fn a_gap_or_a_repeat_is_named_where_it_can_be_fixed() {
        let grid = sample_ranks().iter().map(|r| r.join(" ")).collect::<Vec<_>>().join("\n");
        let at = |text: &str, e: &SyntaxError| text[e.span.start..e.span.end].to_owned();
        // 21 (f3) left blank: the only blank cell.
        let text = grid.replace(" 21 ", " . ");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.message, "move 21 is missing: f3 is the only cell without a disc or a number");
        assert_eq!(at(&text, &e), ".");
        // 60 typed as 61.
        let text = grid.replace(" 60 ", " 61 ");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.message, "move 60 is missing (move 61 is on b7)");
        assert_eq!(at(&text, &e), "61");
        // 21 typed as 62: past the moves written.
        let text = grid.replace(" 21 ", " 62 ");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.message, "move 21 is missing, and move 62 is past the 60 moves written: 62 is likely 21");
        assert_eq!(at(&text, &e), "62");
        // 21 typed as 12.
        let e = parse(&grid.replace(" 21 ", " 12 ")).unwrap_err();
        assert_eq!(e.message, "move 12 is written twice (f3 and d6), and move 21 is missing: one of them is likely 21");
    }

    #[test]
    fn rows_numbered_from_the_bottom_are_written_bottom_up() {
        let mut record = crate::notation::transcript::parse("f4d3c6").unwrap();
        record.tags.push(("rules".into(), "othello,rows=bottom".into()));
        let grid = write(&record);
        assert!(grid.lines().nth(1).is_some_and(|l| l.trim_start().starts_with("8 ")), "{grid}");
        assert_eq!(parse(&grid).unwrap().moves.len(), 3);
    }

    #[test]
    fn holes_are_written_and_read_as_hashes() {
        let grid = "1 . . . . . .\n2 . # . . . .\n3 . . O X . .\n4 . . X O 1 .\n5 . . . . . .\n6 . . . . . .\n\
                    rules othello,size=6,holes=b2\n";
        let record = parse(grid).unwrap();
        assert_eq!(record.moves.len(), 1);
        let written = write(&record);
        assert_eq!(written.lines().nth(2), Some(" 2  .  #  .  .  .  ."), "{written}");
        assert_eq!(parse(&written).unwrap().without_layout(), record.without_layout());
    }

    #[test]
    fn other_tags_are_written_as_header_lines_and_read_back() {
        let mut record = super::super::transcript::parse("f5d6").unwrap();
        for (tag, value) in [("black_rating", "2101"), ("termination", "time forfeit"), ("theoretical", "36")] {
            record.set_tag(tag, value);
        }
        // (A tag the reader sets itself is not written: `First: white` would start the game anew.)
        record.set_tag("first", "white");
        record.set_tag("extra", "not a header's"); // the logbook's, which a header line may not set
        let grid = write(&record);
        assert!(grid.contains("Black_rating: 2101\nTermination: time forfeit\nTheoretical: 36\n"), "{grid}");
        let back = parse(&grid).unwrap();
        assert_eq!(back.tags.len(), 3, "{:?}", back.tags);
        for tag in ["black_rating", "termination", "theoretical"] {
            assert_eq!(back.tag(tag), record.tag(tag));
        }
    }

    #[test]
    fn a_rules_header_line_gives_the_rules_when_it_is_a_spec() {
        let r = super::super::transcript::parse("c2b4d5").unwrap();
        assert!(r.moves.len() == 3);
        assert_eq!(
            header_line("Rules: othello,size=6", 0).unwrap().unwrap(),
            [("rules".into(), "othello,size=6".into())]
        );
        assert_eq!(header_line("rules： anti", 0).unwrap().unwrap(), [("rules".into(), "anti".into())]);
        assert!(header_line("Rules: Standard", 0).is_none(), "another program's words are no spec");
    }

    /// Disc counts as people write them on a scoresheet read as counts, black's first.
    #[test]
    fn handwritten_counts_are_read() {
        let result = |value: &str| {
            let tags = header_line(&format!("Result: {value}"), 0).unwrap().unwrap();
            tags.into_iter().find(|(k, _)| k == "result").map(|(_, v)| v)
        };
        for (written, read) in [
            ("35-29", "35-29"),
            ("35 - 29", "35-29"),
            ("35–29", "35-29"),
            ("35/29", "35-29"),
            ("B 35 W 29", "35-29"),
            ("Black 35 - White 29", "35-29"),
            ("White 35, Black 29", "29-35"),
            ("Black 16, White 47", "16-47"),
            ("black 30, white 34: white wins by 4", "30-34"),
            ("W 1 B 2", "2-1"),
        ] {
            assert_eq!(result(written).as_deref(), Some(read), "{written}");
        }
        // Half a point is no count, nor is a count among other words.
        assert_ne!(result("1/2").as_deref(), Some("1-2"));
        for text in ["Round 3 - 5", "3 - 2 (match)", "40 - 24 - 0"] {
            assert_eq!(result(text).as_deref(), Some(text), "kept as written");
        }
    }

    #[test]
    fn the_players_are_written_and_read_back() {
        let mut record = super::super::transcript::parse("f5d6").unwrap();
        record.set_tag("white", "Bob (club)");
        let grid = write(&record);
        assert!(grid.starts_with("? (black) - Bob (club) (white)\n"), "{grid}");
        assert_eq!(parse(&grid).unwrap().tags, [("white".to_owned(), "Bob (club)".to_owned())]);
        assert!(write(&super::super::transcript::parse("f5d6").unwrap()).starts_with("    a"));
    }

    #[test]
    fn the_passes_line_puts_the_passes_back() {
        let grid = "   a  b  c  d\n1  .  .  .  .\n2  .  O  X  .\n3  1  X  O  .\n4  .  2  .  .\n";
        let names = |r: &Record| r.moves.iter().map(|t| t.mv.to_string()).collect::<Vec<_>>().join(" ");
        let r = parse(&format!("{grid}passes: white after 1, black after 2, white after 2\n")).unwrap();
        assert_eq!(names(&r), "a3 pass b4 pass pass");
        let r = parse(&format!("{grid}pass: black before 1\n")).unwrap();
        assert_eq!(names(&r), "pass a3 b4");
        for bad in ["pass: white after 3", "pass: white later 1"] {
            assert!(parse(&format!("{grid}{bad}\n")).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_the_from_move_line_names_the_first_side() {
        let grid =
            "  a b c d\n1 . . . .\n2 . O X 1\n3 . X O .\n4 . . . .\nblack 4, white 1 after move 1; white to move\n";
        assert_eq!(parse(grid).unwrap().start.unwrap().side, None, "the count line's side is the end's");
        let from = grid.replace("black 4,", "from move 1, black to move; the discs before it are drawn\nblack 4,");
        assert_eq!(parse(&from).unwrap().start.unwrap().side, Some(Color::Black));
    }

    #[test]
    fn rank_numbers_on_the_right() {
        let game = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
        let grid = write(&transcript::parse(game).unwrap());
        let moves = |r: &Record| transcript::write(r, transcript::Style::Compact);
        // Rank 1 first, labels on the right only (a1 holds move 44).
        let right: Vec<String> = grid.lines().skip(1).map(|l| format!("{} {}", &l[2..], l[..2].trim())).collect();
        assert_eq!(moves(&parse(&right.join("\n")).unwrap()), game);
        // Rank 8 on top, labels on the right only.
        let top8: Vec<String> = right.iter().rev().cloned().collect();
        assert_eq!(moves(&parse(&top8.join("\n")).unwrap()), game);
        // Labels on both sides.
        let both: Vec<String> = grid.lines().skip(1).map(|l| format!("{l} {}", l[..2].trim())).collect();
        assert_eq!(moves(&parse(&both.join("\n")).unwrap()), game);
        // A wrong label on the right is named.
        let mut bad = right.clone();
        bad[2] = format!("{} 9", &bad[2][..bad[2].len() - 2]);
        let text = bad.join("\n");
        let err = parse(&text).unwrap_err();
        assert_eq!(err.message, "rank 9 where rank 3 was expected");
        assert_eq!(&text[err.span.start..err.span.end], "9");
        let err = parse("1 . . . .\n3 . O X .\n3 . X O 1\n4 . . . .").unwrap_err();
        assert_eq!(err.message, "rank 3 where rank 2 was expected");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "[-.#XO0-9 a-h|,\\[\\]・：:黒\n]{0,200}") {
            let _ = parse(&text);
        }
    }

    #[test]
    fn a_players_line_is_read_whatever_the_names_say() {
        let grid = include_str!("../../samples/kifu.txt");
        let r = parse(&format!("pass: x, from move 3 (black) - Event: y (white)\n{grid}")).unwrap();
        assert_eq!(
            (r.tag("black"), r.tag("white"), r.moves.len()),
            (Some("pass: x, from move 3"), Some("Event: y"), 60)
        );
    }

    #[test]
    fn a_line_of_separators_alone_is_skipped() {
        let grid = include_str!("../../samples/kifu.txt");
        assert_eq!(parse(&format!("{grid}|  |\n,,\n")).unwrap().moves.len(), 60);
    }
}
