//! `kifu play`: self-play games are legal, reproducible for any thread count, start from their
//! openings, and are played perfectly from --exact-empties.

use assert_cmd::Command;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

fn play(args: &[&str], stdin: &str) -> String {
    let out = kifu().arg("play").args(args).arg("-q").write_stdin(stdin).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Each game (one per line) replays to its end under `kifu validate`.
fn assert_valid(games: &str, rules: &[&str], count: usize) {
    let out = kifu().arg("validate").args(rules).arg("-").write_stdin(games).output().unwrap();
    assert!(out.status.success(), "{}\n{}", games, String::from_utf8_lossy(&out.stderr));
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains(&format!("{count} games: {count} ok")), "{summary}");
}

#[test]
fn self_play_is_legal_and_the_same_for_any_thread_count() {
    let args = ["-n", "4", "--random", "6", "--depth", "2", "--exact-empties", "8", "--seed", "5"];
    let one = play(&[&args[..], &["-j", "1"]].concat(), "");
    let two = play(&[&args[..], &["-j", "2"]].concat(), "");
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 4);
    assert_valid(&one, &[], 4);
    // The random moves differ from game to game and from seed to seed.
    let starts: Vec<&str> = one.lines().map(|l| &l[..12]).collect();
    assert!(starts.iter().any(|s| *s != starts[0]), "{one}");
    let other = play(&["-n", "4", "--random", "6", "--depth", "2", "--exact-empties", "8", "--seed", "6"], "");
    assert_ne!(one, other);
}

#[test]
fn games_go_on_from_their_openings_in_turn() {
    let openings = "f5d6c3d3c4\nc4e3\n";
    let games = play(&["-", "-n", "3", "--depth", "2", "--exact-empties", "6"], openings);
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("f5d6c3d3c4") && lines[2].starts_with("f5d6c3d3c4"), "{games}");
    assert!(lines[1].starts_with("c4e3"), "{games}");
    assert_valid(&games, &[], 3);
    // An opening the format cannot hold is refused before any game is played.
    let board = "---------------------------OX------XO-------X------------------- O\n";
    let out = kifu().args(["play", "-", "--depth", "1"]).write_stdin(board).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot hold a start position"));
    let ggf = play(&["-", "--to", "ggf", "--depth", "2", "--exact-empties", "6"], board);
    assert!(ggf.starts_with("(;GM[Othello]") && ggf.contains("BO[8"), "{ggf}");
    // Openings that do not replay are reported and skipped; the others are played (exit 1).
    let out = kifu()
        .args(["play", "-", "--depth", "1", "--exact-empties", "4"])
        .write_stdin("f5d6\nf5f5\nzz\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(stderr.contains("1 game played, 0 failed, 2 openings skipped"), "{stderr}");
}

#[test]
fn the_endgame_is_played_perfectly() {
    // From 12 empty squares on every move keeps the exact value, so each written value there
    // is the final result from the mover's side.
    let ggf = play(&["--to", "ggf", "--random", "20", "--depth", "4", "--exact-empties", "12", "--seed", "3"], "");
    let result: f64 = ggf.split("RE[").nth(1).unwrap().split(']').next().unwrap().parse().unwrap();
    let moves: Vec<(char, Option<f64>)> = ggf
        .match_indices(['B', 'W'])
        .filter(|&(i, _)| ggf[i + 1..].starts_with('[') && !ggf[i + 1..].starts_with("[PA"))
        .map(|(i, c)| (c.chars().next().unwrap(), value_of(&ggf[i + 1..])))
        .collect();
    let exact: Vec<&(char, Option<f64>)> = moves.iter().rev().take(10).collect();
    assert!(exact.iter().all(|(_, v)| v.is_some()), "{ggf}");
    for (side, value) in exact {
        let expected = if *side == 'B' { result } else { -result };
        assert_eq!(value.unwrap(), expected, "{ggf}");
    }
}

/// The value in `[d3/1.5]`, if any.
fn value_of(text: &str) -> Option<f64> {
    let inside = text.strip_prefix('[')?.split(']').next()?;
    inside.split_once('/').and_then(|(_, v)| v.parse().ok())
}

#[test]
fn other_variants_are_played_by_the_generic_engine() {
    let games = play(&["-r", "othello,size=6", "-n", "2", "--random", "4", "--to", "ggf"], "");
    assert_eq!(games.matches("TY[6]").count(), 2, "{games}");
    let out = kifu().args(["validate", "-"]).write_stdin(games.clone()).output().unwrap();
    assert!(out.status.success(), "{games}\n{}", String::from_utf8_lossy(&out.stderr));
}

/// `--to` offers the text formats only: WTHOR is refused at once, with the way to write it.
#[test]
fn binary_formats_are_neither_offered_nor_taken() {
    let out = kifu().args(["play", "--to", "wthor"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`wthor` is a binary format") && err.contains("kifu convert --to wthor"), "{err}");
    let help = String::from_utf8(kifu().args(["play", "--help"]).output().unwrap().stdout).unwrap();
    let to = &help[help.find("--to <TO>").unwrap()..];
    let offered = to.lines().find(|l| l.contains("possible values: transcript")).unwrap();
    assert!(!offered.contains("wthor"), "{offered}");
}

/// More games than openings without random moves repeat one another: a warning says so.
#[test]
fn repeated_games_are_warned_of() {
    let out = kifu().args(["play", "-n", "2", "--depth", "1", "--exact-empties", "4", "-j", "1"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: 2 games from 1 opening with --random 0"), "{err}");
    let games: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert_eq!(games[0], games[1], "the warning is true");
    let out =
        kifu().args(["play", "-n", "2", "--depth", "1", "--exact-empties", "4", "--random", "4"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}

#[test]
fn games_in_a_format_that_cannot_name_their_rules_are_warned_of() {
    let out = kifu()
        .args(["play", "--rules", "othello,size=6", "-n", "1", "--to", "transcript", "-j", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "warning: 1 record of other rules than transcript can name: read it back with --rules othello,size=6"
        ),
        "{err}"
    );
    // PGN names them: no warning.
    let out = kifu().args(["play", "--rules", "othello,size=6", "-n", "1", "--to", "pgn", "-j", "1"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"));
}

/// Without `--to`, the games are written in the format `-o`'s name says; a WTHOR name is
/// refused (play writes text).
#[test]
fn the_output_name_gives_the_format() {
    let dir = std::env::temp_dir().join(format!("kifu-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, start) in [("g.json", "{\"tags\""), ("g.pgn", "[Event"), ("g.txt", "d3")] {
        let path = dir.join(name);
        play(&["-n", "1", "--depth", "1", "-j", "1", "--seed", "1", "-o", path.to_str().unwrap()], "");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(start), "{name}: {text}");
    }
    let out = kifu().args(["play", "-n", "1", "--depth", "1", "-o"]).arg(dir.join("g.wtb")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}
