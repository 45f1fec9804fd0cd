//! An independent, deliberately plain implementation of the rules: a grid of cells and walks in
//! eight directions, written from docs/variants.md without the bitboard code. The tests compare
//! kifu against it move by move and perft by perft.

use kifu::core::{Color, Holes, Move, PassRule, Placement, Rules, Scoring, Shape, Square, Start, Supply, TieRule};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Off,
    Empty,
    Disc(Color),
}

/// A position under the reference rules.
#[derive(Clone, Debug)]
pub struct Reference {
    n: usize,
    cells: Vec<Cell>,
    side: Color,
    stock: [i64; 2],
    passes: u32,
    rules: Rules,
}

const DIRS: [(i64, i64); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)];

impl Reference {
    /// The start position of `rules`, worked out from its settings.
    pub fn start(rules: &Rules) -> Reference {
        let v = rules.variant();
        let n = usize::from(v.size);
        let mut cells = vec![Cell::Empty; n * n];
        if v.shape == Shape::EightStars {
            let l = n - 1;
            for (f, r) in [
                (0, 0),
                (1, 0),
                (0, 1),
                (l, 0),
                (l - 1, 0),
                (l, 1),
                (0, l),
                (1, l),
                (0, l - 1),
                (l, l),
                (l - 1, l),
                (l, l - 1),
            ] {
                cells[r * n + f] = Cell::Off;
            }
        }
        let holes: Vec<Square> = match &v.holes {
            Holes::None => vec![],
            Holes::Cells(c) => c.clone(),
            // The choice of a random cell is not move logic: take kifu's.
            Holes::Random { .. } => rules.holes().to_vec(),
        };
        for h in holes {
            cells[usize::from(h.row()) * n + usize::from(h.file())] = Cell::Off;
        }
        let c = n / 2;
        let mut put = |f: usize, r: usize, color| cells[r * n + f] = Cell::Disc(color);
        match &v.start {
            Start::Diagonal => {
                put(c - 1, c - 1, Color::White);
                put(c, c, Color::White);
                put(c, c - 1, Color::Black);
                put(c - 1, c, Color::Black);
            }
            Start::Parallel => {
                put(c - 1, c - 1, Color::White);
                put(c, c - 1, Color::White);
                put(c - 1, c, Color::Black);
                put(c, c, Color::Black);
            }
            Start::Empty => {}
            Start::Custom { black, white } => {
                for s in black {
                    put(usize::from(s.file()), usize::from(s.row()), Color::Black);
                }
                for s in white {
                    put(usize::from(s.file()), usize::from(s.row()), Color::White);
                }
            }
        }
        let mut r = Reference { n, cells, side: v.first, stock: [i64::MAX / 4; 2], passes: 0, rules: rules.clone() };
        if let Supply::Limited { per_player, .. } = v.supply {
            for color in [Color::Black, Color::White] {
                r.stock[color.index()] = i64::from(per_player) - r.count(color) as i64;
            }
        }
        r
    }

    fn at(&self, f: i64, r: i64) -> Cell {
        if f < 0 || r < 0 || f >= self.n as i64 || r >= self.n as i64 {
            Cell::Off
        } else {
            self.cells[r as usize * self.n + f as usize]
        }
    }

    /// Discs of `color`.
    pub fn count(&self, color: Color) -> u32 {
        self.cells.iter().filter(|&&c| c == Cell::Disc(color)).count() as u32
    }

    fn empties(&self) -> u32 {
        self.cells.iter().filter(|&&c| c == Cell::Empty).count() as u32
    }

    fn centre(&self) -> [(i64, i64); 4] {
        let c = (self.n / 2) as i64;
        [(c - 1, c - 1), (c, c - 1), (c - 1, c), (c, c)]
    }

    fn in_opening(&self) -> bool {
        self.rules.variant().start == Start::Empty && self.centre().iter().any(|&(f, r)| self.at(f, r) == Cell::Empty)
    }

    fn flips(&self, f: i64, r: i64, side: Color) -> Vec<(i64, i64)> {
        let mut all = Vec::new();
        for (df, dr) in DIRS {
            let mut run = Vec::new();
            let (mut x, mut y) = (f + df, r + dr);
            while self.at(x, y) == Cell::Disc(side.other()) {
                run.push((x, y));
                x += df;
                y += dr;
            }
            if self.at(x, y) == Cell::Disc(side) {
                all.extend(run);
            }
        }
        all
    }

    fn next_to(&self, f: i64, r: i64, want: impl Fn(Cell) -> bool) -> bool {
        DIRS.iter().any(|&(df, dr)| want(self.at(f + df, r + dr)))
    }

    fn has_stock(&self, side: Color) -> bool {
        match self.rules.variant().supply {
            Supply::Unlimited => true,
            Supply::Limited { borrow, .. } => {
                self.stock[side.index()] > 0 || (borrow && self.stock[side.other().index()] > 0)
            }
        }
    }

    fn placements(&self, side: Color) -> Vec<Square> {
        let mut out = Vec::new();
        if !self.has_stock(side) {
            return out;
        }
        let opening = self.in_opening();
        for r in 0..self.n as i64 {
            for f in 0..self.n as i64 {
                if self.at(f, r) != Cell::Empty {
                    continue;
                }
                let ok = if opening {
                    self.centre().contains(&(f, r))
                } else if !self.flips(f, r, side).is_empty() {
                    true
                } else {
                    match self.rules.variant().placement {
                        Placement::MustFlip => false,
                        Placement::NextToAny => self.next_to(f, r, |c| matches!(c, Cell::Disc(_))),
                        Placement::NextToOwn => self.next_to(f, r, |c| c == Cell::Disc(side)),
                    }
                };
                if ok {
                    out.push(Square::new(f as u8, r as u8));
                }
            }
        }
        out
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        if self.passes >= 2 || self.empties() == 0 {
            return true;
        }
        if !self.in_opening() && (self.count(Color::Black) == 0 || self.count(Color::White) == 0) {
            return true;
        }
        self.placements(self.side).is_empty() && self.placements(self.side.other()).is_empty()
    }

    /// Every legal move, placements in row order then a pass.
    pub fn moves(&self) -> Vec<Move> {
        if self.is_over() {
            return vec![];
        }
        let mut moves: Vec<Move> = self.placements(self.side).into_iter().map(Move::Place).collect();
        if moves.is_empty() || self.rules.variant().pass == PassRule::Voluntary {
            moves.push(Move::Pass);
        }
        moves
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move) {
        let side = self.side;
        self.side = side.other();
        let Move::Place(sq) = mv else {
            self.passes += 1;
            return;
        };
        self.passes = 0;
        let (f, r) = (i64::from(sq.file()), i64::from(sq.row()));
        let flipped = if self.in_opening() { vec![] } else { self.flips(f, r, side) };
        for (x, y) in flipped.into_iter().chain([(f, r)]) {
            self.cells[y as usize * self.n + x as usize] = Cell::Disc(side);
        }
        if self.stock[side.index()] > 0 {
            self.stock[side.index()] -= 1;
        } else {
            self.stock[side.other().index()] -= 1;
        }
    }

    /// The board as kifu's `board_string` writes it.
    pub fn board_string(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Cell::Off => '#',
                Cell::Empty => '-',
                Cell::Disc(Color::Black) => 'X',
                Cell::Disc(Color::White) => 'O',
            })
            .collect()
    }

    /// The winner and margin under the rules' scoring and tie rule.
    pub fn result(&self) -> (Option<Color>, u32) {
        let v = self.rules.variant();
        let (b, w, e) = (self.count(Color::Black), self.count(Color::White), self.empties());
        let more = if b > w {
            Some(Color::Black)
        } else if w > b {
            Some(Color::White)
        } else {
            None
        };
        let (winner, margin) = match v.scoring {
            Scoring::EmptiesToWinner => (more, if more.is_some() { b.abs_diff(w) + e } else { 0 }),
            Scoring::Plain => (more, b.abs_diff(w)),
            Scoring::Anti => (more.map(|c| c.other()), b.abs_diff(w)),
        };
        match (winner, v.ties) {
            (None, TieRule::SecondPlayer) => (Some(v.first.other()), margin),
            (w, _) => (w, margin),
        }
    }

    /// Perft; `free` makes a forced pass use no ply.
    pub fn perft(&self, depth: u32, free: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        let forced = moves == [Move::Pass];
        let d = if forced && free { depth } else { depth - 1 };
        moves
            .iter()
            .map(|&mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(d, free)
            })
            .sum()
    }
}
