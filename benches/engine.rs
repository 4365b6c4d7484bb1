//! Criterion benches: the kernel alone on open boards, and whole counts. Every bench
//! checks its answer against the published table, so a fast wrong kernel cannot pass.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use nqueens::known::known;
use nqueens::methods::backtrack::kernel::count_completions;
use nqueens::methods::backtrack::row_plan::{Frame, RowPlan};
use nqueens::{NoProgress, Options, count};
use std::hint::black_box;

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("kernel_open_board");
    for n in [8usize, 10, 12] {
        let rows: Vec<usize> = (0..n).collect();
        let plan = RowPlan::new(n, &rows, &vec![0; n]);
        let want = known(n).unwrap().total as u64;
        group.bench_with_input(BenchmarkId::from_parameter(n), &plan, |b, plan| {
            b.iter(|| {
                let tally = count_completions(black_box(plan), &Frame::default());
                assert_eq!(tally.solutions, want);
            })
        });
    }
    group.finish();
}

fn whole_count(c: &mut Criterion) {
    let mut group = c.benchmark_group("count");
    group.sample_size(10);
    for n in [10usize, 12, 14] {
        let want = known(n).unwrap().total;
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| {
                let got = count(black_box(n), &Options::default(), &NoProgress).unwrap();
                assert_eq!(got.total, want);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, kernel, whole_count);
criterion_main!(benches);
