//! The eight symmetries of the square and what they give a count: the group acting on
//! squares ([`group`]), the searches for solutions a rotation fixes ([`fixed`]), and the
//! unique count and orbit split by Burnside's lemma ([`orbits`]).

pub mod fixed;
pub mod group;
pub mod orbits;
