//! `kifu export`: the three tables on real data, column selection, invalid records, and the
//! games table's moves going back into transcripts.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::shared;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

fn export(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = kifu().arg("export").args(args).write_stdin(stdin.to_owned()).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

fn wthor_sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor/WTH_2004-50.wtb").to_str().unwrap().to_owned()
}

#[test]
fn games_have_names_counts_and_a_transcript_that_converts_back() {
    let (out, err, code) = export(&[&wthor_sample(), "--table", "games"], "");
    assert_eq!(code, 0, "{err}");
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 50);
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[0][col("black_player")], "Vecchi Elisabetta");
    assert_eq!(&rows[0][col("event")], "Australian National");
    assert_eq!((&rows[0][col("black")], &rows[0][col("white")], &rows[0][col("margin")]), ("41", "23", "18"));
    assert_eq!(&rows[0][col("theoretical")], "-14");
    // In JSON the theoretical score is a number, as the margin is.
    let (json, _, _) = export(&[&wthor_sample(), "--table", "games", "--format", "json", "-q"], "");
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!((first["theoretical"].as_i64(), first["margin"].as_i64()), (Some(-14), Some(18)));
    // The moves column is a transcript of each game: converting the originals gives the same.
    let transcripts = kifu().args(["convert", &wthor_sample(), "--to", "transcript", "-q"]).output().unwrap();
    let want: Vec<String> = String::from_utf8(transcripts.stdout).unwrap().lines().map(String::from).collect();
    let got: Vec<String> = rows.iter().map(|r| r[col("moves")].to_owned()).collect();
    assert_eq!(got, want);
}

#[test]
fn moves_and_positions_follow_each_game() {
    let game = "f5d6c3d3c4f4f6f3e6e7\n";
    let (out, _, code) = export(&["--table", "moves", "-q"], game);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "source,game,ply,color,move,flipped,black,white,mobility_black,mobility_white,empties,is_corner,status"
    );
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[1], "-,1,1,black,f5,1,4,1,4,4,59,false,unfinished");
    let (out, _, _) = export(&["--table", "positions", "--format", "json", "-q"], game);
    let rows: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 11, "before each move, and the last position");
    assert_eq!(rows[0]["side"], "black");
    assert_eq!(rows[0]["board"].as_str().unwrap().len(), 64);
    assert!(rows[0]["final_margin"].is_null(), "the game is not over");
    // Each position with the move played from it (the policy target), none after the last.
    assert_eq!((rows[0]["move"].as_str(), rows[0]["empties"].as_u64()), (Some("f5"), Some(60)));
    assert_eq!((rows[10]["move"].as_str(), rows[10]["status"].as_str()), (Some(""), Some("unfinished")));
    // The rows of a game stopped by an illegal move say so.
    let (out, _, code) = export(&["--table", "positions", "--format", "json", "-q"], "f5d6c3d3a1\n");
    assert_eq!(code, 1);
    assert!(out.lines().all(|l| l.contains("\"status\":\"illegal\"")), "{out}");
}

#[test]
fn columns_are_chosen_and_checked() {
    let (out, _, code) = export(&["--table", "games", "--columns", "moves,winner,margin", "-q"], "f5d6c3\n");
    assert_eq!(code, 0);
    assert_eq!(out, "moves,winner,margin\nf5d6c3,,\n");
    let (out, _, _) = export(&["--table", "games", "--columns", "plies,status", "--format", "json", "-q"], "f5d6c3\n");
    assert_eq!(out.trim(), r#"{"plies":3,"status":"unfinished"}"#);
    let (_, err, code) = export(&["--table", "games", "--columns", "nope"], "f5\n");
    assert_eq!(code, 2);
    assert!(err.contains("no column `nope`"), "{err}");
    let (_, err, code) = export(&["--table", "games", "--columns", "game,game,status"], "f5\n");
    assert_eq!(code, 2);
    assert!(err.contains("`game` is asked for twice"), "{err}");
}

#[test]
fn invalid_records_are_included_skipped_or_fatal() {
    let input = "f5d6c3\nf5f5\nf5d6\n";
    let (out, err, code) = export(&["--table", "games", "--columns", "game,status"], input);
    assert_eq!(code, 1);
    assert_eq!(out, "game,status\n1,unfinished\n2,illegal\n3,unfinished\n");
    assert!(err.contains("1 invalid record ("), "{err}");
    // Where the invalid record goes wrong, as validate says it, whatever --invalid does.
    let (out, err, code) = export(&["--table", "games", "--columns", "game,status", "--invalid", "skip", "-q"], input);
    assert_eq!((out.as_str(), code), ("game,status\n1,unfinished\n3,unfinished\n", 1));
    assert!(err.contains("-:2:3: record 2: illegal: move 2, f5:"), "{err}");
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("export-fail-{}.csv", std::process::id()));
    let (_, err, code) = export(&["--table", "games", "--invalid", "fail", "-q", "-o", file.to_str().unwrap()], input);
    assert_eq!(code, 1);
    assert!(err.contains("-:2:3: record 2: illegal") && err.contains("kifu export: -: record 2 is invalid"), "{err}");
    assert!(err.contains(&format!("stopped, {} not written", file.display())), "{err}");
    assert!(!file.exists(), "no half-written output");
    // To stdout, the rows before it are out already, and the message says so.
    let (out, err, _) = export(&["--table", "games", "--columns", "game", "--invalid", "fail", "-q"], input);
    assert_eq!(out, "game\n1\n");
    assert!(err.contains("stopped, the rows before it written"), "{err}");
}

#[test]
fn the_whole_wthor_2004_exports_with_names() {
    let Some(wtb) = shared("wthor/WTH_2004.wtb") else { return };
    let (out, err, code) = export(&[wtb.to_str().unwrap(), "--table", "games"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 9114, "a header and 9113 games");
    assert!(!out.lines().skip(1).any(|l| l.contains(",,,othello,")), "every game has names");
}

#[test]
fn ggf_games_export_with_their_players_and_rules() {
    let Some(ggf) = shared("ggf/test2.ggf") else { return };
    let (out, err, code) =
        export(&[ggf.to_str().unwrap(), "--table", "games", "--columns", "black_player,rules,status,plies"], "");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines.contains(&"james,\"othello,size=4\",ok,13"), "{out}");
    // GGS's metadata for a database: ISO dates (from seconds since 1970), ratings, the time
    // control, the komi, and the komi game's winner after it.
    let columns = "date,place,black_rating,time_control,komi,winner,stated_winner";
    let (out, _, _) = export(&[ggf.to_str().unwrap(), "--table", "games", "--columns", columns], "");
    assert!(out.contains("\n1999-10-22,GGS/os,1084.65,15:00//02:00,-3.133,white,white\n"), "{out}");
    let (out, err, code) = kifu_stats(&[ggf.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l == "games,3"), "{out}");
}

fn kifu_stats(args: &[&str]) -> (String, String, i32) {
    let out = kifu().arg("stats").args(args).arg("-q").output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

#[test]
fn unreadable_and_off_board_records_still_get_their_rows() {
    let (out, _, code) = export(&["--table", "games", "--columns", "game,status,plies", "-q"], "zz9 garbage\nf5d6\n");
    assert_eq!(code, 1);
    assert_eq!(out, "game,status,plies\n1,parse_error,\n2,unfinished,2\n", "no counts for a record not read");
    let (out, _, _) =
        export(&["--rules", "othello,size=6", "--table", "moves", "--columns", "ply,move", "-q"], "c2d2e3g4\n");
    assert_eq!(out, "ply,move\n1,c2\n2,d2\n3,e3\n", "moves up to the square off the board");
}

#[test]
fn position_boards_start_at_a1_under_either_row_numbering() {
    // The same first move (the third row from the top, file d) named under each numbering: the
    // board strings, read from a1, hold the same ranks in reverse; `convert --to board` agrees.
    let mut boards = Vec::new();
    for (rules, mv) in [("othello", "d3\n"), ("othello,rows=bottom", "d6\n")] {
        let (out, err, code) = export(&["--rules", rules, "--table", "positions", "--columns", "ply,board"], mv);
        assert_eq!(code, 0, "{err}");
        let after = out.lines().nth(2).unwrap().split(',').nth(1).unwrap().to_owned();
        let board = kifu().args(["convert", "--rules", rules, "--to", "board", "-q"]).write_stdin(mv).output().unwrap();
        assert!(String::from_utf8(board.stdout).unwrap().starts_with(&after), "{rules}");
        boards.push(after);
    }
    let ranks = |b: &str| b.as_bytes().chunks(8).map(|r| String::from_utf8(r.to_vec()).unwrap()).collect::<Vec<_>>();
    assert_eq!(ranks(&boards[0])[2], "---X----");
    let mut reversed = ranks(&boards[1]);
    reversed.reverse();
    assert_eq!(ranks(&boards[0]), reversed);
}

/// A WTHOR database without its names files: players and tournaments are given by their WTHOR
/// numbers, as the warning says, in export and in stats alike.
#[test]
fn wthor_numbers_stand_in_for_missing_names() {
    let dir = tempfile::tempdir().unwrap();
    let wtb = dir.path().join("games.wtb");
    std::fs::copy(wthor_sample(), &wtb).unwrap();
    let (out, err, code) = export(&[wtb.to_str().unwrap(), "--table", "games", "--format", "json"], "");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("kept as WTHOR numbers (`WTHOR #95`"), "{err}");
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!((first["black_player"].as_str(), first["event"].as_str()), (Some("WTHOR #95"), Some("WTHOR #116")));
    let (stats, _, _) = kifu_stats(&[wtb.to_str().unwrap(), "--by", "player", "--format", "csv"]);
    assert!(stats.lines().any(|l| l.starts_with("WTHOR #95,")), "{stats}");
}

#[test]
fn corners_follow_the_board_shape() {
    // A game on the 8-stars board, whose eight corners stand beside the cut cells.
    let game = "e4d4d5f4f3c5c6d6e7d7b4c7g5e3c3d3b8g4h5h3g3h4i5i4j3b6c4a3b5j4j5a5a4a6d8h6g6h7e2f7i6j6b7d1i2a8a7b2i3g2h1c8b9c10h2b3c2e8g7c1j7d2f2i7e1h8d9d10j8f1f8c9i8e9g1g8i9h9f9f10e10g9h10g10";
    let out = kifu()
        .args(["export", "--rules", "8stars", "--table", "moves", "--columns", "move,is_corner", "-q"])
        .write_stdin(game)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let corners: Vec<&str> = text.lines().filter_map(|l| l.strip_suffix(",true")).collect();
    assert_eq!(corners, ["j3", "a3", "a8", "h1", "c10", "c1", "j8", "h10"], "{text}");
    let out = kifu()
        .args(["export", "--rules", "8stars", "--table", "games", "--columns", "corners_black,corners_white", "-q"])
        .write_stdin(game)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let counts: Vec<u32> = text.lines().nth(1).unwrap().split(',').map(|v| v.parse().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u32>(), 8, "{text}");
}

#[test]
fn openings_are_named_whatever_the_row_numbering() {
    // The Tiger with rank 1 at the bottom: f5d6c3d3c4f4 written f4d3c6d6c5f5.
    let out = kifu()
        .args(["export", "--rules", "othello,rows=bottom", "--table", "games", "--columns", "opening", "-q"])
        .write_stdin("f4d3c6d6c5f5")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "opening\nTiger\n");
}

/// `--excel`: a byte-order mark for Excel's sake, and names that a spreadsheet would run as
/// formulas written after a `'`; numbers and other text as they are, and json untouched.
#[test]
fn excel_csv_has_a_mark_and_no_formulas() {
    let pgn =
        "[Event \"=HYPERLINK(\\\"x\\\")\"]\n[Black \"@Ann\"]\n[White \"Zo\u{eb}\"]\n[Result \"+16\"]\n\n1. f5 d6 *\n";
    let columns = ["--table", "games", "--columns", "event,black_player,white_player,stored_result,black", "-q"];
    let (out, err, code) = export(&[&columns[..], &["--excel"]].concat(), pgn);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "\u{feff}event,black_player,white_player,stored_result,black\n\"'=HYPERLINK(\"\"x\"\")\",'@Ann,Zo\u{eb},+16,3\n"
    );
    let (plain, _, _) = export(&columns, pgn);
    assert!(plain.starts_with("event,") && plain.contains("\n\"=HYPERLINK("), "{plain}");
    // JSON has no spreadsheet to please: --excel with it is a usage error.
    let (json, err, code) = export(&[&columns[..], &["--excel", "-f", "json"]].concat(), pgn);
    assert_eq!((json.as_str(), code), ("", 2), "{err}");
    assert!(err.contains("--excel is for CSV"), "{err}");
    // All the columns when none are asked for.
    let (all, _, _) = export(&["--table", "games", "-q", "--excel"], pgn);
    assert!(all.starts_with("\u{feff}source,game,event,") && all.contains(",'@Ann,"), "{all}");
}

/// A record with a token that is no move gives the rows of what reads before it, its tags
/// included, with the status `parse_error`, and is reported.
#[test]
fn a_record_that_stops_reading_gives_its_rows_up_to_the_fault() {
    let pgn = "[Event \"Club\"]\n[Black \"Ann\"]\n[White \"Bo\"]\n\n1. f5 d6 2. c3 d3 3. cc4 f4 *\n";
    let (out, err, code) = export(&["--table", "games", "--format", "json"], pgn);
    assert_eq!(code, 1, "{err}");
    let row: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((row["event"].as_str(), row["black_player"].as_str()), (Some("Club"), Some("Ann")), "{row}");
    assert_eq!(
        (row["moves"].as_str(), row["plies"].as_u64(), row["status"].as_str()),
        (Some("f5d6c3d3"), Some(4), Some("parse_error"))
    );
    assert!(err.contains("-:5:22: record 1: `cc4` is not a move"), "{err}");
    let (out, _, code) = export(&["--table", "moves"], pgn);
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), 1 + 4, "{out}");
    assert!(out.lines().skip(1).all(|l| l.ends_with(",parse_error")), "{out}");
    // Nothing reads: the row of a record that does not read, as before.
    let (out, _, _) = export(&["--table", "games"], "[Event \"Club\n");
    assert!(out.lines().nth(1).unwrap().starts_with("-,1,,,"), "{out}");
}

/// A game's `plies` in the games table is its rows in the moves table, whatever the format
/// wrote of its passes (a transcript leaves them out, GGF writes them).
#[test]
fn plies_count_the_passes_a_format_leaves_out() {
    let wtb = wthor_sample();
    let dir = std::env::temp_dir().join(format!("kifu-export-plies-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut counts = Vec::new();
    for to in ["transcript", "ggf"] {
        // Game 16 has five passes.
        let path = dir.join(format!("g16.{to}"));
        let path = path.to_str().unwrap();
        let ok = kifu().args(["convert", &wtb, "--games", "16", "--to", to, "-o", path, "-q"]).output().unwrap();
        assert!(ok.status.success());
        let (games, err, code) = export(&[path, "-t", "games", "--columns", "plies,passes,first_corner_ply"], "");
        assert_eq!(code, 0, "{err}");
        let (moves, _, _) = export(&[path, "-t", "moves"], "");
        counts.push((games.lines().nth(1).unwrap().to_owned(), moves.lines().count() - 1));
    }
    let (games, _, _) =
        export(&[&wtb, "--games", "16", "-t", "games", "--columns", "plies,passes,first_corner_ply"], "");
    let row = games.lines().nth(1).unwrap().to_owned();
    assert!(row.starts_with("65,5,"), "{row}");
    assert_eq!(counts, [(row.clone(), 65), (row, 65)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions turned or mirrored into one another share their `canonical_hash`, whatever game
/// reached them; other positions do not.
#[test]
fn positions_have_a_hash_up_to_symmetry() {
    // The four first moves are one position up to symmetry; after f5d6 and f5f6, two others.
    let (out, err, code) =
        export(&["-t", "positions", "--columns", "game,ply,canonical_hash"], "f5d6\ne6f4\nd3c5\nc4e3\nf5f6\n");
    assert_eq!(code, 0, "{err}");
    let hash = |game: &str, ply: &str| {
        out.lines().find(|l| l.starts_with(&format!("{game},{ply},"))).unwrap().rsplit(',').next().unwrap().to_owned()
    };
    for game in ["2", "3", "4"] {
        assert_eq!(hash(game, "1"), hash("1", "1"));
        assert_eq!(hash(game, "2"), hash("1", "2"));
    }
    assert_eq!(hash("1", "0"), hash("5", "0"));
    assert_eq!(hash("1", "1"), hash("5", "1"));
    assert_ne!(hash("1", "2"), hash("5", "2"));
    assert_ne!(hash("1", "1"), hash("1", "2"));
    assert_eq!(hash("1", "2").len(), 16);
    // Boards of other sizes whose discs read the same are other positions.
    let hashes: Vec<String> = ["othello,size=4", "othello,size=6,start=-------OX----XO---------------------"]
        .iter()
        .map(|rules| export(&["-t", "positions", "-r", rules, "--columns", "canonical_hash"], "b1\n").0)
        .collect();
    assert_ne!(hashes[0], hashes[1]);
}
