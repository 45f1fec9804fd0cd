//! Criterion benchmarks of the rules core (the 8x8 kernels, perft, the generic path) and of the
//! evaluation.
//!
//! `cargo bench --bench core`; figures in docs/BENCHMARKS.md.

use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_group, criterion_main};
use kifu::core::bitboard::{Bits, flips, flips_portable, legal_moves, legal_moves_portable};
use kifu::core::perft::{PassCount, perft, perft_generic};
use kifu::core::{Move, Position, Rules};
use kifu::engine::eval::Evaluator;
use kifu::engine::generic::GenericSearcher;
use kifu::engine::solve::Limits;

/// Positions from random games, as (mover, opponent) bitboards.
fn sample_positions() -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut seed = 1u64;
    for _ in 0..200 {
        let mut pos = Position::start(Rules::othello().shared());
        while !pos.is_game_over() {
            let [b, w] = pos.bitboards().unwrap();
            out.push(if pos.side_to_move() == kifu::core::Color::Black { (b, w) } else { (w, b) });
            let moves = pos.legal_moves();
            seed = kifu::core::splitmix64(seed);
            pos.play_mut(moves[(seed % moves.len() as u64) as usize]).unwrap();
        }
    }
    out
}

fn kernels(c: &mut Criterion) {
    let positions = sample_positions();
    let mut group = c.benchmark_group("kernels");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| positions.iter().fold(0u64, |acc, &(p, o)| acc ^ legal_moves(black_box(p), black_box(o))))
    });
    group.bench_function("legal_moves_portable", |b| {
        b.iter(|| positions.iter().fold(0u64, |acc, &(p, o)| acc ^ legal_moves_portable(black_box(p), black_box(o))))
    });
    let with_moves: Vec<(u32, u64, u64)> =
        positions.iter().filter_map(|&(p, o)| Bits(legal_moves(p, o)).next().map(|sq| (sq, p, o))).collect();
    group.throughput(Throughput::Elements(with_moves.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            with_moves.iter().fold(0u64, |acc, &(sq, p, o)| acc ^ flips(black_box(sq), black_box(p), black_box(o)))
        })
    });
    // The AVX2 kernel beside `flips`, which is the AVX-512 one in a build for a processor with it.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    group.bench_function("flips_avx2", |b| {
        b.iter(|| {
            with_moves.iter().fold(0u64, |acc, &(sq, p, o)| {
                acc ^ kifu::core::bitboard::simd::flips(black_box(sq), black_box(p), black_box(o))
            })
        })
    });
    group.bench_function("flips_portable", |b| {
        b.iter(|| {
            with_moves
                .iter()
                .fold(0u64, |acc, &(sq, p, o)| acc ^ flips_portable(black_box(sq), black_box(p), black_box(o)))
        })
    });
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    let positions = sample_positions();
    let evaluator = Evaluator::embedded();
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate", |b| {
        b.iter(|| positions.iter().fold(0i32, |acc, &(p, o)| acc ^ evaluator.evaluate(black_box(p), black_box(o))))
    });
    group.finish();
}

fn perft_standard(c: &mut Criterion) {
    let start = Position::start(Rules::othello().shared());
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [9u32, 11] {
        let leaves = perft(&start, depth, PassCount::Ply);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new("standard", depth), &depth, |b, &d| {
            b.iter(|| perft(black_box(&start), d, PassCount::Ply))
        });
    }
    group.finish();
}

fn generic_path(c: &mut Criterion) {
    let mut group = c.benchmark_group("generic");
    group.sample_size(10);
    for spec in ["othello", "grand", "italian"] {
        let start = Position::start(spec.parse::<Rules>().unwrap().shared()).into_wide();
        group.bench_function(BenchmarkId::new("perft5", spec), |b| {
            b.iter(|| perft_generic(black_box(&start), 5, PassCount::Ply))
        });
    }
    let game: Vec<Move> = "f5d6c3d3c4f4f6f3e6e7d7c6b6c5b5b4e3c7f8d8"
        .as_bytes()
        .chunks(2)
        .map(|c| Move::Place(std::str::from_utf8(c).unwrap().parse().unwrap()))
        .collect();
    let start = Position::start(Rules::othello().shared());
    group.bench_function("replay20/narrow", |b| {
        b.iter(|| {
            let mut pos = start.clone();
            for &mv in &game {
                pos.play_mut(mv).unwrap();
            }
            pos
        })
    });
    // The exact search of a variant: tests/data/variants.pgn's 6x6 game after 18 plies (14 empty
    // cells), from an empty table each time (the fast path to the end on the 8x8 kernels).
    let rules = "othello,size=6".parse::<Rules>().unwrap().shared();
    let mut six = Position::start(rules.clone());
    for name in "c2 b4 b5 d2 a4 a6 c5 b1 c6 b6 e4 f5 d6 e6 d1 b3 a2 d5".split(' ') {
        six.play_mut(Move::Place(rules.parse_square(name).unwrap())).unwrap();
    }
    group.bench_function("solve/6x6-14-empties", |b| {
        b.iter(|| {
            let mut searcher = GenericSearcher::new(16);
            searcher.solve_with(black_box(&six), Limits::default()).unwrap().score
        })
    });
    group.finish();
}

criterion_group!(benches, kernels, evaluation, perft_standard, generic_path);
criterion_main!(benches);
