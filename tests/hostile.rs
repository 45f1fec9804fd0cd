//! Corrupt and hostile inputs: each bad record gets an error naming the file and the record,
//! the good records before and after it are still handled, and the exit code is 1.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A legal game (the first of samples/logbook.gam as a transcript).
const GOOD: &str = "d3c3c4e3c2b3d2e1d1c1f4d6e6g4b2f6d7c8e7d8f3f5g5h4h6f2f7h5g6c6c5c7b6b5b4e8h3g3h2e2h7g2b1a1h1a2a3g7f8h8g8a4g1f1a6a5a7a8b8b7";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn kifu(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu")).args(args).output().unwrap();
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `kifu validate --format csv` on the files: exit 1, and each record's status in order.
fn statuses(files: &[&Path]) -> (Vec<(String, String)>, Run) {
    let mut args = vec!["validate", "--format", "csv", "-q"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let run = kifu(&args);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    let rows = run
        .stdout
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (cells[1].to_owned(), cells[2].to_owned())
        })
        .collect();
    (rows, run)
}

/// `count` copies of the good game, one a line, gzipped.
fn gzipped_games(count: usize) -> Vec<u8> {
    let text: String = (0..count).map(|_| format!("{GOOD}\n")).collect();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

fn wthor_sample() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/wthor/WTH_2004-50.wtb")).unwrap()
}

/// A missing file, an archive or a folder with no record files anywhere among the inputs stops
/// the run before any is read, and no output file is left.
#[test]
fn a_missing_input_stops_the_run_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.txt", b"f5d6c3\n");
    let (missing, folder) = (dir.path().join("missing.txt"), dir.path().join("sub"));
    std::fs::create_dir(&folder).unwrap();
    let zip = write(dir.path(), "games.pgn", b"PK\x03\x04rest");
    let out = dir.path().join("out.csv");
    for bad in [&missing, &folder, &zip] {
        let run = kifu(&[
            "export",
            "--table",
            "games",
            good.to_str().unwrap(),
            bad.to_str().unwrap(),
            good.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        // (A folder is its record files: this one has none.)
        let why = if bad == &folder {
            format!("the folder {} holds no record files", bad.display())
        } else if bad == &zip {
            format!("cannot read {}: it is a zip archive", bad.display())
        } else {
            format!("cannot read {}", bad.display())
        };
        assert!(run.stderr.contains(&why), "{}", run.stderr);
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3, "no temporary file left");
    }
}

#[test]
fn a_truncated_wthor_file_keeps_the_games_before_the_cut_and_the_next_file() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = wthor_sample();
    let cut = write(dir.path(), "cut.wtb", &bytes[..16 + 68 * 30 + 20]);
    let next = write(dir.path(), "next.txt", format!("{GOOD}\n").as_bytes());
    let (rows, run) = statuses(&[&cut, &next]);
    assert_eq!(rows.len(), 32);
    assert!(rows[..30].iter().all(|(_, s)| s == "ok"), "{rows:?}");
    assert_eq!(rows[30], ("31".to_owned(), "parse_error".to_owned()));
    assert_eq!(rows[31], ("1".to_owned(), "ok".to_owned()));
    let text = kifu(&["validate", cut.to_str().unwrap()]);
    assert!(
        text.stdout.contains("cut.wtb: record 31 (byte 2056): the file ends inside a game record"),
        "{}",
        text.stdout
    );
    // Only the warning that no name files stand beside it.
    assert!(run.stderr.lines().all(|l| l.contains("no name files beside it")), "{}", run.stderr);
}

#[test]
fn a_wthor_header_with_the_wrong_game_count_is_a_file_problem_and_every_game_is_read() {
    let dir = tempfile::tempdir().unwrap();
    for said in [10u32, 70] {
        let mut bytes = wthor_sample();
        bytes[4..8].copy_from_slice(&said.to_le_bytes());
        let path = write(dir.path(), &format!("said-{said}.wtb"), &bytes);
        let want = format!("said-{said}.wtb: the header says the file holds {said} games, but it holds 50");
        // A row per game, none for the count, which is a warning beside the rows; exit 1.
        let (rows, run) = statuses(&[&path]);
        assert_eq!(rows.len(), 50, "{rows:?}");
        assert!(rows.iter().all(|(_, s)| s == "ok"), "{rows:?}");
        assert!(run.stderr.contains("kifu validate: warning: ") && run.stderr.contains(&want), "{}", run.stderr);
        // Text lists it with the records' problems, and the summary counts it.
        let text = kifu(&["validate", path.to_str().unwrap()]);
        assert_eq!(text.code, Some(1));
        assert!(text.stdout.contains(&want), "{}", text.stdout);
        assert!(text.stderr.contains("50 games: 50 ok") && text.stderr.contains("; 1 file problem"), "{}", text.stderr);
        // Other commands read every game and warn; fewer games than the header says is a file
        // cut short (exit 1), more is not.
        let stats = kifu(&["stats", path.to_str().unwrap()]);
        assert_eq!(stats.code, Some(if said > 50 { 1 } else { 0 }), "{}", stats.stderr);
        assert!(stats.stderr.contains("kifu stats: warning: ") && stats.stderr.contains(&want), "{}", stats.stderr);
        assert!(stats.stderr.contains("50 games, 0 not ok"), "{}", stats.stderr);
    }
    // The right count: no warning.
    let path = write(dir.path(), "right.wtb", &wthor_sample());
    let run = kifu(&["validate", path.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("file problem"), "{}", run.stderr);
}

#[test]
fn a_wthor_file_too_short_for_its_header_is_a_file_problem_and_the_next_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.wtb", &wthor_sample());
    for (name, bytes) in [("empty.wtb", &[][..]), ("cut.wtb", &wthor_sample()[..10])] {
        let bad = write(dir.path(), name, bytes);
        let want = format!("{name}: too short for a WTHOR header of 16 bytes: no game read");
        let text = kifu(&["validate", bad.to_str().unwrap(), good.to_str().unwrap()]);
        assert_eq!(text.code, Some(1), "{}", text.stderr);
        assert!(text.stdout.contains(&want), "{}", text.stdout);
        assert!(text.stderr.contains("50 games: 50 ok") && text.stderr.contains("; 1 file problem"), "{}", text.stderr);
        let stats = kifu(&["stats", bad.to_str().unwrap(), good.to_str().unwrap()]);
        // Games may be missing: exit 1 as for a record that does not read.
        assert_eq!(stats.code, Some(1), "{}", stats.stderr);
        assert!(stats.stderr.contains(&want) && stats.stderr.contains("50 games, 0 not ok"), "{}", stats.stderr);
    }
}

#[test]
fn bad_lines_in_text_are_errors_of_their_own_records_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = Vec::new();
    let bad: [&[u8]; 5] = [
        b"d3c3\xff\xfec4",         // not UTF-8
        b"d3c3\x00\x00c4",         // NUL bytes
        &[b'd'; 3 << 20],          // a line of 3 MiB, over the record limit
        &b"c4 ".repeat(400_000),   // one token repeated (1.2 MB: also over the limit)
        &b"pass ".repeat(100_000), // passes repeated, under the limit
    ];
    for line in bad {
        bytes.extend_from_slice(GOOD.as_bytes());
        bytes.push(b'\n');
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(GOOD.as_bytes());
    bytes.push(b'\n');
    let path = write(dir.path(), "games.txt", &bytes);
    let (rows, _) = statuses(&[&path]);
    assert_eq!(rows.len(), 11, "{rows:?}");
    for (i, (index, status)) in rows.iter().enumerate() {
        assert_eq!(index, &(i + 1).to_string());
        assert_eq!(status == "ok", i % 2 == 0, "record {}: {status}", i + 1);
    }
    let text = kifu(&["validate", path.to_str().unwrap()]);
    assert!(text.stdout.contains("games.txt:6:1: record 6: "), "{}", &text.stdout[..text.stdout.len().min(3000)]);
    assert!(text.stdout.contains("games.txt:2:"), "the line of the bad bytes is named");
}

#[test]
fn deeply_nested_records_are_errors_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let deep = 200_000;
    let sgf = [
        b"(;GM[2]FF[4]SZ[8];B[fe]".to_vec(),
        b"(;W[dc]".repeat(deep / 8),
        b")".repeat(deep / 8),
        b")\n(;GM[2]FF[4]SZ[8];B[fe])\n".to_vec(),
    ]
    .concat();
    let json = [
        b"{\"moves\":".to_vec(),
        b"[".repeat(deep),
        b"]".repeat(deep),
        b"}\n{\"moves\":[{\"move\":\"f5\"}]}\n".to_vec(),
    ]
    .concat();
    let pgn = [
        b"[Event \"x\"]\n\n1. f5 ".to_vec(),
        b"(".repeat(deep / 4),
        b"{".repeat(deep / 4),
        b"} 1. d3 ".to_vec(),
        b")".repeat(deep / 4),
        b" *\n\n[Event \"y\"]\n\n1. f5 d6 *\n".to_vec(),
    ]
    .concat();
    for (name, bytes) in [("deep.sgf", sgf), ("deep.jsonl", json), ("deep.pgn", pgn)] {
        let path = write(dir.path(), name, &bytes);
        let run = kifu(&["validate", "--format", "csv", "-q", path.to_str().unwrap()]);
        assert!(matches!(run.code, Some(0 | 1)), "{name}: {:?} {}", run.code, run.stderr);
        let last = run.stdout.lines().last().unwrap_or("");
        assert!(last.contains(",ok,") || last.contains(",unfinished,"), "{name}: the record after: {last}");
    }
}

#[test]
fn gzip_that_ends_early_keeps_the_records_before_and_the_next_file() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzipped_games(2000);
    let cut = write(dir.path(), "cut.txt.gz", &gz[..gz.len() * 2 / 3]);
    let next = write(dir.path(), "next.txt", format!("{GOOD}\n").as_bytes());
    let (rows, _) = statuses(&[&cut, &next]);
    let ok = rows.iter().filter(|(_, s)| s == "ok").count();
    assert!(ok > 100 && ok < 2000, "{ok} games read before the cut");
    assert_eq!(rows[rows.len() - 2].1, "parse_error");
    assert_eq!(rows.last().unwrap(), &("1".to_owned(), "ok".to_owned()), "the next file is read");
    let run = kifu(&["validate", cut.to_str().unwrap()]);
    assert!(run.stdout.contains("the gzip data is damaged or cut short"), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("cut.txt.gz: record {}", rows.len() - 1)), "{}", run.stdout);
}

/// A gzip file whose trailer (checksum and length) is cut off after the last record: every
/// record is read and none is made up; the damage is a problem of the file (exit 1).
#[test]
fn gzip_cut_in_its_trailer_reads_every_record_and_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut encoder, bytes).unwrap();
        encoder.finish().unwrap()
    };
    let pgn = "[Event \"E\"]\n\n1. f5 d6 *\n\n[Event \"F\"]\n\n1. f5 d6 2. c3 *\n";
    let ggf =
        "(;GM[Othello]PC[x]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)\n";
    let cases: [(&str, Vec<u8>, usize); 4] = [
        ("lines.txt.gz", gzipped_games(20), 20),
        ("games.pgn.gz", gzip(pgn.as_bytes()), 2),
        ("games.ggf.gz", gzip(ggf.repeat(3).as_bytes()), 3),
        ("games.wtb.gz", gzip(&wthor_sample()), 50),
    ];
    for (name, gz, records) in cases {
        for cut in [4, 8] {
            let path = write(dir.path(), &format!("cut{cut}-{name}"), &gz[..gz.len() - cut]);
            let (rows, run) = statuses(&[&path]);
            assert_eq!(rows.len(), records, "{name} cut by {cut}: {rows:?}");
            assert!(rows.iter().all(|(_, s)| s != "parse_error"), "{name} cut by {cut}: {rows:?}");
            assert!(run.stderr.contains("the gzip data is damaged or cut short"), "{}", run.stderr);
            let text = kifu(&["validate", path.to_str().unwrap()]);
            assert!(text.stdout.contains(&format!("after record {records} (byte ")), "{}", text.stdout);
            assert!(text.stderr.contains(&format!("{records} games")), "{}", text.stderr);
        }
    }
    // Every command exits 1 on a damaged file, as on a record it could not read.
    let path = dir.path().join("cut4-lines.txt.gz");
    for command in
        [&["stats", "-q"][..], &["export", "-q", "-t", "games"], &["convert", "-q", "--to", "pgn"], &["show", "--all"]]
    {
        let mut args = command.to_vec();
        args.push(path.to_str().unwrap());
        let run = kifu(&args);
        assert_eq!(run.code, Some(1), "{command:?}: {}", run.stderr);
        assert!(run.stderr.contains("warning: ") && run.stderr.contains("after record 20"), "{}", run.stderr);
    }
}

/// A PGN game cut by the damage, its moves short of their result, is the record in error: not a
/// game that stops early, and no record is made up after it.
#[test]
fn gzip_cut_inside_a_pgn_game_makes_that_game_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let game = "[Event \"E\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n";
    let text = game.repeat(3);
    // Stored without compression, so that a cut in the file is a cut at a known place of the text.
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    std::io::Write::write_all(&mut encoder, text.as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    // Cut after `2. c3` of the third game: the gzip header (10 bytes) and a block header (5).
    let keep = 15 + 2 * game.len() + game.find(" d3").unwrap();
    let path = write(dir.path(), "cut.pgn.gz", &gz[..keep]);
    let (rows, run) = statuses(&[&path]);
    let statuses: Vec<&str> = rows.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(statuses, ["unfinished", "unfinished", "parse_error"], "{}", run.stderr);
    let text = kifu(&["validate", path.to_str().unwrap()]);
    assert!(
        text.stdout.contains("cut.pgn.gz: record 3") && text.stdout.contains("damaged or cut short"),
        "{}",
        text.stdout
    );
}

/// A file cut inside its gzip header (an aborted download) is damaged, not empty.
#[test]
fn gzip_cut_inside_its_header_is_no_empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzipped_games(10);
    for cut in [2, 5, 9] {
        let path = write(dir.path(), &format!("cut-{cut}.txt.gz"), &gz[..cut]);
        // No record text came out: a problem of the file, no made-up record.
        let (rows, run) = statuses(&[&path]);
        assert!(rows.is_empty(), "{rows:?}");
        assert!(run.stderr.contains("before any record (byte 0): the gzip data is damaged"), "{}", run.stderr);
        for command in ["stats", "validate", "export"] {
            let mut args = vec![command, "-q", path.to_str().unwrap()];
            if command == "export" {
                args.extend(["--table", "games"]);
            }
            assert_eq!(kifu(&args).code, Some(1), "{command} on {cut} bytes");
        }
    }
}

#[test]
fn damaged_gzip_is_an_error_of_its_record_wherever_the_damage_is() {
    let dir = tempfile::tempdir().unwrap();
    let gz = gzipped_games(300);
    let next = write(dir.path(), "next.txt", format!("{GOOD}\n").as_bytes());
    // Bytes flipped just after the gzip header (damage before any record) and in the middle.
    for at in [12, gz.len() / 2] {
        let mut bad = gz.clone();
        for b in &mut bad[at..at + 8] {
            *b ^= 0x5a;
        }
        let path = write(dir.path(), &format!("flipped-{at}.txt.gz"), &bad);
        let (rows, run) = statuses(&[&path, &next]);
        assert_eq!(rows.last().unwrap(), &("1".to_owned(), "ok".to_owned()), "the next file is read: {}", run.stderr);
        // Damage inside a record's text makes that record an error; damage before any text came
        // out is the file's.
        let errors = rows.iter().filter(|(_, s)| s == "parse_error").count();
        assert!(errors >= 1 || run.stderr.contains("before any record"), "{rows:?} {}", run.stderr);
        let text = kifu(&["validate", path.to_str().unwrap()]);
        assert!(text.stdout.contains("flipped-"), "{}", text.stdout);
        assert!(text.stdout.contains("the gzip data is damaged or cut short"), "{}", text.stdout);
    }
}

#[test]
fn control_characters_in_records_never_reach_the_terminal_or_the_svg() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = write(dir.path(), "x.pgn", b"[Event \"E\"]\n[Black \"a\"]\n[White \"x\x01y\"]\n\n1. f5 d6 *\n");
    let svg = dir.path().join("x.svg");
    let run = kifu(&["show", pgn.to_str().unwrap(), "--format", "svg", "-o", svg.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(!svg.contains('\u{1}') && svg.contains("x\u{FFFD}y"), "XML has no place for U+0001");
    let show = kifu(&["show", pgn.to_str().unwrap()]);
    assert!(show.stdout.contains("x\u{FFFD}y (white)"), "{}", show.stdout);
    let annotate = kifu(&["annotate", pgn.to_str().unwrap(), "--depth", "2", "-q", "-j", "1"]);
    assert!(
        annotate.stdout.contains("vs x\u{FFFD}y (white)") && !annotate.stdout.contains('\u{1}'),
        "{}",
        annotate.stdout
    );
    // An escape sequence in a bad token: shown, each control character replaced, the caret
    // still under the token.
    let esc = write(dir.path(), "esc.txt", b"f5d6\x1b[31mRED\n");
    let run = kifu(&["validate", esc.to_str().unwrap()]);
    assert!(!run.stdout.contains('\u{1b}'), "{}", run.stdout);
    assert!(run.stdout.contains("1 | f5d6\u{FFFD}[31mRED\n  |     ^^^^^^^^"), "{}", run.stdout);
}

/// A file of the wrong kind (text, no record of its format) is no empty file: every reading
/// command says so and exits 1.
#[test]
fn a_file_of_the_wrong_kind_fails_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let page = write(dir.path(), "page.ggf", b"<html>not a game</html>\n");
    let page = page.to_str().unwrap();
    for args in
        [&["validate", page][..], &["export", "-t", "games", page], &["stats", page], &["convert", page, "--to", "pgn"]]
    {
        let run = kifu(args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(said.contains("no ggf record in this file, only other text"), "{args:?}: {said}");
    }
}
