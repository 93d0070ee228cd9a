"""LICENSE and CITATION.cff exist and say what pyproject.toml says (issue 58, Deliver 10).

CITATION.cff (Citation File Format 1.2.0) was validated with ``cffconvert --validate`` (cffconvert 2.0.0)
when written; this test keeps its version, license and abstract in step with ``pyproject.toml`` and
its references with the two papers the README names.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_license_and_citation_files_exist():
    assert (ROOT / "LICENSE").is_file() and (ROOT / "CITATION.cff").is_file()


def test_license_file_is_the_license_pyproject_names():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PROJECT["license"] == "MIT"
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the prspace authors" in text
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in text


def test_citation_version_license_and_abstract_equal_pyproject():
    cff = _cff()
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == PROJECT["version"]
    assert cff["license"] == PROJECT["license"]
    assert " ".join(cff["abstract"].split()) == PROJECT["description"]
    assert cff["title"] == PROJECT["name"] and cff["message"].strip()


def test_citation_references_both_papers_as_the_readme_gives_them():
    refs = {r["authors"][0]["family-names"]: r for r in _cff()["references"]}
    boyd, fk = refs["Boyd"], refs["Flach"]
    assert boyd["title"].startswith("Unachievable Region in Precision-Recall Space")
    assert fk["title"] == "Precision-Recall-Gain Curves: PR Analysis Done Right"
    assert [a["family-names"] for a in boyd["authors"]] == ["Boyd", "Santos Costa", "Davis", "Page"]
    assert boyd["year"] == 2012 and boyd["doi"] == "10.48550/arXiv.1206.4667"
    assert "29th International Conference on Machine Learning" in boyd["collection-title"]
    assert [a["family-names"] for a in fk["authors"]] == ["Flach", "Kull"]
    assert (fk["year"], fk["start"], fk["end"]) == (2015, 838, 846) and "doi" not in fk
    assert "Advances in Neural Information Processing Systems 28" in fk["collection-title"]
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for needle in ("Boyd, Santos Costa, Davis & Page", "10.48550/arXiv.1206.4667", "Flach & Kull",
                   "Information Processing Systems 28, pp. 838-846"):
        assert needle in readme, needle
