//! The engine options that `kifu annotate` and `kifu play` share: where the search turns
//! exact, how deep it looks before, ProbCut and the weights.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::engine::analysis::Settings;
use crate::engine::eval::Evaluator;
use crate::engine::generic;
use crate::engine::solve::probcut_for;

/// How positions are searched: exactly near the end, by depth before.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Solve positions with at most this many empty squares exactly [default: 18; 14 for other
    /// variants, whose engine is slower].
    #[arg(long)]
    pub exact_empties: Option<u32>,
    /// Search earlier positions this many moves ahead [default: 10; 6 for other variants].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// At most this many seconds per position searched by depth (the depth is then a
    /// ceiling; the output then depends on the machine's speed).
    #[arg(long, value_parser = super::parse_seconds)]
    pub time: Option<f64>,
    /// A budget of about this many nodes per position searched by depth: a depth is started
    /// only when the budget is expected to cover it, and then finished (--depth is then a
    /// ceiling). Unlike --time, the output is the same on every machine.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Prune the searches by depth selectively (ProbCut), taking a cut with this confidence in
    /// percent: 73, 87, 95, 98, 99, or 100 for none. Faster, less sure.
    #[arg(long, default_value_t = 87)]
    pub selectivity: u32,
    /// Evaluation weights (written by `kifu train`) instead of the shipped ones (both the
    /// depth-limited search's and the exact solver's).
    #[arg(long, visible_alias = "eval")]
    pub weights: Option<PathBuf>,
}

/// [`EngineArgs`] made ready: the settings of both engines, ProbCut and the weights.
pub struct Engine {
    /// The 8x8 engine's settings.
    pub settings: Settings,
    /// The generic engine's settings (other variants).
    pub generic: Settings,
    /// ProbCut's width for the 8x8 engine (none at 100%).
    pub probcut: Option<f64>,
    /// The weights, when not the shipped ones.
    pub evaluator: Option<Arc<Evaluator>>,
}

impl EngineArgs {
    /// Checks the options and loads the weights; unless `quiet`, warns `command`'s user (`kifu
    /// play`) of an exact part that starts so far from the end that it can run for hours, as
    /// `kifu solve` does.
    pub fn engine(&self, command: &str, quiet: bool) -> anyhow::Result<Engine> {
        if let Some(empties) = self.exact_empties.filter(|&e| e > 36 && !quiet) {
            stderr!(
                "{command}: warning: --exact-empties {empties} solves positions with up to {empties} empty squares \
                 exactly: on 8x8, one that far from the end can take hours (the default is 18; 14 for other variants)"
            );
        }
        let time = self.time.map(Duration::from_secs_f64);
        Ok(Engine {
            settings: Settings {
                exact_empties: self.exact_empties.unwrap_or(18),
                depth: self.depth.unwrap_or(10),
                time,
                nodes: self.nodes,
            },
            generic: Settings {
                exact_empties: self.exact_empties.unwrap_or(generic::DEFAULT_EXACT_EMPTIES),
                depth: self.depth.unwrap_or(generic::DEFAULT_DEPTH),
                time,
                nodes: self.nodes,
            },
            probcut: probcut_for(self.selectivity).map_err(anyhow::Error::msg)?,
            evaluator: match &self.weights {
                Some(path) => Some(Arc::new(Evaluator::load(path)?)),
                None => None,
            },
        })
    }
}
