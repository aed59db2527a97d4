//! [`ResolveError`]: why no heuristic could be made for a request, one variant per cause, for
//! each front-end to phrase in its own terms (an option name, a status code).

use crate::{DbError, HeuristicName};
use pdbformat::standard::StandardDb;
use pdbformat::{Board, Goal};
use thiserror::Error;

/// Why [`super::Resolver::resolve`] made no heuristic.
#[derive(Debug, Error)]
pub enum ResolveError {
    /// The board has more cells than the heuristics' positions hold.
    #[error("{algorithm} works on boards of at most {max} cells; {board} has {cells} (the strategic algorithm solves boards of any size)")]
    BoardTooLarge {
        /// The algorithm asked for.
        algorithm: crate::AlgorithmName,
        /// The board.
        board: Board,
        /// Its cells.
        cells: usize,
        /// The most a heuristic search takes.
        max: usize,
    },
    /// Databases were named together with a classic heuristic.
    #[error("databases need the pdb heuristic (or auto), not {0}")]
    DatabasesNeedPdb(HeuristicName),
    /// A heuristic (or databases) not admissible in the metric asked for.
    #[error("the {0} heuristic is not a lower bound in the {1} metric: use walking-distance (or leave the heuristic out)")]
    NotAdmissible(HeuristicName, pdbformat::Metric),
    /// An empty list of databases.
    #[error("an empty list of databases (leave it out to use every database that fits)")]
    EmptyList,
    /// A standard database (or a member of a named catalogue) is in none of the folders.
    #[error("database {}{} is not in {searched}; build it there with `pdbgen {}`", .db.name, .catalogue.as_ref().map(|c| format!(" (in catalogue {c})")).unwrap_or_default(), .db.build_args().join(" "))]
    NotFound {
        /// The standard database.
        db: &'static StandardDb,
        /// The catalogue it was named through, if any.
        catalogue: Option<String>,
        /// The folders searched, for the message.
        searched: String,
    },
    /// A name that is not one of the databases a server holds.
    #[error("unknown database {name:?}: this server has {}", if .have.is_empty() { "none".to_string() } else { .have.join(", ") })]
    Unknown {
        /// The name asked for.
        name: String,
        /// The names it has.
        have: Vec<String>,
    },
    /// The pdb heuristic was asked for and no database fits the goal (none found, none built).
    #[error("no pattern database fits the {} board and goal {goal} {why}", .goal.board())]
    NoneFits {
        /// The goal.
        goal: Goal,
        /// Where it was looked for and why none was built (`in a, b and --no-build was
        /// given`).
        why: String,
    },
    /// A database could not be opened, or does not fit the goal.
    #[error(transparent)]
    Database(#[from] DbError),
    /// A standard database's definition does not resolve (a bug the standard set's tests
    /// catch).
    #[error(transparent)]
    Standard(#[from] pdbformat::standard::StandardError),
    /// There is no folder to build the default database in.
    #[error("no place to build the default database: set PDB_DIR or HOME, or name a database")]
    NoBuildFolder,
    /// Building the default database failed.
    #[cfg(feature = "build")]
    #[error("cannot build the default database {}", .path.display())]
    Build {
        /// Where it was being built.
        path: std::path::PathBuf,
        /// Why it failed.
        #[source]
        source: Box<crate::locate::BuildDefaultError>,
    },
}

impl ResolveError {
    /// Whether the request asked for something that cannot be done with these databases (a
    /// server's 422), as opposed to a file that is damaged or unreadable (the server's fault).
    pub fn is_unfit(&self) -> bool {
        match self {
            ResolveError::Database(e) => matches!(
                e,
                DbError::WrongBoard { .. }
                    | DbError::WrongGoal { .. }
                    | DbError::WrongMetric { .. }
                    | DbError::TooMany { .. }
            ),
            ResolveError::BoardTooLarge { .. } | ResolveError::NoneFits { .. } => true,
            _ => false,
        }
    }
}
