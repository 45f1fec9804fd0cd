//! `kifu rules`: the presets and keys of `--rules`, or what one spec resolves to.

use std::io::Write;
use std::path::PathBuf;

use serde_json::json;

use super::{Format, Output, Status};
use crate::core::{KEYS, PRESETS, Position, Rules};

/// Arguments of `kifu rules`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A rules spec, PRESET[,key=value...], to resolve (default: list the presets and keys).
    #[arg(value_parser = super::parse_rules)]
    pub spec: Option<Rules>,
    /// Output format: text, or JSON Lines (one object per preset or key, or the resolved spec).
    #[arg(long, short, value_enum, default_value_t = RulesFormat::Text)]
    pub format: RulesFormat,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Accepted as every command accepts it: rules writes nothing to stderr but errors.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `--format` values of `kifu rules` (no table to write as CSV).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum RulesFormat {
    /// Human-readable text.
    Text,
    /// JSON Lines.
    Json,
}

/// Runs `kifu rules`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let format = match args.format {
        RulesFormat::Text => Format::Text,
        RulesFormat::Json => Format::Json,
    };
    let mut out = Output::open(args.output.as_deref())?;
    match (&args.spec, format) {
        (None, Format::Text) => list(&mut out)?,
        (None, _) => {
            for p in PRESETS {
                let row = json!({"preset": p.name, "description": p.description, "settings": p.settings});
                writeln!(out, "{row}")?;
            }
            for k in KEYS {
                let row =
                    json!({"key": k.name, "values": k.values, "default": k.default, "description": k.description});
                writeln!(out, "{row}")?;
            }
        }
        (Some(rules), Format::Text) => describe(&mut out, rules)?,
        (Some(rules), _) => {
            let mut row = serde_json::Map::new();
            row.insert("spec".into(), rules.to_string().into());
            // A count (`size`, a disc supply) as a number, a word as text; the seed as text
            // always (up to 2^64, beyond what JSON readers keep exact).
            for (key, value) in rules.variant().pairs() {
                let count = value.parse::<u32>().ok().filter(|_| key != "seed");
                let value = count.map_or_else(|| serde_json::Value::from(value), Into::into);
                row.insert(key.into(), value);
            }
            row.insert("holes_resolved".into(), rules.holes().iter().map(|&sq| rules.square_name(sq)).collect());
            writeln!(out, "{}", serde_json::Value::Object(row))?;
        }
    }
    out.finish()?;
    Ok(Status::Ok)
}

fn list(out: &mut Output) -> anyhow::Result<()> {
    writeln!(out, "Rules are given as --rules PRESET[,key=value...], e.g. othello,size=6 or anti.\n")?;
    writeln!(out, "Presets:")?;
    let width = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in PRESETS {
        writeln!(out, "  {:<width$}  {}", p.name, p.description)?;
        if !p.settings.is_empty() {
            writeln!(out, "  {:<width$}    = othello,{}", "", p.settings)?;
        }
    }
    writeln!(out, "\nKeys:")?;
    let kw = KEYS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    let vw = KEYS.iter().map(|k| k.values.len()).max().unwrap_or(0);
    for k in KEYS {
        writeln!(out, "  {:<kw$}  {:<vw$}  (default {})", k.name, k.values, k.default)?;
        writeln!(out, "  {:<kw$}  {}", "", k.description)?;
    }
    writeln!(out, "\nEvery setting is explained with its rule text in docs/variants.md.")?;
    Ok(())
}

fn describe(out: &mut Output, rules: &Rules) -> anyhow::Result<()> {
    writeln!(out, "{rules}\n")?;
    for (key, value) in rules.variant().pairs() {
        writeln!(out, "  {key:<10} {value}")?;
    }
    if !rules.holes().is_empty() {
        let names: Vec<String> = rules.holes().iter().map(|&sq| rules.square_name(sq)).collect();
        writeln!(out, "  {:<10} {}", "(holes at)", names.join(" "))?;
    }
    let start = Position::start(rules.clone().shared());
    writeln!(out, "\nStart position (# = not part of the board):\n{start}")?;
    Ok(())
}
