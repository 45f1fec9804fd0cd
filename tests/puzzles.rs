//! `kifu puzzles` on real games: every puzzle's scores are the solver's, each kind is what it
//! says, and the selection and limits hold.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// 50 games of the 2004 WTHOR database, with its names files (tests/data/SOURCES.md).
fn wthor() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor/WTH_2004-50.wtb")
}

/// The JSON rows of `kifu puzzles` with `args` on the test database.
fn puzzles(args: &[&str]) -> Vec<serde_json::Value> {
    let out = kifu().arg("puzzles").arg(wthor()).args(args).args(["-f", "json", "-q"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The `move:score` pairs of a row's `moves`.
fn scores(row: &serde_json::Value) -> Vec<(String, i32)> {
    row["moves"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|entry| {
            let (mv, score) = entry.split_once(':').unwrap();
            (mv.to_owned(), score.trim_start_matches('+').parse().unwrap())
        })
        .collect()
}

#[test]
fn puzzles_are_what_their_kind_says_and_their_scores_are_the_solvers() {
    let rows = puzzles(&["--games", "1-12", "--empties", "10-14"]);
    assert!(rows.len() >= 5, "{rows:?}");
    for row in &rows {
        let empties = row["empties"].as_u64().unwrap();
        assert!((10..=14).contains(&empties), "{row}");
        let scores = scores(row);
        let best = row["best_score"].as_i64().unwrap() as i32;
        assert_eq!(scores[0].1, best, "{row}");
        let played = scores.iter().find(|(mv, _)| mv == row["played"].as_str().unwrap()).unwrap().1;
        assert_eq!(row["loss"].as_i64().unwrap() as i32, best - played, "{row}");
        let kind = row["kind"].as_str().unwrap();
        if kind.starts_with("only") {
            // One move alone reaches the best result (a win, or a draw when none wins).
            assert!(best >= 0, "{row}");
            assert_eq!(scores.iter().filter(|(_, s)| s.signum() == best.signum()).count(), 1, "{row}");
        }
        if kind.ends_with("mistake") {
            assert!(best - played >= 6, "{row}");
        }
        // The solver agrees move by move on the board the row gives.
        let solved = kifu()
            .args(["solve", "--all-moves", "-f", "json", "-q"])
            .write_stdin(row["board"].as_str().unwrap())
            .output()
            .unwrap();
        let solved: serde_json::Value = serde_json::from_slice(&solved.stdout).unwrap();
        let solver: Vec<(String, i32)> = solved["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].as_str().unwrap().to_owned(), m["score"].as_i64().unwrap() as i32))
            .collect();
        let mut ours = scores.clone();
        let mut theirs = solver.clone();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{row}");
    }
}

#[test]
fn kinds_losses_and_per_game_limits_filter_the_puzzles() {
    let all = puzzles(&["--games", "1-12", "--empties", "10-14"]);
    let only = puzzles(&["--games", "1-12", "--empties", "10-14", "--kind", "only"]);
    let mistakes = puzzles(&["--games", "1-12", "--empties", "10-14", "--kind", "mistake", "--min-loss", "2"]);
    assert!(only.iter().all(|r| r["kind"] == "only"));
    assert!(mistakes.iter().all(|r| r["kind"] == "mistake" && r["loss"].as_i64().unwrap() >= 2));
    assert_eq!(only.len(), all.iter().filter(|r| r["kind"].as_str().unwrap().starts_with("only")).count());
    let first = puzzles(&["--games", "1-12", "--empties", "10-14", "--per-game", "1"]);
    let mut games: Vec<u64> = first.iter().map(|r| r["game"].as_u64().unwrap()).collect();
    let count = games.len();
    games.dedup();
    assert_eq!(games.len(), count, "one puzzle a game: {first:?}");
    // Names come from the database's names files.
    assert!(all.iter().all(|r| !r["black_player"].as_str().unwrap().is_empty()));
}

#[test]
fn a_position_is_set_once_however_many_games_reach_it() {
    // The same games twice: the second copy's puzzles are the first's, left out and said.
    let once = puzzles(&["--games", "1-6", "--empties", "12"]);
    assert!(!once.is_empty());
    let out = kifu()
        .arg("puzzles")
        .args([wthor(), wthor()])
        .args(["--games", "1-6,51-56", "--empties", "12", "-f", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let twice: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(twice, once);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(once.len(), 2);
    assert!(err.contains("2 puzzles left out as an earlier game's (the same position up to symmetry)"), "{err}");
}

#[test]
fn obf_puzzles_read_back_into_show_and_bad_ranges_are_refused() {
    let out = kifu()
        .arg("puzzles")
        .arg(wthor())
        .args(["--games", "1-6", "--kind", "only", "-f", "obf", "-q"])
        .output()
        .unwrap();
    let obf = String::from_utf8(out.stdout).unwrap();
    assert!(obf.lines().count() >= 1, "{obf}");
    let shown = kifu().args(["show", "--all"]).write_stdin(obf.clone()).output().unwrap();
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    let checked = kifu().args(["solve", "--check", "-q"]).write_stdin(obf).output().unwrap();
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stderr));
    let bad = kifu().arg("puzzles").arg(wthor()).args(["--empties", "20-30"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("at most 24"));
}

/// Each input's games are numbered from 1, as `export` and `annotate` number them, so that
/// `kifu show SOURCE --game GAME --ply PLY-1` draws a puzzle's position. (The sample, first
/// here, holds the test database's first three games: the database's games 5-8 are asked for.)
#[test]
fn games_are_numbered_within_their_input_and_show_draws_the_puzzle() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/wthor-2004.pgn");
    let out = kifu()
        .arg("puzzles")
        .arg(&sample)
        .arg(wthor())
        .args(["--games", "1-3,8-11", "--empties", "10-14", "-f", "json", "-q"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let second: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r["source"].as_str().unwrap().ends_with("WTH_2004-50.wtb")).collect();
    assert!(!second.is_empty(), "{rows:?}");
    for row in second {
        let game = row["game"].as_u64().unwrap();
        assert!((5..=8).contains(&game), "{row}");
        let ply = row["ply"].as_u64().unwrap() - 1;
        let (game, ply) = (game.to_string(), ply.to_string());
        let shown = kifu().arg("show").arg(wthor()).args(["--game", &game, "--ply", &ply]).output().unwrap();
        assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
        // The same position as a board string.
        let cut = kifu().arg("convert").arg(wthor()).args(["--games", &game, "--ply", &ply, "--to", "board"]).output();
        let board = String::from_utf8(cut.unwrap().stdout).unwrap();
        assert_eq!(board.trim(), row["board"].as_str().unwrap(), "{row}");
    }
}

/// The CSV header names every field of a row, the rules last: a puzzle of another variant says
/// what its board and scores are under, and `kifu solve` rows do the same.
#[test]
fn csv_rows_have_their_header_s_fields_and_say_the_rules() {
    // A 6x6 anti-reversi game of `kifu play` (random first moves), from session 57's QA: black's
    // d1 at 14 empties is the only winning move.
    let game = "c2b4d5d2e2f1f2c1b5c5b6d6b1e1c6b2e6f3d1e3a2b3e4a1f4a3a4f5e5a5a6f6\n";
    let rules = ["--rules", "anti,size=6", "-f", "csv", "-q"];
    for command in [&["puzzles", "-", "--empties", "14"][..], &["solve", "-", "--ply", "20"]] {
        let out = kifu().args([command, &rules[..]].concat()).write_stdin(game).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().unwrap().clone();
        assert_eq!(header.iter().next_back(), Some("rules"), "{command:?}: {text}");
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(!rows.is_empty(), "{command:?}: {text}");
        for row in rows {
            assert_eq!(row.len(), header.len(), "{command:?}: {row:?}");
            assert_eq!(row.get(header.len() - 1), Some("anti,size=6"), "{command:?}");
        }
    }
}
