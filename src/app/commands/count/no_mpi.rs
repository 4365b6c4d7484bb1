//! `--mpi` in a build without the `mpi` feature: refused before any work.

use super::tallies::Tallies;
use crate::app::failure::Failure;
use crate::app::signals::Stop;
use nqueens::{Engine, Plan};

/// No process of this build is part of an MPI job.
pub enum Ranks {}

/// Refuses `--mpi`: this build has no MPI.
pub fn join() -> Result<Ranks, Failure> {
    Err(Failure::refused(
        "--mpi needs a build with the `mpi` feature: cargo build --release --features mpi",
    ))
}

impl Ranks {
    pub fn is_coordinator(&self) -> bool {
        match *self {}
    }

    pub fn size(&self) -> usize {
        match *self {}
    }

    pub fn rank(&self) -> usize {
        match *self {}
    }

    pub fn abort(&self, _: u8) -> ! {
        match *self {}
    }

    pub fn distribute(
        &self,
        _: &Engine,
        _: &Plan,
        _: &[usize],
        _: &Stop,
        _: &Tallies,
        _: impl FnMut(),
    ) -> Result<(), Failure> {
        match *self {}
    }
}
