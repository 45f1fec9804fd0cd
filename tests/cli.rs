//! The `kifu` binary, one section per subcommand: exit codes, output formats, errors.

use assert_cmd::Command;
use predicates::prelude::*;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

// ---- perft ----------------------------------------------------------------------------------

#[test]
fn perft_prints_the_total() {
    kifu().args(["perft", "8"]).assert().success().stdout(predicate::str::contains("perft 8 = 390216"));
}

#[test]
fn perft_divide_lists_first_moves() {
    let out = kifu().args(["perft", "6", "--divide", "--threads", "1"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("d3 2050") && text.contains("f5 2050") && text.contains("perft 6 = 8200"), "{text}");
}

#[test]
fn perft_csv_and_json() {
    kifu().args(["perft", "4", "--all", "--format", "csv"]).assert().success().stdout(
        predicate::str::starts_with("depth,move,leaves,seconds\n1,,4,").and(predicate::str::contains("\n4,,244,")),
    );
    let out = kifu().args(["perft", "3", "--format", "json"]).output().unwrap();
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(row["leaves"], 56);
    assert_eq!(row["depth"], 3);
}

#[test]
fn perft_variants_and_pass_conventions() {
    kifu().args(["perft", "4", "--rules", "brainking"]).assert().success().stdout(predicate::str::contains("= 24 "));
    kifu().args(["perft", "9", "--passes", "free"]).assert().success().stdout(predicate::str::contains("= 3005320 "));
}

#[test]
fn perft_suite_passes_and_reports_mismatches() {
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/perft.txt");
    kifu().args(["perft", "--suite", samples, "--max-depth", "8"]).assert().success();
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "rules othello\nperft 3 57\n").unwrap();
    kifu()
        .args(["perft", "--suite", bad.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("mismatch").and(predicate::str::contains("expected 57")));
    std::fs::write(&bad, "rules othello\nperft three 57\n").unwrap();
    kifu()
        .args(["perft", "--suite", bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.txt:2"));
    // A suite with nothing to check (an empty file, the wrong file) is no pass.
    std::fs::write(&bad, "# nothing\nrules othello\n").unwrap();
    kifu()
        .args(["perft", "--suite", bad.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no `perft DEPTH COUNT` line"));
}

#[test]
fn perft_counts_from_the_positions_of_records() {
    // Below a first move, the count its --divide row gives one ply deeper from the start.
    let divide = kifu().args(["perft", "6", "--divide", "-f", "csv"]).output().unwrap();
    let divide = String::from_utf8(divide.stdout).unwrap();
    let f5 = divide.lines().find(|l| l.starts_with("6,f5,")).unwrap().split(',').nth(2).unwrap().to_owned();
    // A record that does not read is reported and the others still counted (exit 1); CSV
    // from -o's name.
    let dir = tempfile::tempdir().unwrap();
    let (games, rows) = (dir.path().join("games.txt"), dir.path().join("rows.csv"));
    std::fs::write(&games, "f5\nf5 z9\nf5d6\n").unwrap();
    kifu()
        .args(["perft", "5", games.to_str().unwrap(), "-o", rows.to_str().unwrap(), "-q"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("games.txt:2:4"));
    let text = std::fs::read_to_string(&rows).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "source,index,depth,move,leaves,seconds");
    let fields = |line: &str| line.split(',').map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(fields(lines[1])[1..5], ["1", "5", "", f5.as_str()], "{text}");
    assert_eq!(fields(lines[2])[1..3], ["3", "5"], "{text}");
    assert_eq!(lines.len(), 3, "{text}");
    // No record counted: the header alone.
    let out = kifu().args(["perft", "2", "-", "-f", "csv", "-q"]).write_stdin("z9\n").output().unwrap();
    assert_eq!(
        (out.status.code(), String::from_utf8(out.stdout).unwrap()),
        (Some(1), "source,index,depth,move,leaves,seconds\n".to_owned())
    );
    // A suite counts from a `position` line's board until the next `rules` line.
    // After f5.
    let board = "---------------------------OX------XXX-------------------------- O";
    let out = kifu().args(["perft", "4", "-"]).write_stdin(format!("{board}\n")).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let leaves = text.split(" = ").nth(1).unwrap().split(' ').next().unwrap().to_owned();
    // perft 5 from the start is 1,396, a quarter below each of the four symmetric first moves.
    assert_eq!(leaves, "349", "{text}");
    let suite = dir.path().join("suite.txt");
    std::fs::write(&suite, format!("position {board}\nperft 4 {leaves}\nrules othello\nperft 4 244\n")).unwrap();
    kifu().args(["perft", "--suite", suite.to_str().unwrap()]).assert().success();
    std::fs::write(&suite, format!("position {board}\nperft 4 244\n")).unwrap();
    kifu()
        .args(["perft", "--suite", suite.to_str().unwrap()])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("from "));
    std::fs::write(&suite, "position ---X\nperft 1 1\n").unwrap();
    kifu()
        .args(["perft", "--suite", suite.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("suite.txt:1"));
}

#[test]
fn bad_rules_are_usage_errors() {
    kifu()
        .args(["perft", "3", "--rules", "othello,size=7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("impossible rules").and(predicate::str::contains("no centre")));
    kifu()
        .args(["perft", "3", "--rules", "chess"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown rules preset"));
}

#[test]
fn a_missing_input_stops_the_run_before_any_output() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/logbook.gam");
    for command in [
        &["export", "--table", "games"][..],
        &["validate", "-f", "csv"],
        &["solve", "-f", "csv"],
        &["eval", "-f", "csv"],
    ] {
        kifu()
            .args(command)
            .args([sample, "no-such-file.txt"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("cannot read no-such-file.txt"));
    }
}

/// A folder given as an input is its record files, under it too, in path order; hidden files
/// and files of no record format are left out.
#[test]
fn a_folder_is_read_as_its_record_files() {
    let dir = tempfile::tempdir().unwrap();
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/samples");
    std::fs::create_dir(dir.path().join("round2")).unwrap();
    std::fs::copy(format!("{samples}/wthor-2004.pgn"), dir.path().join("round1.pgn")).unwrap();
    std::fs::copy(format!("{samples}/logbook.gam"), dir.path().join("round2/games.gam")).unwrap();
    std::fs::write(dir.path().join("notes.md"), "not a game\n").unwrap();
    std::fs::write(dir.path().join(".hidden.pgn"), "junk\n").unwrap();
    // A link back up is not followed round.
    #[cfg(unix)]
    std::os::unix::fs::symlink("..", dir.path().join("round2/up")).unwrap();
    let folder = kifu().args(["validate", "-f", "csv", "-q"]).arg(dir.path()).output().unwrap();
    assert_eq!(folder.status.code(), Some(0), "{}", String::from_utf8_lossy(&folder.stderr));
    let files = kifu()
        .args(["validate", "-f", "csv", "-q"])
        .args([dir.path().join("round1.pgn"), dir.path().join("round2/games.gam")])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(folder.stdout).unwrap(), String::from_utf8(files.stdout).unwrap());
    // A folder without record files is a usage error.
    let empty = tempfile::tempdir().unwrap();
    kifu().args(["stats"]).arg(empty.path()).assert().code(2).stderr(predicate::str::contains("holds no record files"));
}

/// A file whose name is not UTF-8 (Latin-1 `café.txt`) is read, given by name or in a folder,
/// and named with U+FFFD in rows and messages.
#[cfg(unix)]
#[test]
fn a_file_name_that_is_not_utf8_is_read() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt"));
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/kifu.txt"), &path).unwrap();
    for input in [path.as_path(), dir.path()] {
        let out = kifu().args(["export", "--table", "games", "-f", "csv", "-q"]).arg(input).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().nth(1).is_some_and(|row| row.contains("caf\u{FFFD}.txt,1,")), "{text}");
    }
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perft.csv");
    kifu().args(["perft", "5", "--format", "csv", "-o", path.to_str().unwrap()]).assert().success().stdout("");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("depth,move,leaves,seconds\n5,,1396,"), "{text}");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() != "perft.csv")
        .collect();
    assert!(leftovers.is_empty(), "no temporary file is left: {leftovers:?}");
}

/// A file replaced keeps its permissions; a read-only one is refused and left as it was.
#[cfg(unix)]
#[test]
fn an_output_keeps_its_permissions_and_a_read_only_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perft.csv");
    std::fs::write(&path, "old").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    kifu().args(["perft", "3", "--format", "csv", "-o", path.to_str().unwrap()]).assert().success();
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("depth,"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    kifu()
        .args(["perft", "4", "--format", "csv", "-o", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("it is read-only"));
    assert!(std::fs::read_to_string(&path).unwrap().contains("\n3,,56,"), "left as it was");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file");
}

/// Without `--format`, an output file's name says the format (`.csv`, `.json`, `.jsonl`,
/// `.pgn` where the command writes it); `--format` wins over the name.
#[test]
fn the_output_name_says_the_format() {
    let dir = tempfile::tempdir().unwrap();
    let write = |args: &[&str], name: &str| {
        let path = dir.path().join(name);
        kifu().args(args).args(["-q", "-o", path.to_str().unwrap()]).write_stdin("f5d6c3d3c4\n").output().unwrap();
        std::fs::read_to_string(&path).unwrap()
    };
    assert!(write(&["validate"], "v.csv").starts_with("source,game,status,"));
    assert!(write(&["validate"], "v.jsonl").starts_with("{\"source\":\"-\""));
    assert!(write(&["export", "--table", "games"], "e.json").starts_with("{\"source\":"));
    assert!(write(&["annotate", "--depth", "1"], "a.csv").starts_with("source,game,ply,"));
    assert!(write(&["annotate", "--depth", "1"], "a.pgn").starts_with("[Event "));
    assert!(write(&["eval"], "e.csv").starts_with("source,"));
    assert!(write(&["validate", "--format", "text"], "t.csv").starts_with("-:1:1: record 1: unfinished"));
    // A name the command has no format for: its default.
    assert!(write(&["export", "--table", "games"], "e.txt").starts_with("source,game,"));
}

// ---- rules ----------------------------------------------------------------------------------

#[test]
fn rules_lists_every_preset_and_key() {
    let out = kifu().arg("rules").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for preset in kifu::core::PRESETS {
        assert!(text.contains(preset.name), "{}", preset.name);
    }
    for key in kifu::core::KEYS {
        assert!(text.contains(key.name), "{}", key.name);
    }
}

#[test]
fn rules_resolves_a_spec() {
    kifu()
        .args(["rules", "othello,size=6,rows=bottom"])
        .assert()
        .success()
        .stdout(predicate::str::contains("othello,size=6,rows=bottom").and(predicate::str::contains("size       6")));
    let out = kifu().args(["rules", "blackhole,seed=4", "--format", "json"]).output().unwrap();
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(row["holes"], "random");
    assert_eq!(row["holes_resolved"].as_array().unwrap().len(), 1);
}

// ---- completions and man page ---------------------------------------------------------------

#[test]
fn completions_and_man_page() {
    kifu().args(["completions", "bash"]).assert().success().stdout(predicate::str::contains("kifu"));
    kifu().arg("man").assert().success().stdout(
        predicate::str::contains(".TH kifu")
            .and(predicate::str::contains(".SH EXIT STATUS\n0 all good"))
            .and(predicate::str::contains(".SH ENVIRONMENT\nNO_COLOR"))
            .and(predicate::str::contains("EXTRA").not()),
    );
    kifu()
        .args(["man", "solve"])
        .assert()
        .success()
        .stdout(predicate::str::contains(".TH kifu-solve").and(predicate::str::contains("all\\-moves")));
    kifu().args(["man", "nope"]).assert().code(2);
    let dir = tempfile::tempdir().unwrap();
    kifu().args(["man", "--dir", dir.path().to_str().unwrap()]).assert().success();
    for page in ["kifu.1", "kifu-solve.1", "kifu-annotate.1", "kifu-validate.1"] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(!text.contains(".SH EXTRA"), "{page}: the sections have their names");
    }
    assert!(std::fs::read_to_string(dir.path().join("kifu-solve.1")).unwrap().contains(".SH NOTES\nScores are"));
    // Completion offers the format names.
    kifu().args(["completions", "bash"]).assert().stdout(predicate::str::contains("transcript kifu board obf"));
}

/// Kills process `pid` unless the flag it returns is set within two minutes: a hang guard for
/// tests that wait on a child (not a timing: the test fails on what the killed child did not do).
fn hang_guard(pid: u32) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let done = std::sync::Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    std::thread::spawn(move || {
        for _ in 0..600 {
            std::thread::sleep(std::time::Duration::from_millis(200));
            if flag.load(Ordering::Relaxed) {
                return;
            }
        }
        let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
    });
    done
}

#[test]
fn broken_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let logbook = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/logbook.gam");
    // More records than the reader keeps ahead of the workers: a reader stuck on a full queue
    // once the output is gone must not be waited for.
    let dir = tempfile::tempdir().unwrap();
    let many = dir.path().join("many.gam");
    std::fs::write(&many, std::fs::read_to_string(logbook).unwrap().repeat(600)).unwrap();
    let many = many.to_str().unwrap();
    let runs: [&[&str]; 6] = [
        &["perft", "8", "--all", "--divide"],
        // The csv writer wraps the output's error in its own.
        &["validate", logbook, "--format", "csv"],
        &["validate", logbook, "--format", "json"],
        &["export", logbook, "--table", "moves"],
        &["validate", many, "--format", "csv", "-j", "1"],
        &["convert", many, "--to", "transcript", "-j", "1"],
    ];
    for args in runs {
        let mut child = Std::new(assert_cmd::cargo::cargo_bin("kifu"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let guard = hang_guard(child.id());
        // Close the reading end before kifu writes its (buffered) output.
        drop(child.stdout.take());
        let status = child.wait().unwrap();
        guard.store(true, std::sync::atomic::Ordering::Relaxed);
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert!(status.success(), "{args:?}: exit {status:?}, stderr {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

/// A program that writes one position and waits for the answer gets it before it writes the
/// next: the commands answer each record as it is read, not when the input ends.
#[test]
fn each_record_piped_in_is_answered_at_once() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command as Std, Stdio};
    use std::sync::atomic::Ordering;
    let runs: [(&[&str], &str); 7] = [
        (&["eval", "-q"], "to move"),
        (&["convert", "-q", "--to", "obf"], "X;"),
        (&["eval", "-q", "-f", "csv"], "-,1,"),
        (&["validate", "-q", "-f", "csv"], "-,1,ok"),
        (&["export", "-q", "-t", "positions"], "-,1,0,"),
        (&["show", "--all"], "to move"),
        (&["solve", "-q", "--depth", "2"], "best"),
    ];
    for (args, answer) in runs {
        let mut child = Std::new(assert_cmd::cargo::cargo_bin("kifu"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // A command that waits for the end of its input is killed (and the test fails on its
        // missing answer) long after any answer is due.
        let done = hang_guard(child.id());
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(START.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let answered = lines.by_ref().map_while(Result::ok).any(|line| line.contains(answer));
        done.store(true, Ordering::Relaxed);
        drop(stdin);
        let _ = child.wait();
        assert!(answered, "{args:?}: no answer before the input ended");
    }
}

// ---- eval and train -------------------------------------------------------------------------

const START: &str = "---------------------------OX------XO--------------------------- X\n";

/// A finished game's value is its final margin, from the side to move (here: under each
/// game's own rules, a 6x6, an anti-reversi 6x6 and a 10x10 game).
#[test]
fn eval_of_a_finished_game_is_its_result() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/variants.pgn");
    let out = kifu().args(["eval", games, "--format", "csv"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let values: Vec<&str> = text.lines().skip(1).map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(values, ["-6.0", "10.0", "32.0"], "{text}");
}

/// `--empties N` and `--ply K` evaluate each game's position there, as the board string
/// `convert` cuts reads; games that never get there are left out and counted.
#[test]
fn eval_at_a_count_of_empties_or_a_ply() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/wthor-2004.pgn");
    for cut in [["--empties", "20"], ["--ply", "30"]] {
        let eval = |args: &[&str], stdin: &[u8]| {
            let out = kifu().arg("eval").args(args).args(["-f", "csv"]).write_stdin(stdin.to_vec()).output().unwrap();
            let text = String::from_utf8(out.stdout).unwrap();
            text.lines().skip(1).map(|l| l.split(',').skip(2).collect::<Vec<_>>().join(",")).collect::<Vec<_>>()
        };
        let boards = kifu().args(["convert", pgn, "--to", "board"]).args(cut).output().unwrap().stdout;
        assert_eq!(eval(&[&[pgn][..], &cut[..]].concat(), b""), eval(&["-"], &boards), "{cut:?}");
    }
    let out = kifu().args(["eval", pgn, "--ply", "500"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("3 games shorter than 500 plies, left out"));
}

#[test]
fn eval_prints_each_position() {
    // The start position and its four symmetric first moves evaluate alike.
    let boards = format!(
        "{START}{}",
        [
            "-------------------X-------XX------XO--------------------------- O",
            "--------------------------XXX------XO--------------------------- O",
            "---------------------------OX------XXX-------------------------- O",
            "---------------------------OX------XX-------X------------------- O",
        ]
        .join("\n")
    );
    let out = kifu().args(["eval", "-", "--format", "csv"]).write_stdin(boards).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("source,index,empties,side,eval"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0][..4], ["-", "1", "60", "black"]);
    let start: f64 = rows[0][4].parse().unwrap();
    assert!(start.abs() < 8.0, "{start}");
    assert!(rows[1..].iter().all(|r| r[3] == "white" && r[4] == rows[1][4]), "{text}");
    let json = kifu().args(["eval", "-", "--format", "json"]).write_stdin(START).output().unwrap();
    let row: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(row["eval"].as_f64(), Some(start));
}

#[test]
fn eval_takes_other_rules_and_refuses_bad_weights() {
    // Other variants get the generic evaluation; --check stays with standard Othello.
    kifu()
        .args(["eval", "-", "--rules", "othello,size=6"])
        .write_stdin("c2")
        .assert()
        .code(0)
        .stdout(predicate::str::contains("31 empties, white to move"));
    kifu().args(["eval", "-", "--check", "--rules", "othello,size=6"]).write_stdin("c2").assert().code(1);
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad-weights.bin");
    std::fs::write(&bad, b"not weights").unwrap();
    kifu()
        .args(["eval", "-", "--weights", bad.to_str().unwrap()])
        .write_stdin(START)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad-weights.bin: not a kifu weights file"));
}

#[test]
fn eval_check_tables_errors_against_exact_scores() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logbook-200.gam");
    let out =
        kifu().args(["eval", "--check", "--exact-empties", "8", "--format", "csv", "-q", games]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("empties,positions,mean_abs_error,mean_error,zero_abs_error,target_sd,correlation\n0-9,"),
        "{text}"
    );
    let all: Vec<&str> = text.lines().last().unwrap().split(',').collect();
    assert_eq!(all[0], "all");
    assert!(all[1].parse::<u64>().unwrap() > 10_000, "{text}");
    // Near the end the evaluation beats answering zero and follows the exact scores.
    let near: Vec<f64> = text.lines().nth(1).unwrap().split(',').skip(2).map(|v| v.parse().unwrap()).collect();
    assert!(near[0] < near[2], "{text}");
    assert!(near[4] > 0.5, "{text}");
    // An OBF line is compared with its first listed score.
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n";
    let out = kifu().args(["eval", "--check", "-", "--format", "json"]).write_stdin(obf).output().unwrap();
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["empties"], "10-19");
    assert_eq!(rows[0]["positions"], 1);
    // A finished position is checked by the value `kifu eval` gives it, its final margin (the
    // empty squares to the winner): no error.
    let finished = format!("{}{} O\n{} X\n", "X".repeat(40), "O".repeat(24), "X".repeat(64));
    let out = kifu().args(["eval", "--check", "-", "--format", "csv"]).write_stdin(finished).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\nall,2,0.0,0.0,"), "{text}");
}

#[test]
fn train_is_reproducible_and_writes_loadable_weights() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logbook-200.gam");
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one.bin"), dir.path().join("two.bin"));
    let train = |threads: &str, out: &std::path::Path| {
        kifu()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "train",
                games,
                "--exact-empties",
                "6",
                "--iterations",
                "8",
                "--seed",
                "3",
                "--branches",
                "0.5",
                "-q",
            ])
            .arg("-o")
            .arg(out)
            .assert()
            .success()
            .stdout(
                predicate::str::contains("held out")
                    .and(predicate::str::contains("200 games used"))
                    .and(predicate::str::is_match("[1-9][0-9]* labelled by search").unwrap()),
            );
    };
    train("1", &one);
    train("2", &two);
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, std::fs::read(&two).unwrap());
    assert!(bytes.starts_with(b"KIFUEVAL"));
    kifu().args(["eval", "-", "--weights", one.to_str().unwrap()]).write_stdin(START).assert().success();
}

#[test]
fn train_fits_the_first_eleven_shapes_on_request() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logbook-200.gam");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("eleven.bin");
    let args = ["train", games, "--exact-empties", "6", "--iterations", "4", "--sample", "0.2", "-q", "--shapes"];
    kifu().args(args).arg("11").arg("-o").arg(&out).assert().success();
    let bytes = std::fs::read(&out).unwrap();
    // The header's values per phase: those of the eleven shapes (as the shipped solver weights).
    assert_eq!(u32::from_le_bytes(bytes[16..20].try_into().unwrap()), 114_002);
    let shipped = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/solver-weights.bin")).unwrap();
    assert_eq!(bytes[..24], shipped[..24]);
    for weights in [out.to_str().unwrap(), concat!(env!("CARGO_MANIFEST_DIR"), "/src/engine/weights.bin")] {
        kifu().args(["solve", "-", "--depth", "4", "-q", "--weights", weights]).write_stdin(START).assert().success();
    }
    for shapes in ["10", "17"] {
        kifu()
            .args(args)
            .arg(shapes)
            .arg("-o")
            .arg(dir.path().join("no.bin"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--shapes"));
    }
}

#[test]
fn train_lists_its_held_out_games() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/logbook-200.gam");
    let list = |path: &str, seed: &str| -> Vec<usize> {
        let out = kifu()
            .args(["train", path, "--from", "logbook", "--list-held-out", "--held-out", "0.25", "--seed", seed])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("source,record"));
        lines.map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect()
    };
    let held = list(games, "3");
    assert!((25..=75).contains(&held.len()), "{} of 200 games for a quarter", held.len());
    assert_ne!(held, list(games, "4"), "another seed draws other games");
    // Being held out belongs to the game: the listed games, on their own, are all listed again.
    let lines: Vec<&str> = include_str!("data/logbook-200.gam").lines().collect();
    let dir = tempfile::tempdir().unwrap();
    let subset = dir.path().join("held.gam");
    std::fs::write(&subset, held.iter().map(|&r| format!("{}\n", lines[r - 1])).collect::<String>()).unwrap();
    assert_eq!(list(subset.to_str().unwrap(), "3"), (1..=held.len()).collect::<Vec<_>>());
}

#[test]
fn solve_searches_and_solves_positions_of_other_variants() {
    let json = |args: &[&str], input: &str| -> serde_json::Value {
        let out = kifu().arg("solve").args(args).args(["-f", "json", "-q"]).write_stdin(input).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    // 8x8 anti-reversi and the 8-stars board, searched by depth.
    let anti = json(&["-", "--rules", "anti", "--depth", "4", "--all-moves"], "f5\n");
    assert_eq!((anti["exact"].as_bool(), anti["depth"].as_u64()), (Some(false), Some(4)));
    assert_eq!(anti["moves"].as_array().unwrap().len(), 3, "white's three replies to f5");
    let stars = json(&["-", "--rules", "8stars", "--depth", "3"], "e4\n");
    assert_eq!(stars["empties"].as_u64(), Some(83));
    // A 4x4 game to the end: the exact score, its sign with --wld, every move's exact score.
    let exact = json(&["-", "--rules", "othello,size=4"], "b1\n");
    assert_eq!(exact["exact"].as_bool(), Some(true));
    let score = exact["score"].as_i64().unwrap();
    let wld = json(&["-", "--rules", "othello,size=4", "--wld"], "b1\n");
    assert_eq!(wld["score"].as_i64(), Some(score.signum()));
    let all = json(&["-", "--rules", "othello,size=4", "--all-moves"], "b1\n");
    assert_eq!((all["moves"][0]["score"].as_i64(), all["moves"][0]["exact"].as_bool()), (Some(score), Some(true)));
}

#[test]
fn eval_holds_the_value_to_the_largest_margin() {
    use kifu::engine::eval::{Evaluator, SCALE};
    // Positions far from any game (random boards), where the shipped weights' pattern sum passes
    // +-64 discs: printed held to the margin the board allows, others unchanged.
    let boards = [
        "-X--X-X---XX--XX-----X-XXX-XOO--XX-XX-----X-X--------XXX-XXXXOX- X",
        "---------------------------OX------XO--------------------------- X",
    ];
    let out = kifu().args(["eval", "-", "--format", "csv"]).write_stdin(boards.join("\n")).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let printed: Vec<f64> = text.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect();
    let raw: Vec<i32> = boards
        .iter()
        .map(|b| {
            let (cells, side) = b.split_once(' ').unwrap();
            let bits = |c: char| cells.chars().enumerate().filter(|&(_, x)| x == c).fold(0u64, |a, (i, _)| a | 1 << i);
            let (mover, other) = if side == "X" { ('X', 'O') } else { ('O', 'X') };
            Evaluator::embedded().evaluate(bits(mover), bits(other))
        })
        .collect();
    assert!(raw[0].abs() > 64 * SCALE, "no longer an extreme position for these weights: {raw:?}");
    for (p, r) in printed.iter().zip(&raw) {
        assert_eq!(*p, f64::from((*r).clamp(-64 * SCALE, 64 * SCALE)) / f64::from(SCALE), "{text}");
    }
}

/// `-o` through a symlink writes the file it names (the link stays a link), and a FIFO (as a
/// device or `/dev/stdout`) is written to, not replaced by a renamed file.
#[cfg(unix)]
#[test]
fn output_through_symlinks_and_fifos_keeps_them() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let (file, link) = (dir.path().join("t.csv"), dir.path().join("l.csv"));
    std::fs::write(&file, "old\n").unwrap();
    std::os::unix::fs::symlink(&file, &link).unwrap();
    for command in [&["export", "--table", "games", "-q"][..], &["annotate", "--depth", "2", "-q", "-f", "csv"][..]] {
        kifu().args(command).arg("-o").arg(&link).write_stdin("f5d6c3\n").assert().success();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "{command:?}");
        assert!(std::fs::read_to_string(&file).unwrap().starts_with("source,game,"), "{command:?}");
    }
    let fifo = dir.path().join("ff");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    kifu().args(["export", "--table", "games", "-q", "-o"]).arg(&fifo).write_stdin("f5d6c3\n").assert().success();
    assert!(reader.join().unwrap().starts_with("source,game"));
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
    kifu()
        .args(["annotate", "--resume", "-q", "-o"])
        .arg(&fifo)
        .write_stdin("f5\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--resume needs -o to name a regular file"));
}

/// Engine options out of range are usage errors naming the option, not a panic or an abort.
#[test]
fn impossible_times_and_table_sizes_are_usage_errors() {
    for args in [
        &["solve", "--time", "nan"][..],
        &["solve", "--time", "inf"],
        &["solve", "--time", "1e30"],
        &["annotate", "--time", "nan"],
        &["play", "--games", "1", "--time", "inf"],
        &["solve", "--hash-mb", "0"],
        &["solve", "--hash-mb", "1000000000"],
        &["annotate", "--hash-mb", "1000000000"],
    ] {
        let option = if args.contains(&"--time") { "--time" } else { "--hash-mb" };
        kifu().args(args).write_stdin("f5\n").assert().code(2).stderr(predicate::str::contains(option));
    }
    // Other values that mean nothing, each refused naming its option.
    for (args, option) in [
        (&["solve", "--exact", "--depth", "3"][..], "--exact"),
        (&["solve", "--depth", "0"], "--depth"),
        (&["annotate", "--depth", "0"], "--depth"),
        (&["annotate", "--marks", "0,0,0"], "--marks"),
        (&["annotate", "--marks", "6,2,12"], "--marks"),
        (&["eval", "--check", "--bucket", "0"], "--bucket"),
        (&["train", "-", "-o", "never-written.bin", "--ridge", "nan"], "--ridge"),
        (&["train", "-", "-o", "never-written.bin", "--ridge=-5"], "--ridge"),
        (&["train", "-", "-o", "never-written.bin", "--branches", "inf"], "--branches"),
    ] {
        kifu().args(args).write_stdin("f5\n").assert().code(2).stderr(predicate::str::contains(option));
    }
}

#[test]
fn perft_suite_reads_stdin_for_dash() {
    kifu()
        .args(["perft", "--suite", "-", "-j", "1"])
        .write_stdin("rules othello\nperft 3 56\n")
        .assert()
        .success()
        .stderr(predicate::str::contains("1 ok, 0 mismatched"));
}

#[test]
fn annotate_tables_are_for_csv_and_json() {
    kifu()
        .args(["annotate", "--depth", "2", "-q", "-t", "games"])
        .write_stdin("f5d6\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--table games picks the rows of csv and json"));
}

#[test]
fn annotate_marks_take_one_comma_list() {
    kifu().args(["annotate", "--depth", "2", "-q", "--marks", "1,3,5"]).write_stdin("f5d6c3\n").assert().success();
    // A file after the list stays a file (it was taken for a fourth value).
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g.txt");
    std::fs::write(&game, "f5d6c3\n").unwrap();
    kifu().args(["annotate", "--depth", "2", "-q", "--marks", "1,3,5"]).arg(&game).assert().success();
    for marks in [&["1,3"][..], &["1", "3", "5"]] {
        kifu()
            .args(["annotate", "--depth", "2", "-q", "--marks"])
            .args(marks)
            .write_stdin("f5\n")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--marks takes three losses"));
    }
}

/// `kifu train` points at an illegal move as the other commands do: its line, column and token.
#[test]
fn train_names_an_illegal_move_at_its_token() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.bin");
    kifu()
        .args(["train", "-", "-q", "-j", "1", "--exact-empties", "4", "--iterations", "1", "-o"])
        .arg(&out)
        .write_stdin("f5d6c3d3c4f4f6f3e6e7\nf5d6a1\n")
        .assert()
        .stderr(predicate::str::contains("-:2:5: record 2: move 3, a1, is illegal: the move flips no disc"));
}

/// An exact solve far from the end warns before it starts (it can run for hours); a limit
/// (here a depth) silences it.
#[test]
fn an_exact_solve_far_from_the_end_warns_first() {
    let out = kifu()
        .args(["solve", "-", "-j", "1"])
        .write_stdin("f5\n")
        .timeout(std::time::Duration::from_secs(3))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warning: -#1 has 59 empty squares"), "{err}");
    let out = kifu().args(["solve", "-", "-j", "1", "--depth", "2"]).write_stdin("f5\n").output().unwrap();
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("warning"));
    // A finished game has nothing to search, however many squares are empty (the shortest game,
    // a wipe-out in nine moves).
    let out = kifu().args(["solve", "-", "-j", "1"]).write_stdin("e6f4e3f6g5d6e7f5c5\n").output().unwrap();
    assert!(out.status.success() && !String::from_utf8_lossy(&out.stderr).contains("warning"));
    // A board no game reaches (a centre cell empty) is solved with a warning.
    let cleared = format!("XX{} O\n", "-".repeat(62));
    let out = kifu().args(["solve", "-", "-j", "1"]).write_stdin(cleared).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.contains("warning: -#1: d4 is empty, but the start position fills it"),
        "{err}"
    );
    // Nor one with the centre discs turned.
    let turned = format!("{}XO{}OX{} X\n", "-".repeat(27), "-".repeat(6), "-".repeat(27));
    let out = kifu().args(["solve", "-", "-j", "1", "--depth", "1"]).write_stdin(turned).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: -#1: the board has the start position's number of discs but not its discs"),
        "{err}"
    );
    // An exact part far from the end in play and annotate.
    for args in [&["play", "-n", "1"][..], &["annotate", "-"]] {
        let out = kifu()
            .args(args)
            .args(["-j", "1", "--depth", "1", "--exact-empties", "50"])
            .write_stdin("f5d6c3\n")
            .timeout(std::time::Duration::from_secs(2))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("warning: --exact-empties 50 solves positions with up to 50 empty squares"), "{err}");
    }
    // A board without its side to move: black is taken to move, with a warning (with -q too:
    // it is about the input, as a record's error is).
    let start = format!("{}OX{}XO{}\n", "-".repeat(27), "-".repeat(6), "-".repeat(27));
    for args in [&["solve", "-", "--depth", "2", "-j", "1"][..], &["eval", "-", "-j", "1"], &["show"]] {
        let quiet_too: &[&[&str]] = if args[0] == "show" { &[&[]] } else { &[&[], &["-q"]] };
        for quiet in quiet_too {
            let out = kifu().args(args).args(*quiet).write_stdin(start.clone()).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{args:?}: {err}");
            assert!(err.contains("warning: -#1: no side to move given: black to move assumed"), "{args:?}: {err}");
        }
    }
}

/// An `-o` file that is also an input is refused before anything is written: moved into place
/// at the end, it would have replaced the records being read (the unreadable ones lost); but
/// for a WTHOR file, to which games are added so.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.txt");
    std::fs::write(&games, "f5d6c3\nf5zz\n").unwrap();
    let path = games.to_str().unwrap();
    for args in [
        &["convert", path, "--to", "transcript", "-o", path][..],
        &["validate", path, "-o", path],
        &["export", path, "--table", "games", "-o", path],
        &["merge", path, "-o", path],
    ] {
        kifu().args(args).assert().code(2).stderr(predicate::str::contains("is also an input"));
        assert_eq!(std::fs::read_to_string(&games).unwrap(), "f5d6c3\nf5zz\n", "{args:?}");
    }
    // By another name: a hard link is the same file.
    #[cfg(unix)]
    {
        let other = dir.path().join("other.txt");
        std::fs::hard_link(&games, &other).unwrap();
        kifu().args(["export", path, "--table", "games", "-o", other.to_str().unwrap()]).assert().code(2).stderr(
            predicate::str::contains("other.txt is also an input (").and(predicate::str::contains("by another name")),
        );
        assert_eq!(std::fs::read_to_string(&other).unwrap(), "f5d6c3\nf5zz\n");
    }
    // A WTHOR file is written whole once every input is read: games are added to it so, but
    // only when every record converts.
    let wtb = dir.path().join("WTH_2024.wtb");
    let wtb = wtb.to_str().unwrap();
    kifu().args(["convert", "--to", "wthor", "-o", wtb]).write_stdin("f5d6c3\n").assert().success();
    kifu().args(["convert", wtb, "-", "--to", "wthor", "-o", wtb]).write_stdin("f5f6\n").assert().success();
    assert_eq!(std::fs::metadata(wtb).unwrap().len(), 16 + 2 * 68);
    kifu()
        .args(["convert", wtb, "-", "--to", "wthor", "-o", wtb])
        .write_stdin("f5zz\n")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("nothing is written: -o"));
    assert_eq!(std::fs::metadata(wtb).unwrap().len(), 16 + 2 * 68);
    // Its own games all stay: --unique leaves out only the new games that repeat one, and what
    // would leave some out or cut them is refused.
    kifu().args(["convert", wtb, "-", "--to", "wthor", "-o", wtb]).write_stdin("f5d6c3\n").assert().success();
    kifu()
        .args(["convert", wtb, "-", "--to", "wthor", "--unique", "-o", wtb])
        .write_stdin("f5d6c3\nf5f6e6\n")
        .assert()
        .success()
        .stderr(predicate::str::contains("4 records converted to wthor, 0 with errors, 1 not selected"));
    assert_eq!(std::fs::metadata(wtb).unwrap().len(), 16 + 4 * 68);
    for refused in [&["--games", "2-"][..], &["--player", "x"], &["--ply", "2"]] {
        let mut args = vec!["convert", wtb, "--to", "wthor", "-o", wtb];
        args.extend_from_slice(refused);
        kifu().args(&args).assert().code(2).stderr(predicate::str::contains("would leave out or cut its games"));
    }
    assert_eq!(std::fs::metadata(wtb).unwrap().len(), 16 + 4 * 68);
    // A base's file that is not an input is replaced, which is said.
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor");
    std::fs::copy(data.join("WTHOR.JOU"), dir.path().join("WTHOR.JOU")).unwrap();
    std::fs::copy(data.join("WTHOR.TRN"), dir.path().join("WTHOR.TRN")).unwrap();
    kifu()
        .args(["convert", "--to", "wthor", "--base", dir.path().to_str().unwrap(), "-o", wtb])
        .write_stdin("f5d6\n")
        .assert()
        .success()
        .stderr(predicate::str::contains("holds 4 games, which this run replaces"));
}

/// `kifu annotate` writes as it goes (for `--resume`): a `.gz` name is refused, not filled
/// with plain text.
#[test]
fn annotate_refuses_a_gzip_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.pgn.gz");
    kifu()
        .args(["annotate", "--depth", "1", "-j", "1", "-o", out.to_str().unwrap()])
        .write_stdin("f5d6c3\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not gzip it"));
    assert!(!out.exists());
}

/// A failed write names the output it was writing.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_names_the_output() {
    for args in [&["export", "--table", "games"][..], &["annotate", "--depth", "1", "-j", "1"], &["show"]] {
        kifu()
            .args(args)
            .args(["-o", "/dev/full"])
            .write_stdin("f5d6c3\n")
            .assert()
            .code(2)
            .stderr(predicate::str::contains("writing /dev/full: "));
    }
}

/// `-j 0` is a usage error in every command that takes it, not a silent single thread.
#[test]
fn zero_threads_is_a_usage_error() {
    for command in ["validate", "stats", "export", "convert", "solve", "annotate", "play", "perft", "eval"] {
        let out = kifu().args([command, "-j", "0"]).write_stdin("f5\n").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(err.contains("at least 1 thread"), "{command}: {err}");
    }
}

/// An input of two formats is read in the format of its start; a record of the other says so.
#[test]
fn a_record_of_another_format_than_the_inputs_says_so() {
    let obf = format!("{}OX{}XO{} X;\n", "-".repeat(27), "-".repeat(6), "-".repeat(27));
    let out =
        kifu().args(["solve", "--depth", "2", "-q", "-j", "1"]).write_stdin(format!("f5d6c3\n{obf}")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("(the input is read as transcript, the format of its start; this record is obf"), "{err}");
}

/// Comment lines (`% ...`, `# ...`) before positions piped in are skipped, whether the format
/// is sniffed or given, and the positions keep their numbers.
#[test]
fn comment_lines_before_positions_are_skipped() {
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
    for (input, from) in [(format!("% my suite\n{obf}\n"), None), (format!("# my suite\n\n{obf}\n"), Some("board"))] {
        let mut cmd = kifu();
        cmd.args(["solve", "-j", "1", "--hash-mb", "4", "--format", "csv", "-q"]);
        if let Some(from) = from {
            cmd.args(["--from", from]);
        }
        let out = cmd.write_stdin(input.clone()).output().unwrap();
        assert!(out.status.success(), "{input}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().nth(1).unwrap().starts_with("-,1,14,black,g8,18,"), "{text}");
    }
}

/// A table kifu wrote, given back as input, is named as such once, not read as records line
/// by line.
#[test]
fn a_table_kifu_wrote_is_no_input() {
    let rows = kifu().args(["validate", "-f", "csv", "-q"]).write_stdin("f5 d6 c3\n").output().unwrap();
    let out = kifu().args(["export", "-t", "games"]).write_stdin(rows.stdout).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("this is a table of rows kifu writes (CSV"), "{err}");
    assert_eq!(err.lines().count(), 2, "{err}");
}
