//! Rules and variants: the settings of a game ([`Variant`]), checked and compiled into [`Rules`].
//!
//! Every setting is independent; named presets fill them in, and `key=value` pairs override
//! them: `othello,size=6`, `anti`, `othello,rows=bottom`. `docs/variants.md` gives the rule text
//! behind each setting.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::square::{Color, MAX_SIZE, Move, Square};
use super::wide::WideBits;

/// The outline of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Shape {
    /// Every cell of the n x n square.
    #[default]
    Square,
    /// The square with three cells cut from each corner (the corner and its two orthogonal
    /// neighbours), which leaves eight corners that can't be flipped ("Othello 8 Stars").
    EightStars,
}

/// Cells removed from the board: nobody may play there, and lines through them are broken.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Holes {
    /// No holes.
    #[default]
    None,
    /// These cells.
    Cells(Vec<Square>),
    /// One cell chosen at random, reproducibly from this seed, among the cells that are empty
    /// in the start position (and, with an empty-board start, outside the centre).
    Random {
        /// The seed of the choice.
        seed: u64,
    },
}

/// The position the game starts from.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Start {
    /// Four discs in the centre, crossed: white on the top-left and bottom-right centre cells,
    /// black on the other two (standard: white d4 e5, black d5 e4).
    #[default]
    Diagonal,
    /// Four discs in the centre, each colour side by side: white on the upper two centre cells,
    /// black on the lower two (white d4 e4, black d5 e5 on 8x8).
    Parallel,
    /// An empty board: the first four moves go on the four centre cells, in any order and
    /// without flipping; the capture rule applies from the fifth move.
    Empty,
    /// Discs placed as given; any cell the shape allows.
    Custom {
        /// Black's discs.
        black: Vec<Square>,
        /// White's discs.
        white: Vec<Square>,
    },
}

/// Where a disc may be placed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Placement {
    /// Only where it flips at least one disc (standard Othello).
    #[default]
    MustFlip,
    /// Where it flips, or on any empty cell next to (8 directions) any disc (the Italian base
    /// rule).
    NextToAny,
    /// Where it flips, or on any empty cell next to one of the mover's own discs (old Reversi).
    NextToOwn,
}

/// When a player may pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum PassRule {
    /// Only with no legal placement (standard).
    #[default]
    Forced,
    /// At any turn of a game not yet over (the Italian "voluntary pass" option). Two passes in a
    /// row then end the game.
    Voluntary,
}

/// How many discs the players have.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Supply {
    /// As many as the board needs (standard: 64 discs for 60 empty cells can never run out).
    #[default]
    Unlimited,
    /// `per_player` discs each, start discs included. A player who has none left may take the
    /// opponent's (`borrow`) or else must pass.
    Limited {
        /// Discs per player, those on the board at the start included.
        per_player: u16,
        /// Whether a player with none left takes from the opponent's supply.
        borrow: bool,
    },
}

/// How the final position is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Scoring {
    /// Most discs wins; the empty cells go to the winner (the official tournament rule; split
    /// evenly in a draw).
    #[default]
    EmptiesToWinner,
    /// Most discs wins; the margin is the plain difference of disc counts.
    Plain,
    /// Anti-reversi: fewer discs wins; the margin is the plain difference.
    Anti,
}

/// Who wins on equal scores.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum TieRule {
    /// Nobody: a draw.
    #[default]
    Draw,
    /// The player who moved second (the Ravensburger edition).
    SecondPlayer,
}

/// How rows are named.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum RowNumbering {
    /// Rank 1 is the top row (Othello).
    #[default]
    Top,
    /// Rank 1 is the bottom row (chess-style diagrams of old rule books).
    Bottom,
}

/// The settings of a game, unchecked: any combination can be written here, and
/// [`Rules::new`] says whether it makes a game.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    /// The side of the square board, 4..=16.
    pub size: u8,
    /// The outline of the board.
    pub shape: Shape,
    /// Cells removed from the board.
    pub holes: Holes,
    /// The start position.
    pub start: Start,
    /// Who moves first.
    pub first: Color,
    /// Where a disc may be placed.
    pub placement: Placement,
    /// When a player may pass.
    pub pass: PassRule,
    /// The disc supply.
    pub supply: Supply,
    /// How the final position is scored.
    pub scoring: Scoring,
    /// Who wins on equal scores.
    pub ties: TieRule,
    /// How rows are named.
    pub rows: RowNumbering,
}

impl Default for Variant {
    /// Standard Othello.
    fn default() -> Variant {
        Variant {
            size: 8,
            shape: Shape::Square,
            holes: Holes::None,
            start: Start::Diagonal,
            first: Color::Black,
            placement: Placement::MustFlip,
            pass: PassRule::Forced,
            supply: Supply::Unlimited,
            scoring: Scoring::EmptiesToWinner,
            ties: TieRule::Draw,
            rows: RowNumbering::Top,
        }
    }
}

/// A named preset: a name, what it is, and its settings as `key=value` pairs over `othello`.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The name used in `--rules`.
    pub name: &'static str,
    /// One line on what it is and where it comes from.
    pub description: &'static str,
    /// Its settings, as keys over standard Othello.
    pub settings: &'static str,
}

/// Every preset, `othello` first.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "othello",
        description: "standard Othello: 8x8, crossed start, black first, empties to the winner",
        settings: "",
    },
    Preset { name: "anti", description: "anti-reversi: the player with fewer discs wins", settings: "scoring=anti" },
    Preset { name: "grand", description: "Grand Othello: 10x10", settings: "size=10" },
    Preset {
        name: "8stars",
        description: "Othello 8 Stars: 10x10 with three cells cut from each corner",
        settings: "size=10,shape=8stars",
    },
    Preset {
        name: "blackhole",
        description: "black hole: one random cell (from the seed) is removed",
        settings: "holes=random,seed=1",
    },
    Preset {
        name: "brainking",
        description: "BrainKing Reversi: empty board, the first four moves fill the centre",
        settings: "start=empty",
    },
    Preset {
        name: "reversi-1880",
        description: "old Reversi (1870s-1880s): empty board, white first, 30 discs each, no borrowing, non-capturing placement next to one's own disc",
        settings: "start=empty,first=white,supply=30,borrow=no,placement=own,scoring=plain",
    },
    Preset {
        name: "ravensburger",
        description: "Ravensburger edition: gold (white) first, 32 discs each with borrowing, equal counts won by the second player",
        settings: "first=white,supply=32,borrow=yes,ties=second",
    },
    Preset {
        name: "italian",
        description: "Italian rules: a disc may go on any empty cell next to a disc, capturing or not",
        settings: "placement=any",
    },
];

/// A settable key: its name, the values it takes, its default and what it does.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// The key as written in `--rules`.
    pub name: &'static str,
    /// The values it takes.
    pub values: &'static str,
    /// Its value in standard Othello.
    pub default: &'static str,
    /// What it sets.
    pub description: &'static str,
}

/// Every key of a rules spec.
pub const KEYS: &[Key] = &[
    Key { name: "size", values: "4..16", default: "8", description: "the board is size x size" },
    Key {
        name: "rows",
        values: "top|bottom",
        default: "top",
        description: "rank 1 is the top row (Othello) or the bottom row (old chess-style diagrams)",
    },
    Key {
        name: "shape",
        values: "square|8stars",
        default: "square",
        description: "8stars cuts the corner and its two orthogonal neighbours at each corner",
    },
    Key {
        name: "holes",
        values: "none|random|SQ/SQ/...",
        default: "none",
        description: "cells removed from the board (black holes); random picks one empty cell from the seed",
    },
    Key { name: "seed", values: "0..2^64-1", default: "1", description: "seed for holes=random" },
    Key {
        name: "start",
        values: "diagonal|parallel|empty|BOARD",
        default: "diagonal",
        description: "start position; BOARD is size*size cells of X/B/* (black), O/W (white), -/./# (empty), either case, row by row from the top (spaces and / ignored)",
    },
    Key { name: "first", values: "black|white", default: "black", description: "who moves first" },
    Key {
        name: "placement",
        values: "flip|any|own",
        default: "flip",
        description: "flip: must capture; any/own: may also go without capturing next to any disc / one's own disc",
    },
    Key {
        name: "pass",
        values: "forced|voluntary",
        default: "forced",
        description: "forced: only with no move; voluntary: at any turn (two passes in a row end the game)",
    },
    Key {
        name: "supply",
        values: "unlimited|N",
        default: "unlimited",
        description: "discs per player, start discs included",
    },
    Key {
        name: "borrow",
        values: "yes|no",
        default: "yes",
        description: "with a limited supply, a player who runs out takes the opponent's discs",
    },
    Key {
        name: "scoring",
        values: "empties|plain|anti",
        default: "empties",
        description: "empties: most discs wins, empty cells to the winner; plain: plain difference; anti: fewer discs wins",
    },
    Key {
        name: "ties",
        values: "draw|second",
        default: "draw",
        description: "equal scores are a draw, or won by the player who moved second",
    },
];

/// A rules spec or combination that makes no game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The first word is neither a preset nor a `key=value`.
    #[error("unknown rules preset `{0}` (presets: {presets}; see `kifu rules`)", presets = preset_names())]
    UnknownPreset(String),
    /// A key that does not exist.
    #[error("unknown rules key `{0}` (keys: {keys}; see `kifu rules`)", keys = key_names())]
    UnknownKey(String),
    /// A `key` without `=value`.
    #[error("rules key `{0}` needs a value (`{0}=...`)")]
    MissingValue(String),
    /// A value the key does not take.
    #[error("`{value}` is not a value of `{key}` (expected {expected})")]
    BadValue {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// Settings that each make sense but not together.
    #[error("impossible rules: {0}")]
    Impossible(String),
    /// A key given twice (which would leave one of its values unused).
    #[error("rules key `{0}` is given twice")]
    RepeatedKey(String),
}

fn preset_names() -> String {
    PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

fn key_names() -> String {
    KEYS.iter().map(|k| k.name).collect::<Vec<_>>().join(", ")
}

impl Variant {
    /// The settings of a preset, by name.
    pub fn preset(name: &str) -> Result<Variant, RulesError> {
        let preset = PRESETS
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| RulesError::UnknownPreset(name.to_owned()))?;
        let mut variant = Variant::default();
        for pair in preset.settings.split(',').filter(|s| !s.is_empty()) {
            let (key, value) = pair.split_once('=').expect("preset settings are key=value");
            variant.set(key, value)?;
        }
        Ok(variant)
    }

    /// Sets one key (see [`KEYS`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let bad =
            |expected: &'static str| RulesError::BadValue { key: key.to_owned(), value: value.to_owned(), expected };
        let lower = value.to_ascii_lowercase();
        match canonical_key(key).as_str() {
            "size" => {
                self.size = value
                    .parse()
                    .ok()
                    .filter(|n| (4..=MAX_SIZE).contains(n))
                    .ok_or_else(|| bad("a size from 4 to 16"))?;
            }
            "shape" => {
                self.shape = match lower.as_str() {
                    "square" => Shape::Square,
                    "8stars" | "eightstars" | "8-stars" => Shape::EightStars,
                    _ => return Err(bad("square or 8stars")),
                }
            }
            "holes" => {
                self.holes = match lower.as_str() {
                    "none" | "" => Holes::None,
                    "random" => Holes::Random { seed: self.seed() },
                    _ => Holes::Cells(
                        lower
                            .split(['/', '+', ' '])
                            .map(|s| {
                                let (file, rank) =
                                    Square::parse_name(s).map_err(|_| bad("none, random or squares like c3/f6"))?;
                                if file >= self.size || rank > self.size {
                                    return Err(RulesError::Impossible(format!("hole {s} is outside the board")));
                                }
                                Ok(self.square_from_name(file, rank))
                            })
                            .collect::<Result<_, RulesError>>()?,
                    ),
                }
            }
            "seed" => {
                let seed = value.parse().map_err(|_| bad("a whole number from 0 to 18446744073709551615"))?;
                self.holes = match self.holes {
                    Holes::Cells(_) => {
                        return Err(RulesError::Impossible(
                            "`seed` picks a random hole; it can't go with listed holes".into(),
                        ));
                    }
                    Holes::None | Holes::Random { .. } => Holes::Random { seed },
                };
            }
            "start" => {
                self.start = match lower.as_str() {
                    "diagonal" | "crossed" | "standard" => Start::Diagonal,
                    "parallel" => Start::Parallel,
                    "empty" => Start::Empty,
                    _ => {
                        let (size, start) = parse_board_cells(value)
                            .ok_or_else(|| bad("diagonal, parallel, empty or a board of X, O and - cells"))?;
                        // A board gives its own size (`size=` may repeat it).
                        self.size = size;
                        start
                    }
                }
            }
            "first" => self.first = value.parse().map_err(|_| bad("black or white"))?,
            "placement" => {
                self.placement = match lower.as_str() {
                    "flip" | "capture" => Placement::MustFlip,
                    "any" | "adjacent" => Placement::NextToAny,
                    "own" => Placement::NextToOwn,
                    _ => return Err(bad("flip, any or own")),
                }
            }
            "pass" => {
                self.pass = match lower.as_str() {
                    "forced" => PassRule::Forced,
                    "voluntary" => PassRule::Voluntary,
                    _ => return Err(bad("forced or voluntary")),
                }
            }
            "supply" => {
                self.supply = match lower.as_str() {
                    "unlimited" | "none" => Supply::Unlimited,
                    _ => {
                        let per_player = value
                            .parse()
                            .ok()
                            .filter(|&n: &u16| n <= 512)
                            .ok_or_else(|| bad("unlimited or a number of discs up to 512"))?;
                        let borrow = match self.supply {
                            Supply::Limited { borrow, .. } => borrow,
                            Supply::Unlimited => true,
                        };
                        Supply::Limited { per_player, borrow }
                    }
                }
            }
            "borrow" => {
                let borrow = parse_yes_no(&lower).ok_or_else(|| bad("yes or no"))?;
                match &mut self.supply {
                    Supply::Limited { borrow: b, .. } => *b = borrow,
                    Supply::Unlimited => {
                        return Err(RulesError::Impossible(
                            "`borrow` needs a limited supply: give `supply=N` too".into(),
                        ));
                    }
                }
            }
            "scoring" => {
                self.scoring = match lower.as_str() {
                    "empties" | "official" => Scoring::EmptiesToWinner,
                    "plain" | "discs" => Scoring::Plain,
                    "anti" => Scoring::Anti,
                    _ => return Err(bad("empties, plain or anti")),
                }
            }
            "ties" => {
                self.ties = match lower.as_str() {
                    "draw" => TieRule::Draw,
                    "second" => TieRule::SecondPlayer,
                    _ => return Err(bad("draw or second")),
                }
            }
            "rows" => {
                self.rows = match lower.as_str() {
                    "top" => RowNumbering::Top,
                    "bottom" => RowNumbering::Bottom,
                    _ => return Err(bad("top or bottom")),
                }
            }
            _ => return Err(RulesError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }

    fn seed(&self) -> u64 {
        match self.holes {
            Holes::Random { seed } => seed,
            _ => 1,
        }
    }

    /// The square a file and rank number name under this variant's row numbering and size;
    /// `file < size` and `1 <= rank <= size`.
    fn square_from_name(&self, file: u8, rank: u8) -> Square {
        let row = match self.rows {
            RowNumbering::Top => rank - 1,
            RowNumbering::Bottom => self.size - rank,
        };
        Square::new(file, row)
    }

    /// The rank number a square is written with under this variant's row numbering; a square
    /// off the board keeps its standard rank.
    fn rank_of(&self, sq: Square) -> u8 {
        match self.rows {
            RowNumbering::Bottom if sq.row() < self.size => self.size - sq.row(),
            _ => sq.row() + 1,
        }
    }

    /// The name of a square under this variant's row numbering; a square off the board keeps
    /// its standard name.
    fn square_name(&self, sq: Square) -> String {
        format!("{}{}", sq.file_char(), self.rank_of(sq))
    }

    /// The same game with rank 1 on top: the row numbering only names the squares, so games of
    /// both numberings are one game (their openings, positions and hashes are the same).
    #[must_use]
    pub fn with_rows_from_top(&self) -> Variant {
        Variant { rows: RowNumbering::Top, ..self.clone() }
    }

    /// This variant as a spec: the closest preset, then the keys that differ from it.
    #[must_use]
    pub fn spec(&self) -> String {
        let pairs = self.pairs();
        let mut best = (usize::MAX, "othello", Vec::new());
        for preset in PRESETS {
            let base = Variant::preset(preset.name).expect("presets are valid").pairs();
            let diff: Vec<String> =
                pairs.iter().zip(&base).filter(|(a, b)| a != b).map(|((k, v), _)| format!("{k}={v}")).collect();
            if diff.len() < best.0 {
                best = (diff.len(), preset.name, diff);
            }
        }
        std::iter::once(best.1.to_owned()).chain(best.2).collect::<Vec<_>>().join(",")
    }

    /// Every key with its value, in [`KEYS`] order (`rows` before `holes`, whose square names
    /// depend on it).
    #[must_use]
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let square_name = |sq: &Square| self.square_name(*sq);
        let cells = |black: &[Square], white: &[Square]| {
            let mut s = String::new();
            for row in 0..self.size {
                for file in 0..self.size {
                    let sq = Square::new(file, row);
                    s.push(if black.contains(&sq) {
                        'X'
                    } else if white.contains(&sq) {
                        'O'
                    } else {
                        '-'
                    });
                }
            }
            s
        };
        vec![
            ("size", self.size.to_string()),
            ("rows", if self.rows == RowNumbering::Top { "top" } else { "bottom" }.into()),
            ("shape", if self.shape == Shape::Square { "square" } else { "8stars" }.into()),
            (
                "holes",
                match &self.holes {
                    Holes::None => "none".into(),
                    Holes::Random { .. } => "random".into(),
                    Holes::Cells(cells) => cells.iter().map(square_name).collect::<Vec<_>>().join("/"),
                },
            ),
            ("seed", self.seed().to_string()),
            (
                "start",
                match &self.start {
                    Start::Diagonal => "diagonal".into(),
                    Start::Parallel => "parallel".into(),
                    Start::Empty => "empty".into(),
                    Start::Custom { black, white } => cells(black, white),
                },
            ),
            ("first", self.first.name().into()),
            (
                "placement",
                match self.placement {
                    Placement::MustFlip => "flip",
                    Placement::NextToAny => "any",
                    Placement::NextToOwn => "own",
                }
                .into(),
            ),
            ("pass", if self.pass == PassRule::Forced { "forced" } else { "voluntary" }.into()),
            (
                "supply",
                match self.supply {
                    Supply::Unlimited => "unlimited".into(),
                    Supply::Limited { per_player, .. } => per_player.to_string(),
                },
            ),
            (
                "borrow",
                match self.supply {
                    Supply::Limited { borrow: false, .. } => "no",
                    _ => "yes",
                }
                .into(),
            ),
            (
                "scoring",
                match self.scoring {
                    Scoring::EmptiesToWinner => "empties",
                    Scoring::Plain => "plain",
                    Scoring::Anti => "anti",
                }
                .into(),
            ),
            ("ties", if self.ties == TieRule::Draw { "draw" } else { "second" }.into()),
        ]
    }
}

/// A key in lower case, with the singular spellings `hole` and `tie` read as `holes` and `ties`.
fn canonical_key(key: &str) -> String {
    match key.trim().to_ascii_lowercase().as_str() {
        "hole" => "holes".into(),
        "tie" => "ties".into(),
        other => other.into(),
    }
}

fn parse_yes_no(s: &str) -> Option<bool> {
    match s {
        "yes" | "true" | "on" | "1" => Some(true),
        "no" | "false" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// Reads a board of `size * size` cells, row by row from the top: `X x B b *` black, `O o W w`
/// white, `- . #` empty, spaces and `/` ignored. The size is the square root of the cell count.
fn parse_board_cells(text: &str) -> Option<(u8, Start)> {
    let cells: Vec<char> = text.chars().filter(|c| !matches!(c, ' ' | '/')).collect();
    let size = (4..=MAX_SIZE as usize).find(|n| n * n == cells.len())?;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (i, c) in cells.iter().enumerate() {
        let sq = Square::new((i % size) as u8, (i / size) as u8);
        match c {
            'X' | 'x' | 'B' | 'b' | '*' => black.push(sq),
            'O' | 'o' | 'W' | 'w' => white.push(sq),
            '-' | '.' | '#' => {}
            _ => return None,
        }
    }
    Some((size as u8, Start::Custom { black, white }))
}

impl FromStr for Variant {
    type Err = RulesError;

    /// Parses `PRESET[,key=value...]`; a spec that starts with a key starts from `othello`.
    fn from_str(spec: &str) -> Result<Variant, RulesError> {
        let mut parts = spec.split(',').map(str::trim).filter(|s| !s.is_empty()).peekable();
        let mut variant = match parts.peek() {
            Some(first) if !first.contains('=') => {
                let name = *first;
                parts.next();
                Variant::preset(name)?
            }
            _ => Variant::default(),
        };
        let mut pairs = Vec::new();
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| RulesError::MissingValue(part.to_owned()))?;
            let (key, value) = (canonical_key(key), value.trim());
            let rank = KEYS.iter().position(|k| k.name == key).ok_or_else(|| RulesError::UnknownKey(key.clone()))?;
            if pairs.iter().any(|(r, _, _)| *r == rank) {
                return Err(RulesError::RepeatedKey(key));
            }
            pairs.push((rank, key, value));
        }
        let given =
            |name: &str| pairs.iter().find(|(_, key, _)| key == name).map(|(_, _, value)| value.to_ascii_lowercase());
        if given("seed").is_some() && given("holes").is_some_and(|h| h == "none" || h.is_empty()) {
            return Err(RulesError::Impossible("`seed` picks a random hole; it can't go with holes=none".into()));
        }
        // Keys apply in KEYS order whatever order they are written in: square names in `holes`
        // depend on `size` and `rows`, and `borrow` on `supply`.
        pairs.sort_by_key(|p| p.0);
        for (_, key, value) in pairs {
            variant.set(&key, value)?;
        }
        Ok(variant)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec())
    }
}

/// Checked, compiled rules: a [`Variant`] that makes a game, with its cell masks worked out.
///
/// Positions hold their rules behind an [`Arc`]; build them once and share them.
#[derive(Clone, PartialEq, Eq)]
pub struct Rules {
    variant: Variant,
    playable: WideBits,
    centre: WideBits,
    holes: Vec<Square>,
    start_black: WideBits,
    start_white: WideBits,
    /// `playable` and `centre` as 8x8 bitboards, for boards up to 8x8.
    narrow: Option<(u64, u64)>,
}

impl std::hash::Hash for Rules {
    /// The variant's hash: equal rules have equal variants (the rest follows from it).
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.variant.hash(state);
    }
}

impl std::fmt::Debug for Rules {
    /// The spec (`Rules("othello,size=6")`): the rest follows from it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({:?})", self.variant.spec())
    }
}

impl Rules {
    /// Checks a variant and works out its board; an impossible combination is an error.
    pub fn new(variant: Variant) -> Result<Rules, RulesError> {
        let n = variant.size;
        if !(4..=MAX_SIZE).contains(&n) {
            return Err(RulesError::Impossible(format!("size {n} is outside 4..16")));
        }
        let mut playable = WideBits::EMPTY;
        for row in 0..n {
            for file in 0..n {
                playable |= WideBits::from_square(Square::new(file, row));
            }
        }
        if variant.shape == Shape::EightStars {
            if n < 6 {
                return Err(RulesError::Impossible("the 8stars shape needs a board of at least 6x6".into()));
            }
            let last = n - 1;
            for (cf, cr, df, dr) in [(0, 0, 1i8, 1i8), (last, 0, -1, 1), (0, last, 1, -1), (last, last, -1, -1)] {
                for (f, r) in [(cf, cr), ((cf as i8 + df) as u8, cr), (cf, (cr as i8 + dr) as u8)] {
                    playable &= !WideBits::from_square(Square::new(f, r));
                }
            }
        }
        let c = n / 2;
        let centre_cells = [Square::new(c - 1, c - 1), Square::new(c, c - 1), Square::new(c - 1, c), Square::new(c, c)];
        let centre = centre_cells.iter().fold(WideBits::EMPTY, |acc, &sq| acc | WideBits::from_square(sq));
        let needs_centre = matches!(variant.start, Start::Diagonal | Start::Parallel | Start::Empty);
        if needs_centre && n % 2 == 1 {
            return Err(RulesError::Impossible(format!(
                "{} board has no centre; odd sizes need a custom start",
                a_board_size(n)
            )));
        }
        let (start_black, start_white) = match &variant.start {
            Start::Diagonal => (
                WideBits::from_square(centre_cells[1]) | WideBits::from_square(centre_cells[2]),
                WideBits::from_square(centre_cells[0]) | WideBits::from_square(centre_cells[3]),
            ),
            Start::Parallel => (
                WideBits::from_square(centre_cells[2]) | WideBits::from_square(centre_cells[3]),
                WideBits::from_square(centre_cells[0]) | WideBits::from_square(centre_cells[1]),
            ),
            Start::Empty => (WideBits::EMPTY, WideBits::EMPTY),
            Start::Custom { black, white } => {
                let set =
                    |cells: &[Square]| cells.iter().fold(WideBits::EMPTY, |acc, &sq| acc | WideBits::from_square(sq));
                let (b, w) = (set(black), set(white));
                if !(b & w).is_empty() {
                    return Err(RulesError::Impossible("the start position puts both colours on one cell".into()));
                }
                (b, w)
            }
        };
        let occupied = start_black | start_white;
        if !(occupied & !playable).is_empty() {
            return Err(RulesError::Impossible("the start position has discs outside the board's shape".into()));
        }
        let holes = match &variant.holes {
            Holes::None => Vec::new(),
            Holes::Cells(cells) => cells.clone(),
            Holes::Random { seed } => {
                let reserved = if variant.start == Start::Empty { centre } else { occupied };
                let candidates: Vec<Square> = (playable & !reserved).squares().collect();
                if candidates.is_empty() {
                    return Err(RulesError::Impossible("no empty cell is left for a random hole".into()));
                }
                vec![candidates[(splitmix64(*seed) % candidates.len() as u64) as usize]]
            }
        };
        for (i, &hole) in holes.iter().enumerate() {
            let name = variant.square_name(hole);
            if holes[..i].contains(&hole) {
                return Err(RulesError::Impossible(format!("hole {name} is given twice")));
            }
            if !playable.contains(hole) {
                return Err(RulesError::Impossible(format!("hole {name} is outside the board")));
            }
            if occupied.contains(hole) || (variant.start == Start::Empty && centre.contains(hole)) {
                return Err(RulesError::Impossible(format!("hole {name} is on a start cell")));
            }
            playable &= !WideBits::from_square(hole);
        }
        if let Supply::Limited { per_player, .. } = variant.supply {
            for (color, discs) in [(Color::Black, start_black), (Color::White, start_white)] {
                if u32::from(per_player) < discs.count() {
                    return Err(RulesError::Impossible(format!(
                        "{color} has {} start discs but a supply of {per_player}",
                        discs.count()
                    )));
                }
            }
        }
        let narrow = (n <= 8).then(|| (to_bitboard(playable), to_bitboard(centre)));
        Ok(Rules { variant, playable, centre, holes, start_black, start_white, narrow })
    }

    /// Standard Othello.
    #[must_use]
    pub fn othello() -> Rules {
        Rules::new(Variant::default()).expect("standard Othello is valid")
    }

    /// The settings these rules were built from.
    #[must_use]
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The side of the board.
    #[must_use]
    pub fn size(&self) -> u8 {
        self.variant.size
    }

    /// The cells a disc may stand on (the shape without its holes).
    #[must_use]
    pub fn playable(&self) -> WideBits {
        self.playable
    }

    /// The corner-like cells: on each of the four lines through them (row, column, two
    /// diagonals) at least one neighbour is off the board or a hole, so a disc there can never be
    /// flipped. On a square board these are its four corners; the 8-stars board has eight, and a
    /// hole makes corners of the cells beside it on an edge.
    #[must_use]
    pub fn corners(&self) -> WideBits {
        let playable = self.playable;
        // A cell's neighbour in direction `d` is playable when the cell is in the playable set
        // moved one step back (`d ^ 1` is the opposite direction).
        let open = |d: usize| playable & playable.step(d ^ 1);
        (0..4).fold(playable, |corners, axis| corners & !(open(2 * axis) & open(2 * axis + 1)))
    }

    /// The four centre cells.
    #[must_use]
    pub fn centre(&self) -> WideBits {
        self.centre
    }

    /// The playable and centre cells as 8x8 bitboards, for boards up to 8x8.
    #[must_use]
    pub fn bitboard_masks(&self) -> Option<(u64, u64)> {
        self.narrow
    }

    /// The holes, as resolved (a random hole is a concrete cell here).
    #[must_use]
    pub fn holes(&self) -> &[Square] {
        &self.holes
    }

    /// The discs of the start position, black then white.
    #[must_use]
    pub fn start_discs(&self) -> (WideBits, WideBits) {
        (self.start_black, self.start_white)
    }

    /// The name of a square under these rules' row numbering (`c4`).
    #[must_use]
    pub fn square_name(&self, sq: Square) -> String {
        self.variant.square_name(sq)
    }

    /// The name of a move under these rules' row numbering (`c4`; `pass` for a pass), where
    /// [`Move`]'s own display always counts rows from the top.
    #[must_use]
    pub fn move_name(&self, mv: Move) -> String {
        match mv {
            Move::Place(sq) => self.square_name(sq),
            Move::Pass => "pass".to_owned(),
        }
    }

    /// The file (0 = `a`) and the rank number a square is written with under these rules' row
    /// numbering: the inverse of [`Rules::square_at`].
    #[must_use]
    pub fn file_and_rank(&self, sq: Square) -> (u8, u8) {
        (sq.file(), self.variant.rank_of(sq))
    }

    /// Reads a square name under these rules' row numbering, case-insensitively; the square
    /// must lie within the board's size (holes included).
    pub fn parse_square(&self, name: &str) -> Option<Square> {
        let (file, rank) = Square::parse_name(name).ok()?;
        self.square_at(file, rank)
    }

    /// The square at a file (0 = `a`) and a rank number as written, under these rules' row
    /// numbering; `None` when it lies outside the board's size.
    #[must_use]
    pub fn square_at(&self, file: u8, rank: u8) -> Option<Square> {
        if file >= self.size() || rank == 0 || rank > self.size() {
            return None;
        }
        Some(self.variant.square_from_name(file, rank))
    }

    /// Wraps the rules for sharing between positions.
    #[must_use]
    pub fn shared(self) -> Arc<Rules> {
        Arc::new(self)
    }
}

impl FromStr for Rules {
    type Err = RulesError;
    /// Parses and checks a spec such as `othello,size=6`.
    fn from_str(spec: &str) -> Result<Rules, RulesError> {
        Rules::new(spec.parse()?)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.variant.fmt(f)
    }
}

/// The cells of `cells` (all within 8x8) as an 8x8 bitboard.
fn to_bitboard(cells: WideBits) -> u64 {
    cells.squares().fold(0, |acc, sq| acc | 1 << sq.bit8().expect("cell within 8x8"))
}

/// A board size with its article, as messages name it: `a 6x6`, `an 8x8`, `an 11x11`.
#[must_use]
pub fn a_board_size(n: u8) -> String {
    format!("{} {n}x{n}", if matches!(n, 8 | 11 | 18) { "an" } else { "a" })
}

/// SplitMix64: a fixed, documented mixing function, so a seed picks the same hole everywhere.
#[must_use]
pub const fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_sizes_take_their_article() {
        let named: Vec<String> = [6, 8, 10, 11, 16].into_iter().map(a_board_size).collect();
        assert_eq!(named, ["a 6x6", "an 8x8", "a 10x10", "an 11x11", "a 16x16"]);
    }

    #[test]
    fn corners_come_from_the_shape() {
        let names = |spec: &str| -> Vec<String> {
            let r: Rules = spec.parse().unwrap();
            r.corners().squares().map(|sq| r.square_name(sq)).collect::<Vec<_>>()
        };
        assert_eq!(names("othello"), ["a1", "h1", "a8", "h8"]);
        assert_eq!(names("othello,size=6"), ["a1", "f1", "a6", "f6"]);
        // The 8-stars board: the cut corners leave two corners at each.
        assert_eq!(names("8stars"), ["c1", "h1", "a3", "j3", "a8", "j8", "c10", "h10"]);
        // A hole on an edge makes corners of its neighbours on that edge.
        assert_eq!(names("othello,holes=d1"), ["a1", "c1", "e1", "h1", "a8", "h8"]);
    }

    #[test]
    fn every_preset_builds_and_its_spec_reads_back() {
        for preset in PRESETS {
            let variant = Variant::preset(preset.name).unwrap();
            let rules = Rules::new(variant.clone()).unwrap_or_else(|e| panic!("{}: {e}", preset.name));
            assert_eq!(variant.spec(), preset.name, "a preset's spec is its name");
            assert_eq!(rules.variant(), &variant);
            assert_eq!(rules.to_string().parse::<Variant>().unwrap(), variant);
        }
    }

    #[test]
    fn specs_override_presets() {
        let v: Variant = "othello,size=6".parse().unwrap();
        assert_eq!(v.size, 6);
        assert_eq!(v.spec(), "othello,size=6");
        let v: Variant = "size=10,rows=bottom".parse().unwrap();
        assert_eq!((v.size, v.rows), (10, RowNumbering::Bottom));
        let v: Variant = "grand,rows=bottom".parse().unwrap();
        assert_eq!(v.spec(), "grand,rows=bottom");
        let v: Variant = "othello,rows=bottom,holes=a1".parse().unwrap();
        assert_eq!(v.holes, Holes::Cells(vec!["a8".parse().unwrap()]));
        assert_eq!(v.spec().parse::<Variant>().unwrap(), v, "{}", v.spec());
        let v: Variant = "othello,holes=c3/f6".parse().unwrap();
        assert_eq!(v.holes, Holes::Cells(vec!["c3".parse().unwrap(), "f6".parse().unwrap()]));
        assert_eq!(v.spec().parse::<Variant>().unwrap(), v);
    }

    #[test]
    fn a_key_given_twice_is_an_error() {
        assert_eq!("othello,size=6,size=8".parse::<Variant>(), Err(RulesError::RepeatedKey("size".into())));
        assert_eq!("rows=top,rows=bottom".parse::<Variant>(), Err(RulesError::RepeatedKey("rows".into())));
        // A preset's own settings may be given again, once.
        assert!("grand,size=10".parse::<Variant>().is_ok());
        // An explicit `holes=none` is not turned into a random hole by a seed.
        assert!(matches!("holes=none,seed=3".parse::<Variant>(), Err(RulesError::Impossible(_))));
        assert!("seed=3".parse::<Variant>().is_ok_and(|v| v.holes == Holes::Random { seed: 3 }));
    }

    #[test]
    fn a_bad_hole_is_named_as_written() {
        let error = |spec: &str| Rules::new(spec.parse().unwrap()).err().map(|e| e.to_string()).unwrap_or_default();
        // d4 counted from the bottom is the top-down d5: a start cell either way.
        assert!(error("othello,rows=bottom,holes=d4").contains("hole d4 is on a start cell"));
        assert!(error("othello,rows=bottom,holes=d5").contains("hole d5 is on a start cell"));
        assert!(error("othello,holes=c3/c3").contains("hole c3 is given twice"));
        assert!(error("8stars,holes=a1").contains("hole a1 is outside the board"));
    }

    #[test]
    fn bad_specs_get_clear_errors() {
        assert!(matches!("chess".parse::<Variant>(), Err(RulesError::UnknownPreset(_))));
        assert!(matches!("othello,colour=red".parse::<Variant>(), Err(RulesError::UnknownKey(_))));
        assert!(matches!("othello,size=3".parse::<Variant>(), Err(RulesError::BadValue { .. })));
        assert!(matches!("othello,size".parse::<Variant>(), Err(RulesError::MissingValue(_))));
        assert!(matches!("othello,borrow=no".parse::<Variant>(), Err(RulesError::Impossible(_))));
        for impossible in [
            "othello,size=7",
            "othello,holes=d4",
            "othello,size=4,shape=8stars",
            "othello,supply=1",
            "othello,holes=j1",
        ] {
            assert!(matches!(impossible.parse::<Rules>(), Err(RulesError::Impossible(_))), "{impossible}");
        }
        let message = "chess".parse::<Variant>().unwrap_err().to_string();
        assert!(message.contains("othello") && message.contains("kifu rules"), "{message}");
    }

    #[test]
    fn specs_read_the_same_in_any_order() {
        let a: Variant = "othello,rows=bottom,holes=a1,size=10".parse().unwrap();
        let b: Variant = "othello,holes=a1,size=10,rows=bottom".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a.holes, Holes::Cells(vec![Square::new(0, 9)]), "a1 is the bottom-left cell of 10x10");
        assert!(matches!("othello,rows=bottom,holes=a9".parse::<Variant>(), Err(RulesError::Impossible(_))));
        let v: Variant = "othello,holes=a12,size=12,rows=bottom".parse().unwrap();
        assert_eq!(v.spec().parse::<Variant>().unwrap(), v);
    }

    #[test]
    fn a_start_board_gives_its_size() {
        let six = "------/------/--OX--/--XO--/------/------";
        let v: Variant = format!("othello,start={six}").parse().unwrap();
        assert_eq!(v.size, 6);
        assert!(Rules::new(v).is_ok());
        let v: Variant = format!("othello,size=8,start={six}").parse().unwrap();
        assert_eq!(v.size, 6, "the board's own size wins over size=");
        assert!(matches!(
            format!("othello,start={}", "-".repeat(24)).parse::<Variant>(),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!("othello,holes=c3,seed=2".parse::<Variant>(), Err(RulesError::Impossible(_))));
    }

    #[test]
    fn off_board_squares_are_named_without_panicking() {
        let rules: Rules = "othello,rows=bottom".parse().unwrap();
        assert_eq!(rules.square_name(Square::new(0, 11)), "a12");
        assert_eq!(rules.square_name(Square::new(0, 7)), "a1");
    }

    #[test]
    fn eight_stars_cuts_twelve_cells() {
        let rules: Rules = "8stars".parse().unwrap();
        assert_eq!(rules.playable().count(), 100 - 12);
        for name in ["a1", "b1", "a2", "j1", "i1", "j2", "a10", "a9", "b10", "j10", "i10", "j9"] {
            assert!(!rules.playable().contains(name.parse().unwrap()), "{name}");
        }
        assert!(rules.playable().contains("b2".parse().unwrap()));
    }

    #[test]
    fn random_hole_is_reproducible_and_off_the_start_discs() {
        let a: Rules = "blackhole,seed=7".parse().unwrap();
        let b: Rules = "blackhole,seed=7".parse().unwrap();
        assert_eq!(a.holes(), b.holes());
        assert_eq!(a.holes().len(), 1);
        assert_eq!(a.playable().count(), 63);
        let seeds: std::collections::HashSet<_> =
            (0..200).map(|s| format!("blackhole,seed={s}").parse::<Rules>().unwrap().holes()[0]).collect();
        assert!(seeds.len() > 40, "seeds spread the hole over the board");
        let (black, white) = a.start_discs();
        assert!(!(black | white).contains(a.holes()[0]));
    }

    #[test]
    fn rows_from_the_bottom_rename_squares() {
        let rules: Rules = "othello,rows=bottom".parse().unwrap();
        let sq = rules.parse_square("a1").unwrap();
        assert_eq!((sq.file(), sq.row()), (0, 7));
        assert_eq!(rules.square_name(Square::new(3, 3)), "d5");
        assert_eq!(Rules::othello().square_name(Square::new(3, 3)), "d4");
        assert_eq!(rules.parse_square("i1"), None);
        for rules in [rules, "size=10,rows=bottom".parse().unwrap(), Rules::othello()] {
            for sq in rules.playable().squares() {
                let (file, rank) = rules.file_and_rank(sq);
                assert_eq!(rules.square_at(file, rank), Some(sq));
            }
        }
    }

    #[test]
    fn custom_start_boards_parse() {
        let v: Variant =
            format!("start={}", "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27)).parse().unwrap();
        let rules = Rules::new(v.clone()).unwrap();
        let (black, white) = rules.start_discs();
        assert_eq!((black.count(), white.count()), (2, 2));
        assert_eq!(v.spec().parse::<Variant>().unwrap(), v);
    }
}
