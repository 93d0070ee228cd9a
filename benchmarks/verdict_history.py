"""Every change of a primary verdict in the repository, from the first committed verdict table to today (issue 80).

The verdict tables ``results/<study>/tables/verdicts.csv`` have been regenerated many times; each time a primary
claim's outcome, verdict, estimate or interval could move. This script reads every committed version of both tables
(``git log --first-parent`` of the tables: the versions the main line held, a merge standing for the branch it
brought in, with that branch's commits that touched the tables in column ``via``) and, when the working tree's table
differs from ``HEAD``'s, the working tree's as the newest version (commit ``uncommitted``). It writes one row per
change of a primary claim between two consecutive versions of a study's table (column ``change``):

* ``appears``: the claim is primary here and was not in the version before (the first version: every claim);
* ``disappears``: the claim was primary and is not here, or is here but no longer primary;
* ``outcome``: the outcome moved (the column ``outcome``; a table without it: the verdict's words before ``:``);
* ``verdict``: the same outcome in other words (a lean flipped, a scheme's vocabulary changed);
* ``estimate``: only the estimate or an interval end moved (flagged, not a verdict change).

The first four are the verdict changes (``verdict_moved``). Tables before the ``role`` column (2026-11-23) had no
primary claims; there, the claims primary at any later version are followed. Claim ids that were renamed are read
under their later id (``benchmarks/verdict_history_renames.csv``). Why each commit moved verdicts is written by hand
in ``benchmarks/verdict_history_reasons.csv`` (commit, category, reason; read from the commit's message; a merge
without a line takes the line of its branch's last commit in ``via`` that has one): a commit that moved a verdict and
has no line there is written as ``unannotated`` with a warning, and ``tests/repo/test_verdict_history.py`` fails on
it. The working tree's version is written with category ``uncommitted``.

Run from the repository root of a full (not shallow) clone (2-3 s; it reads git, nothing else)::

    python benchmarks/verdict_history.py

After regenerating the studies: commit the regenerated tables first, then run this script, add a line for that
commit to the reasons file (the warning names it), run it again and commit ``results/verdict_history.*`` and the
reasons file: the history then cites the commit that holds the tables.

writes ``results/verdict_history.csv`` (every row) and ``results/verdict_history.md`` (a line per commit with the
verdicts it moved and its estimate-only moves, then each commit's verdict changes).
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

STUDIES = ("default", "paperlike")
#: the categories a reason may name (several joined by "; ")
CATEGORIES = ("data", "panel", "rule", "estimand", "claims", "wording", "settings", "code fix")
UNANNOTATED = "unannotated"
UNCOMMITTED = "uncommitted"
REASONS = Path("benchmarks/verdict_history_reasons.csv")
RENAMES = Path("benchmarks/verdict_history_renames.csv")
VERDICT_CHANGES = ("appears", "disappears", "outcome", "verdict")
#: the fields a version's claim holds and a row shows old and new
FIELDS = ("outcome", "verdict", "estimate", "ci_lo", "ci_hi")
COLUMNS = ["study", "claim_id", "commit", "date", "change", "verdict_moved",
           *(f"{w}_{f}" for f in FIELDS for w in ("old", "new")), "category", "reason", "via", "subject"]


def table_path(study: str) -> str:
    """The verdict table of ``study``, relative to the repository root."""
    return f"results/{study}/tables/verdicts.csv"


class Version(NamedTuple):
    """One version of the verdict tables: a commit (or ``uncommitted``) and each study's table text (None: absent)."""

    commit: str
    date: str
    subject: str
    via: str
    texts: dict[str, str | None]


def _git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=check)


def _show(root: Path, commit: str, path: str) -> str | None:
    p = _git(root, "show", f"{commit}:{path}", check=False)
    return p.stdout if p.returncode == 0 else None


def _via(root: Path, commit: str, paths: list[str]) -> str:
    """The merged branch's commits that touched the tables, oldest first (empty for a commit with one parent)."""
    parents = _git(root, "rev-list", "--parents", "-n", "1", commit).stdout.split()[1:]
    if len(parents) < 2:
        return ""
    out = _git(root, "log", "--reverse", "--format=%h", f"{parents[0]}..{parents[1]}", "--", *paths).stdout
    return " ".join(out.split())


def versions(root: Path, studies: tuple[str, ...] = STUDIES, *, worktree: bool = True) -> list[Version]:
    """Every first-parent commit that changed a study's verdict table, oldest first, and the working tree's
    tables as a last version ``uncommitted`` when they differ from ``HEAD``'s (``worktree=True``)."""
    paths = [table_path(s) for s in studies]
    if _git(root, "rev-parse", "--is-inside-work-tree", check=False).returncode != 0:
        raise SystemExit(f"error: {root} is not a git checkout; run from the repository root (or give --root)")
    if _git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        raise SystemExit(f"error: {root} is a shallow clone, its history is cut; run git fetch --unshallow first")
    log = _git(root, "log", "--first-parent", "--reverse", "--format=%h%x1f%ad%x1f%s", "--date=short",
               "--", *paths).stdout
    out = []
    for line in log.splitlines():
        commit, date, subject = line.split("\x1f", 2)
        out.append(Version(commit, date, subject, _via(root, commit, paths),
                           {s: _show(root, commit, p) for s, p in zip(studies, paths, strict=True)}))
    if worktree:
        texts = {s: ((root / p).read_text() if (root / p).is_file() else None) for s, p in zip(studies, paths, strict=True)}
        head = out[-1].texts if out else {s: None for s in studies}
        if texts != head and any(t is not None for t in texts.values()):
            today = pd.Timestamp.now(tz="UTC").strftime("%Y-%m-%d")
            out.append(Version(UNCOMMITTED, today, "the working tree's tables, not yet committed", "", texts))
    return out


def outcome_of(verdict: object) -> str:
    """The outcome a verdict's words start with (a table before the ``outcome`` column): the words before ``:``."""
    return "" if pd.isna(verdict) else str(verdict).split(":", 1)[0].strip()


def read_table(text: str, renames: dict[str, str]) -> pd.DataFrame:
    """A verdict table's claims by (renamed) ``claim_id``: ``role`` ('' before that column), and :data:`FIELDS`."""
    t = pd.read_csv(io.StringIO(text))
    held = set(t["claim_id"])
    t["claim_id"] = [renames[c] if c in renames and renames[c] not in held else c for c in t["claim_id"]]
    role = t["role"].fillna("").astype(str) if "role" in t else pd.Series("", index=t.index)
    derived = t["verdict"].map(outcome_of)
    outcome = t["outcome"].where(t["outcome"].notna() & (t["outcome"].astype(str) != ""), derived) \
        if "outcome" in t else derived
    out = pd.DataFrame({"role": role, "outcome": outcome.astype(str), "verdict": t["verdict"].fillna("").astype(str),
                        **{f: pd.to_numeric(t[f], errors="coerce") if f in t else np.nan
                           for f in ("estimate", "ci_lo", "ci_hi")}})
    out.index = t["claim_id"]
    return out[~out.index.duplicated()]


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (pd.isna(a) and pd.isna(b)) or a == b
    return a == b


def _change(old: pd.Series | None, new: pd.Series | None) -> str | None:
    if old is None and new is None:
        return None
    if old is None:
        return "appears"
    if new is None:
        return "disappears"
    if old["outcome"] != new["outcome"]:
        return "outcome"
    if old["verdict"] != new["verdict"]:
        return "verdict"
    if not all(_same(old[f], new[f]) for f in ("estimate", "ci_lo", "ci_hi")):
        return "estimate"
    return None


def _primary(table: pd.DataFrame | None, followed: set[str]) -> pd.DataFrame:
    """The claims a version holds as primary (before the ``role`` column: the ``followed`` ones)."""
    if table is None:
        return table_empty()
    if (table["role"] != "").any():
        return table[table["role"] == "primary"]
    return table[table.index.isin(followed)]


def table_empty() -> pd.DataFrame:
    return pd.DataFrame(columns=["role", *FIELDS])


def _states(state: pd.Series | None, which: str) -> dict[str, object]:
    """A claim's fields as ``old_*`` or ``new_*`` columns (empty text and NaN where the claim is absent)."""
    empty = {"outcome": "", "verdict": ""}
    return {f"{which}_{f}": (state[f] if state is not None else empty.get(f, np.nan)) for f in FIELDS}


def _study_changes(study: str, vers: list[Version], tables: list[dict]) -> list[dict]:
    """The rows of one study (:func:`changes`), each with its version's index ``_version``."""
    followed = {c for tb in tables if tb.get(study) is not None
                for c in tb[study].index[tb[study]["role"] == "primary"]}
    rows, prev = [], table_empty()
    for i, (v, tb) in enumerate(zip(vers, tables, strict=True)):
        cur = _primary(tb.get(study), followed)
        for claim in [*prev.index, *(c for c in cur.index if c not in prev.index)]:
            old = prev.loc[claim] if claim in prev.index else None
            new = cur.loc[claim] if claim in cur.index else None
            kind = _change(old, new)
            if kind is not None:
                rows.append({"_version": i, "study": study, "claim_id": claim, "commit": v.commit, "date": v.date,
                             "change": kind, "verdict_moved": kind in VERDICT_CHANGES, "via": v.via,
                             "subject": v.subject, **_states(old, "old"), **_states(new, "new")})
        prev = cur
    return rows


def changes(vers: list[Version], renames: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per change of a primary claim between consecutive versions (module docstring), without reasons.

    Parameters
    ----------
    vers : list of Version
        The versions, oldest first (:func:`versions`).
    renames : dict, optional
        ``old_id -> new_id``: a claim read under its later id.

    Returns
    -------
    pandas.DataFrame
        :data:`COLUMNS` but ``category`` and ``reason``, by version then study.
    """
    renames = renames or {}
    tables = [{s: (read_table(t, renames) if t is not None else None) for s, t in v.texts.items()} for v in vers]
    rows = [r for s in sorted({s for v in vers for s in v.texts}) for r in _study_changes(s, vers, tables)]
    out = pd.DataFrame(rows, columns=["_version", *(c for c in COLUMNS if c not in ("category", "reason"))])
    out = out.sort_values(["_version", "study"], kind="stable")
    return out.drop(columns="_version").reset_index(drop=True)


def read_renames(path: Path) -> dict[str, str]:
    """``old_id -> new_id`` from the renames file (columns old_id, new_id, commit, note); empty when it is absent."""
    if not path.is_file():
        return {}
    t = pd.read_csv(path, dtype=str, keep_default_na=False)
    return dict(zip(t["old_id"], t["new_id"], strict=True))


def read_reasons(path: Path) -> pd.DataFrame:
    """The annotation file (commit, category, reason); every category one of :data:`CATEGORIES`."""
    if not path.is_file():
        return pd.DataFrame(columns=["commit", "category", "reason"])
    t = pd.read_csv(path, dtype=str, keep_default_na=False)
    for _, r in t.iterrows():
        bad = [c for c in r["category"].split("; ") if c not in CATEGORIES]
        if bad:
            raise SystemExit(f"error: {path}: commit {r['commit']}: category {bad[0]!r} is not one of "
                             f"{', '.join(CATEGORIES)}; fix the line")
    return t


def _reason_of(reasons: pd.DataFrame, commit: str) -> tuple[str, str] | None:
    for _, r in reasons.iterrows():
        if r["commit"] and (commit.startswith(r["commit"]) or r["commit"].startswith(commit)):
            return r["category"], r["reason"]
    return None


def annotate(rows: pd.DataFrame, reasons: pd.DataFrame) -> pd.DataFrame:
    """Each row's category and reason from the annotation file: its commit's line (matched by prefix either way),
    else, for a merge, the line of the last commit in ``via`` that has one; else :data:`UNANNOTATED` (the
    working tree's version: ``uncommitted``, to be annotated once committed)."""
    def find(commit: str, via: str) -> tuple[str, str]:
        for c in (commit, *reversed(via.split())):
            found = _reason_of(reasons, c)
            if found:
                return found
        if commit == UNCOMMITTED:
            return UNCOMMITTED, "not committed yet: commit the tables, then run this script again"
        return UNANNOTATED, ""
    found = [find(c, v) for c, v in zip(rows["commit"], rows["via"], strict=True)]
    rows = rows.copy()
    rows["category"] = [f[0] for f in found]
    rows["reason"] = [f[1] for f in found]
    return rows[COLUMNS]


def unannotated(rows: pd.DataFrame) -> list[str]:
    """The commits that moved a verdict and have no line in the annotation file (``uncommitted`` excepted)."""
    bad = rows[rows["verdict_moved"] & (rows["category"] == UNANNOTATED)]
    return list(dict.fromkeys(bad["commit"]))


def history(root: Path, *, worktree: bool = True, reasons: Path | None = None,
            renames: Path | None = None) -> pd.DataFrame:
    """Every change of a primary claim in the repository at ``root`` (module docstring), with its reason."""
    vers = versions(root, worktree=worktree)
    rows = changes(vers, read_renames(root / (renames or RENAMES)))
    return annotate(rows, read_reasons(root / (reasons or REASONS)))


def _fmt(x: object) -> str:
    if isinstance(x, float):
        return "" if np.isnan(x) else f"{x:.3g}"
    return str(x)


def _state(r: pd.Series, w: str) -> str:
    if not r[f"{w}_verdict"]:
        return "(none)"
    interval = ""
    if not (pd.isna(r[f"{w}_ci_lo"]) and pd.isna(r[f"{w}_ci_hi"])):
        interval = f" [{_fmt(r[f'{w}_ci_lo'])}, {_fmt(r[f'{w}_ci_hi'])}]"
    return f"{r[f'{w}_verdict']}; {_fmt(r[f'{w}_estimate'])}{interval}"


def _overview(rows: pd.DataFrame) -> list[str]:
    """One line per commit: its category, the verdicts it moved and the estimate-only moves, per study."""
    studies = sorted(rows["study"].unique())
    head = ["date", "commit", "why", *(f"verdicts moved: {s}" for s in studies),
            *(f"estimates only: {s}" for s in studies)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for commit, g in rows.groupby("commit", sort=False):
        r0 = g.iloc[0]
        moved = [int((g["verdict_moved"] & (g["study"] == s)).sum()) for s in studies]
        est = [int((~g["verdict_moved"] & (g["study"] == s)).sum()) for s in studies]
        via = f" (via {r0['via']})" if r0["via"] else ""
        link = f"[{commit}](#{r0['date']}-{commit})" if sum(moved) else commit
        lines.append(f"| {r0['date']} | {link}{via} | {r0['category']} | "
                     + " | ".join(str(n) for n in (*moved, *est)) + " |")
    return lines


def markdown(rows: pd.DataFrame) -> str:
    """The page: an overview line per commit (oldest first), then each commit that moved a verdict with its
    reason and its changes, old -> new."""
    lines = ["# Every change of a primary verdict", "",
             "Generated by `python benchmarks/verdict_history.py` from `git log --first-parent` of "
             "`results/<study>/tables/verdicts.csv`; every row, estimate-only moves included, is in "
             "[verdict_history.csv](verdict_history.csv). The why of each commit is "
             "`benchmarks/verdict_history_reasons.csv`, read from its message. Tables before 2026-11-24 had no "
             "primary claims: there, the claims primary later are followed. A merge stands for the branch it brought "
             "in (`via`: that branch's commits that touched the tables).", "", "## By commit", "",
             *_overview(rows), ""]
    for commit, g in rows[rows["verdict_moved"]].groupby("commit", sort=False):
        r0 = g.iloc[0]
        lines += [f"## {r0['date']} {commit}", "", f"**{r0['category']}**: {r0['reason'] or r0['subject']}", "",
                  "| study | claim | change | old: verdict; estimate [interval] | new |", "|---|---|---|---|---|"]
        lines += [f"| {r['study']} | `{r['claim_id']}` | {r['change']} | {_state(r, 'old')} | {_state(r, 'new')} |"
                  for _, r in g.iterrows()]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=Path("."), help="the repository (default: .)")
    ap.add_argument("--out", type=Path, default=Path("results/verdict_history.csv"),
                    help="the CSV to write (the .md beside it); default results/verdict_history.csv")
    ap.add_argument("--committed-only", action="store_true", help="ignore the working tree's tables")
    args = ap.parse_args(argv)
    rows = history(args.root, worktree=not args.committed_only)
    out = args.out if args.out.is_absolute() else args.root / args.out
    rows.to_csv(out, index=False, float_format="%.6g")
    out.with_suffix(".md").write_text(markdown(rows))
    n = int(rows["verdict_moved"].sum())
    print(f"{len(rows)} changes of primary claims ({n} verdict changes) written to {out} and its .md")
    bad = unannotated(rows)
    if bad:
        print(f"warning: commits that moved a verdict have no reason: {', '.join(bad)}; add a line each to "
              f"{REASONS} (commit,category,reason) and run again", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
