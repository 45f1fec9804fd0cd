//! What the fuzz targets run: kifu's readers fed arbitrary bytes, then everything a command
//! does with what they read (rules from tags, replay, the result check), and write-then-read
//! round trips. A panic anywhere is a finding; errors are expected and ignored.

use std::io::Cursor;
use std::sync::{Arc, LazyLock};

use kifu::core::{Move, Position, Rules, Symmetry};
use kifu::notation::board::Digits;
use kifu::notation::format::{self, Format, ReadOptions};
use kifu::notation::reader::{self, Body, Reader};
use kifu::notation::{MoveSyntax, Record, check, shape, wthor};

/// Reads `bytes` as a file called `name` (the name takes part in format recognition), in
/// `format` or the one recognised, and handles every record as the commands do.
pub fn read(name: &str, bytes: &[u8], format: Option<Format>, digits: Digits) {
    let Ok(input) = reader::buffer(Box::new(Cursor::new(bytes.to_vec()))) else { return };
    let Ok(records) = Reader::new(name, input, format) else { return };
    let format = records.format();
    let year = records.header().map_or(0, |h| h.year);
    let names = wthor::Names::default();
    for raw in records {
        let Ok(raw) = raw else { continue };
        let parsed = match &raw.body {
            Body::Text(text) => format::parse(format, text, ReadOptions { digits }),
            Body::Binary(bytes) => wthor::parse_game(bytes, year, &names),
        };
        if let Ok(record) = parsed {
            handle(&record, format);
        }
    }
}

/// The rules a command gives a record: its `rules` tag, else standard Othello on its board size.
pub fn rules_of(record: &Record) -> Option<Arc<Rules>> {
    static OTHELLO: LazyLock<Arc<Rules>> = LazyLock::new(|| Rules::othello().shared());
    let rules = match (record.rules(), record.start.as_ref().map(|b| b.size)) {
        (Some(spec), _) => spec.ok()?,
        (None, Some(n)) if n != 8 => format!("othello,size={n}").parse().ok()?,
        (None, _) => return Some(Arc::clone(&OTHELLO)),
    };
    Some(rules.shared())
}

/// Checks a record as `kifu validate` does (replay, result, diagnosis of an illegal move).
pub fn handle(record: &Record, format: Format) {
    let Some(rules) = rules_of(record) else { return };
    let checked = check::check(record, &rules, format);
    let _ = (checked.winner(), checked.margin());
}

/// The placements of a record, in order.
fn placements(record: &Record) -> Vec<MoveSyntax> {
    record.moves.iter().map(|t| t.mv).filter(|m| *m != MoveSyntax::Pass).collect()
}

/// Parses `text` as `from`; a record that replays is shaped for every text format as `kifu
/// convert` does, written, and read back: a game must keep its placements and replay to the
/// same last position, a position format must give that position back. WTHOR likewise, for the
/// records it can hold.
pub fn round_trip(from: Format, text: &str) {
    let Ok(record) = format::parse(from, text, ReadOptions::default()) else { return };
    let Some(rules) = rules_of(&record) else { return };
    let Ok(resolved) = record.resolve(rules.clone()) else { return };
    let want = placements(&resolved.record);
    let end = resolved.end.board_string();
    for to in Format::ALL {
        let Ok(shaped) = shape::for_format(resolved.clone(), to) else { continue };
        let back = if to.is_binary() {
            let Ok(bytes) = wthor::write_game(&shaped, [0, 0, 0], 0) else { continue };
            wthor::parse_game(&bytes, 0, &wthor::Names::default()).expect("WTHOR reads back what it wrote")
        } else {
            let written = format::write(to, &shaped);
            format::parse(to, &written, ReadOptions::default())
                .unwrap_or_else(|e| panic!("{to} does not read back what it wrote ({e}):\n{written}"))
        };
        // SGF, PGN, JSON and PlayOK carry any rules spec and must give it back. The others carry
        // the board size at most (GGF also anti): they are read back under the same `--rules`.
        let back_rules = if !matches!(to, Format::Sgf | Format::Pgn | Format::Json | Format::Playok) {
            rules.clone()
        } else {
            let carried = rules_of(&back).unwrap_or_else(|| panic!("{to} wrote rules it cannot read: {back:?}"));
            assert_eq!(carried.variant(), rules.variant(), "{to} changed the rules: {back:?}");
            carried
        };
        if to.is_position() {
            let board = back.start.as_ref().unwrap_or_else(|| panic!("{to} lost the board: {back:?}"));
            let side = resolved.end.side_to_move();
            let again = board.position(back_rules, side).unwrap_or_else(|e| panic!("{to}: {e}: {back:?}"));
            assert_eq!(again.board_string(), end, "{to} changed the position");
            continue;
        }
        assert_eq!(placements(&back), want, "{to} changed the moves: {back:?}");
        let again = back.resolve(back_rules).unwrap_or_else(|e| panic!("{to} no longer replays ({e}): {back:?}"));
        assert_eq!(again.end.board_string(), end, "{to} changed the game");
    }
}

/// Parses a rules spec and plays a game under it, the moves picked by `choices`. The game is
/// played as well on the board turned by every symmetry the board allows, each move turned
/// with it: the turned game must have as many legal moves at every ply, accept every turned
/// move, and end on the turned position of the game.
pub fn play(spec: &str, choices: &[u8]) {
    let Ok(rules) = spec.parse::<Rules>() else { return };
    let rules = rules.shared();
    let _ = rules.variant().spec().parse::<Rules>().expect("a spec reads back");
    let mut pos = Position::start(rules.clone());
    let mut turned: Vec<(Symmetry, Position)> =
        Symmetry::ALL.into_iter().filter_map(|sym| Some((sym, pos.transformed(sym)?))).collect();
    for &c in choices {
        if pos.is_game_over() {
            break;
        }
        let moves = pos.legal_moves();
        let mv = moves[usize::from(c) % moves.len()];
        for (sym, other) in &mut turned {
            assert_eq!(other.legal_moves().len(), moves.len(), "{sym:?} changes the legal moves of {pos:?}");
            let mapped = match mv {
                Move::Pass => Move::Pass,
                Move::Place(sq) => Move::Place(sym.apply(sq, rules.size())),
            };
            other.play_mut(mapped).unwrap_or_else(|e| panic!("{sym:?} makes {mv:?} illegal ({e:?}) in {pos:?}"));
        }
        pos.play_mut(mv).expect("a legal move plays");
    }
    for (sym, other) in &turned {
        assert!(Some(other) == pos.transformed(*sym).as_ref(), "{sym:?} does not commute with the game");
    }
    let _ = pos.score();
}
