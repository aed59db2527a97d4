"""Korf's 100 through solve_many, as `solver bench` runs them (one search per instance, the
database mapped, its digests checked beside the searches), for the paired comparison of
BENCHMARKS.md: python python/bench/korf.py DB [THREADS] (from the repository's root)."""

import sys

import pdbtiles

rows = [line.split() for line in open("bench/korf100.txt")]
puzzles = [" ".join(r[:16]) for r in rows if len(r) >= 16 and not r[0].startswith("#")]
db = pdbtiles.Database.open(sys.argv[1])
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 0
solutions = pdbtiles.solve_many(puzzles, db=db, threads=threads)
print(len(solutions), "solved;", sum(s.nodes for s in solutions), "nodes;",
      sum(s.length for s in solutions), "moves")
