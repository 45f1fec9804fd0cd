//! `kifu completions SHELL` and `kifu man`: generated from the same definitions as `--help`.

use std::io::Write;

use anyhow::Context;
use clap::CommandFactory;

use super::{Cli, Status};

/// Arguments of `kifu completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `kifu man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// A command's own page (`kifu man solve`: kifu-solve(1), every option) instead of kifu(1).
    pub command: Option<String>,
    /// Write every page (kifu.1, kifu-solve.1, ...) into this folder instead.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<std::path::PathBuf>,
}

/// Prints the completion script.
pub fn run_completions(args: CompletionArgs) -> anyhow::Result<Status> {
    // Into memory first: the generator panics on a failed write (a closed pipe, a full disk).
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "kifu", &mut script);
    to_stdout(&script)
}

/// Writes `bytes` to stdout (a closed pipe is handled by the caller as for every command).
fn to_stdout(bytes: &[u8]) -> anyhow::Result<Status> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|()| out.flush()).context("writing to stdout")?;
    Ok(Status::Ok)
}

/// Prints the man page of kifu or of one command, or writes them all into a folder.
pub fn run_man(args: ManArgs) -> anyhow::Result<Status> {
    let cli = Cli::command().disable_help_subcommand(true);
    if let Some(dir) = &args.dir {
        super::output::create_folder(dir)?;
        clap_mangen::generate_to(cli, dir).with_context(|| format!("writing the pages into {}", dir.display()))?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "1") {
                let page = std::fs::read_to_string(&path)?;
                std::fs::write(&path, named_sections(&page))?;
            }
        }
        return Ok(Status::Ok);
    }
    let page = match &args.command {
        None => cli,
        Some(name) => {
            // Built, the commands are named `kifu-solve` ... as their pages are.
            let mut cli = cli;
            cli.build();
            let found = cli.find_subcommand(name).cloned();
            found.with_context(|| format!("no command `{name}` (kifu --help lists them)"))?
        }
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    to_stdout(named_sections(&String::from_utf8_lossy(&roff)).as_bytes())
}

/// A page with the text after the options (clap_mangen's `EXTRA` section) under the sections
/// man pages have: `EXIT STATUS`, `ENVIRONMENT` and `SEE ALSO` for the paragraphs that start
/// `Exit status:`, `Environment:` and `Manual pages:`, `NOTES` for the rest.
fn named_sections(page: &str) -> String {
    const NAMED: [(&str, &str); 3] =
        [("Exit status: ", "EXIT STATUS"), ("Environment: ", "ENVIRONMENT"), ("Manual pages: ", "SEE ALSO")];
    let mut out = String::with_capacity(page.len());
    // In the `EXTRA` section: whether a heading of ours has been written yet.
    let mut extra: Option<bool> = None;
    for line in page.split_inclusive('\n') {
        if line.starts_with(".SH ") {
            extra = (line.trim_end() == ".SH EXTRA").then_some(false);
            if extra.is_some() {
                continue;
            }
        } else if let Some(headed) = extra.as_mut() {
            if let Some((start, title)) = NAMED.iter().find(|(start, _)| line.starts_with(start)) {
                out.push_str(&format!(".SH {title}\n{}", &line[start.len()..]));
                *headed = true;
                continue;
            }
            if !*headed {
                out.push_str(".SH NOTES\n");
                *headed = true;
            }
        }
        out.push_str(line);
    }
    out
}
