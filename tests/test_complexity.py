"""No function of the package is ranked worse than C by radon's cyclomatic complexity, and no module
is over 500 lines, outside the exception lists below (issue 61, deliver 4).

Radon (pinned in constraints.txt, in the ``test`` extra) ranks a function by its cyclomatic
complexity: A 1-5, B 6-10, C 11-20, D 21-30, E 31-40, F 41 and more. A function of rank D or worse
is split into named parts, or it stands on :data:`CC_EXCEPTIONS` with the reason a split would make
it worse. The lists are empty: every function is rank C or better and every module within the
limit. An entry that no longer names a function of rank D or worse fails the test too, so the list cannot go stale.
The 400-line rule of tests/test_layout.py stays: a module over 400 lines says why in its docstring.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank
from radon.visitors import ComplexityVisitor

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "src" / "prspace"
#: the worst rank a function may have outside CC_EXCEPTIONS
WORST_RANK = "C"
#: the most lines a module may have outside LINE_EXCEPTIONS
MAX_MODULE_LINES = 500

#: ``"path/under/prspace.py:Function"`` -> why it stays above rank C.
CC_EXCEPTIONS: dict[str, str] = {
}

#: ``"path/under/prspace.py"`` -> why it stays over MAX_MODULE_LINES.
LINE_EXCEPTIONS: dict[str, str] = {
}


def _modules() -> dict[str, Path]:
    return {p.relative_to(PKG).as_posix(): p for p in sorted(PKG.rglob("*.py"))}


def _ranked_above(worst: str = WORST_RANK) -> dict[str, tuple[str, int]]:
    """``{"module.py:Function": (rank, complexity)}`` of every function, method and class ranked
    worse than *worst*, as ``radon cc -s -n D src/prspace`` lists them."""
    out = {}
    for name, path in _modules().items():
        visitor = ComplexityVisitor.from_code(path.read_text(encoding="utf-8"))
        for block in visitor.blocks:
            rank = cc_rank(block.complexity)
            if rank > worst:
                out[f"{name}:{block.fullname}"] = (rank, block.complexity)
    return out


def test_the_ranking_finds_a_planted_complex_function():
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(25))
    visitor = ComplexityVisitor.from_code(f"def f(x):\n{branches}    return -1\n")
    (block,) = visitor.functions
    assert block.complexity == 26 and cc_rank(block.complexity) == "D"  # 25 branches + 1


def test_no_function_above_rank_c_outside_the_exceptions():
    above = _ranked_above()
    new = {k: v for k, v in above.items() if k not in CC_EXCEPTIONS}
    assert not new, f"split these functions (rank worse than {WORST_RANK}), or list them with a reason: {new}"


def test_every_complexity_exception_is_still_needed():
    above = _ranked_above()
    stale = sorted(set(CC_EXCEPTIONS) - set(above))
    assert not stale, f"no longer worse than rank {WORST_RANK} (or gone): remove from CC_EXCEPTIONS: {stale}"
    assert all(reason.strip() for reason in CC_EXCEPTIONS.values())


def test_no_module_over_500_lines_outside_the_exceptions():
    lines = {n: len(p.read_text(encoding="utf-8").splitlines()) for n, p in _modules().items()}
    long = {n: k for n, k in lines.items() if k > MAX_MODULE_LINES and n not in LINE_EXCEPTIONS}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"
    stale = sorted(n for n in LINE_EXCEPTIONS if lines.get(n, 0) <= MAX_MODULE_LINES)
    assert not stale, f"no longer over {MAX_MODULE_LINES} lines (or gone): remove from LINE_EXCEPTIONS: {stale}"
