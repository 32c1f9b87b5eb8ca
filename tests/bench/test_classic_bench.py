"""The classic end-to-end benchmark's answer checking (its timings are not tested)."""

from __future__ import annotations

from cpsudoku.bench.classic import correct, cpsudoku_answers, hodoku_answers, tdoku_answers

SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
OTHER = SOLUTION[::-1]
EXPECTED = [("p1", SOLUTION, 1), ("p2", OTHER, 2)]


def test_cpsudoku_line_output_reads_as_one_answer_a_puzzle():
    text = (f"{SOLUTION}\n# a:1: unique solution\n{OTHER}\n{SOLUTION}\n"
            f"# a:2: not unique: at least 2 solutions\n")
    answers = cpsudoku_answers(text)
    assert answers == [(1, SOLUTION), (2, OTHER)]
    assert correct(answers, EXPECTED) == 2


def test_peers_outputs_are_checked_the_same_way():
    tdoku = f"p1:1:{SOLUTION}\np2:2:\n"
    assert correct(tdoku_answers(tdoku), EXPECTED) == 2
    hodoku = f"1:{OTHER}\n2:{OTHER}\n"
    assert correct(hodoku_answers(hodoku), EXPECTED) == 1  # a wrong unique solution
