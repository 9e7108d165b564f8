"""Writes math_grader_cases.json: what AIPerf 0.13's math grader (aiperf/accuracy/graders/math.py,
in its venv without sympy: the stdlib fallback) and its strip_string return for a table of answer
forms, for math_grader_test.cpp. Run with the reference's venv Python:
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/data/accuracy/gen_math_cases.py \
      > tests/data/accuracy/math_grader_cases.json
"""
import asyncio
import json
from fractions import Fraction

from aiperf.accuracy.graders._math_strip import strip_string
from aiperf.accuracy.graders import math as m

assert not (m._HAS_SYMPY and m._HAS_LATEX2SYMPY), "run in a venv without sympy/latex2sympy2 (the stdlib path)"

# (response, gold)
GRADE = [
    ("The answer is \\boxed{\\frac{1}{2}}.", "\\frac{1}{2}"),
    ("\\boxed{0.5}", "\\frac{1}{2}"),
    ("\\boxed{\\dfrac{1}{2}}", "1/2"),
    ("\\boxed{\\tfrac12}", "\\frac{1}{2}"),
    ("So x = \\boxed{\\frac{3}{4}}", "0.75"),
    ("\\boxed{204}", "204"),
    ("\\boxed{204.}", "204"),
    ("\\boxed{204.000}", "204"),
    ("\\boxed{0204}", "204"),
    ("\\boxed{2.04e2}", "204"),
    ("\\boxed{-3}", "-3"),
    ("\\boxed{- 3}", "-3"),
    ("\\boxed{-\\frac{2}{3}}", "-\\frac{2}{3}"),
    ("\\boxed{\\frac{-2}{3}}", "-\\frac{2}{3}"),
    ("\\boxed{1,000}", "1000"),
    ("\\boxed{1{,}000}", "1000"),
    ("\\boxed{50\\%}", "50"),
    ("\\boxed{50\\%}", "0.5"),
    ("\\boxed{10 \\text{ cm}}", "10"),
    ("\\boxed{10\\text{ inches}}", "10"),
    ("\\boxed{5 mph}", "5"),
    ("\\boxed{90^\\circ}", "90"),
    ("\\boxed{90^{\\circ}}", "90"),
    ("\\boxed{\\$18.90}", "18.9"),
    ("\\boxed{\\$18.90}", "18.90"),
    ("\\boxed{x = 5}", "5"),
    ("\\boxed{k=5}", "5"),
    ("\\boxed{(1, 2)}", "(1,2)"),
    ("\\boxed{[2, 5)}", "[2,5)"),
    ("\\boxed{(-\\infty, 3]}", "(-\\infty,3]"),
    ("\\boxed{(-\\infty,\\infty)}", "\\mathbb{R}"),
    ("\\boxed{\\left( 3, \\frac{\\pi}{2} \\right)}", "\\left( 3, \\frac{\\pi}{2} \\right)"),
    ("\\boxed{\\sqrt2}", "\\sqrt{2}"),
    ("\\boxed{2\\sqrt{3}}", "2 \\sqrt{3}"),
    ("\\boxed{\\sqrt{2}}", "2^{1/2}"),
    ("\\boxed{3+2i}", "3+2j"),
    ("\\boxed{\\text{(C)}}", "\\text{(C)}"),
    ("\\boxed{C}", "(C)"),
    ("\\boxed{\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}}", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"),
    ("\\boxed{\\frac{1}{0}}", "1/0"),
    ("\\boxed{}", "0"),
    ("\\boxed{\\frac{1}{2}", "1/2"),
    ("no box: the answer is 42.", "42"),
    ("The final answer is 3.14", "3.14"),
    ("Final Answer: \\frac{7}{8}. Done", "7/8"),
    ("answer = 12 apples\nthanks", "12"),
    ("the answer is 5. Wait, actually the answer is 12", "12"),
    ("the answer is \\boxed{9}", "9"),
    ("Answer: seven", "7"),
    ("I get 3 then 17", "17"),
    ("I get 1/3", "\\frac{1}{3}"),
    ("nothing numeric here", "nothing numeric here"),
    ("", "5"),
    ("   ", "5"),
    ("\\boxed{January 5}", "5"),
    ("\\boxed{.5}", "0.5"),
    ("\\boxed{1\\frac12}", "1\\frac{1}{2}"),
    ("\\boxed{\\emptyset}", "\\{\\}"),
    ("\\boxed{x \\in [0, 1]}", "[0,1]"),
    ("\\boxed{3 \\text{ and } 4}", "3, 4"),
    ("\\boxed{\\mbox{yes}5}", "5"),
    ("\\boxed{1_000}", "1000"),
    ("\\boxed{1.5e3}", "1500"),
    ("\\boxed{1.dE3}", "1.dE3"),
    ("\\boxed{12345678901234567890123/3}", "4115226300411522630041"),
    ("\\boxed{π r 2}", "π r 2"),
    ("\\boxed{5\n  }", "5"),
    ("\\boxed{:5/}", "5"),
    ("\\boxed{A}", "A"),
    ("\\boxed{a}", "A"),
    ("\\boxed{\\infty}", "infinity"),
    ("\\boxed{inf}", "\\infty"),
    ("\\boxed{2 \\le x \\leq 5}", "2\\le x\\le5"),
    ("\\boxed{\\neq}", "\\ne"),
    ("\\boxed{5 \\text{ dollars}}", "5"),
    ("\\boxed{10^{10}}", "10^{10}"),
    ("\\boxed{\\frac{\\sqrt{3}}{2}}", "\\frac{\\sqrt3}{2}"),
    ("\\boxed{3/\\sqrt{2}}", "\\frac{3}{\\sqrt{2}}"),
    ("\\boxed{25\\%}", "25"),
    ("\\boxed{t}", "t"),
    ("\\boxed{Surface}", "Surface"),
    ("\\boxed{é}", "é"),
    # Past CPython's 4300-digit int() limit Fraction() raises: the strings are compared.
    ("\\boxed{" + "1" * 4301 + "}", "1" * 4301),
    ("\\boxed{" + "0" * 4301 + "1}", "1"),
    ("\\boxed{" + "0" * 4299 + "1}", "1"),
]
STRIP = [
    "\\frac12", "\\fracab", "\\frac1{2}", "\\frac{1}2", "\\fracπ2", "\\frac1", "3/4", "03/-04", "a/b", "1/2/3",
    "x=3", "abc=3", "10.000 m", "1.50", "100.0.", "{.5}", "\\text{hello}", "\\text{a} + \\text{b}",
    "5 \\text{ m}", "\\left[1,2\\right]", "\\begin{array}{cc} 1 \\end{array}", "\\bmatrix", "2 \\cdot 3",
    "$5$", "\\$5", "\\(5\\)", "30^\\circ", "90 degrees", "15 percent", "the day", "a . m", "7 m east",
    "1" * 4301 + "/2", "1" * 4300 + "/2", "\\sqrt3x", "ja", "j", "infinite", "+\\inity", "March 3, 2024", "\\!5", "12 \u00a0cm", "",
]
NORMALIZE = ["$5$", "\\dfrac{1}{2}", "\\frac{a+b}{c}", "\\text{yes}.", " 1 , 2 ", "\\left(1\\right)", "\\mathbf{v}",
             "x!?", "\\frac{\\frac{1}{2}}{3}"]
FRACTION = ["1/2", "0.5", "5e-1", "-0", "+3", "1_000", "1__0", "1.", ".5", "1.d", "1.D", "1/0", "0/5", " 7 ", "1e", "e5",
            "1.5E+2", "3/-4", "abc", "", "1.2.3", "9" * 4300, "1" * 4301 + "/3", "0" * 4301, "1." + "1" * 4301,
            "1e" + "1" * 4301]


def fraction_of(s):
    try:
        f = Fraction(s)
        return [f.numerator, f.denominator]
    except (ValueError, ZeroDivisionError):
        return None


out = {"grade": [], "strip": [], "normalize": [], "fraction": []}
g = m.MathGrader(run=None)
for resp, gold in GRADE:
    r = asyncio.run(g.grade(resp, gold))
    out["grade"].append({"response": resp, "gold": gold, "correct": r.correct, "unparsed": r.unparsed,
                         "extracted": r.extracted_answer, "ground_truth": r.ground_truth, "reasoning": r.reasoning})
for s in STRIP:
    out["strip"].append({"in": s, "out": strip_string(s)})
for s in NORMALIZE:
    out["normalize"].append({"in": s, "out": m._stdlib_normalize(s)})
for s in FRACTION:
    f = fraction_of(s)
    out["fraction"].append({"in": s, "value": None if f is None else f"{f[0]}/{f[1]}"})
print(json.dumps(out, ensure_ascii=False, indent=0))
