"""The ISS types read and written by name alone: plain lines, lines with a number,
global rules, clues outside the grid; the composites and the types refused."""

# ISS types that are plain lines of cells, lines with a number first, global rules by
# name and clues at the ends of rows and columns; the writer reads these backwards.
LINE_TYPES = {"ValueIndexing": "value_indexing",
              "Thermo": "thermometers", "Renban": "renban", "Entropic": "entropic_lines",
              "RegionSumLine": "region_sum_lines", "Between": "between_lines",
              "Palindrome": "palindromes", "Zipper": "zipper_lines",
              "DoubleArrow": "double_arrows", "AllDifferent": "extra_regions"}
NUMBERED_TYPES = {"Whisper": ("whispers", "difference"), "Modular": ("modular_lines", "modulus"),
                  "Lockout": ("lockout_lines", "difference"), "SumLine": ("sum_lines", "total")}
RULE_TYPES = {"AntiKnight": "anti-knight", "AntiKing": "anti-king",
              "AntiConsecutive": "non-consecutive", "Windoku": "windoku",
              "DisjointSets": "disjoint-groups", "AntiTaxicab": "anti-taxicab",
              "GlobalEntropy": "global-entropy", "GlobalMod": "global-mod",
              "DutchFlatmates": "dutch-flatmates", "ChaosConstruction": "chaos",
              "Doppelganger": "doppelganger"}  # its extra cells are read first
OUTSIDE_TYPES = {"XSum": "x_sums", "Skyscraper": "skyscrapers",
                 "HiddenSkyscraper": "hidden_skyscrapers",
                 "NumberedRoom": "numbered_rooms", "FullRank": "full_ranks"}

# Composites: `.Or` (the `either` key: each item, or `.And` group, one alternative),
# `.And` (its items together) and `.Replicate` (its items copied onto target cells), each
# closed by `.End`.
COMPOSITES = {"Or": "either", "And": "either", "Replicate": "copies"}

# ISS types with no cpsudoku counterpart, and why (the types ISS knows besides ISS_TYPES).
REFUSED = {
    "Container": "a composite constraint group",
    "ConnectedValues": "connected values",
    "SearchPriority": "a search-order hint",
}
