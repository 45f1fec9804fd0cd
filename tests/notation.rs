//! Notation readers on real data: `tests/data` (always) and `../shared/data` (when present).

use std::io::{BufRead, BufReader};

use kifu::core::{Color, Game, Passes, Rules};
use kifu::notation::transcript;

/// Parses, replays and scores logbook lines; returns how many were checked.
fn check_logbook(lines: impl Iterator<Item = String>) -> usize {
    let rules = "othello,scoring=plain".parse::<Rules>().unwrap().shared();
    let mut n = 0;
    for (i, line) in lines.enumerate() {
        let record = transcript::parse(&line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let moves = record.moves_under(&rules).unwrap();
        let game = Game::new(rules.clone()).with_moves(moves.iter().copied());
        let mut colors = Vec::new();
        let replay = game
            .replay_with(Passes::Implicit, |pos, mv, _| {
                if mv != kifu::core::Move::Pass {
                    colors.push(pos.side_to_move());
                }
            })
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let signed: Vec<Color> = record.moves.iter().map(|t| t.color.unwrap()).collect();
        assert_eq!(colors, signed, "line {}: the signs are the colours that moved", i + 1);
        let stored: i32 = record.tag("result").unwrap().parse().unwrap();
        let board = replay.position.count(Color::Black) as i32 - replay.position.count(Color::White) as i32;
        assert_eq!(board, stored, "line {}: stored score", i + 1);
        n += 1;
    }
    n
}

#[test]
fn logbook_sample_parses_replays_and_scores() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logbook-200.gam")).unwrap();
    assert_eq!(check_logbook(text.lines().map(String::from)), 200);
}

#[test]
fn whole_logbook_parses_replays_and_scores() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/logistello/logbook.gam.gz");
    let Ok(file) = std::fs::File::open(path) else {
        eprintln!("skipped: {path} is not here");
        return;
    };
    let reader = BufReader::new(flate2::read::GzDecoder::new(file));
    assert_eq!(check_logbook(reader.lines().map(Result::unwrap)), 121_123);
}
