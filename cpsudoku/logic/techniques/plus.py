"""Dynamic forcing chains "plus" (9.0): SE's first level of nested chains.

The dynamic chains of `forcing`, but when the singles of an assumption run out, the
grid it leaves is searched for locked candidates, then hidden pairs, naked pairs and
X-wings (the first of these that applies, `plusrules`); what they remove joins the
chain, with the struck-out candidates that made them apply as its reasons. Tried
only when every other technique fails (classic puzzles rated 9.0 and up); on other
layouts the rules read every house, and the propagation follows the variant rules'
links as the dynamic chains do.
"""

from __future__ import annotations

from ..state import State
from ..technique import technique
from .forcing import ForcingSearch


@technique("Dynamic Forcing Chains (+)", 9.0, stage="dynamic plus", deep=True)
def dynamic_forcing_chains_plus(state: State):
    yield from ForcingSearch(state, 9.0, True, True, True, False, "Dynamic ", suffix=" (+)",
                             plus=True).steps()
