"""The panel's names without scikit-learn (prspace.core.panels): one list of names, the one the models use."""

from __future__ import annotations

import subprocess
import sys

from prspace.core import panels as P
from prspace.local import learners as L


def test_the_names_are_the_models_keys_in_order():
    assert P.LEARNER_NAMES == tuple(L.LEARNERS)
    assert set(P.FAMILIES) == set(P.LEARNER_NAMES)
    assert all(set(panel) <= set(P.LEARNER_NAMES) for panel in P.PANELS.values())
    # re-exported, not copied
    assert L.parse_learners is P.parse_learners and L.PANELS is P.PANELS and L.FAMILIES is P.FAMILIES


def test_importing_the_names_imports_no_scikit_learn():
    code = ("import sys, prspace.core.panels as P; P.parse_learners('default'); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'sklearn', 'scipy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
