"""python -m cpsudoku.bench: see cpsudoku.bench.main."""

import sys

from . import main

sys.exit(main())
