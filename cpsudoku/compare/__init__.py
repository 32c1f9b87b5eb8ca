"""Comparing backends: every puzzle run on every chosen backend, the answers judged against
each other, summarised, shown as tables and a plot, and kept in CSV/JSON files."""

from .files import CSV_FIELDS, RowFiles, as_dict, kept_rows, settings_of, write_csv, write_json
from .report import (
                     PRESOLVE_SUFFIX,
                     Compared,
                     Disagreement,
                     Report,
                     Row,
                     Summary,
                     judge,
                     run_names,
                     summarise,
)
from .run import COMPARED, CompareTask, compare_puzzle, run_compare
from .show import plot, print_report, require_plotting, rows_table, summary_table

__all__ = [
    "COMPARED", "CSV_FIELDS", "PRESOLVE_SUFFIX", "CompareTask", "Compared", "Disagreement",
    "Report", "Row", "RowFiles", "Summary", "as_dict", "compare_puzzle", "judge", "kept_rows",
    "plot", "print_report", "require_plotting", "rows_table", "run_compare", "run_names",
    "settings_of", "summarise", "summary_table", "write_csv", "write_json",
]
