//! `solver compare`'s pairs, `ALGORITHM[:HEURISTIC][:KEY=VALUE...]`, each read into a request
//! of its own (the keys are [`Request::set`]'s), and the pairs run on a board by default.

use pdbformat::Board;
use pdbsolver::{AlgorithmName, HeuristicName, Request};

/// One algorithm × heuristic pair with its own settings.
#[derive(Clone, Debug)]
pub struct Pair {
    /// The pair's algorithm, heuristic and settings, as its keys give them.
    pub request: Request,
    /// The pair as written.
    pub label: String,
}

impl Pair {
    /// The pair's algorithm.
    pub fn algorithm(&self) -> AlgorithmName {
        self.request.algorithm_name()
    }

    /// The pair's heuristic (`None`: the algorithm takes none).
    pub fn heuristic(&self) -> Option<HeuristicName> {
        self.request.heuristic
    }
}

/// Parses `ALGORITHM[:HEURISTIC][:KEY=VALUE...]`: the heuristic is named for every algorithm
/// that takes one (and for no other), and the keys are settings the algorithm takes; a
/// timeout of 0 is no limit, as for `--timeout`.
pub fn parse_pair(s: &str) -> Result<Pair, String> {
    let s = s.trim();
    let in_pair = |e: pdbsolver::RequestError| format!("{s:?}: {e}");
    let mut parts = s.split(':').map(str::trim);
    let mut request = Request::default();
    request
        .set("algorithm", parts.next().unwrap_or(""))
        .map_err(in_pair)?;
    let algorithm = request.algorithm_name();
    for part in parts {
        let Some((k, v)) = part.split_once('=') else {
            if request.heuristic.is_some() {
                return Err(format!("{s:?}: a second heuristic {part:?}"));
            }
            if !algorithm.uses_heuristic() {
                if matches!(part, "" | "-" | "none") {
                    continue;
                }
                return Err(format!("{s:?}: {algorithm} takes no heuristic"));
            }
            request.set("heuristic", part).map_err(in_pair)?;
            continue;
        };
        let no_limit = k.trim().eq_ignore_ascii_case("timeout") && v.trim().parse() == Ok(0.0);
        let v = if no_limit { "none" } else { v };
        request.set(k, v).map_err(in_pair)?;
    }
    if algorithm.uses_heuristic() && request.heuristic.is_none() {
        return Err(format!(
            "{s:?}: name a heuristic, e.g. {algorithm}:manhattan or {algorithm}:pdb"
        ));
    }
    // A setting the algorithm does not take is refused now, before any puzzle.
    request.resolve().map_err(in_pair)?;
    Ok(Pair {
        request,
        label: s.to_string(),
    })
}

/// The pairs run without `--pairs`, by board size.
pub fn default_pairs(board: Board, pdb: bool) -> Vec<Pair> {
    let n = board.cells();
    let mut v: Vec<String> = Vec::new();
    let mut add = |items: &[&str]| v.extend(items.iter().map(|s| s.to_string()));
    if n <= 9 {
        add(&["bfs", "ida:manhattan", "ida:linear-conflict"]);
        if pdb {
            add(&["ida:pdb", "astar:pdb"]);
        }
        add(&[
            "astar:manhattan",
            "astar:linear-conflict",
            "hybrid:manhattan:budget=1000",
            "parallel-ida:manhattan",
            "dfs:manhattan",
            "weighted:manhattan:w=2",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else if n <= 12 {
        if pdb {
            add(&["ida:pdb"]);
        }
        add(&[
            "ida:manhattan",
            "ida:linear-conflict",
            "astar:manhattan",
            "astar:linear-conflict",
            "hybrid:linear-conflict:budget=10000",
            "parallel-ida:linear-conflict",
            "dfs:linear-conflict",
            "weighted:linear-conflict:w=2",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else if n <= 16 {
        let h = if pdb { "pdb" } else { "linear-conflict" };
        // A budget small enough that hybrid's IDA* phase runs on most 15-puzzles.
        for a in ["ida", "astar", "hybrid:", "parallel-ida", "dfs", "weighted"] {
            match a.strip_suffix(':') {
                Some(a) => add(&[&format!("{a}:{h}:budget=10000")]),
                None => add(&[&format!("{a}:{h}")]),
            }
        }
        add(&["ida:manhattan", "weighted:manhattan:w=inf", "strategic"]);
    } else if n <= 64 {
        if n > 25 {
            // Beyond 5x5 optimal search is out of reach: the board's default, anytime, first.
            add(&[if pdb {
                "anytime:pdb"
            } else {
                "anytime:linear-conflict"
            }]);
        } else if pdb {
            add(&["ida:pdb"]);
        }
        add(&[
            "weighted:linear-conflict:w=3",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else {
        add(&["strategic"]);
    }
    v.iter()
        .map(|s| parse_pair(s).expect("default pairs parse"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_parse() {
        let p = parse_pair("parallel-ida:pdb:threads=2").unwrap();
        assert_eq!(p.algorithm(), AlgorithmName::ParallelIda);
        assert_eq!(p.heuristic(), Some(HeuristicName::Pdb));
        assert_eq!(p.request.threads, Some(2));
        let p = parse_pair("weighted:md:w=inf:memory=1G").unwrap();
        assert_eq!(p.request.weight, Some(f64::INFINITY));
        assert_eq!(p.request.max_memory, Some(1 << 30));
        assert!(parse_pair("bfs").is_ok());
        assert!(parse_pair("strategic:-").is_ok());
        assert!(parse_pair("bfs:manhattan").is_err());
        assert!(parse_pair("astar").is_err());
        assert!(parse_pair("astar:magic").is_err());
        assert!(parse_pair("astar:md:colour=red").is_err());
        assert!(parse_pair("warp:md").is_err());
        for (w, h) in [(3, 3), (2, 4), (3, 4), (4, 4), (5, 5), (9, 9)] {
            let b = Board::new(w, h).unwrap();
            assert!(!default_pairs(b, true).is_empty());
            assert!(!default_pairs(b, false).is_empty());
        }
    }
}
