//! Where a command writes: stdout, or a file replaced atomically when the command finishes; and
//! what an interrupt (SIGINT, SIGTERM, SIGHUP) does: the temporary files of outputs not yet in
//! place are removed and the process exits with [`INTERRUPTED`].

use std::fs::File;
use std::io::{self, BufWriter, Stdout, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use anyhow::Context;

/// The exit code of a run stopped by a signal (the shell's 128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// The temporary files of the outputs being written, and what to say when interrupted.
static PENDING: Mutex<Pending> = Mutex::new(Pending { temps: Vec::new(), note: None });

struct Pending {
    temps: Vec<PathBuf>,
    note: Option<String>,
}

fn pending() -> MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Installs the interrupt handler: on SIGINT, SIGTERM or SIGHUP the outputs not yet moved into
/// place lose their temporary files (so no half-written file is left and earlier files are
/// untouched), the note set by [`on_interrupt`] is printed, and the process exits with
/// [`INTERRUPTED`]. A second call does nothing.
pub fn handle_interrupts() {
    let _ = ctrlc::set_handler(|| {
        // Held to the end: an output being moved into place finishes its move first.
        let pending = pending();
        for temp in &pending.temps {
            let _ = std::fs::remove_file(temp);
        }
        let note = pending.note.as_deref().map(|n| format!("; {n}")).unwrap_or_default();
        stderr!("kifu: interrupted{note}");
        std::process::exit(INTERRUPTED);
    });
}

/// Runs the last step of a run (such as moving a finished file into place) with interrupts
/// held off, then forgets the note of [`on_interrupt`]: a signal that comes meanwhile takes
/// effect after it, and says nothing of work left to resume. `f` must not open, finish or drop
/// an [`Output`], nor call [`on_interrupt`] (they take the same lock).
pub fn finishing<T>(f: impl FnOnce() -> T) -> T {
    let mut pending = pending();
    let result = f();
    pending.note = None;
    result
}

/// What to tell the user when the run is interrupted (e.g. how to resume).
pub fn on_interrupt(note: impl Into<String>) {
    pending().note = Some(note.into());
}

/// Where an `-o` path leads.
pub enum Target {
    /// A regular file, or no file yet: written under a temporary name and renamed over this
    /// path, the file's real one (a symlink's target, so the link stays a link).
    Replace(PathBuf),
    /// A device, a FIFO, a terminal (`/dev/null`, `/dev/stdout`): written to as it is; renaming
    /// a file over it would replace it.
    Through,
}

/// Where `path` leads: a directory or a read-only file is an error.
pub fn target(path: &Path) -> anyhow::Result<Target> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => anyhow::bail!("cannot write {}: it is a directory", path.display()),
        Ok(m) if m.is_file() && m.permissions().readonly() => {
            anyhow::bail!("cannot write {}: it is read-only (made so to keep it as it is?)", path.display())
        }
        Ok(m) if m.is_file() => {
            let real = std::fs::canonicalize(path).with_context(|| format!("cannot write {}", path.display()))?;
            Ok(Target::Replace(real))
        }
        Ok(_) => Ok(Target::Through),
        // A link to nothing yet: writing through it makes the file it names.
        Err(_) if std::fs::symlink_metadata(path).is_ok() => Ok(Target::Through),
        Err(_) => Ok(Target::Replace(path.to_path_buf())),
    }
}

/// Makes the folder `dir` (and its parents) for files written into it, and checks that a file
/// can be made there, so that a run fails before it writes anything else.
pub fn create_folder(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!("cannot write into {}: it is a file, not a folder", dir.display());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
    tempfile::Builder::new()
        .prefix(".kifu-check")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write into the folder {}", dir.display()))?;
    Ok(())
}

/// Opens a [`Target::Through`] path for writing as it is.
pub fn open_through(path: &Path) -> anyhow::Result<File> {
    File::options()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A buffered output. A file is written under a temporary name in the same folder and renamed
/// over the target by [`Output::finish`], so an interrupted run never leaves a half-written file;
/// a device or FIFO is written to directly. A file named `.gz` (or `.svgz`) is written gzipped.
pub struct Output {
    inner: Inner,
}

/// A CSV text cell as a spreadsheet should show it: text that starts as a formula does (`=`,
/// `+`, `-`, `@`, a tab or a carriage return) and is no number gets a `'` first, so that a
/// name such as `=HYPERLINK(...)` is shown, not run; numbers (`-12`, `+4`) are left as they are.
#[must_use]
pub fn for_spreadsheets(text: String) -> String {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    // A number as a spreadsheet reads one: digits, a sign, a point, an exponent (not `-inf`).
    let number = text.trim().parse::<f64>().is_ok_and(f64::is_finite)
        && text.trim().chars().all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.' | 'e' | 'E'));
    if formula && !number { format!("'{text}") } else { text }
}

enum Inner {
    Stdout(BufWriter<Stdout>),
    Through { writer: BufWriter<File>, path: PathBuf },
    File { writer: FileWriter, temp: PathBuf, target: PathBuf, finished: bool },
}

/// A file output's writer: plain, or gzip for a name ending in `.gz` (or `.svgz`).
enum FileWriter {
    Plain(BufWriter<File>),
    Gzip(Box<flate2::write::GzEncoder<BufWriter<File>>>),
}

impl FileWriter {
    /// Writes what is buffered (and gzip's end) to the file, and to the disk.
    fn complete(&mut self) -> io::Result<()> {
        let file = match self {
            FileWriter::Plain(w) => w,
            FileWriter::Gzip(z) => {
                z.try_finish()?;
                z.get_mut()
            }
        };
        file.flush()?;
        file.get_ref().sync_all()
    }
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            FileWriter::Plain(w) => w.write(buf),
            FileWriter::Gzip(z) => z.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            FileWriter::Plain(w) => w.flush(),
            FileWriter::Gzip(z) => z.flush(),
        }
    }
}

/// Removes the temporary files a run killed outright (`SIGKILL`, an out-of-memory kill) left
/// beside `target` (named `name`): `.NAME.kifu-PID.tmp` of a process that no longer runs. Only
/// where running processes can be told (Linux's `/proc`); a file of a running one is left.
fn remove_stale_temps(target: &Path, name: &std::ffi::OsStr) {
    if !cfg!(target_os = "linux") || !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{}.kifu-", name.to_string_lossy());
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether a file named so is written gzipped: `.gz`, or `.svgz` (gzipped SVG).
fn gzipped(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy().to_ascii_lowercase();
    name.ends_with(".gz") || name.ends_with(".svgz")
}

impl Output {
    /// Stdout for `None` or `-`, else the file at `path`.
    pub fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        let inner = match path {
            None => Inner::Stdout(BufWriter::new(io::stdout())),
            Some(p) if p.as_os_str() == "-" => Inner::Stdout(BufWriter::new(io::stdout())),
            Some(given) => {
                let target = match target(given)? {
                    Target::Through => {
                        let writer = BufWriter::new(open_through(given)?);
                        return Ok(Output { inner: Inner::Through { writer, path: given.to_path_buf() } });
                    }
                    Target::Replace(real) => real,
                };
                let target = target.as_path();
                let name = target.file_name().with_context(|| format!("{} is not a file name", given.display()))?;
                let mut temp_name = std::ffi::OsString::from(".");
                temp_name.push(name);
                temp_name.push(format!(".kifu-{}.tmp", std::process::id()));
                let temp = target.with_file_name(temp_name);
                remove_stale_temps(target, name);
                let mut pending = pending();
                // Named as the user gave it: the temporary name is ours.
                let file = File::create(&temp).with_context(|| format!("cannot create {}", given.display()))?;
                pending.temps.push(temp.clone());
                let file = BufWriter::new(file);
                let writer = if gzipped(name) {
                    FileWriter::Gzip(Box::new(flate2::write::GzEncoder::new(file, flate2::Compression::default())))
                } else {
                    FileWriter::Plain(file)
                };
                Inner::File { writer, temp, target: target.to_path_buf(), finished: false }
            }
        };
        Ok(Output { inner })
    }

    /// Flushes and, for a file, moves it into place.
    pub fn finish(mut self) -> anyhow::Result<()> {
        match &mut self.inner {
            Inner::Stdout(w) => w.flush().context("writing to stdout")?,
            Inner::Through { writer, path } => writer.flush().with_context(|| format!("writing {}", path.display()))?,
            Inner::File { writer, temp, target, finished } => {
                // (Named as the target: the temporary name is ours.)
                writer.complete().with_context(|| format!("writing {}", target.display()))?;
                // A file replaced keeps its permissions (a names file readable by the club's
                // web server stays so).
                if let Ok(old) = std::fs::metadata(&*target) {
                    std::fs::set_permissions(&*temp, old.permissions())
                        .with_context(|| format!("cannot keep the permissions of {}", target.display()))?;
                }
                let mut pending = pending();
                std::fs::rename(&*temp, &*target)
                    .with_context(|| format!("cannot move output to {}", target.display()))?;
                pending.temps.retain(|t| t != temp);
                *finished = true;
            }
        }
        Ok(())
    }
}

impl Output {
    /// An error of writing, naming where it went (`writing out.csv: No space left on device`);
    /// its kind is kept (a broken pipe is still one).
    fn named(&self, e: io::Error) -> io::Error {
        let place = match &self.inner {
            Inner::Stdout(_) => "to stdout".to_owned(),
            Inner::Through { path, .. } => path.display().to_string(),
            Inner::File { target, .. } => target.display().to_string(),
        };
        io::Error::new(e.kind(), format!("writing {place}: {e}"))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = match &mut self.inner {
            Inner::Stdout(w) => w.write(buf),
            Inner::Through { writer, .. } => writer.write(buf),
            Inner::File { writer, .. } => writer.write(buf),
        };
        written.map_err(|e| self.named(e))
    }
    fn flush(&mut self) -> io::Result<()> {
        let flushed = match &mut self.inner {
            Inner::Stdout(w) => w.flush(),
            Inner::Through { writer, .. } => writer.flush(),
            Inner::File { writer, .. } => writer.flush(),
        };
        flushed.map_err(|e| self.named(e))
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Inner::File { temp, finished: false, .. } = &self.inner {
            let mut pending = pending();
            let _ = std::fs::remove_file(temp);
            pending.temps.retain(|t| t != temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreadsheet_cells_run_no_formulas() {
        for (text, shown) in [
            ("=SUM(A1)", "'=SUM(A1)"),
            ("@Ann", "'@Ann"),
            ("-inf", "'-inf"),
            ("+NaN", "'+NaN"),
            ("-", "'-"),
            ("-12", "-12"),
            ("+16", "+16"),
            ("-1e5", "-1e5"),
            ("Ann", "Ann"),
        ] {
            assert_eq!(for_spreadsheets(text.to_owned()), shown);
        }
    }
}
