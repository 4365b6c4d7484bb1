//! Bitmask backtracking: solutions grouped by their queens on the border, one canonical
//! border per orbit ([`border`]), split into many searches with stable ids ([`split`]),
//! each a [`row_plan`] searched to the bottom by a kernel ([`kernel`]).

pub mod border;
pub mod kernel;
pub mod method;
pub mod probe;
pub mod row_plan;
pub mod sample;
pub mod split;
