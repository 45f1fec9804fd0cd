//! `kifu annotate` and `kifu merge` end to end: exact values that agree with the game's end,
//! the same output for any thread count and for shards merged, resuming a killed run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

fn kifu() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kifu"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// A sample, by its path from the crate's folder (where the commands run).
fn sample(name: &str) -> PathBuf {
    Path::new("samples").join(name)
}

/// Runs `kifu annotate` with these arguments.
fn run(args: &[&str]) -> Output {
    let out = kifu().arg("annotate").args(args).output().unwrap();
    assert!(out.status.code().is_some(), "killed: {out:?}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// CSV rows as maps from column to value.
fn rows(csv: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| headers.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.to_owned(), v.to_owned())).collect())
        .collect()
}

#[test]
fn exact_values_end_in_the_final_margin_and_best_is_never_below_played() {
    let pgn = sample("wthor-2004.pgn");
    let out = run(&[pgn.to_str().unwrap(), "-q", "-f", "csv", "--depth", "4", "--exact-empties", "14", "-j", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = rows(&stdout(&out));
    // Black's final margins of the three games, as their PGN results say (41-23, 33-31, 28-36).
    let margins = [18, 2, -8];
    for (game, margin) in (1..=3).zip(margins) {
        let plies: Vec<_> = rows.iter().filter(|r| r["game"] == game.to_string()).collect();
        let last = plies.last().unwrap();
        let played: i32 = last["played_score"].parse().unwrap();
        let sign = if last["color"] == "black" { 1 } else { -1 };
        assert_eq!(played * sign, margin, "game {game}");
        for r in &plies {
            let (best, played): (i32, i32) = (r["best_score"].parse().unwrap(), r["played_score"].parse().unwrap());
            assert!(best >= played);
            assert_eq!(r["loss"], (best - played).to_string());
            let empties: u32 = r["empties"].parse().unwrap();
            assert_eq!(r["exact"] == "true", empties <= 14, "{r:?}");
        }
        // In the exact part each played value is minus the next best value.
        for pair in plies.windows(2).filter(|w| w[0]["exact"] == "true") {
            let played: i32 = pair[0]["played_score"].parse().unwrap();
            let next_best: i32 = pair[1]["best_score"].parse().unwrap();
            assert_eq!(played, -next_best);
        }
    }
}

#[test]
fn a_game_as_a_text_table() {
    let pgn = sample("wthor-2004.pgn");
    let out = run(&[pgn.to_str().unwrap(), "-q", "--depth", "4", "--exact-empties", "12", "--shard", "1/3"]);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("a_game_as_a_text_table", stdout(&out));
}

/// `kifu annotate` with small settings on the sample PGN, to stdout.
fn annotate(extra: &[&str]) -> String {
    let pgn = sample("wthor-2004.pgn");
    let mut args = vec![pgn.to_str().unwrap(), "-q", "--depth", "4", "--exact-empties", "12"];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    stdout(&out)
}

#[test]
fn one_thread_and_two_give_the_same_bytes() {
    for format in ["csv", "text", "ggf"] {
        assert_eq!(annotate(&["-f", format, "-j", "1"]), annotate(&["-f", format, "-j", "2"]), "{format}");
    }
}

/// A node budget per position (`--nodes`) chooses each search's depth, the same on any thread
/// count, and deeper than the default where the budget allows.
#[test]
fn a_node_budget_gives_the_same_bytes_on_any_thread_count() {
    let pgn = sample("wthor-2004.pgn");
    let budget = [pgn.to_str().unwrap(), "-q", "--depth", "30", "--nodes", "30000", "-f", "csv"];
    let annotate = |threads: &str| {
        let out = run(&[&budget[..], &["-j", threads]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
    };
    let one = annotate("1");
    assert_eq!(one, annotate("2"));
    let depths: Vec<u32> =
        rows(&one).iter().filter(|r| r["exact"] == "false").map(|r| r["depth"].parse().unwrap()).collect();
    assert!(depths.iter().any(|&d| d > 10) && depths.iter().all(|&d| d < 30), "{depths:?}");
}

#[test]
fn three_shards_merged_are_one_run() {
    let dir = tempfile::tempdir().unwrap();
    for (format, table) in [
        ("csv", "plies"),
        ("csv", "players"),
        ("json", "games"),
        ("csv", "games"),
        ("json", "players"),
        ("text", "plies"),
        ("pgn", "plies"),
    ] {
        let whole = annotate(&["-f", format, "-t", table]);
        let mut shards = Vec::new();
        for k in 1..=3 {
            let path = dir.path().join(format!("{format}-{table}-{k}"));
            let shard = format!("{k}/3");
            annotate(&["-f", format, "-t", table, "--shard", &shard, "-o", path.to_str().unwrap()]);
            shards.push(path);
        }
        let mut args = vec!["merge"];
        args.extend(shards.iter().map(|p| p.to_str().unwrap()));
        let merged = kifu().args(&args).output().unwrap();
        assert_eq!(merged.status.code(), Some(0), "{}", String::from_utf8_lossy(&merged.stderr));
        assert_eq!(stdout(&merged), whole, "{format} {table}");
        // Shards out of order, or one given twice, are refused where their rows say so.
        if table != "players" && format != "text" && format != "pgn" {
            for order in [[1, 0, 2], [0, 0, 2]] {
                let mut args = vec!["merge"];
                args.extend(order.iter().map(|&i| shards[i].to_str().unwrap()));
                let refused = kifu().args(&args).output().unwrap();
                assert_eq!(refused.status.code(), Some(2), "{format} {table} {order:?}");
                assert!(String::from_utf8_lossy(&refused.stderr).contains("in shard order"), "{format} {table}");
            }
        }
        // A shard from stdin is one like any other.
        let stdin = std::fs::read_to_string(&shards[1]).unwrap();
        let piped = kifu()
            .args(["merge", shards[0].to_str().unwrap(), "-", shards[2].to_str().unwrap()])
            .write_stdin_bytes(stdin);
        assert_eq!(piped, whole, "{format} {table} with a shard from stdin");
        // An empty CSV shard (a run that failed), or a text file that is no shard, is refused.
        if format == "csv" || format == "text" {
            let odd = dir.path().join("odd");
            std::fs::write(&odd, if format == "csv" { "" } else { "<html>a page</html>\n" }).unwrap();
            let refused = kifu().args(["merge", shards[0].to_str().unwrap(), odd.to_str().unwrap()]).output().unwrap();
            let stderr = String::from_utf8_lossy(&refused.stderr);
            assert_eq!(refused.status.code(), Some(2), "{format} {table}: {stderr}");
            assert!(stderr.contains("is empty") || stderr.contains("no players table"), "{stderr}");
        }
        // The games table numbers every record: a shard left out shows as a gap.
        if table == "games" {
            for left in [[1, 2], [0, 2]] {
                let mut args = vec!["merge"];
                args.extend(left.iter().map(|&i| shards[i].to_str().unwrap()));
                let refused = kifu().args(&args).output().unwrap();
                assert_eq!(refused.status.code(), Some(2), "{format} {table} {left:?}");
                let stderr = String::from_utf8_lossy(&refused.stderr);
                assert!(stderr.contains("a shard is missing or was cut short"), "{stderr}");
            }
        }
    }
}

#[test]
fn an_illegal_game_is_annotated_up_to_its_illegal_move_and_the_others_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.txt");
    std::fs::write(&input, "f5d6c3d3c4f4\nf5d6c3d3c4a1\nf5f6e6f4\n").unwrap();
    let out = run(&[input.to_str().unwrap(), "-q", "-f", "csv", "-t", "games", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let games = rows(&stdout(&out));
    assert_eq!(games.len(), 3);
    assert_eq!(games[1]["plies"], "5");
    assert!(games[1]["error"].contains("illegal"), "{:?}", games[1]);
    assert_eq!(games[2]["plies"], "4");
    // On stderr, the illegal move is pointed at in the file, as validate points at it.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("games.txt:2:11: record 2: annotated up to move 6, a1, which is illegal"), "{stderr}");
    assert!(stderr.contains("2 | f5d6c3d3c4a1\n  |           ^^"), "{stderr}");
    // A token that is no move, or a square off the board: annotated up to it. A record that does
    // not read at all keeps its row, figures empty, the reason in `error`.
    std::fs::write(&input, "f5d6c3d3c4f4\nf5zz\nf5f6e6f4\nzz\nf5d6i3\n").unwrap();
    let out = run(&[input.to_str().unwrap(), "-f", "csv", "-t", "games", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let table = rows(&stdout(&out));
    assert_eq!(table.iter().map(|r| r["game"].as_str()).collect::<Vec<_>>(), ["1", "2", "3", "4", "5"]);
    assert_eq!((table[1]["plies"].as_str(), table[1]["black_moves"].as_str()), ("1", "1"));
    assert!(
        table[1]["error"].contains("annotated up to ply 2, which does not read: `zz` is not a move"),
        "{:?}",
        table[1]
    );
    assert_eq!((table[3]["plies"].as_str(), table[3]["black_moves"].as_str()), ("", ""));
    assert!(table[3]["error"].contains("`zz` is not a move"), "{:?}", table[3]);
    assert_eq!(table[4]["plies"], "2");
    assert_eq!(table[4]["error"], "annotated up to ply 3: i3 is off the board");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("games.txt:5:5: record 5: annotated up to move 3, i3, which is off the board"), "{stderr}");
}

#[test]
fn a_killed_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample("logbook.gam");
    let settings = ["--depth", "6", "--exact-empties", "14", "-q", "-f", "csv", "-j", "1"];
    let whole = dir.path().join("whole.csv");
    let mut args = vec![log.to_str().unwrap(), "-o", whole.to_str().unwrap()];
    args.extend(settings);
    assert_eq!(run(&args).status.code(), Some(0));
    let expected = std::fs::read(&whole).unwrap();

    let out = dir.path().join("out.csv");
    let journal = dir.path().join("out.csv.partial.log");
    let mut args = vec![log.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend(settings);
    // Killed once a few games are done (a run that ends first is resumed as it stands).
    let mut child = kifu().arg("annotate").args(&args).spawn().unwrap();
    loop {
        let lines = std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count());
        if lines >= 4 || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    child.wait().unwrap();
    if !out.exists() {
        assert!(!out.exists(), "no output until the run ends");
        args.push("--resume");
        let resumed = run(&args);
        assert_eq!(resumed.status.code(), Some(0), "{}", String::from_utf8_lossy(&resumed.stderr));
    }
    assert_eq!(std::fs::read(&out).unwrap(), expected);
    assert!(!journal.exists());
}

/// `--resume` goes on only with the options the interrupted run had: its journal's first line
/// holds them.
#[test]
fn resume_refuses_other_options() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample("logbook.gam");
    let out = dir.path().join("out.csv");
    let partial = dir.path().join("out.csv.partial");
    let journal = dir.path().join("out.csv.partial.log");
    let args = [log.to_str().unwrap(), "-o", out.to_str().unwrap(), "--depth", "2", "-q", "-f", "csv", "-j", "1"];
    // A complete run's journal is gone; one that stopped says what it was run with.
    assert_eq!(run(&args).status.code(), Some(0));
    assert!(!journal.exists());
    // Resumed once finished (a batch run again), it has nothing to do: the file stays.
    let finished = std::fs::read(&out).unwrap();
    let again = run(&[&args[..], &["--resume"]].concat());
    assert_eq!(again.status.code(), Some(0), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), finished);
    assert!(!partial.exists() && !journal.exists());
    std::fs::write(&partial, "").unwrap();
    std::fs::write(&journal, "{\"settings\":\"kifu 0.0.0; other\"}\n{\"next\":0,\"bytes\":0,\"players\":[]}\n")
        .unwrap();
    let refused = run(&[&args[..], &["--resume"]].concat());
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(stderr.contains("cannot resume:") && stderr.contains("then: kifu 0.0.0; other"), "{stderr}");
    assert!(partial.exists() && journal.exists(), "kept for a resume with the right options");
    // A journal of this kifu run at another depth: the message names the one option that differs.
    let now = stderr.lines().find_map(|l| l.strip_prefix("  now:  ")).unwrap();
    let then = now.replace("depth: Some(2)", "depth: Some(3)");
    assert_ne!(then, now);
    let settings = serde_json::json!({ "settings": then }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let refused = run(&[&args[..], &["--resume"]].concat());
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(
        stderr.ends_with("was written with other options (or another kifu):\n  depth: then 3, now 2\n"),
        "{stderr}"
    );
    // A depth not given is named by the default it stands for.
    let then = now.replace("depth: Some(2)", "depth: None");
    let settings = serde_json::json!({ "settings": then }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let stderr = String::from_utf8_lossy(&run(&[&args[..], &["--resume"]].concat()).stderr).to_string();
    assert!(stderr.ends_with("  depth: then the default (10; 6 for other variants), now 2\n"), "{stderr}");
    // Options are named as the command line writes their values.
    let then = now.replace("format: ", "format: x").replace("table: ", "table: y");
    let settings = serde_json::json!({ "settings": then }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let stderr = String::from_utf8_lossy(&run(&[&args[..], &["--resume"]].concat()).stderr).to_string();
    assert!(stderr.ends_with("  format: then xcsv, now csv\n  table: then yplies, now plies\n"), "{stderr}");
    // Options written without a structure around them are named too.
    let hash = now.split("hash: ").nth(1).unwrap().split(';').next().unwrap().to_owned();
    let then = now.replacen("hash: ", "hash: 1", 1).replacen("marks: [", "marks: [1, ", 1);
    let settings = serde_json::json!({ "settings": then }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let stderr = String::from_utf8_lossy(&run(&[&args[..], &["--resume"]].concat()).stderr).to_string();
    let marks = now.split("marks: [").nth(1).unwrap().split(']').next().unwrap().to_owned();
    assert!(
        stderr.ends_with(&format!("  marks: then [1, {marks}], now [{marks}]\n  hash: then 1{hash}, now {hash}\n")),
        "{stderr}"
    );
    // A selection now that the run did not have: only the criteria given are named.
    let settings = serde_json::json!({ "settings": now }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let selecting = [&args[..], &["--resume", "--player", "Lee", "--year", "2004"]].concat();
    let stderr = String::from_utf8_lossy(&run(&selecting).stderr).to_string();
    assert!(stderr.ends_with("  player: then none, now [\"Lee\"]\n  year: then none, now [2004]\n"), "{stderr}");
    // Rules as their spec, not their board's cells.
    let settings = serde_json::json!({ "settings": now }).to_string();
    std::fs::write(&journal, format!("{settings}\n{{\"next\":0,\"bytes\":0,\"players\":[]}}\n")).unwrap();
    let anti = [&args[..], &["--resume", "--rules", "anti"]].concat();
    let stderr = String::from_utf8_lossy(&run(&anti).stderr).to_string();
    assert!(stderr.ends_with("  rules: then none, now Rules(\"anti\")\n"), "{stderr}");
}

#[test]
fn the_games_table_of_the_sample_as_csv() {
    insta::assert_snapshot!("the_games_table_of_the_sample_as_csv", annotate(&["-f", "csv", "-t", "games"]));
}

/// Annotated plies of `tests/data/variants.pgn` (a 6x6, an anti 6x6 and a 10x10 game) as CSV
/// rows.
fn variant_plies(extra: &[&str]) -> Vec<std::collections::HashMap<String, String>> {
    let mut args = vec!["tests/data/variants.pgn", "-f", "csv", "-q", "-j", "1"];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    rows(&stdout(&out))
}

#[test]
fn games_of_other_variants_are_annotated_under_their_own_scoring() {
    // The 10x10 game at a small depth and exact part, to keep the test short.
    let plies = variant_plies(&["--depth", "3", "--exact-empties", "10"]);
    let games = ["1", "2", "3"];
    for game in games {
        let ours: Vec<_> = plies.iter().filter(|r| r["game"] == game).collect();
        assert!(!ours.is_empty(), "game {game} annotated");
        for r in &ours {
            let (best, played) = (r["best_score"].parse::<i32>().unwrap(), r["played_score"].parse::<i32>().unwrap());
            assert!(best >= played, "game {game} ply {}", r["ply"]);
            // The generic engine does not prune: estimates say 100%.
            assert_eq!(r["selectivity"], "100");
            if r["empties"].parse::<u32>().unwrap() <= 10 {
                assert_eq!(r["exact"], "true", "game {game} ply {}", r["ply"]);
            }
        }
        // The last ply's value is the game's final margin for its mover (black's margins: +6,
        // -10 in anti, where black had 10 discs more, and +32).
        let last = ours.last().unwrap();
        let black = match game {
            "1" => 6,
            "2" => -10,
            _ => 32,
        };
        let sign = if last["color"] == "black" { 1 } else { -1 };
        assert_eq!(last["played_score"].parse::<i32>().unwrap(), sign * black, "game {game}");
        assert_eq!(last["exact"], "true");
    }
    // The same bytes on two threads.
    let one = run(&["tests/data/variants.pgn", "-f", "csv", "-q", "-j", "1", "--depth", "3", "--exact-empties", "10"]);
    let two = run(&["tests/data/variants.pgn", "-f", "csv", "-q", "-j", "2", "--depth", "3", "--exact-empties", "10"]);
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn the_exact_part_of_a_variant_game_agrees_with_solve() {
    // The 6x6 game: every ply from 14 empties on is exact, and its best value is what
    // `kifu solve` gives for the position.
    let plies = variant_plies(&["--depth", "2"]);
    let six: Vec<_> = plies.iter().filter(|r| r["game"] == "1" && r["exact"] == "true").collect();
    assert!(six.len() >= 10, "{}", six.len());
    let moves: Vec<&str> = plies.iter().filter(|r| r["game"] == "1").map(|r| r["move"].as_str()).collect();
    for r in six.iter().filter(|r| r["move"] != "pass").take(3) {
        let ply: usize = r["ply"].parse().unwrap();
        let before = moves[..ply - 1].join(" ");
        let out = kifu()
            .args(["solve", "-", "--rules", "othello,size=6", "-f", "csv", "-q"])
            .write_stdin_bytes(format!("{before}\n"));
        let solved = rows(&out);
        assert_eq!(solved[0]["score"], r["best_score"], "ply {ply}");
        assert_eq!(solved[0]["exact"], "true");
    }
}

trait Stdin {
    fn write_stdin_bytes(&mut self, input: String) -> String;
}

impl Stdin for Command {
    /// Runs the command with `input` on stdin; its stdout.
    fn write_stdin_bytes(&mut self, input: String) -> String {
        use std::io::Write;
        let mut child = self.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    }
}

/// Under the voluntary-pass rule a pass is a choice: it gets a best move, a loss and a mark,
/// and counts in the players' figures; a forced pass does not.
#[test]
fn a_voluntary_pass_is_judged_like_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("vp.json");
    std::fs::write(
        &game,
        r#"{"tags":{"rules":"othello,size=6,pass=voluntary"},"moves":[{"move":"e4"},{"move":"c5"},{"move":"b6"},{"move":"pass"},{"move":"pass"}]}"#,
    )
    .unwrap();
    let out = run(&[game.to_str().unwrap(), "--depth", "2", "--exact-empties", "10", "-j", "1", "-q", "-f", "csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let plies = rows(&stdout(&out));
    let pass = &plies[3];
    assert_eq!((pass["move"].as_str(), pass["best_move"].as_str()), ("pass", "c6"), "{pass:?}");
    assert!(pass["loss"].parse::<i32>().unwrap() > 12 && pass["mark"] == "??", "{pass:?}");
    let games = run(&[
        game.to_str().unwrap(),
        "--depth",
        "2",
        "--exact-empties",
        "10",
        "-j",
        "1",
        "-q",
        "-f",
        "csv",
        "-t",
        "games",
    ]);
    let games = rows(&stdout(&games));
    assert_eq!(games[0]["white_moves"], "2", "{games:?}");
}

#[test]
fn annotated_pgn_writes_dates_and_results_as_convert_does() {
    let Some(ggf) = common::shared("ggf/test2.ggf") else { return };
    let out = run(&[ggf.to_str().unwrap(), "-q", "-j", "1", "--depth", "4", "-f", "pgn"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let converted = kifu().args(["convert", ggf.to_str().unwrap(), "--to", "pgn", "-q"]).output().unwrap();
    let tags = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("[Date") || l.starts_with("[Result"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let annotated = tags(&stdout(&out));
    assert!(
        annotated.contains(&"[Date \"2000.01.08\"]".to_owned()),
        "GGS's seconds since 1970 as a PGN date: {annotated:?}"
    );
    assert_eq!(annotated, tags(&stdout(&converted)));
}

/// A 6x6 game (played by `kifu play --rules othello,size=6`), black winning 27-9.
const SIX_BY_SIX: &str = "c2b4a5a4a3d2c5b1e4d5c6b3a2f4d1e5e3f3e2b6a6d6f5f6e6e1f1f2b5c1a1b2";

/// The tags and start board of a GGF or PGN game (what comes before its moves).
fn record_head(format: &str, text: &str) -> String {
    match format {
        "ggf" => text[..text.find("]B[").unwrap()].to_owned(),
        _ => text.lines().filter(|l| l.starts_with('[')).collect::<Vec<_>>().join("\n"),
    }
}

/// Annotated GGF and PGN games carry their rules (and the rest of their tags and start board) as
/// `kifu convert` writes them, and read back as the same games: a 6x6 game had been written as
/// an 8x8 one.
#[test]
fn annotated_games_are_written_with_their_rules_as_convert_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g6.txt");
    std::fs::write(&game, format!("{SIX_BY_SIX}\n")).unwrap();
    let game = game.to_str().unwrap();
    for format in ["ggf", "pgn"] {
        let out = run(&[game, "--rules", "othello,size=6", "-f", format, "--depth", "2", "-j", "1", "-q"]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let annotated = stdout(&out);
        let converted =
            kifu().args(["convert", game, "--rules", "othello,size=6", "--to", format, "-q"]).output().unwrap();
        assert_eq!(record_head(format, &annotated), record_head(format, &stdout(&converted)), "{format}");
        let written = dir.path().join(format!("annotated.{format}"));
        std::fs::write(&written, &annotated).unwrap();
        let validated = kifu().args(["validate", written.to_str().unwrap(), "-q"]).output().unwrap();
        assert_eq!(validated.status.code(), Some(0), "{format}: {annotated}");
    }
}

/// A logbook game's score (the plain difference) is written as the rules' margin, as `kifu
/// convert` writes it: WTHOR 2004's fifth game leaves one square empty (+59 plain, +60).
#[test]
fn annotated_logbook_games_have_the_rules_margin() {
    let line = "+f5-d6+c5-f6+e6-f4+c6-e7+d3-c2+f8-e8+d8-c3+f7-d7+c4-b4+c8-b6+g5-h5+e3-g6+c7-e2+a6-b7+b5-a5\
                +a4-g7+a8-a7+b8-a3+h4-h3+g4-g3+a2+c1-b3+g8-d1+h8-b1+f1-d2+b2-e1+a1+h7+h6-f3+g2-f2+h2+g1: +59\n";
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("one.gam");
    std::fs::write(&game, line).unwrap();
    let game = game.to_str().unwrap();
    let out = run(&[game, "-f", "ggf", "--depth", "1", "--exact-empties", "4", "-j", "1", "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let annotated = stdout(&out);
    assert!(annotated.contains("RE[+60.000]"), "{annotated}");
    let converted = kifu().args(["convert", game, "--to", "ggf", "-q"]).output().unwrap();
    assert_eq!(record_head("ggf", &annotated), record_head("ggf", &stdout(&converted)));
}

/// GGF cannot name every rule: annotate warns of games written without theirs, as convert does,
/// unless they came from `--rules`.
#[test]
fn annotated_ggf_warns_of_rules_it_cannot_name() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("ties.pgn");
    std::fs::write(&game, format!("[Rules \"othello,size=6,ties=second\"]\n\n{SIX_BY_SIX}\n")).unwrap();
    let game = game.to_str().unwrap();
    let warning =
        "warning: 1 record of other rules than ggf can name: read it back with --rules othello,size=6,ties=second";
    let converted = kifu().args(["convert", game, "--to", "ggf", "-q"]).output().unwrap();
    assert!(String::from_utf8_lossy(&converted.stderr).contains(&format!("kifu convert: {warning}")));
    let annotate = |extra: &[&str]| {
        let mut args = vec![game, "--depth", "2", "-j", "1", "-q"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap()
    };
    assert!(annotate(&["-f", "ggf"]).contains(&format!("kifu annotate: {warning}")));
    assert!(!annotate(&["-f", "ggf", "--rules", "othello,size=6,ties=second"]).contains("warning"));
    assert!(!annotate(&["-f", "pgn"]).contains("warning"));
}

/// `text` with every square name of a `size`x`size` board (up to 9) that stands alone (`c2`,
/// not `1e2`) numbered from the other side (`c5` on 6x6): the names under `rows=bottom` of the
/// squares named top-down.
fn rows_flipped(text: &str, size: u8) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    for i in 0..b.len().saturating_sub(1) {
        let square = (b'a'..b'a' + size).contains(&b[i]) && (b'1'..b'1' + size).contains(&b[i + 1]);
        let alone =
            (i == 0 || !b[i - 1].is_ascii_alphanumeric()) && b.get(i + 2).is_none_or(|c| !c.is_ascii_alphanumeric());
        if square && alone {
            out[i + 1] = b'0' + size + 1 - (b[i + 1] - b'0');
        }
    }
    String::from_utf8(out).unwrap()
}

/// On 8x8, rows numbered from the bottom change only the names: the fast engine annotates the
/// game (it had fallen back to the generic one, ten times slower, with its other defaults),
/// and the output is that of the same game under `rows=top`, nodes included, names flipped.
#[test]
fn rows_from_the_bottom_keep_the_fast_engine() {
    let game = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
    let moves: Vec<&str> = (0..game.len()).step_by(2).map(|i| &game[i..i + 2]).collect();
    let top = &format!("{}\n", moves.join(" "));
    let bottom = rows_flipped(top, 8);
    let annotate = |rules: &str, game: &str| {
        kifu()
            .args([
                "annotate",
                "-",
                "--rules",
                rules,
                "-f",
                "csv",
                "--depth",
                "4",
                "--exact-empties",
                "12",
                "-j",
                "1",
                "-q",
            ])
            .write_stdin_bytes(game.to_owned())
    };
    let got = annotate("othello,rows=bottom", &bottom);
    assert!(got.lines().nth(1).unwrap().contains(",87,"), "ProbCut at the fast engine's 87%: {got}");
    assert_eq!(got, rows_flipped(&annotate("othello", top), 8));
}

/// Under `rows=bottom` every output names the squares (played, best, the decisive mistake, an
/// illegal move) as the rules do: it had named them top-down. The same game annotated under
/// `rows=top` gives the same output with the names flipped.
#[test]
fn squares_are_named_as_the_rules_number_the_rows() {
    let moves: Vec<&str> = (0..SIX_BY_SIX.len()).step_by(2).map(|i| &SIX_BY_SIX[i..i + 2]).collect();
    let top = format!("{}\n", moves.join(" "));
    let bottom = rows_flipped(&top, 6);
    assert!(bottom.starts_with("c5 b3 a2 a3 "), "{bottom}");
    let annotate = |rules: &str, format: &str, game: &str| {
        kifu()
            .args(["annotate", "-", "--rules", rules, "-f", format, "--depth", "2", "-j", "1", "-q"])
            .write_stdin_bytes(game.to_owned())
    };
    for format in ["text", "csv", "json", "pgn", "ggf"] {
        let expected = rows_flipped(&annotate("othello,size=6", format, &top), 6);
        let got = annotate("othello,size=6,rows=bottom", format, &bottom).replace(",rows=bottom", "");
        // GGF's start board is written from rank 1, which is another row; the node counts of
        // the generic search differ a little between the two rules.
        let compared = |text: &str| match format {
            "ggf" => text[text.find("]B[").unwrap()..].to_owned(),
            "csv" => text.lines().map(|l| l.rsplit_once(',').unwrap().0).collect::<Vec<_>>().join("\n"),
            "json" => text.lines().map(|l| &l[..l.find(",\"nodes\"").unwrap()]).collect::<Vec<_>>().join("\n"),
            _ => text.to_owned(),
        };
        assert_eq!(compared(&got), compared(&expected), "{format}");
    }
    // a1 flips nothing after c5 b3: its name in the error is the record's (it had been a6).
    let dir = tempfile::tempdir().unwrap();
    let illegal = dir.path().join("illegal.txt");
    std::fs::write(&illegal, "c5 b3 a1\n").unwrap();
    let out =
        run(&[illegal.to_str().unwrap(), "--rules", "othello,size=6,rows=bottom", "-f", "csv", "-t", "games", "-q"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("annotated up to the illegal move: ply 3: a1 is illegal"), "{}", stdout(&out));
}

/// The games written back keep the record's own comments and move times, the analysis after them.
#[test]
fn annotated_games_keep_their_comments_and_times() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("club.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Club night\"]\n[Date \"2024.03.05\"]\n\n1. f5 {my favourite} d6 2. c3 {time trouble [%emt 0:01:05]} d3 *\n",
    )
    .unwrap();
    let out = stdout(&run(&[pgn.to_str().unwrap(), "-q", "-j", "1", "--depth", "2", "-f", "pgn"]));
    assert!(out.contains("my favourite; ~"), "{out}");
    assert!(out.contains("time trouble; ") && out.contains("[%emt 0:01:05]"), "{out}");
    let ggf = dir.path().join("t.ggf");
    std::fs::write(&ggf, "(;GM[Othello]TY[8]B[f5//1.5]W[d6/-2.39/0.01];)\n").unwrap();
    let out = stdout(&run(&[ggf.to_str().unwrap(), "-q", "-j", "1", "--depth", "2", "-f", "ggf"]));
    assert!(out.contains("/0.01]"), "the move time stays: {out}");
    // Annotated again (deeper), a game keeps its own comments and gets only the new analysis.
    let again = dir.path().join("again.pgn");
    let first = stdout(&run(&[pgn.to_str().unwrap(), "-q", "-j", "1", "--depth", "2", "-f", "pgn"]));
    std::fs::write(&again, &first).unwrap();
    let second = stdout(&run(&[again.to_str().unwrap(), "-q", "-j", "1", "--depth", "4", "-f", "pgn"]));
    assert_eq!(second.matches("(depth").count(), 4, "{second}");
    assert!(!second.contains("(depth 2") && second.contains("my favourite; ~"), "{second}");
    assert_eq!(second.matches("my favourite").count(), 1, "{second}");
    // The text heading gives the date as ISO.
    let out = stdout(&run(&[pgn.to_str().unwrap(), "-q", "-j", "1", "--depth", "2"]));
    assert!(out.lines().next().unwrap().ends_with("Club night, 2024-03-05"), "{out}");
}

/// A side without a move has no average loss or accuracy (not 0 and 100%).
#[test]
fn a_side_without_a_move_has_no_figures() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("one.txt");
    std::fs::write(&game, "f5\n").unwrap();
    let out = stdout(&run(&[game.to_str().unwrap(), "-q", "-j", "1", "--depth", "2", "-f", "csv", "-t", "games"]));
    let row = &rows(&out)[0];
    assert_eq!(
        (row["white_moves"].as_str(), row["white_accuracy"].as_str(), row["white_avg_loss"].as_str()),
        ("0", "", "")
    );
    assert_eq!(row["black_moves"], "1");
    assert!(!row["black_accuracy"].is_empty());
}

/// The players table counts every player of a game analysed, one without a move too, and a
/// game of two unnamed players once.
#[test]
fn players_are_counted_by_game() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("club.pgn");
    std::fs::write(
        &pgn,
        "[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 *\n\n[Black \"Cy\"]\n[White \"Ann\"]\n\n1. f5 d6 *\n\n1. f5 d6 c3 *\n",
    )
    .unwrap();
    let out = stdout(&run(&[pgn.to_str().unwrap(), "-q", "-j", "1", "--depth", "2", "-f", "csv", "-t", "players"]));
    let rows = rows(&out);
    let row = |name: &str| rows.iter().find(|r| r["player"] == name).unwrap_or_else(|| panic!("{name}: {out}"));
    assert_eq!((row("Ann")["games"].as_str(), row("Ann")["moves"].as_str()), ("2", "2"));
    assert_eq!(
        (row("Bob")["games"].as_str(), row("Bob")["moves"].as_str(), row("Bob")["accuracy"].as_str()),
        ("1", "0", "")
    );
    assert_eq!((row("?")["games"].as_str(), row("?")["moves"].as_str()), ("1", "3"));
}

/// A run on an output another run is writing (its journal locked) is refused before it touches
/// either file.
#[cfg(target_os = "linux")]
#[test]
fn a_second_run_on_the_same_output_is_refused() {
    use std::os::fd::AsRawFd;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.csv");
    let journal_path = dir.path().join("a.csv.partial.log");
    std::fs::write(&journal_path, "the other run's journal\n").unwrap();
    let journal = std::fs::File::open(&journal_path).unwrap();
    // SAFETY: flock only reads the descriptor, which `journal` keeps open.
    assert_eq!(unsafe { libc::flock(journal.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) }, 0);
    let sample = sample("wthor-2004.pgn");
    for resume in [false, true] {
        let mut args = vec![sample.to_str().unwrap(), "--depth", "2", "-q", "-o", out.to_str().unwrap()];
        if resume {
            args.push("--resume");
        }
        let result = run(&args);
        assert_eq!(result.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&result.stderr).contains("another kifu is writing"));
        assert_eq!(std::fs::read_to_string(&journal_path).unwrap(), "the other run's journal\n");
        assert!(!out.exists());
    }
}
