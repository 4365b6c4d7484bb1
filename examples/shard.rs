//! Counts a board in shards, as machines of a cluster would, and adds them up: every
//! shard is a pure function of N and K, so each machine computes its own part alone.
//! `cargo run --release --example shard -- 13 4`.

use nqueens::{Engine, NoProgress, Options, Tally, Work};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().unwrap_or_else(|| "13".into()).parse()?;
    let shards: usize = args.next().unwrap_or_else(|| "4".into()).parse()?;
    let engine = Engine::new(&Options::default())?;
    let plan = engine.prepare_part(n, shards)?;
    let partition = plan.partition(shards);
    let mut tallies: Vec<Option<Tally>> = vec![None; plan.len()];
    for i in 0..shards {
        // On a cluster, shard i + 1 of K runs on a machine of its own and finds its part
        // alone.
        let part = partition.part(i);
        let work = Work {
            only: Some(&part),
            ..Work::default()
        };
        let done = engine.run(&plan, &work, &NoProgress);
        let contribution: u128 = done
            .iter()
            .map(|&(id, t)| u128::from(plan.weight(id)) * u128::from(t.solutions))
            .sum();
        println!(
            "shard {}/{shards}: {} sub-problems, contribution {contribution}",
            i + 1,
            part.len()
        );
        for (id, tally) in done {
            tallies[id] = Some(tally);
        }
    }
    let count = engine.finish(&plan, &tallies)?;
    println!(
        "N = {n}: {} solutions, {} up to symmetry",
        count.total, count.unique
    );
    Ok(())
}
