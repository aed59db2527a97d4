//! The checkpoint file: [`Checkpoint`], a search state with what it belongs to (board, goal,
//! start, heuristic identity, pruning depth), as checksummed text written atomically.
//!
//! The file is text, one `key value` line per field in a fixed order, then `checksum` with the
//! 64-bit FNV-1a hash of every byte before that line:
//!
//! ```text
//! solver-checkpoint 1
//! board 4x4
//! goal 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
//! start 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3
//! heuristic pdb reflect 15-663-za.pdb:1a2b…,…
//! prune-depth 8
//! order towards-goal
//! initial-h 41
//! iteration 5
//! bound 49
//! next-bound 51
//! path 0 1 1 0 2
//! nodes 1234567
//! expanded 567890
//! iteration-nodes 234567
//! checksum 0123456789abcdef
//! ```
//!
//! A resumed search takes the path from the start again, skipping at each depth the children
//! before the path's (their subtrees were searched), and searches the subtree on the path in
//! full, so no part of the iteration is missed. `nodes` and `expanded` are the counters just
//! before the path's last node was generated, less the nodes on the path that the resumed
//! search generates (and expands) again: a resumed search ends with the same totals as one
//! that never stopped.
//!
//! The `order` line names the order of a node's children, which gives the path its meaning:
//! always `towards-goal` (the move table's visiting order, the blank towards its goal corner
//! first). Files of searches in an earlier order (`order h`, smallest estimate first; `order
//! moves`, the move table's slots; or no `order` line) are refused with
//! [`CheckpointError::MoveOrder`]: those orders are gone, and such a path means another place.

use super::{CheckpointError, SearchState, VERSION};
use crate::heuristic::HeuristicChoice;
use pdbformat::{Board, Goal, Puzzle};
use std::fmt::Write as _;
use std::path::Path;

/// The value of the `order` line: children in the move table's visiting order.
const ORDER: &str = "towards-goal";

/// A checkpoint file's contents: the search state and what it belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The board, as `WxH`.
    pub board: String,
    /// The goal's tiles, cell by cell.
    pub goal: Vec<u16>,
    /// The start position's tiles.
    pub start: Vec<u16>,
    /// The heuristic's identity ([`heuristic_identity`]).
    pub heuristic: String,
    /// The duplicate-move pruning depth (it changes the search order's nodes).
    pub prune_depth: u32,
    /// Where the search stands.
    pub state: SearchState,
}

/// 64-bit FNV-1a: enough to tell a damaged file (not a defence against forgery).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The identity of a heuristic for checkpoints: its name, and for pattern databases whether
/// reflection is on and each file's name with the SHA-256 digest (from the file's header) of
/// every table, so that a checkpoint is never resumed with other tables.
pub fn heuristic_identity(choice: &HeuristicChoice) -> String {
    match choice {
        HeuristicChoice::Hamming => "hamming".into(),
        HeuristicChoice::Manhattan => "manhattan".into(),
        HeuristicChoice::LinearConflict => "linear-conflict".into(),
        HeuristicChoice::WalkingDistance => "walking-distance".into(),
        HeuristicChoice::Pdb { databases, reflect } => {
            let mut s = format!("pdb reflect={reflect}");
            for db in databases {
                let name = db
                    .path()
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let digests: Vec<String> = db
                    .tables()
                    .iter()
                    .map(|t| hex(&t.header.raw_digest.0))
                    .collect();
                let _ = write!(s, " {name}:{}", digests.join(","));
            }
            s
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Checkpoint {
    /// The checkpoint of `state` for `puzzle` towards `goal`.
    pub fn new(
        puzzle: &Puzzle,
        goal: &Goal,
        heuristic: &HeuristicChoice,
        prune_depth: u32,
        state: SearchState,
    ) -> Checkpoint {
        Checkpoint {
            board: goal.board().to_string(),
            goal: goal.tiles().to_vec(),
            start: puzzle.tiles().to_vec(),
            heuristic: heuristic_identity(heuristic),
            prune_depth,
            state,
        }
    }

    /// The file's text, checksum included.
    pub fn to_text(&self) -> String {
        let st = &self.state;
        let mut s = String::new();
        let _ = writeln!(s, "solver-checkpoint {VERSION}");
        let _ = writeln!(s, "board {}", self.board);
        let _ = writeln!(s, "goal {}", join(&self.goal));
        let _ = writeln!(s, "start {}", join(&self.start));
        let _ = writeln!(s, "heuristic {}", self.heuristic);
        let _ = writeln!(s, "prune-depth {}", self.prune_depth);
        let _ = writeln!(s, "order {ORDER}");
        let _ = writeln!(s, "initial-h {}", st.initial_h);
        let _ = writeln!(s, "iteration {}", st.iteration);
        let _ = writeln!(s, "bound {}", st.bound);
        let nb = st.next_bound.map_or("none".into(), |b| b.to_string());
        let _ = writeln!(s, "next-bound {nb}");
        let _ = writeln!(s, "path {}", join(&st.path));
        let _ = writeln!(s, "nodes {}", st.nodes);
        let _ = writeln!(s, "expanded {}", st.expanded);
        let _ = writeln!(s, "iteration-nodes {}", st.iteration_start_nodes);
        let sum = fnv1a(s.as_bytes());
        let _ = writeln!(s, "checksum {sum:016x}");
        s
    }

    /// Reads a checkpoint's text: every field in order, then the checksum.
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        let first = text.lines().next().unwrap_or("");
        if first != format!("solver-checkpoint {VERSION}") {
            return Err(CheckpointError::Version(first.chars().take(60).collect()));
        }
        let mut rest = &text[first.len()..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
        let mut fields = Fields {
            text,
            rest,
            consumed: text.len() - rest.len(),
        };
        let board = fields.take("board")?;
        let goal = fields.list("goal")?;
        let start = fields.list("start")?;
        let heuristic = fields.take("heuristic")?;
        let prune_depth = fields.number("prune-depth")?;
        let order = fields.optional("order");
        let initial_h = fields.number("initial-h")?;
        let iteration = fields.number("iteration")?;
        let bound = fields.number("bound")?;
        let next_bound = match fields.take("next-bound")?.as_str() {
            "none" => None,
            v => Some(v.parse().map_err(|_| CheckpointError::Field {
                field: "next-bound",
                why: format!("{v:?} is not a number or `none`"),
            })?),
        };
        let path = fields.list("path")?;
        let nodes = fields.number("nodes")?;
        let expanded = fields.number("expanded")?;
        let iteration_start_nodes = fields.number("iteration-nodes")?;
        let body_len = fields.consumed;
        let stored = fields.take("checksum")?;
        let computed = format!("{:016x}", fnv1a(&text.as_bytes()[..body_len]));
        if stored != computed {
            return Err(CheckpointError::Checksum { stored, computed });
        }
        if !fields.rest.trim().is_empty() {
            return Err(CheckpointError::Field {
                field: "checksum",
                why: "text follows the checksum line".into(),
            });
        }
        match order.as_deref().map(str::trim) {
            Some(ORDER) => {}
            Some("h") => return Err(CheckpointError::MoveOrder("order h")),
            Some("moves") => return Err(CheckpointError::MoveOrder("order moves")),
            None => return Err(CheckpointError::MoveOrder("no order line")),
            Some(v) => {
                return Err(CheckpointError::Field {
                    field: "order",
                    why: format!("{v:?} is not a child order ({ORDER})"),
                })
            }
        }
        let path = path
            .into_iter()
            .map(|x| {
                u8::try_from(x)
                    .ok()
                    .filter(|&s| s < 4)
                    .ok_or(CheckpointError::Field {
                        field: "path",
                        why: format!("{x} is not a move slot (0 to 3)"),
                    })
            })
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Checkpoint {
            board,
            goal: to_u16(goal, "goal")?,
            start: to_u16(start, "start")?,
            heuristic,
            prune_depth,
            state: SearchState {
                initial_h,
                iteration,
                bound,
                next_bound,
                path,
                nodes,
                expanded,
                iteration_start_nodes,
            },
        })
    }

    /// Reads a checkpoint file.
    pub fn read(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|source| CheckpointError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|_| CheckpointError::Field {
            field: "text",
            why: "the file is not UTF-8 text".into(),
        })?;
        Checkpoint::parse(&text)
    }

    /// Writes the file atomically ([`pdbformat::format::write_atomically`]): a killed writer
    /// leaves nothing behind, and the old file stays whole until the new one replaces it.
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        pdbformat::format::write_atomically(path, self.to_text().as_bytes()).map_err(|source| {
            CheckpointError::Io {
                path: path.display().to_string(),
                source,
            }
        })
    }

    /// Whether this checkpoint belongs to the search of `other` (same board, goal, start,
    /// heuristic and pruning depth); the error names the first field that differs.
    pub fn check_same_search(&self, other: &Checkpoint) -> Result<(), CheckpointError> {
        let fields: [(&'static str, String, String); 5] = [
            ("board", self.board.clone(), other.board.clone()),
            ("goal", join(&self.goal), join(&other.goal)),
            ("start position", join(&self.start), join(&other.start)),
            ("heuristic", self.heuristic.clone(), other.heuristic.clone()),
            (
                "prune depth",
                self.prune_depth.to_string(),
                other.prune_depth.to_string(),
            ),
        ];
        for (field, saved, current) in fields {
            if saved != current {
                return Err(CheckpointError::Mismatch {
                    field,
                    saved,
                    current,
                });
            }
        }
        Ok(())
    }

    /// Checks that the state fits its board (as many tiles as cells, the counters in order):
    /// a file that passes the checksum yet holds nonsense is still refused.
    pub fn check_state(&self) -> Result<(), CheckpointError> {
        let cells = self.board.parse::<Board>().map(|b| b.cells()).ok();
        if cells != Some(self.start.len()) || self.goal.len() != self.start.len() {
            return Err(CheckpointError::Field {
                field: "board",
                why: format!("{} does not hold {} tiles", self.board, self.start.len()),
            });
        }
        if self.state.iteration_start_nodes > self.state.nodes {
            return Err(CheckpointError::Field {
                field: "iteration-nodes",
                why: "more than the nodes in all".into(),
            });
        }
        Ok(())
    }
}

/// The remaining lines of a checkpoint, read in order.
struct Fields<'a> {
    text: &'a str,
    rest: &'a str,
    consumed: usize,
}

impl Fields<'_> {
    fn take(&mut self, field: &'static str) -> Result<String, CheckpointError> {
        let Some(end) = self.rest.find('\n') else {
            return Err(CheckpointError::Truncated(field));
        };
        let line = &self.rest[..end];
        self.rest = &self.rest[end + 1..];
        self.consumed = self.text.len() - self.rest.len();
        match line.split_once(' ') {
            Some((k, v)) if k == field => Ok(v.to_string()),
            _ if line == field => Ok(String::new()),
            _ => Err(CheckpointError::Field {
                field,
                why: format!(
                    "expected a line `{field} …`, found {:?}",
                    line.chars().take(40).collect::<String>()
                ),
            }),
        }
    }

    /// The value of the next line if it is the field `field`, else `None` (nothing taken).
    fn optional(&mut self, field: &'static str) -> Option<String> {
        let line = self.rest.split('\n').next().unwrap_or("");
        let present = line.split_once(' ').map_or(line, |(k, _)| k) == field;
        present.then(|| self.take(field).ok()).flatten()
    }

    fn number<T: std::str::FromStr>(&mut self, field: &'static str) -> Result<T, CheckpointError> {
        let v = self.take(field)?;
        v.trim().parse().map_err(|_| CheckpointError::Field {
            field,
            why: format!("{v:?} is not a number"),
        })
    }

    fn list(&mut self, field: &'static str) -> Result<Vec<u64>, CheckpointError> {
        let v = self.take(field)?;
        v.split_whitespace()
            .map(|x| {
                x.parse().map_err(|_| CheckpointError::Field {
                    field,
                    why: format!("{x:?} is not a number"),
                })
            })
            .collect()
    }
}

fn to_u16(v: Vec<u64>, field: &'static str) -> Result<Vec<u16>, CheckpointError> {
    v.into_iter()
        .map(|x| {
            u16::try_from(x).map_err(|_| CheckpointError::Field {
                field,
                why: format!("{x} is not a tile"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            board: "3x3".into(),
            goal: (0..9).collect(),
            start: vec![8, 6, 7, 2, 5, 4, 3, 0, 1],
            heuristic: "manhattan".into(),
            prune_depth: 8,
            state: SearchState {
                initial_h: 21,
                iteration: 3,
                bound: 25,
                next_bound: Some(27),
                path: vec![0, 1, 1, 2],
                nodes: 1000,
                expanded: 400,
                iteration_start_nodes: 300,
            },
        }
    }

    #[test]
    fn text_round_trips() {
        let c = sample();
        assert_eq!(Checkpoint::parse(&c.to_text()).unwrap(), c);
        let mut d = c.clone();
        d.state.next_bound = None;
        d.state.path.clear();
        assert_eq!(Checkpoint::parse(&d.to_text()).unwrap(), d);
    }

    #[test]
    fn every_truncation_is_refused() {
        let text = sample().to_text();
        for cut in 0..text.len() {
            let e = Checkpoint::parse(&text[..cut]);
            assert!(e.is_err(), "a file cut at {cut} bytes was accepted");
        }
    }

    #[test]
    fn a_changed_byte_is_refused_by_the_checksum() {
        let text = sample().to_text();
        let damaged = text.replace("bound 25", "bound 35");
        assert!(matches!(
            Checkpoint::parse(&damaged),
            Err(CheckpointError::Checksum { .. })
        ));
        let damaged = text.replace("solver-checkpoint 1", "solver-checkpoint 2");
        assert!(matches!(
            Checkpoint::parse(&damaged),
            Err(CheckpointError::Version(_))
        ));
    }

    #[test]
    fn another_search_is_named_by_its_field() {
        let a = sample();
        let mut b = a.clone();
        b.heuristic = "linear-conflict".into();
        let e = a.check_same_search(&b).unwrap_err().to_string();
        assert!(e.contains("heuristic"), "{e}");
        let mut b = a.clone();
        b.start.swap(0, 1);
        let e = a.check_same_search(&b).unwrap_err().to_string();
        assert!(e.contains("start position"), "{e}");
    }

    #[test]
    fn files_in_earlier_orders_are_refused_clearly() {
        let text = sample().to_text();
        assert!(text.contains("\norder towards-goal\n"), "{text}");
        // A checksummed file whose body is `body`.
        let sealed = |body: String| format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()));
        let body = |f: &dyn Fn(&str) -> Option<String>| -> String {
            text.lines()
                .filter(|l| !l.starts_with("checksum "))
                .filter_map(f)
                .map(|l| format!("{l}\n"))
                .collect()
        };
        // What files written before the order existed hold: no `order` line.
        let old = sealed(body(&|l| (!l.starts_with("order ")).then(|| l.to_string())));
        let earlier = |o: &str| sealed(body(&|l| Some(l.replace("order towards-goal", o))));
        for file in [old, earlier("order moves"), earlier("order h")] {
            let e = Checkpoint::parse(&file).unwrap_err();
            assert!(matches!(e, CheckpointError::MoveOrder(_)), "{e}");
            assert!(e.to_string().contains("another order"), "{e}");
        }
        let bad = earlier("order sideways");
        assert!(matches!(
            Checkpoint::parse(&bad),
            Err(CheckpointError::Field { field: "order", .. })
        ));
    }
}
