//! `kifu show`: positions and kifu diagrams of real games as text and SVG, the SVG checked as
//! XML, annotations against the FFO files' exact scores, variants, many diagrams at once, and
//! located errors for bad input.

use std::path::Path;

use assert_cmd::Command;
use kifu::core::{Position, Rules};

fn kifu() -> Command {
    Command::cargo_bin("kifu").unwrap()
}

/// Runs `kifu` with these arguments and stdin: stdout, stderr, exit code.
fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = kifu().args(args).env_remove("NO_COLOR").write_stdin(stdin.to_owned()).output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap(),
    )
}

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name).to_str().unwrap().to_owned()
}

/// Parses an SVG document and checks what every diagram needs: an `svg` root in the SVG
/// namespace with a size and a viewBox, and nothing outside the file (no scripts, links, images
/// or named fonts).
fn check_svg(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    for attr in ["width", "height", "viewBox"] {
        assert!(root.attribute(attr).is_some(), "no {attr}");
    }
    assert!(root.attribute("font-family").is_some_and(|f| f.ends_with("sans-serif")), "a generic font family last");
    for node in doc.descendants().filter(|n| n.is_element()) {
        assert!(!["script", "image", "a", "style", "foreignObject"].contains(&node.tag_name().name()));
        assert!(node.attributes().all(|a| !a.name().contains("href")), "a link in {node:?}");
    }
    doc
}

/// The discs an SVG draws: circles of the disc radius, with their fill.
fn discs(doc: &roxmltree::Document) -> Vec<String> {
    let radius = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .filter_map(|n| n.attribute("r")?.parse::<f64>().ok())
        .fold(0.0f64, f64::max);
    doc.descendants()
        .filter(|n| n.has_tag_name("circle") && n.attribute("r").and_then(|r| r.parse::<f64>().ok()) == Some(radius))
        .map(|n| n.attribute("fill").unwrap().to_owned())
        .collect()
}

/// The text of every `<text>` element.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or("").to_owned()).collect()
}

#[test]
fn a_mid_game_position_as_plain_text() {
    let (out, err, code) = run(&["show", &sample("wthor-2004.pgn"), "--ply", "20"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.is_ascii(), "piped output is plain ASCII");
    insta::assert_snapshot!(out);
}

#[test]
fn a_caption_over_a_board_string_is_drawn_over_the_board() {
    let board = "---------------------------OX------XO--------------------------- X";
    let (out, err, code) = run(&["show", "-"], &format!("Exercise 3: black to play and win\n{board}\n"));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("Exercise 3: black to play and win\n  a b c d e f g h\n"), "{out}");
    let (out, _, code) = run(&["show", "-", "-f", "svg"], &format!("Exercise 3\n{board}\n"));
    assert_eq!(code, 0);
    let doc = roxmltree::Document::parse(&out).unwrap();
    assert!(texts(&doc).iter().any(|t| t == "Exercise 3"), "{out}");
}

#[test]
fn colour_on_request_and_ascii_with_no_color() {
    let (out, _, _) = run(&["show", &sample("wthor-2004.pgn"), "--ply", "20", "--color", "always"], "");
    assert!(out.contains('●') && out.contains("\x1b[42m"));
    assert_eq!((out.matches('●').count(), out.matches('○').count()), (12, 12), "12 black and 12 white discs");
    let out = kifu().args(["show", &sample("wthor-2004.pgn"), "--ply", "20"]).env("NO_COLOR", "1").output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().is_ascii());
}

#[test]
fn the_kifu_of_a_real_game_reads_back_as_the_same_game() {
    let (out, err, code) = run(&["show", "--kifu", &sample("wthor-2004.pgn")], "");
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
    // The grid (title and notes aside) is a kifu grid kifu reads: the same moves come back.
    let grid: String = out.lines().skip(2).take(9).map(|l| format!("{l}\n")).collect();
    let (back, _, code) = run(&["convert", "--from", "kifu", "--to", "transcript", "-"], &grid);
    assert_eq!(code, 0);
    let (original, _, _) = run(&["convert", &sample("wthor-2004.pgn"), "--to", "transcript", "-q"], "");
    assert_eq!(back.trim(), original.lines().next().unwrap());
    assert!(out.contains("pass: white after 55"), "the game's one pass is listed");
}

#[test]
fn a_kifu_svg_draws_every_disc_and_number() {
    let (svg, err, code) = run(&["show", "--kifu", &sample("wthor-2004.pgn"), "--format", "svg"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    let doc = check_svg(&svg);
    let fills = discs(&doc);
    assert_eq!(fills.len(), 64, "a full board: 4 start discs and 60 moves");
    // 41 black and 23 white at the end, but a kifu shows who played each square: black played
    // 31 moves (28 up to 55, then 56, 58 and 60 after white's pass) and white 29, with the two
    // start discs each.
    assert_eq!(fills.iter().filter(|f| *f == "#111111").count(), 33);
    let texts = texts(&doc);
    for n in 1..=60 {
        assert!(texts.contains(&n.to_string()), "move {n}");
    }
    assert!(texts.contains(&"Vecchi Elisabetta".to_owned()) && texts.contains(&"Halvorsen Luke".to_owned()));
    assert!(texts.contains(&"pass: white after 55".to_owned()));
}

#[test]
fn svg_snapshots_of_a_position_and_a_print_kifu() {
    let (svg, _, code) = run(&["show", &sample("logbook.gam"), "--ply", "8", "--format", "svg"], "");
    assert_eq!(code, 0);
    check_svg(&svg);
    insta::assert_snapshot!("position_svg", svg);
    let (svg, _, code) = run(
        &["show", "--kifu", "-", "--rules", "othello,size=6", "--format", "svg", "--theme", "print"],
        &six_by_six_game(),
    );
    assert_eq!(code, 0);
    let doc = check_svg(&svg);
    assert_eq!(discs(&doc).len(), 36);
    assert!(!svg.contains("#23854a"), "no green in print");
    insta::assert_snapshot!("print_kifu_svg", svg);
}

/// A whole 6x6 game: each side plays its first legal move (a pass when it has none).
fn six_by_six_game() -> String {
    let rules = "othello,size=6".parse::<Rules>().unwrap().shared();
    let mut pos = Position::start(rules.clone());
    let mut moves = String::new();
    while !pos.is_game_over() {
        let mv = pos.legal_moves()[0];
        if let Some(sq) = mv.square() {
            moves.push_str(&rules.square_name(sq));
        }
        pos.play_mut(mv).unwrap();
    }
    moves
}

#[test]
fn a_kifu_from_a_ply_draws_the_discs_there_and_numbers_the_rest() {
    let (out, _, code) = run(&["show", "--kifu", &sample("logbook.gam"), "--game", "2", "--ply", "40"], "");
    assert_eq!(code, 0);
    insta::assert_snapshot!(out);
    let board: String = out.lines().skip(1).take(8).collect();
    assert_eq!(board.matches('X').count() + board.matches('O').count(), 44, "4 start discs and 40 moves drawn");
    assert!(board.contains("41") && !board.contains(" 40 "));
    // It reads back: the drawn discs, then moves 41 on, to the game's own end.
    let (back, err, code) = run(&["convert", "--from", "kifu", "--to", "json", "-q"], &out);
    assert_eq!(code, 0, "{err}");
    let (whole, _, _) = run(&["convert", &sample("logbook.gam"), "--to", "json", "-q"], "");
    let record: serde_json::Value = serde_json::from_str(&back).unwrap();
    let game: serde_json::Value = serde_json::from_str(whole.lines().nth(1).unwrap()).unwrap();
    let squares =
        |v: &serde_json::Value| v["moves"].as_array().unwrap().iter().map(|m| m["move"].clone()).collect::<Vec<_>>();
    assert_eq!(squares(&record), squares(&game)[40..].to_vec());
}

#[test]
fn annotations_are_the_exact_scores_of_the_ffo_file() {
    // FFO #1: 14 empty squares; the file lists every move with its exact score.
    let (out, err, code) = run(&["show", &sample("ffo-1-5.obf"), "--annotate"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
    assert!(out.contains("exact scores for black: g8 +18, h1 +12, a2 +6, h7 +6, a3 +4, b1 -4, a4 -22, g2 -24"));
    // Over the limit the same moves get estimates, marked with ~.
    let (out, _, _) = run(&["show", &sample("ffo-1-5.obf"), "--annotate", "--exact-empties", "10"], "");
    assert!(out.contains("scores searched 10 moves ahead (~) for black: "), "{out}");
    assert_eq!(out.lines().skip(1).take(8).collect::<String>().matches('~').count(), 8);
    // On an SVG the scores stand on their squares.
    let (svg, _, _) = run(&["show", &sample("ffo-1-5.obf"), "--annotate", "--format", "svg"], "");
    let texts = texts(&check_svg(&svg));
    for score in ["+18", "+12", "+6", "+4", "-4", "-22", "-24"] {
        assert!(texts.contains(&score.to_owned()), "{score}");
    }
}

#[test]
fn variants_keep_their_shape_holes_and_rank_names() {
    let (out, err, code) = run(&["show", "-", "--rules", "8stars,rows=bottom,holes=e3", "--annotate"], "e7\n");
    assert_eq!((code, err.as_str()), (0, ""));
    insta::assert_snapshot!(out);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "     a   b   c   d   e   f   g   h   i   j", "wider columns for the scores");
    assert!(lines[1].starts_with("10   #   #   - "), "cut corners are `#`: {}", lines[1]);
    assert_eq!(lines.last(), Some(&"rules 8stars,rows=bottom,holes=e3"), "the rules, for reading back");
    assert!(lines[8].contains('#'), "the hole on e3");
    assert!(out.contains("scores searched 6 moves ahead"), "the generic engine scores the moves: {out}");
    let (svg, _, _) = run(&["show", "-", "--rules", "8stars,holes=e3", "--format", "svg"], "e4\n");
    let doc = check_svg(&svg);
    // 88 cells of the shape, less nothing: the hole is drawn as a crossed square.
    let squares = doc.descendants().filter(|n| n.has_tag_name("rect")).count();
    assert_eq!(squares, 1 + 88, "the background and one square per cell of the shape");
    assert!(doc.descendants().any(|n| n.has_tag_name("path")), "the hole's cross");
}

#[test]
fn every_game_to_its_own_file() {
    let dir = std::env::temp_dir().join(format!("kifu-show-all-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_, err, code) = run(
        &["show", "--kifu", "--all", &sample("wthor-2004.pgn"), "--format", "svg", "-o", dir.to_str().unwrap()],
        "",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["game-0001.svg", "game-0002.svg", "game-0003.svg"], "no temporary files left");
    for name in &names {
        check_svg(&std::fs::read_to_string(dir.join(name)).unwrap());
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // A file where the folder should be is named as such.
    let file = std::env::temp_dir().join(format!("kifu-show-all-file-{}", std::process::id()));
    std::fs::write(&file, "kept").unwrap();
    let (_, err, code) = run(&["show", "--all", &sample("logbook.gam"), "-o", file.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("-o names a folder") && err.contains("is a file"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    std::fs::remove_file(&file).unwrap();
    // Without a folder, SVG has nowhere to go; text goes to stdout one after the other.
    let (_, err, code) = run(&["show", "--all", &sample("wthor-2004.pgn"), "--format", "svg"], "");
    assert_eq!(code, 2);
    assert!(err.contains("-o DIR"), "{err}");
    let (out, _, code) = run(&["show", "--all", &sample("logbook.gam")], "");
    assert_eq!(code, 0);
    assert_eq!(out.matches("  a b c d e f g h").count(), 20);
}

#[test]
fn bad_input_is_named_never_a_panic() {
    // An illegal move: file, line, record and move.
    let (_, err, code) = run(&["show", "-"], "f5d6c3d3a1\n");
    assert_eq!(code, 1);
    assert!(err.contains("-:1:") && err.contains("record 1") && err.contains("a1"), "{err}");
    // Past the end of a game, or of the input.
    // A position in no record: nothing drawn, the asking wrong (as --game past the last).
    let (_, err, code) = run(&["show", &sample("wthor-2004.pgn"), "--ply", "70"], "");
    assert_eq!(code, 2);
    assert!(err.contains("record 1") && err.contains("61 plies"), "{err}");
    let (_, err, code) = run(&["show", &sample("wthor-2004.pgn"), "--game", "9"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no record 9") && err.contains("has 3"), "{err}");
    let (_, err, code) = run(&["show", "--kifu", &sample("wthor-2004.pgn"), "--ply", "62"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--ply 62 is past the end"), "{err}");
    let (_, _, code) = run(&["show", "--kifu", "--annotate", &sample("wthor-2004.pgn")], "");
    assert_eq!(code, 2, "--kifu and --annotate do not go together");
    let (_, err, code) = run(&["show", "-"], "XXXX\n");
    assert_eq!(code, 1);
    assert!(err.contains("record 1"), "{err}");
    // A game that stops at a loss on time shows its result under a kifu, which reads back.
    let pgn = "[Event \"Open\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. f5 d6 2. c3 d3 0-1\n";
    let (out, err, code) = run(&["show", "--kifu", "-"], pgn);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("after move 4; black to move\nResult: W+T\n"), "{out}");
    let (back, _, _) = run(&["convert", "--from", "kifu", "--to", "sgf", "-"], &out);
    assert!(back.contains("RE[W+T]"), "{back}");
    // Nothing to draw is said, not a silent success.
    let (out, err, code) = run(&["show", "-"], "\n# only a comment\n");
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("no record to draw"), "{err}");
}

#[test]
fn every_size_draws_as_svg() {
    for (rules, moves, squares) in
        [("othello,size=4", "b1", 16), ("othello,size=16", "g8", 256), ("othello,size=10", "e4", 100)]
    {
        let (svg, err, code) = run(&["show", "-", "--rules", rules, "--format", "svg"], moves);
        assert_eq!((code, err.as_str()), (0, ""), "{rules}");
        let doc = check_svg(&svg);
        assert_eq!(doc.descendants().filter(|n| n.has_tag_name("rect")).count(), 1 + squares, "{rules}");
        let (kifu, _, code) =
            run(&["show", "--kifu", "-", "--rules", rules, "--format", "svg", "--theme", "print"], moves);
        assert_eq!(code, 0);
        check_svg(&kifu);
    }
}

#[test]
fn a_failed_record_leaves_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("board.svg");
    let (_, err, code) = run(&["show", "-", "--format", "svg", "-o", target.to_str().unwrap()], "x!\n");
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "neither the file nor a temporary one");
    // A record with an illegal move is drawn up to it: the file is written, the exit code says
    // the record is wrong.
    let (_, err, code) = run(&["show", "-", "--format", "svg", "-o", target.to_str().unwrap()], "f5f5\n");
    assert_eq!(code, 1, "{err}");
    assert!(check_svg(&std::fs::read_to_string(&target).unwrap()).root_element().has_tag_name("svg"));
}

/// `--empties N` draws the game's first position with N empty squares.
#[test]
fn a_position_by_its_count_of_empties() {
    let pgn = sample("wthor-2004.pgn");
    let (at_ply, _, _) = run(&["show", &pgn, "--ply", "40", "--color", "never"], "");
    let (at_empties, err, code) = run(&["show", &pgn, "--empties", "20", "--color", "never"], "");
    assert_eq!((code, at_empties), (0, at_ply), "{err}");
    let (_, err, code) = run(&["show", &pgn, "--empties", "70"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--empties 70: the game never has 70 empty squares"), "{err}");
    let (_, err, code) = run(&["show", &pgn, "--empties", "12-14"], "");
    assert_eq!(code, 2);
    assert!(err.contains("one count of empty squares here"), "{err}");
}

/// `--line` solves exactly up to 24 empty squares, as far as `kifu puzzles` goes, so that an
/// answer sheet of its puzzles is exact; `--exact-empties` lowers it.
#[test]
fn a_line_is_exact_as_far_as_puzzles_go() {
    let pgn = sample("wthor-2004.pgn");
    let (out, err, code) = run(&["show", &pgn, "--empties", "22", "--line", "--color", "never"], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best line for black: f8 h7 d8 ") && out.contains("(score -4, exact)"), "{out}");
    let (out, _, _) = run(&["show", &pgn, "--empties", "22", "--line", "--exact-empties", "18"], "");
    assert!(out.contains("estimated at depth 10"), "{out}");
}

/// `--move N` is the board after the disc numbered N on a kifu: passes are not numbered.
#[test]
fn a_position_by_its_move_number() {
    let pgn = sample("wthor-2004.pgn");
    let (at_ply, _, _) = run(&["show", &pgn, "--ply", "40", "--color", "never"], "");
    let (at_move, err, code) = run(&["show", &pgn, "--move", "40", "--color", "never"], "");
    assert_eq!((code, at_move), (0, at_ply), "{err}");
    // Black's h8 (ply 55) is followed by white's pass: move 56 is ply 57.
    let (at_ply, _, _) = run(&["show", "-", "--ply", "57", "--color", "never"], PASSING);
    let (at_move, err, _) = run(&["show", "-", "--move", "56", "--color", "never"], PASSING);
    assert_eq!(at_move, at_ply, "{err}");
    assert!(at_move.contains("ply 57 of"), "{at_move}");
    let (_, err, code) = run(&["show", &pgn, "--move", "61"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--move 61 is past the end: the record has 60 moves"), "{err}");
}

/// The first game of WTH_2004, with white's pass after black's h8 (ply 55).
const PASSING: &str = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8--h2g2h1g1f1\n";

/// A stated result the board does not give is drawn, reported and noted (exit 1).
#[test]
fn a_wrong_stated_result_is_reported() {
    let game = "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1";
    let (out, err, code) = run(&["show", "-"], &format!("{game} 40-24\n"));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("result_mismatch: the record says 40-24, the board gives 41-23"), "{err}");
    assert!(out.contains("the record says 40-24, the board gives 41-23"), "{out}");
    let (out, _, code) = run(&["show", "--kifu", "-"], &format!("{game} 40-24\n"));
    assert_eq!(code, 1);
    assert!(!out.contains("the record says"), "{out}");
    let (_, err, code) = run(&["show", "-"], &format!("{game} 41-23\n"));
    assert_eq!(code, 0, "{err}");
}

/// `-o NAME.svg` writes SVG without `--format`; `--format text` still writes text there.
#[test]
fn an_svg_file_name_asks_for_svg() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("Puzzle.SVG");
    let (_, err, code) = run(&["show", "-", "-o", target.to_str().unwrap()], "f5d6c3\n");
    assert_eq!(code, 0, "{err}");
    check_svg(&std::fs::read_to_string(&target).unwrap());
    let (_, err, code) = run(&["show", "-", "--format", "text", "-o", target.to_str().unwrap()], "f5d6c3\n");
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&target).unwrap().contains("to move"));
    // `--theme` asks for SVG too, and refuses text.
    let (out, err, code) = run(&["show", "-", "--theme", "print"], "f5d6c3\n");
    assert_eq!(code, 0, "{err}");
    check_svg(&out);
    let (_, err, code) = run(&["show", "-", "--theme", "print", "-f", "text"], "f5d6c3\n");
    assert_eq!(code, 2);
    assert!(err.contains("--theme is for SVG"), "{err}");
}

/// The resvg binary, from `RESVG` or the `PATH`; the PNG test is skipped without one (as in CI).
fn resvg() -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os("RESVG") {
        return Some(path.into());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|dir| dir.join("resvg")).find(|p| p.is_file())
}

/// A diagram values moves as `kifu annotate` does with the same settings: the played and best
/// moves of the annotation have the same values on the diagram of the position before them,
/// searched (the moves ahead counted after the move) or, for a move into the exact part, exact.
#[test]
fn annotated_diagrams_agree_with_annotate() {
    let settings = ["--depth", "4", "--exact-empties", "14", "--selectivity", "100"];
    let mut args = vec!["annotate", "--games", "1", "-f", "csv", "-j", "1", "-q"];
    args.extend(settings);
    let game = sample("wthor-2004.pgn");
    args.push(&game);
    let (csv, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<String>> =
        csv.lines().skip(1).map(|l| l.split(',').map(str::to_owned).collect::<Vec<_>>()).collect();
    // Plies searched by depth (40 and 30 empty squares), the last searched one (16), and the
    // first whose moves lead into the exact part (15).
    for ply in [21usize, 31, 45, 46] {
        let row = &rows[ply - 1];
        let (played, best, best_score, played_score) = (&row[4], &row[5], &row[6], &row[7]);
        let before = (ply - 1).to_string();
        let mut args = vec!["show", "--game", "1", "--ply", &before, "--annotate"];
        args.extend(settings);
        args.push(&game);
        let (out, err, code) = run(&args, "");
        assert_eq!(code, 0, "{err}");
        let note = out.lines().find(|l| l.contains("scores")).unwrap_or_else(|| panic!("{out}"));
        let value = |mv: &str| -> i32 {
            let after = note.split(&format!(" {mv} ")).nth(1).unwrap_or_else(|| panic!("{mv} in {note}"));
            after.split([',', ' ']).next().unwrap().trim_start_matches('~').parse().unwrap()
        };
        assert_eq!(value(played), played_score.parse::<i32>().unwrap(), "ply {ply}: {note}");
        assert_eq!(value(best), best_score.parse::<i32>().unwrap(), "ply {ply}: {note}");
        assert_eq!(note.starts_with("exact"), ply == 46, "{note}");
    }
}

#[test]
fn svg_renders_to_png_with_resvg_when_installed() {
    let Some(resvg) = resvg() else {
        eprintln!("resvg not found (set RESVG or put it on the PATH): skipped");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, args) in [
        ("kifu", vec!["show", "--kifu", "--format", "svg"]),
        ("position", vec!["show", "--ply", "20", "--annotate", "--format", "svg", "--theme", "print"]),
    ] {
        let svg = dir.path().join(format!("{name}.svg"));
        let png = dir.path().join(format!("{name}.png"));
        let mut args = args.clone();
        let (input, output) = (sample("wthor-2004.pgn"), svg.to_str().unwrap().to_owned());
        args.extend([input.as_str(), "-o", output.as_str()]);
        let (_, err, code) = run(&args, "");
        assert_eq!((code, err.as_str()), (0, ""));
        let out = std::process::Command::new(&resvg).arg(&svg).arg(&png).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!String::from_utf8_lossy(&out.stderr).contains("font"), "resvg found a font for the text");
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // The PNG header's size: the SVG's width and height in pixels.
        let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
        assert!((300..800).contains(&width), "{width}");
    }
}

/// `kifu show --kifu` output, players, passes and result lines included, reads back with
/// `kifu convert --from kifu` to the same games.
#[test]
fn kifu_diagrams_read_back() {
    let games = sample("wthor-2004.pgn");
    let (diagrams, _, code) = run(&["show", &games, "--kifu", "--all", "--color", "never"], "");
    assert_eq!(code, 0);
    assert!(diagrams.contains("pass: white after 55") && diagrams.contains("(black)"), "{diagrams}");
    let (back, err, code) = run(&["convert", "-", "--from", "kifu", "--to", "transcript", "-q"], &diagrams);
    assert_eq!(code, 0, "{err}");
    let (direct, _, _) = run(&["convert", &games, "--to", "transcript", "-q"], "");
    assert_eq!(back, direct);
    assert_eq!(back.lines().count(), 3);
    // With their players, from the line over each grid.
    let (pgn, _, _) = run(&["convert", "-", "--from", "kifu", "--to", "pgn", "-q"], &diagrams);
    assert!(pgn.contains("[Black \"Vecchi Elisabetta\"]\n[White \"Halvorsen Luke\"]"), "{pgn}");
}

/// The plain kifu of a game of another variant reads back with `kifu convert --from kifu`, with
/// `--rules` and without (its `rules` line names them): 8-stars' cut corners are drawn `.` and
/// holes `#`, as the kifu writer draws them. From a ply too, and an unfinished game, whose count
/// line names the side to move at its end, not at its start.
#[test]
fn kifu_diagrams_of_variants_read_back() {
    // The squares played, from the `skip`th move (passes count) of a JSON record.
    let placed = |json: &str, skip: usize| -> Vec<serde_json::Value> {
        let record: serde_json::Value = serde_json::from_str(json).unwrap();
        let moves = record["moves"].as_array().unwrap().iter().skip(skip).map(|m| m["move"].clone());
        moves.filter(|m| m != "pass").collect()
    };
    for rules in ["8stars", "8stars,size=6", "othello,size=6,holes=b2", "8stars,rows=bottom,holes=e3"] {
        let (game, err, code) = run(&["play", "--rules", rules, "-n", "1", "--to", "transcript", "-q"], "");
        assert_eq!(code, 0, "{rules}: {err}");
        let (moves, _, _) = run(&["convert", "-", "--rules", rules, "--to", "json", "-q"], &game);
        let (grid, _, code) = run(&["show", "-", "--rules", rules, "--kifu"], &game);
        assert_eq!(code, 0, "{rules}");
        assert!(grid.contains(&format!("\nrules {rules}\n")), "{grid}");
        for given in [vec![], vec!["--rules", rules]] {
            let args = [&["convert", "-", "--from", "kifu", "--to", "json", "-q"], &given[..]].concat();
            let (back, err, code) = run(&args, &grid);
            assert_eq!(code, 0, "{rules} {given:?}: {err}\n{grid}");
            assert_eq!(placed(&back, 0), placed(&moves, 0), "{rules} {given:?}");
            assert!(back.contains(&format!(r#""rules":"{rules}""#)), "{back}");
        }
        let (from, _, code) = run(&["show", "-", "--rules", rules, "--kifu", "--ply", "20"], &game);
        assert_eq!(code, 0);
        let (back, err, code) = run(&["convert", "-", "--from", "kifu", "--to", "json", "-q"], &from);
        assert_eq!(code, 0, "{rules}: {err}\n{from}");
        assert_eq!(placed(&back, 0), placed(&moves, 20), "{rules}: the moves after ply 20");
    }
    let (grid, _, _) = run(&["show", "-", "--kifu"], "f5d6c3\n");
    assert!(grid.contains("after move 3; white to move"), "{grid}");
    let (back, err, code) = run(&["convert", "-", "--from", "kifu", "--to", "transcript", "-q"], &grid);
    assert_eq!((back.as_str(), code), ("f5d6c3\n", 0), "{err}");
}

/// The plain position diagram reads back as the same board and side to move: `kifu convert`
/// recognises it without `--from`, takes the last move's brackets `[O]` and legal-move dots
/// for what they mark, and skips the lines of text around it (players, event, counts, the ply,
/// the legal moves). On 8x8, 6x6 and 10x10 boards and with ranks numbered from the bottom.
#[test]
fn position_diagrams_read_back() {
    use kifu::notation::{BoardSyntax, board};
    for spec in ["othello", "othello,size=6", "othello,size=10", "othello,rows=bottom"] {
        let rules = spec.parse::<Rules>().unwrap().shared();
        let mut pos = Position::start(rules.clone());
        let mut moves = String::new();
        let mut ply = 0;
        while !pos.is_game_over() {
            if [1, 7, 20, 33].contains(&ply) {
                let (diagram, err, code) =
                    run(&["show", "--rules", spec, "--color", "never", "--ply", &ply.to_string()], &moves);
                assert_eq!((code, err.as_str()), (0, ""), "{spec} ply {ply}");
                let (back, err, code) = run(&["convert", "-", "--rules", spec, "--to", "board", "-q"], &diagram);
                assert_eq!(code, 0, "{spec} ply {ply}: {err}\n{diagram}");
                assert_eq!(
                    back.trim(),
                    board::write_string(&BoardSyntax::of_position(&pos)),
                    "{spec} ply {ply}\n{diagram}"
                );
            }
            let legal = pos.legal_moves();
            let mv = legal[(ply * 7 + 3) % legal.len()];
            if let Some(sq) = mv.square() {
                moves.push_str(&rules.square_name(sq));
            }
            pos.play_mut(mv).unwrap();
            ply += 1;
        }
    }
    // Variants: the rules line under the diagram, and `#` for holes and cut corners.
    for spec in ["othello,holes=c3/f6", "8stars", "anti", "othello,size=6,first=white"] {
        let rules = spec.parse::<Rules>().unwrap().shared();
        let first = Position::start(rules.clone()).legal_placements()[0];
        let (diagram, err, code) = run(&["show", "--rules", spec, "--color", "never"], &rules.square_name(first));
        assert_eq!(code, 0, "{spec}: {err}");
        let (back, err, code) = run(&["convert", "-", "--to", "json", "-q"], &diagram);
        assert_eq!((code, err.as_str()), (0, ""), "{spec}\n{diagram}");
        assert!(back.contains(&format!(r#""rules":"{}""#, rules.variant().spec())), "{spec}: {back}");
        let (solved, err, code) = run(&["solve", "-", "--depth", "2", "--format", "csv", "-q"], &diagram);
        assert_eq!((code, err.as_str()), (0, ""), "{spec}: {solved}");
    }
    // Without the rules line, a `#` the rules would play on is an error, not an empty square.
    let (diagram, _, _) = run(&["show", "--rules", "othello,holes=c3/f6", "--color", "never"], "f5");
    let bare: String = diagram.lines().filter(|l| !l.starts_with("rules")).map(|l| format!("{l}\n")).collect();
    let (_, err, code) = run(&["solve", "-"], &bare);
    assert_eq!(code, 1);
    assert!(
        err.contains("`#` on c3 marks a hole or a cell off the board, but the rules (othello) play there"),
        "{err}"
    );
    // A players' line and an event line over a game's diagram are text too.
    let (diagram, _, _) = run(&["show", &sample("wthor-2004.pgn"), "--ply", "20", "--color", "never"], "");
    assert!(diagram.starts_with("Vecchi Elisabetta (black)"), "{diagram}");
    let (back, err, code) = run(&["convert", "-", "--to", "board", "-q"], &diagram);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(back, "------------XO-----OOOX---XOOOX---OOXOX---OOXX-----XXX----X----- X\n");
    // The players' line gives the players back.
    let (json, _, _) = run(&["convert", "-", "--to", "json", "-q"], &diagram);
    assert!(json.contains(r#""tags":{"black":"Vecchi Elisabetta","white":"Halvorsen Luke"}"#), "{json}");
}

/// A record with an illegal move is drawn up to it, by default and at any ply before it, and the
/// move is reported all the same.
#[test]
fn a_record_with_an_illegal_move_is_drawn_up_to_it() {
    let game = "f5d6c3d3c4f4a1e6\n";
    let (out, err, code) = run(&["show"], game);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("ply 6 of 6"), "{out}");
    assert!(out.contains("the record's move 7 is illegal: drawn up to it"), "{out}");
    assert!(err.contains("-:1:13: record 1:") && err.contains("a1"), "{err}");
    let (out, _, code) = run(&["show", "--ply", "3"], game);
    assert_eq!(code, 1);
    assert!(out.contains("ply 3 of 6"), "{out}");
    let (out, _, code) = run(&["show", "--kifu"], game);
    assert_eq!(code, 1);
    assert!(out.contains(" 6 "), "{out}");
    let (_, err, code) = run(&["show", "--ply", "8"], game);
    assert_eq!(code, 1, "a record cut short by its fault is invalid data");
    assert!(err.contains("the record has 6 plies before its move 7, which is illegal"), "{err}");
    // With a square off the board after it too, and with the likely fix, as validate finds it.
    let (out, err, code) = run(&["show"], "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 c5 b6 c6 i5\n");
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("ply 13 of 13") && out.contains("the record's move 14 is illegal"), "{out}");
    assert!(err.contains("move 14, c6, is illegal") && err.contains("; suggestion: "), "{err}");
}

#[test]
fn a_kifu_of_a_bare_position_reads_back_with_its_side() {
    let board = format!("{}OX{}XXX{} O\n", "-".repeat(27), "-".repeat(6), "-".repeat(26));
    let out = kifu().args(["show", "--kifu"]).write_stdin(board.clone()).output().unwrap();
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(shown.contains("black 4, white 1; white to move\n"), "{shown}");
    let out = kifu().args(["convert", "--to", "board", "-q"]).write_stdin(shown).output().unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), board);
}

#[test]
fn hide_moves_draws_a_puzzle_without_its_answers() {
    let (shown, err, code) = run(&["show", "--color", "never"], "f5d6c3\n");
    assert_eq!(code, 0, "{err}");
    let (puzzle, err, code) = run(&["show", "--color", "never", "--hide-moves"], "f5d6c3\n");
    assert_eq!(code, 0, "{err}");
    assert!(shown.contains("legal moves:") && !puzzle.contains("legal moves:"), "{puzzle}");
    // The legal moves' dots become empty squares and the ply count (the game's length) goes;
    // nothing else changes.
    assert_eq!(
        shown
            .replace(" .", " -")
            .replace("].", "]-")
            .replace("ply 3 of 3, ", "")
            .lines()
            .filter(|l| !l.starts_with("legal moves"))
            .collect::<Vec<_>>(),
        puzzle.lines().collect::<Vec<_>>()
    );
    assert!(puzzle.contains("\nlast move c3 by black\n"), "{puzzle}");
    let (svg, _, _) = run(&["show", "-f", "svg", "--hide-moves"], "f5d6c3\n");
    let (marked, _, _) = run(&["show", "-f", "svg"], "f5d6c3\n");
    assert!(svg.matches("<circle").count() < marked.matches("<circle").count());
    // It reads back as the same position.
    let back = kifu().args(["convert", "--to", "board"]).write_stdin(puzzle.into_bytes()).output().unwrap();
    let board = String::from_utf8(back.stdout).unwrap();
    assert!(board.starts_with("------------------X"), "{board}");
    let (_, _, code) = run(&["show", "--hide-moves", "--kifu"], "f5d6c3\n");
    assert_eq!(code, 2);
    // A side to move that must pass: shown so, but not told in the puzzle.
    let board = format!("XO{} O\n", "-".repeat(62));
    let (shown, _, _) = run(&["show", "--color", "never"], &board);
    assert!(shown.contains("white to move and must pass;"), "{shown}");
    let (puzzle, _, _) = run(&["show", "--color", "never", "--hide-moves"], &board);
    assert!(puzzle.contains("white to move; black 1, white 1") && !puzzle.contains("pass"), "{puzzle}");
}

/// A diagram as `show` draws it, its side to move written as a lone disc on the line under it:
/// read back without `--from` (it was taken for a kifu grid).
#[test]
fn a_lone_disc_under_a_shown_diagram_is_its_side() {
    let (shown, _, _) = run(&["show", "--color", "never"], "f5d6c3\n");
    let board: String = shown.lines().take(9).map(|l| format!("{l}\n")).collect();
    for (side, want) in [("X", " X"), ("O", " O")] {
        let back = kifu().args(["convert", "--to", "board"]).write_stdin(format!("{board}{side}\n")).output().unwrap();
        let text = String::from_utf8(back.stdout).unwrap();
        assert!(text.starts_with("------------------X--------XX") && text.trim_end().ends_with(want), "{text}");
    }
}

#[test]
fn number_puts_each_diagrams_number_over_it_and_reads_back() {
    let games = "f5d6c3\nf5f6e6\nf5f4\n";
    let (sheet, err, code) =
        run(&["show", "--all", "--number", "--hide-moves", "--color", "never", "--games", "2-3"], games);
    assert_eq!(code, 0, "{err}");
    // Numbered in the order drawn, not by the records' places.
    let numbers: Vec<&str> = sheet.lines().filter(|l| l.starts_with("Diagram ")).collect();
    assert_eq!(numbers, ["Diagram 1", "Diagram 2"]);
    let back = kifu().args(["convert", "--to", "board"]).write_stdin(sheet.into_bytes()).output().unwrap();
    assert_eq!(String::from_utf8(back.stdout).unwrap().lines().count(), 2);
    let (svg, _, _) = run(&["show", "--number", "-f", "svg"], "f5d6c3\n");
    assert!(svg.contains(">Diagram 1<"), "{svg}");
}

/// `--line`: a puzzle's solution, its moves numbered from 1 on their squares, with its score
/// (FFO #1: black's g8 first, +18 exact); estimated short of the end; the game over has none.
#[test]
fn the_best_line_is_drawn_numbered() {
    let ffo = std::fs::read_to_string(sample("ffo-1-5.obf")).unwrap();
    let first = ffo.lines().next().unwrap().to_owned() + "\n";
    let (out, err, code) = run(&["show", "--line", "--color", "never"], &first);
    assert_eq!(code, 0, "{err}");
    let rank8: Vec<&str> = out.lines().find(|l| l.starts_with("8 ")).unwrap().split_whitespace().collect();
    assert_eq!(rank8[7], "1", "{out}");
    let note = out.lines().find(|l| l.starts_with("best line for black: g8 ")).unwrap();
    assert!(note.ends_with("(score +18, exact)"), "{note}");
    let moves = note.split(": ").nth(1).unwrap().split(" (").next().unwrap().split(' ').count();
    for n in 1..=moves {
        assert!(out.split_whitespace().any(|w| w == n.to_string()), "move {n} not numbered: {out}");
    }
    let (out, _, _) = run(&["show", "--line", "--exact-empties", "8", "--depth", "3"], &first);
    assert!(out.contains("estimated at depth 3)"), "{out}");
    let full = "X".repeat(64) + " O\n";
    let (out, _, code) = run(&["show", "--line"], &full);
    assert!(code == 0 && out.contains("the game is over: no line"), "{out}");
}

/// A record with a token that is no move, or a square off the board, is drawn up to it with the
/// fault reported, as one with an illegal move is.
#[test]
fn a_record_that_stops_reading_is_drawn_up_to_the_fault() {
    let (out, err, code) = run(&["show"], "f5d6c3d3x4f4\n");
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("ply 4 of 4") && out.contains("the record's move 5 does not read: drawn up to it"), "{out}");
    assert!(err.contains("-:1:9: record 1: `x4` is not a move") && err.contains("; drawn up to it"), "{err}");
    let (out, err, code) = run(&["show"], "f5d6c3d3i4f4\n");
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("ply 4 of 4") && out.contains("the record's move 5 is off the board: drawn up to it"),
        "{out}"
    );
    let (_, err, _) = run(&["show", "--ply", "8"], "f5d6c3d3x4f4\n");
    assert!(err.contains("the record has 4 plies before its move 5, which does not read"), "{err}");
}

/// `?` and `???` (WTHOR's unknown) name no player over the board; an image name other than
/// SVG is refused rather than filled with text.
#[test]
fn unknown_players_and_image_names() {
    let (out, _, code) = run(&["show", "--color", "never"], "[Black \"???\"]\n[White \"?\"]\n\n1. f5 d6 *\n");
    assert_eq!(code, 0);
    assert!(!out.contains('?'), "{out}");
    let (out, _, _) = run(&["show", "--color", "never"], "[Black \"Ann\"]\n[White \"???\"]\n\n1. f5 d6 *\n");
    assert!(out.starts_with("Ann (black) - ? (white)\n"), "{out}");
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("board.png");
    let (_, err, code) = run(&["show", "-o", png.to_str().unwrap()], "f5\n");
    assert_eq!(code, 2);
    assert!(err.contains("kifu show writes text or SVG, not .png"), "{err}");
    assert!(!png.exists());
}

/// `--board-only` draws every position of a game at one size: no lines over or under the board.
#[test]
fn board_only_keeps_one_size_for_a_whole_game() {
    let pgn = sample("wthor-2004.pgn");
    let mut sizes = std::collections::BTreeSet::new();
    for ply in [0, 19, 21, 55, 61] {
        let (svg, err, code) = run(&["show", &pgn, "--ply", &ply.to_string(), "--board-only", "-f", "svg"], "");
        assert_eq!(code, 0, "{err}");
        let doc = check_svg(&svg);
        let root = doc.root_element();
        sizes.insert((root.attribute("width").unwrap().to_owned(), root.attribute("height").unwrap().to_owned()));
        assert!(!svg.contains("Vecchi"), "no players' line");
    }
    assert_eq!(sizes.len(), 1, "{sizes:?}");
    let (text, _, _) = run(&["show", &pgn, "--board-only", "--color", "never"], "");
    assert_eq!(text.lines().count(), 9, "{text}");
    // With --status-line, one line more, whatever the position: a pass, the end; and a transparent
    // picture has no background.
    let mut sizes = std::collections::BTreeSet::new();
    for (ply, status, counts) in [
        (0, "black to move", "black 2, white 2"),
        (55, "white to move, must pass", "black 24, white 35"),
        (56, "black to move (white passed)", "black 24, white 35"),
        (61, "game over: black wins by 18", "black 41, white 23"),
    ] {
        let ply = ply.to_string();
        let (text, _, _) = run(&["show", &pgn, "--ply", &ply, "--board-only", "--status-line", "--color", "never"], "");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[9..], [status, counts], "{text}");
        // With --line the pass just played is told too.
        let (line, _, _) = run(&["show", &pgn, "--ply", &ply, "--board-only", "--status-line", "--line"], "");
        assert!(line.contains(status), "{line}");
        let args = ["show", &pgn, "--ply", &ply, "--board-only", "--status-line", "-f", "svg", "--transparent"];
        let (svg, _, _) = run(&args, "");
        let doc = check_svg(&svg);
        let root = doc.root_element();
        sizes.insert((root.attribute("width").unwrap().to_owned(), root.attribute("height").unwrap().to_owned()));
        assert!(texts(&doc).iter().any(|t| t == status) && texts(&doc).iter().any(|t| t == counts), "{svg}");
        assert!(!svg.contains(r##"<rect x="0" y="0""##), "no background");
    }
    assert_eq!(sizes.len(), 1, "{sizes:?}");
    let (_, err, code) = run(&["show", &pgn, "--status-line", "--number"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_listing_says_every_square_the_diagram_draws() {
    let game = sample("wthor-2004.pgn");
    for ply in ["0", "20", "45", "61"] {
        let (text, _, code) = run(&["show", &game, "--ply", ply, "--color", "never"], "");
        let (list, _, list_code) = run(&["show", &game, "--ply", ply, "--format", "list"], "");
        assert_eq!((code, list_code), (0, 0));
        // The grid's squares by what they hold: X, O, and `-` or `.` (empty, a legal move).
        let mut drawn: [Vec<String>; 3] = Default::default();
        for line in text.lines().skip_while(|l| !l.starts_with("  a b")).skip(1).take(8) {
            let rank = &line[..1];
            let cells = line[1..].replace(['[', ']'], " ");
            for (file, cell) in ('a'..='h').zip(cells.split_whitespace()) {
                let kind = match cell {
                    "X" => 0,
                    "O" => 1,
                    _ => 2,
                };
                drawn[kind].push(format!("{file}{rank}"));
            }
        }
        let said = |prefix: &str| -> Vec<String> {
            let line = list.lines().find(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no {prefix}: {list}"));
            let (_, squares) = line.split_once(": ").unwrap();
            squares
                .split(", ")
                .filter(|s| *s != "none")
                .map(|s| s.trim_end_matches(" (last move)").to_owned())
                .collect()
        };
        assert_eq!(said("black "), drawn[0], "ply {ply}");
        assert_eq!(said("white "), drawn[1], "ply {ply}");
        assert_eq!(said("empty "), drawn[2], "ply {ply}");
        // The notes under the board are the same lines.
        let notes: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("8 ")).skip(1).collect();
        assert!(list.ends_with(&(notes.join("\n") + "\n")), "{list}");
        assert_eq!(list.matches("(last move)").count(), usize::from(ply != "0"), "{list}");
    }
    let (kifu, _, _) = run(&["show", &game, "--kifu", "--format", "list"], "");
    let moves = kifu.lines().find_map(|l| l.strip_prefix("moves: ")).unwrap();
    assert_eq!(moves.split(", ").count(), 60);
    assert!(moves.starts_with("1 f5 black, 2 f6 white, 3 e6 black"), "{moves}");
}

/// Moves typed a line each are lines of games: the first is drawn, and the rest are said to be
/// left out.
#[test]
fn transcript_lines_after_the_one_drawn_are_counted() {
    let (out, err, code) = run(&["show", "-", "--color", "never"], "f5\nd6\nc3\n");
    assert_eq!(code, 0);
    assert!(out.contains("ply 1 of 1"), "{out}");
    assert!(err.contains("2 more transcript records after the one drawn are not drawn"), "{err}");
    let (_, err, _) = run(&["show", "-", "--game", "2"], "f5\nf5d6\n");
    assert_eq!(err, "");
    let (_, err, _) = run(&["show", &sample("wthor-2004.pgn")], "");
    assert_eq!(err, "", "a database's other games are no surprise");
}

#[test]
fn a_sheet_lays_diagrams_out_on_pages_and_text_goes_to_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let boards = "f5d6c3d3c4\nf5f6e6f4\nf5d6c5f4e3\nf5f4e3f6d3\nf5d6c4d3c3\n";
    // Five diagrams on pages of 2x2: two pages, named after -o.
    let out = kifu()
        .args(["show", "--sheet", "2x2", "--number", "--number-from", "7", "-o"])
        .arg(dir.path().join("sheet.svg"))
        .write_stdin(boards)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 pages"));
    assert!(!dir.path().join("sheet.svg").exists());
    let first = std::fs::read_to_string(dir.path().join("sheet-1.svg")).unwrap();
    let second = std::fs::read_to_string(dir.path().join("sheet-2.svg")).unwrap();
    let doc = roxmltree::Document::parse(&first).unwrap();
    assert_eq!(doc.root_element().children().filter(|n| n.has_tag_name("svg")).count(), 4);
    assert!(first.contains("Diagram 7") && first.contains("Diagram 10") && second.contains("Diagram 11"));
    roxmltree::Document::parse(&second).unwrap();
    // One page to stdout; several refused without -o; not for text.
    let one = kifu().args(["show", "--sheet", "3x2"]).write_stdin(boards).output().unwrap();
    assert!(one.status.success());
    roxmltree::Document::parse(std::str::from_utf8(&one.stdout).unwrap()).unwrap();
    let many = kifu().args(["show", "--sheet", "1x2"]).write_stdin(boards).output().unwrap();
    assert_eq!(many.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&many.stderr).contains("3 pages of 1x2: give -o NAME.svg"));
    let text = kifu().args(["show", "--sheet", "2x2", "-f", "text"]).write_stdin(boards).output().unwrap();
    assert_eq!(text.status.code(), Some(2));
    // SVG pages go to a name ending in .svg, and SVG files of --all to a folder.
    for args in [&["--sheet", "2x2", "-o"][..], &["--all", "-f", "svg", "-o"][..]] {
        let out = kifu().arg("show").args(args).arg(dir.path().join("x.txt")).write_stdin(boards).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!dir.path().join("x.txt").exists(), "{args:?}");
    }
    // `--all -o NAME.txt`: every text diagram in that one file, as on stdout.
    let file = dir.path().join("all.txt");
    let out = kifu().args(["show", "--all", "-o"]).arg(&file).write_stdin(boards).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = kifu().args(["show", "--all"]).write_stdin(boards).output().unwrap().stdout;
    assert_eq!(std::fs::read(&file).unwrap(), stdout);
}
