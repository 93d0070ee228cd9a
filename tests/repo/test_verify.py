"""prspace verify: a rerun's tables against the committed ones (git HEAD) or another run."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from pathlib import Path

import pytest

from prspace.cli import main
from prspace.core.errors import InputError
from prspace.repo.rerun_check import (
    DIFFERENT,
    IDENTICAL,
    WITHIN,
    cell_tolerance,
    compare_csv_text,
    verify_tables,
)

METRICS = (
    "task_id,model_id,flow_name,n,auroc,aupr\n"
    "t1,m1,\"Model(a=1, b=2)\",100,0.7090,0.31\n"
    "t1,m2,\"Other()\",100,0.6500,1.2e-03\n"
    "t2,m1,\"Model(a=1, b=2)\",50,0.5000,\n"
)
SUMMARY = "pair,top1,tau\nAUPR vs AUROC,0.49,0.787\nAUPR vs AUPRG,0.28,0.912\n"


def _study(root: Path, metrics: str = METRICS, summary: str = SUMMARY) -> Path:
    tables = root / "results" / "study" / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    (tables / "metrics.csv").write_text(metrics)
    (tables / "summary.csv").write_text(summary)
    (tables / "summary.md").write_text("| markdown is not compared |\n")
    return root / "results" / "study"


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository with a committed study (the committed tables)."""
    _study(tmp_path)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tables")
    return tmp_path


@pytest.mark.parametrize(
    ("text", "tol"),
    [("0.7090", 5e-5), ("0.31", 5e-3), ("1.2e-03", 5e-5), ("-2.5E+02", 5.0), ("42", 0.0), ("7.", 0.0)],
)
def test_tolerance_is_half_a_unit_in_the_last_printed_digit(text, tol):
    assert cell_tolerance(text) == pytest.approx(tol, rel=1e-12, abs=0)


def test_rerun_equal_to_the_commit_is_reproduced(repo, capsys):
    report = verify_tables(repo / "results" / "study")
    assert [t.status for t in report.tables] == [IDENTICAL, IDENTICAL]
    assert [t.table for t in report.tables] == ["metrics.csv", "summary.csv"]
    assert report.ok
    assert main(["verify", str(repo / "results" / "study")]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith("reproduced: 2 table(s)")


def test_a_changed_cell_is_named_and_fails(repo, capsys):
    _study(repo, metrics=METRICS.replace("0.6500", "0.6512"))
    report = verify_tables(repo / "results" / "study")
    by = {t.table: t for t in report.tables}
    assert by["summary.csv"].status == IDENTICAL
    res = by["metrics.csv"]
    assert res.status == DIFFERENT and len(res.diffs) == 1
    d = res.diffs[0]
    assert (d.row, d.column, d.reference, d.value) == ("task_id=t1, model_id=m2", "auroc", "0.6500", "0.6512")
    assert d.difference == pytest.approx(0.0012) and d.tolerance == pytest.approx(5e-5)
    assert not report.ok
    assert main(["verify", str(repo / "results" / "study")]) == 1
    out = capsys.readouterr().out
    assert "row [task_id=t1, model_id=m2], column auroc: committed '0.6500', rerun '0.6512'" in out
    assert "NOT reproduced" in out


def test_more_digits_within_the_printed_precision_pass(repo):
    # the rerun printed more digits: within half a unit of the committed last digit
    _study(repo, metrics=METRICS.replace("0.7090", "0.709049").replace("1.2e-03", "0.00124"))
    res = {t.table: t for t in verify_tables(repo / "results" / "study").tables}["metrics.csv"]
    assert res.status == WITHIN and res.n_within == 2 and not res.diffs
    # ... but not beyond it
    _study(repo, metrics=METRICS.replace("0.7090", "0.709051"))
    res = {t.table: t for t in verify_tables(repo / "results" / "study").tables}["metrics.csv"]
    assert res.status == DIFFERENT and res.diffs[0].column == "auroc"


def test_explicit_tolerances_replace_the_printed_precision(repo):
    _study(repo, metrics=METRICS.replace("0.6500", "0.6512"))
    study = repo / "results" / "study"
    assert verify_tables(study, atol=0.002).ok
    assert verify_tables(study, rtol=0.002).ok  # 0.0012 <= 0.002 * 0.65
    assert not verify_tables(study, rtol=0.001).ok
    with pytest.raises(InputError, match="--rtol"):
        verify_tables(study, rtol=-1.0)


def test_text_cells_rows_columns_and_tables_on_one_side(repo):
    study = repo / "results" / "study"
    _study(repo, metrics=METRICS.replace('"Other()"', '"Other(c=3)"'))
    res = {t.table: t for t in verify_tables(study).tables}["metrics.csv"]
    assert res.status == DIFFERENT and res.diffs[0].column == "flow_name"
    # an integer count that moves by one is a difference (tolerance 0)
    _study(repo, metrics=METRICS.replace("t2,m1,\"Model(a=1, b=2)\",50", "t2,m1,\"Model(a=1, b=2)\",51"))
    res = {t.table: t for t in verify_tables(study).tables}["metrics.csv"]
    assert [(d.row, d.column) for d in res.diffs] == [("task_id=t2, model_id=m1", "n")]
    # a missing row
    _study(repo, metrics=METRICS.rsplit("t2,", 1)[0])
    res = {t.table: t for t in verify_tables(study).tables}["metrics.csv"]
    assert [(d.row, d.column, d.value) for d in res.diffs] == [("task_id=t2, model_id=m1", "(row)", "missing")]
    # a new column
    _study(repo, summary=SUMMARY.replace("tau\n", "tau,extra\n"))
    res = {t.table: t for t in verify_tables(study).tables}["summary.csv"]
    assert res.status == DIFFERENT and "new ['extra']" in res.detail
    # a committed table the rerun did not write, and a table never committed
    _study(repo)
    (study / "tables" / "summary.csv").unlink()
    (study / "tables" / "new.csv").write_text("a\n1\n")
    by = {t.table: t for t in verify_tables(study).tables}
    assert by["summary.csv"].status == DIFFERENT and "missing" in by["summary.csv"].detail
    assert by["new.csv"].status == DIFFERENT and "not in the reference" in by["new.csv"].detail
    assert by["metrics.csv"].status == IDENTICAL


def test_against_another_directory(tmp_path):
    a = _study(tmp_path / "a")
    b = _study(tmp_path / "b", summary=SUMMARY.replace("0.912", "0.913"))
    report = verify_tables(b, against=a)
    by = {t.table: t for t in report.tables}
    assert by["metrics.csv"].status == IDENTICAL
    d = by["summary.csv"].diffs[0]
    assert (d.row, d.column) == ("pair=AUPR vs AUPRG", "tau")
    assert main(["verify", str(a), "--against", str(a)]) == 0


def test_bad_input_is_one_clear_error(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "nope")]) == 2
    assert "does not exist" in capsys.readouterr().err
    study = _study(tmp_path)  # not a git repository
    assert main(["verify", str(study)]) == 2
    assert "--against" in capsys.readouterr().err
    assert main(["verify", str(study), "--against", str(tmp_path / "nope")]) == 2


def test_keyless_tables_match_by_row_number():
    ref = "x,y\n1.0,2.0\n3.0,4.0\n"
    res = compare_csv_text(ref, ref.replace("4.0", "4.1"))
    assert [(d.row, d.column) for d in res.diffs] == [("row 2", "y")]


def test_verify_on_a_copy_of_the_committed_default_study(tmp_path):
    """The real committed tables: a byte copy is reproduced; one changed digit is named."""
    root = Path(__file__).resolve().parents[2]
    committed = root / "results" / "default"
    if not (committed / "tables" / "metrics.csv").exists():
        pytest.skip("no committed default study in this checkout")
    copy = tmp_path / "default"
    shutil.copytree(committed / "tables", copy / "tables")
    assert verify_tables(copy, against=committed).ok
    path = copy / "tables" / "metrics.csv"
    rows = list(csv.reader(io.StringIO(path.read_text())))
    j = rows[0].index("n_folds")
    rows[1][j] = str(int(rows[1][j]) + 1)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue())
    report = verify_tables(copy, against=committed)
    diffs = [d for t in report.tables for d in t.diffs]
    assert not report.ok and len(diffs) == 1
    assert diffs[0].column == "n_folds" and diffs[0].row.startswith(f"task_id={rows[1][0]}, ")
