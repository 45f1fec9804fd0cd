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
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut Cli::command(), "kifu", &mut out);
    out.flush()?;
    Ok(Status::Ok)
}

/// Prints the man page of kifu or of one command, or writes them all into a folder.
pub fn run_man(args: ManArgs) -> anyhow::Result<Status> {
    let cli = Cli::command().disable_help_subcommand(true);
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        clap_mangen::generate_to(cli, dir).with_context(|| format!("writing the pages into {}", dir.display()))?;
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
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(page).render(&mut out)?;
    out.flush()?;
    Ok(Status::Ok)
}
