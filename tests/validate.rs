//! `kifu validate`: every status and reason on hand-made records, the output formats, and the
//! real databases when `../shared/data` is present.

use std::path::Path;

mod common;

use assert_cmd::Command;
use common::shared;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// Runs `kifu validate` with `args` on `stdin`; returns stdout, stderr and the exit code.
fn validate(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = kifu().arg("validate").args(args).write_stdin(stdin.to_owned()).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The JSON rows for `stdin`.
fn rows(args: &[&str], stdin: &str) -> Vec<serde_json::Value> {
    let mut all = vec!["--format", "json", "-q"];
    all.extend_from_slice(args);
    let (out, err, _) = validate(&all, stdin);
    assert!(err.is_empty(), "{err}");
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const GAME: &str = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";

#[test]
fn a_clean_game_is_ok_with_its_counts() {
    let (out, err, code) = validate(&[], &format!("{GAME}\n"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "", "text output lists only the records that are not ok");
    assert!(err.contains("1 game: 1 ok"), "{err}");
    let r = &rows(&[], &format!("{GAME}\n"))[0];
    assert_eq!(r["status"], "ok");
    assert_eq!((r["black"].as_u64(), r["white"].as_u64()), (Some(41), Some(23)));
    assert_eq!(r["winner"], "black");
    assert_eq!(r["margin"], 18);
    assert_eq!(r["passes"], 1, "one pass inferred");
    assert_eq!(r["plies"], 60);
}

#[test]
fn rules_that_do_not_read_are_reported_at_their_text() {
    let (out, _, code) = validate(&[], "[Black \"a\"]\n[Rules \"bogus\"]\n\n1. f5 d6 *\n");
    assert_eq!(code, 1);
    assert!(out.starts_with("-:2:9: record 1: rules `bogus`: unknown rules preset"), "{out}");
}

#[test]
fn a_wrong_result_is_pointed_at() {
    // A logbook game of kifu's own sample with its score changed.
    let line = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/logbook.gam")).unwrap();
    let first = line.lines().next().unwrap();
    let (moves, score) = first.split_once(": ").unwrap();
    let wrong = format!("{moves}: +63 {}\n", score.split_whitespace().nth(1).unwrap_or("10"));
    let (out, _, code) = validate(&[], &wrong);
    assert_eq!(code, 1);
    let column = moves.len() + 3;
    assert!(out.starts_with(&format!("-:1:{column}: record 1: result_mismatch: the record says +63")), "{out}");
    assert!(out.contains("^^^"), "a caret under the stored result: {out}");
    // SGF's result (`W+2`, read as black's margin -2) is found in its own form.
    let out = kifu().args(["convert", "--to", "sgf", "-q"]).write_stdin(format!("{GAME}\n")).output().unwrap();
    let sgf = String::from_utf8(out.stdout).unwrap();
    let at = sgf.find("RE[").unwrap();
    let end = at + sgf[at..].find(']').unwrap();
    let sgf = format!("{}RE[W+2{}", &sgf[..at], &sgf[end..]);
    let (out, _, _) = validate(&["--from", "sgf"], &sgf);
    let column = sgf.lines().next().unwrap().find("W+2").unwrap() + 1;
    assert!(out.starts_with(&format!("-:1:{column}: record 1: result_mismatch")), "{out}");
    // A result in Japanese is found as written (`白の4石勝ち` is read as -4).
    let (out, _, _) = validate(&[], &format!("{GAME} 白の4石勝ち\n"));
    let column = GAME.len() + 2;
    assert!(out.starts_with(&format!("-:1:{column}: record 1: result_mismatch: the record says -4")), "{out}");
}

#[test]
fn every_reason_is_named() {
    let cases: &[(&[&str], &str, &str, u64, &str)] = &[
        (&[], "f5f5", "illegal", 2, "the square is already occupied"),
        (&[], "f5d6a1", "illegal", 3, "the move flips no disc"),
        (&[], "f5i9", "illegal", 2, "the square is outside the board"),
        (&["--rules", "othello,holes=d6"], "f5d6", "illegal", 2, "the square is a hole in the board"),
        (&["--rules", "8stars"], "e4d4a1", "illegal", 3, "the square is cut from the board's shape"),
        (&[], "f5 pass", "illegal", 2, "a pass while a legal move exists"),
        (&[], "+f5+d6", "illegal", 2, "the record gives the move to black, but white is to move"),
        (&[], &format!("{GAME}a1"), "illegal", 61, "the game is already over"),
        (&[], "f5d6c3", "unfinished", 0, "the game is not over"),
        (&[], "f5 {never closed", "parse_error", 0, "never closed"),
        // A start board the rules cannot play on is a parse error found at replay.
        (
            &["--from", "ggf"],
            "(;GM[Othello]TY[8]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[c2];)",
            "parse_error",
            0,
            "the board is 6x6 but the rules play on 8x8",
        ),
    ];
    for &(args, record, status, ply, reason) in cases {
        let r = &rows(args, &format!("{record}\n"))[0];
        assert_eq!(r["status"], status, "{record}: {r}");
        if ply > 0 {
            assert_eq!(r["error_ply"], ply, "{record}: {r}");
        }
        assert!(r["reason"].as_str().unwrap().contains(reason), "{record}: {r}");
        // Nothing was replayed from a record that did not parse: no counts.
        let counts = ["plies", "black", "white", "passes", "empties"];
        assert_eq!(counts.iter().all(|c| r[c].is_null()), status == "parse_error", "{record}: {r}");
    }
}

#[test]
fn stored_results_are_checked() {
    // The logbook counts plain discs; a wrong score is a mismatch. Signs come from a replay.
    let out = kifu().args(["convert", "--to", "logbook", "-q"]).write_stdin(format!("{GAME}\n")).output().unwrap();
    let fixed = String::from_utf8(out.stdout).unwrap();
    assert!(fixed.starts_with("+f5-f6") && fixed.trim_end().ends_with(": +18"), "{fixed}");
    let good = fixed.trim();
    assert_eq!(rows(&["--from", "logbook"], &format!("{good}\n"))[0]["status"], "ok");
    let bad = good.replace(": +18", ": +20");
    let r = &rows(&["--from", "logbook"], &format!("{bad}\n"))[0];
    assert_eq!(r["status"], "result_mismatch");
    assert_eq!(r["reason"], "the record says +20, the board gives +18");
    assert_eq!(r["stored_result"], "+20");
    // Other forms of the same result are read (black wins GAME by 18, 41-23), flagged and
    // SGF's non-margin wins are not compared, and anything else is named as unreadable.
    for (result, status) in [
        ("41-23", "ok"),
        ("B+18", "ok"),
        ("23-41", "result_mismatch"),
        ("W+18", "result_mismatch"),
        ("+18.000:r", "ok"),
        ("B+R", "ok"),
        ("?", "ok"),
        ("abc", "result_mismatch"),
    ] {
        let r = &rows(&[], &format!("{GAME}: {result}\n"))[0];
        assert_eq!(r["status"], status, "{result}: {r}");
    }
    let r = &rows(&[], &format!("{GAME}: abc\n"))[0];
    assert!(r["reason"].as_str().unwrap().contains("result `abc` is neither a margin"), "{r}");
}

#[test]
fn a_typo_gets_the_caret_the_reason_and_the_fix() {
    let (out, err, code) = validate(&[], "f5d6c3d3c4f4f6f3e6e7\nf5d6c2d3c4f4f6f3e6e7\n");
    assert_eq!(code, 1);
    assert!(out.contains("-:2:5: record 2: illegal: move 3, c2: the move flips no disc"), "{out}");
    // A record with no problem at a move is placed at its start, line and column alike.
    assert!(out.contains("-:1:1: record 1: unfinished"), "{out}");
    assert!(out.contains("2 | f5d6c2d3c4f4f6f3e6e7\n  |     ^^"), "{out}");
    assert!(out.contains("suggestion: c3? (one character off; the rest of the game then replays)"), "{out}");
    assert!(err.contains("2 games: 0 ok, 1 illegal, 1 unfinished"), "{err}");
    // A near miss is offered only when moves after it replay too.
    let (out, _, _) = validate(&[], "f5d6c2a1\nf5d6c2d3a1\n");
    assert_eq!(out.matches("suggestion").count(), 1, "{out}");
    assert!(out.contains("suggestion: c3? (one character off; 1 more move then replay)"), "{out}");
}

#[test]
fn a_board_read_upside_down_is_recognised() {
    // f5d6c3d3c4 written with ranks counted from the bottom.
    let r = &rows(&[], "f4d3c6d6c5\n")[0];
    assert_eq!(r["status"], "illegal");
    assert!(r["suggestion"].as_str().unwrap().contains("--rules othello,rows=bottom"), "{r}");
    let r = &rows(&["--rules", "othello,rows=bottom"], "f4d3c6d6c5\n")[0];
    assert_eq!(r["status"], "unfinished");
}

#[test]
fn a_headed_game_s_moves_go_on_over_several_lines() {
    // A scoresheet typed ten moves a line, with a typo in its fourth line.
    let sheet = "Round: 1\nBlack: Ann\nWhite: Bob\nf5 d6 c4 g5 c6 c5 d7 d3 b4 c3\ne3 b5 f6 f3 c2 a4 d2 b6 b3 e2\n\
                 a3 c7 g6 f4 c8 a2 e6 c1 a6 d8\ne8 e7 f8 g4 f7 h6 d1 e1 g3 f2\nh4 h5 h3 h2 g1 b7 g7 g2 b8 a8\n\
                 a7 g8 h1 f1 h7 a5 b2 b1 a1 h8\nResult: 28-36\n";
    let r = rows(&[], sheet);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0]["status"], "ok", "{r:?}");
    let typo = sheet.replace("d1 e1", "d1 el");
    let r = rows(&[], &typo);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0]["status"], "parse_error", "{r:?}");
    assert_eq!((&r[0]["error_ply"], &r[0]["error_move"]), (&38.into(), &"el".into()), "{r:?}");
    assert!(r[0]["reason"].as_str().unwrap().contains("`el` is not a move: e1?"), "{r:?}");
    assert_eq!(r[0]["line"], 7, "{r:?}");
    // Without header lines, or after a blank line, each line of moves is a game.
    assert_eq!(rows(&[], "f5d6c3\nf5f6e6\n").len(), 2);
    assert_eq!(rows(&[], "Black: Ann\nf5d6c3\nResult: 0-0\n\nf5f6e6\n").len(), 2);
}

#[test]
fn a_smaller_or_larger_board_s_moves_are_recognised() {
    // A 6x6 game's transcript (as `kifu play --rules othello,size=6 -t transcript` writes it).
    let game = "c2b4a5a4a3d2c5b1e4d5c6b3a2f4d1e5e3f3e2b6a6d6f5f6e6e1f1f2b5c1a1b2\n";
    let r = &rows(&[], game)[0];
    assert_eq!(r["status"], "illegal");
    assert!(r["suggestion"].as_str().unwrap().contains("on a 6x6 board: --rules othello,size=6"), "{r}");
    assert_eq!(rows(&["--rules", "othello,size=6"], game)[0]["status"], "ok");
    // A plain illegal move on the full board is no smaller board's game.
    let r = &rows(&[], "f5d6c3a1\n")[0];
    assert!(!r["suggestion"].as_str().unwrap_or("").contains("size="), "{r}");
    // A 10x10 game's (`j10`): a larger board.
    let game = "e4d6f7f4g4h3h4g6h5h7c7d4c4c3d5c5d3d7g7c6h6g3g5h8g8e7f8f3e3i6d8i5i4j4b7b6a6c8f2g9e8f9i7j7e9d2d1e10j8j9b5c1g2e2j6j5c2a4b1b3a3a2b4e1f1a7a8b8d9c10g10c9a9h9i10h10h2j10b10h1j3b2a5a10b9d10a1f10i8j2i3i2i9g1i1j1\n";
    let r = &rows(&[], game)[0];
    assert!(r["suggestion"].as_str().unwrap_or("").contains("on a 10x10 board: --rules grand"), "{r}");
    assert_eq!(rows(&["--rules", "grand"], game)[0]["status"], "ok");
}

#[test]
fn csv_has_the_documented_columns() {
    let (out, _, code) = validate(&["--format", "csv", "-q"], "f5d6c3\nf5f5\n");
    assert_eq!(code, 1);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "source,game,status,plies,black,white,winner,error_ply,error_move,reason,suggestion,margin,passes,empties,stored_result,line,column,byte"
    );
    assert!(lines.next().unwrap().starts_with("-,1,unfinished,3,"));
    assert!(lines.next().unwrap().starts_with("-,2,illegal,1,4,1,,2,f5,the square is already occupied,"));
    // With no record at all, the header alone (and exit 1: an empty input is a file problem).
    let (empty, err, code) = validate(&["--format", "csv", "-q"], "");
    assert_eq!((empty.lines().count(), code), (1, 1), "{empty}");
    assert!(err.contains("-: holds no records"), "{err}");
    assert!(empty.starts_with("source,game,status,"), "{empty}");
}

#[test]
fn the_logbook_sample_is_all_ok() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/logbook-200.gam");
    let (_, err, code) = validate(&[path.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("200 games: 200 ok"), "{err}");
}

#[test]
fn the_whole_logbook_is_ok() {
    let Some(gz) = shared("logistello/logbook.gam.gz") else { return };
    let (out, err, code) = validate(&[gz.to_str().unwrap()], "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("121123 games: 121123 ok"), "{err}");
}

#[test]
fn wthor_years_replay_and_1988_names_its_truncated_games() {
    for year in ["1977", "2004", "2015", "2021"] {
        let Some(wtb) = shared(&format!("wthor/WTH_{year}.wtb")) else { return };
        let (out, err, code) = validate(&[wtb.to_str().unwrap()], "");
        assert_eq!(code, 0, "{year}: {out}{err}");
    }
    let Some(wtb) = shared("wthor/WTH_1988.wtb") else { return };
    let (out, _, code) = validate(&["--format", "csv", "-q", wtb.to_str().unwrap()], "");
    assert_eq!(code, 1);
    let unfinished: Vec<&str> =
        out.lines().filter(|l| l.contains(",unfinished,")).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(unfinished, ["129", "482", "500", "779", "839", "860", "1162", "1613"]);
    assert!(out.contains("the record says -14, the board as it stands gives -6"), "{out}");
    assert_eq!(out.lines().filter(|l| l.contains(",ok,")).count(), 1815);
}

/// An unfinished game's stated result is shown whether or not it is the board as it stands
/// (a draw agreed before the end is).
#[test]
fn an_unfinished_games_stated_result_is_shown() {
    let (out, _, code) = validate(&["-q"], "f5d6c3d3: 0\nf5d6c3d3 32-32\nf5d6c3: 0\n");
    assert_eq!(code, 1);
    for said in [
        "record 1: unfinished: the game is not over (56 empty cells); the record says 0, as the board stands",
        "record 2: unfinished: the game is not over (56 empty cells); the record says 32-32, as the board stands",
        "record 3: unfinished: the game is not over (57 empty cells); the record says 0, the board as it stands gives +3",
    ] {
        assert!(out.contains(said), "{said}: {out}");
    }
}

/// A record that states only the winner (PGN's `1-0`, `0-1`, `1/2-1/2`) is checked too.
#[test]
fn a_stated_winner_is_checked() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/variants.pgn")).unwrap();
    // The anti-reversi game: black ends with more discs, so white wins.
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    let read = rows(&["--from", "pgn"], &text);
    assert!(read.iter().all(|r| r["status"] == "ok"), "{read:?}");
    let wrong = text.replace("[Result \"0-1\"]", "[Result \"1-0\"]").replace("\n0-1\n", "\n1-0\n");
    let (out, _, code) = validate(&["--from", "pgn", "--format", "json", "-q"], &wrong);
    assert_eq!(code, 1);
    let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["status"], "result_mismatch");
    assert_eq!(second["reason"], "the record says 1-0, the board gives a win for white");
    // Standard 8x8 games too (their quick replay had skipped the check): black wins GAME.
    for (stated, status) in [("1-0", "ok"), ("0-1", "result_mismatch"), ("1/2-1/2", "result_mismatch")] {
        let pgn = format!("[Result \"{stated}\"]\n\n{GAME} {stated}\n");
        assert_eq!(rows(&["--from", "pgn"], &pgn)[0]["status"], status, "{stated}");
    }
}

/// A position file (OBF, board strings) holds positions to play on, not games that stopped.
#[test]
fn legal_positions_are_ok() {
    let obf = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/ffo-1-5.obf")).unwrap();
    let (_, err, code) = validate(&[], &obf);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("5 ok"), "{err}");
    // A board of the wrong size for its rules is still no position.
    let r = &rows(&["--rules", "othello,size=6"], obf.lines().next().unwrap())[0];
    assert_ne!(r["status"], "ok", "{r}");
}

/// The summary names what it counted: positions for OBF and board strings, records for a mix,
/// and a single count in the singular.
#[test]
fn the_summary_counts_positions_games_or_records() {
    let obf = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/ffo-1-5.obf");
    let obf = obf.to_str().unwrap();
    let (_, err, code) = validate(&[obf], "");
    assert_eq!(code, 0);
    assert!(err.contains("5 positions: 5 ok"), "{err}");
    let (_, err, code) = validate(&[obf, "-"], "f5d6c3d3c4f4f6f3e6e7\nf5d6q9\n");
    assert_eq!(code, 1);
    assert!(err.contains("7 records: 5 ok, 0 illegal, 1 unfinished, 0 result mismatches, 1 parse error ("), "{err}");
}

/// Disc counts are checked as counts: `50-32` has the game's margin (+18) but 82 discs.
#[test]
fn stated_disc_counts_must_add_up() {
    let pgn = |result: &str| format!("[Event \"x\"]\n[Result \"{result}\"]\n\n{GAME} {result}\n");
    assert_eq!(rows(&["--from", "pgn"], &pgn("41-23"))[0]["status"], "ok");
    let row = &rows(&["--from", "pgn"], &pgn("50-32"))[0];
    assert_eq!(row["status"], "result_mismatch");
    assert_eq!(row["stored_result"], "50-32");
    let (out, _, code) = validate(&["--from", "pgn"], &pgn("50-32"));
    assert_eq!(code, 1);
    assert!(out.contains("the record says 50-32, but the board has 41 black and 23 white discs"), "{out}");
    // Counts that add up but are wrong are answered with the board's counts.
    let (out, _, _) = validate(&["--from", "pgn"], &pgn("33-31"));
    assert!(out.contains("the record says 33-31, the board gives 41-23"), "{out}");
    // In another format the counts a PGN game carried along (GGF's `SCORE`) are a tag like any
    // other: the result checked is the format's own (`RE`).
    let out =
        kifu().args(["convert", "--from", "pgn", "--to", "ggf", "-q"]).write_stdin(pgn("41-23")).output().unwrap();
    let ggf = String::from_utf8(out.stdout).unwrap().replace("RE[+18.000]", "RE[+10.000]");
    assert!(ggf.contains("RE[+10.000]SCORE[41-23]"), "{ggf}");
    // A stated winner is the stored result shown.
    let row = &rows(&["--from", "pgn"], &pgn("0-1"))[0];
    assert_eq!(
        (row["status"].as_str(), row["stored_result"].as_str()),
        (Some("result_mismatch"), Some("0-1")),
        "{row}"
    );
    let row = &rows(&["--from", "ggf"], &ggf)[0];
    assert_eq!(
        (row["status"].as_str(), row["stored_result"].as_str()),
        (Some("result_mismatch"), Some("+10.000")),
        "{row}"
    );
}

/// PGN `Result` tags as people write them are checked too: margins, counts with a colon, words.
#[test]
fn pgn_results_in_other_forms_are_checked() {
    let pgn = |result: &str| format!("[Event \"x\"]\n[Result \"{result}\"]\n\n{GAME}\n");
    for (result, status) in [
        ("B+18", "ok"),
        ("+18", "ok"),
        ("41:23", "ok"),
        ("Black wins", "ok"),
        ("W+2", "result_mismatch"),
        ("-2", "result_mismatch"),
        ("23:41", "result_mismatch"),
        ("White wins", "result_mismatch"),
        ("Draw", "result_mismatch"),
        ("Black forfeits", "result_mismatch"),
        ("?", "ok"),
    ] {
        let r = &rows(&["--from", "pgn"], &pgn(result))[0];
        assert_eq!(r["status"], status, "{result}: {r}");
    }
}

/// A move written twice or left out is named, when dropping or adding one a few moves before the
/// illegal move lets the whole game replay (typed by a player: real slips, found by QA).
#[test]
fn a_doubled_or_missing_move_is_suggested() {
    let doubled = "f5f4e3f6d3c4f3e6g4h3c5g3c3f2c6c6b3d2c1e2d1e1f1c2b1a3b5b6b4d6a4a5a7f7f8g6h5h6h7g5e7h4c7h8g7g8d7h2g2c8d8h1a6g1a2e8b8a1a8b7b2";
    let missing = "f5f6e6f4e3c5g5h5d6f3c4b4d3c7d7c6e7d8b5a5h6g4h4e8f8f7c2c3d2b3a3e2e1f2f1a6b6c8b8c1b2b1a7a4a2a8d1g1g2b7g8a1g7h1g3h3h2h7";
    let found = rows(&[], &format!("{doubled}\n{missing}\n"));
    assert_eq!(
        found[0]["suggestion"],
        "move 16, c6, looks written once too often: without it the rest of the game replays"
    );
    assert_eq!(
        found[1]["suggestion"],
        "a move seems missing before move 21 (g6?): with it the rest of the game replays"
    );
}

/// A move number ahead of the moves played (a pair left out) is named at its text, in a
/// transcript and in PGN; WTHOR's own numbering around a forced pass (`28. h8 29. h2`, White's
/// pass counted but not written) is right.
#[test]
fn a_skipped_move_number_is_named() {
    let (out, _, code) = validate(&[], "1. f5 d6 2. c3 d3 4. c4 f4 5. f6 f3\n");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("-:1:19: record 1: move number 4. where 3. was expected from the moves played before it"),
        "{out}"
    );
    let r = &rows(&[], "[Black \"a\"]\n\n1. f5 d6 2. c3 d3 4. c4 e3 *\n")[0];
    assert_eq!((r["status"].as_str(), r["error_ply"].as_u64()), (Some("illegal"), Some(6)));
    let suggestion = r["suggestion"].as_str().unwrap();
    assert!(
        suggestion.starts_with(
            "a move left out before move number 4.? It runs ahead of the moves played before it, where 3. was \
             expected (it stands before the 5th move written)"
        ),
        "{suggestion}"
    );
    let sample = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/wthor-2004.pgn")).unwrap();
    assert!(sample.contains("28. h8 -- 29. h2"));
    let (_, err, code) = validate(&[], &sample.replace("28. h8 -- 29. h2", "28. h8 29. h2"));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_start_turned_upside_down_suggests_the_row_numbering() {
    // A game of rows=bottom written to GGF, which cannot name the row numbering: its board is the
    // start upside down, which no game of standard Othello reaches.
    let out = kifu()
        .args(["play", "--rules", "othello,rows=bottom", "-n", "1", "--to", "ggf", "-j", "1", "-q"])
        .output()
        .unwrap();
    let ggf = String::from_utf8(out.stdout).unwrap();
    let (out, _, code) = validate(&["--format", "csv"], &ggf);
    assert_eq!(code, 1);
    assert!(out.contains(",illegal,0,2,2,"), "{out}");
    assert!(out.contains("the board has the start position's number of discs but not its discs"), "{out}");
    assert!(
        out.contains("the whole game replays with ranks counted from the bottom: --rules othello,rows=bottom"),
        "{out}"
    );
    let (_, _, code) = validate(&["--rules", "othello,rows=bottom"], &ggf);
    assert_eq!(code, 0);
    // The board after White's first move of a game White began.
    let board = format!("{}O{}OO{}XO{} X\n", "-".repeat(20), "-".repeat(6), "-".repeat(6), "-".repeat(27));
    let (out, _, code) = validate(&[], &board);
    assert_eq!(code, 1);
    assert!(
        out.contains("suggestion: a game with white moving first reaches the board: --rules othello,first=white"),
        "{out}"
    );
}

/// A game White began, typed as a transcript: read the other way up, it replays too, but with
/// the opposite result; both readings are named, or the one that gives the stated result.
#[test]
fn a_white_first_transcript_names_both_readings_or_the_one_its_result_gives() {
    let moves = "e3d3c3f3g3d2c1f5c6b3c2f4c4c5g4d1d6g5e2b1h6h4e1f1e6f2g6b7b5a6a8b6a5a4a7h5h3f6a3b4e7e8b2a2a1c7g1h2h1g2b8g7h7f7d8d7c8h8g8f8";
    let (out, _, code) = validate(&[], &format!("Black: Anna  White: Bert\n{moves}\n"));
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "suggestion: the whole game replays with ranks counted from the bottom: --rules othello,rows=bottom, or \
             with white moving first: --rules othello,first=white (not the same game"
        ),
        "{out}"
    );
    let (out, _, _) = validate(&[], &format!("Black: Anna  White: Bert\n{moves}\nResult: 17-47\n"));
    assert!(
        out.contains(
            "suggestion: the whole game replays with white moving first: --rules othello,first=white (the one that \
             gives the result the record states)"
        ),
        "{out}"
    );
    // Said in the record, it replays as it is.
    let (out, _, code) = validate(&[], &format!("Black: Anna  White: Bert\nWhite first\n{moves}\nResult: 17-47\n"));
    assert_eq!(code, 0, "{out}");
}

/// A kifu grid of the parallel start is named as that, not as a game from an empty board
/// (which any board of four discs fits).
#[test]
fn a_parallel_start_grid_suggests_the_parallel_start() {
    // A made-up game on the parallel start, as a QA check typed it.
    let grid = "    a  b  c  d  e  f  g  h\n 1 34 45 23 46 24 52 27 55\n 2 12 21 14 36  4  9 33 26\n\
                \x20 3 30 11 10  1  3 20 16 25\n 4 22  5  2  O  O  7 13 28\n 5 42 29 15  X  X 35  8 44\n\
                \x20 6 43 19 18 17  6 39 47 41\n 7 40 54 49 37 32 31 56 59\n 8 60 53 38 48 51 57 50 58\n";
    let (out, _, code) = validate(&["--from", "kifu"], grid);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("suggestion: the whole game replays from the parallel start"), "{out}");
    assert!(out.contains("--rules othello,start=parallel") && !out.contains("brainking"), "{out}");
}

/// Two moves swapped in a format that gives each move its colour (the logbook's `+`/`-`, GGF's
/// `B[]`/`W[]`): the squares changed places, the colours did not, and the swap is named.
#[test]
fn swapped_moves_are_named_where_the_record_gives_colours() {
    let line = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/logbook-200.gam"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    // Moves 16 and 17 (`-f6`, `+d7`) written as `-d7`, `+f6`.
    let (moves, result) = line.split_once(':').unwrap();
    let mut tokens: Vec<String> = moves.as_bytes().chunks(3).map(|t| String::from_utf8(t.to_vec()).unwrap()).collect();
    let (a, b) = (tokens[15].clone(), tokens[16].clone());
    tokens[15] = format!("{}{}", &a[..1], &b[1..]);
    tokens[16] = format!("{}{}", &b[..1], &a[1..]);
    let record = format!("{}:{result}\n", tokens.concat());
    let row = &rows(&["--from", "logbook"], &record)[0];
    assert_eq!(row["status"], "illegal");
    assert_eq!(row["suggestion"], "moves 16 and 17 look swapped (d7 and f6): swapped, the whole game replays");
}

/// A wrong result is pointed at where the record writes it, in whatever form: SGF's and GGF's
/// `RE[...]` (not the `SCORE[` beside it), a kifu grid's `Result:` line, a word after the moves.
#[test]
fn a_wrong_result_is_pointed_at_where_it_is_written() {
    let at = |stdin: &str, from: &str| {
        let (out, err, code) = validate(&["--from", from], stdin);
        assert_eq!(code, 1, "{err}");
        let place = out.split(": record").next().unwrap().to_owned();
        (place, out)
    };
    let sgf = format!("(;GM[2]SZ[8]PB[A]RE[Draw]SCORE[41-23];{})\n", sgf_moves(GAME));
    let (place, err) = at(&sgf, "sgf");
    assert_eq!(place, format!("-:1:{}", sgf.find("Draw").unwrap() + 1), "{err}");
    let (place, err) = at(&format!("{GAME} White wins 44-20\n"), "transcript");
    assert_eq!(place, format!("-:1:{}", GAME.len() + 13), "{err}");
    let (place, err) = at(&format!("{GAME} draw\n"), "transcript");
    assert_eq!(place, format!("-:1:{}", GAME.len() + 2), "{err}");
    // A resignation the board's loser won, after the moves.
    let (_, err) = at(&format!("{GAME} W+R\n"), "transcript");
    assert!(err.contains("the record says W+R (a resignation), the board gives a win for black"), "{err}");
}

/// A game's moves as SGF writes them (`fe` for f5).
fn sgf_moves(game: &str) -> String {
    let colors = ["B", "W"];
    let mut out = String::new();
    let mut position = kifu::core::Position::start(kifu::core::Rules::othello().shared());
    for pair in game.as_bytes().chunks(2) {
        let sq: kifu::core::Square = std::str::from_utf8(pair).unwrap().parse().unwrap();
        if !position.legal_moves().contains(&kifu::core::Move::Place(sq)) {
            out.push_str(&format!(";{}[tt]", colors[position.side_to_move().index()]));
            position.play_mut(kifu::core::Move::Pass).unwrap();
        }
        let (file, rank) = (pair[0] as char, (b'a' + pair[1] - b'1') as char);
        out.push_str(&format!(";{}[{file}{rank}]", colors[position.side_to_move().index()]));
        position.play_mut(kifu::core::Move::Place(sq)).unwrap();
    }
    out.trim_start_matches(';').to_owned()
}

/// PGN's movetext may say more than its Result tag (`W+R` after `0-1`, `B+20` after `1-0`):
/// the two must name one winner, and a margin there is checked; a loss on time may overrule
/// the board; a komi placeholder (`?`) is no komi.
#[test]
fn pgn_results_in_the_tag_and_the_movetext() {
    let pgn = |tags: &str, token: &str| {
        let moves: Vec<String> = GAME.as_bytes().chunks(2).map(|c| String::from_utf8(c.to_vec()).unwrap()).collect();
        format!("[Event \"E\"]\n{tags}\n{} {token}\n", moves.join(" "))
    };
    let status = |text: String| rows(&["--from", "pgn"], &text)[0]["status"].as_str().unwrap().to_owned();
    // GAME: black wins 41-23 (+18) on a full board, after a pass.
    assert_eq!(status(pgn("[Result \"1-0\"]\n", "B+R")), "ok");
    assert_eq!(status(pgn("[Result \"*\"]\n", "B+18")), "ok");
    assert_eq!(status(pgn("[Result \"1-0\"]\n", "B+20")), "result_mismatch");
    assert_eq!(status(pgn("[Result \"0-1\"]\n", "W+R")), "result_mismatch");
    assert_eq!(status(pgn("[Result \"0-1\"]\n[Termination \"time forfeit\"]\n", "0-1")), "ok");
    // Counts, as WOC sheets score a loss on time, stand too (the same counts without the tag
    // are the board's to judge).
    assert_eq!(status(pgn("[Result \"31-33\"]\n[Termination \"time forfeit\"]\n", "31-33")), "ok");
    assert_eq!(status(pgn("[Result \"0-64\"]\n[Termination \"forfeit\"]\n", "")), "ok");
    assert_eq!(status(pgn("[Result \"31-33\"]\n", "31-33")), "result_mismatch");
    assert_eq!(status(pgn("[Result \"20-44\"]\n[Komi \"?\"]\n", "")), "result_mismatch");
    let (out, _, code) = validate(&["--from", "pgn", "-q"], &pgn("[Result \"1-0\"]\n", "W+R"));
    assert_eq!(code, 1);
    assert!(out.contains("the result `W+R` differs from the Result tag `1-0`"), "{out}");
}

/// A token that is no move is placed at its ply, and the move it meant is found by trying the
/// legal moves there against the rest of the game (WTH_2004's game 3, one move spoiled).
#[test]
fn a_token_that_is_no_move_gets_its_ply_and_the_move_it_meant() {
    let game = "f5d6c3d3c4f3f4g5c6c5d7b3b5g3e6f6e3b4d2a5b6c2g4d1e2h4g6f1e1f2c1d8g1c7e7e8f7f8c8b8g7h5h7b7a6a4h6g2a3a2a1b1b2h1h3h2a8a7g8h8";
    assert_eq!(rows(&[], &format!("{game}\n"))[0]["status"], "ok");
    let spoiled = |bad: &str| format!("{}{bad}{}\n", &game[..8], &game[10..]);
    let r = &rows(&[], &spoiled("x4"))[0];
    assert_eq!(
        (r["status"].as_str(), r["error_ply"].as_u64(), r["error_move"].as_str()),
        (Some("parse_error"), Some(5), Some("x4"))
    );
    assert_eq!(r["suggestion"], "c4? (the rest of the game then replays)", "{r}");
    // A stray character is left out; a word is no move.
    let r = &rows(&[], &spoiled("cc4"))[0];
    assert_eq!(r["suggestion"], "leave `c` out? (without it the rest of the game replays)", "{r}");
    let (out, _, code) = validate(&[], &spoiled("x4"));
    assert_eq!(code, 1);
    assert!(out.contains("= suggestion: c4? (the rest of the game then replays)"), "{out}");
    // At the end of a game any legal move fits: only those near the token are offered.
    let r = &rows(&[], "f5d6c3d3x4\n")[0];
    assert_eq!(r["suggestion"], "c4? (legal here)", "{r}");
    let r = &rows(&[], "f5d6c3d3 Smith\n")[0];
    assert_eq!((r["suggestion"].as_str(), r["error_ply"].as_u64()), (Some(""), None), "{r}");
    // The replay's fix stands for the parser's guess from the token alone; a first move; a
    // logbook's signed move.
    let r = &rows(&[], &spoiled("c 5"))[0];
    assert_eq!(
        (r["reason"].as_str(), r["suggestion"].as_str()),
        (Some("`c 5` is not a move"), Some("c4? (the rest of the game then replays)")),
        "{r}"
    );
    let r = &rows(&[], &format!("x5{}\n", &game[2..]))[0];
    assert_eq!(
        (r["error_ply"].as_u64(), r["suggestion"].as_str()),
        (Some(1), Some("f5? (the rest of the game then replays)")),
        "{r}"
    );
    let signed: String = game
        .as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, m)| format!("{}{}", if i % 2 == 0 { '+' } else { '-' }, std::str::from_utf8(m).unwrap()))
        .collect();
    let r = &rows(&["--from", "logbook"], &format!("{}+x4{}\n", &signed[..12], &signed[15..]))[0];
    assert_eq!(
        (r["error_ply"].as_u64(), r["suggestion"].as_str()),
        (Some(5), Some("c4? (the rest of the game then replays)")),
        "{r}"
    );
    // A pass the side to move must make, misspelt (GAME's white pass after h8).
    let at = GAME.find("h8").unwrap() + 2;
    let r = &rows(&[], &format!("{} pas {}\n", &GAME[..at], &GAME[at..]))[0];
    assert_eq!((r["error_ply"].as_u64(), r["error_move"].as_str()), (Some(56), Some("pas")), "{r}");
    assert_eq!(r["suggestion"], "pass? (the rest of the game then replays)", "{r}");
}

/// A mismatch is told in the form the record wrote (`W+2` against `B+2`), and one empty cell is
/// one cell.
#[test]
fn a_mismatch_speaks_the_records_form() {
    let r = &rows(&[], &format!("{GAME} W+18\n"))[0];
    assert_eq!(r["reason"], "the record says W+18, the board gives B+18", "{r}");
    let (out, _, _) = validate(&[], &format!("{}\n", &GAME[..GAME.len() - 2]));
    assert!(out.contains("the game is not over (1 empty cell)"), "{out}");
}

/// A game the record says was resigned or lost on time is ok where it stops, and the summary
/// says how many ended so; a winner alone (`1-0`) may be a record cut short.
#[test]
fn a_resigned_game_is_ok() {
    let games = "Black: Ann\nWhite: Bob\nResult: White won on time\n\nf5 d6 c3 d3 c4 f4\n\n\
                 Black: Cy\nWhite: Di\nResult: Black resigned\n\nf5 d6 c3\n";
    let (out, err, code) = validate(&[], games);
    assert_eq!((out.as_str(), code), ("", 0), "{err}");
    assert!(err.contains("2 ok (2 ended by resignation, on time or by forfeit), 0 illegal, 0 unfinished"), "{err}");
    let rows = rows(&[], games);
    assert_eq!(rows[0]["stored_result"], "W+T");
    assert_eq!(rows[1]["stored_result"], "W+R");
    assert_eq!(rows[1]["winner"], "");
    let (_, err, code) = validate(&[], "Result: 1-0\n\nf5 d6 c3\n");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 unfinished"), "{err}");
    // A forfeit, with no moves (PGN's `Termination "forfeit"`, SGF's `B+F`), is ok; converted,
    // it stays one.
    let forfeit = "[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n[Termination \"forfeit\"]\n\n1-0\n";
    let (_, err, code) = validate(&[], forfeit);
    assert_eq!(code, 0, "{err}");
    for to in ["sgf", "ggf", "transcript", "pgn"] {
        let out = kifu().args(["convert", "--to", to]).write_stdin(forfeit).output().unwrap();
        let (_, err, code) = validate(&[], &String::from_utf8(out.stdout).unwrap());
        assert_eq!(code, 0, "{to}: {err}");
    }
    let (_, _, code) = validate(&[], "(;FF[4]GM[2]RE[W+F])\n");
    assert_eq!(code, 0);
    // Tags alone with a winner, as pairing programs write a forfeit, and a scoresheet's header
    // lines stating one; header lines alone are a game not begun.
    let (_, err, code) = validate(&[], "[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"0-1\"]\n\n0-1\n");
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = validate(&[], "Black: Ann  White: Bob\nResult: White wins by forfeit\n");
    assert_eq!(code, 0, "{err}");
    let (_, err, code) = validate(&[], "Black: Ann  White: Bob\n");
    assert!(code == 1 && err.contains("1 unfinished"), "{err}");
}

/// A square taken twice: the earlier move onto it may be the typo (`g4` for g5 at move 7 shows
/// only when the real g4 comes), and is named with the fix at the illegal move, if any.
#[test]
fn a_square_taken_twice_names_the_earlier_move_too() {
    let mut moves: Vec<String> = GAME.as_bytes().chunks(2).map(|c| String::from_utf8(c.to_vec()).unwrap()).collect();
    moves[6] = "g4".into();
    let (err, _, code) = validate(&[], &format!("{}\n", moves.join(" ")));
    assert_eq!(code, 1);
    assert!(err.contains("move 8, g4: the square is already occupied"), "{err}");
    assert!(
        err.contains("suggestion: move 7, g4, may be g5? (one character off; the rest of the game then replays)"),
        "{err}"
    );
    let mut moves: Vec<String> = GAME.as_bytes().chunks(2).map(|c| String::from_utf8(c.to_vec()).unwrap()).collect();
    moves[21] = "b7".into();
    let (err, _, _) = validate(&[], &format!("{}\n", moves.join(" ")));
    assert!(
        err.contains("; or move 22, b7, may be b6? (one character off; the rest of the game then replays)"),
        "{err}"
    );
}
