"""The native engine: bitmask candidates, propagation and search, in Python and C.

- `plan`: turns a Model into flat lookup tables (peers, units, propagators).
- `fast`: the hot path for models made only of all-different groups (classic
  grids of every size, jigsaw, diagonals): no trace, no per-node overhead.
- `kernel`: the same hot path compiled (`_kernel.c`, optional C extension),
  used when it is built.
- `vkernel`: every constraint kind compiled (`_vkernel.c`, optional C
  extension): the search of models with sums, orderings, tables and automata.
- `subsets`: what pays on big grids: naked/hidden pairs, dual branching
  (cells and unit-value places), failed-literal probing.
- `general`: every constraint kind (sum, less, allowed, regular) and the trace.
- `automaton`: the regular constraint's forward-backward propagator.

Candidates of a cell are a bitmask: bit v-1 stands for value v.
"""
