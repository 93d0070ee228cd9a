"""The command line: every command described, every option helped, and no traceback
anywhere a user can reach (issue 15, items 4 and 7).

The fuzz test drives every sub-command with random and malformed arguments and files
(hypothesis) through :func:`prspace.cli.main`, the single place where failures become
messages, and asserts the documented contract: exit status 0, 2 (bad input or usage) or
130, one ``prspace ...: error:`` line, never a traceback and never an internal error.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prspace.cli import _message, build_parser, main
from prspace.cli import step as S
from prspace.core.errors import InputError
from prspace.data import datasets


def _leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(command path, parser) of every (sub-)command, parents included."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _leaves(sub, (*path, name))


PARSER = build_parser()
COMMANDS = [(path, p) for path, p in _leaves(PARSER) if path]
STEP_COMMANDS = {name: S._step_function(name) for name in S.STEPS}
LEAVES = [
    (path, p) for path, p in COMMANDS
    if not any(isinstance(a, argparse._SubParsersAction) for a in p._actions)
]


def test_every_command_is_described_and_every_option_helped():
    assert {"audit", "boyd", "figure", "list-datasets", "predict-local", "step",
            "table-html", "fetch-openml"} <= {path[0] for path, _ in COMMANDS}
    missing = []
    for path, p in COMMANDS:
        name = " ".join(path)
        if not (p.description or "").strip():
            missing.append(f"{name}: no description")
        if re.search(r"``|:(mod|func|class|data):`", p.description or ""):
            missing.append(f"{name}: raw reStructuredText in the description")
        for a in p._actions:
            if isinstance(a, (argparse._HelpAction, argparse._VersionAction, argparse._SubParsersAction)):
                continue
            if not (a.help or "").strip():
                missing.append(f"{name} {'/'.join(a.option_strings) or a.dest}: no help")
    assert missing == []


def test_help_of_every_command_prints_and_exits_0(capsys):
    for path, _ in COMMANDS:
        assert main([*path, "--help"]) == 0, path
        out = capsys.readouterr().out
        assert out.startswith("usage: prspace " + " ".join(path))
    assert "learner panel" in main_help("predict-local", capsys) and "mlp-16" in main_help("predict-local", capsys)


def main_help(command: str, capsys) -> str:
    main([command, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_boyd_help_is_plain_text(capsys):
    text = main_help("boyd", capsys)
    assert "``" not in text and "downsample" in text and "prspace step" in text


# ------------------------------------------------------------------------------- the fuzz


@pytest.fixture(scope="module")
def junk(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("junk")
    files = {
        "empty.csv": b"",
        "garbage.bin": bytes(range(256)) * 4,
        "header.csv": b"a,b,c\n",
        "wrong.csv": b"task_id,model_id,score\nt,m,notanumber\n",
        "semicolon.csv": b"task_id;model_id;y_true;score\nt;m;1;0.5\n",
        "bad.json": b"{not json",
        "list.json": b"[1, 2, 3]",
        "bad.parquet": b"PAR1 not really parquet",
        "bad.arff": b"@relation r\n@attribute x numeric\n@data\n1,2\n",
        "latin1.csv": "caf\xe9,label\n1,x\n".encode("latin-1"),
    }
    paths = {}
    for name, blob in files.items():
        (d / name).write_bytes(blob)
        paths[name] = d / name
    status = d / "status.json"
    status.write_text(json.dumps({"task_id": "t", "status": "ok", "predictions": str(d / "nowhere.parquet")}))
    paths["status.json"] = status
    (d / "folder").mkdir()
    paths["folder"] = d / "folder"
    paths["missing"] = d / "missing" / "file.csv"
    paths["out"] = d / "out" / "result.csv"
    paths["forbidden"] = Path("/proc/forbidden/out.csv")
    return paths


_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12
)
_VALUES = st.one_of(
    _TEXT,
    st.integers(-5, 10**6).map(str),
    st.sampled_from(["", "-1", "0", "nan", "inf", "1e309", "a,b", "default", "small", "all", "auto",
                     "png,pdf", "aupr,auprg", "keel-nope", "user-x", "openml-1", "0.5", "--help"]),
)


def _argv(data, path: tuple[str, ...], parser: argparse.ArgumentParser, junk: dict[str, Path]) -> list[str]:
    options = [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]
    files = st.sampled_from(sorted(str(p) for p in junk.values()))
    argv = list(path)
    chosen = data.draw(st.lists(st.sampled_from(options), max_size=8), label="options") if options else []
    # usually give the required options, so the command gets past argparse to its files
    if data.draw(st.booleans(), label="with required"):
        chosen = [a for a in options if a.required] + chosen
    for a in chosen:
        argv.append(data.draw(st.sampled_from(a.option_strings)))
        if a.nargs == 0:
            continue
        n = a.nargs if isinstance(a.nargs, int) else data.draw(st.integers(1, 2))
        for _ in range(n):
            argv.append(data.draw(st.one_of(files, files, _VALUES)))
    if data.draw(st.integers(0, 9)) == 0:
        argv.append(data.draw(_VALUES, label="stray"))
    if path[0] == "fetch-openml":  # never wait for a network: a closed port, no retries
        argv += ["--server", "http://127.0.0.1:9/api/v1/xml", "--max-retries", "0", "--timeout", "1",
                 "--backoff", "0", "--cache-dir", str(junk["out"].parent / "cache")]
    return argv


_LOAD_DATASET = datasets.load_dataset
_LOADED: dict[str, object] = {}


def _load_embedded_once(task_id: str, **kwargs):
    """``load_dataset`` with each embedded dataset loaded once per worker: ``list-datasets`` describes a whole
    suite (every dataset loaded, ~1 CPU s) in each example that gets past argparse; the datasets are frozen
    and the same every time, and what the command does with them is unchanged.  Calls with options (your own
    files) and failures are not remembered."""
    if kwargs or task_id.startswith("user-"):
        return _LOAD_DATASET(task_id, **kwargs)
    if task_id not in _LOADED:
        _LOADED[task_id] = _LOAD_DATASET(task_id)
    return _LOADED[task_id]


@pytest.mark.parametrize("path", [p for p, _ in LEAVES], ids=lambda p: "-".join(p))
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_traceback_escapes(path, data, junk, capsys, monkeypatch, tmp_path_factory):
    monkeypatch.chdir(junk["folder"])
    monkeypatch.setattr(datasets, "load_dataset", _load_embedded_once)
    parser = dict(LEAVES)[path]
    argv = _argv(data, path, parser, junk)
    status = main(argv)
    out, err = capsys.readouterr()
    shown = f"prspace {' '.join(argv)!r} -> {status}\n{err[-2000:]}"
    assert "Traceback" not in err and "Traceback" not in out, shown
    assert status in (0, 2, 130), shown  # 1 would be an internal error (a bug)
    if status == 2 and "--help" not in argv:  # one error line names the problem
        errors = [ln for ln in err.split("\n") if re.match(r"prspace[\w -]*: error: ", ln)]
        assert len(errors) == 1, shown


_JSON = st.one_of(st.integers(-3, 10**4).map(str), st.sampled_from(
    ["", "1e", "0.5", "true", "null", "[]", '"aupr"', '["aupr", "auroc"]', "[1, 2]", "{", "nan", "-1", '"x"']), _TEXT)


@pytest.mark.parametrize("name", sorted(STEP_COMMANDS), ids=str)
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_the_step_command_never_shows_a_traceback(name, data, junk, capsys, monkeypatch):
    """``prspace step``: unknown, missing or repeated roles, settings that are not JSON or not of
    their type, junk files: exit 2 with one error line (or 0), never a traceback or status 1."""
    monkeypatch.chdir(junk["folder"])
    fn = STEP_COMMANDS[name]
    roles = sorted(S._role_kinds(fn)[0]) + ["junk"]
    keys = [k for k in inspect.signature(fn).parameters if k != "inputs"] + ["junk"]
    files = st.sampled_from(sorted(str(p) for p in junk.values()))
    argv = ["step", data.draw(st.sampled_from([name, name, name, "nope"]))]
    for role in data.draw(st.lists(st.sampled_from(roles), max_size=len(roles) + 1)):
        argv += ["--in", f"{role}={data.draw(files)}", *data.draw(st.lists(files, max_size=1))]
    for key in data.draw(st.lists(st.sampled_from(keys), max_size=len(keys) + 1)):
        argv += ["--set", f"{key}={data.draw(_JSON)}"]
    for option in ("--tables-dir", "--figure-data-dir"):
        if data.draw(st.booleans()):
            argv += [option, str(junk["out"].parent)]
    if data.draw(st.integers(0, 4)) == 0:
        argv += ["--out", f"{data.draw(st.sampled_from(roles))}={junk['out']}"]
    status = main(argv)
    out, err = capsys.readouterr()
    shown = f"prspace {' '.join(argv)!r} -> {status}\n{err[-2000:]}"
    assert "Traceback" not in err + out and status in (0, 2), shown
    if status == 2:
        assert len([ln for ln in err.split("\n") if ln.startswith("prspace step: error: ")]) == 1, shown


def test_internal_errors_are_one_line_with_status_1():
    message, status = _message(ZeroDivisionError("division by zero"))
    assert status == 1 and "internal error" in message and "-v" in message
    assert _message(InputError("bad; fix it")) == ("bad; fix it", 2)
    assert _message(FileNotFoundError(2, "No such file or directory", "x.csv"))[1] == 2


def test_verbose_prints_the_traceback_for_a_bug_report(monkeypatch, capsys):
    import prspace.cli.table_html as th

    def boom(args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(th, "run", boom)
    argv = ["table-html", "--table", "a", "b", "c"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error (ZeroDivisionError: boom)" in err
    assert main(["-v", *argv]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_ctrl_c_is_one_line_with_status_130(monkeypatch, capsys):
    import signal

    import prspace.cli.table_html as th

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(th, "run", interrupted)
    previous = signal.getsignal(signal.SIGINT)
    try:
        assert main(["table-html", "--table", "a", "b", "c"]) == 130
    finally:
        signal.signal(signal.SIGINT, previous)
    err = capsys.readouterr().err
    assert err.strip() == "prspace table-html: interrupted; finished outputs are kept, half-written ones removed"


def test_table_html_prints_counts_as_integers(tmp_path):
    """The scorecard mixes counts (886 tasks) with shares (0.24) in one column."""
    (tmp_path / "s.csv").write_text("statistic,paper,this_run,n_tasks\ntasks,886,61,3\ntop-1,0.24,0.5,\n"
                                    "exact,1,1,2\n")
    assert main(["table-html", "--table", str(tmp_path / "s.csv"), str(tmp_path / "s.html"), "T"]) == 0
    page = (tmp_path / "s.html").read_text()
    assert "<td>886</td>" in page and "<td>61</td>" in page and "886.0000" not in page
    assert "<td>0.2400</td>" in page and "<td>1.000</td>" in page  # 4 significant digits; a share of 1 stays a share
    assert "<td>3</td>" in page and "<td>2</td>" in page  # a count column with a gap


def test_workflow_interrupt_handler_stops_once_then_says_so_once():
    """prspace.study.interrupts, installed by the workflow: the first Ctrl-C interrupts, later ones print
    one line (once) naming how to quit at once, and never raise."""
    import subprocess
    import sys

    code = (
        "import os, signal, time\n"
        "from prspace.study.interrupts import install_workflow_interrupt_handler\n"
        "assert install_workflow_interrupt_handler()\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT); time.sleep(1)\n"
        "    print('not interrupted')\n"
        "except KeyboardInterrupt:\n"
        "    print('first: KeyboardInterrupt')\n"
        "for _ in range(3):\n"
        "    os.kill(os.getpid(), signal.SIGINT); time.sleep(0.1)\n"
        "print('survived', signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split("\n")[:2] == ["first: KeyboardInterrupt", "survived True"]
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prspace workflow: already stopping"), res.stderr
    import re

    assert re.search(r"to quit at once instead: kill \d+, then snakemake --unlock\)$", lines[0]), lines[0]
