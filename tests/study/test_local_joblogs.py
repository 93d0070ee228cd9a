"""A failed job's own message, found in its log for the console (issue 15, item 2)."""

from __future__ import annotations

import os
import time

from prspace.study.joblogs import job_errors, print_job_errors


def test_the_jobs_own_line_is_found_and_old_logs_are_ignored(tmp_path, capsys):
    logs = tmp_path / "logs"
    (logs / "predict").mkdir(parents=True)
    (logs / "predict" / "user-a.log").write_text(
        "09:00:01 INFO prspace.predict_local: loading\n"
        "prspace predict-local: error: a.csv has no column 'class'; name the class column with --target\n")
    (logs / "score").mkdir()
    (logs / "score" / "t.log").write_text(
        "Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nZeroDivisionError: division by zero\n")
    (logs / "ok.log").write_text("09:00:01 INFO prspace: wrote 3 tables\n")
    (logs / "interrupted.log").write_text("prspace score task: interrupted; finished outputs are kept\n")
    old = logs / "old.log"
    old.write_text("prspace rank: error: from an earlier run\n")
    past = time.time() - 3600
    os.utime(old, (past, past))

    found = job_errors(logs, since=time.time() - 60)
    assert found == [
        f"{logs / 'interrupted.log'}: prspace score task: interrupted; finished outputs are kept",
        f"{logs / 'predict' / 'user-a.log'}: prspace predict-local: error: a.csv has no column 'class'; "
        "name the class column with --target",
        f"{logs / 'score' / 't.log'}: ZeroDivisionError: division by zero",
    ]
    print_job_errors(logs, since=time.time() - 60)
    err = capsys.readouterr().err
    assert "what the failed job(s) said" in err and err.count("\n  ") == 3
    print_job_errors(tmp_path / "nowhere")
    assert capsys.readouterr().err == ""
