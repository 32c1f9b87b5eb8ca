"""Benchmarks: each prints a table, peers side by side where they run here.

    cpsudoku bench (bench.solve)        a backend over the public sets, answers verified
    python -m cpsudoku.bench.classic    classic files end to end, beside tdoku or hodoku-py
    python -m cpsudoku.bench.backends   every backend's overhead and time limits
    python -m cpsudoku.bench.rating     rating agreement with Sudoku Explainer, and speed
    python -m cpsudoku.bench.generate   generation throughput
    python -m cpsudoku.bench.batch      batch throughput, memory and resume
    python -m cpsudoku.bench.play       the play page's requests under load

`bench.datasets` loads the public puzzle sets they measure on.
"""
