//! A total from a stratified sample, with its 90% interval: what a projection bets on.
//!
//! The population (a count's sub-problems) is cut into strata of known sizes by a cheap
//! class of each one's size; a simple random sample is drawn and each sampled value (its
//! seconds) goes to its stratum. The total is `sum of N_h * mean_h`, its variance
//! `sum of N_h^2 (1 - n_h / N_h) s_h^2 / n_h` (the finite population correction makes a
//! census exact), and the interval is `1.645` standard errors either side. A stratum
//! with fewer than two sampled values has no variance of its own: such strata are pooled
//! with their neighbours (their class is ordered, so neighbours are alike).

/// A projected total and its 90% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Total {
    /// The estimate.
    pub total: f64,
    /// The interval's ends (the low one never below zero).
    pub low: f64,
    /// The high end.
    pub high: f64,
}

/// The normal quantile of 95%: a two-sided 90% interval.
const Z90: f64 = 1.645;

/// Sampled values below which a sample gives no interval, unless it is a census: two
/// or three values of a skewed population bound nothing (`estimate 28` once said "0 s to
/// 172 years" from two).
pub const FEWEST: usize = 5;

/// The total over strata of `sizes`, from `sample` values tagged by stratum; `None`
/// with fewer than [`FEWEST`] sampled values, unless they are all of them.
pub fn total(sizes: &[usize], sample: &[(usize, f64)]) -> Option<Total> {
    let census = sample.len() >= sizes.iter().sum::<usize>();
    if sample.is_empty() || sample.len() < FEWEST && !census {
        return None;
    }
    let mut by_stratum = vec![Vec::new(); sizes.len()];
    for &(stratum, value) in sample {
        by_stratum[stratum].push(value);
    }
    let (mut total, mut variance) = (0.0, 0.0);
    for (size, values) in pooled(sizes, by_stratum) {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        // A lone value is a census's (anything else pools it): no spread to correct.
        let squares = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
        let spread = if n > 1.0 { squares / (n - 1.0) } else { 0.0 };
        let size = size as f64;
        total += size * mean;
        variance += size * size * (1.0 - n / size).max(0.0) * spread / n;
    }
    let margin = Z90 * variance.sqrt();
    Some(Total {
        total,
        low: (total - margin).max(0.0),
        high: total + margin,
    })
}

/// The strata as (size, values), neighbours pooled until each holds two values at least
/// (empty strata of no size dropped).
fn pooled(sizes: &[usize], by_stratum: Vec<Vec<f64>>) -> Vec<(usize, Vec<f64>)> {
    let mut groups: Vec<(usize, Vec<f64>)> = Vec::new();
    let mut open: Option<(usize, Vec<f64>)> = None;
    for (&size, values) in sizes.iter().zip(by_stratum) {
        let (open_size, open_values) = open.get_or_insert_with(Default::default);
        *open_size += size;
        open_values.extend(values);
        if open_values.len() >= 2 {
            groups.extend(open.take());
        }
    }
    if let Some((size, values)) = open {
        match groups.last_mut() {
            Some(last) => {
                last.0 += size;
                last.1.extend(values);
            }
            None => groups.push((size, values)),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_census_is_exact() {
        let sizes = [2, 3];
        let sample = [(0, 1.0), (0, 3.0), (1, 10.0), (1, 10.0), (1, 13.0)];
        let got = total(&sizes, &sample).unwrap();
        assert_eq!((got.total, got.low, got.high), (37.0, 37.0, 37.0));
    }

    #[test]
    fn too_small_a_sample_has_no_interval() {
        assert_eq!(total(&[10], &[(0, 1.0)]), None);
        let four = [(0, 1.0), (0, 2.0), (0, 3.0), (0, 4.0)];
        assert_eq!(total(&[10], &four), None);
        let census = total(&[4], &four).expect("all of them");
        assert_eq!((census.low, census.total, census.high), (10.0, 10.0, 10.0));
    }

    /// Strata of one sampled value are pooled with a neighbour; the pooled stratum's
    /// mean stands for its whole size.
    #[test]
    fn lone_values_are_pooled() {
        let sizes = [10, 10, 0, 10];
        let sample = [(0, 1.0), (1, 3.0), (3, 5.0), (3, 7.0), (3, 6.0)];
        let got = total(&sizes, &sample).unwrap();
        assert_eq!(got.total, 20.0 * 2.0 + 10.0 * 6.0);
        assert!(got.low < got.total && got.total < got.high);
    }

    /// Over many samples of a skewed population, the 90% interval covers the true total
    /// about nine times in ten (between 80 and 97 of 100 here).
    #[test]
    fn the_interval_covers_the_truth_about_nine_times_in_ten() {
        let mut rng = fastrand::Rng::with_seed(7);
        let population: Vec<(usize, f64)> = (0..20_000)
            .map(|i| {
                let stratum = i % 5;
                let scale = [1.0, 4.0, 9.0, 4.0, 1.0][stratum];
                (stratum, scale * rng.f64().powi(3) * 100.0)
            })
            .collect();
        let truth: f64 = population.iter().map(|p| p.1).sum();
        let sizes = [4000; 5];
        let covered = (0..100)
            .filter(|_| {
                let sample: Vec<(usize, f64)> = (0..200)
                    .map(|_| population[rng.usize(..population.len())])
                    .collect();
                let got = total(&sizes, &sample).unwrap();
                got.low <= truth && truth <= got.high
            })
            .count();
        assert!((80..=97).contains(&covered), "{covered} of 100");
    }
}
