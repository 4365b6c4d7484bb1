//! Bitmask backtracking: solutions grouped by their queens on the border, one canonical
//! border per orbit ([`border`]), split into many searches with stable ids ([`split`]),
//! each searched to the bottom by the kernel ([`kernel`]).

pub mod border;
pub mod kernel;
pub mod split;
