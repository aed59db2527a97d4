//! The circle budget: inside a crate, no file imports from another that imports, directly or
//! through others, from it. A circle makes two files one concept in two places: neither can
//! be read, tested or moved without the other.
//!
//! A file *imports from* another when a name it uses (by a `use` that is not a re-export, or
//! a path in its code: `crate::…`, `super::…`, a child module) is defined in the other
//! ([`modules`] resolves it, following re-exports to the file that defines the name). A
//! module's `mod` lines and its re-exports (`pub use`, `pub(crate) use`) are its façade, not
//! imports, and what a module takes from its own submodules is what it is made of, not an
//! import (a folder's `mod.rs` calling its parts, whose parts use the types it defines, is
//! the usual shape); test code (`#[cfg(test)]` items, test files) and imports made only for the
//! documentation (`#[cfg(doc)]`) do not count.
//!
//! Every crate of every package is read: `src/lib.rs`, `src/main.rs` and `src/bin/*.rs` of any
//! folder holding a tracked `Cargo.toml`. A circle is named once, as the files it runs through
//! and, for each step, the line of the import.

mod lexer;
pub mod modules;

use super::{read_text, size::is_test_file, Offence};
use anyhow::Result;
use modules::Crate;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The offences against the circle budget among `files` (tracked, relative to `root`), one per
/// circle, sorted by path.
pub fn check(root: &Path, files: &[String]) -> Result<Vec<Offence>> {
    let tracked: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut offences = Vec::new();
    for crate_root in crate_roots(files) {
        let src = crate_root[..crate_root.rfind("/src/").map_or(0, |i| i + 5)].to_owned();
        let read = |path: &str| -> Option<String> {
            if !tracked.contains(path) {
                return None;
            }
            let text = read_text(root, path).ok().flatten()?;
            let rel = path.strip_prefix(src.as_str()).unwrap_or(path);
            (!is_test_file(rel, &text)).then_some(text)
        };
        let krate = Crate::read(&crate_root, &read);
        offences.extend(circles(&krate));
    }
    offences.sort_by(|a, b| a.path.cmp(&b.path));
    offences.dedup();
    Ok(offences)
}

/// The crate roots among `files`: each package's `src/lib.rs`, `src/main.rs` and
/// `src/bin/*.rs`.
fn crate_roots(files: &[String]) -> Vec<String> {
    let packages: Vec<String> = files
        .iter()
        .filter_map(|f| match f.as_str() {
            "Cargo.toml" => Some(String::new()),
            _ => f.strip_suffix("/Cargo.toml").map(|d| format!("{d}/")),
        })
        .collect();
    files
        .iter()
        .filter(|f| {
            packages.iter().any(|p| {
                f.strip_prefix(p.as_str()).is_some_and(|rel| {
                    rel == "src/lib.rs"
                        || rel == "src/main.rs"
                        || rel
                            .strip_prefix("src/bin/")
                            .is_some_and(|b| b.ends_with(".rs") && !b.contains('/'))
                })
            })
        })
        .cloned()
        .collect()
}

/// Each circle of `krate`'s import graph as an offence.
fn circles(krate: &Crate) -> Vec<Offence> {
    // file -> file it imports from -> the first line of such an import.
    let mut edges: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for n in &krate.named {
        let (Some(from), Some(to)) = (krate.file_of(&n.module), krate.resolve(&n.module, &n.path))
        else {
            continue;
        };
        if from != to && !krate.is_descendant_file(&n.module, &to) {
            let line = edges.entry(from.to_owned()).or_default();
            line.entry(to).or_insert(n.line);
        }
    }
    let mut out = Vec::new();
    for component in strongly_connected(&edges) {
        let first = component.iter().next().cloned().unwrap_or_default();
        let cycle = cycle_through(&edges, &component, &first);
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{}:{} -> {}", w[0], edges[&w[0]][&w[1]], w[1]))
            .collect();
        let others = match component.len() {
            n if n > cycle.len() - 1 => format!(" (one of the circles among {n} files)"),
            _ => String::new(),
        };
        out.push(Offence {
            path: first,
            what: format!("import circle{others}: {}", steps.join(", ")),
        });
    }
    out
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn strongly_connected(edges: &BTreeMap<String, BTreeMap<String, usize>>) -> Vec<BTreeSet<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeMap<String, usize>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(next) = s.edges.get(v) {
            for w in next.keys() {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    visit(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.insert(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// A shortest cycle from `start` back to it inside `component` (breadth-first), as the files
/// it runs through, `start` at both ends.
fn cycle_through(
    edges: &BTreeMap<String, BTreeMap<String, usize>>,
    component: &BTreeSet<String>,
    start: &str,
) -> Vec<String> {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_owned()]);
    while let Some(v) = queue.pop_front() {
        for w in edges.get(&v).into_iter().flat_map(|e| e.keys()) {
            if !component.contains(w) {
                continue;
            }
            if w == start {
                let mut cycle = vec![start.to_owned(), v.clone()];
                let mut at = v.clone();
                while let Some(p) = parent.get(&at) {
                    cycle.push(p.clone());
                    at = p.clone();
                }
                cycle.reverse();
                return cycle;
            }
            if w != start && !parent.contains_key(w) {
                parent.insert(w.clone(), v.clone());
                queue.push_back(w.clone());
            }
        }
    }
    vec![start.to_owned()]
}
