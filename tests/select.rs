//! Selecting records (`--player`, `--year`, `--opening`, `--games`, `--unique`, ...) in every
//! command that reads games: the records kept are checked against the unselected export's rows.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path)
}

/// Runs kifu with `args` and `stdin`; returns stdout, stderr and the exit code.
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = kifu().args(args).write_stdin(stdin.as_bytes().to_vec()).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The games table of the 50 WTHOR games, unselected, as JSON rows.
fn all_rows() -> Vec<Value> {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (out, _, code) = run(&["export", "-t", "games", "-f", "json", "-q", wtb.to_str().unwrap()], "");
    assert_eq!(code, 0);
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The game numbers `export` keeps with the selection `select`.
fn selected(select: &[&str]) -> Vec<u64> {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let mut args = vec!["export", "-t", "games", "-f", "json", "-q", wtb.to_str().unwrap()];
    args.extend_from_slice(select);
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()["game"].as_u64().unwrap()).collect()
}

fn numbers_where(rows: &[Value], keep: impl Fn(&Value) -> bool) -> Vec<u64> {
    rows.iter().filter(|r| keep(r)).map(|r| r["game"].as_u64().unwrap()).collect()
}

fn text(row: &Value, field: &str) -> String {
    row[field].as_str().unwrap_or_default().to_lowercase()
}

#[test]
fn names_results_and_lengths_keep_the_games_the_rows_say() {
    let rows = all_rows();
    assert_eq!(rows.len(), 50);
    let halvorsen = numbers_where(&rows, |r| {
        format!("{} {}", text(r, "black_player"), text(r, "white_player")).contains("halvorsen")
    });
    assert!(!halvorsen.is_empty() && halvorsen.len() < 50);
    assert_eq!(selected(&["--player", "HALVORSEN"]), halvorsen);
    assert_eq!(
        selected(&["--black", "halvorsen"]),
        numbers_where(&rows, |r| text(r, "black_player").contains("halvorsen"))
    );
    // Several values of one criterion: any of them.
    let either = numbers_where(&rows, |r| {
        let players = format!("{} {}", text(r, "black_player"), text(r, "white_player"));
        players.contains("halvorsen") || players.contains("vecchi")
    });
    assert_eq!(selected(&["--player", "halvorsen", "--player", "vecchi"]), either);
    // Criteria together: all of them.
    assert_eq!(
        selected(&["--player", "halvorsen", "--winner", "white"]),
        numbers_where(&rows, |r| halvorsen.contains(&r["game"].as_u64().unwrap()) && text(r, "winner") == "white")
    );
    assert_eq!(
        selected(&["--winner", "draw,black"]),
        numbers_where(&rows, |r| matches!(text(r, "winner").as_str(), "draw" | "black"))
    );
    assert_eq!(selected(&["--moves", "-59"]), numbers_where(&rows, |r| r["moves"].as_str().unwrap().len() / 2 <= 59));
    assert_eq!(selected(&["--year", "2004"]).len(), 50);
    assert_eq!(selected(&["--year", "2005-"]), Vec::<u64>::new());
    // Several ranges: any of them, with commas or repeated.
    assert_eq!(selected(&["--year", "-1990,2004"]).len(), 50);
    assert_eq!(selected(&["--year", "2005-", "--year", "1990"]), Vec::<u64>::new());
    let short_or_full = |r: &Value| {
        let discs = r["moves"].as_str().unwrap().len() / 2;
        discs <= 55 || discs == 60
    };
    assert_eq!(selected(&["--moves", "-55,60"]), numbers_where(&rows, short_or_full));
    assert_eq!(selected(&["--event", "australian"]), numbers_where(&rows, |r| text(r, "event").contains("australian")));
    // --invert keeps the others.
    let others: Vec<u64> = (1..=50).filter(|n| !halvorsen.contains(n)).collect();
    assert_eq!(selected(&["--player", "halvorsen", "--invert"]), others);
    assert_eq!(selected(&["--status", "ok"]).len(), 50);
    assert_eq!(selected(&["--status", "illegal,unfinished"]), Vec::<u64>::new());
}

#[test]
fn openings_match_up_to_symmetry_and_by_name() {
    let rows = all_rows();
    // The 50 games all begin with f5 as WTHOR stores them; d6, f6 and f4 are the three replies.
    let begins = |prefix: &str| numbers_where(&rows, |r| r["moves"].as_str().unwrap().starts_with(prefix));
    let perpendicular = begins("f5d6");
    assert!(!perpendicular.is_empty());
    assert_eq!(selected(&["--opening", "f5d6"]), perpendicular);
    // The same line turned by a symmetry of the start: c4e3 (the half turn), e6f4, d3c5.
    assert_eq!(selected(&["--opening", "c4 e3"]), perpendicular);
    assert_eq!(selected(&["--opening", "1. D3 c5"]), perpendicular);
    assert_eq!(selected(&["--opening", "f5f6"]), begins("f5f6"));
    let tiger = begins("f5d6c3d3c4");
    assert_eq!(selected(&["--opening", "f5d6c3d3c4"]), tiger);
    // Named lines: the Tiger and everything deeper in it.
    assert_eq!(selected(&["--opening-name", "TIGER"]), tiger);
    // Several openings: any of them (with commas or repeated), each up to symmetry.
    let either = numbers_where(&rows, |r| {
        let moves = r["moves"].as_str().unwrap();
        moves.starts_with("f5d6c3d3c4") || moves.starts_with("f5f6")
    });
    assert_eq!(selected(&["--opening", "f5d6c3d3c4,f5f6"]), either);
    assert_eq!(selected(&["--opening", "e6f4c3c4d3", "--opening", "c4c3"]), either);
    // The Tiger's position is reached by a transposition too (c4 before c3).
    let tiger_position = "------------------XO------XXX------OXX-----O-------------------- white";
    let transposed = numbers_where(&rows, |r| {
        let moves = r["moves"].as_str().unwrap();
        moves.starts_with("f5d6c3d3c4") || moves.starts_with("f5d6c4d3c3")
    });
    assert!(transposed.len() > tiger.len());
    assert_eq!(selected(&["--position", tiger_position]), transposed);
    assert_eq!(selected(&["--position", &tiger_position.replace("white", "black")]), Vec::<u64>::new());
    // Several positions: any of them.
    let start = "---------------------------OX------XO--------------------------- black";
    assert_eq!(selected(&["--position", tiger_position, "--position", start]).len(), 50);
    let (_, err, code) = run(&["export", "-t", "games", "--opening", "f5x9"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--opening"), "{err}");
}

#[test]
fn numbers_count_over_all_the_inputs_and_duplicates_keep_the_first() {
    // A game, the same game mirrored, another game, the first again: two games.
    let first = "f5d6c3d3c4f4f6f3e6e7";
    let mirrored = "e6f4c3c4d3d6f6c6f5g5";
    let other = "f5f6e6f4e3";
    let input = format!("{first}\n{mirrored}\n{other}\n{first}\n");
    let (out, err, code) = run(&["convert", "--to", "transcript", "--unique"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{first}\n{other}\n"));
    assert!(err.contains("2 not selected"), "{err}");
    // Numbered over all the inputs: stdin's 4 records then the file's 50.
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (out, err, code) =
        run(&["export", "-t", "games", "-f", "json", "-", wtb.to_str().unwrap(), "--games", "2,4-5,54-"], &input);
    assert_eq!(code, 0, "{err}");
    let kept: Vec<(String, u64)> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|r| (r["source"].as_str().unwrap().to_owned(), r["game"].as_u64().unwrap()))
        .collect();
    let file = wtb.to_str().unwrap().to_owned();
    assert_eq!(kept, [("-".to_owned(), 2), ("-".to_owned(), 4), (file.clone(), 1), (file, 50)]);
    let (_, err, code) = run(&["convert", "--to", "transcript", "--games", "0-3"], &input);
    assert_eq!(code, 2);
    assert!(err.contains("numbered from 1"), "{err}");
}

#[test]
fn a_game_asked_for_that_repeats_a_record_left_out_is_a_duplicate() {
    // New games after a base: --games asks for them, --unique leaves out those the base has.
    let first = "f5d6c3d3c4f4f6f3e6e7";
    let other = "f5f6e6f4e3";
    let input = format!("{first}\n{other}\ne6f4c3c4d3d6f6c6f5g5\nf5d6c3d3c4\n");
    let expect = |out: &str, err: &str, code: i32| {
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, "f5d6c3d3c4\n", "{err}");
    };
    let (out, err, code) = run(&["convert", "--to", "transcript", "--unique", "--games", "3-"], &input);
    expect(&out, &err, code);
    assert!(err.contains("3 not selected"), "{err}");
    // Solving (records passed over unread unless --unique needs them) keeps the same ones.
    let (out, err, code) =
        run(&["convert", "--to", "transcript", "--unique", "--games", "3-", "--theoretical", "0"], &input);
    expect(&out, &err, code);
    // puzzles and annotate, which pass over the records --games leaves out, judge them too.
    let (out, err, code) = run(&["puzzles", "-f", "csv", "--unique", "--games", "2-", "-j", "1"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().skip(1).all(|l| !l.starts_with("-,3,")), "{out}");
    assert!(err.contains("in 2 games"), "{err}");
    let (out, err, code) =
        run(&["annotate", "--depth", "1", "-j", "1", "-f", "csv", "-t", "games", "--unique", "--games", "3-"], &input);
    assert_eq!(code, 0, "{err}");
    let games: Vec<&str> = out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(games, ["4"], "{out}");
    // Numbers past the end keep nothing, which is warned of.
    for command in [&["export", "-t", "games"][..], &["convert", "--to", "transcript"], &["validate"], &["stats"]] {
        let args: Vec<&str> = command.iter().copied().chain(["--games", "5-9"]).collect();
        let (out, err, code) = run(&args, &input);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("warning: --games asks for no record the inputs hold"), "{command:?}: {err}");
        assert!(!out.contains("f5"), "{out}");
    }
    let (_, err, _) = run(&["export", "-t", "games", "--games", "4-9"], &input);
    assert!(!err.contains("warning"), "{err}");
    // Without --unique the records left out are not read at all.
    let (out, err, code) = run(&["convert", "--to", "transcript", "--games", "3-"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn a_record_that_does_not_read_is_reported_whatever_is_asked() {
    let input = "[Black \"Ann\"]\n1. f5 d6 *\n\n[Black \"Bob\"]\n1. f5 d6 z9 *\n\n[Black \"Cy\"]\n1. f5 f5 *\n";
    // Bob's record does not read (z9 is no square: its game cannot be set up); Cy's has an
    // illegal move, so it is judged, and refused.
    let (out, err, code) = run(&["convert", "--from", "pgn", "--to", "transcript", "--player", "ann"], input);
    assert_eq!(out, "f5d6\n");
    assert!(err.contains("z9"), "{err}");
    assert!(!err.contains("f5 is illegal") && !err.contains("illegal: "), "{err}");
    assert_eq!(code, 1);
    // Left out by --games, it is not reported.
    let (out, err, code) = run(&["convert", "--from", "pgn", "--to", "transcript", "--games", "1"], input);
    assert_eq!((out.as_str(), code), ("f5d6\n", 0), "{err}");
}

#[test]
fn validate_stats_and_annotate_select_too() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    let halvorsen = selected(&["--player", "halvorsen"]);
    let (out, err, code) = run(&["validate", "-f", "csv", wtb, "--player", "halvorsen"], "");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), halvorsen.len() + 1);
    assert!(err.contains(&format!("{} not selected", 50 - halvorsen.len())), "{err}");
    let (out, _, code) = run(&["stats", "-f", "json", wtb, "--player", "halvorsen"], "");
    assert_eq!(code, 0);
    let games = out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).find(|r| r["name"] == "games").unwrap()
        ["value"]
        .as_u64()
        .unwrap();
    assert_eq!(games, halvorsen.len() as u64);
    // Annotate the first two of Halvorsen's games among records 1-10.
    let among: Vec<u64> = halvorsen.iter().copied().filter(|&n| n <= 10).collect();
    let (out, err, code) = run(
        &[
            "annotate",
            "-f",
            "csv",
            "-t",
            "games",
            "--depth",
            "1",
            "--exact-empties",
            "6",
            wtb,
            "--player",
            "halvorsen",
            "--games",
            "1-10",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let games: Vec<u64> = out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(games, among);
    assert!(err.contains(&format!("{} not selected", 50 - among.len())), "{err}");
}

#[test]
fn eval_selects_too() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    let halvorsen = selected(&["--player", "halvorsen"]);
    let (out, err, code) = run(&["eval", "-f", "csv", "--ply", "20", wtb, "--player", "halvorsen"], "");
    assert_eq!(code, 0, "{err}");
    let games: Vec<u64> = out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(games, halvorsen);
    assert!(out.lines().skip(1).all(|l| l.split(',').nth(2) == Some("40")), "{out}");
    // --check counts the positions of the games kept only.
    let positions = |select: &[&str]| -> u64 {
        let mut args = vec!["eval", "--check", "-f", "json", "-q", wtb];
        args.extend_from_slice(select);
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{err}");
        let all = out.lines().map(|l| serde_json::from_str::<Value>(l).unwrap()).find(|r| r["empties"] == "all");
        all.unwrap()["positions"].as_u64().unwrap()
    };
    let (two, first, second) =
        (positions(&["--games", "1-2"]), positions(&["--games", "1"]), positions(&["--games", "2"]));
    assert!(first > 0 && second > 0 && two == first + second, "{two} {first} {second}");
}

#[test]
fn players_for_player_is_named_as_the_slip_it_is() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (_, err, code) = run(&["convert", "--to", "pgn", wtb.to_str().unwrap(), "--players", "tamenori"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "cannot read tamenori (--players names a WTHOR players file; --player TEXT selects games by name)"
        ),
        "{err}"
    );
    // On other inputs the name files change nothing: said so.
    let (out, err, code) = run(&["convert", "--to", "transcript", "--players", "tamenori"], "f5d6\n");
    assert_eq!((out.as_str(), code), ("f5d6\n", 0));
    assert!(err.contains("--players tamenori is for WTHOR inputs, and none was read"), "{err}");
}

#[test]
fn show_draws_the_first_record_kept_or_every_one() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    let halvorsen = selected(&["--player", "halvorsen"]);
    let dir = std::env::temp_dir().join(format!("kifu-select-show-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_, err, code) = run(&["show", wtb, "--player", "halvorsen", "--all", "-o", dir.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let mut drawn: Vec<u64> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .map(|name| name.trim_start_matches("game-").trim_end_matches(".txt").parse().unwrap())
        .collect();
    drawn.sort_unstable();
    assert_eq!(drawn, halvorsen);
    std::fs::remove_dir_all(&dir).unwrap();
    // Without --all, the first one kept; --game N is record N.
    let (first, _, code) = run(&["show", wtb, "--player", "halvorsen", "--color", "never"], "");
    assert_eq!(code, 0);
    let (numbered, _, _) = run(&["show", wtb, "--game", &halvorsen[0].to_string(), "--color", "never"], "");
    assert_eq!(first, numbered);
    assert!(first.to_lowercase().contains("halvorsen"));
    let (_, err, code) = run(&["show", wtb, "--player", "nobody at all"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no record is selected: 50 records read"), "{err}");
}

/// Runs `kifu annotate` fast (exact from 8 empties, depth 1 before) with `args`.
fn annotate(args: &[&str]) -> (String, String, i32) {
    let mut all = vec!["annotate", "--depth", "1", "--exact-empties", "8", "-j", "1", "-f", "csv", "-t", "games"];
    all.extend_from_slice(args);
    run(&all, "")
}

#[test]
fn shards_of_a_selection_merge_with_selected() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("kifu-select-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (whole, err, code) = annotate(&[wtb, "--player", "halvorsen", "--games", "2-20"]);
    assert_eq!(code, 0, "{err}");
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (_, err, code) = annotate(&[
            wtb,
            "--player",
            "halvorsen",
            "--games",
            "2-20",
            "--shard",
            &shard,
            "-o",
            &path(&format!("s{k}.csv")),
        ]);
        assert_eq!(code, 0, "{err}");
    }
    let shards = [path("s1.csv"), path("s2.csv"), path("s3.csv")];
    let (_, err, code) = run(&[&["merge"], &shards.each_ref().map(String::as_str)[..]].concat(), "");
    assert_eq!(code, 2);
    assert!(err.contains("need --selected"), "{err}");
    let (merged, err, code) = run(&[&["merge", "--selected"], &shards.each_ref().map(String::as_str)[..]].concat(), "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_resumed_run_remembers_the_games_it_kept() {
    // A, B, then A mirrored: --unique keeps A and B.
    let dir = std::env::temp_dir().join(format!("kifu-select-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.txt");
    std::fs::write(&input, "f5d6c3d3c4f4f6f3e6e7\nf5f6e6f4e3\ne6f4c3c4d3d6f6c6f5g5\n").unwrap();
    let out = dir.join("out.csv");
    let (input, out_path) = (input.to_str().unwrap(), out.to_str().unwrap());
    let (whole, err, code) = annotate(&[input, "--unique"]);
    assert_eq!((code, whole.lines().count()), (0, 3), "{err}");
    // A run stopped after its first game: its output and journal, as an interrupted run leaves
    // them (the settings line as this build writes it, read from its refusal of another).
    let (partial, journal) = (dir.join("out.csv.partial"), dir.join("out.csv.partial.log"));
    let entry = |next: usize, bytes: usize| format!("{{\"next\":{next},\"bytes\":{bytes},\"players\":[]}}\n");
    std::fs::write(&partial, "").unwrap();
    std::fs::write(&journal, format!("{{\"settings\":\"other\"}}\n{}", entry(0, 0))).unwrap();
    let (_, err, _) = annotate(&[input, "--unique", "-o", out_path, "--resume"]);
    let now = err.lines().find_map(|l| l.strip_prefix("  now:  ")).expect("the settings now").to_owned();
    let mut lines = whole.split_inclusive('\n');
    let (header, first) = (lines.next().unwrap(), lines.next().unwrap());
    std::fs::write(&partial, format!("{header}{first}")).unwrap();
    let settings = serde_json::json!({ "settings": now }).to_string();
    std::fs::write(&journal, format!("{settings}\n{}{}", entry(0, header.len()), entry(1, header.len() + first.len())))
        .unwrap();
    let (_, err, code) = annotate(&[input, "--unique", "-o", out_path, "--resume"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), whole, "the mirrored A is still a duplicate");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_with_its_pass_written_is_the_same_game_without() {
    let rows = all_rows();
    let passing = rows.iter().find(|r| r["passes"].as_u64() > Some(0)).expect("a game with a pass");
    let n = passing["game"].to_string();
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (pgn, _, _) = run(&["convert", wtb.to_str().unwrap(), "--games", &n, "--to", "pgn", "-q"], "");
    let (transcript, _, _) = run(&["convert", wtb.to_str().unwrap(), "--games", &n, "--to", "transcript", "-q"], "");
    assert!(pgn.contains(" -- ") && !transcript.contains("pass"), "{pgn}{transcript}");
    let dir = std::env::temp_dir().join(format!("kifu-select-pass-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("g.pgn"), dir.join("g.txt"));
    std::fs::write(&a, pgn).unwrap();
    std::fs::write(&b, transcript).unwrap();
    let (out, err, code) =
        run(&["export", "-t", "games", "-f", "json", a.to_str().unwrap(), b.to_str().unwrap(), "--unique"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn criteria_that_keep_nothing_are_warned_of() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let wtb = wtb.to_str().unwrap();
    for (option, value, warning) in [
        ("--opening", "f5f5", "--opening f5f5: not a beginning of standard Othello"),
        ("--opening-name", "zzz", "--opening-name zzz: no named line holds it"),
    ] {
        let (out, err, code) = run(&["convert", wtb, "--to", "transcript", option, value], "");
        assert_eq!((out.as_str(), code), ("", 0));
        assert!(err.contains(warning), "{err}");
    }
    let (out, err, _) = run(&["convert", wtb, "--to", "transcript", "--invert"], "");
    assert_eq!(out.lines().count(), 50);
    assert!(err.contains("--invert with no criteria"), "{err}");
    // The records that do not read, alone.
    let (out, err, code) = run(&["convert", "--to", "transcript", "--status", "parse_error"], "f5d6\nf5z9\n");
    assert_eq!((out.as_str(), code), ("", 1));
    assert!(err.contains("`z9` is not a move") && err.contains("1 not selected"), "{err}");
}

#[test]
fn unique_keeps_every_illegal_record_and_ignores_a_bare_invert() {
    // The second record has an illegal move after the first's moves: not a duplicate of it.
    let input = "f5d6c3d3c4\nf5d6c3d3c4a1\ne6f4c3c4d3\n";
    let (out, err, code) = run(&["convert", "--to", "transcript", "--unique"], input);
    assert_eq!(out, "f5d6c3d3c4\n");
    assert!(err.contains("a1") && err.contains("1 with errors"), "{err}");
    assert_eq!(code, 1);
    let (inverted, err, _) = run(&["convert", "--to", "transcript", "--unique", "--invert"], input);
    assert_eq!(inverted, out, "{err}");
    assert!(err.contains("--invert with no criteria to invert changes nothing"), "{err}");
}

#[test]
fn unique_keeps_forfeits_and_other_players_games_given_up_alike() {
    // Two forfeits; two games resigned after f5 between other players; the second of those
    // again, its colours swapped: only that last one is a duplicate.
    let game = |event: &str, black: &str, white: &str, moves: &str, result: &str| {
        format!(
            "[Event \"{event}\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    };
    let input = game("A", "Ann", "Bob", "", "1-0")
        + &game("B", "Cy", "Di", "", "0-1")
        + &game("B", "Eve", "Fay", "1. f5", "1-0")
        + &game("C", "Gil", "Hal", "1. f5", "0-1")
        + &game("C", "hal", "Gil", "1. f5", "0-1");
    let (out, err, code) =
        run(&["export", "-t", "games", "--unique", "--columns", "game,black_player", "--from", "pgn"], &input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "game,black_player\n1,Ann\n2,Cy\n3,Eve\n4,Gil\n", "{err}");
}

#[test]
fn shards_of_a_unique_selection_merge_into_one_run() {
    // Games, then the same games turned: the duplicates fall in the second shard.
    let dir = std::env::temp_dir().join(format!("kifu-select-unique-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("games.txt");
    std::fs::write(&input, "f5d6c3d3c4f4f6\nf5f6e6f4e3c5\nc4e3f6e6f5c5c3\nd3c5f6f5e6\n").unwrap();
    let input = input.to_str().unwrap();
    let (whole, err, code) = annotate(&[input, "--unique"]);
    assert_eq!((code, whole.lines().count()), (0, 4), "{err}");
    let path = |k: u32| dir.join(format!("s{k}.csv")).to_str().unwrap().to_owned();
    for k in 1..=2 {
        let (_, err, code) = annotate(&[input, "--unique", "--shard", &format!("{k}/2"), "-o", &path(k)]);
        assert_eq!(code, 0, "{err}");
    }
    let (merged, err, code) = run(&["merge", "--selected", &path(1), &path(2)], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--games` with an end stops reading after its last number: a broken record after it is
/// never read.
#[test]
fn games_with_an_end_stop_reading_there() {
    let input = "f5 d6 c3 d3 c4\nf5 f6 e6 f4\nthis is no game\n";
    let (out, err, code) = run(&["validate", "--games", "1-2", "-f", "csv", "-q"], input);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(!out.contains("parse_error"), "{out}");
    let (out, _, _) = run(&["validate", "--games", "2-", "-f", "csv", "-q"], input);
    assert!(out.contains("parse_error"), "{out}");
}
