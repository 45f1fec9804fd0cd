//! `kifu convert` on real data: every format written and read back, WTHOR with its name files,
//! errors that say where, and the whole shared databases when `../shared/data` is present.

use std::path::{Path, PathBuf};

mod common;

use assert_cmd::Command;
use common::shared;
use predicates::prelude::*;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path)
}

/// Runs `kifu convert` with `args` and `stdin`; returns stdout, stderr and the exit code.
fn convert(args: &[&str], stdin: &[u8]) -> (Vec<u8>, String, i32) {
    let out = kifu().arg("convert").args(args).write_stdin(stdin.to_vec()).output().unwrap();
    (out.stdout, String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code().unwrap_or(-1))
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap()
}

#[test]
fn every_game_format_round_trips_the_logbook_sample() {
    let logbook = std::fs::read_to_string(data("logbook-200.gam")).unwrap();
    for format in ["transcript", "kifu", "ggf", "sgf", "pgn", "playok", "oq", "json", "logbook"] {
        let (written, err, code) = convert(&["--to", format, "-q"], logbook.as_bytes());
        assert_eq!(code, 0, "{format}: {err}");
        let (back, err, code) = convert(&["--from", format, "--to", "logbook", "-q"], &written);
        assert_eq!(code, 0, "{format} back: {err}");
        let back = text(back);
        // Transcripts, kifu grids and Othello Quest JSON carry no score: compare the moves.
        let moves = |s: &str| s.lines().map(|l| l.split(':').next().unwrap().to_owned()).collect::<Vec<_>>();
        assert_eq!(moves(&back), moves(&logbook), "{format}");
        if !["transcript", "kifu", "oq"].contains(&format) {
            let scores = |s: &str| {
                s.lines()
                    .map(|l| l.split(':').nth(1).unwrap().split_whitespace().next().unwrap().to_owned())
                    .collect::<Vec<_>>()
            };
            assert_eq!(scores(&back), scores(&logbook), "{format}: scores");
        }
    }
}

#[test]
fn a_logbook_score_becomes_the_rules_margin() {
    // WTHOR 2004's fifth game as a logbook line: one square left empty at the end, so the
    // logbook's plain difference (+59) is not the margin with the empty square to the winner.
    let line = "+f5-d6+c5-f6+e6-f4+c6-e7+d3-c2+f8-e8+d8-c3+f7-d7+c4-b4+c8-b6+g5-h5+e3-g6+c7-e2+a6-b7+b5-a5\
                +a4-g7+a8-a7+b8-a3+h4-h3+g4-g3+a2+c1-b3+g8-d1+h8-b1+f1-d2+b2-e1+a1+h7+h6-f3+g2-f2+h2+g1: +59\n";
    for (rules, margin) in [("othello", "+60"), ("anti", "-59")] {
        let (json, err, code) =
            convert(&["--from", "logbook", "--rules", rules, "--to", "json", "-q"], line.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert!(text(json.clone()).contains(&format!("\"result\":\"{margin}\"")), "{rules}");
        // What convert writes validates, and goes back to the logbook's own score.
        let out = kifu().args(["validate", "--rules", rules, "-q"]).write_stdin(json.clone()).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{rules}: {}", String::from_utf8_lossy(&out.stdout));
        let (back, _, _) = convert(&["--rules", rules, "--to", "logbook", "-q"], &json);
        assert_eq!(text(back), line, "{rules}");
    }
}

#[test]
fn an_odd_board_reads_with_its_start_board_as_the_rules_start() {
    // What `kifu play --rules othello,size=5,start=...,first=white --to ggf` writes: a 5x5
    // board has no centre, so its start board is the rules' start.
    let ggf = "(;GM[Othello]TY[5]BO[5 ----- --O*- --*O- ----- ----- O]W[b3];)\n";
    let (out, err, code) = convert(&["--to", "json", "-q"], ggf.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(text(out).contains("\"move\":\"b3\""));
    let (out, err, code) = convert(&["--to", "transcript"], ggf.as_bytes());
    assert_eq!((code, text(out)), (0, "b3\n".to_owned()), "{err}");
    assert!(err.contains("--rules othello,size=5,start=-------OX---XO-----------,first=white"), "{err}");
}

#[test]
fn rules_given_over_a_records_own_replace_its_tag() {
    // The record says 6x6 with ranks from the top; --rules counts them from the bottom, so
    // its c5 is the top-down c2. The output must say which rules it was replayed under.
    let pgn = "[Rules \"othello,size=6\"]\n\n1. c5 *\n";
    let (out, err, code) = convert(&["--rules", "othello,size=6,rows=bottom", "--to", "pgn", "-q"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    let out = text(out);
    assert!(
        out.contains("[Rules \"othello,size=6,rows=bottom\"]") && !out.contains("[Rules \"othello,size=6\"]"),
        "{out}"
    );
}

#[test]
fn formats_are_recognised_without_from() {
    let logbook = std::fs::read_to_string(data("logbook-200.gam")).unwrap();
    let (want, _, _) = convert(&["--to", "transcript", "-q"], logbook.as_bytes());
    for format in ["kifu", "ggf", "sgf", "pgn", "playok", "oq", "json", "logbook"] {
        let (written, _, _) = convert(&["--to", format, "-q"], logbook.as_bytes());
        let (back, err, code) = convert(&["--to", "transcript", "-q"], &written);
        assert_eq!(code, 0, "{format}: {err}");
        assert_eq!(text(back), text(want.clone()), "{format}");
    }
}

#[test]
fn boards_of_variants_mark_their_holes() {
    // A hole and the 8-stars board's cut corners are `#`, as `kifu export` writes them: read back
    // without the rules, the board is refused rather than taken for another position.
    let (board, err, code) = convert(&["--rules", "othello,holes=c3", "--to", "board", "-q"], b"f5d6\n");
    assert_eq!(code, 0, "{err}");
    let board = text(board);
    assert_eq!(board.chars().nth(18), Some('#'), "c3: {board}");
    let (_, err, code) = convert(&["--to", "json", "-q"], board.as_bytes());
    assert_eq!(code, 1);
    assert!(err.contains("`#` on c3 marks a hole"), "{err}");
    let (back, err, code) = convert(&["--rules", "othello,holes=c3", "--to", "board", "-q"], board.as_bytes());
    assert_eq!((code, text(back)), (0, board), "{err}");
}

#[test]
fn utf16_files_are_read_as_their_text() {
    // What PowerShell's `>` writes: UTF-16, little-endian, a byte-order mark, CRLF line ends.
    let logbook = std::fs::read_to_string(data("logbook-200.gam")).unwrap();
    let (want, _, _) = convert(&["--to", "transcript", "-q"], logbook.as_bytes());
    for format in ["pgn", "ggf", "logbook"] {
        let (written, _, _) = convert(&["--to", format, "-q"], logbook.as_bytes());
        let windows = text(written).replace('\n', "\r\n");
        let utf16: Vec<u8> =
            [0xFF, 0xFE].into_iter().chain(windows.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let (back, err, code) = convert(&["--to", "transcript", "-q"], &utf16);
        assert_eq!(code, 0, "{format}: {err}");
        assert_eq!(text(back), text(want.clone()), "{format}");
    }
}

#[test]
fn wthor_keeps_names_ids_and_moves() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (out, err, code) = convert(&[wtb.to_str().unwrap(), "--to", "pgn"], b"");
    assert_eq!(code, 0, "{err}");
    let pgn = text(out);
    assert_eq!(pgn.matches("[Black \"").count(), 50);
    assert!(err.contains("50 records converted"), "{err}");
    // Back to WTHOR: the ids came with the records, so the games are byte for byte the same.
    let dir = tempdir();
    let back = dir.join("back.wtb");
    let (_, err, code) = convert(&["--from", "pgn", "--to", "wthor", "-o", back.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (a, b) = (std::fs::read(&wtb).unwrap(), std::fs::read(&back).unwrap());
    assert_eq!(a[16..], b[16..]);
    assert_eq!(a[10..12], b[10..12], "the year");
    // Its names files hold the records' names at the ids they keep: read back, the same games.
    assert!(dir.join("back.JOU").exists() && dir.join("back.TRN").exists());
    let (again, err, code) = convert(&[back.to_str().unwrap(), "--to", "pgn"], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(text(again), pgn);
    // To stdout, the names go to no file: said.
    let (out, err, code) = convert(&["--from", "pgn", "--to", "wthor"], pgn.as_bytes());
    assert_eq!((code, out.len()), (0, 16 + 50 * 68));
    assert!(err.contains("their names go to no file on stdout"), "{err}");
    // An id the records name two ways is stored as first named, and said.
    let renamed = pgn.replacen("[White \"Halvorsen Luke\"]", "[White \"Halvorsen L.\"]", 1);
    let mut renamed =
        renamed.splitn(2, "[Black \"Vecchi Elisabetta\"]").collect::<Vec<_>>().join("[Black \"Vecchi E.\"]");
    renamed.push('\n');
    let (_, err, code) = convert(&["--from", "pgn", "--to", "wthor", "-o", back.to_str().unwrap()], renamed.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("the player of WTHOR id 95 is named both `Vecchi E.` and `Vecchi Elisabetta`"), "{err}");
}

#[test]
fn wthor_holds_places_whatever_the_row_numbering() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    let (top, _, code) = convert(&[wtb, "--to", "transcript", "-q"], b"");
    assert_eq!(code, 0);
    // Read with ranks counted from the bottom: the same games, their squares named from below.
    let (bottom, _, code) = convert(&[wtb, "--to", "transcript", "-q", "--rules", "othello,rows=bottom"], b"");
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&bottom));
    let flip = |line: &str| -> String {
        line.as_bytes().chunks(2).map(|m| format!("{}{}", m[0] as char, (b'9' - m[1] + b'0') as char)).collect()
    };
    let (top, bottom) = (text(top), text(bottom));
    assert_eq!(top.lines().map(flip).collect::<Vec<_>>(), bottom.lines().collect::<Vec<_>>());
    // And back to WTHOR: the same places, byte for byte.
    let dir = tempdir();
    let back = dir.join("bottom.wtb");
    let args =
        ["--from", "transcript", "--rules", "othello,rows=bottom", "--to", "wthor", "-o", back.to_str().unwrap()];
    let (_, err, code) = convert(&args, bottom.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (again, _, _) = convert(&[back.to_str().unwrap(), "--to", "transcript", "-q"], b"");
    assert_eq!(text(again), top);
}

#[test]
fn wthor_from_names_writes_name_files() {
    let dir = tempdir();
    let out = dir.join("club.wtb");
    let pgn = "[Event \"Club night\"]\n[Date \"2026.11.20\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 d6 2. c3 d3\n\n\
               [Event \"Club night\"]\n[Black \"Bob\"]\n[White \"Cid\"]\n\n1. f5 f6\n";
    let (_, err, code) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("club.JOU").exists() && dir.join("club.TRN").exists());
    // club.JOU and club.TRN beside club.wtb are found without being named.
    let (back, err, code) = convert(&[out.to_str().unwrap(), "--to", "json"], b"");
    assert_eq!(code, 0, "{err}");
    let back = text(back);
    let first: serde_json::Value = serde_json::from_str(back.lines().next().unwrap()).unwrap();
    assert_eq!(first["tags"]["black"], "Ann");
    assert_eq!(first["tags"]["event"], "Club night");
    assert_eq!(first["tags"]["date"], "2026");
    let second: serde_json::Value = serde_json::from_str(back.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["tags"]["white"], "Cid");
    // Id 0 is WTHOR's unknown, `???` in the names files; the names start at 1.
    let jou = std::fs::read(dir.join("club.JOU")).unwrap();
    assert_eq!(&jou[16..19], b"???");
    assert_eq!(&jou[16 + 20..16 + 23], b"Ann");
    assert_eq!(&std::fs::read(&out).unwrap()[16..22], [1, 0, 1, 0, 2, 0], "tournament 1, Ann 1, Bob 2");
    // Compressed, as club.wtb.gz, it still has club.JOU and club.TRN as its names.
    let gz = dir.join("club.wtb.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut enc, &std::fs::read(&out).unwrap()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let (unzipped, err, code) = convert(&[gz.to_str().unwrap(), "--to", "json"], b"");
    assert_eq!((code, text(unzipped)), (0, back.clone()), "{err}");
    assert!(!err.contains("warning"), "{err}");
    // Without its name files, the ids are kept and a warning says why the names are missing.
    std::fs::remove_file(dir.join("club.TRN")).unwrap();
    let (_, err, code) = convert(&[out.to_str().unwrap(), "--to", "json"], b"");
    assert_eq!(code, 0);
    assert!(
        err.contains("no name files beside it (club.TRN or WTHOR.TRN): tournaments are kept as WTHOR numbers"),
        "{err}"
    );
    // From stdin the database is beside nothing: the current folder's name files are another
    // base's, never read.
    let piped = kifu()
        .current_dir(&dir)
        .args(["convert", "-", "--to", "json"])
        .write_stdin(std::fs::read(&out).unwrap())
        .output()
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(text(piped.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["tags"]["wthor_black"], "1");
    assert!(first["tags"].get("black").is_none(), "{first}");
    assert!(String::from_utf8_lossy(&piped.stderr).contains("a WTHOR database read from stdin has no name files"));
    // Names without a file to go to are an error, not a silent loss.
    let (written, err, code) = convert(&["--to", "wthor"], pgn.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("-o") && written.is_empty(), "nothing written to stdout: {err}");
}

/// A federation adds a tournament's games to its WTHOR base: players and tournaments keep the
/// base's numbers, new ones go at the end of its names files, whose names all stay where they
/// were; the base's names files are never replaced by a file of the new names alone.
#[test]
fn wthor_games_join_a_base_and_never_replace_its_names() {
    let Some(wthor) = shared("wthor") else { return };
    let dir = tempdir();
    for file in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(wthor.join(file), dir.join(file)).unwrap();
    }
    // A read-only base is refused (the shared data may be read-only, and copies keep that).
    let read_only = std::fs::metadata(dir.join("WTHOR.JOU")).unwrap().permissions().readonly();
    if read_only {
        let out = dir.join("WTH_2024.wtb");
        let args = ["--to", "wthor", "-o", out.to_str().unwrap(), "--base", dir.to_str().unwrap()];
        let (_, err, code) = convert(&args, b"[Black \"New Player\"]\n\n1. f5 *\n");
        assert!(code == 2 && err.contains("read-only"), "{err}");
    }
    for file in ["WTHOR.JOU", "WTHOR.TRN"] {
        let mut permissions = std::fs::metadata(dir.join(file)).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        std::fs::set_permissions(dir.join(file), permissions).unwrap();
    }
    let old_jou = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    let old_trn = std::fs::read(dir.join("WTHOR.TRN")).unwrap();
    // Tastet Marc is player 1 of the base; the others are new (one typed with combining accents).
    let pgn = "[Event \"Coupe de Paris\"]\n[Date \"2024.05.01\"]\n[Black \"Tastet Marc\"]\n[White \"Ann Example\"]\n\n\
               1. f5 d6 *\n\n[Event \"Coupe de Paris\"]\n[Date \"2024.05.01\"]\n[Black \"Ann Example\"]\n\
               [White \"Fre\u{301}de\u{301}ric Exemple\"]\n\n1. f5 f6 *\n";
    let refused = dir.join("WTHOR.wtb");
    let (_, err, code) = convert(&["--to", "wthor", "-o", refused.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("would write names files beside") && err.contains("--base"), "{err}");
    assert!(!refused.exists());
    // In any case: the base's files are found whatever the case of their names or the output's.
    let refused = dir.join("wthor.wtb");
    let (_, err, code) = convert(&["--to", "wthor", "-o", refused.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 2, "{err}");
    assert!(!refused.exists() && !dir.join("wthor.JOU").exists());
    let out = dir.join("WTH_2024.wtb");
    let args = ["--to", "wthor", "-o", out.to_str().unwrap(), "--base", dir.to_str().unwrap()];
    let (_, err, code) = convert(&args, pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("stored as"), "composed accents lose nothing: {err}");
    assert!(err.contains("warning: 2 games are not over and state no result"), "{err}");
    let jou = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    let (players, width) = ((old_jou.len() - 16) / 20, 20);
    assert_eq!(jou.len(), old_jou.len() + 2 * width, "two new players");
    assert_eq!(&jou[16..old_jou.len()], &old_jou[16..], "every name where it was");
    assert_eq!(u16::from_le_bytes([jou[8], jou[9]]) as usize, players + 2, "the header counts them");
    assert_eq!(&jou[old_jou.len()..old_jou.len() + 11], b"Ann Example");
    assert_eq!(&jou[old_jou.len() + 20..old_jou.len() + 37], b"Fr\xe9d\xe9ric Exemple\0", "Latin-1");
    let trn = std::fs::read(dir.join("WTHOR.TRN")).unwrap();
    assert_eq!(trn.len(), old_trn.len() + 26);
    let games = std::fs::read(&out).unwrap();
    let id = |at: usize| u16::from_le_bytes([games[at], games[at + 1]]) as usize;
    let tournaments = (old_trn.len() - 16) / 26;
    assert_eq!([id(16), id(18), id(20)], [tournaments, 1, players], "Tastet Marc keeps 1");
    assert_eq!([id(84 + 2), id(84 + 4)], [players, players + 1]);
    // Read back beside the base, with its names.
    let (back, err, code) = convert(&[out.to_str().unwrap(), "--to", "pgn"], b"");
    assert_eq!(code, 0, "{err}");
    let back = text(back);
    assert!(back.contains("[Black \"Tastet Marc\"]") && back.contains("[White \"Frédéric Exemple\"]"), "{back}");
    // The same games again add nothing, however their names are spaced.
    let (_, err, code) = convert(&args, pgn.replace("Tastet Marc", "Tastet  Marc ").as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(dir.join("WTHOR.JOU")).unwrap().len(), jou.len());
    // A new name that is a base's name in another order is said.
    let (_, err, _) = convert(&args, pgn.replace("Tastet Marc", "Marc Tastet").as_bytes());
    assert!(err.contains("the player `Marc Tastet` is new to the base, which has `Tastet Marc` (#1)"), "{err}");
    // Another case is the same name: the base's, with its number.
    let jou = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    let (_, err, code) = convert(&args, pgn.replace("Tastet Marc", "TASTET marc").as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "the player `TASTET marc` is stored as `Tastet Marc` (#1 of the base), the same name in another case"
        ),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("WTHOR.JOU")).unwrap(), jou, "no new player");
    let games = std::fs::read(&out).unwrap();
    assert_eq!(u16::from_le_bytes([games[18], games[19]]), 1, "Tastet Marc's number");
    // Once a variant is in the base too (`Marc Tastet`, added above), a new one names both,
    // the oldest first.
    let (_, err, _) = convert(&args, pgn.replace("Tastet Marc", "Tastet, Marc").as_bytes());
    assert!(
        err.contains(&format!(
            "the player `Tastet, Marc` is new to the base, which has `Tastet Marc` (#1), `Marc Tastet` (#{}): one player",
            players + 2
        )),
        "{err}"
    );
    // A tournament named with its year, which WTHOR's names leave out.
    let (_, err, _) = convert(&args, b"[Event \"Championnat de France 2024\"]\n\n1. f5 *\n");
    assert!(
        err.contains(
            "the tournament `Championnat de France 202` is new to the base, which has `Championnat de France` (#2): \
             the same tournament with its year?"
        ),
        "{err}"
    );
}

/// Names a WTHOR names file cannot hold as written are reported, and so are two that become one.
#[test]
fn wthor_names_cut_or_merged_are_reported() {
    let dir = tempdir();
    let out = dir.join("cut.wtb");
    let pgn = "[Black \"Jean-Christophe Dupont-Aignan\"]\n[White \"Jean-Christophe Dupont-Moretti\"]\n\n1. f5 *\n\n\
               [Event \"Coupe de l\u{2019}Europe\"]\n\n1. f5 *\n[Event \"Puchar \u{141}odzi\"]\n\n1. f5 *\n";
    let (_, err, code) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "the players `Jean-Christophe Dupont-Aignan`, `Jean-Christophe Dupont-Moretti` are all stored as \
             `Jean-Christophe Dup` (a WTHOR names file keeps 19 bytes): one player in the file"
        ),
        "{err}"
    );
    // Windows-1252 has the typographic apostrophe; Latin-1 alone, not Polish letters.
    assert!(!err.contains("Europe`"), "{err}");
    assert!(
        err.contains(
            "the tournament `Puchar \u{141}odzi` is stored as `Puchar Lodzi` (a WTHOR names file holds Western \
             European letters only, as Windows-1252 has them)"
        ),
        "{err}"
    );
    // A name of 19 characters and one cut to it are one player too.
    let pgn2 = "[Black \"Abcdefghij Klmnopqr\"]\n[White \"Abcdefghij Klmnopqrs\"]\n\n1. f5 *\n";
    let (_, err, code) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], pgn2.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("`Abcdefghij Klmnopqr`, `Abcdefghij Klmnopqrs` are all stored as"), "{err}");
    // A name Latin-1 has nothing of is WTHOR's unknown player, and says so.
    let pgn3 = "[Black \"山田太\"]\n[White \"Ann\"]\n\n1. f5 *\n";
    let gz = dir.join("kanji.wtb.gz");
    let (_, err, code) = convert(&["--to", "wthor", "-o", gz.to_str().unwrap()], pgn3.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("the player `山田太` is stored as `???`, WTHOR's unknown player: no one in the file"),
        "{err}"
    );
    // Whatever its length: two such names are not one made-up player `????`.
    let pgn4 = "[Black \"山田太郎\"]\n[White \"佐藤 花子\"]\n\n1. f5 *\n";
    let (wtb, err, code) = convert(&["--to", "wthor"], pgn4.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(&wtb[16..22], &[0; 6], "{err}");
    assert!(err.contains("the player `山田太郎` is stored as `???`, WTHOR's unknown player"), "{err}");
    assert!(err.contains("the player `佐藤 花子` is stored as `???`"), "{err}");
    let pgn5 = "[Black \"山田 太郎\"]\n[White \"佐藤 花子\"]\n\n1. f5 *\n";
    let (_, err, _) = convert(&["--to", "wthor"], pgn5.as_bytes());
    assert!(err.contains("the players `山田 太郎`, `佐藤 花子` are stored as `???`, WTHOR's unknown player"), "{err}");
    // Written as FILE.wtb.gz, the names go to FILE.JOU, where reading looks for them.
    assert!(dir.join("kanji.JOU").exists() && dir.join("kanji.TRN").exists());
    let (back, err, code) = convert(&[gz.to_str().unwrap(), "--to", "pgn"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(text(back).contains("[White \"Ann\"]"), "{err}");
    // Games that name no one need no names files, and go to stdout.
    let (written, err, code) = convert(&["--to", "wthor"], b"f5d6c3\n");
    assert_eq!((code, written.len()), (0, 16 + 68), "{err}");
}

#[test]
fn a_broken_record_is_reported_and_the_rest_convert() {
    let input = "f5d6c3d3c4\nf5d6c3x3c4\nf5d6c3d3a1\nf5f6e6f4\n";
    let (out, err, code) = convert(&["--to", "transcript"], input.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(text(out), "f5d6c3d3c4\nf5f6e6f4\n");
    assert!(err.contains("-:2:7: record 2: `x3` is not a move"), "{err}");
    assert!(err.contains("2 | f5d6c3x3c4\n  |       ^^\n"), "{err}");
    assert!(err.contains("-:3:9: record 3: move 5, a1, is illegal: the move flips no disc"), "{err}");
    assert!(err.contains("2 records converted to transcript, 2 with errors"), "{err}");
}

#[test]
fn gzip_and_stdin_and_atomic_output() {
    use std::io::Write;
    let dir = tempdir();
    let gz = dir.join("games.txt.gz");
    let mut enc = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
    enc.write_all(b"f5d6c3d3c4\nf5f6e6f4\n").unwrap();
    enc.finish().unwrap();
    let out = dir.join("games.ggf");
    kifu().args(["convert", gz.to_str().unwrap(), "--to", "ggf", "-o", out.to_str().unwrap()]).assert().success();
    let ggf = std::fs::read_to_string(&out).unwrap();
    assert_eq!(ggf.lines().count(), 2);
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    kifu()
        .args(["convert", "--to", "transcript", "-q", "-"])
        .write_stdin(ggf)
        .assert()
        .success()
        .stdout("f5d6c3d3c4\nf5f6e6f4\n");
}

#[test]
fn positions_convert_to_boards_and_back() {
    let (out, err, code) = convert(&["--to", "board", "-q"], b"f5d6c3d3c4\n");
    assert_eq!(code, 0, "{err}");
    let board = text(out);
    assert_eq!(board.trim().len(), 66, "{board}");
    assert!(board.trim().ends_with(" O"), "white to move after five moves: {board}");
    let (out, _, code) = convert(&["--to", "obf", "-q"], board.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(text(out).trim(), format!("{};", board.trim()));
    let (out, _, _) = convert(&["--to", "kifu", "-q"], b"f5d6c3\n");
    let grid = text(out);
    assert!(grid.contains(" 3 ") && grid.contains(" X "), "{grid}");
}

#[test]
fn unknown_format_is_a_usage_error() {
    kifu().args(["convert", "--to", "xyz"]).assert().code(2).stderr(predicate::str::contains("unknown format"));
    kifu()
        .args(["convert", "missing-file.txt", "--to", "ggf"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing-file.txt"));
}

#[test]
fn whole_wthor_2004_converts_and_comes_back() {
    let Some(wtb) = shared("wthor/WTH_2004.wtb") else { return };
    let (out, err, code) = convert(&[wtb.to_str().unwrap(), "--to", "transcript"], b"");
    assert_eq!(code, 0, "{err}");
    let transcripts = text(out);
    assert_eq!(transcripts.lines().count(), 9113);
    let dir = tempdir();
    let back = dir.join("back.wtb");
    let (_, err, code) = convert(&["--to", "wthor", "-o", back.to_str().unwrap()], transcripts.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (a, b) = (std::fs::read(&wtb).unwrap(), std::fs::read(&back).unwrap());
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a[16..].chunks(68).zip(b[16..].chunks(68)).enumerate() {
        assert_eq!(x[8..], y[8..], "game {}: moves", i + 1);
        assert_eq!(x[6], y[6], "game {}: black's discs", i + 1);
    }
}

#[test]
fn whole_logbook_converts_without_error() {
    let Some(gz) = shared("logistello/logbook.gam.gz") else { return };
    let (out, err, code) = convert(&[gz.to_str().unwrap(), "--to", "logbook"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("121123 records converted"), "{err}");
    let mut original = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::fs::File::open(&gz).unwrap()), &mut original)
        .unwrap();
    assert!(text(out) == original, "the logbook writes back byte for byte");
}

#[test]
fn every_shared_ggf_and_wthor_file_converts() {
    for path in [
        "ggf/TestGames.ggf",
        "ggf/test.ggf",
        "ggf/test2.ggf",
        "ggf/test.WTB",
        "wthor/WTH_1977.wtb",
        "wthor/WTH_2015.wtb",
        "wthor/WTH_2021.wtb",
    ] {
        let Some(p) = shared(path) else { return };
        let (_, err, code) = convert(&[p.to_str().unwrap(), "--to", "json"], b"");
        assert_eq!(code, 0, "{path}: {err}");
    }
}

#[test]
fn records_a_format_cannot_hold_are_refused_not_changed() {
    // A random-start game: transcripts and WTHOR have no place for its start position.
    let ggf = "(;GM[Othello]TY[8r12]BO[8 -------- ---*---- --OOOO-- -*OOO*-- -O**OO-- --OO**-- ----*--- -------- *]B[B3];)\n\
               (;GM[Othello]TY[8]B[f5]W[d6];)\n";
    for to in ["transcript", "wthor", "logbook"] {
        let dir = tempdir();
        let out = dir.join("o.wtb");
        let (_, err, code) = convert(&["--to", to, "-o", out.to_str().unwrap()], ggf.as_bytes());
        assert_eq!(code, 1, "{to}: {err}");
        assert!(err.contains("cannot hold a start position"), "{to}: {err}");
        assert!(err.contains("1 record converted"), "{to}: {err}");
    }
    // A 6x6 game is not WTHOR's to hold either.
    let (_, err, code) =
        convert(&["--to", "wthor", "-o", tempdir().join("x.wtb").to_str().unwrap()], b"(;GM[Othello]TY[6]B[c2];)\n");
    assert_eq!(code, 1);
    assert!(err.contains("standard 8x8 Othello only"), "{err}");
    // A result WTHOR cannot store is reported; the other game is still written.
    let sgf = "(;FF[4]GM[2]SZ[8]RE[Void];B[fe])\n(;FF[4]GM[2]SZ[8];B[fe];W[df])\n";
    let (_, err, code) = convert(&["--to", "wthor", "-o", tempdir().join("y.wtb").to_str().unwrap()], sgf.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("1 record converted"), "{err}");
    // A win by resignation is the whole board to the winner there, never the board as it stands.
    let dir = tempdir();
    let wtb = dir.join("r.wtb");
    let pgn = "[Result \"1-0\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 4. c5 b3 5. c2 1-0\n";
    let (_, err, code) = convert(&["--to", "wthor", "-o", wtb.to_str().unwrap()], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (out, err, code) = convert(&[wtb.to_str().unwrap(), "--to", "pgn"], b"");
    assert_eq!(code, 0, "{err}");
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("[Result \"64-0\"]"), "{out}");
}

#[test]
fn a_transcript_keeps_the_result_of_a_game_given_up() {
    // Resigned: the result goes after the moves in SGF's form, and validate reads it as ok.
    let pgn = "[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 1-0\n\n\
               [Result \"0-1\"]\n\n1. f5 d6 0-1\n\n[Result \"1/2-1/2\"]\n\n1. f5 d6 1/2-1/2\n";
    let (out, err, code) = convert(&["--to", "transcript"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(text(out.clone()), "f5d6c3d3c4f4: B+R\nf5d6: W+\nf5d6: 0\n");
    let validated = kifu().args(["validate", "--format", "csv"]).write_stdin(out).output().unwrap();
    let rows = text(validated.stdout);
    assert!(rows.lines().nth(1).unwrap().contains(",ok,"), "{rows}");
    assert!(rows.lines().nth(2).unwrap().contains(",unfinished,"), "{rows}");
    // A finished game's result is its board's: the moves alone, as before.
    let (out, _, code) = convert(&["--to", "transcript"], &std::fs::read(data("logbook-200.gam")).unwrap());
    assert_eq!(code, 0);
    assert!(text(out).lines().all(|l| !l.contains(':')));
}

#[test]
fn colours_written_in_a_record_are_checked() {
    let (_, err, code) = convert(&["--from", "logbook", "--to", "transcript"], b"-f4+f5\n+f5+d6\n+f5-d6\n");
    assert_eq!(code, 1);
    assert!(
        err.contains("record 1: move 1, f4, is illegal: the record gives the move to white, but black is to move"),
        "{err}"
    );
    assert!(err.contains("record 2: move 2, d6, is illegal: the record gives the move to black"), "{err}");
    assert!(err.contains("1 record converted"), "{err}");
}

#[test]
fn a_small_board_reads_back_without_rules() {
    let (grid, err, code) =
        convert(&["--rules", "othello,size=4", "--to", "kifu", "-q"], b"a2a1c4d2d1d4d3a3b1c1b4a4\n");
    assert_eq!(code, 0, "{err}");
    let (back, err, code) = convert(&["--from", "kifu", "--to", "ggf", "-q"], &grid);
    assert_eq!(code, 0, "{err}");
    assert!(text(back).contains("TY[4]"));
}

/// A fresh folder under the target directory.
fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "convert-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A voluntary pass (the player had a move) cannot be inferred by a replay: a transcript keeps
/// it (`PA`), a kifu grid lists it under the grid, and formats that cannot write it refuse the
/// game instead of changing it.
#[test]
fn voluntary_passes_are_kept_or_refused() {
    let game = r#"{"tags":{"rules":"othello,size=6,pass=voluntary","result":"+36"},"moves":[{"move":"e4"},{"move":"pass"},{"move":"b3"}]}"#;
    let (out, err, code) = convert(&["-", "--from", "json", "--to", "transcript", "-q"], game.as_bytes());
    assert_eq!((text(out), code), ("e4PAb3\n".to_owned(), 0), "{err}");
    // The logbook's colour signs show the pass, and its score is the board's plain difference.
    let (out, err, code) = convert(&["-", "--from", "json", "--to", "logbook", "-q"], game.as_bytes());
    assert_eq!((text(out.clone()), code), ("+e4+b3: +06\n".to_owned(), 0), "{err}");
    let (back, err, code) =
        convert(&["-", "--from", "logbook", "--rules", "othello,size=6,pass=voluntary", "--to", "json", "-q"], &out);
    assert_eq!(code, 0, "{err}");
    assert!(text(back).contains(r#"{"move":"pass","color":"white"}"#));
    // A kifu grid writes them in a line under it, and reads them back.
    let (out, err, code) = convert(&["-", "--from", "json", "--to", "kifu", "-q"], game.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(text(out.clone()).contains("\npass: white after 1\n"), "{}", text(out.clone()));
    let (back, err, code) = convert(&["-", "--from", "kifu", "--to", "transcript", "-q"], &out);
    assert_eq!((text(back), code), ("e4PAb3\n".to_owned(), 0), "{err}");
    // Two passes that end the game with moves left: no later move shows them in the logbook.
    let (out, err, code) = convert(&["--rules", "othello,pass=voluntary", "--to", "logbook", "-q"], b"f5 d6 PA PA\n");
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains("logbook cannot write this game's voluntary passes"), "{err}");
    // Forced passes (the sample's first game has one) are still left to the replay.
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/wthor-2004.pgn");
    let (out, _, code) = convert(&[sample.to_str().unwrap(), "--to", "transcript", "-q"], b"");
    assert_eq!(code, 0);
    assert!(!text(out).contains("PA"));
}

/// An 8-stars game (10x10, three cells cut from each corner) that kifu played itself: under
/// Grand Othello's rules (10x10, no cut cells) it turns illegal at move 83, on h10.
const EIGHT_STARS: &str = "e4d6f7f4g4h3d5e3e2d4g3g6g7e1c4d7g5h6c8d3i2b4d2c5i7d8c7h8c3i6e9h5c6i8f3b9a4f2f1b7c9d9j6h4h2h1g1f9a7b5j8g2f10h7b6g8i9b8i3a6a8c2e7e8b2j3c10a5i4e10d10j4a3b3g10j7c1d1g9f8i5j5h10h9";

#[test]
fn formats_without_the_rules_warn_and_kifu_grids_keep_them() {
    let (json, err, code) = convert(&["--rules", "8stars", "--to", "json"], EIGHT_STARS.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "rules given with --rules are known: {err}");
    for (format, keeps) in
        [("transcript", false), ("ggf", false), ("obf", false), ("kifu", true), ("sgf", true), ("pgn", true)]
    {
        let (written, err, code) = convert(&["--to", format], &json);
        assert_eq!(code, 0, "{format}: {err}");
        let warned = err.contains("warning: 1 record of other rules than") && err.contains("--rules 8stars");
        assert_eq!(warned, !keeps, "{format}: {err}");
        if format != "obf" {
            // Read back without --rules: the game replays only where the rules were kept.
            let out = kifu().args(["validate", "-q", "-"]).write_stdin(written).output().unwrap();
            assert_eq!(out.status.code(), Some(if keeps { 0 } else { 1 }), "{format}");
        }
    }
    let (grid, _, _) = convert(&["--to", "kifu"], &json);
    let grid = text(grid);
    assert!(grid.ends_with("\nrules 8stars\n"));
    // The cut cells are drawn as such: two at each corner of ranks 1 and 10, one of 2 and 9.
    let ranks = grid.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()));
    let cut: Vec<usize> = ranks.map(|l| l.split_whitespace().filter(|w| *w == "#").count()).collect();
    assert_eq!(cut, [4, 2, 0, 0, 0, 0, 0, 0, 2, 4], "{grid}");
    // BrainKing's empty start is more than GGF's empty board (the first moves fill the centre):
    // the GGF reads back only with --rules brainking, and convert says so.
    let (json, _, _) = convert(&["--rules", "brainking", "--to", "json"], b"d4e5e4d5d6\n");
    let (ggf, err, code) = convert(&["--to", "ggf"], &json);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning: 1 record of other rules than ggf") && err.contains("--rules brainking"), "{err}");
    let out = kifu().args(["validate", "-q", "--rules", "brainking", "-"]).write_stdin(ggf).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "unfinished, but legal: {}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("unfinished"));
}

/// A stated result the board contradicts (`0-1` or `40-24` for a game black wins 41-23) is
/// written back as stated, and reported at its place (exit 1, as validate would); `--results
/// board` writes the board's instead. One the board agrees with gains the counts.
#[test]
fn a_contradicted_result_is_reported_and_kept_unless_asked() {
    let game = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
    for (stated, written, fixed) in
        [("0-1", "0-1", true), ("1/2-1/2", "1/2-1/2", true), ("40-24", "40-24", true), ("1-0", "41-23", false)]
    {
        let pgn = format!("[Event \"x\"]\n[Result \"{stated}\"]\n\n{game} {stated}\n");
        let (out, err, code) = convert(&["--from", "pgn", "--to", "pgn"], pgn.as_bytes());
        assert_eq!(code, i32::from(fixed), "{stated}: {err}");
        assert!(text(out).contains(&format!("[Result \"{written}\"]")), "{stated}");
        if fixed {
            assert!(err.contains("-:4:"), "{err}");
            assert!(err.contains("record 1: result_mismatch"), "{err}");
            assert!(err.contains("1 record stating a result the board does not give (written as stated"), "{err}");
        }
        let (out, err, code) = convert(&["--from", "pgn", "--to", "pgn", "--results", "board"], pgn.as_bytes());
        assert_eq!(code, 0, "{err}");
        assert!(text(out).contains("[Result \"41-23\"]"), "{stated}");
        assert_eq!(err.contains("1 record written with the board's result"), fixed, "{err}");
    }
    // The logbook keeps a wrong stated margin too (a right one becomes its plain difference).
    let logbook = format!(
        "{}: +12 10\n",
        "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+f8-b4+a4-a6+e8-g8+b1-h7+e2-a5+a7-f1+a3-a1+h3-h2+a2-a8+g3-g2+b8-b7+h8-g7+h1+g1"
    );
    let (out, err, code) = convert(&["--from", "logbook", "--to", "logbook"], logbook.as_bytes());
    assert_eq!((code, text(out)), (1, logbook.clone()), "{err}");
    let (out, err, code) = convert(&["--from", "logbook", "--to", "logbook", "--results", "board"], logbook.as_bytes());
    assert_eq!((code, text(out)), (0, logbook.replace("+12", "+02")), "{err}");
    // WTHOR stores the board's count of black discs.
    let pgn = format!("[Result \"40-24\"]\n\n{game} 40-24\n");
    let (wtb, _, code) = convert(&["--from", "pgn", "--to", "wthor", "--results", "board"], pgn.as_bytes());
    assert_eq!((code, wtb[16 + 6]), (0, 41));
}

/// `--empties N` cuts each game at its first position with N empty squares and `--ply K` after
/// K plies; games that end before are left out and counted; the cut records carry no result
/// (it was the whole game's), so they validate as unfinished games, not wrong results.
#[test]
fn games_cut_at_a_ply_or_a_count_of_empties() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (obf, err, code) = convert(&[wtb.to_str().unwrap(), "--to", "obf", "--empties", "20"], b"");
    assert_eq!(code, 0, "{err}");
    let obf = text(obf);
    let (moves, _, _) = convert(&[wtb.to_str().unwrap(), "--to", "transcript", "-q"], b"");
    let moves = text(moves);
    // Every game placing 40 discs reaches 20 empty squares.
    let reaching = moves.lines().filter(|l| l.len() / 2 >= 40).count();
    assert_eq!(obf.lines().count(), reaching);
    assert!(obf.lines().all(|l| l[..64].matches('-').count() == 20), "{obf}");
    let left_out = 50 - reaching;
    if left_out > 0 {
        assert!(err.contains(&format!("{left_out} game")) && err.contains("never at 20 empty squares"), "{err}");
    }
    // The first of them is the game's position after 40 discs placed (no pass before it).
    let first = moves.lines().find(|l| l.len() / 2 >= 40).unwrap();
    let (board, _, _) = convert(&["--from", "transcript", "--to", "board", "-q"], &first.as_bytes()[..80]);
    assert_eq!(obf.lines().next().unwrap().trim_end_matches(';'), text(board).trim_end());
    // --ply: prefixes of the games; a game that is shorter is left out.
    let (cut, err, _) = convert(&[wtb.to_str().unwrap(), "--to", "transcript", "--ply", "59"], b"");
    let cut = text(cut);
    // (A cut just after a pass ends with it: `PA`.)
    assert!(cut.lines().all(|l| moves.lines().any(|m| m.starts_with(l.trim_end_matches("PA")))), "{cut}");
    assert!(err.contains("shorter than 59 plies") || cut.lines().count() == 50, "{err}");
    // No result on a cut game: it validates as unfinished.
    let (pgn, _, _) = convert(&[wtb.to_str().unwrap(), "--to", "pgn", "--ply", "10", "-q"], b"");
    let out = kifu().args(["validate", "--from", "pgn", "-"]).write_stdin(pgn).output().unwrap();
    let summary = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(summary.contains("50 games: 0 ok, 0 illegal, 50 unfinished, 0 result mismatches"), "{summary}");
    // A cut just after a pass keeps the pass in a transcript: the side to move reads back.
    // (The sample's first game: white passes once near the end.)
    let passing = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
    let (full, _, _) = convert(&["--to", "transcript", "-q"], passing.as_bytes());
    for ply in 1..=text(full).trim().len() / 2 + 2 {
        let k = ply.to_string();
        let (direct, _, _) = convert(&["--to", "board", "--ply", &k, "-q"], passing.as_bytes());
        let (moves, _, _) = convert(&["--to", "transcript", "--ply", &k, "-q"], passing.as_bytes());
        let (back, _, _) = convert(&["--from", "transcript", "--to", "board", "-q"], &moves);
        assert_eq!(text(back), text(direct), "ply {ply}");
    }
    // --ply 0 is the start; --ply and --empties together are refused.
    let (start, _, _) = convert(&["--to", "board", "--ply", "0", "-q"], b"f5d6c3\n");
    assert!(text(start).starts_with("---------------------------OX------XO---"));
    let (_, _, code) = convert(&["--to", "board", "--ply", "1", "--empties", "3"], b"f5d6c3\n");
    assert_eq!(code, 2);
}

/// A game cut just after a pass keeps it in a kifu grid (its passes line): the side to move
/// reads back as the one after the pass.
#[test]
fn a_kifu_grid_keeps_a_pass_it_ends_with() {
    let pgn = data("../../samples/wthor-2004.pgn");
    let (board, err, code) = convert(&[pgn.to_str().unwrap(), "--games", "1", "--ply", "56", "--to", "board"], b"");
    assert_eq!(code, 0, "{err}");
    let (grid, err, code) = convert(&[pgn.to_str().unwrap(), "--games", "1", "--ply", "56", "--to", "kifu"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(text(grid.clone()).contains("pass: white after 55"), "{}", text(grid));
    let (back, err, code) = convert(&["--from", "kifu", "--to", "board"], &grid);
    assert_eq!(code, 0, "{err}");
    assert_eq!(text(back), text(board));
}

/// The WTHOR header's year and depth: `--wthor-year`/`--wthor-depth`, else the games' year (or
/// the output's name) and the WTHOR input's depth, with a warning where they cannot be trusted.
#[test]
fn wthor_header_year_and_depth() {
    let dir = tempdir();
    let header = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        (u16::from_le_bytes([bytes[10], bytes[11]]), bytes[14])
    };
    let out = dir.join("WTH_2024.wtb");
    let (_, err, code) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], b"f5d6c3\n");
    assert_eq!((code, header(&out)), (0, (2024, 0)), "{err}");
    let out = dir.join("club.wtb");
    let (_, err, _) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], b"f5d6c3\n");
    assert!(err.contains("no game says its year"), "{err}");
    let (_, err, code) = convert(
        &["--to", "wthor", "--wthor-year", "2023", "--wthor-depth", "0", "-o", out.to_str().unwrap()],
        b"f5d6c3\n",
    );
    assert_eq!((code, header(&out)), (0, (2023, 0)), "{err}");
    assert!(err.lines().filter(|l| l.contains("warning")).all(|l| l.contains("1 game is not over")), "{err}");
    let (_, err, _) =
        convert(&["--to", "wthor", "--wthor-year", "1999", "-o", out.to_str().unwrap()], b"[Date \"2004\"]\n\nf5 *\n");
    assert!(err.contains("the header says 1999 (--wthor-year), and the games are of 2004"), "{err}");
    // A depth given for games with no theoretical score is warned of.
    let (_, err, _) = convert(&["--to", "wthor", "--wthor-depth", "22", "-o", out.to_str().unwrap()], b"f5d6c3\n");
    assert!(err.contains("1 game has no theoretical score"), "{err}");
    let (_, err, code) = convert(&["--to", "wthor", "--wthor-depth", "22", "--theoretical", "20"], b"f5d6c3\n");
    assert_eq!(code, 2, "{err}");
    // A base's depth for games it did not score is warned of; scores of an unknown depth too.
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (_, err, code) =
        convert(&[wtb.to_str().unwrap(), "-", "--to", "wthor", "-o", out.to_str().unwrap()], b"f5d6c3\n");
    let depth = header(&wtb).1;
    assert_eq!((code, header(&out).1), (0, depth), "{err}");
    assert!(err.contains("1 game has no theoretical score"), "{err}");
    let pgn = "[Date \"2004\"]\n[Theoretical \"+4\"]\n\nf5d6c3 *\n";
    let (_, err, _) = convert(&["--to", "wthor", "-o", out.to_str().unwrap()], pgn.as_bytes());
    assert!(err.contains("1 game has a theoretical score from no WTHOR file"), "{err}");
    let (_, err, code) = convert(&["--to", "pgn", "--wthor-year", "2000"], b"f5\n");
    assert_eq!(code, 2, "{err}");
    // Another depth given for a base's scores relabels them: said, and the file is made today.
    let other = (depth + 2).to_string();
    let (_, err, code) =
        convert(&[wtb.to_str().unwrap(), "--games", "1-2", "--wthor-depth", &other, "-o", out.to_str().unwrap()], b"");
    assert_eq!((code, header(&out).1.to_string()), (0, other.clone()), "{err}");
    assert!(
        err.contains(&format!(
            "--wthor-depth {other}: 2 games have the theoretical score of a WTHOR input of depth {depth}"
        )),
        "{err}"
    );
    let created = |path: &Path| std::fs::read(path).unwrap()[0..4].to_vec();
    assert_ne!(created(&out), created(&wtb));
    let (_, err, _) = convert(&[wtb.to_str().unwrap(), "--games", "1-2", "-o", out.to_str().unwrap()], b"");
    assert!(!err.contains("--wthor-depth"), "{err}");
    assert_eq!(created(&out), created(&wtb), "a base written back keeps its date");
}

/// `--theoretical 24` solves each game from its position at 24 empty squares: on games of the
/// 2004 WTHOR base (depth 24) it gives the base's own theoretical scores; `--to wthor` stores
/// them with that depth in the header.
#[test]
fn theoretical_scores_are_solved_as_wthor_computes_them() {
    check_theoretical("1-3");
}

/// All 50 games of the sample (about a minute and a half on one core).
#[test]
#[ignore]
fn theoretical_scores_of_every_sample_game() {
    check_theoretical("1-50");
}

fn check_theoretical(games: &str) {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let tags = |args: &[&str]| {
        let (out, err, code) =
            convert(&[&[wtb.to_str().unwrap(), "--games", games, "--to", "pgn"], args].concat(), b"");
        assert_eq!(code, 0, "{err}");
        text(out).lines().filter(|l| l.starts_with("[Theoretical")).map(str::to_owned).collect::<Vec<_>>()
    };
    let stored = tags(&[]);
    assert!(!stored.is_empty());
    assert_eq!(tags(&["--theoretical", "24"]), stored);
    let (out, err, code) =
        convert(&[wtb.to_str().unwrap(), "--games", "1", "--to", "wthor", "--theoretical", "20"], b"");
    assert_eq!((code, out[14]), (0, 20), "{err}");
    // A game over before (a wipeout) gets its final margin.
    let (out, err, code) = convert(&["--to", "pgn", "--theoretical", "24"], b"e6f4e3f6g5d6e7f5c5\n");
    assert_eq!(code, 0, "{err}");
    assert!(text(out).contains("[Theoretical \"+64\"]"));
}

/// GGS's result flags: a resignation keeps its margin written back to GGF (`-40.00:r`), and
/// goes through PGN and SGF as a resignation with no second `Termination` property coming
/// back; an agreed score (`:s`) is a margin; an anti-reversi game's PGN result names its
/// winner, never disc counts that would read as the other one.
#[test]
fn ggs_result_flags_and_anti_results_survive_conversion() {
    let board = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6];)";
    let resigned = format!("(;GM[Othello]PB[a]PW[b]TY[8]RE[-40.00:r]{board}\n");
    let (out, err, _) = convert(&["--from", "ggf", "--to", "ggf", "-q"], resigned.as_bytes());
    assert!(text(out).contains("RE[-40.00:r]"), "{err}");
    let (pgn, _, _) = convert(&["--from", "ggf", "--to", "pgn", "-q"], resigned.as_bytes());
    let pgn = text(pgn);
    assert!(pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"resignation\"]"), "{pgn}");
    let (back, _, _) = convert(&["--from", "pgn", "--to", "ggf", "-q"], pgn.as_bytes());
    let back = text(back);
    assert!(back.contains("RE[-64.000:r]") && !back.contains("TERMINATION"), "{back}");
    let agreed = format!("(;GM[Othello]PB[a]PW[b]TY[8]RE[-12.000:s]{board}\n");
    let (pgn, _, _) = convert(&["--from", "ggf", "--to", "pgn", "-q"], agreed.as_bytes());
    assert!(text(pgn).contains("[Result \"26-38\"]"));
    // A finished anti-reversi game (the first 6x6 game kifu plays), its result edited to the
    // other winner: PGN keeps the stated winner.
    let play = kifu()
        .args(["play", "--rules", "anti,size=6", "-n", "1", "--depth", "1", "--to", "ggf", "-j", "1", "-q"])
        .output()
        .unwrap();
    let game = String::from_utf8(play.stdout).unwrap();
    let re = game.split("RE[").nth(1).and_then(|r| r.split(']').next()).unwrap().to_owned();
    let flipped =
        if let Some(m) = re.strip_prefix('-') { format!("+{m}") } else { format!("-{}", re.trim_start_matches('+')) };
    let edited = game.replace(&format!("RE[{re}]"), &format!("RE[{flipped}]"));
    let (pgn, _, _) = convert(&["--from", "ggf", "--to", "pgn", "-q"], edited.as_bytes());
    let want = if flipped.starts_with('+') { "[Result \"1-0\"]" } else { "[Result \"0-1\"]" };
    assert!(text(pgn).contains(want), "{re} -> {flipped}");
}

/// Without `--to`, `-o`'s name says the format; a name ending in `.gz` is written gzipped and
/// reads back.
#[test]
fn the_output_name_sets_the_format_and_gzip() {
    let dir = tempdir();
    let out = dir.join("games.pgn.gz");
    let (_, err, code) = convert(&[data("logbook-200.gam").to_str().unwrap(), "-o", out.to_str().unwrap(), "-q"], b"");
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[..2], [0x1f, 0x8b], "gzip's magic");
    let mut pgn = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut pgn).unwrap();
    assert!(pgn.starts_with("[Event "), "{pgn}");
    let (back, err, code) = convert(&[out.to_str().unwrap(), "--to", "logbook", "-q"], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(text(back).lines().count(), 200);
    // A name that says no format asks for --to.
    let (_, err, code) = convert(&["-o", dir.join("games.csv").to_str().unwrap()], b"f5d6\n");
    assert_eq!(code, 2);
    assert!(err.contains("its name does not say a format; give --to"), "{err}");
}

/// What WTHOR cannot hold (a round, a date's day) is left out with a warning; a WTHOR game
/// read back and written again has nothing to lose and gets none.
#[test]
fn what_a_format_cannot_hold_is_named_and_counted() {
    let pgn = "[Event \"E\"]\n[Round \"3\"]\n[Termination \"time forfeit\"]\n[Black \"A\"]\n[White \"B\"]\n\n\
               1. f5 {a comment} d6 0-1\n";
    let (_, err, code) = convert(&["-", "--to", "oq"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("oq has no place for some of what 1 record says, left out (records): "), "{err}");
    for lost in ["event (1)", "round (1)", "move comments (1)"] {
        assert!(err.contains(lost), "{lost}: {err}");
    }
    // A termination the result keeps (a transcript's `B+T` for a game lost on time) is no loss.
    let (_, err, _) = convert(&["-", "--to", "transcript"], pgn.as_bytes());
    assert!(err.contains("left out (records): ") && !err.contains("termination"), "{err}");
    // A kifu grid keeps them all but the move's comment; PGN keeps everything.
    let (_, err, _) = convert(&["-", "--to", "kifu"], pgn.as_bytes());
    assert!(err.contains("left out (records): move comments (1)\n"), "{err}");
    let (_, err, _) = convert(&["-", "--to", "pgn"], pgn.as_bytes());
    assert!(!err.contains("no place for"), "{err}");
    // WTHOR stores a win on time as 64-0, a disc count no one wrote: said.
    let (_, err, _) = convert(&["-", "--to", "wthor", "-o", "/dev/null"], pgn.as_bytes());
    assert!(err.contains("wins stated without a margin, stored as 64-0 or 0-64 (1)"), "{err}");
    // A win on time against a finished board's result (black 41-23 here): read back, the
    // board's result counts, which is said too.
    let full = "[Event \"E\"]\n[Termination \"time forfeit\"]\n[Result \"31-33\"]\n\n\
                f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7\
                d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1 31-33\n";
    let (_, err, code) = convert(&["-", "--to", "wthor", "-o", "/dev/null"], full.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wins on time or by forfeit against a finished board's result"), "{err}");
    assert!(!err.contains("stored as 64-0"), "{err}");
    let (_, err, _) = convert(&["-", "--to", "wthor", "-o", "/dev/null"], pgn.as_bytes());
    assert!(!err.contains("finished board"), "{err}");
}

/// A WTHOR file written back from itself is the same bytes, its header's creation date too.
#[test]
fn a_wthor_file_converted_to_wthor_is_the_same_bytes() {
    let dir = tempdir();
    let original = data("wthor/WTH_2004-50.wtb");
    let copy = dir.join("copy.wtb");
    let (_, err, code) = convert(&[original.to_str().unwrap(), "-o", copy.to_str().unwrap(), "-q"], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(copy).unwrap(), std::fs::read(original).unwrap());
}

/// What WTHOR cannot hold (a round, a date's day) is left out with a warning; a WTHOR game
/// read back and written again has nothing to lose and gets none.
#[test]
fn wthor_warns_of_what_it_cannot_hold() {
    let dir = tempdir();
    let out = dir.join("t.wtb");
    let pgn = "[Event \"E\"]\n[Date \"2024.05.11\"]\n[Round \"3\"]\n[Black \"A\"]\n[White \"B\"]\n\n1. f5 d6 *\n";
    let (_, err, _) = convert(&["-", "-o", out.to_str().unwrap()], pgn.as_bytes());
    assert!(
        err.contains("wthor has no place for some of what 1 record says (WTHOR keeps the players, the event, the year and the result), left out (records): round (1), the date's month and day (1)"),
        "{err}"
    );
    let (pgn, _, _) = convert(&[data("wthor/WTH_2004-50.wtb").to_str().unwrap(), "--to", "pgn", "-q"], b"");
    let (_, err, code) = convert(&["-", "--from", "pgn", "-o", dir.join("u.wtb").to_str().unwrap()], &pgn);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("no place for"), "{err}");
}

/// A run whose every record fails writes no file: an existing one stays as it was.
#[test]
fn a_run_that_converts_nothing_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "f5 d6 a1\n").unwrap();
    let out = dir.path().join("WTH_2024.wtb");
    kifu()
        .args(["convert", bad.to_str().unwrap(), "--to", "wthor", "-o", out.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("nothing is written"));
    assert!(!out.exists());
    std::fs::write(&out, "before").unwrap();
    kifu().args(["convert", bad.to_str().unwrap(), "--to", "pgn", "-o", out.to_str().unwrap()]).assert().code(1);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "before");
}

/// A format with no place for names says what it leaves out; a GGS date's time of day goes to
/// PGN's `Time` and back.
#[test]
fn names_left_out_are_warned_of_and_times_of_day_kept() {
    let pgn = "[Event \"Club\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 d6 *\n";
    let (out, err, code) = convert(&["--to", "transcript"], pgn.as_bytes());
    assert_eq!((text(out).trim(), code), ("f5d6", 0));
    assert!(err.contains("1 record names players, an event or a date, which transcript has no place for"), "{err}");
    let (_, err, _) = convert(&["--to", "transcript"], b"f5d6\n");
    assert!(!err.contains("warning"), "{err}");
    let ggf = "(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- \
               ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6];)\n";
    let (out, _, _) = convert(&["--to", "pgn"], ggf.as_bytes());
    let pgn = text(out);
    assert!(pgn.contains("[Date \"2003.12.15\"]") && pgn.contains("[Time \"12:33:18\"]"), "{pgn}");
    let (out, _, _) = convert(&["--to", "ggf"], pgn.as_bytes());
    assert!(text(out).contains("DT[2003.12.15_12:33:18]"));
}

#[test]
fn a_chinese_record_in_gbk_is_read_with_encoding_and_warned_of_without() {
    // 黑方：张三 / 白方：李四 / 结果：黑胜4子 in GBK, over a transcript.
    let gbk: &[u8] =
        b"\xba\xda\xb7\xbd\xa3\xba\xd5\xc5\xc8\xfd\n\xb0\xd7\xb7\xbd\xa3\xba\xc0\xee\xcb\xc4\nf5d6c3d3c4\n";
    let (out, err, code) = convert(&["--encoding", "gbk", "--to", "pgn"], gbk);
    assert_eq!(code, 0, "{err}");
    let out = text(out);
    assert!(out.contains("[Black \"张三\"]") && out.contains("[White \"李四\"]"), "{out}");
    // Without it the header lines are no record, and the warning names the option.
    let (_, err, code) = convert(&["--to", "pgn"], gbk);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("2 lines are not UTF-8 and read as Windows-1252") && err.contains("--encoding"), "{err}");
    // An unknown label is a usage error.
    let (_, err, code) = convert(&["--encoding", "klingon", "--to", "pgn"], gbk);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no text encoding is called `klingon`"), "{err}");
    // Nor is the Encoding Standard's `replacement`; Windows' code page names are.
    assert_eq!(convert(&["--encoding", "replacement", "--to", "pgn"], gbk).2, 2);
    let (out, _, code) = convert(&["--encoding", "cp936", "--to", "pgn"], gbk);
    assert_eq!(code, 0);
    assert!(text(out).contains("张三"));
}

#[test]
fn a_scoresheet_s_table_is_a_header_line() {
    for sheet in ["Round: 3  Table: 7\nBlack: Ann\nf5d6c3\n", "Round: 3\nTable: 7\nBlack: Ann\nf5d6c3\n"] {
        let (out, err, code) = convert(&["--to", "pgn"], sheet.as_bytes());
        assert_eq!(code, 0, "{err}");
        let out = text(out);
        assert!(out.contains("[Round \"3\"]") && out.contains("[Table \"7\"]"), "{out}");
    }
}

/// A kifu grid whose start is turned over (ranks labelled from the bottom, read as from the
/// top) is a board no game reaches: `convert` skips it with `validate`'s reason and fix rather
/// than writing a game that does not replay, and a grid with a source and a comment keeps them.
#[test]
fn a_grid_no_game_reaches_is_not_converted() {
    let grid = "Source: a club bulletin\nComment: typed by hand\n    a  b  c  d  e  f  g  h\n\
                \x208 52 51 36 54 55 56 57 58\n 7 50 53 29  9 27 25 59 60\n 6 23  8  3  4 16 26 46 49\n\
                \x205 40 18  5  O  X  6 48 42\n 4 14 13  7  X  O  1 35 45\n 3 17 11 10  2 12 33 34 47\n\
                \x202 22 37 19 20 21 15 44 43\n 1 38 39 24 28 31 32 30 41\n";
    let (out, err, code) = convert(&["--from", "kifu", "--to", "pgn"], grid.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("no game under these rules reaches it; suggestion: the whole game replays with ranks counted from the bottom: --rules othello,rows=bottom"), "{err}");
    let (out, err, code) = convert(&["--from", "kifu", "--to", "kifu", "-r", "othello,rows=bottom"], grid.as_bytes());
    assert_eq!(code, 0, "{err}");
    let out = text(out);
    assert!(out.starts_with("Source: a club bulletin\nComment: typed by hand\n"), "{out}");
}

/// A PGN or GGF setup is a start of its own, reachable by the rules or not: converted as it is
/// (`validate` still says no game reaches it). And a grid's header values keep their spaces
/// from starting another key.
#[test]
fn a_setup_board_converts_and_header_values_stay_whole() {
    let pgn = "[SetUp \"1\"]\n[FEN \"---------------------------OO------XX--------------------------- X\"]\n\
               [Result \"*\"]\n\n1. e3 *\n";
    let (out, err, code) = convert(&["--to", "ggf"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(text(out).contains("B[e3]"));
    let pgn = "[Black \"Ann\"]\n[White \"Bob\"]\n[Comment \"great game  White: Eve\"]\n[Result \"*\"]\n\n1. f5 *\n";
    let (out, err, code) = convert(&["--to", "kifu"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (back, err, code) = convert(&["--from", "kifu", "--to", "json"], &out);
    assert_eq!(code, 0, "{err}");
    let back = text(back);
    assert!(back.contains(r#""white":"Bob""#) && back.contains(r#""comment":"great game White: Eve""#), "{back}");
}
