"""ARFF datasets as the format defines them -> :class:`pandas.DataFrame`.

The Attribute-Relation File Format (Weka; the format OpenML serves datasets in): a
header of ``@RELATION`` / ``@ATTRIBUTE name type`` lines, then ``@DATA`` and one row
per line.  Read here as the format defines it:

* values quoted with ``'`` or ``"`` (commas, spaces and the other quote inside), with
  backslash escapes (``\\'``, ``\\"``, ``\\\\``, ``\\n``, ``\\t``, ``\\r``, ``\\%``);
* ``?`` is a missing value; ``%`` starts a comment line; blank lines are skipped;
* sparse rows ``{index value, ...}`` (omitted numeric values are 0, omitted nominal
  values the attribute's first declared value, as in Weka);
* gzip-compressed files (``.arff.gz``, or any file starting with the gzip magic bytes);
* numeric / real / integer attributes -> float64; nominal, string and date -> strings.

Speed: the header is parsed by :func:`parse_arff_header` (also used by the parser of OpenML's predictions files,
:mod:`prspace.openml.predictions_arff`);
a dense data section whose fields are quoted with one character only and hold no
backslash goes through pandas' C parser (about 30 MB/s; liac-arff parses about 2 MB/s,
scikit-learn PR #11419).  Anything else (both quote characters opening fields, escapes,
sparse rows, or a row the C parser rejects) is read line by line in Python, which also
gives every error the line number counted **from the top of the file**.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from prspace.core.errors import FileDefect, InputError

__all__ = ["ArffError", "Attribute", "parse_arff_header", "read_arff", "read_arff_attributes", "read_quoted"]

class ArffError(ValueError):
    """The file is not a well-formed ARFF file (header, or an OpenML predictions file's columns)."""


_DATA_RE = re.compile(rb"^[ \t]*@data[ \t]*\r?$", re.IGNORECASE | re.MULTILINE)


@dataclasses.dataclass(frozen=True)
class Attribute:
    name: str
    type: str  # "numeric", "string", "date" or "nominal"
    values: tuple[str, ...] = ()  # the nominal values, in header order


def read_quoted(text: str, i: int, escapes: dict[str, str] | None = None) -> tuple[str, int]:
    """The quoted ARFF value opening at ``text[i]`` (``'`` or ``"``), unescaped, and the index of
    its closing quote (``len(text)`` when it is not closed).

    A backslash escapes the next character; ``escapes`` maps that character (``n`` -> newline),
    else it stands for itself.  The one reader of quoted fields, for headers and data rows.
    """
    q, j, n, buf = text[i], i + 1, len(text), []
    while j < n and text[j] != q:
        if text[j] == "\\" and j + 1 < n:
            j += 1
            buf.append(escapes.get(text[j], text[j]) if escapes else text[j])
        else:
            buf.append(text[j])
        j += 1
    return "".join(buf), j


def _tokens(text: str) -> list[str]:
    """Split ``text`` into ARFF tokens: quoted strings (unescaped), words, ``{...}`` kept whole."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "'\"":
            value, j = read_quoted(text, i)
            if j >= n:
                raise ArffError(f"unterminated quote in {text!r}")
            out.append(value)
            i = j + 1
        elif c == "{":
            depth, j = 0, i
            quote = ""
            while j < n:
                ch = text[j]
                if quote:
                    if ch == "\\":
                        j += 1
                    elif ch == quote:
                        quote = ""
                elif ch in "'\"":
                    quote = ch
                elif ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= n:
                raise ArffError(f"unterminated nominal list in {text!r}")
            out.append(text[i : j + 1])
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] != "{":
                j += 1
            out.append(text[i:j])
            i = j
    return out


def _nominal_values(spec: str) -> tuple[str, ...]:
    """``{a, 'b c', "d'e"}`` -> ``('a', 'b c', "d'e")``."""
    inner = spec.strip()[1:-1]
    values: list[str] = []
    i, n = 0, len(inner)
    while i < n:
        while i < n and inner[i] in " \t":
            i += 1
        if i >= n:
            break
        c = inner[i]
        if c in "'\"":
            value, j = read_quoted(inner, i)
            values.append(value)
            i = j + 1
        else:
            j = i
            while j < n and inner[j] != ",":
                j += 1
            values.append(inner[i:j].strip())
            i = j
        while i < n and inner[i] != ",":
            i += 1
        i += 1
    return tuple(values)


def parse_arff_header(header: str) -> tuple[str, list[Attribute]]:
    """Parse the text before ``@DATA``: the relation name and the attributes in order."""
    relation = ""
    attrs: list[Attribute] = []
    for lineno, raw in enumerate(header.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        low = line[:10].lower()
        if low.startswith("@relation"):
            toks = _tokens(line[len("@relation") :])
            relation = toks[0] if toks else ""
        elif low.startswith("@attribute"):
            toks = _tokens(line[len("@attribute") :])
            if len(toks) < 2:
                raise ArffError(f"header line {lineno}: cannot read attribute {line!r}")
            name, typ = toks[0], toks[1]
            if typ.startswith("{"):
                attrs.append(Attribute(name, "nominal", _nominal_values(typ)))
            else:
                t = typ.lower()
                if t in ("numeric", "real", "integer"):
                    attrs.append(Attribute(name, "numeric"))
                elif t == "string":
                    attrs.append(Attribute(name, "string"))
                elif t == "date":
                    attrs.append(Attribute(name, "date"))
                else:
                    raise ArffError(f"header line {lineno}: unknown attribute type {typ!r}")
        else:
            raise ArffError(f"header line {lineno}: expected @RELATION or @ATTRIBUTE, got {line[:60]!r}")
    if not attrs:
        raise ArffError("the header declares no attributes")
    return relation, attrs


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f"}


def _read_bytes(path: Path) -> bytes:
    with open(path, "rb") as fh:
        blob = fh.read()
    if blob[:2] == b"\x1f\x8b":
        try:
            blob = gzip.decompress(blob)
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: damaged gzip file ({exc}); compress it again") from None
    if blob.startswith(b"\xef\xbb\xbf"):
        blob = blob[3:]
    return blob


def _split(blob: bytes, path: Path) -> tuple[list[Attribute], bytes, int]:
    """Attributes, the @DATA section and the line number of its first line (1-based)."""
    m = _DATA_RE.search(blob)
    if m is None:
        raise InputError(f"{path} has no @DATA line; is it an ARFF file? (or save it as CSV)")
    header = blob[: m.start()].decode("utf-8", errors="replace")
    try:
        _, attrs = parse_arff_header(header)
    except ArffError as exc:
        msg = str(exc).replace("header line", "line")
        raise InputError(f"{path}: {msg}; fix the ARFF header") from None
    names = [a.name for a in attrs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        # a column named twice: never resolved silently
        raise FileDefect(f"{path}: attribute(s) {', '.join(dup)} declared twice; rename or remove one copy")
    first_line = blob.count(b"\n", 0, m.end()) + 1
    if m.end() < len(blob) and blob[m.end() : m.end() + 1] == b"\n":
        data = blob[m.end() + 1 :]
        first_line += 1
    else:
        data = blob[m.end() :]
    return attrs, data, first_line


def read_arff_attributes(path: str | os.PathLike[str]) -> list[Attribute]:
    """The attributes (name, type, nominal values) of an ARFF file, without its data."""
    p = Path(path)
    return _split(_read_bytes(p), p)[0]


# ----------------------------------------------------------------------- fast path


def _fast(data: bytes, attrs: list[Attribute]) -> pd.DataFrame | None:
    """The C parser, when it reads the section exactly; ``None`` when it cannot."""
    if b"\\" in data or re.search(rb"^[ \t]*\{", data, re.MULTILINE):
        return None
    opens_single = re.search(rb"(?:^|,)[ \t]*'", data, re.MULTILINE) is not None
    opens_double = re.search(rb"(?:^|,)[ \t]*\"", data, re.MULTILINE) is not None
    if opens_single and opens_double:
        return None
    q = "'" if opens_single else '"'
    n = len(attrs)
    dtypes = {i: (np.float64 if a.type == "numeric" else object) for i, a in enumerate(attrs)}
    dtypes[n - 1] = object  # read as text: an absent last field ("") differs from '?'
    dtypes[n] = object  # a spare column catches rows with extra fields
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            df = pd.read_csv(
                io.BytesIO(data), header=None, index_col=False, names=list(range(n + 1)),
                dtype=dtypes, engine="c", sep=",", quotechar=q, skipinitialspace=True,
                na_values=["?"], keep_default_na=False, skip_blank_lines=True, comment="%",
                on_bad_lines="error", low_memory=False, encoding="utf-8", encoding_errors="replace",
            )
    except (ValueError, pd.errors.ParserError, pd.errors.ParserWarning):
        return None
    spare = df[n]
    if (spare.notna() & (spare.astype(str) != "")).any():
        return None
    last = df[n - 1]
    if (last.notna() & (last.astype(str).str.strip() == "")).any():
        return None
    # a quote left open swallows the next lines into one value: ARFF rows are single lines
    n_rows = len(re.findall(rb"^[ \t]*[^%\s]", data, re.MULTILINE))
    if n_rows != len(df):
        return None
    df = df.drop(columns=[n])
    if attrs[-1].type == "numeric":
        try:
            df[n - 1] = pd.to_numeric(df[n - 1]).astype(np.float64)
        except (ValueError, TypeError):
            return None
    # the C parser keeps trailing spaces of unquoted strings; ARFF tokens have none
    for i, a in enumerate(attrs):
        if a.type != "numeric":
            col = df[i]
            df[i] = col.where(col.isna(), col.astype(str).str.rstrip())
    return df


# ----------------------------------------------------------------------- slow path


def _fields(line: str, lineno: int, path: Path) -> list[str | None]:
    """One dense row (or the inside of a sparse one) -> values; ``None`` for ``?``."""
    out: list[str | None] = []
    i, n = 0, len(line)
    while True:
        while i < n and line[i] in " \t":
            i += 1
        if i < n and line[i] in "'\"":
            q = line[i]
            value, j = read_quoted(line, i, _ESCAPES)
            if j >= n:
                raise InputError(f"{path}, line {lineno}: a quote {q} is not closed; close it or escape it as \\{q}")
            out.append(value)
            i = j + 1
            while i < n and line[i] in " \t":
                i += 1
            if i < n and line[i] != ",":
                raise InputError(
                    f"{path}, line {lineno}: text after the closing quote {q} "
                    f"({line[i:i + 20]!r}); quote the whole value"
                )
        else:
            j = i
            while j < n and line[j] != ",":
                j += 1
            tok = line[i:j].strip()
            out.append(None if tok == "?" else tok)
            i = j
        if i >= n:
            return out
        i += 1  # the comma


def _slow(data: bytes, attrs: list[Attribute], first_line: int, path: Path) -> pd.DataFrame:
    n = len(attrs)
    rows: list[list[str | None]] = []
    lines: list[int] = []
    for k, raw in enumerate(data.decode("utf-8", errors="replace").split("\n")):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        lineno = first_line + k
        if line.startswith("{"):
            row = _sparse_row(line, attrs, lineno, path)
        else:
            row = _fields(line, lineno, path)
            if len(row) != n:
                raise InputError(
                    f"{path}, line {lineno}: {len(row)} values but the header declares {n} "
                    "attributes; quote values that contain commas"
                )
        rows.append(row)
        lines.append(lineno)
    return _numeric_columns(pd.DataFrame(rows, columns=list(range(n)), dtype=object), attrs, lines, path)


def _sparse_row(line: str, attrs: list[Attribute], lineno: int, path: Path) -> list[str | None]:
    """One sparse row ``{index value, ...}`` as a dense row (absent: 0, or the first nominal value)."""
    n = len(attrs)
    if not line.endswith("}"):
        raise InputError(f"{path}, line {lineno}: a sparse row must end with }}; close it")
    row: list[str | None] = [("0" if a.type == "numeric" else (a.values[0] if a.values else "")) for a in attrs]
    inner = line[1:-1].strip()
    for item in _fields(inner, lineno, path) if inner else []:
        parts = (item or "").strip().split(None, 1)
        if len(parts) != 2 or not parts[0].isdigit():
            raise InputError(
                f"{path}, line {lineno}: sparse entry {item!r} is not 'index value'; "
                "write each as <attribute index> <value>"
            )
        idx = int(parts[0])
        if idx >= n:
            raise InputError(
                f"{path}, line {lineno}: sparse index {idx} but the header declares {n} "
                "attributes (indices from 0)"
            )
        value = parts[1].strip()
        if value[:1] in "'\"":
            value = _fields(value, lineno, path)[0] or ""
        row[idx] = None if value == "?" else value
    return row


def _numeric_columns(df: pd.DataFrame, attrs: list[Attribute], lines: list[int], path: Path) -> pd.DataFrame:
    """The numeric attributes as float64; :class:`InputError` names the first non-number by its line."""
    for i, a in enumerate(attrs):
        if a.type != "numeric":
            continue
        num = pd.to_numeric(df[i], errors="coerce").astype(np.float64)
        bad = num.isna().to_numpy() & df[i].notna().to_numpy()
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{path}, line {lines[r]}: {df[i].iloc[r]!r} in numeric attribute {a.name!r}; "
                "write a number or ? for missing"
            )
        df[i] = num
    return df


def read_arff(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read an ARFF (or gzipped ARFF) dataset; columns named as declared, in order.

    Numeric attributes are float64 (``?`` -> NaN); nominal, string and date attributes
    are strings (``?`` -> missing).  Raises :class:`~prspace.core.errors.InputError` naming
    the file, the line (from the top of the file) and the fix.
    """
    p = Path(path)
    try:
        blob = _read_bytes(p)
    except OSError as exc:
        raise InputError(f"cannot read {p} ({exc.strerror or exc}); check the path") from None
    attrs, data, first_line = _split(blob, p)
    df = _fast(data, attrs)
    if df is None:
        df = _slow(data, attrs, first_line, p)
    df.columns = [a.name for a in attrs]
    return df.reset_index(drop=True)
