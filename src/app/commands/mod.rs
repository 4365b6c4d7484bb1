//! One module per subcommand. A command uses the layers below it (arguments, reports,
//! output files, progress, the system) and never another command.

pub mod bench;
pub mod check;
pub mod count;
pub mod estimate;
pub mod find;
pub mod man;
pub mod merge;
pub mod recount;
pub mod solve;
pub mod trace;
pub mod verify;
