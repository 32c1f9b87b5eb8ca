"""python -m cpsudoku.bench: the same as `cpsudoku bench` (same options)."""

import sys

from ..cli import main

sys.argv[1:1] = ["bench"]
main()
