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
    shares, corr, same, size, noise, boyd, sens = said
    # the six shares: verdicts counted by word, this run's range, the paper's range (from the registry)
    est = [F.PRIMARY[i][0] for i in S.SHARE_IDS]
    assert ("1 replicate, 1 different beyond the margin, 1 inconclusive, leaning higher, 2 inconclusive, leaning "
            f"lower, 1 borderline ({min(est):.2f} to {max(est):.2f}: 4 above, 2 below the paper's; 2 of 6 "
            "95% intervals exclude it).") in shares
    assert "paper 0.22 to 0.65" in shares
    # correlations and quartiles, three decimals, with their verdict counts
    assert "0.931, 0.887, 0.879 (1 replicate, 2 different: lower here)" in corr
    assert "quartiles 0.903, 0.986 (1 replicate, 1 different: lower here)" in corr
    # "as different as": each difference with its interval and the outcome of the one scheme
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.top1"]
    assert f"best model {_ci(e, lo, hi, 2)} (different)" in same
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.top3"]
    assert f"top three {_ci(e, lo, hi, 2)} (inconclusive)" in same
    e, lo, hi, _, v = F.PRIMARY["fk.as_different.spearman"]
    assert f"rank correlation {_ci(e, lo, hi, 3)} (different)" in same
    # what the data can decide: the decided count, the median families of the undecided rows' families_80
    # (a borderline row is not decided, and says so)
    undecided = [i for i, cid in enumerate(F.PRIMARY) if cid.startswith("fk.") and F.PRIMARY[cid][4].startswith("inconclusive")]
    border = [c for c in F.PRIMARY if c.startswith("fk.") and F.PRIMARY[c][4].startswith("borderline")]
    need = np.median([200 + 100 * i for i in undecided])
    n_fk = len([c for c in F.PRIMARY if c.startswith("fk.")])
    assert (f"{n_fk - len(undecided) - len(border)} of {n_fk} decided at {s.verdicts.n_families.max():.0f} families "
            f"({len(border)} borderline, not counted)") in size
    assert f"undecided need a median of {int(need)} families" in size
    # noise: cross-vs-self excess with interval, and the median plausible-best set size per metric
    for p in S.PAIRS:
        _, e, lo, hi, *_ = F.EXPLORATORY[f"px.{p}.top1.cross_vs_self"]
        assert _ci(e, lo, hi, 2) in noise
    typical = ", ".join(f"{np.median(SIZES[m]):.0f} ({L.METRIC_LABELS[m]})" for m in ("aupr", "auprg", "auroc"))
    assert f"on a typical task {typical} of 4 models could be the best" in noise
    # Boyd 4.1: the averaging-minus-pooling estimate, its verdict, and the AUCNPR row's
    e, lo, hi, _, v = F.PRIMARY["boyd.sec4_1.averaging_optimistic"]
    assert f"{_ci(e, lo, hi, 2)} ({v})" in boyd and "shrinks the gap: different: holds" in boyd
    # sensitivity: two of the three claims keep their verdict in all four variants
    assert sens == ("Read again on other views of the population (saturated as agreement, saturated left out, "
                    "pi >= 0.3, one learner per family): 2 of 3 verdicts stay the same in all 4 (those that change: "
                    "AUPR-AUROC best model).")


def test_without_a_sensitivity_table_the_answer_says_nothing_of_it(tmp_path):
    s = _study(tmp_path, with_sensitivity=False)
    said = S.answer([s])
    assert len(said) == 6 and not any("variant" in x for x in said)
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
    return [ln for i, ln in enumerate(lines) if ln.startswith("| ") and i not in skip]


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
        mp.setattr(S, "PICKS_SHOWN", 1)
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
    head = "Holm-adjusted p | coverage: the procedure's (oracle's) | verdict"
    assert f"| claim | paper | default [95% interval] | {head} | paperlike [95% interval] | {head} |" in text
    rows = _table_after(text, "**The papers' claims**", "**Implementation checks**")
    assert len(rows) == len(REG.primary_ids()) and all(len(r) == 10 for r in rows)
    said = [ln[2:] for ln in text.splitlines() if ln.startswith("- ")]
    assert said == S.answer([load_study(n, tmp_path / "results" / n / "tables") for n in STUDIES])
    # two studies, a clause each: still six sentences at most, none over the limit
    assert len(said) == S.MAX_SENTENCES and all(_words(x) <= S.MAX_WORDS for x in said)
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


def test_verdict_counting_keeps_the_rules_words():
    v = pd.Series(["equivalent: replicates", "different: higher here", "cannot be told: 4 families",
                   "equivalent: replicates", "inconclusive: leans lower here"])
    assert L.count_verdicts(v) == ("2 replicate, 1 different: higher here, 1 inconclusive, leaning lower, "
                                   "1 cannot be told")
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
    assert "<!-- include: results/summary.md -->" in results  # the whole page, claims tables and the paper's words
    assert "docs/glossary.md" in top and "config/openml-paper.yaml" in top
    before = re.sub(r"<!--.*?-->", "", top.split("<!-- include:")[0], flags=re.S)
    assert len(before.split()) <= 280  # the words a reader passes before the answer: the papers, what was run


def test_docs_describe_the_papers_as_they_are():
    """Flach & Kull's experiment is section 4; nothing in the paper says its tasks are mostly balanced."""
    for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = p.read_text()
        assert not re.search(r"(Flach|NIPS 2015)[^.]{0,80}section 5", text), p
        assert "mostly balanced" not in text, p
