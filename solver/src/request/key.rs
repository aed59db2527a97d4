//! The settings a [`super::Request`] names by text: each key with its aliases, and which
//! algorithms take it.

use crate::search::AlgorithmName;

/// A field of a request, as named by text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Algorithm,
    Metric,
    Heuristic,
    Reflect,
    Threads,
    Weight,
    Within,
    DepthLimit,
    HybridNodes,
    Prune,
    MaxNodes,
    Timeout,
    MaxMemory,
}

impl Key {
    /// Every key, in the order of [`Key::NAMES`].
    const ALL: [Key; 13] = [
        Key::Algorithm,
        Key::Metric,
        Key::Heuristic,
        Key::Reflect,
        Key::Threads,
        Key::Weight,
        Key::Within,
        Key::DepthLimit,
        Key::HybridNodes,
        Key::Prune,
        Key::MaxNodes,
        Key::Timeout,
        Key::MaxMemory,
    ];

    /// The canonical names (those of the command-line flags).
    pub(super) const NAMES: [&'static str; 13] = [
        "algorithm",
        "metric",
        "heuristic",
        "reflect",
        "threads",
        "weight",
        "within",
        "depth-limit",
        "hybrid-nodes",
        "prune",
        "max-nodes",
        "timeout",
        "max-memory",
    ];

    /// The canonical name.
    pub(super) fn name(self) -> &'static str {
        Key::NAMES[Key::ALL.iter().position(|&k| k == self).unwrap_or(0)]
    }

    /// The short names also accepted (`solver compare`'s pairs use them).
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Key::Threads => &["t"],
            Key::Weight => &["w"],
            Key::DepthLimit => &["depth"],
            Key::HybridNodes => &["budget"],
            Key::Prune => &["prune-depth"],
            Key::MaxNodes => &["nodes"],
            Key::MaxMemory => &["memory"],
            _ => &[],
        }
    }

    /// The key named `s` (a canonical name or an alias; case and `_` for `-` do not matter).
    pub(super) fn parse(s: &str) -> Option<Key> {
        let s = s.trim().to_ascii_lowercase().replace('_', "-");
        Key::ALL
            .into_iter()
            .find(|k| k.name() == s || k.aliases().contains(&s.as_str()))
    }

    /// Every key with its aliases, for messages: `threads (t), weight (w), …`.
    pub(super) fn listing() -> String {
        let v: Vec<String> = Key::ALL
            .iter()
            .map(|k| match k.aliases() {
                [] => k.name().to_string(),
                a => format!("{} ({})", k.name(), a.join(", ")),
            })
            .collect();
        v.join(", ")
    }

    /// The algorithms that take this setting, in words (`hybrid and parallel-ida`), from
    /// [`Key::taken_by`].
    pub(super) fn takers(self) -> String {
        let names: Vec<&str> = AlgorithmName::ALL
            .into_iter()
            .filter(|&a| self.taken_by(a))
            .map(AlgorithmName::name)
            .collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.concat(),
        }
    }

    /// Whether `algorithm` takes this setting.
    pub(super) fn taken_by(self, algorithm: AlgorithmName) -> bool {
        use AlgorithmName as A;
        match self {
            Key::Threads => matches!(algorithm, A::Hybrid | A::ParallelIda),
            Key::Weight => algorithm == A::Weighted,
            Key::Within => algorithm == A::Anytime,
            Key::DepthLimit => algorithm == A::Dfs,
            Key::HybridNodes => algorithm == A::Hybrid,
            Key::Prune => matches!(algorithm, A::Ida | A::Hybrid | A::ParallelIda),
            _ => true,
        }
    }
}
