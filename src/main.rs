//! The `kifu` binary: parses the arguments and hands them to [`kifu::cli::run`].

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = kifu::cli::Cli::parse();
    match kifu::cli::run(args) {
        Ok(status) => ExitCode::from(status.code()),
        Err(err) if kifu::cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // A closed stderr is no reason to panic.
            let _ = writeln!(std::io::stderr(), "kifu: {err:#}");
            ExitCode::from(kifu::cli::Status::Error.code())
        }
    }
}
