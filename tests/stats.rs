//! `kifu stats`: totals that add up, player counts checked against the games table of
//! `kifu export`, openings and duplicates merged under symmetry, the csv and json shapes, and
//! the report on a whole WTHOR year when the shared data is here.

mod common;

use std::collections::HashMap;
use std::path::Path;

use assert_cmd::Command;
use common::shared;

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// Runs `kifu` with these arguments and stdin: stdout, stderr, exit code.
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = kifu().args(args).write_stdin(stdin.to_owned()).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).to_str().unwrap().to_owned()
}

/// CSV text as a header and rows of named fields.
fn rows(csv_text: &str) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader.records().map(|r| header.iter().cloned().zip(r.unwrap().iter().map(String::from)).collect()).collect()
}

/// The `--by totals` rows as numbers by name (empty values left out).
fn totals(input: &str, stdin: &str) -> HashMap<String, f64> {
    let (out, err, _) = run(&["stats", input, "--format", "csv", "-q"], stdin);
    assert!(err.is_empty(), "{err}");
    let rows = rows(&out);
    assert_eq!(rows[0]["name"], "games");
    rows.iter().filter(|r| !r["value"].is_empty()).map(|r| (r["name"].clone(), r["value"].parse().unwrap())).collect()
}

/// A whole game (white passes once) from the export tests.
const GAME: &str = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";

/// A compact transcript mirrored in the a1-h8 diagonal (file and rank swap).
fn mirrored(transcript: &str) -> String {
    transcript
        .as_bytes()
        .chunks(2)
        .map(|m| format!("{}{}", (b'a' + m[1] - b'1') as char, (b'1' + m[0] - b'a') as char))
        .collect()
}

fn check_totals_add_up(t: &HashMap<String, f64>) {
    let games = t["games"];
    assert_eq!(t["black_wins"] + t["white_wins"] + t["draws"] + t["no_result"], games, "{t:?}");
    let statuses: f64 = ["ok", "illegal", "unfinished", "result_mismatch", "parse_error"].iter().map(|s| t[*s]).sum();
    assert_eq!(statuses, games);
}

#[test]
fn totals_add_up_on_wthor_and_the_logbook() {
    let t = totals(&data("wthor/WTH_2004-50.wtb"), "");
    check_totals_add_up(&t);
    assert_eq!((t["games"], t["ok"], t["years"], t["tournaments"]), (50.0, 50.0, 1.0, 2.0));
    let t = totals(&data("logbook-200.gam"), "");
    check_totals_add_up(&t);
    assert_eq!(t["games"], 200.0);
    // Every logbook game is over, so each counts under one result; the lengths are those of the
    // games table.
    let (games, _, _) = run(&["export", &data("logbook-200.gam"), "--table", "games", "-q"], "");
    let games = rows(&games);
    let finished = games.iter().filter(|g| !g["winner"].is_empty()).count() as f64;
    assert_eq!(t["black_wins"] + t["white_wins"] + t["draws"], finished);
    let black = games.iter().filter(|g| g["winner"] == "black").count() as f64;
    assert_eq!(t["black_wins"], black);
    let placed: Vec<usize> = games.iter().map(|g| g["moves"].len() / 2).collect();
    assert_eq!(t["length_max"], *placed.iter().max().unwrap() as f64);
    assert_eq!(t["length_min"], *placed.iter().min().unwrap() as f64);
    let passes: u64 = games.iter().map(|g| g["passes"].parse::<u64>().unwrap()).sum();
    assert_eq!(t["passes"], passes as f64);
}

#[test]
fn player_counts_match_the_games_table() {
    let input = data("wthor/WTH_2004-50.wtb");
    let (games, _, code) = run(&["export", &input, "--table", "games", "-q"], "");
    assert_eq!(code, 0);
    let mut want: HashMap<String, (u64, u64)> = HashMap::new();
    for g in rows(&games) {
        for (side, name) in [("black", &g["black_player"]), ("white", &g["white_player"])] {
            let entry = want.entry(name.clone()).or_default();
            entry.0 += 1;
            entry.1 += u64::from(g["winner"] == side);
        }
    }
    let (out, _, code) = run(&["stats", &input, "--format", "csv", "--by", "player", "-q"], "");
    assert_eq!(code, 0);
    // (The plural names the same table.)
    assert_eq!(run(&["stats", &input, "--format", "csv", "--by", "players", "-q"], "").0, out);
    let got = rows(&out);
    assert_eq!(got.len(), want.len());
    for row in &got {
        let (games, wins) = want[&row["player"]];
        assert_eq!(row["games"].parse::<u64>().unwrap(), games, "{row:?}");
        assert_eq!(row["wins"].parse::<u64>().unwrap(), wins, "{row:?}");
        let sum: u64 = ["wins", "draws", "losses", "no_result"].iter().map(|c| row[*c].parse::<u64>().unwrap()).sum();
        assert_eq!(sum, games);
    }
    // Most games first.
    let counts: Vec<u64> = got.iter().map(|r| r["games"].parse().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(got[0]["player"], "Brightwell Graham");
}

#[test]
fn openings_merge_under_the_start_symmetries() {
    // f5d6c3 and its mirror in the a1-h8 diagonal.
    assert_eq!(mirrored("f5d6c3"), "e6f4c3");
    let (out, _, code) = run(&["stats", "--format", "csv", "--by", "opening"], "f5d6c3\ne6f4c3\nf5f6e6\n");
    assert_eq!(code, 1, "unfinished games are not ok");
    let openings = rows(&out);
    assert_eq!(openings.len(), 2, "{out}");
    assert_eq!((openings[0]["opening"].as_str(), openings[0]["games"].as_str()), ("f5d6c3", "2"));
    assert_eq!(openings[0]["name"], "Perpendicular");
    assert_eq!((openings[1]["opening"].as_str(), openings[1]["name"].as_str()), ("f5f6e6", "Diagonal"));
    // A game is named by the deepest named line it follows, whichever way it is turned.
    let spencer = "f5d6c3d3c4f4c6";
    let (out, _, _) =
        run(&["stats", "--format", "csv", "--by", "name", "-q"], &format!("{spencer}\n{}\n", mirrored(spencer)));
    let names = rows(&out);
    assert_eq!(names.len(), 1, "{out}");
    assert_eq!((names[0]["name"].as_str(), names[0]["games"].as_str()), ("Spencer", "2"));
    // --depth 2: both are the Perpendicular.
    let (out, _, _) = run(&["stats", "--format", "csv", "--by", "opening", "--depth", "2", "-q"], "f5d6c3\nf5d6c4\n");
    assert_eq!(rows(&out).len(), 1);
}

#[test]
fn duplicates_are_found_with_their_sources() {
    let other = "f5d6c3d3c4f4f6f3e6e7";
    let input = format!("{GAME}\n{other}\n{GAME}\n{}\n", mirrored(GAME));
    let (out, _, code) = run(&["stats", "--format", "csv", "--by", "duplicates", "-q"], &input);
    assert_eq!(code, 1, "one unfinished game");
    let groups = rows(&out);
    let games: Vec<(&str, &str, &str, &str)> = groups
        .iter()
        .filter(|r| r["kind"] == "game")
        .map(|r| (r["group"].as_str(), r["source"].as_str(), r["game"].as_str(), r["hash"].as_str()))
        .collect();
    assert_eq!(
        games.iter().map(|g| (g.0, g.1, g.2)).collect::<Vec<_>>(),
        [("1", "-", "1"), ("1", "-", "3"), ("1", "-", "4")]
    );
    // The hash is the games table's canonical hash.
    let (table, _, _) = run(&["export", "--table", "games", "-q"], &input);
    assert_eq!(rows(&table)[0]["canonical_hash"], games[0].3);
    // The text report lists them too.
    let (text, _, _) = run(&["stats", "-q"], &input);
    assert!(text.contains("Duplicate games (same game up to symmetry) (1 group)"), "{text}");
    assert!(text.contains("-#1, -#3, -#4"), "{text}");
    let t = totals("-", &input);
    assert_eq!(t["duplicate_games"], 2.0);
}

#[test]
fn csv_and_json_shapes() {
    let input = data("wthor/WTH_2004-50.wtb");
    for (by, header) in [
        ("totals", "name,value"),
        ("player", "player,games,wins,draws,losses,no_result,from_record,margin_mean"),
        (
            "tournament",
            "tournament,games,black_wins,white_wins,draws,no_result,from_record,black_pct,white_pct,draw_pct,margin_mean,abs_margin_mean",
        ),
        (
            "year",
            "year,games,black_wins,white_wins,draws,no_result,from_record,black_pct,white_pct,draw_pct,margin_mean,abs_margin_mean",
        ),
        (
            "opening",
            "opening,name,rules,games,black_wins,white_wins,draws,no_result,from_record,black_pct,white_pct,draw_pct,margin_mean,abs_margin_mean",
        ),
        (
            "name",
            "name,games,black_wins,white_wins,draws,no_result,from_record,black_pct,white_pct,draw_pct,margin_mean,abs_margin_mean",
        ),
        ("margin", "margin,games"),
        ("length", "length,games"),
        ("duplicates", "kind,group,hash,source,game"),
    ] {
        let (csv_out, err, code) = run(&["stats", &input, "--format", "csv", "--by", by, "-q"], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(csv_out.lines().next(), Some(header), "--by {by}");
        let (json_out, _, _) = run(&["stats", &input, "--format", "json", "--by", by, "-q"], "");
        let objects: Vec<serde_json::Map<String, serde_json::Value>> =
            json_out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(objects.len(), csv_out.lines().count() - 1, "--by {by}: one object per csv row");
        for o in &objects {
            assert_eq!(o.keys().cloned().collect::<Vec<_>>().join(","), header, "--by {by}");
        }
    }
    let (json_out, _, _) = run(&["stats", &input, "--format", "json", "-q"], "");
    let first: serde_json::Value = serde_json::from_str(json_out.lines().next().unwrap()).unwrap();
    assert_eq!(first, serde_json::json!({"name": "games", "value": 50}));
    let (year, _, _) = run(&["stats", &input, "--format", "csv", "--by", "year", "-q"], "");
    assert_eq!(year.lines().nth(1).unwrap().split(',').take(2).collect::<Vec<_>>(), ["2004", "50"]);
    let (top, _, _) = run(&["stats", &input, "--format", "csv", "--by", "player", "--top", "3", "-q"], "");
    assert_eq!(top.lines().count(), 4);
    let (_, err, code) = run(&["stats", &input, "--depth", "0"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn the_report_has_every_section() {
    let (text, _, code) = run(&["stats", &data("wthor/WTH_2004-50.wtb"), "-q"], "");
    assert_eq!(code, 0);
    for section in [
        "Games\n",
        "Results\n",
        "Length\n",
        "Openings (first 6 moves",
        "Named openings",
        "Players",
        "Tournaments",
        "Years",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    assert!(text.contains("British Nationals"));
    let line = text.lines().find(|l| l.trim_start().starts_with("games ")).unwrap();
    assert!(line.ends_with(" 50"), "{line}");
}

#[test]
fn a_whole_wthor_year() {
    let Some(path) = shared("wthor/WTH_2004.wtb") else { return };
    let path = path.to_str().unwrap();
    let (text, err, code) = run(&["stats", path, "-q"], "");
    assert_eq!(code, 0, "{err}");
    let line = text.lines().find(|l| l.trim_start().starts_with("games ")).unwrap();
    assert!(line.ends_with(" 9113"), "{line}");
    assert!(text.contains("Named openings"));
    assert!(text.contains("f5d6c3d3c4f4  Tiger"), "the most played six moves are the Tiger:\n{text}");
    assert!(text.contains("Players (top 10 of"));
    assert!(text.contains("Duplicate games (same game up to symmetry)"));
    // The duplicate groups are the canonical hashes the games table gives more than once.
    let (table, _, _) = run(&["export", path, "--table", "games", "-q"], "");
    let mut by_hash: HashMap<String, usize> = HashMap::new();
    for g in rows(&table) {
        if !g["moves"].is_empty() {
            *by_hash.entry(g["canonical_hash"].clone()).or_default() += 1;
        }
    }
    let repeated = by_hash.values().filter(|&&k| k > 1).count();
    let groups = if repeated == 1 { "1 group".to_owned() } else { format!("{repeated} groups") };
    assert!(text.contains(&format!("Duplicate games (same game up to symmetry) ({groups})")), "{text}");
}

#[test]
fn plot_writes_four_svg_charts() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("plots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_, err, code) = run(&["stats", &data("wthor/WTH_2004-50.wtb"), "--plot", dir.to_str().unwrap(), "-q"], "");
    assert_eq!(code, 0, "{err}");
    for (file, title) in [
        ("results.svg", "Results of 50 games"),
        ("margins.svg", "Black's final margin"),
        ("lengths.svg", "Game length"),
        ("openings.svg", "most played openings"),
    ] {
        let svg = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.trim_end().ends_with("</svg>"),
            "{file}"
        );
        assert!(svg.contains(title), "{file}");
        assert!(svg.matches("<rect").count() > 1, "{file} has bars");
    }
}

#[test]
fn the_text_report_on_the_wthor_sample() {
    // Run beside the sample so the source name is short and WTHOR.JOU/TRN are found.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor");
    let out = kifu().current_dir(&dir).args(["stats", "WTH_2004-50.wtb", "-q"]).output().unwrap();
    assert!(out.status.success());
    insta::assert_snapshot!(String::from_utf8(out.stdout).unwrap());
}

#[test]
fn invalid_games_are_reported_where_they_go_wrong_even_when_quiet() {
    let (_, err, code) = run(&["stats", "-q", "--format", "csv"], "f5d6c3d3a1\nf5d6c3d3c4f4f6f3e6e7\n");
    assert_eq!(code, 1);
    assert!(err.contains("-:1:9: record 1: illegal: move 5, a1: the move flips no disc"), "{err}");
    assert!(!err.contains("record 2"), "an unfinished game is not invalid: {err}");
}

/// Text tables align as a terminal shows them: a CJK name takes two columns a character.
#[test]
fn tables_align_wide_names() {
    let pgn = "[Black \"山田太郎\"]\n[White \"Bob\"]\n\n1. f5 d6 *\n\n[Black \"Al\"]\n[White \"Bob\"]\n\n1. f5 f6 *\n";
    let out = kifu().args(["stats", "-q"]).write_stdin(pgn).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let column = |name: &str| {
        let line = text.lines().find(|l| l.trim_start().starts_with(name)).unwrap();
        let games = line.char_indices().find(|&(_, c)| c == '1' || c == '2').unwrap().0;
        unicode_width::UnicodeWidthStr::width(&line[..games])
    };
    assert_eq!(column("山田太郎"), column("Al"), "{text}");
}

/// `--by position`: every position before the first --depth moves once, up to symmetry and
/// whatever the move order, with the moves played from it (moves that lead to one position are
/// one move, named as the first game played it).
#[test]
fn positions_merge_transpositions_and_symmetries_with_their_moves() {
    // The Tiger and f4 twice (once turned), by a transposition, and f5 f6.
    let games =
        "1. f5 d6 2. c3 d3 3. c4 f4 *\n\n1. c4 e3 2. f6 e6 3. f5 c5 *\n\n1. f5 d6 2. c4 d3 3. c3 f4 *\n\n1. f5 f6 *\n";
    let (out, err, _) = run(&["stats", "--from", "pgn", "--by", "position", "--depth", "6", "-f", "csv", "-q"], games);
    let table = rows(&out);
    assert!(!table.is_empty(), "{err}");
    let start = &table[0];
    assert_eq!((start["empties"].as_str(), start["side"].as_str(), start["games"].as_str()), ("60", "black", "4"));
    assert_eq!(start["moves"], "f5 4");
    let after_f5 = &table[1];
    assert_eq!((after_f5["empties"].as_str(), after_f5["games"].as_str()), ("59", "4"));
    assert_eq!(after_f5["moves"], "d6 3, f6 1");
    // Each game counts once in each position it reaches: 6 + 6 + 6 + 2 positions.
    let total: u64 = table.iter().map(|r| r["games"].parse::<u64>().unwrap()).sum();
    assert_eq!(total, 20);
    // The boards are as the first game had them (rank 1 on top), each with its side to move.
    assert_eq!(start["board"], "---------------------------OX------XO---------------------------");
    // json: the moves as objects; the text report has the section.
    let (json, _, _) = run(&["stats", "--from", "pgn", "--by", "position", "-f", "json", "-q", "--top", "2"], games);
    let second: serde_json::Value = serde_json::from_str(json.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["moves"][0]["move"], "d6");
    assert_eq!(second["moves"][0]["games"], 3);
    let (text, _, _) = run(&["stats", "--from", "pgn", "--by", "position", "-q"], games);
    assert!(text.starts_with("  board") && text.lines().count() == 9, "the table alone: {text}");
    // The Tiger, reached by c3 then c4 or c4 then c3: one position, and f4 one move (c5 turned).
    let tiger = table.iter().find(|r| r["board"] == "------------------XO------XXX------OXX-----O--------------------");
    assert_eq!(tiger.map(|r| (r["games"].as_str(), r["moves"].as_str())), Some(("3", "f4 3")));
    // Games of other rules are other positions, told apart by the rules column.
    let mixed = "[Rules \"anti\"]\n\n1. f5 d6 *\n\n1. f5 d6 *\n\n1. f5 f6 *\n";
    let (out, _, _) = run(&["stats", "--from", "pgn", "--by", "position", "--depth", "1", "-f", "csv", "-q"], mixed);
    let starts: Vec<(String, String, String)> =
        rows(&out).iter().map(|r| (r["rules"].clone(), r["games"].clone(), r["moves"].clone())).collect();
    assert_eq!(starts, [("othello".into(), "2".into(), "f5 2".into()), ("anti".into(), "1".into(), "f5 1".into())]);
    let (text, _, _) = run(&["stats", "--from", "pgn", "--by", "position", "--depth", "1", "-q"], mixed);
    assert!(text.contains("  rules    side") && text.contains("  anti     black"), "{text}");
}

/// On the WTHOR sample, the book's first positions agree with the games table.
#[test]
fn positions_of_the_wthor_sample_agree_with_the_games() {
    let wtb = data("wthor/WTH_2004-50.wtb");
    let (games, _, _) = run(&["export", "-t", "games", &wtb, "-q"], "");
    let games = rows(&games);
    let (out, _, _) = run(&["stats", &wtb, "--by", "position", "--depth", "2", "-f", "csv", "-q"], "");
    let table = rows(&out);
    let starts_with = |p: &str| games.iter().filter(|g| g["moves"].starts_with(p)).count();
    assert_eq!(table[0]["moves"].split(' ').take(2).collect::<Vec<_>>(), ["f5", "50"]);
    let replies: Vec<String> = ["f5d6", "f5f6", "f5f4"]
        .iter()
        .filter(|p| starts_with(p) > 0)
        .map(|p| format!("{} {}", &p[2..], starts_with(p)))
        .collect();
    let shown: Vec<String> =
        table[1]["moves"].split(", ").map(|m| m.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect();
    let (mut replies, mut shown) = (replies, shown);
    replies.sort();
    shown.sort();
    assert_eq!(shown, replies);
}

/// A PGN game with these tags (the moves, then the result as the tag has it).
fn pgn_game(event: &str, date: &str, black: &str, white: &str, moves: &str, result: &str) -> String {
    let mut tags = format!("[Event \"{event}\"]\n[Date \"{date}\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n");
    if result != "*" {
        tags.push_str(&format!("[Result \"{result}\"]\n"));
    }
    format!("{tags}\n{moves} {result}\n\n")
}

#[test]
fn standings_rank_by_points_then_the_brightwell_quotient() {
    // GAME ends 41-23 for black. Results from the board where the game is over, else from the
    // record (a resignation without discs, counts with the empty squares to the winner), and
    // a game with neither counts for no one's points.
    let club = |black: &str, white: &str, moves: &str, result: &str| {
        pgn_game("Club night", "2024.05.01", black, white, moves, result)
    };
    let mut pgn = club("Ann", "Bob", GAME, "*");
    pgn += &club("Cid", "Dan", GAME, "*");
    pgn += &club("Ann", "Cid", "f5 d6", "0-1");
    pgn += &club("Bob", "Dan", "f5 d6 c3", "33-30");
    pgn += &club("Ann", "Dan", "f5", "*");
    pgn += &club("Cid", "", GAME, "*");
    // Another event: two players level on everything share the first place.
    pgn += &pgn_game("Match", "2023.01.02", "Ann", "Bob", GAME, "*");
    pgn += &pgn_game("Match", "2023.01.03", "Bob", "Ann", GAME, "*");
    let (out, err, code) = run(&["stats", "-", "--from", "pgn", "--by", "standings", "--format", "csv", "-q"], &pgn);
    assert_eq!(code, 1, "{err}");
    let rows = rows(&out);
    let line = |r: &HashMap<String, String>| {
        ["tournament", "year", "rank", "player", "points", "games", "wins", "draws", "losses", "discs"]
            .iter()
            .chain(&["opponents_points", "bq", "no_result", "from_record", "no_discs"])
            .map(|c| r[*c].as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let got: Vec<String> = rows.iter().map(line).collect();
    assert_eq!(
        got,
        [
            // The earlier year first. Ann: 41 + 23 discs, 6 times Bob's 1 point twice.
            "Match,2023,1,Ann,1,2,1,0,1,64,2,76,0,0,0",
            "Match,2023,1,Bob,1,2,1,0,1,64,2,76,0,0,0",
            // Cid: 41 discs and a resignation; opponents Dan (0) and Ann (1).
            "Club night,2024,1,Cid,2,2,2,0,0,41,1,47,0,1,1",
            // Bob: 23 + 34 (33-30 gives the empty square to the winner); Ann (1) and Dan (0).
            "Club night,2024,2,Bob,1,2,1,0,1,57,1,63,0,1,0",
            // Ann: 41 and a loss by resignation; Bob (1) and Cid (2).
            "Club night,2024,3,Ann,1,2,1,0,1,41,3,59,1,1,1",
            "Club night,2024,4,Dan,0,2,0,0,2,53,3,71,1,1,0",
        ]
    );
    // `--top 1` keeps each tournament's first, and the players tied with it.
    let (out, _, _) =
        run(&["stats", "-", "--from", "pgn", "--by", "standings", "--format", "csv", "-q", "--top", "1"], &pgn);
    let players: Vec<String> = self::rows(&out).iter().map(|r| r["player"].clone()).collect();
    assert_eq!(players, ["Ann", "Bob", "Cid"]);
    // The text report's section: the games of each tournament, and the extra columns.
    let (text, _, _) = run(&["stats", "-", "--from", "pgn", "--by", "standings", "-q"], &pgn);
    assert!(text.contains("Standings (2 tournaments)"), "{text}");
    assert!(text.contains("  Club night 2024: 4 players, 5 games"), "{text}");
    assert!(text.contains("no_result  from_record  no_discs"), "{text}");
    assert!(text.contains("  Match 2023: 2 players, 2 games"), "{text}");
    // No section unless asked.
    let (text, _, _) = run(&["stats", "-", "--from", "pgn", "-q"], &pgn);
    assert!(!text.contains("Standings"), "{text}");
}

/// What a tournament director's sheets get wrong: a name in other case (one player, said), a
/// game handed in by both players (counted once, said), a game without its date (counted in
/// its event's year, said), and names that may be one player (said, counted apart).
#[test]
fn standings_tidy_what_sheets_get_wrong() {
    let club = |date: &str, black: &str, white: &str, moves: &str| pgn_game("Club", date, black, white, moves, "*");
    let mut pgn = club("2024.05.01", "Ann Lee", "Bob", GAME);
    pgn += &club("2024.05.01", "Ann Lee", "Bob", GAME);
    pgn += &club("2024.05.02", "bob", "ann  lee", GAME);
    pgn += &club("", "Cid", "Bob", GAME);
    pgn += &club("2024.05.03", "Lee, Ann", "Cid", GAME);
    pgn += &club("2024.05.03", "A. Lee", "Cid", GAME);
    // The same game again without its date, and under the event written in capitals.
    pgn += &club("", "Cid", "Bob", GAME).replace("\"Club\"", "\"CLUB\"");
    let (out, err, code) = run(&["stats", "-", "--from", "pgn", "--by", "standings", "--format", "csv"], &pgn);
    assert_eq!(code, 0, "{err}");
    let got: Vec<String> =
        rows(&out).iter().map(|r| format!("{} {} {} {}", r["year"], r["player"], r["games"], r["points"])).collect();
    // (Black wins GAME: every player has one win.)
    assert_eq!(got, ["2024 Bob 3 1", "2024 Cid 3 1", "2024 Ann Lee 2 1", "2024 A. Lee 1 1", "2024 Lee, Ann 1 1"]);
    for said in [
        "Club 2024: 2 games given again (the same players and moves, up to symmetry): each game counted once",
        "Club 2024: the event written `CLUB` counted as `Club`",
        "Club 2024: 1 game with no date counted in its one year",
        "Club 2024: `ann lee` counted as `Ann Lee`",
        "Club 2024: `bob` counted as `Bob`",
        "`Ann Lee` and `Lee, Ann` may be one player",
        "`Ann Lee` and `A. Lee` may be one player",
    ] {
        assert!(err.contains(said), "{said}: {err}");
    }
    // Undated games of an event of several years stand apart, said; a game whose two names
    // read as one is said.
    let mut open = pgn_game("Open", "2023.01.01", "Ann", "Bob", GAME, "*");
    open += &pgn_game("Open", "2024.01.01", "Ann", "Bob", "f5 d6", "*");
    open += &pgn_game("Open", "", "Cid", "cid", "f5", "*");
    let (_, err, _) = run(&["stats", "-", "--from", "pgn", "--by", "standings", "--format", "csv"], &open);
    assert!(err.contains("Open: 1 game with no date, of an event of several years (2023, 2024)"), "{err}");
    assert!(err.contains("Open: 1 game with one player's name on both sides"), "{err}");
    // A pairing given twice in one round with other moves (a sheet cut short) is said; a
    // title holding its year does not repeat it.
    let round = |moves: &str| {
        pgn_game("Spring 2024", "2024.03.01", "Ann", "Bob", moves, "*").replace("[Black", "[Round \"1\"]\n[Black")
    };
    let twice = round(GAME) + &round("f5 d6 c3");
    let (text, err, _) = run(&["stats", "-", "--from", "pgn", "--by", "standings"], &twice);
    assert!(err.contains("Spring 2024: 2 games of Ann and Bob in round 1: a scoresheet given twice"), "{err}");
    assert!(text.contains("  Spring 2024: 2 players, 2 games"), "{text}");
    // The tournaments table counts events equal but for case as one event too.
    let (out, _, _) = run(&["stats", "-", "--from", "pgn", "--by", "tournament", "--format", "csv", "-q"], &pgn);
    assert_eq!(out.lines().filter(|l| l.to_ascii_lowercase().starts_with("club,")).count(), 1, "{out}");
    // The players table counts names equal but for case as one player too.
    let (out, _, _) = run(&["stats", "-", "--from", "pgn", "--by", "player", "--format", "csv", "-q"], &pgn);
    assert!(out.contains("\nBob,5,") && out.contains("\nAnn Lee,3,"), "{out}");
}

/// One player's name however it was spaced or its accents typed; WTHOR's unknown is no one.
#[test]
fn names_count_as_one_however_typed() {
    let pgn = "[Black \"Fre\u{301}de\u{301}ric  Le\u{301}ve\u{302}que \"]\n[White \"???\"]\n\n1. f5 *\n\n\
               [Black \"Frédéric Lévêque\"]\n[White \"Bob\"]\n\n1. f5 *\n";
    let (out, err, _) = run(&["stats", "-", "--from", "pgn", "--by", "player", "--format", "csv", "-q"], pgn);
    let players: Vec<(String, String)> = rows(&out).iter().map(|r| (r["player"].clone(), r["games"].clone())).collect();
    assert_eq!(players, [("Frédéric Lévêque".to_owned(), "2".to_owned()), ("Bob".into(), "1".into())], "{err}");
    for search in ["Lévêque", "Frédéric  Le\u{301}ve\u{302}que"] {
        let (out, _, _) = run(&["convert", "-", "--from", "pgn", "--to", "transcript", "--player", search, "-q"], pgn);
        assert_eq!(out.lines().count(), 2, "{search}: {out}");
    }
}

/// A move onto a square the board does not have is an illegal move, as `kifu validate` says:
/// the game counts for its players and `--status illegal` selects it.
#[test]
fn a_square_off_the_board_is_an_illegal_move_for_stats() {
    let pgn = "[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 d6 2. c3 d3 3. c9 *\n\n[Black \"Ann\"]\n[White \"Cid\"]\n\n1. f5 d6 *\n";
    let games = |args: &[&str]| -> Vec<(String, String)> {
        let mut all = vec!["stats", "-", "--from", "pgn", "--by", "player", "--format", "csv", "-q"];
        all.extend(args);
        let (out, _, _) = run(&all, pgn);
        rows(&out).iter().map(|r| (r["player"].clone(), r["games"].clone())).collect()
    };
    let pair = |p: &str, g: &str| (p.to_owned(), g.to_owned());
    assert_eq!(games(&[]), [pair("Ann", "2"), pair("Bob", "1"), pair("Cid", "1")]);
    assert_eq!(games(&["--status", "illegal"]), [pair("Ann", "1"), pair("Bob", "1")]);
    assert!(games(&["--status", "parse_error"]).is_empty());
    let (out, _, _) = run(&["stats", "-", "--from", "pgn", "--format", "csv", "-q"], pgn);
    let illegal = rows(&out).into_iter().find(|r| r["name"] == "illegal").unwrap();
    assert_eq!(illegal["value"], "1");
}

/// A player's wins and losses count a game the board leaves open by the result its record
/// states (a resignation, PGN's `1-0`), as a tournament does; `from_record` says how many.
#[test]
fn players_count_results_the_records_state() {
    let pgn = "[Black \"alice\"]\n[White \"bob\"]\n[Result \"1-0\"]\n\n1. f5 d6 2. c3 d3 1-0\n\n\
               [Black \"bob\"]\n[White \"alice\"]\n[Result \"*\"]\n\n1. f5 d6 *\n\n\
               [Black \"alice\"]\n[White \"bob\"]\n\nf5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1 41-23\n";
    let (out, err, code) = run(&["stats", "--by", "player", "-f", "csv", "--from", "pgn"], pgn);
    // (Exit 1: two games are not over.)
    assert_eq!(code, 1, "{err}");
    let rows = rows(&out);
    let alice = rows.iter().find(|r| r["player"] == "alice").unwrap();
    let got: Vec<&str> = ["games", "wins", "losses", "no_result", "from_record", "margin_mean"]
        .iter()
        .map(|c| alice[*c].as_str())
        .collect();
    // The stated 1-0 has no margin: the mean is the finished game's +18 alone.
    assert_eq!(got, ["3", "2", "0", "1", "1", "18.0"]);
}

/// `--excel` tables: a byte-order mark, and a name a spreadsheet would run as a formula after
/// a `'` (numbers, negative ones too, as they are).
#[test]
fn excel_tables_run_no_formulas() {
    let pgn = "[Black \"=1+1\"]\n[White \"Ann\"]\n\n1. f5 d6 *\n";
    let (out, err, code) = run(&["stats", "--by", "player", "-f", "csv", "--excel", "-q"], pgn);
    // (An unfinished game is not `ok`.)
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("\u{feff}player,"), "{out}");
    assert!(out.contains("\n'=1+1,1,") && out.contains("\nAnn,1,"), "{out}");
}

/// Every table counts a result as a tournament does (the board's, else the record's, and says
/// how many came from the record), margins only where the board gives one, and the games with
/// no year or no event in a row of their own, so that a table's rows add up to every game.
#[test]
fn every_table_counts_results_alike_and_adds_up() {
    let games = "Event: Club\nDate: 2020-05-01\nResult: 1-0\nf5d6c3\n\nf5d6\n";
    let by = |table: &str| {
        let (out, err, code) = run(&["stats", "--by", table, "-f", "csv", "-q"], games);
        assert_eq!(code, 1, "two unfinished games: {err}");
        rows(&out)
    };
    let years = by("year");
    let got: Vec<(&str, &str, &str, &str, &str)> = years
        .iter()
        .map(|r| {
            (
                r["year"].as_str(),
                r["games"].as_str(),
                r["black_wins"].as_str(),
                r["no_result"].as_str(),
                r["from_record"].as_str(),
            )
        })
        .collect();
    assert_eq!(got, [("2020", "1", "1", "0", "1"), ("", "1", "0", "1", "0")]);
    assert_eq!(years[0]["margin_mean"], "", "no margin on the board");
    let events: Vec<String> = by("tournament").iter().map(|r| format!("{}:{}", r["tournament"], r["games"])).collect();
    assert_eq!(events, ["Club:1", ":1"]);
    let t = totals("-", games);
    assert_eq!((t["black_wins"], t["no_result"], t["from_record"]), (1.0, 1.0, 1.0));
    // In text, --by gives the table alone.
    let (text, _, _) = run(&["stats", "--by", "year", "-q"], games);
    assert!(text.starts_with("  year  games") && text.lines().count() == 3, "{text}");
}

/// A game that names one player only is left out of the standings, and a warning says so.
#[test]
fn standings_warn_of_games_without_both_names() {
    let games = "[Event \"E\"]\n[Black \"A\"]\n[White \"?\"]\n[Result \"1-0\"]\n\n1. f5 *\n\n\
                 [Event \"E\"]\n[Black \"A\"]\n[White \"B\"]\n[Result \"0-1\"]\n\n1. f5 d6 *\n";
    let (out, err, _) = run(&["stats", "--by", "standings", "-f", "csv", "-q"], games);
    assert_eq!(rows(&out).len(), 2, "{out}");
    assert!(err.contains("warning: 1 game left out of the standings: a player's name is missing"), "{err}");
}

/// A loss on time scored with disc counts (`31-33`, as WOC sheets do) stands against the
/// finished board's result, counts and all.
#[test]
fn a_loss_on_time_scored_with_counts_stands_against_the_board() {
    let spaced: Vec<&str> = (0..GAME.len()).step_by(2).map(|i| &GAME[i..i + 2]).collect();
    let pgn = format!(
        "[Event \"Cup\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"31-33\"]\n[Termination \"time forfeit\"]\n\n{} 31-33\n",
        spaced.join(" ")
    );
    let (out, err, code) = run(&["stats", "-", "--from", "pgn", "--by", "standings", "--format", "csv", "-q"], &pgn);
    assert_eq!(code, 0, "{err}");
    let got: Vec<String> = rows(&out)
        .iter()
        .map(|r| format!("{} {} {} {}", r["player"], r["points"], r["discs"], r["from_record"]))
        .collect();
    assert_eq!(got, ["Bob 1 33 1", "Ann 0 31 1"], "{out}");
}

/// What a scoresheet states counts where the board cannot say: a sheet with a token that is no
/// move keeps its written result, a win on time stands against the board, and header lines
/// stating a winner with no moves are a forfeit.
#[test]
fn standings_take_the_sheets_result_where_the_board_cannot_say() {
    let spaced: Vec<&str> = (0..GAME.len()).step_by(2).map(|i| &GAME[i..i + 2]).collect();
    let mut typo = spaced.clone();
    typo[3] = "4f";
    let sheets = format!(
        "Event: Cup\nBlack: Ann  White: Bob\n{}\nResult: 23-41\n\n\
         Event: Cup\nBlack: Cid  White: Dan\n{}\nResult: White wins on time\n\n\
         Event: Cup\nBlack: Eve  White: Fay\nResult: 1-0\n",
        typo.join(" "),
        spaced.join(" ")
    );
    let (out, err, code) =
        run(&["stats", "-", "--from", "transcript", "--by", "standings", "--format", "csv", "-q"], &sheets);
    assert_eq!(code, 1, "the sheet with a typo is not ok: {err}");
    let got: Vec<String> = rows(&out)
        .iter()
        .map(|r| format!("{} {} {} {}", r["player"], r["games"], r["points"], r["from_record"]))
        .collect();
    assert_eq!(got.len(), 6, "{out}");
    for line in ["Bob 1 1 1", "Dan 1 1 1", "Eve 1 1 1", "Ann 1 0 1", "Cid 1 0 1", "Fay 1 0 1"] {
        assert!(got.contains(&line.to_owned()), "{line}: {got:?}");
    }
    // validate passes the win on time and the forfeit, and says the first overrules the board.
    let (_, err, _) = run(&["validate", "-", "--from", "transcript"], &sheets);
    assert!(err.contains("2 ok (1 ended by resignation, on time or by forfeit; 1 won on time or by forfeit against the board's result)"), "{err}");
}
