"""How the audit prints numbers: as many decimals as it takes to show what a sentence states.

The rule (``docs/audit.md``, "How numbers are shown"): start at :data:`BASE` decimals and add
one at a time, up to :data:`CAP`, until every pair of values the text compares that differ
are printed differently, and every difference that is not exactly 0 is printed as non-zero.
A number that is still 0 at :data:`CAP` decimals but is not 0 is printed in scientific
notation.  So the audit never says "0.981 vs 0.981" or "by 0.000" about numbers that differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

#: Decimals shown by default.
BASE = 3
#: At most this many decimals; below that, scientific notation.
CAP = 8


def _finite(x: float) -> bool:
    return x is not None and isinstance(x, (int, float)) and math.isfinite(float(x))


def decimals(pairs: Iterable[Sequence[float]] = (), nonzero: Iterable[float] = (), *, base: int = BASE,
             cap: int = CAP) -> int:
    """The fewest decimals (``base`` to ``cap``) that tell every differing pair apart and show every
    non-zero number in ``nonzero`` as non-zero."""
    pairs = [(float(a), float(b)) for a, b in pairs if _finite(a) and _finite(b) and float(a) != float(b)]
    nonzero = [float(x) for x in nonzero if _finite(x) and float(x) != 0.0]
    for d in range(base, cap + 1):
        if all(f"{a:.{d}f}" != f"{b:.{d}f}" for a, b in pairs) and \
                all(float(f"{abs(x):.{d}f}") != 0.0 for x in nonzero):
            return d
    return cap


def fmt(x: float | None, d: int = BASE, *, sign: bool = False) -> str:
    """``x`` with ``d`` decimals (``nan`` for a missing value); a non-zero number that would print as
    zero at ``d`` decimals is shown in scientific notation instead."""
    if x is None or not isinstance(x, (int, float)) or math.isnan(float(x)):
        return "nan"
    x = float(x)
    plus = "+" if sign else ""
    if x != 0.0 and math.isfinite(x) and float(f"{abs(x):.{d}f}") == 0.0:
        return f"{x:{plus}.1e}"
    return f"{x:{plus}.{d}f}"


def compared(*values: float, base: int = BASE) -> list[str]:
    """Values that a sentence compares (``a vs b``), with the decimals that tell them apart."""
    d = decimals([(a, b) for i, a in enumerate(values) for b in values[i + 1:]], base=base)
    return [fmt(v, d) for v in values]


def difference(diff: float, lo: float | None = None, hi: float | None = None, *,
               sign: bool = False) -> tuple[str, str, str]:
    """A stated difference and its interval, with the decimals that show each non-zero one."""
    d = decimals(nonzero=[v for v in (diff, lo, hi) if v is not None])
    return fmt(diff, d, sign=sign), fmt(lo, d), fmt(hi, d)


def column(values: Sequence[float], *, cap: int = 6) -> int:
    """Decimals for a table column: values that differ are printed differently (up to ``cap``)."""
    distinct = sorted({float(v) for v in values if _finite(v)})
    return decimals(list(zip(distinct, distinct[1:], strict=False)), cap=cap)


def count(x: float) -> str:
    """A count as an integer (``1900000``, never ``1.9e+06``); a weighted count that is not whole with
    up to 2 decimals (``123.25``)."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return "nan"
    if math.isnan(x):
        return "nan"
    if x.is_integer():
        return str(int(x))
    return f"{x:.2f}".rstrip("0").rstrip(".")


def percents(*values: float, base: int = 0) -> list[str]:
    """Shares compared in one sentence as percentages (``93.4%`` vs ``93%``), with the decimals that tell
    differing ones apart (at least ``base``)."""
    scaled = [100.0 * float(v) for v in values]
    d = decimals([(a, b) for i, a in enumerate(scaled) for b in scaled[i + 1:]], base=base, cap=4)
    return [f"{fmt(v, d)}%" for v in scaled]


#: Below this a p-value is printed as "< 1e-16": float64's resolution near 1, where a computed p this small is
#: only "smaller than anything the arithmetic can tell from 0" (a normal tail is exact further out, a p of 0 is not).
P_FLOOR = 1e-16


def p_text(p: float, *, digits: int = 2) -> str:
    """A p-value as printed: ``"0.043"``, ``"3.1e-09"``, ``"< 1e-16"`` (never ``"0"``), ``"1"``; a missing one
    ``"not computed"`` (the sentence around it says why)."""
    if p is None or not isinstance(p, (int, float)) or math.isnan(float(p)):
        return "not computed"
    p = float(p)
    if p < P_FLOOR:
        return f"< {P_FLOOR:.0e}"
    return f"{p:.{digits}g}"


def p_eq(p: float) -> str:
    """``"= 0.043"`` or ``"< 1e-16"``: a p-value after its name (:func:`p_text`)."""
    text = p_text(p)
    return text if text.startswith("<") else f"= {text}"
