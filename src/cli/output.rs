//! Where a command writes: stdout, or a file replaced atomically when the command finishes.

use std::fs::File;
use std::io::{self, BufWriter, Stdout, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;

/// A buffered output. A file is written under a temporary name in the same folder and renamed
/// over the target by [`Output::finish`], so an interrupted run never leaves a half-written file.
pub struct Output {
    inner: Inner,
}

enum Inner {
    Stdout(BufWriter<Stdout>),
    File { writer: BufWriter<File>, temp: PathBuf, target: PathBuf, finished: bool },
}

impl Output {
    /// Stdout for `None` or `-`, else the file at `path`.
    pub fn open(path: Option<&Path>) -> anyhow::Result<Output> {
        let inner = match path {
            None => Inner::Stdout(BufWriter::new(io::stdout())),
            Some(p) if p.as_os_str() == "-" => Inner::Stdout(BufWriter::new(io::stdout())),
            Some(target) => {
                let name = target.file_name().with_context(|| format!("{} is not a file name", target.display()))?;
                let mut temp_name = std::ffi::OsString::from(".");
                temp_name.push(name);
                temp_name.push(format!(".kifu-{}.tmp", std::process::id()));
                let temp = target.with_file_name(temp_name);
                let file = File::create(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
                Inner::File { writer: BufWriter::new(file), temp, target: target.to_path_buf(), finished: false }
            }
        };
        Ok(Output { inner })
    }

    /// Flushes and, for a file, moves it into place.
    pub fn finish(mut self) -> anyhow::Result<()> {
        match &mut self.inner {
            Inner::Stdout(w) => w.flush().context("writing to stdout")?,
            Inner::File { writer, temp, target, finished } => {
                writer.flush().with_context(|| format!("writing {}", temp.display()))?;
                writer.get_ref().sync_all().with_context(|| format!("writing {}", temp.display()))?;
                std::fs::rename(&*temp, &*target)
                    .with_context(|| format!("cannot move output to {}", target.display()))?;
                *finished = true;
            }
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.inner {
            Inner::Stdout(w) => w.write(buf),
            Inner::File { writer, .. } => writer.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Stdout(w) => w.flush(),
            Inner::File { writer, .. } => writer.flush(),
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Inner::File { temp, finished: false, .. } = &self.inner {
            let _ = std::fs::remove_file(temp);
        }
    }
}
