//! Why a [`super::Request`] cannot become a search: [`RequestError`], which names the setting
//! the way its front-end does (a flag, a field of a body, a key of a pair).

use super::key::Key;
use crate::search::AlgorithmName;
use std::fmt;

/// Why a request cannot become a search: an unknown key or name, a value out of range, or a
/// setting the algorithm does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestError {
    /// The key as the request named it (canonical for the checks of typed fields).
    key: String,
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// No such key.
    UnknownKey,
    /// No such algorithm or heuristic.
    UnknownName {
        what: &'static str,
        value: String,
        choices: String,
    },
    /// A value that is not what the key expects.
    Invalid { value: String, expected: String },
    /// A setting the algorithm does not take.
    NotTaken {
        algorithm: AlgorithmName,
        takers: String,
    },
}

impl RequestError {
    /// Whether the request named a setting its algorithm does not take (rather than an
    /// unknown key or name, or a value that cannot be read): a combination of settings that
    /// cannot run, where each one alone could.
    pub fn is_not_taken(&self) -> bool {
        matches!(self.kind, Kind::NotTaken { .. })
    }

    pub(super) fn unknown(key: &str) -> RequestError {
        RequestError {
            key: key.trim().to_string(),
            kind: Kind::UnknownKey,
        }
    }

    pub(super) fn unknown_algorithm(value: &str) -> RequestError {
        let names: Vec<&str> = AlgorithmName::ALL.iter().map(|a| a.name()).collect();
        RequestError {
            key: Key::Algorithm.name().into(),
            kind: Kind::UnknownName {
                what: "algorithm",
                value: value.into(),
                choices: names.join(", "),
            },
        }
    }

    pub(super) fn unknown_heuristic(value: &str) -> RequestError {
        RequestError {
            key: Key::Heuristic.name().into(),
            kind: Kind::UnknownName {
                what: "heuristic",
                value: value.into(),
                choices: "auto, pdb, hamming, manhattan or linear-conflict".into(),
            },
        }
    }

    pub(super) fn invalid(key: &str, value: &str, expected: &str) -> RequestError {
        RequestError {
            key: key.into(),
            kind: Kind::Invalid {
                value: value.trim().into(),
                expected: expected.into(),
            },
        }
    }

    pub(super) fn not_taken(key: Key, algorithm: AlgorithmName) -> RequestError {
        RequestError {
            key: key.name().into(),
            kind: Kind::NotTaken {
                algorithm,
                takers: key.takers(),
            },
        }
    }

    /// The key the error is about (its canonical name when the request gave a known one).
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The message, the setting named by `name` (for example `|k| format!("--{k}")` for a
    /// command line); [`fmt::Display`] names it by its key.
    pub fn describe(&self, name: impl Fn(&str) -> String) -> String {
        match &self.kind {
            Kind::UnknownKey => format!(
                "unknown setting {:?}: the settings are {}",
                self.key,
                Key::listing()
            ),
            Kind::UnknownName {
                what,
                value,
                choices,
            } => format!("unknown {what} {value:?}: use {choices}"),
            Kind::Invalid { value, expected } => {
                format!("{} must be {expected}, not {value}", name(&self.key))
            }
            Kind::NotTaken { algorithm, takers } => {
                format!(
                    "{} is a setting of {takers}, not of {algorithm}",
                    name(&self.key)
                )
            }
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(|k| k.to_string()))
    }
}

impl std::error::Error for RequestError {}
