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
    let dir = tempdir();
    let bad = dir.join("bad.txt");
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
fn output_file_is_written_whole() {
    let dir = tempdir();
    let path = dir.join("perft.csv");
    kifu().args(["perft", "5", "--format", "csv", "-o", path.to_str().unwrap()]).assert().success().stdout("");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("depth,move,leaves,seconds\n5,,1396,"), "{text}");
    let leftovers: Vec<_> =
        std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).filter(|e| e.file_name() != "perft.csv").collect();
    assert!(leftovers.is_empty(), "no temporary file is left: {leftovers:?}");
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
    kifu().arg("man").assert().success().stdout(predicate::str::contains(".TH kifu"));
}

#[test]
fn broken_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("kifu"))
        .args(["perft", "8", "--all", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before kifu writes its (buffered) output.
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success(), "exit {status:?}, stderr {err}");
}

fn tempdir() -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("kifu-cli-test-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
