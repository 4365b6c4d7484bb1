//! Estimating the size of a backtracking search without running it: Knuth's random
//! probes (Knuth, "Estimating the efficiency of backtrack programs", 1975).
//!
//! A probe walks down from the start, at each row picking one of the queens the search
//! would accept there, uniformly at random; the product of the choices seen so far
//! estimates how many nodes the search has on that row, and their sum over the rows is an
//! unbiased estimate of the search's nodes. It follows the kernel's own acceptance rule
//! ([`super::row_plan`]), so it estimates the very nodes the kernel counts.

use super::row_plan::{Frame, RowPlan};

/// One probe's estimate of the nodes below `start` on `plan` (the accepted queens), with
/// `pick(k)` choosing uniformly among `k` choices.
pub fn probe_nodes(plan: &RowPlan, start: &Frame, pick: &mut dyn FnMut(u32) -> u32) -> f64 {
    let (mut frame, mut product, mut nodes) = (*start, 1.0f64, 0.0f64);
    while frame.depth < plan.len() {
        let mut children = [Frame::default(); 32];
        let mut count = 0;
        let mut free = plan.free_squares(&frame);
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            if let Some(next) = plan.step(&frame, bit) {
                children[count] = next;
                count += 1;
            }
        }
        if count == 0 {
            break;
        }
        product *= count as f64;
        nodes += product;
        frame = children[pick(count as u32) as usize];
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::backtrack::kernel::count_completions;

    #[test]
    fn probes_average_to_the_nodes_the_kernel_counts() {
        let n = 11;
        let rows: Vec<usize> = (0..n).collect();
        let plan = RowPlan::new(n, &rows, &vec![0; n]);
        let exact = count_completions(&plan, &Frame::default()).nodes as f64;
        let mut rng = fastrand::Rng::with_seed(7);
        let probes = 20_000;
        let mean = (0..probes)
            .map(|_| probe_nodes(&plan, &Frame::default(), &mut |k| rng.u32(..k)))
            .sum::<f64>()
            / f64::from(probes);
        assert!((mean / exact - 1.0).abs() < 0.05, "{mean} vs {exact}");
    }
}
