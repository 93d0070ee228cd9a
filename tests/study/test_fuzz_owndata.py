"""Fuzz the own-data setup entry point with generated bad inputs (issue 24): bad headers, columns
named twice, a header repeated inside, three classes, one class, missing labels, empty files,
binary junk, damaged gzip/parquet/ARFF, wrong separators, bad YAML types, missing folders.

Each case goes through what the workflow runs before any job, in-process: the schema check
(:func:`prspace.study.study_config.prepare_config`) and the setup check
(:func:`prspace.study.setup_check.check_setup`); and ``prspace list-datasets`` through
:func:`prspace.cli.main`.  The contract: no exception other than :class:`InputError` escapes, every
bad input gives at least one problem, every problem is one line naming a config key and ending
with a fix, ``list-datasets`` exits 0 or 2, and nothing is written in the study's folder.  A few
cases run the command line in a subprocess: no traceback reaches the user.
"""

from __future__ import annotations

import gzip
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from prspace.cli import main
from prspace.core.errors import InputError
from prspace.study.setup_check import check_setup
from prspace.study.study_config import prepare_config

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
N_CASES = 160
#: words of which a fix line holds at least one
FIX_WORDS = ("rename", "remove", "delete", "quote", "set ", "give", "put ", "add ", "name ", "check",
             "recode", "save", "lower", "write", "fix", "choose", "move", "close", "available:", "known:",
             "e.g.")


def _good_rows(rng: random.Random, n: int = 60, sep: str = ",", labels=("yes", "no")) -> str:
    return "".join(f"{rng.random():.6f}{sep}{rng.randint(0, 9)}{sep}{labels[0] if i % 3 else labels[1]}\n"
                   for i in range(n))


def _bad_file(rng: random.Random, kind: str) -> tuple[str, bytes]:
    """(file name, content) of one bad data file; the class column is ``label``."""
    good = _good_rows(rng)
    if kind == "dup_target":
        return "d.csv", ("a,label,label\n" + good.replace(",yes", ",yes,x").replace(",no", ",no,y")).encode()
    if kind == "dup_feature":
        return "d.csv", ("a,a,label\n" + good).encode()
    if kind == "header_repeated":
        lines = good.splitlines(keepends=True)
        k = rng.randint(1, len(lines) - 1)
        return "h.csv", ("a,b,label\n" + "".join(lines[:k] + ["a,b,label\n"] + lines[k:])).encode()
    if kind == "three_classes":
        rows = "".join(f"{i},{rng.random():.3f},{rng.choice('abc') if i > 2 else 'abc'[i]}\n" for i in range(60))
        return "t.csv", ("a,b,label\n" + rows).encode()
    if kind == "one_class":
        return "o.csv", ("a,b,label\n" + "".join(f"{i},{i % 7},yes\n" for i in range(40))).encode()
    if kind == "nan_labels":
        return "n.csv", ("a,b,label\n" + "".join(f"{i},{i % 7},\n" for i in range(40))).encode()
    if kind == "few_minority":
        return "f.csv", ("a,b,label\n" + "".join(f"{i},{i % 7},{'no' if i < 3 else 'yes'}\n" for i in range(40))).encode()
    if kind == "empty":
        return "e.csv", b""
    if kind == "header_only":
        return "e.csv", b"a,b,label\n"
    if kind == "binary_junk":
        return rng.choice(["j.csv", "j.parquet", "j.arff", "j.csv.gz", "j.arff.gz"]), rng.randbytes(rng.randint(1, 400))
    if kind == "bad_gzip":
        blob = gzip.compress(("a,b,label\n" + good).encode())
        return "g.csv.gz", blob[: rng.randint(5, len(blob) - 5)]
    if kind == "wrong_sep":
        return "w.csv", ("a|b|label\n" + _good_rows(rng, sep="|")).encode()
    if kind == "no_target":
        return "x.csv", ("a,b,klass\n" + good).encode()
    if kind == "ragged":
        return "r.csv", ("a,b,label\n" + good + "1,2,3,4,5,6\n" * rng.randint(1, 3)).encode()
    if kind == "arff_bad":
        return "a.arff", ("@relation r\n@attribute a numeric\n@attribute label {yes,no}\n@data\n"
                          + "".join(f"{i},'yes\n" for i in range(20))).encode()
    if kind == "arff_dup":
        return "a.arff", ("@relation r\n@attribute label numeric\n@attribute label {yes,no}\n@data\n"
                          + "".join(f"{i},yes\n" for i in range(20))).encode()
    raise AssertionError(kind)


FILE_KINDS = ["dup_target", "dup_feature", "header_repeated", "three_classes", "one_class", "nan_labels",
              "few_minority", "empty", "header_only", "binary_junk", "bad_gzip", "wrong_sep", "no_target",
              "ragged", "arff_bad", "arff_dup"]
#: bad YAML values of the local section (the data folder holds one good file)
YAML_KINDS = [
    "pos_label: yes", "pos_label: no", "pos_label: on", "pos_label: 1.50", "pos_label: [a, b]",
    "pos_label: {a: 1}", "target: yes", "target: 3", "target: [label]", "data_dir: 12",
    "data_dir: true", "data_dir: nowhere", "data_dir: empty", "folds: five", "folds: 1",
    "min_minority: -3", "datasets: [user-nope]", "datasets: user-a", "learners: foo",
    "pos_label: maybe", "target: ''",
]


def _case(seed: int) -> tuple[str, str]:
    rng = random.Random(seed)
    if seed % 3 == 2:
        return "yaml", YAML_KINDS[rng.randrange(len(YAML_KINDS))]
    return "file", FILE_KINDS[rng.randrange(len(FILE_KINDS))] if seed >= len(FILE_KINDS) else FILE_KINDS[seed]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _setup(tmp: Path, seed: int) -> tuple[str, dict]:
    """Write one case's files; return (kind, config as YAML would load it)."""
    rng = random.Random(seed)
    what, kind = _case(seed)
    data = tmp / "data"
    data.mkdir()
    (tmp / "empty").mkdir()
    local = "  data_dir: data\n  target: label\n  learners: gnb\n  folds: 3\n"
    if what == "file":
        name, blob = _bad_file(rng, kind)
        (data / name).write_bytes(blob)
    else:
        (data / "a.csv").write_text("a,b,label\n" + _good_rows(rng))
        key = kind.split(":")[0]
        local = "".join(line + "\n" for line in local.splitlines() if not line.strip().startswith(key + ":"))
        local += f"  {kind}\n"
    text = f"study: fuzz\nsource: local\nseed: 0\nlocal:\n{local}"
    return kind, yaml.safe_load(text)


def _problems(cfg: dict, workdir: Path) -> list[str]:
    """What the workflow says before any job: the schema check's lines (their fix is the message's
    last line; a boolean or number for a text key gets its own "quote it"), else the setup check's."""
    try:
        prepare_config(cfg, SCHEMA)
    except InputError as exc:
        lines = str(exc).splitlines()
        assert lines[-1].startswith("Fix the key(s) named above"), lines
        return [line.strip() + "; fix it" for line in lines[1:-1]]
    from snakemake.utils import validate

    validate(cfg, str(SCHEMA))  # the defaults, as the workflow fills them in
    return check_setup(cfg, workdir=workdir)


@pytest.mark.parametrize("seed", range(N_CASES))
def test_bad_own_data_is_one_line_with_the_fix(tmp_path, seed, capsys):
    kind, cfg = _setup(tmp_path, seed)
    before = _snapshot(tmp_path)
    problems = _problems(cfg, tmp_path)
    assert problems, f"{kind}: a bad input passed the checks"
    for line in problems:
        assert "\n" not in line and line.startswith("config key "), (kind, line)
        tail = line.rsplit(";", 1)[-1].lower() if ";" in line else line.lower()
        assert any(w in tail or w in line.lower() for w in FIX_WORDS), (kind, line)
        assert "Traceback" not in line and "np.float64" not in line, (kind, line)
    # list-datasets on the same folder: exit 0 (each unusable file with its reason) or 2 (one line)
    local = cfg["local"]
    if isinstance(local.get("data_dir"), str) and isinstance(local.get("target"), str) and local["target"]:
        out = tmp_path / "listing" / "tasks.csv"
        code = main(["list-datasets", "--data-dir", str(tmp_path / local["data_dir"]), "--target", local["target"],
                     "--out", str(out)])
        err = capsys.readouterr().err
        assert code in (0, 2), (kind, err)
        if code == 2:
            assert err.count("\n") == 1 and "error:" in err and not out.exists(), (kind, err)
            (tmp_path / "listing").exists() and (tmp_path / "listing").rmdir()
        else:
            out.unlink()
            (tmp_path / "listing").rmdir()
    assert _snapshot(tmp_path) == before, f"{kind}: something was written"


@pytest.mark.parametrize("seed", [0, 3, 9])  # dup_target, three_classes, binary junk as a subprocess
def test_the_command_line_never_shows_a_traceback(tmp_path, seed):
    kind, cfg = _setup(tmp_path, seed)
    res = subprocess.run(
        [sys.executable, "-m", "prspace", "list-datasets", "--data-dir", str(tmp_path / "data"), "--target", "label"],
        capture_output=True, text=True, timeout=120)
    assert res.returncode in (0, 2), res.stderr
    assert "Traceback" not in res.stdout + res.stderr, kind
    if res.returncode == 0:
        assert "not usable:" in res.stdout, (kind, res.stdout)
