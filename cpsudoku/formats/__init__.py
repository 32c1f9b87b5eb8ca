"""Text in and out: files and standard input, the one reader for every notation (grids,
CSV and JSON lists, the cpsudoku puzzle file, f-puzzles), and the writers of grids and
results."""
