"""The generated pages: the answer first in words, the primary-claims table, the implementation
line, this project's analyses apart, a user's own data first, the sensitivity table, and the
glossary that defines every word they use. Inputs: the fake study of ``_fake_study`` (the verdict
rule's interface) and the committed tables of both studies."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import _fake_study as F
from prspace.cli import main
from prspace.core import claims as REG
from prspace.verdicts import pagedata as PD
from prspace.verdicts import report as VR
from prspace.verdicts import sentences as S
from prspace.verdicts import verdict_labels as L
from prspace.verdicts.pagedata import load_study, normalise

ROOT = Path(__file__).resolve().parents[2]
STUDIES = ("default", "paperlike")
IDS = [f"t{i:02d}" for i in range(12)]
FAMILIES = [f"f{i // 2}" for i in range(12)]
PIS = list(np.linspace(0.02, 0.5, 12))
SIZES = {"aupr": [1, 2, 2, 3, 4, 4, 1, 3, 3, 2, 4, 4], "auprg": [4] * 11 + [1], "auroc": [1] * 7 + [2] * 5}


def _study(tmp_path: Path, name: str = "paperlike", **kw) -> object:
    t = tmp_path / name / "tables"
    F.write(t, ids=kw.pop("ids", IDS), pis=kw.pop("pis", PIS), families=kw.pop("families", FAMILIES),
            best_sizes=kw.pop("best_sizes", SIZES), **kw)
    return load_study(name, t)


def _words(sentence: str) -> int:
    return len(sentence.split())


def _ci(e: float, lo: float, hi: float, d: int) -> str:
    return f"{e:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"


def test_the_answer_carries_the_fixture_numbers(tmp_path):
    s = _study(tmp_path)
    said = S.answer([s])
    assert 1 <= len(said) <= S.MAX_SENTENCES
    assert all(_words(x) <= S.MAX_WORDS for x in said)
    same, size, noise, sens = said
    # "as different as": each difference with its interval and its outcome in plain words
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.top1"]
    assert f"best model {_ci(e, lo, hi, 2)} (differs)" in same
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.top3"]
    assert f"top three {_ci(e, lo, hi, 2)} (undecided)" in same
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.spearman"]
    assert f"rank correlation {_ci(e, lo, hi, 3)} (differs)" in same
    # what the data can decide: the decided count, the median task families of the undecided rows' families_80
    # (a row too close to call is undecided, and says so)
    undecided = [i for i, cid in enumerate(F.PRIMARY) if cid.startswith("fk.") and F.PRIMARY[cid][4].startswith("inconclusive")]
    border = [c for c in F.PRIMARY if c.startswith("fk.") and F.PRIMARY[c][4].startswith("borderline")]
    need = np.median([200 + 100 * i for i in undecided])
    n_fk = len([c for c in F.PRIMARY if c.startswith("fk.")])
    assert (f"{n_fk - len(undecided) - len(border)} of {n_fk} decided at {s.verdicts.n_families.max():.0f} task families "
            f"({len(border)} too close to call, not counted)") in size
    assert f"undecided need a median of {int(need)} task families" in size
    # noise: cross-vs-self excess with interval, and the median plausible-best set size per metric
    for p in S.PAIRS:
        _, e, lo, hi, *_ = F.EXPLORATORY[f"px.{p}.top1.cross_vs_self"]
        assert _ci(e, lo, hi, 2) in noise
    typical = ", ".join(f"{np.median(SIZES[m]):.0f} ({L.METRIC_LABELS[m]})" for m in ("aupr", "auprg", "auroc"))
    assert f"on a typical task {typical} of 4 models could be the best" in noise
    # sensitivity: two of the three claims keep their verdict in all four variants (no variant named: their
    # names are the tables' words)
    assert sens == ("Recomputed on other selections of the tasks and learners (findings.md names them): 2 of 3 verdicts "
                    "stay the same in all 4 (those that change: AUPR-AUROC best model).")


#: The outcome each fake verdict says, told by hand from the rule's words (the oracle of the plain vocabulary).
_PLAIN = (("equivalent", "replicates"), ("different, beyond the margin: holds", "holds"), ("different: holds", "holds"),
          ("different: contradicted", "does not hold"), ("different, beyond the margin", "differs beyond margin"),
          ("different", "differs"), ("inconclusive", "undecided"), ("borderline", "too close to call"))


def _told(verdict: str) -> str:
    return next(short for start, short in _PLAIN if verdict.startswith(start))


def _tally(ids: list[str], *, compact: bool = False) -> str:
    said = [_told(F.PRIMARY[i][4]) for i in ids]
    if compact:  # the abstract counts "differs beyond margin" as "differs"
        said = ["differs" if k == "differs beyond margin" else k for k in said]
    one = {"replicates": "replicates", "holds": "holds", "differs beyond margin": "differs beyond the margin",
           "differs": "differs", "does not hold": "does not hold", "undecided": "undecided",
           "too close to call": "too close to call"}
    many = {**one, "replicates": "replicate", "holds": "hold", "differs beyond margin": "differ beyond the margin",
            "differs": "differ", "does not hold": "do not hold"}
    return ", ".join(f"{said.count(k)} {(many if said.count(k) > 1 else one)[k]}" for k in L.SHORT_LABELS if said.count(k))


def test_the_abstract_says_what_ran_what_replicated_and_what_would_decide(tmp_path):
    s = _study(tmp_path)
    ab = S.abstract([s])
    assert 1 <= len(ab) <= 3
    ran, fk, boyd = ab
    assert ran == "One offline study (12 tasks, 4 learners) reruns both papers."
    # the headline pair's outcomes in plain words, each a predicate
    assert fk.startswith("Flach & Kull's headline: top-1 replicates, top-3 is undecided;")
    fk_ids = [i for i in REG.primary_ids() if i.startswith("fk.")]
    assert f" of {len(fk_ids)} claims, {_tally(fk_ids, compact=True)} (" in fk
    boyd_ids = [i for i in REG.primary_ids() if i.startswith("boyd.")]
    assert boyd.startswith(f"Boyd et al.'s {len(boyd_ids)}: {_tally(boyd_ids, compact=True)}")
    # what would decide the rest: the median families_80 of Flach & Kull's undecided rows
    need = np.median([200 + 100 * i for i, c in enumerate(F.PRIMARY) if c.startswith("fk.")
                      and F.PRIMARY[c][4].startswith("inconclusive")])
    assert fk.endswith(f" (about {L.about(need)} task families would decide the rest).")
    assert S._said("undecided") == "is undecided" and S._said("differs") == "differs"


def test_one_table_holds_every_primary_claim_with_checks_apart(tmp_path):
    checks = {"boyd.sec4_3.aupr_rises": True, "boyd.sec4_3.aucnpr_still_moves": True}
    studies = [_study(tmp_path, n, extra_columns={"by_construction": checks}) for n in STUDIES]
    lines = S.claims_table(studies)
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in _body_rows("\n".join(lines))]
    titles = [r for r in rows if r[0].startswith("**")]
    groups = [r for r in rows if not r[0].startswith("**") and not any(r[1:])]
    claims = [r for r in rows if r not in titles and r not in groups]
    assert [t[0].split("**")[1] for t in titles] == ["Flach & Kull", "Boyd et al."]
    # Flach & Kull's claims under a title row per pair of metrics; a group of one claim is named by its title
    members = {g: [c for c in REG.primary_ids() if S.table_group(c) == g] for g in S.TABLE_GROUPS.values()}
    assert [g[0] for g in groups] == [f"*{g}*" for g, m in members.items() if len(m) > 1]
    # every claim a row but the checks by arithmetic, which share one row, last
    assert len(claims) == len(REG.primary_ids()) - len(checks) + 1
    v = studies[0].verdicts.set_index("claim_id")
    by_name, group = {}, None
    for r in rows:
        group = r[0].strip("*") if r in groups else None if r in titles or r[0].startswith("*") else group
        by_name[(group, r[0])] = r
    for cid in [c for c in REG.primary_ids() if c not in checks]:
        g = S.table_group(cid)
        alone = g is not None and len(members[g]) == 1
        r = by_name[(None, f"*{g}*") if alone else (g, S.row_name(cid, studies))]
        x = {**v.loc[cid], "claim_id": cid}
        dagger = S.DAGGER if cid == "boyd.sec4_1.averaging_optimistic" else ""  # [0.05, 0.12] excludes 0, undecided
        assert r[2] == r[3] == S.range_cell(L.value_cell(x)) + dagger
        assert r[4] == _told(F.PRIMARY[cid][4])
    last = claims[-1]
    assert last[0] == "checks: " + ", ".join(L.table_name(c) for c in REG.primary_ids() if c in checks)
    said = {L.short_outcome({**v.loc[c], "claim_id": c}) for c in checks}
    assert last[4] == ("hold" if said == {"check"} else last[4]) and last[4].strip()
    assert any(S.DAGGER_NOTE in ln and ln.startswith(S.CELL_NOTE) for ln in lines)
    # Boyd 4.1's finding said in its row: by how much the fold means fall below, mildest to widest dispersion
    (b0, *_), (b1, *_) = F.FOLD_SKEW[0.25], F.FOLD_SKEW[0.9]
    assert S.row_name("boyd.sec4_1.averaging_optimistic", studies) == \
        f"folds optimistic (fold means {abs(b0):.3f}–{abs(b1):.3f} below merged AUPR)"
    boyd = S.abstract(studies)[2]
    assert "2 checks hold" in boyd and "4 hold," in boyd


def test_boyd_4_1_says_what_the_data_show(tmp_path):
    s = _study(tmp_path)
    said = S.boyd_sentence([s])
    (b0, l0, h0), (b1, l1, h1) = F.FOLD_SKEW[0.25], F.FOLD_SKEW[0.9]
    assert (f"fold means fall below the merged AUPR by {-b0:.3f} [{-h0:.3f}, {-l0:.3f}] at d = 0.25 to "
            f"{-b1:.3f} [{-h1:.3f}, {-l1:.3f}] at d = 0.9") in said
    share, n = F.PRIMARY["boyd.sec4_1.averaging_optimistic"][0], len(IDS)
    assert f"at most {round(share * n)} of {n} tasks" in said and "Jensen" in said
    # the project's own rows, when the verdict table has them, say the gap instead of the summary table
    # (their estimate is the signed gap, below 0 when below; the widest dispersion's row has no suffix and names
    # its dispersion in its claim)
    own = s.verdicts[s.verdicts["claim_id"] == "px.boyd.sec4_2.order_changes"]
    own = pd.concat([own.assign(claim_id=cid, claim=f"... at fold-skew dispersion d = {d} (...)", estimate=e, ci_lo=lo,
                                ci_hi=hi)
                     for cid, d, e, lo, hi in (("px.boyd.sec4_1.fold_mean_below_merged_d0.3", 0.3, -0.011, -0.013, -0.009),
                                               ("px.boyd.sec4_1.fold_mean_below_merged", 0.8, -0.061, -0.070, -0.052))])
    s.verdicts = normalise(pd.concat([s.verdicts, own], ignore_index=True))
    assert "below the merged AUPR by 0.011 [0.009, 0.013] at d = 0.3 to 0.061 [0.052, 0.070] at d = 0.8" in \
        S.boyd_sentence([s])


def test_trust_cites_the_procedures_coverage_and_the_rows_short_of_the_level(tmp_path):
    """With the whole procedure's coverage, trust cites it (not the oracle's, near 95% by construction) and
    counts the rows short of 95% by more than two MC SE; without it, the oracle's, named as such."""
    s = _study(tmp_path)
    cov = VR.primary(s.verdicts)["coverage"]
    v = s.verdicts.drop(columns=["procedure_coverage", "procedure_coverage_mc_se"], errors="ignore")
    s.verdicts = normalise(v)
    said = S.trust_sentence([s])
    assert f"covered the truth in {cov.min():.3f} to {cov.max():.3f} of simulated studies (20,000+ each)" in said
    assert "its level corrected on the population (the whole procedure not simulated)" in said
    v = v.copy()
    v["procedure_coverage"] = np.where(v["role"] == "primary", 0.95, np.nan)
    v["procedure_coverage_mc_se"] = np.where(v["role"] == "primary", 0.01, np.nan)
    first, second = (v["role"] == "primary").to_numpy().nonzero()[0][:2]
    v.loc[first, "procedure_coverage"] = 0.929  # 0.929 + 2 * 0.01 < 0.95: short
    v.loc[second, "procedure_coverage"] = 0.931  # 0.931 + 2 * 0.01 > 0.95: within its MC error
    s.verdicts = normalise(v)
    said = S.trust_sentence([s])
    n = len(VR.primary(s.verdicts))
    assert "covered the truth in 0.929 to 0.950 of simulated studies that rerun the whole procedure" in said
    assert f"; 1 of {n} rows fall short of 95% by more than two Monte Carlo errors" in said
    assert "level corrected on the population" not in said


def test_outcomes_are_said_in_one_plain_vocabulary(tmp_path):
    """plain_outcome begins with short_outcome (the forest plot's label, its "beyond margin" said at the end), says
    the rule's outcome and no other,
    and uses none of the coded words; the verdict table is not changed by the words."""
    tables = [_study(tmp_path).verdicts] + [load_study(n, ROOT / "results" / n / "tables").verdicts for n in STUDIES]
    said = {"equivalent": {"replicates", "does not hold"}, "different": {"differs", "holds", "does not hold"},
            "different, beyond the margin": {"differs beyond margin", "holds", "does not hold"},
            "different, by less than the margin": {"differs"}, "inconclusive": {"undecided"},
            "borderline": {"too close to call"}, "": {"undecided"}}
    for v in tables:
        for _, r in VR.primary(v).iterrows():
            short, plain = L.short_outcome(r), L.plain_outcome(r)
            if str(r.get("by_construction", "")).lower() == "true":  # a check of the implementation (issue 80.7)
                assert short == "check" and plain.startswith("check"), (r["claim_id"], plain)
                continue
            # the phrase begins with the label ("differs ..., beyond the margin" for "differs beyond margin")
            assert short in L.SHORT_LABELS and plain.startswith(short.replace(" beyond margin", "")), (r["claim_id"], plain)
            if short.startswith("differs"):
                assert ("beyond the margin" in plain) == (short == "differs beyond margin"), plain
            assert short in said[str(r["outcome"]) if r["outcome"] == r["outcome"] else ""], (r["claim_id"], short)
            assert not CODED.search(plain), plain
            if short == "undecided" and np.isfinite(float(r.get("families_80", np.nan))):
                n = float(re.search(r"about ([\d,]+) task families would decide", plain).group(1).replace(",", ""))
                assert abs(n - float(r["families_80"])) <= 0.05 * float(r["families_80"])
            assert ("not after Holm's correction" in plain) == L.excluded_not_decided(r)


def test_without_a_sensitivity_table_the_answer_says_nothing_of_it(tmp_path):
    s = _study(tmp_path, with_sensitivity=False)
    said = S.answer([s])
    assert len(said) == 3 and not any("selections" in x for x in said)
    findings = VR.findings_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=tmp_path / s.name / "tables")
    assert "How robust" not in findings


def test_sensitivity_is_rendered_in_findings(tmp_path):
    s = _study(tmp_path)
    text = VR.findings_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=tmp_path / s.name / "tables")
    sec = text[text.index("## How robust"):]
    sec = sec[: sec.index("\n## ")]
    rows = _body_rows(sec)
    assert len(rows) == len(F.sensitivity())
    assert sum(ln.endswith("| no |") for ln in rows) == 1
    assert "2 verdict(s) stay the same in every variant" in sec


@pytest.mark.parametrize("which", [("default",), ("paperlike",), STUDIES])
def test_the_answer_is_short_on_the_committed_studies(which):
    studies = [load_study(n, ROOT / "results" / n / "tables") for n in which]
    said = S.answer(studies)
    assert 3 <= len(said) <= S.MAX_SENTENCES
    long = [(x, _words(x)) for x in said if _words(x) > S.MAX_WORDS]
    assert not long, long


def _body_rows(text: str) -> list[str]:
    """The body rows of every Markdown table in ``text`` (no header, no separator)."""
    lines = text.splitlines()
    sep = [i for i, ln in enumerate(lines) if re.match(r"^\|( ?-+ ?\|)+$", ln.replace(" ", ""))]
    skip = set(sep) | {i - 1 for i in sep}
    return [ln for i, ln in enumerate(lines) if ln.startswith("|") and i not in skip]


def _table_after(text: str, start: str, stop: str) -> list[list[str]]:
    part = text[text.index(start): text.index(stop)]
    return [[c.strip() for c in ln.strip().strip("|").split(" | ")] for ln in _body_rows(part)]


def test_only_registry_claims_stand_under_a_paper(tmp_path):
    s = _study(tmp_path)
    v = s.verdicts.copy()
    # an old-style row that names a paper but is not the registry's (this project's counterfactual)
    extra = v[v["claim_id"] == "px.aupr_auprg.top1.skew_trend"].assign(
        claim_id="fk.aupr_auprg.top1.at_paperlike_pi_distribution", paper="flach-kull-2015", role="",
        paper_value=0.24)
    v = pd.concat([v, extra], ignore_index=True)
    text = VR.summary_markdown(v, study=s.name, tasks=s.tasks)
    rows = _table_after(text, "**The papers' claims**", "**Implementation checks**")
    primary = [c for c in REG.CLAIMS if c.role == "primary"]
    assert len(rows) == len(primary) == len(REG.primary_ids())
    by_label = {L.label(c.claim_id): c for c in primary}
    for cells in rows:
        c = by_label[cells[0]]  # a row's label is a registry primary claim's label
        paper = re.sub(r"\[\^\d+\]$", "", cells[1])
        if c.quantity in ("share", "correlation", "quartile"):
            assert float(paper) == pytest.approx(c.paper_value)
        else:
            assert paper in ('0 ("as different")', "no number")
    # this project's rows are under their own heading, without a paper column, the counterfactual too
    expl = text[text.index("**This project's analyses**"):]
    assert "paper" not in expl.splitlines()[2]
    assert "at_paperlike_pi_distribution" not in text[: text.index("**This project's analyses**")]
    assert normalise(v).set_index("claim_id").loc["fk.aupr_auprg.top1.at_paperlike_pi_distribution", "role"] == "exploratory"
    # the paper's words: one footnote per distinct quote, each cited
    quotes = {(c.where, c.quote) for c in primary}
    notes = [ln for ln in text.splitlines() if re.match(r"\[\^\d+\]: ", ln)]
    assert len(notes) == len(quotes)
    assert all(f'"{q}"' in text for _, q in quotes)


def test_the_interval_level_is_said_as_recorded(tmp_path):
    s = _study(tmp_path)
    text = VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks)
    assert "each paper's claims decided together by Holm-adjusted p-values at 5% family-wise error" in text
    cov = VR.primary(s.verdicts)["oracle_coverage"].dropna()
    assert f"{cov.min():.3f} to {cov.max():.3f}" in text and "known-truth simulation" in text


def test_implementation_checks_are_one_line(tmp_path):
    s = _study(tmp_path)
    text = VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks)
    assert "cannot fail on data): 8 of 8 exact." in text
    bad = F.verdicts(not_exact=("boyd.thm2",))
    text = VR.summary_markdown(bad, study=s.name, tasks=s.tasks)
    assert "7 of 8 exact; `boyd.thm2` differs." in text
    # no implementation row is in the primary table (a primary row may say which theorem it follows from)
    primary_part = text[text.index("**The papers' claims**"): text.index("**Implementation checks**")]
    assert not [c.claim_id for c in REG.CLAIMS if c.role == "implementation" and L.label(c.claim_id) in primary_part]
    assert "(follows from Theorem 1 by arithmetic: cannot fail on data)" in primary_part


def test_a_users_own_data_comes_first(tmp_path):
    ids, fams = ["user-a", "user-b"], ["a", "b"]
    sizes = {"aupr": [1, 3], "auprg": [1, 2], "auroc": [1, 1]}
    s = _study(tmp_path, "mydata", ids=ids, pis=[0.37, 0.033], families=fams, best_sizes=sizes)
    assert s.own_data
    text = VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=tmp_path / "mydata" / "tables")
    assert text.startswith("**Your data first** (study `mydata`)")
    assert text.index("Your data first") < text.index("**The answer**") < text.index("**The papers' claims**")
    m = pd.read_csv(tmp_path / "mydata" / "tables" / "metrics.csv")
    best = {(t, k): g.loc[g[k].idxmax(), "model_id"] for t, g in m.groupby("task_id") for k in ("aupr", "auprg", "auroc")}
    rows = {r[0]: r for r in _table_after(text, "Your data first", "**The answer**")}
    assert set(rows) == set(ids)
    agree = 0
    for t in ids:
        picks = [best[(t, k)] for k in ("aupr", "auprg", "auroc")]
        assert rows[t][2:5] == picks
        assert rows[t][5] == ("yes" if len(set(picks)) == 1 else "no")
        agree += len(set(picks)) == 1
        i = ids.index(t)
        assert rows[t][6] == f"{sizes['aupr'][i]} of 4 (AUPR), {sizes['auprg'][i]} of 4 (AUPRG), {sizes['auroc'][i]} of 4 (AUROC)"
    assert f"On {agree} of 2 tasks AUPR, AUPRG, AUROC pick the same learner." in text
    assert "On 1 of 2 the test rows tell the best learner apart by every metric" in text
    assert "AUPR picks rf-50, AUPRG picks logreg, AUROC picks rf-50" in text
    # what was run says the user's files; the papers' population note is not this study's
    assert "on your data files" in text and "config/openml-paper.yaml" not in text
    # a study of many tasks shows the first PICKS_SHOWN of them, the counts still over every task
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PD, "PICKS_SHOWN", 1)
        short = VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=tmp_path / "mydata" / "tables")
    assert [r[0] for r in _table_after(short, "Your data first", "**The answer**")] == ["user-a"]
    assert "The first 1 of the 2 tasks; every task's metrics are in `tables/metrics.csv`" in short
    assert f"On {agree} of 2 tasks AUPR, AUPRG, AUROC pick the same learner." in short
    assert "The first" not in text
    # the front page opens the same way
    rst = VR.summary_rst(s.verdicts, study=s.name, tasks=s.tasks, intro="INTRO", tables_dir=tmp_path / "mydata" / "tables")
    assert rst.index("INTRO") < rst.index("Your data first") < rst.index("**The answer**")
    # a study of the papers' question does not open with it
    paper = _study(tmp_path, "default")
    assert not paper.own_data
    assert "Your data first" not in VR.summary_markdown(paper.verdicts, study="default", tasks=paper.tasks,
                                                        tables_dir=tmp_path / "default" / "tables")


def test_front_page_carries_the_answer_and_tables(tmp_path):
    s = _study(tmp_path)
    rst = VR.summary_rst(s.verdicts, study=s.name, tasks=s.tasks, intro="INTRO", tables_dir=tmp_path / s.name / "tables")
    for x in S.answer([s]):
        assert x.replace("`", "``") in rst
    assert rst.count(".. list-table::") == 2  # primary claims, this project's analyses
    # valid reStructuredText: docutils parses it without a warning
    from docutils.core import publish_doctree

    errors = []
    publish_doctree(rst, settings_overrides={"report_level": 2, "halt_level": 5,
                                             "warning_stream": type("W", (), {"write": lambda _, m: errors.append(m)})()})
    assert not errors, errors
    assert '"they disagree on the best method in 24% of the tasks"' in rst and "8 of 8 exact" in rst


def test_summary_command_writes_both_studies(tmp_path):
    for name in STUDIES:
        _study(tmp_path / "results", name)
    out = tmp_path / "summary.md"
    assert main(["summary", "--results", str(tmp_path / "results"), "--out", str(out)]) == 0
    text = out.read_text()
    head = "Holm-adjusted p | coverage: the procedure's (oracle's) | outcome"
    assert f"| claim | paper | default [95% interval] | {head} | paperlike [95% interval] | {head} |" in text
    rows = _table_after(text, "**The papers' claims**", "**Implementation checks**")
    assert len(rows) == len(REG.primary_ids()) and all(len(r) == 10 for r in rows)
    said = [ln[2:] for ln in text.splitlines() if ln.startswith("- ")]
    assert said == S.answer([load_study(n, tmp_path / "results" / n / "tables") for n in STUDIES])
    # two studies, a clause each: still MAX_SENTENCES at most, none over the limit
    assert 3 <= len(said) <= S.MAX_SENTENCES and all(_words(x) <= S.MAX_WORDS for x in said)
    assert all(x.count("`default`") == x.count("`paperlike`") == 1 for x in said)
    # the largest MC error of an interval end (the test-kind row's 0.0024 is its p-value's, not an end's)
    assert f"at most {max(x[3] for x in F.PRIMARY.values() if np.isfinite(x[1])):.4f}" in text
    assert "`default` 8 of 8 exact; `paperlike` 8 of 8 exact" in text
    assert "config/openml-paper.yaml" in text and "not run for these results" in text


GLOSSARY = (ROOT / "docs" / "glossary.md").read_text()
HEADINGS = set(re.findall(r"^### (.+)$", GLOSSARY, flags=re.M))
#: Capitalised words the pages use that are names, not terms.
NAMES = {"NIPS", "ICML", "OpenML", "MC", "ROC", "PR", "CSV", "KEEL", "UCI"}
JARGON = ("separable", "real by construction", "sign-flip", "per decade", "closed form")


def _pages(tmp_path: Path) -> list[str]:
    s = _study(tmp_path)
    t = tmp_path / s.name / "tables"
    own = _study(tmp_path, "mydata", ids=["user-a", "user-b"], pis=[0.3, 0.1], families=["a", "b"],
                 best_sizes={"aupr": [1, 2], "auprg": [1, 2], "auroc": [2, 2]})
    committed = [load_study(n, ROOT / "results" / n / "tables") for n in STUDIES]
    return [VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=t),
            VR.findings_markdown(s.verdicts, study=s.name, tasks=s.tasks, tables_dir=t),
            VR.summary_markdown(own.verdicts, study=own.name, tasks=own.tasks, tables_dir=tmp_path / "mydata" / "tables"),
            VR.studies_markdown(committed), *(VR.summary_markdown(c.verdicts, study=c.name, tasks=c.tasks,
                                                                     tables_dir=ROOT / "results" / c.name / "tables")
                                               for c in committed)]


def _prose(page: str) -> str:
    """A page without code spans, footnotes (the papers' own words) and explanation cells."""
    keep = [ln for ln in page.splitlines() if not re.match(r"\[\^\d+\]: ", ln)]
    return re.sub(r"`[^`]*`", "", "\n".join(keep))


def test_the_glossary_defines_every_term_and_verdict_the_pages_use(tmp_path):
    assert set(L.TERMS) <= HEADINGS, sorted(set(L.TERMS) - HEADINGS)
    assert set(L.VERDICT_TERMS) <= HEADINGS, sorted(set(L.VERDICT_TERMS) - HEADINGS)
    assert set(L.SHORT_LABELS) <= HEADINGS, sorted(set(L.SHORT_LABELS) - HEADINGS)  # the plain outcomes
    used_terms, acronyms = set(), set()
    for i, page in enumerate(_pages(tmp_path)):
        prose = _prose(page)
        used_terms |= {t for t, pat in L.TERMS.items() if re.search(pat, prose)}
        if i != 1:  # findings.md: its explanation cells are the analyses' own detail
            acronyms |= set(re.findall(r"\b[A-Z][A-Z_]{1,}[A-Z0-9]*\b", prose))
    # every verdict the tables hold (the fake study's are the rule's words) begins with a defined word
    verdicts = pd.concat([F.verdicts()["verdict"], *(pd.read_csv(ROOT / "results" / n / "tables" / "verdicts.csv")["verdict"]
                                                     for n in STUDIES)])
    unknown = sorted({v for v in verdicts if L.verdict_key(v) not in L.VERDICT_TERMS})
    assert not unknown, unknown
    assert {"AUPR", "AUPRG", "AUROC", "pi", "plausible-best set", "margin", "Holm",
            "Monte Carlo error", "equivalence"} <= used_terms
    assert acronyms - NAMES <= HEADINGS | {"AUCPR"}, sorted(acronyms - NAMES - HEADINGS)


def test_row_labels_are_plain(tmp_path):
    labels = set(S.labels_used([_study(tmp_path)])) | set(S.labels_used(
        [load_study(n, ROOT / "results" / n / "tables") for n in STUDIES]))
    registry_labels = {L.label(c.claim_id) for c in REG.CLAIMS if c.role == "primary"}
    for lab in labels | registry_labels:
        assert not any(j in lab.lower() for j in JARGON), lab
    # every primary claim and every pattern-named row has its own label (none falls back to the id)
    assert not [c.claim_id for c in REG.CLAIMS if c.role == "primary" and L.label(c.claim_id) == c.claim_id]
    assert len(registry_labels) == len(REG.primary_ids())


def test_tally_counts_short_outcomes_in_their_order():
    v = normalise(pd.DataFrame({"claim_id": list("abcde"), "kind": ["share", "share", "share", "direction", "share"],
                                "verdict": ["equivalent: replicates", "different: higher here", "cannot be told",
                                            "different: holds", "inconclusive: leans lower here"]}))
    assert S.tally(v) == "1 replicates, 1 holds, 1 differs, 2 undecided"
    assert L.verdict_key("differs beyond noise") == "differs beyond noise"
    assert L.verdict_key("does not hold: AUPR and AUPRG are more alike") == "does not hold"


@pytest.mark.parametrize("study", STUDIES)
def test_committed_pages_are_generated_from_the_tables(study):
    """results/<study>/summary.md is what `prspace verdicts` writes from the committed tables."""
    t = ROOT / "results" / study / "tables"
    s = load_study(study, t)
    assert (ROOT / "results" / study / "summary.md").read_text() == VR.summary_markdown(
        pd.read_csv(t / "verdicts.csv", keep_default_na=False, na_values=[""]), study=study, tasks=s.tasks, tables_dir=t)


def test_committed_side_by_side_summary_is_generated():
    """results/summary.md (the README includes it) is what `prspace summary` writes."""
    studies = [load_study(n, ROOT / "results" / n / "tables") for n in STUDIES]
    assert (ROOT / "results" / "summary.md").read_text() == VR.studies_markdown(studies)


def test_readme_is_a_door():
    text = (ROOT / "README.md").read_text()
    top = text[: text.index("## Quick start")]
    assert "<!-- include: results/summary.md The%20answer -->" in top  # the answer; the claims one by one in docs/results.md
    assert "docs/results.md" in top
    results = (ROOT / "docs" / "results.md").read_text()
    # the replication report quotes every section of results/summary.md, in a report's order
    sections = re.findall(r"^## (.+)$", (ROOT / "results" / "summary.md").read_text(), flags=re.M)
    quoted = re.findall(r"<!-- include: results/summary.md (\S+) -->", results)
    assert all(any(h.startswith(q.replace("%20", " ")) for q in quoted) for h in sections), (sections, quoted)
    heads = re.findall(r"^## (.+)$", results, flags=re.M)
    assert heads[:3] == ["Abstract", "What was run", "The forest plot"] and "Limitations" in heads and "How to rerun" in heads
    assert "docs/glossary.md" in top and "config/openml-paper.yaml" in top
    before = re.sub(r"<!--.*?-->", "", top.split("<!-- include:")[0], flags=re.S)
    assert len(before.split()) <= 280  # the words a reader passes before the answer: the papers, what was run


#: The coded labels no reader should meet in the README or a summary page (issue 78).
CODED = re.compile(r"\bleans\b|\bleaning\b|borderline|cannot be told|views of the population|saturated as agreement", re.I)


def _what_it_found() -> str:
    text = (ROOT / "README.md").read_text()
    return text[text.index("## What it found"): text.index("## Quick start")]


def _reader_words(text: str) -> int:
    """Words as a reader counts them on the rendered page: tokens with a letter or a digit (a number is a word; a
    table's rules, a dash or a dagger are not), without comments, link targets or an image's address."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return len([w for w in text.split() if re.search("[A-Za-z0-9]", w)])


def test_no_coded_label_in_the_readme_or_a_summary_page(tmp_path):
    pages = {"README.md": _what_it_found(), "results/summary.md": (ROOT / "results" / "summary.md").read_text(),
             **{f"results/{n}/summary.md": (ROOT / "results" / n / "summary.md").read_text() for n in STUDIES}}
    s = _study(tmp_path)
    pages["fake summary.md"] = VR.summary_markdown(s.verdicts, study=s.name, tasks=s.tasks,
                                                   tables_dir=tmp_path / s.name / "tables")
    found = {name: CODED.findall(text) for name, text in pages.items() if CODED.search(text)}
    assert not found, found


def test_readme_says_what_it_found_in_300_words_with_one_table_and_the_forest_plot():
    sec = _what_it_found()
    table = [ln for ln in sec.splitlines() if ln.startswith("|")]
    assert _reader_words(sec) <= 300, _reader_words(sec)  # the whole section: the table, the plot's alt text, the prose
    # and as the Markdown source counts on a whitespace split: every pipe, the image and its address included
    source = re.sub(r"<!--.*?-->", "", sec, flags=re.S).split()
    assert len(source) <= 300, len(source)
    # one table: a row per primary claim of both papers, a row naming each paper and each group of two or more
    checks = [c for c in REG.primary_ids() if REG.by_construction(c)]
    groups = [g for g in S.TABLE_GROUPS.values() if sum(S.table_group(c) == g for c in REG.primary_ids()) > 1]
    assert len(_body_rows("\n".join(table))) == len(REG.primary_ids()) - len(checks) + 1 + 2 + len(groups)
    assert sum(1 for ln in table if re.match(r"^\|( ?-+ ?\|)+$", ln.replace(" ", ""))) == 1
    # the forest plot on the first screen: right under the heading, before the answer
    assert sec.index("](results/claims_forest.png)") < sec.index("<!-- include: results/summary.md The%20answer -->")
    # the headline pair of the paper-like study, as its verdict table says it
    v = load_study("paperlike", ROOT / "results" / "paperlike" / "tables")
    pair = [S.range_cell(L.value_cell({**v.row(i), "claim_id": i})) for i in ("fk.aupr_auprg.top1", "fk.aupr_auprg.top3")]
    assert all(f"|{p}|" in sec or f"|{p}{S.DAGGER}|" in sec for p in pair), pair


def test_docs_describe_the_papers_as_they_are():
    """Flach & Kull's experiment is section 4; nothing in the paper says its tasks are mostly balanced."""
    for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = p.read_text()
        assert not re.search(r"(Flach|NIPS 2015)[^.]{0,80}section 5", text), p
        assert "mostly balanced" not in text, p
