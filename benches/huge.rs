//! Huge inputs: generates a multi-gigabyte transcript file and a large WTHOR database of random
//! legal games (all distinct: every game's keys go through stats' duplicate detection, none is
//! listed as a duplicate), then runs `kifu
//! validate`, `export` and `stats` on them and reports each run's wall time and peak resident
//! memory (the kernel's `ru_maxrss` of the child).
//!
//! `cargo bench --bench huge -- [GIB] [WTHOR_GAMES]` (defaults: 2 GiB of transcripts and 2,000,000
//! WTHOR games, 136 MB). Files go to `$KIFU_HUGE_DIR` (default: the system's temporary folder)
//! and are removed at the end. Figures in docs/BENCHMARKS.md; the bound asked of kifu is 200 MB.

#[cfg(target_os = "linux")]
mod linux {
    use std::fs::File;
    use std::io::{BufWriter, Write};
    use std::path::Path;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    use kifu::core::bitboard::{Bits, flips, legal_moves};
    use kifu::core::splitmix64;
    use kifu::notation::wthor;

    /// A random legal game from the standard start: squares 0-63 (a1 = 0, rank by rank), passes
    /// implicit, until neither side can move; black's discs at the end, counted as WTHOR does
    /// (empty squares to the winner, half each for a draw).
    fn random_game(seed: &mut u64, moves: &mut Vec<u8>) -> u32 {
        moves.clear();
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut passed = false;
        let mut turns = 0u32;
        loop {
            let legal = legal_moves(p, o);
            if legal == 0 {
                if passed {
                    // The side to move is black when an even number of turns has passed.
                    let (black, white) = if turns.is_multiple_of(2) { (p, o) } else { (o, p) };
                    let (b, w) = (black.count_ones(), white.count_ones());
                    let empties = 64 - b - w;
                    return match b.cmp(&w) {
                        std::cmp::Ordering::Greater => b + empties,
                        std::cmp::Ordering::Less => b,
                        std::cmp::Ordering::Equal => b + empties / 2,
                    };
                }
                passed = true;
                std::mem::swap(&mut p, &mut o);
                turns += 1;
                continue;
            }
            passed = false;
            *seed = splitmix64(*seed);
            let pick = (*seed % u64::from(legal.count_ones())) as usize;
            let sq = Bits(legal).nth(pick).expect("a legal move");
            let f = flips(sq, p, o);
            p |= f | 1 << sq;
            o &= !f;
            moves.push(sq as u8);
            std::mem::swap(&mut p, &mut o);
            turns += 1;
        }
    }

    /// Writes transcripts (`f5d6c3...`, one a line) until the file holds `bytes`; the game count.
    fn write_transcripts(path: &Path, bytes: u64) -> u64 {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path).unwrap());
        let (mut seed, mut moves, mut written, mut games) = (1u64, Vec::new(), 0u64, 0u64);
        let mut line = Vec::with_capacity(130);
        while written < bytes {
            let _ = random_game(&mut seed, &mut moves);
            line.clear();
            for &sq in &moves {
                line.extend_from_slice(&[b'a' + sq % 8, b'1' + sq / 8]);
            }
            line.push(b'\n');
            out.write_all(&line).unwrap();
            written += line.len() as u64;
            games += 1;
        }
        out.flush().unwrap();
        games
    }

    /// Writes a WTHOR database of `games` random games.
    fn write_wthor(path: &Path, games: u32) {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path).unwrap());
        let header = wthor::Header { created: (2026, 11, 23), games, year: 2026, board_size: 8, ..Default::default() };
        out.write_all(&header.to_bytes()).unwrap();
        let (mut seed, mut moves) = (2u64, Vec::new());
        for i in 0..games {
            let black = random_game(&mut seed, &mut moves);
            let mut record = [0u8; wthor::RECORD_LEN];
            record[6] = black as u8;
            record[7] = black as u8;
            record[0..2].copy_from_slice(&((i % 400) as u16).to_le_bytes());
            record[2..4].copy_from_slice(&((i % 3000) as u16).to_le_bytes());
            record[4..6].copy_from_slice(&(((i + 7) % 3000) as u16).to_le_bytes());
            for (slot, &sq) in record[8..].iter_mut().zip(&moves) {
                *slot = 10 * (sq / 8 + 1) + sq % 8 + 1;
            }
            out.write_all(&record).unwrap();
        }
        out.flush().unwrap();
    }

    /// Runs kifu with `args`, output to /dev/null; wall seconds and peak resident MB.
    #[allow(clippy::zombie_processes, reason = "the child is reaped by wait4, which also gives its rusage")]
    fn measure(args: &[&str]) -> (f64, f64, i32) {
        let started = Instant::now();
        let child = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut status = 0;
        // SAFETY: wait4 on our own child, with valid pointers to a status word and a zeroed rusage.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
        assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
        let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
        (started.elapsed().as_secs_f64(), usage.ru_maxrss as f64 / 1024.0, code)
    }

    pub fn main() {
        let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
        let gib: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(2.0);
        let wthor_games: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2_000_000);
        let dir = tempfile::Builder::new()
            .prefix("kifu-huge-")
            .tempdir_in(std::env::var_os("KIFU_HUGE_DIR").unwrap_or_else(|| std::env::temp_dir().into_os_string()))
            .unwrap();
        let text = dir.path().join("random.txt");
        let wtb = dir.path().join("random.wtb");

        let started = Instant::now();
        let games = write_transcripts(&text, (gib * f64::from(1u32 << 30)) as u64);
        let size = std::fs::metadata(&text).unwrap().len();
        println!(
            "generated {}: {games} games, {:.2} GiB in {:.1} s",
            text.display(),
            size as f64 / f64::from(1u32 << 30),
            started.elapsed().as_secs_f64()
        );
        let started = Instant::now();
        write_wthor(&wtb, wthor_games);
        println!(
            "generated {}: {wthor_games} games, {} MB in {:.1} s",
            wtb.display(),
            std::fs::metadata(&wtb).unwrap().len() / 1_000_000,
            started.elapsed().as_secs_f64()
        );

        let (text, wtb) = (text.to_str().unwrap(), wtb.to_str().unwrap());
        let runs: [(&str, Vec<&str>); 8] = [
            ("validate transcripts (csv)", vec!["validate", text, "-q", "--format", "csv"]),
            ("export games, transcripts", vec!["export", text, "-q", "--table", "games"]),
            ("stats, transcripts", vec!["stats", text, "-q"]),
            ("validate WTHOR (csv)", vec!["validate", wtb, "-q", "--format", "csv"]),
            ("export games, WTHOR", vec!["export", wtb, "-q", "--table", "games"]),
            ("export moves, WTHOR", vec!["export", wtb, "-q", "--table", "moves"]),
            ("export positions, WTHOR", vec!["export", wtb, "-q", "--table", "positions"]),
            ("stats, WTHOR", vec!["stats", wtb, "-q"]),
        ];
        println!("\n| run | games | wall time | peak RSS | exit |\n|---|---|---|---|---|");
        for (name, args) in runs {
            let (seconds, mb, code) = measure(&args);
            let n = if args[1] == text { games } else { u64::from(wthor_games) };
            println!("| {name} | {n} | {seconds:.1} s | {mb:.0} MB | {code} |");
        }
    }
}

#[cfg(target_os = "linux")]
fn main() {
    linux::main();
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("the huge-input benchmark measures peak memory with wait4 and runs on Linux only");
}
