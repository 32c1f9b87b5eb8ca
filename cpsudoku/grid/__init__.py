"""What a puzzle is: symbols, geometry (units and regions), the constraint vocabulary,
the Puzzle itself, and the checker that is independent of every solver."""
