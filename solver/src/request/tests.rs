//! The request layer: every key and alias, the checks, the refusals of settings an algorithm
//! does not take, and defaults that apply only where they fit.

use super::*;

fn with(pairs: &[(&str, &str)]) -> Result<Request, RequestError> {
    let mut r = Request::default();
    for (k, v) in pairs {
        r.set(k, v)?;
    }
    Ok(r)
}

#[test]
fn an_empty_request_uses_every_core_with_defaults() {
    let s = Request::default().resolve().unwrap();
    let several = std::thread::available_parallelism().map_or(1, |n| n.get()) > 1;
    if several {
        assert_eq!(s.algorithm, Algorithm::ParallelIda(ParallelIda::default()));
    } else {
        assert_eq!(s.algorithm, Algorithm::Ida(Ida::default()));
    }
    assert_eq!(s.algorithm.name(), AlgorithmName::default_for(None));
    assert_eq!(s.limits, Limits::default());
    assert!(s.wait_verified && s.interrupt.is_none() && s.observer.is_none());
}

#[test]
fn the_threads_choose_the_default_algorithm() {
    let one = with(&[("threads", "1")]).unwrap();
    assert_eq!(one.algorithm_name(), AlgorithmName::Ida);
    assert_eq!(
        one.resolve().unwrap().algorithm,
        Algorithm::Ida(Ida::default())
    );
    let two = with(&[("threads", "2"), ("prune", "off")]).unwrap();
    assert_eq!(
        two.resolve().unwrap().algorithm,
        Algorithm::ParallelIda(ParallelIda {
            threads: 2,
            pruning: Pruning::Off,
        })
    );
    // A named algorithm still refuses threads it does not take, even one.
    let e = with(&[("algorithm", "ida"), ("threads", "1")])
        .unwrap()
        .resolve()
        .unwrap_err();
    assert!(e.to_string().ends_with("not of ida"), "{e}");
    // A caller's thread default (the server's) fills a request naming no algorithm.
    let mut served = Request::default();
    served.fill_from(&Request {
        threads: Some(1),
        ..Request::default()
    });
    assert_eq!(
        served.resolve().unwrap().algorithm.name(),
        AlgorithmName::Ida
    );
    let mut served = Request::default();
    served.fill_from(&Request {
        threads: Some(3),
        ..Request::default()
    });
    assert_eq!(
        served.resolve().unwrap().algorithm.name(),
        AlgorithmName::ParallelIda
    );
}

#[test]
fn keys_aliases_and_values() {
    let r = with(&[
        ("algorithm", "a*+ida*"),
        ("heuristic", "md"),
        ("reflect", "off"),
        ("t", "3"),
        ("budget", "500"),
        ("PRUNE_DEPTH", "8"),
        ("nodes", "1000"),
        ("timeout", "2.5"),
        ("memory", "1.5G"),
    ])
    .unwrap();
    assert_eq!(r.algorithm, Some(AlgorithmName::Hybrid));
    assert_eq!(r.heuristic, Some(HeuristicName::Manhattan));
    assert!(!r.reflect());
    let s = r.resolve().unwrap();
    assert_eq!(
        s.algorithm,
        Algorithm::Hybrid(Hybrid {
            budget: Some(500),
            threads: 3,
            pruning: Pruning::Depth(8),
        })
    );
    assert_eq!(
        s.limits,
        Limits {
            max_nodes: Some(1000),
            timeout: Some(Duration::from_millis(2500)),
            max_memory: Some(3 << 29),
        }
    );
    let w = with(&[("algorithm", "greedy"), ("w", "inf"), ("timeout", "none")]).unwrap();
    let s = w.resolve().unwrap();
    assert_eq!(
        s.algorithm,
        Algorithm::Weighted(Weighted {
            weight: f64::INFINITY
        })
    );
    assert_eq!(s.limits.timeout, None);
    let d = with(&[("algorithm", "dfs"), ("depth", "7")]).unwrap();
    assert_eq!(
        d.resolve().unwrap().algorithm,
        Algorithm::Dfs(Dfs {
            depth_limit: Some(7)
        })
    );
    for (v, p) in [
        ("on", Pruning::BoardDefault),
        ("off", Pruning::Off),
        ("0", Pruning::Off),
        ("24", Pruning::Depth(24)),
    ] {
        assert_eq!(with(&[("prune", v)]).unwrap().prune, Some(p), "{v}");
    }
    assert_eq!(with(&[("heuristic", "auto")]).unwrap().heuristic, None);
}

#[test]
fn bad_values_are_refused_with_the_key_and_what_it_expects() {
    for (k, v, says) in [
        ("weight", "0.5", "weight must be a number of at least 1"),
        ("w", "nan", "weight must be"),
        ("threads", "5000", "threads must be a count of at most 4096"),
        ("threads", "-1", "threads must be"),
        (
            "timeout",
            "0",
            "timeout must be a positive number of seconds, or none, not 0",
        ),
        ("timeout", "-3", "timeout must be"),
        ("timeout", "soon", "timeout must be"),
        ("memory", "lots", "max-memory must be a positive size"),
        ("max-memory", "0", "max-memory must be"),
        (
            "prune",
            "25",
            "prune must be on, off or a word depth from 1 to 24",
        ),
        ("reflect", "maybe", "reflect must be on or off"),
        ("nodes", "many", "max-nodes must be a whole number"),
        (
            "algorithm",
            "warp",
            "unknown algorithm \"warp\": use ida, bfs",
        ),
        (
            "heuristic",
            "magic",
            "unknown heuristic \"magic\": use auto, pdb",
        ),
        (
            "colour",
            "red",
            "unknown setting \"colour\": the settings are algorithm",
        ),
    ] {
        let e = with(&[(k, v)]).unwrap_err();
        assert!(e.to_string().contains(says), "{k}={v}: {e}");
    }
    // A front-end names the setting its own way.
    let e = with(&[("timeout", "0")]).unwrap_err();
    assert_eq!(e.key(), "timeout");
    assert!(e
        .describe(|k| format!("--{k}"))
        .starts_with("--timeout must be"));
}

#[test]
fn typed_fields_are_checked_too() {
    for (r, says) in [
        (
            Request {
                algorithm: Some(AlgorithmName::Weighted),
                weight: Some(0.5),
                ..Request::default()
            },
            "weight must be",
        ),
        (
            Request {
                algorithm: Some(AlgorithmName::ParallelIda),
                threads: Some(100_000),
                ..Request::default()
            },
            "threads must be",
        ),
        (
            Request {
                timeout: Some(0.0),
                ..Request::default()
            },
            "timeout must be",
        ),
        (
            Request {
                timeout: Some(f64::NAN),
                ..Request::default()
            },
            "timeout must be",
        ),
        (
            Request {
                prune: Some(Pruning::Depth(99)),
                ..Request::default()
            },
            "prune must be",
        ),
        (
            Request {
                max_memory: Some(0),
                ..Request::default()
            },
            "max-memory must be",
        ),
    ] {
        let e = r.resolve().unwrap_err();
        assert!(e.to_string().contains(says), "{r:?}: {e}");
    }
    // Beyond what a duration holds: no limit.
    let far = Request {
        timeout: Some(1e300),
        ..Request::default()
    };
    assert_eq!(far.resolve().unwrap().limits.timeout, None);
}

#[test]
fn settings_an_algorithm_does_not_take_are_refused() {
    for (alg, key, value, takers) in [
        ("ida", "weight", "3", "weighted"),
        ("astar", "threads", "2", "hybrid and parallel-ida"),
        ("bfs", "prune", "off", "ida, hybrid and parallel-ida"),
        ("weighted", "depth", "9", "dfs"),
        ("parallel-ida", "budget", "100", "hybrid"),
    ] {
        let r = with(&[("algorithm", alg), (key, value)]).unwrap();
        let e = r.resolve().unwrap_err();
        assert!(
            e.to_string()
                .ends_with(&format!("is a setting of {takers}, not of {alg}")),
            "{alg} {key}: {e}"
        );
    }
    // The limits, the heuristic and the reflection go with every algorithm.
    for alg in AlgorithmName::ALL {
        let r = with(&[
            ("algorithm", alg.name()),
            ("heuristic", "manhattan"),
            ("reflect", "off"),
            ("nodes", "10"),
            ("timeout", "1"),
            ("memory", "1G"),
        ])
        .unwrap();
        assert!(r.resolve().is_ok(), "{alg}");
    }
}

#[test]
fn defaults_fill_only_what_fits() {
    let defaults = Request {
        threads: Some(2),
        weight: Some(3.0),
        prune: Some(Pruning::Depth(10)),
        timeout: Some(30.0),
        max_memory: Some(1 << 30),
        ..Request::default()
    };
    let mut astar = with(&[("algorithm", "astar")]).unwrap();
    astar.fill_from(&defaults);
    assert_eq!(
        (astar.threads, astar.weight, astar.prune),
        (None, None, None)
    );
    assert_eq!(
        (astar.timeout, astar.max_memory),
        (Some(30.0), Some(1 << 30))
    );
    assert!(astar.resolve().is_ok());
    let mut weighted = with(&[("algorithm", "weighted"), ("timeout", "5")]).unwrap();
    weighted.fill_from(&defaults);
    assert_eq!((weighted.weight, weighted.timeout), (Some(3.0), Some(5.0)));
    let mut pida = with(&[("algorithm", "parallel-ida"), ("threads", "4")]).unwrap();
    pida.fill_from(&defaults);
    assert_eq!(
        pida.resolve().unwrap().algorithm,
        Algorithm::ParallelIda(ParallelIda {
            threads: 4,
            pruning: Pruning::Depth(10),
        })
    );
    // Without an algorithm of its own, a request takes the defaults' first.
    let mut plain = Request::default();
    plain.fill_from(&Request {
        algorithm: Some(AlgorithmName::Hybrid),
        ..defaults.clone()
    });
    assert_eq!(plain.threads, Some(2));
}

#[test]
fn sizes_weights_and_names_read_as_people_write_them() {
    let memory = |v: &str| with(&[("max-memory", v)]).map(|r| r.max_memory);
    assert_eq!(memory("512M"), Ok(Some(512 << 20)));
    assert_eq!(memory("1.5G"), Ok(Some(3 << 29)));
    assert_eq!(memory("1000"), Ok(Some(1000)));
    assert_eq!(memory("2 GiB"), Ok(Some(2 << 30)));
    assert!(memory("lots").is_err());
    assert!(memory("-1G").is_err());
    assert!(memory("0").is_err());
    let weight = |v: &str| with(&[("weight", v)]).map(|r| r.weight);
    assert_eq!(weight("inf"), Ok(Some(f64::INFINITY)));
    assert_eq!(weight("1.5"), Ok(Some(1.5)));
    assert!(weight("0.5").is_err());
    assert!(weight("nan").is_err());
    assert!(with(&[("algorithm", "a*")]).is_ok());
    assert!(with(&[("algorithm", "quantum")]).is_err());
}
