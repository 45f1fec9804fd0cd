//! Interrupted runs: SIGINT, SIGTERM or SIGHUP at pseudo-random moments (within the time an
//! uninterrupted run took) during validate, export and annotate
//! leaves no half-written output (no file, or the whole file), no temporary file, and exit code
//! 130; annotate's `--resume` then finishes with the bytes of an uninterrupted run.
#![cfg(target_os = "linux")]

mod common;

use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use kifu::core::splitmix64;

fn kifu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples").join(name)
}

/// Waits `millis`, then sends `signal` (unless the run has ended) and waits for the end.
fn interrupt(mut child: Child, millis: u64, signal: i32) -> ExitStatus {
    std::thread::sleep(Duration::from_millis(millis));
    if child.try_wait().unwrap().is_none() {
        // SAFETY: kill(2) on a child that has not been waited for (its pid is still ours).
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    }
    child.wait().unwrap()
}

/// The files in `dir`, by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Pseudo-random moments within a run that took `whole`, and signals.
fn moments(seed: u64, count: usize, whole: Duration) -> Vec<(u64, i32)> {
    let mut s = seed;
    let millis = whole.as_millis().max(20) as u64;
    (0..count)
        .map(|_| {
            s = splitmix64(s);
            (s % millis, [libc::SIGINT, libc::SIGTERM, libc::SIGHUP][(s >> 32) as usize % 3])
        })
        .collect()
}

/// Runs `args` with `-o DIR/out` and stops it at each moment: every stop leaves either
/// nothing (exit 130, or death by the signal before kifu set up its handler, when no file had
/// been made) or, if the run won, exactly `expected`.
fn stopped_runs_leave_nothing_or_everything(args: &[&str], seed: u64) {
    let whole = tempfile::tempdir().unwrap();
    let expected_path = whole.path().join("out");
    let started = Instant::now();
    let status = kifu().args(args).arg("-o").arg(&expected_path).status().unwrap();
    let took = started.elapsed();
    assert!(status.code().is_some_and(|c| c <= 1), "{args:?}: {status:?}");
    let expected = std::fs::read(&expected_path).unwrap();
    let mut stopped = 0;
    for (millis, signal) in moments(seed, 6, took) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let child = kifu().args(args).arg("-o").arg(&out).stderr(std::process::Stdio::null()).spawn().unwrap();
        let status = interrupt(child, millis, signal);
        let left = files(dir.path());
        // Nothing, or the whole file (a signal after the file was moved into place still
        // exits 130).
        let whole_or_nothing = left.is_empty() || (left == ["out"] && std::fs::read(&out).unwrap() == expected);
        assert!(whole_or_nothing, "{args:?} stopped at {millis} ms left {left:?}");
        match status.code() {
            Some(130) => stopped += 1,
            Some(0 | 1) => assert_eq!(left, ["out"], "{args:?}: a finished run"),
            other => {
                assert_eq!(status.signal(), Some(signal), "{args:?} at {millis} ms: {other:?}");
                assert!(left.is_empty(), "{args:?} died at {millis} ms leaving {left:?}");
            }
        }
    }
    assert!(stopped > 0, "{args:?}: no run was stopped by its signal");
}

#[test]
fn interrupted_validate_and_export_leave_no_file() {
    let Some(logbook) = common::shared("logistello/logbook.gam.gz") else { return };
    let logbook = logbook.to_str().unwrap();
    stopped_runs_leave_nothing_or_everything(&["validate", logbook, "-q", "--format", "csv"], 1);
    stopped_runs_leave_nothing_or_everything(&["export", logbook, "-q", "--table", "games"], 2);
}

#[test]
fn interrupted_annotate_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let log = sample("logbook.gam");
    let log = log.to_str().unwrap();
    let settings = ["--depth", "4", "--exact-empties", "12", "-q", "-f", "csv", "-j", "2"];
    let whole = dir.path().join("whole.csv");
    let started = Instant::now();
    let status = kifu().arg("annotate").arg(log).arg("-o").arg(&whole).args(settings).status().unwrap();
    let took = started.elapsed();
    assert_eq!(status.code(), Some(0));
    let expected = std::fs::read(&whole).unwrap();

    for (i, (millis, signal)) in moments(3, 5, took).into_iter().enumerate() {
        let out = dir.path().join(format!("out{i}.csv"));
        let run = |resume: bool| {
            let mut cmd = kifu();
            cmd.arg("annotate").arg(log).arg("-o").arg(&out).args(settings).stderr(std::process::Stdio::null());
            if resume {
                cmd.arg("--resume");
            }
            cmd
        };
        // Stopped twice, at the moment and again after a third of it, then resumed to the end.
        // (A run that finishes first leaves nothing to resume.)
        let mut stops = vec![interrupt(run(false).spawn().unwrap(), millis, signal)];
        if !out.exists() {
            stops.push(interrupt(run(true).spawn().unwrap(), millis / 3, signal));
        }
        for status in stops {
            assert!(
                matches!(status.code(), Some(0 | 130)) || status.signal() == Some(signal),
                "at {millis} ms: {status:?}"
            );
        }
        if !out.exists() {
            let last = run(true).status().unwrap();
            assert_eq!(last.code(), Some(0), "resume after {millis} ms");
        }
        assert!(std::fs::read(&out).unwrap() == expected, "stopped at {millis} ms, then resumed: other bytes");
        let partial = dir.path().join(format!("out{i}.csv.partial"));
        assert!(!partial.exists() && !dir.path().join(format!("out{i}.csv.partial.log")).exists());
    }
}

/// A run killed outright leaves its temporary file; the next run writing the same output
/// removes it, but not the file of a run still going.
#[test]
fn a_killed_runs_temporary_file_is_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    // A process that has ended: its pid names no running process.
    let mut ended = Command::new("true").spawn().unwrap();
    ended.wait().unwrap();
    let stale = format!(".out.csv.kifu-{}.tmp", ended.id());
    let running = format!(".out.csv.kifu-{}.tmp", std::process::id());
    std::fs::write(dir.path().join(&stale), "half a file").unwrap();
    std::fs::write(dir.path().join(&running), "being written").unwrap();
    let out = kifu()
        .args(["validate", "-q", "-f", "csv", "-o"])
        .arg(dir.path().join("out.csv"))
        .arg(sample("kifu.txt"))
        .output()
        .unwrap();
    assert!(out.status.code().is_some(), "{out:?}");
    assert_eq!(files(dir.path()), [running, "out.csv".to_owned()]);
}
