//! The rules core against an independent slow implementation (`common/reference.rs`): perft
//! counts for every preset and many settings, and random games move by move under random rule
//! combinations. Also the perft suite shipped in `samples/perft.txt`.

mod common;

use common::reference::Reference;
use kifu::core::perft::{PassCount, perft, perft_generic};
use kifu::core::{
    Color, Game, Holes, Move, PRESETS, PassRule, Passes, Placement, Position, Rules, Scoring, Shape, Start, Supply,
    TieRule, Variant,
};
use proptest::prelude::*;

fn rules(spec: &str) -> Rules {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

#[test]
fn perft_matches_the_reference_for_every_preset_and_more() {
    let mut specs: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
    specs.extend(
        [
            "othello,size=4",
            "othello,size=6",
            "othello,size=16",
            "othello,start=parallel",
            "othello,first=white",
            "othello,rows=bottom",
            "othello,holes=c3/f6",
            "othello,pass=voluntary",
            "othello,placement=own",
            "othello,supply=4,borrow=no",
            "othello,supply=5,borrow=yes",
            "othello,size=6,shape=8stars",
            "othello,size=10,holes=random,seed=9",
        ]
        .map(String::from),
    );
    for spec in &specs {
        let rules = rules(spec);
        let reference = Reference::start(&rules);
        let pos = Position::start(rules.clone().shared());
        let depth = if rules.variant().placement == Placement::MustFlip { 5 } else { 3 };
        for (passes, free) in [(PassCount::Ply, false), (PassCount::Free, true)] {
            let expected = reference.perft(depth, free);
            assert_eq!(perft(&pos, depth, passes), expected, "{spec} depth {depth} {passes:?}");
            assert_eq!(perft_generic(&pos.clone().into_wide(), depth, passes), expected, "{spec} wide");
        }
    }
}

#[test]
fn perft_suite_in_samples_holds() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/perft.txt")).unwrap();
    let mut current = Rules::othello();
    let mut passes = PassCount::Ply;
    let mut checked = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["rules", spec] => current = rules(spec),
            ["passes", "ply"] => passes = PassCount::Ply,
            ["passes", "free"] => passes = PassCount::Free,
            ["perft", depth, count] => {
                let depth: u32 = depth.parse().unwrap();
                // Deep standard counts are checked by the ignored tests and the bench.
                if depth <= 9 {
                    let pos = Position::start(current.clone().shared());
                    assert_eq!(perft(&pos, depth, passes), count.parse::<u64>().unwrap(), "{current} {line}");
                    checked += 1;
                }
            }
            _ => panic!("bad suite line: {line}"),
        }
    }
    assert!(checked > 50, "the suite has content");
}

/// A random combination of every setting.
fn variants() -> impl Strategy<Value = Variant> {
    (
        prop::sample::select(vec![4u8, 6, 8, 10, 12, 16]),
        any::<bool>(),
        prop::option::of(any::<u64>()),
        prop::sample::select(vec![Start::Diagonal, Start::Parallel, Start::Empty]),
        any::<bool>(),
        prop::sample::select(vec![Placement::MustFlip, Placement::NextToAny, Placement::NextToOwn]),
        any::<bool>(),
        prop::option::of((2u16..80, any::<bool>())),
        prop::sample::select(vec![Scoring::EmptiesToWinner, Scoring::Plain, Scoring::Anti]),
        any::<bool>(),
    )
        .prop_map(|(size, stars, hole, start, white_first, placement, voluntary, supply, scoring, second)| {
            Variant {
                size,
                shape: if stars && size >= 6 { Shape::EightStars } else { Shape::Square },
                holes: hole.map_or(Holes::None, |seed| Holes::Random { seed }),
                start,
                first: if white_first { Color::White } else { Color::Black },
                placement,
                pass: if voluntary { PassRule::Voluntary } else { PassRule::Forced },
                supply: supply.map_or(Supply::Unlimited, |(per_player, borrow)| Supply::Limited { per_player, borrow }),
                scoring,
                ties: if second { TieRule::SecondPlayer } else { TieRule::Draw },
                ..Variant::default()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Random games under random rules: kifu and the reference agree on every move list, every
    /// board, the end of the game and the result.
    #[test]
    fn random_games_agree_with_the_reference(variant in variants(), seed in any::<u64>(), wide in any::<bool>()) {
        let Ok(rules) = Rules::new(variant) else { return Ok(()) };
        let mut reference = Reference::start(&rules);
        let mut pos = Position::start(rules.clone().shared());
        if wide {
            pos = pos.into_wide();
        }
        let mut state = seed;
        for _ in 0..400 {
            let moves = pos.legal_moves();
            prop_assert_eq!(&moves, &reference.moves(), "{}", pos.board_string());
            prop_assert_eq!(pos.is_game_over(), reference.is_over());
            if moves.is_empty() {
                break;
            }
            state = kifu::core::splitmix64(state);
            let mv = moves[(state % moves.len() as u64) as usize];
            pos.play_mut(mv).unwrap();
            reference.play(mv);
            prop_assert_eq!(pos.board_string(), reference.board_string());
        }
        prop_assert!(pos.is_game_over());
        let outcome = pos.outcome().unwrap();
        prop_assert_eq!((outcome.winner, outcome.margin), reference.result());
        prop_assert_eq!((outcome.black, outcome.white), (reference.count(Color::Black), reference.count(Color::White)));
    }

    /// A random legal game replays, with its passes written or inferred, to the same last
    /// position, the same disc counts and the same outcome.
    #[test]
    fn generated_games_replay_to_their_disc_counts(variant in variants(), seed in any::<u64>()) {
        let Ok(rules) = Rules::new(variant) else { return Ok(()) };
        let rules = rules.shared();
        let mut pos = Position::start(rules.clone());
        let mut moves = Vec::new();
        let mut state = seed;
        while !pos.is_game_over() && moves.len() < 400 {
            let legal = pos.legal_moves();
            state = kifu::core::splitmix64(state);
            let mv = legal[(state % legal.len() as u64) as usize];
            pos.play_mut(mv).unwrap();
            moves.push(mv);
        }
        let game = Game::new(rules.clone()).with_moves(moves.iter().copied());
        let replay = game.replay(Passes::Explicit).unwrap();
        prop_assert_eq!(replay.position.board_string(), pos.board_string());
        for color in [Color::Black, Color::White] {
            prop_assert_eq!(replay.position.count(color), pos.count(color));
        }
        prop_assert_eq!(replay.outcome(), pos.outcome());
        // Forced passes left out are put back; a voluntary pass is a choice and stays written.
        if rules.variant().pass != PassRule::Voluntary {
            let placements = moves.iter().copied().filter(|m| *m != Move::Pass);
            let inferred = Game::new(rules.clone()).with_moves(placements).replay(Passes::Implicit).unwrap();
            prop_assert_eq!(inferred.position.board_string(), pos.board_string());
            prop_assert_eq!(inferred.outcome(), pos.outcome());
        }
    }

    /// An illegal placement leaves the position unchanged and says why.
    #[test]
    fn illegal_moves_leave_the_position_alone(seed in any::<u64>(), plies in 0usize..50, file in 0u8..16, row in 0u8..16) {
        let mut pos = Position::start(Rules::othello().shared());
        let mut state = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            state = kifu::core::splitmix64(state);
            pos.play_mut(moves[(state % moves.len() as u64) as usize]).unwrap();
        }
        let mv = Move::Place(kifu::core::Square::new(file, row));
        let before = pos.clone();
        match pos.clone().play(mv) {
            Ok(_) => prop_assert!(before.legal_moves().contains(&mv)),
            Err(err) => {
                prop_assert!(!before.legal_moves().contains(&mv));
                prop_assert_eq!(*err.position, before);
            }
        }
    }
}

#[test]
#[ignore = "deep standard perft, depths 10-13: about 20 s on two cores in release; run with --release -- --ignored"]
fn standard_perft_deep() {
    let pos = Position::start(Rules::othello().shared());
    for (depth, count) in [(10, 24571284u64), (11, 212258800), (12, 1939886636), (13, 18429641748)] {
        assert_eq!(kifu::core::perft::perft_parallel(&pos, depth, PassCount::Ply), count, "depth {depth}");
    }
}

#[test]
#[ignore = "perft 14 of the standard start: about 2.5 minutes on two cores in release"]
fn standard_perft_14() {
    let pos = Position::start(Rules::othello().shared());
    assert_eq!(kifu::core::perft::perft_parallel(&pos, 14, PassCount::Ply), 184042084512);
}
