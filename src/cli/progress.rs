//! Progress on stderr: a spinner with a count and a rate, hidden when stderr is not a terminal
//! or with `--quiet`.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A record counter drawn on stderr.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A counter labelled `what`, hidden when `quiet` or when stderr is not a terminal.
    pub fn new(quiet: bool, what: &str) -> Progress {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
        } else {
            let bar = ProgressBar::new_spinner();
            let style = ProgressStyle::with_template("{spinner} {msg} {count} ({rate}, {elapsed})")
                .map(|style| {
                    // Whole records a second, in thousands (`12,345/s`), not indicatif's four decimals.
                    style
                        .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = write!(w, "{}/s", indicatif::HumanCount(state.per_sec().round() as u64));
                        })
                        .with_key("count", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let n = state.pos();
                            let _ = write!(w, "{} record{}", indicatif::HumanCount(n), if n == 1 { "" } else { "s" });
                        })
                })
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.set_message(what.to_owned());
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        };
        Progress { bar }
    }

    /// Counts one record.
    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// Runs `f` (which prints to stderr) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
