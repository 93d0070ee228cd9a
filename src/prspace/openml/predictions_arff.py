"""Fast parsing of OpenML run predictions files (ARFF).

liac-arff, which the ``openml`` client uses, parses row by row in Python (about
2 MB/s; scikit-learn PR #11419).  Here the header is parsed by hand and the
``@DATA`` section goes through pandas' C parser, reading only the columns we
need.  Handled, because real OpenML runs produce them:

* class names with spaces, quotes and dots (``confidence.'a b'``, ``confidence.x.y``),
  quoted with ``'`` (Weka) or ``"``, with backslash escapes;
* ``confidence.<class>`` columns in any order; numbers written as ``1.0E-4``,
  ``1``, ``0.25``; ``?`` for missing values (read as NaN);
* no ``correct`` column (then :attr:`ArffPredictions.correct` is ``None``);
* any number of repeats (the caller picks which to keep).

Sparse ARFF is not used for predictions and is rejected with a clear error.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import warnings

import numpy as np
import pandas as pd

from prspace.data.arff import _DATA_RE, ArffError, Attribute, parse_arff_header

__all__ = ["ArffError", "ArffPredictions", "parse_arff_header", "parse_predictions_arff"]  # the first and third: re-exported

#: the header parser and the one reader of quoted fields are :mod:`prspace.data.arff`'s


@dataclasses.dataclass
class ArffPredictions:
    """The columns of a predictions file that matter, as numpy arrays (one entry per data row)."""

    repeat: np.ndarray  # float64 (NaN where missing; the caller checks integrality)
    fold: np.ndarray  # float64
    row_id: np.ndarray  # float64
    confidence: dict[str, np.ndarray]  # class name -> float64 scores, header order
    correct: np.ndarray | None  # object array of true labels, or None if the file has none
    class_values: tuple[str, ...]  # nominal values of `correct` / `prediction` if declared

    def __len__(self) -> int:
        return len(self.row_id)


def _quotechar(data: bytes) -> str:
    """The quote character the writer used: the first quote that opens a field."""
    m = re.search(rb"(?:^|,)[ \t]*(['\"])", data[: 1 << 16], re.MULTILINE)
    return m.group(1).decode() if m else '"'


def _read(data: memoryview, n_cols: int, dtypes: dict[int, object], q: str) -> pd.DataFrame:
    """The @DATA section with pandas' C parser; column ``n_cols`` is a spare that stays empty."""
    return pd.read_csv(
        io.BytesIO(data),
        header=None,
        index_col=False,  # extra fields are an error, never a silent index
        names=list(range(n_cols + 1)),  # one spare column catches rows with extra fields
        dtype=dtypes,
        engine="c",
        sep=",",
        quotechar=q,
        escapechar="\\",
        skipinitialspace=True,
        na_values=["?"],
        keep_default_na=False,
        skip_blank_lines=True,
        comment="%",  # full-line comments occur after @DATA (sklearn runs); quoted % is kept
        on_bad_lines="error",
        low_memory=False,
        encoding="utf-8",
        encoding_errors="replace",
    )


def _bytes_of(source: str | os.PathLike[str] | bytes) -> bytes:
    """The file's bytes (a path, or the bytes themselves), without a UTF-8 byte order mark."""
    if isinstance(source, bytes | bytearray | memoryview):
        blob = bytes(source)
    else:
        with open(source, "rb") as fh:
            blob = fh.read()
    if blob.startswith(b"\xef\xbb\xbf"):
        blob = blob[3:]
    return blob


def _columns(attrs: list[Attribute]) -> tuple[dict[str, int], list[tuple[int, str]], int | None, int | None]:
    """``(index of repeat/fold/row_id, [(index, class)] of the confidence columns, index of correct,
    index of prediction)``; raises :class:`ArffError` when a needed column is missing."""
    names = [a.name for a in attrs]
    lower = [n.lower() for n in names]
    idx: dict[str, int] = {}
    for role in ("repeat", "fold", "row_id"):
        if role not in lower:
            raise ArffError(f"no {role!r} column; columns are {names}")
        idx[role] = lower.index(role)
    conf = [(i, n[len("confidence.") :]) for i, n in enumerate(names) if n.lower().startswith("confidence.")]
    if not conf:
        raise ArffError(f"no confidence.<class> columns; columns are {names}")
    correct_i = lower.index("correct") if "correct" in lower else None
    pred_i = lower.index("prediction") if "prediction" in lower else None
    return idx, conf, correct_i, pred_i


def _check_field_counts(df: pd.DataFrame, n_attrs: int) -> None:
    """Raise :class:`ArffError` for a data row with more or fewer fields than the header's attributes
    (read with one spare column; the last attribute read as text)."""
    spare = df[n_attrs]
    extra = (spare.notna() & (spare.astype(str) != "")).to_numpy()
    if extra.any():
        raise ArffError(
            f"cannot read the @DATA section: data row {int(np.flatnonzero(extra)[0]) + 1} has more "
            f"fields than the {n_attrs} attributes in the header"
        )
    tail = df[n_attrs - 1]
    short = tail.notna() & (tail.astype(str) == "")  # '?' is NaN; an absent field is ""
    if short.any():
        raise ArffError(
            f"cannot read the @DATA section: data row {int(np.flatnonzero(short.to_numpy())[0]) + 1} "
            f"has fewer fields than the {n_attrs} attributes in the header (truncated file?)"
        )


def _class_values(attrs: list[Attribute], correct_i: int | None, pred_i: int | None) -> tuple[str, ...]:
    """The class values of the first nominal one of the ``correct`` and ``prediction`` columns."""
    for i in (correct_i, pred_i):
        if i is not None and attrs[i].type == "nominal":
            return attrs[i].values
    return ()


def parse_predictions_arff(source: str | os.PathLike[str] | bytes) -> ArffPredictions:
    """Parse an OpenML predictions ARFF file (a path or its bytes).

    Raises :class:`ArffError` for a file that is not a predictions ARFF (no ``@DATA``,
    missing ``repeat``/``fold``/``row_id`` or ``confidence.*`` columns, rows with the
    wrong number of fields, non-numeric numbers).
    """
    blob = _bytes_of(source)
    m = _DATA_RE.search(blob)
    if m is None:
        raise ArffError("no @DATA line: the file is truncated or not ARFF")
    header = blob[: m.start()].decode("utf-8", errors="replace")
    _, attrs = parse_arff_header(header)
    data = memoryview(blob)[m.end() :]
    data_start = bytes(data[:4096]).lstrip()
    if data_start.startswith(b"{"):
        raise ArffError("sparse ARFF data is not supported for predictions files")

    idx, conf, correct_i, pred_i = _columns(attrs)

    use = sorted({idx["repeat"], idx["fold"], idx["row_id"], *(i for i, _ in conf)} | ({correct_i} if correct_i is not None else set()))
    dtypes: dict[int, object] = {i: np.float64 for i in use if i != correct_i}
    if correct_i is not None:
        dtypes[correct_i] = object
    q = _quotechar(bytes(data[: 1 << 16]))
    try:
        with warnings.catch_warnings():
            # pandas only *warns* when a row has more fields than the header declares
            warnings.simplefilter("error", pd.errors.ParserWarning)
            # all columns are read (usecols would drop extra fields silently); the ones we do
            # not need as strings
            full = {i: dtypes.get(i, object) for i in range(len(attrs) + 1)}
            last = len(attrs) - 1
            full[last] = object  # read as text so an absent field ("") differs from '?'

            df = _read(data, len(attrs), full, q)
    except (ValueError, pd.errors.ParserError, pd.errors.ParserWarning) as exc:
        raise ArffError(f"cannot read the @DATA section: {str(exc).splitlines()[0]}") from None
    _check_field_counts(df, len(attrs))
    if last in dtypes and dtypes[last] is np.float64:
        try:
            df[last] = pd.to_numeric(df[last]).astype(np.float64)
        except (ValueError, TypeError) as exc:
            raise ArffError(f"cannot read the @DATA section: {exc}") from None
    correct = None
    if correct_i is not None:
        correct = df[correct_i].to_numpy(dtype=object)
    class_values = _class_values(attrs, correct_i, pred_i)
    return ArffPredictions(
        repeat=df[idx["repeat"]].to_numpy(dtype=np.float64),
        fold=df[idx["fold"]].to_numpy(dtype=np.float64),
        row_id=df[idx["row_id"]].to_numpy(dtype=np.float64),
        confidence={c: df[i].to_numpy(dtype=np.float64) for i, c in conf},
        correct=correct,
        class_values=class_values,
    )
