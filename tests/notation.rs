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

mod round_trips {
    //! Random legal games through every game format: write, read back, same game.
    use kifu::core::{Move, Position, Rules, splitmix64};
    use kifu::notation::format::{self, Format, ReadOptions};
    use kifu::notation::{MoveSyntax, MoveToken, Record, wthor};
    use proptest::prelude::*;

    /// A random game of `plies` moves or to its end, as an explicit record (colours, passes).
    fn random_game(rules: &str, seed: u64, plies: usize) -> Record {
        let rules = rules.parse::<Rules>().unwrap().shared();
        let mut pos = Position::start(rules.clone());
        let mut record = Record::default();
        let mut s = seed;
        while !pos.is_game_over() && record.moves.len() < plies {
            let moves = pos.legal_moves();
            s = splitmix64(s);
            let mv = moves[(s % moves.len() as u64) as usize];
            let mut token = MoveToken::new(match mv {
                Move::Pass => MoveSyntax::Pass,
                Move::Place(sq) => {
                    let name = rules.square_name(sq);
                    let (file, rank) = kifu::core::Square::parse_name(&name).unwrap();
                    MoveSyntax::Square { file, rank }
                }
            });
            token.color = Some(pos.side_to_move());
            record.moves.push(token);
            pos.play_mut(mv).unwrap();
        }
        if rules.variant() != Rules::othello().variant() {
            record.tags.push(("rules".into(), rules.variant().spec()));
        }
        record
    }

    fn placements(r: &Record) -> Vec<MoveSyntax> {
        r.moves.iter().map(|t| t.mv).filter(|m| *m != MoveSyntax::Pass).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn every_format_keeps_the_moves(seed in any::<u64>(), plies in 0usize..70) {
            let game = random_game("othello", seed, plies);
            let rules = Rules::othello().shared();
            let resolved = game.resolve(rules.clone()).unwrap().record;
            for f in Format::ALL {
                if f.is_position() || f == Format::Wthor {
                    continue;
                }
                let mut shaped = resolved.clone();
                if !f.writes_passes() {
                    shaped.moves.retain(|t| t.mv != MoveSyntax::Pass);
                }
                let text = format::write(f, &shaped);
                let back = format::parse(f, &text, ReadOptions::default())
                    .map_err(|e| TestCaseError::fail(format!("{f}: {e}\n{text}")))?;
                prop_assert_eq!(placements(&back), placements(&game), "{}: {}", f, text);
                let again = back.resolve(rules.clone()).map_err(|e| TestCaseError::fail(format!("{f}: {e}")))?;
                let mut want: Vec<_> = resolved.moves.iter().map(|t| (t.mv, t.color)).collect();
                if !f.writes_passes() {
                    // A pass after the last placement cannot be inferred from placements alone.
                    while want.last().is_some_and(|m| m.0 == MoveSyntax::Pass) {
                        want.pop();
                    }
                }
                prop_assert_eq!(&again.record.moves.iter().map(|t| (t.mv, t.color)).collect::<Vec<_>>(), &want, "{}", f);
            }
            // WTHOR: binary, 8x8.
            let bytes = wthor::write_game(&resolved, [1, 2, 3], 0).unwrap();
            let back = wthor::parse_game(&bytes, 0, &wthor::Names::default()).unwrap();
            prop_assert_eq!(placements(&back), placements(&game));
        }

        #[test]
        fn variant_games_keep_their_moves(seed in any::<u64>(), which in 0usize..4) {
            let spec = ["othello,size=6", "othello,size=10", "anti", "othello,first=white"][which];
            let game = random_game(spec, seed, 200);
            let rules = spec.parse::<Rules>().unwrap().shared();
            let resolved = game.resolve(rules.clone()).unwrap().record;
            for f in [Format::Ggf, Format::Sgf, Format::Json, Format::Kifu, Format::Transcript] {
                let mut shaped = resolved.clone();
                if !f.writes_passes() {
                    shaped.moves.retain(|t| t.mv != MoveSyntax::Pass);
                }
                if f == Format::Kifu {
                    shaped.start = Some(kifu::notation::BoardSyntax::of_position(&Position::start(rules.clone())));
                }
                let text = format::write(f, &shaped);
                let back = format::parse(f, &text, ReadOptions::default())
                    .map_err(|e| TestCaseError::fail(format!("{f}: {e}\n{text}")))?;
                prop_assert_eq!(placements(&back), placements(&game), "{}: {}", f, text);
                back.resolve(rules.clone()).map_err(|e| TestCaseError::fail(format!("{spec} {f}: {e}\n{text}")))?;
            }
        }
    }
}

/// The library's file reader gives parsed records, WTHOR games named from the files beside the
/// database, and errors located in the file.
#[test]
fn records_of_a_file_come_parsed_and_named() {
    use kifu::notation::reader::{ReadError, Records};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let games: Vec<_> = Records::open(format!("{dir}/wthor/WTH_2004-50.wtb")).unwrap().collect();
    assert_eq!(games.len(), 50);
    let first = games[0].as_ref().unwrap();
    assert!(first.tag("black").is_some_and(|name| !name.starts_with("WTHOR #")), "{:?}", first.tags);
    let end = first.resolve(first.implied_rules().unwrap().shared()).unwrap().end;
    assert!(end.is_game_over());
    // A transcript file with a bad line: the others still come, the bad one says where.
    let path = std::env::temp_dir().join(format!("kifu-records-{}.txt", std::process::id()));
    std::fs::write(&path, "f5d6c3\nf5x9\nf5f6\n").unwrap();
    let got: Vec<_> = Records::open(&path).unwrap().collect();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(got.len(), 3);
    assert!(got[0].is_ok() && got[2].is_ok());
    let Err(ReadError::Record(e)) = &got[1] else { panic!("{:?}", got[1]) };
    assert_eq!(e.record, 2);
    assert!(e.to_string().contains(":2:"), "{e}");
}
