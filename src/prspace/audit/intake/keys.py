"""The key columns' factorisations, computed once per audit run.

The canonical frame's ``task``, ``model`` and ``fold`` columns are categoricals of text (:func:`category`:
one code a row), its ``row`` column text or integers; several stages of
one audit (:func:`prspace.audit.intake.rows.shared_rows`, :func:`~prspace.audit.intake.rows.own_folds`,
:func:`prspace.audit.inference.audit_blocks.blocks`) factorise the same column of the same frame again, which at
10^6 rows x 3 models costs about half a second each time for the row ids.  Inside :func:`memo` (the
scope of :func:`prspace.audit.audit_result.run_audit`), :func:`factorize` and :func:`any_na` remember their
answer per column; outside it they compute it as pandas does.  The answer is exactly ``pd.factorize``'s
(codes read-only, as they are shared).

A column is known by the memory that holds its values: for a numpy-backed column the address, shape
and strides of its array, kept alive by a reference to the column itself (pandas' copy-on-write then
copies that memory before any change to a frame that shares it, so remembered values cannot go stale);
for an Arrow-backed column its (immutable) Arrow array; for a categorical its codes' memory and its categories.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np
import pandas as pd

_MEMO: dict[tuple, tuple[list[pd.Series], object]] | None = None


@contextlib.contextmanager
def memo() -> Iterator[None]:
    """Remember factorisations until the block ends (nested blocks share the outer memory)."""
    global _MEMO
    outer = _MEMO
    if outer is None:
        _MEMO = {}
    try:
        yield
    finally:
        if outer is None:
            _MEMO = None


def forget() -> None:
    """Drop what the open :func:`memo` block remembers (the codes over every row, the task groups): a stage that
    asks again computes the same answer."""
    if _MEMO is not None:
        _MEMO.clear()


def active() -> bool:
    """Whether a :func:`memo` block is open."""
    return _MEMO is not None


def _identity(col: pd.Series) -> tuple | None:
    values = col.array
    if isinstance(values, pd.Categorical):  # its codes' memory and its categories (kept alive with the column)
        codes = values.codes
        return ("category", codes.__array_interface__["data"][0], codes.shape, id(values.categories))
    pa = getattr(values, "_pa_array", None)
    if pa is not None:
        return ("arrow", id(pa), len(col))
    arr = col.to_numpy(copy=False)
    if not isinstance(arr, np.ndarray):
        return None
    return ("numpy", arr.__array_interface__["data"][0], arr.shape, arr.strides, arr.dtype.str)


def remember(kind: str, cols: list[pd.Series], compute):
    """``compute()``, remembered inside :func:`memo` under ``kind`` and the columns it reads."""
    if _MEMO is None:
        return compute()
    idents = [_identity(c) for c in cols]
    if any(i is None for i in idents):
        return compute()
    key = (kind, *idents)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit[1]
    out = compute()
    _MEMO[key] = (cols, out)  # the columns themselves: their memory stays alive (and unchanged) while remembered
    return out


def narrow(code: np.ndarray, n: int) -> np.ndarray:
    """Codes in ``[-1, n)`` in the smallest signed integer type that holds them (int8 for a few models or
    folds, int32 for row ids): the remembered codes of 3 x 10^6 rows take 3 or 12 MB instead of 24."""
    for t in (np.int8, np.int16, np.int32):
        if n <= np.iinfo(t).max:
            return code.astype(t)
    return code


def factorize(col: pd.Series, *, use_na_sentinel: bool = True) -> tuple[np.ndarray, object]:
    """``pd.factorize(col, use_na_sentinel=...)``, remembered inside :func:`memo`; the codes are the same
    numbers in the smallest signed integer type that holds them (:func:`narrow`): callers widen them to
    int64 before any arithmetic that could exceed it."""

    def compute():
        code, uniques = pd.factorize(col, use_na_sentinel=use_na_sentinel)
        code = narrow(code, len(uniques))
        code.setflags(write=False)
        return code, uniques

    return remember(f"factorize{use_na_sentinel}", [col], compute)


def any_na(col: pd.Series) -> bool:
    """``col.isna().any()``, remembered inside :func:`memo`."""
    return remember("any_na", [col], lambda: bool(col.isna().any()))


def constant_key(value: str, n: int) -> pd.Categorical:
    """A key column holding one text ``value`` in all ``n`` rows (the task of a file without tasks, the model
    of a file of one model), as a categorical: one byte a row instead of a text each."""
    return pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=pd.Index([value], dtype="str"))


#: Rows coded at a time by :func:`category` (its temporaries stay a few MB whatever the number of rows).
CATEGORY_CHUNK = 1 << 18


def category(key: pd.Series) -> pd.Series:
    """A key column (task, model, fold) as a categorical of its sorted distinct values: one small integer code
    a row instead of a text (about 10 bytes) or an object pointer (8) per row.  Its groups come out of a
    ``groupby(sort=True)`` in the order of the values', as they did.  The codes are found a chunk of rows at a
    time (``astype("category")`` holds int64 codes and a hash table of every row: 50-110 MB at 3 x 10^6 rows)."""
    if isinstance(key.dtype, pd.CategoricalDtype):
        if not _all_used(key):  # (pandas finds them with np.unique of every code: 450 MB at 1.8 x 10^7 rows)
            key = key.cat.remove_unused_categories()
        cats = key.cat.categories
        return key if cats.is_monotonic_increasing else key.cat.reorder_categories(cats.sort_values())
    n, step = len(key), CATEGORY_CHUNK
    cats = pd.Index(pd.unique(pd.concat([pd.Series(pd.unique(key.iloc[i:i + step])) for i in range(0, n, step)],
                                        ignore_index=True)))
    cats = cats.sort_values()
    codes = np.empty(n, dtype=narrow(np.zeros(0, np.int64), len(cats)).dtype)
    for i in range(0, n, step):
        codes[i:i + step] = cats.get_indexer(key.iloc[i:i + step])
    return pd.Series(pd.Categorical.from_codes(codes, categories=cats), index=key.index, copy=False)


def _all_used(key: pd.Series) -> bool:
    """Whether every category of the categorical ``key`` occurs in it, its codes counted a chunk at a time."""
    codes, n_cats = key.cat.codes.to_numpy(), len(key.cat.categories)
    seen = np.zeros(n_cats + 1, dtype=np.int64)  # a missing value's code, -1, counted first
    for i in range(0, len(codes), CATEGORY_CHUNK):
        seen += np.bincount(codes[i : i + CATEGORY_CHUNK].astype(np.intp) + 1, minlength=n_cats + 1)
    return bool((seen[1:] > 0).all())
