"""A small, safe expression language for relations written as data.

    abs(a - b) >= 5          a + b == 10 or a == 2 * b          not (a % 2 == b % 2)

Integers, the cells' values `a`, `b`, `c` ... (in the order the cells are listed),
`+ - * // %`, `abs`, `min`, `max`, comparisons (chains too: `a < b < c`),
`and`/`or`/`not` and parentheses. Python's own parser reads the text (`ast`), and
only the node types listed here are accepted: anything else (attributes, calls of
other names, `/`, `**`, strings ...) is refused naming it and its column. Nothing is
ever evaluated by Python: the accepted tree is turned into nested closures.

A relation is evaluated once per tuple of values when a rule builds its table, so
the language needs no speed of its own. A division or remainder by zero makes the
expression false for those values.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import ModelError

NAMES = "abcdefgh"  # the cells' values, in the order the cells are listed
MAX_LENGTH = 500

Evaluator = Callable[[Sequence[int]], int | bool]

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_FUNCTIONS: dict[str, Callable] = {"abs": abs, "min": min, "max": max}
_ARITY = {"abs": (1, 1), "min": (2, 8), "max": (2, 8)}
_SPELLED = {ast.Div: "'/' (use '//' for whole-number division)", ast.Pow: "'**'",
            ast.BitAnd: "'&' (use 'and')", ast.BitOr: "'|' (use 'or')", ast.BitXor: "'^'",
            ast.LShift: "'<<'", ast.RShift: "'>>'", ast.MatMult: "'@'", ast.Invert: "'~'",
            ast.Is: "'is'", ast.IsNot: "'is not'", ast.In: "'in'", ast.NotIn: "'not in'"}


class _DivisionByZero(Exception):
    pass


@dataclass(frozen=True)
class Expression:
    """A parsed expression: `holds(values)` says whether the values satisfy it."""

    text: str
    arity: int  # how many values it reads: 1 + the highest name used (b: 2)
    _run: Evaluator = field(compare=False, repr=False)

    def holds(self, values: Sequence[int]) -> bool:
        try:
            return bool(self._run(values))
        except _DivisionByZero:
            return False

    def __call__(self, *values: int) -> bool:
        return self.holds(values)


def parse(text: str, what: str = "expression", most: int = len(NAMES)) -> Expression:
    """The expression in `text`, reading at most `most` values (a, b, ...); a ModelError
    naming `what` and the column of anything the language does not have."""
    if not isinstance(text, str) or not text.strip():
        raise ModelError(f"{what}: an expression must be non-empty text, not {text!r}")
    if len(text) > MAX_LENGTH:
        raise ModelError(f"{what}: expression longer than {MAX_LENGTH} characters")
    source = " ".join(text.split())  # one line: columns count in the text as given
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        column = exc.offset or 1
        raise ModelError(f"{what}: expression {text!r} does not parse at column {column}: "
                         f"{exc.msg}") from None
    used: set[int] = set()
    run = _Compiler(source, what, most, used).compile(tree.body)
    return Expression(text, max(used) + 1 if used else 0, run)


class _Compiler:
    def __init__(self, source: str, what: str, most: int, used: set[int]):
        self.source, self.what, self.most, self.used = source, what, most, used

    def refuse(self, node: ast.AST, message: str, after: ast.AST | None = None) -> ModelError:
        column = getattr(node, "col_offset", 0) + 1
        if after is not None:  # an operator: the first character after its left operand
            end = getattr(after, "end_col_offset", 0) or 0
            column = end + len(self.source[end:]) - len(self.source[end:].lstrip()) + 1
        return ModelError(f"{self.what}: expression {self.source!r}: {message} at column "
                          f"{column}")

    def compile(self, node: ast.AST) -> Evaluator:
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool) or not isinstance(value, int):
                raise self.refuse(node, f"{value!r} is not a whole number")
            return lambda values: value
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.BinOp):
            return self.binary(node)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node)
        if isinstance(node, ast.BoolOp):
            parts = [self.compile(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return lambda values: all(p(values) for p in parts)
            return lambda values: any(p(values) for p in parts)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.refuse(node, f"{_describe(node)} is not part of the language")

    def name(self, node: ast.Name) -> Evaluator:
        index = NAMES.find(node.id) if len(node.id) == 1 else -1
        if not 0 <= index < self.most:
            known = ", ".join(NAMES[:self.most])
            raise self.refuse(node, f"unknown name {node.id!r} (the values are {known})")
        self.used.add(index)
        return lambda values: values[index]

    def binary(self, node: ast.BinOp) -> Evaluator:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.refuse(node, f"operator {_SPELLED.get(type(node.op), '?')} is not part "
                                    f"of the language", after=node.left)
        left, right = self.compile(node.left), self.compile(node.right)
        if isinstance(node.op, (ast.FloorDiv, ast.Mod)):
            def divide(values):
                d = right(values)
                if d == 0:
                    raise _DivisionByZero
                return op(left(values), d)
            return divide
        return lambda values: op(left(values), right(values))

    def unary(self, node: ast.UnaryOp) -> Evaluator:
        inner = self.compile(node.operand)
        if isinstance(node.op, ast.USub):
            return lambda values: -inner(values)
        if isinstance(node.op, ast.UAdd):
            return inner
        if isinstance(node.op, ast.Not):
            return lambda values: not inner(values)
        raise self.refuse(node, f"operator {_SPELLED.get(type(node.op), '?')} is not part of "
                                f"the language")

    def compare(self, node: ast.Compare) -> Evaluator:
        ops = []
        for op, left in zip(node.ops, [node.left, *node.comparators]):
            fn = _COMPARE.get(type(op))
            if fn is None:
                raise self.refuse(node, f"comparison {_SPELLED.get(type(op), '?')} is not "
                                        f"part of the language", after=left)
            ops.append(fn)
        terms = [self.compile(node.left)] + [self.compile(c) for c in node.comparators]

        def chain(values):
            left = terms[0](values)
            for fn, term in zip(ops, terms[1:]):
                right = term(values)
                if not fn(left, right):
                    return False
                left = right
            return True
        return chain

    def call(self, node: ast.Call) -> Evaluator:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _FUNCTIONS:
            raise self.refuse(node, f"only abs, min and max can be called, not "
                                    f"{name or _describe(node.func)}")
        if node.keywords:
            raise self.refuse(node, f"{name} takes no named arguments")
        least, most = _ARITY[name]
        if not least <= len(node.args) <= most:
            wanted = "one value" if most == 1 else f"{least} to {most} values"
            raise self.refuse(node, f"{name} takes {wanted}, not {len(node.args)}")
        args = [self.compile(a) for a in node.args]
        fn = _FUNCTIONS[name]
        if len(args) == 1:
            (only,) = args
            return lambda values: fn(only(values))
        return lambda values: fn(a(values) for a in args)


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        return repr(node.value)
    return {"Attribute": "an attribute ('.')", "Subscript": "indexing ('[]')",
            "Lambda": "lambda", "IfExp": "'if ... else'", "List": "a list",
            "Tuple": "a tuple", "Dict": "a dict", "Set": "a set",
            "NamedExpr": "':='", "JoinedStr": "a string", "Starred": "'*'"}.get(
        type(node).__name__, type(node).__name__)
