"""Declarative rule models, installed as the package `cpsudoku.models`.

Each *.toml file here is one global rule written as data (see
`cpsudoku/rules/patterns.py` for the format); the rule registry reads them all.
"""
