"""Database.heuristic's throughput on one million random 15-puzzle states, with and without
the symmetric lookups: python python/bench/heuristic.py DB [map|huge-pages]. Prints states per
second of wall time and of the calling thread's processor time (the lookups run on it)."""

import sys
import time

import numpy as np

import pdbtiles

db = pdbtiles.Database.open(sys.argv[1], load=sys.argv[2] if len(sys.argv) > 2 else "huge-pages")
rng = np.random.default_rng(1)
states = rng.permuted(np.tile(np.arange(16, dtype=np.uint8), (1_000_000, 1)), axis=1)
db.heuristic(states[:1000])  # waits for the digest check
for reflect in (True, False):
    for _ in range(5):
        wall, cpu = time.perf_counter(), time.thread_time()
        values = db.heuristic(states, reflect=reflect)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        print(f"reflect={reflect}: {len(states) / wall / 1e6:.2f} M states/s wall, "
              f"{len(states) / cpu / 1e6:.2f} M states/s cpu, mean {values.mean():.3f}")
