"""The history of every primary verdict (issue 80, deliver 3): ``benchmarks/verdict_history.py`` and its committed
``results/verdict_history.csv``.

The committed history is checked without git (CI may clone shallowly): its latest entry per claim is today's
``verdicts.csv``, and every commit that moved a verdict says why. The script itself runs on a repository made here.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
HISTORY = ROOT / "results" / "verdict_history.csv"


def _script():
    spec = importlib.util.spec_from_file_location("verdict_history", ROOT / "benchmarks" / "verdict_history.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


VH = _script()


def _read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _num(x: str) -> float:
    return float(x) if x not in ("", "nan", "NaN") else np.nan


def _close(a: str, b: str) -> bool:
    """Two printed numbers equal at the history's 6 significant digits (both empty counts as equal)."""
    x, y = _num(a), _num(b)
    return (np.isnan(x) and np.isnan(y)) or bool(np.isclose(x, y, rtol=5e-6, atol=1e-12))


@pytest.mark.parametrize("study", VH.STUDIES)
def test_latest_entry_per_claim_is_todays_verdicts(study):
    """After a regeneration the lead reruns the script and commits its output: this fails until then."""
    hist = _read(HISTORY)
    hist = hist[hist["study"] == study]
    latest = hist.groupby("claim_id", sort=False).tail(1).set_index("claim_id")
    live = latest[latest["change"] != "disappears"]
    today = _read(ROOT / VH.table_path(study))
    today = today[today["role"] == "primary"].set_index("claim_id")
    assert sorted(live.index) == sorted(today.index), (
        f"{study}: the history's current primary claims differ from verdicts.csv; run "
        "python benchmarks/verdict_history.py and commit results/verdict_history.*")
    for claim, row in today.iterrows():
        h = live.loc[claim]
        outcome = row["outcome"] or row["verdict"].split(":", 1)[0].strip()
        assert (h["new_outcome"], h["new_verdict"]) == (outcome, row["verdict"]), claim
        for f in ("estimate", "ci_lo", "ci_hi"):
            assert _close(h[f"new_{f}"], row[f]), (claim, f, h[f"new_{f}"], row[f])


def test_every_commit_that_moved_a_verdict_says_why():
    hist = _read(HISTORY)
    moved = hist[(hist["verdict_moved"] == "True") & (hist["commit"] != VH.UNCOMMITTED)]
    assert len(moved) > 0
    bad = sorted(set(moved.loc[moved["category"] == VH.UNANNOTATED, "commit"]))
    assert not bad, f"add a line for {bad} to {VH.REASONS}"
    for cats in moved["category"]:
        assert all(c in VH.CATEGORIES for c in cats.split("; ")), cats
    assert (moved["reason"] != "").all()


def test_the_cheaper_panel_moves_are_in_the_history():
    """Issue 80, point 2: the five primary verdicts be69818 moved without a record."""
    hist = _read(HISTORY)
    panel = hist[(hist["commit"] == "be69818") & (hist["verdict_moved"] == "True")]
    got = {(r.study, r.claim_id): (r.old_outcome, r.new_outcome) for r in panel.itertuples()}
    assert got[("paperlike", "fk.auprg_auroc.top1")] == ("inconclusive", "different")
    assert got[("paperlike", "fk.as_different.top3")] == ("inconclusive", "different")
    assert got[("default", "fk.auprg_auroc.top1")] == ("different", "borderline")
    assert got[("default", "fk.auprg_auroc.spearman")] == ("different, beyond the margin", "borderline")
    lean = panel[(panel["study"] == "paperlike") & (panel["claim_id"] == "fk.aupr_auprg.top1")].iloc[0]
    assert (lean["change"], lean["old_estimate"], lean["new_estimate"]) == ("verdict", "0.283019", "0.226415")


# ---- the script on a repository made here ----

#: the first version: no role and no outcome column (as before 2026-11-24); claim b under its old id
V1 = ("paper,claim_id,claim,estimate,ci_lo,ci_hi,verdict\n"
      "p,a,claim a,0.5,0.4,0.6,replicates\n"
      "p,old_b,claim b,0.2,0.1,0.3,differs: lower here\n"
      "p,x,claim x,0.9,0.8,1.0,holds\n")
#: the second: roles and outcomes; a's outcome moved, b's estimate only, c new, x exploratory (never followed)
V2 = ("role,paper,claim_id,claim,estimate,ci_lo,ci_hi,verdict,outcome\n"
      "primary,p,a,claim a,0.55,0.41,0.7,different: higher here,different\n"
      "primary,p,b,claim b,0.25,0.1,0.3,differs: lower here,\n"
      "primary,p,c,claim c,0.1,0.0,0.2,inconclusive: leans lower here,inconclusive\n"
      "exploratory,p,x,claim x,0.8,0.7,0.9,holds,\n")
#: the working tree, not committed: a no longer primary, c's lean flipped
V3 = V2.replace("primary,p,a,", "exploratory,p,a,").replace("leans lower here", "leans higher here")


def _git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-11-20T12:00:00", "GIT_COMMITTER_DATE": "2026-11-20T12:00:00"}
    env = {k: v for k, v in env.items() if k not in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE")}
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org",
                           "-c", "commit.gpgsign=false", *args],
                          capture_output=True, text=True, check=True, env=env).stdout.strip()


def _commit(root: Path, text: str, message: str) -> str:
    path = root / VH.table_path("default")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "--short", "HEAD")


@pytest.fixture
def repo(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / VH.RENAMES).write_text("old_id,new_id,commit,note\nold_b,b,x,renamed\n")
    c1 = _commit(tmp_path, V1, "first verdicts")
    (tmp_path / VH.REASONS).write_text(f"commit,category,reason\n{c1},claims,the first table\n")
    c2 = _commit(tmp_path, V2, "second verdicts")
    return tmp_path, c1, c2


def test_the_script_on_two_commits_gives_the_expected_rows(repo):
    root, c1, c2 = repo
    rows = VH.history(root, worktree=False)
    got = [(r.commit, r.claim_id, r.change, r.old_outcome, r.new_outcome, r.new_estimate, r.category)
           for r in rows.itertuples()]
    assert got == [
        (c1, "a", "appears", "", "replicates", 0.5, "claims"),
        (c1, "b", "appears", "", "differs", 0.2, "claims"),
        (c2, "a", "outcome", "replicates", "different", 0.55, VH.UNANNOTATED),
        (c2, "b", "estimate", "differs", "differs", 0.25, VH.UNANNOTATED),
        (c2, "c", "appears", "", "inconclusive", 0.1, VH.UNANNOTATED),
    ]
    assert rows["study"].eq("default").all() and rows["date"].eq("2026-11-20").all()
    assert list(rows["verdict_moved"]) == [True, True, True, False, True]
    assert VH.unannotated(rows) == [c2]


def test_the_working_tree_is_the_newest_version(repo):
    root, _, c2 = repo
    (root / VH.table_path("default")).write_text(V3)
    rows = VH.history(root)
    new = rows[rows["commit"] == VH.UNCOMMITTED]
    assert [(r.claim_id, r.change, r.old_verdict, r.new_verdict) for r in new.itertuples()] == [
        ("a", "disappears", "different: higher here", ""),
        ("c", "verdict", "inconclusive: leans lower here", "inconclusive: leans higher here"),
    ]
    assert set(new["category"]) == {VH.UNCOMMITTED}
    assert VH.unannotated(rows) == [c2]  # the uncommitted version is not asked for a reason yet
    assert VH.UNCOMMITTED not in set(VH.history(root, worktree=False)["commit"])


def test_a_merge_stands_for_its_branch(repo):
    """On the main line a merge is the version; its reason is the branch commit's when the merge has none."""
    root, _, c2 = repo
    main = _git(root, "rev-parse", "--abbrev-ref", "HEAD")
    _git(root, "checkout", "-q", "-b", "side")
    c3 = _commit(root, V3, "side: a leaves the primary claims, c's lean flips")
    _git(root, "checkout", "-q", main)
    (root / "notes.txt").write_text("main moves on\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "unrelated")
    _git(root, "merge", "-q", "--no-ff", "-m", "merge side", "side")
    merge = _git(root, "rev-parse", "--short", "HEAD")
    with (root / VH.REASONS).open("a") as fh:
        fh.write(f"{c2},rule,second\n{c3},wording,the side branch's reason\n")
    rows = VH.history(root)
    last = rows[rows["commit"] == merge]
    assert list(last["claim_id"]) == ["a", "c"] and set(last["via"]) == {c3}
    assert set(last["category"]) == {"wording"} and not VH.unannotated(rows)
    assert c3 not in set(rows["commit"])


def test_the_command_writes_both_files(repo, capsys):
    root, _, _ = repo
    (root / "results").mkdir(exist_ok=True)
    assert VH.main(["--root", str(root)]) == 0
    csv = _read(root / "results" / "verdict_history.csv")
    assert list(csv.columns) == VH.COLUMNS and len(csv) == 5
    page = (root / "results" / "verdict_history.md").read_text()
    assert "| default | `a` | outcome | replicates; 0.5 [0.4, 0.6] | different: higher here; 0.55 [0.41, 0.7] |" in page
    assert "warning: commits that moved a verdict have no reason" in capsys.readouterr().err


def test_a_bad_category_is_one_clear_error(repo):
    root, c1, _ = repo
    (root / VH.REASONS).write_text(f"commit,category,reason\n{c1},weather,rain\n")
    with pytest.raises(SystemExit, match="category 'weather' is not one of"):
        VH.history(root)
