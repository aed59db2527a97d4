#![doc = include_str!("../README.md")]

pub mod advise;
mod build;
mod byte_table;
mod class_build;
mod class_check;
#[cfg(feature = "mpi")]
mod distributed;
mod error;
mod file_check;
mod levels;
mod moves;
mod observer;
mod plan;
mod pool;
mod recode;
mod reduce;
mod request;
mod restore;
mod semantic;
mod slice;
mod standard_build;
mod state;
mod stats;
mod symmetric;
mod twobit;

pub use build::{build_file, build_file_with_state, build_table};
pub use byte_table::{Entries, UNREACHED};
pub use class_build::{build_class_file, build_class_table, default_labels, ClassBuildRequest};
#[cfg(feature = "mpi")]
pub use distributed::{
    build_file_distributed, check_rank_memory, plan_distributed, DistributedOptions,
    DistributedPlan, DistributedTable,
};
pub use error::{BuildError, CheckError, RestoreError, VerifyError};
pub use file_check::{
    verify_file, verify_tables, FileReport, Problem, TableReport, VerifyDepth, VerifyObserver,
    VerifyOptions,
};
pub use observer::{BuildObserver, NoProgress, TableSummary};
pub use plan::{plan, BuildPlan};
pub use recode::{recode, RecodeError, RecodeOptions};
pub use request::BuildRequest;
pub use restore::{values_of, Values};
pub use semantic::{checks, verify_table, Violation};
pub use standard_build::build_standard;
pub use state::{BuildState, Refused, ResumePoint, StateOptions, SAVE_RATIO};
pub use stats::ValueStats;
