//! `kifu completions SHELL` and `kifu man`: generated from the same definitions as `--help`.

use std::io::Write;

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
pub struct ManArgs {}

/// Prints the completion script.
pub fn run_completions(args: CompletionArgs) -> anyhow::Result<Status> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut Cli::command(), "kifu", &mut out);
    out.flush()?;
    Ok(Status::Ok)
}

/// Prints the man page.
pub fn run_man(_: ManArgs) -> anyhow::Result<Status> {
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(Status::Ok)
}
