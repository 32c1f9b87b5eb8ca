"""Builds the native engine's optional C kernels; everything else is in pyproject.toml.

Without a working compiler the install still succeeds: a note is printed and
the pure-Python engine is used.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NOTE = ("cpsudoku: note: the C kernel was not built ({}); the native backend uses its "
        "pure-Python engine")


class OptionalBuildExt(build_ext):
    """A build_ext whose failure is a note, not an error."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler, missing headers: not fatal
            print(NOTE.format(exc), file=sys.stderr)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(NOTE.format(exc), file=sys.stderr)


FLAGS = ["-O3", "-std=c99"] if sys.platform != "win32" else []
SHARED = "cpsudoku/engine/_search.h"  # what the two searches share: the clock, the results
# the variant search's state and probes, and its handlers, one per constraint kind
PASSES = ["cpsudoku/engine/_vstate.h", "cpsudoku/engine/_vadd.h", "cpsudoku/engine/_probe.h",
          *sorted(p.as_posix() for p in Path("cpsudoku/engine/kinds").glob("*.h"))]

setup(
    ext_modules=[
        # all-different models: the classic hot path
        Extension("cpsudoku.engine._kernel", ["cpsudoku/engine/_kernel.c"],
                  depends=[SHARED, "cpsudoku/engine/_lines.h"], extra_compile_args=FLAGS, optional=True),
        # every constraint kind (sums, orders, tables, automata): the variants
        Extension("cpsudoku.engine._vkernel", ["cpsudoku/engine/_vkernel.c"],
                  depends=[SHARED, *PASSES], extra_compile_args=FLAGS, optional=True),
        # the logical solver's chain graph searches (nested forcing chains)
        Extension("cpsudoku.logic._chaincore", ["cpsudoku/logic/_chaincore.c"],
                  depends=["cpsudoku/logic/_chain_graph.h", "cpsudoku/logic/_chain_static.h",
                           "cpsudoku/logic/_chain_plus.h"],
                  extra_compile_args=FLAGS, optional=True),
        # aligned pair and triplet exclusion
        Extension("cpsudoku.logic._aligned", ["cpsudoku/logic/_aligned.c"],
                  extra_compile_args=FLAGS, optional=True),
        # a rule's completions (the rule steps' and the rule links' enumeration)
        Extension("cpsudoku.logic._completions", ["cpsudoku/logic/_completions.c"],
                  extra_compile_args=FLAGS, optional=True),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
