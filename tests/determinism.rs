//! Every command that works in parallel gives the same bytes on one thread and on several, and
//! on a second run, on a real database (WTHOR 2004, 9,113 games). Measurements (`solve`'s nodes
//! and seconds, `perft`'s time) are the exception, and so are the exact solver's best move and
//! line when several moves are equally good: they are compared without those fields. The
//! depth-limited search (`solve --depth`) gives the same everything but the time.

mod common;

use std::path::Path;
use std::process::Command;

fn kifu(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu")).args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The output of `args` with `-j 1`, `-j 2` and `-j 2` again, asserted equal; the output.
fn same_on_any_thread_count(args: &[&str]) -> Vec<u8> {
    let runs: Vec<Vec<u8>> = ["1", "2", "2"]
        .iter()
        .map(|j| {
            let mut with = args.to_vec();
            with.extend(["-j", j]);
            kifu(&with)
        })
        .collect();
    assert!(!runs[0].is_empty(), "{args:?} wrote nothing");
    assert!(runs[0] == runs[1], "{args:?}: one thread and two differ");
    assert!(runs[1] == runs[2], "{args:?}: two runs differ");
    runs.into_iter().next().unwrap()
}

#[test]
fn record_commands_give_the_same_bytes_on_any_thread_count() {
    let Some(db) = common::shared("wthor/WTH_2004.wtb") else { return };
    let db = db.to_str().unwrap();
    same_on_any_thread_count(&["validate", db, "-q", "--format", "csv"]);
    same_on_any_thread_count(&["validate", db, "-q", "--format", "json"]);
    for table in ["games", "moves", "positions"] {
        same_on_any_thread_count(&["export", db, "-q", "--table", table]);
    }
    same_on_any_thread_count(&["export", db, "-q", "--table", "games", "--format", "json"]);
    same_on_any_thread_count(&["stats", db, "-q"]);
    same_on_any_thread_count(&["stats", db, "-q", "--by", "opening", "--format", "json"]);
    same_on_any_thread_count(&["stats", db, "-q", "--by", "player", "--format", "csv"]);
    same_on_any_thread_count(&["convert", db, "-q", "--to", "pgn"]);
    same_on_any_thread_count(&["eval", db, "-q", "--check", "--exact-empties", "8"]);
}

#[test]
fn annotate_gives_the_same_bytes_on_any_thread_count() {
    let Some(db) = common::shared("wthor/WTH_2021.wtb") else { return };
    // The first 12 games of a real database, at a quick setting.
    let dir = tempfile::tempdir().unwrap();
    let head = dir.path().join("head.pgn");
    let pgn = kifu(&["convert", db.to_str().unwrap(), "-q", "--to", "pgn"]);
    let text = String::from_utf8(pgn).unwrap();
    let games: Vec<&str> = text.split("\n\n[").take(12).collect();
    std::fs::write(&head, games.join("\n\n[") + "\n").unwrap();
    let head = head.to_str().unwrap();
    for format in ["csv", "json", "pgn"] {
        same_on_any_thread_count(&["annotate", head, "-q", "--depth", "4", "--exact-empties", "12", "-f", format]);
    }
}

#[test]
fn solve_and_perft_give_the_same_results_on_any_thread_count() {
    let ffo = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/ffo-1-5.obf");
    let ffo = ffo.to_str().unwrap();
    // The values: not the measurements (nodes, seconds), nor the best move and line, which may
    // be another of several equally good moves when threads share the search.
    let results = |j: &str| -> Vec<String> {
        let csv = String::from_utf8(kifu(&["solve", ffo, "--all-moves", "--format", "csv", "-j", j])).unwrap();
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let keep: Vec<usize> =
            (0..header.len()).filter(|&i| !matches!(header[i], "nodes" | "seconds" | "best_move" | "pv")).collect();
        lines
            .map(|l| {
                let cells: Vec<&str> = l.split(',').collect();
                keep.iter().map(|&i| cells[i]).collect::<Vec<_>>().join(",")
            })
            .collect()
    };
    let one = results("1");
    assert_eq!(one.len(), 5);
    // The depth-limited search: everything but the time, the best move and line included.
    for extra in [&[][..], &["--all-moves"][..]] {
        let measured = |j: &str| -> Vec<String> {
            let mut args = vec!["solve", ffo, "--depth", "10", "--format", "csv", "-j", j];
            args.extend(extra);
            let csv = String::from_utf8(kifu(&args)).unwrap();
            let mut lines = csv.lines();
            let header: Vec<&str> = lines.next().unwrap().split(',').collect();
            let seconds = header.iter().position(|&h| h == "seconds").unwrap();
            lines
                .map(|l| {
                    let cells: Vec<&str> =
                        l.split(',').enumerate().filter(|&(i, _)| i != seconds).map(|(_, c)| c).collect();
                    cells.join(",")
                })
                .collect()
        };
        let one = measured("1");
        assert!(one.iter().all(|l| l.contains(",false,10")), "{one:?}");
        assert_eq!(one, measured("2"), "{extra:?}");
    }
    assert_eq!(one, results("2"));
    let counts = |j: &str| {
        let json = String::from_utf8(kifu(&["perft", "8", "--divide", "--format", "json", "-j", j])).unwrap();
        json.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (v.get("move").cloned(), v.get("leaves").or_else(|| v.get("nodes")).cloned())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(counts("1"), counts("2"));
}
