"""The step functions of the analysis rules (``prspace step NAME``; each a ``run=`` of
:mod:`prspace.core.registry`): ``fn(inputs, **settings) -> StepOutput``. A step reads its input
files, calls the science of a topic package of :mod:`prspace.experiments` (``fk``, ``boyd``,
``noise``, ``skew``, ``ranking``) and gives its tables their titles and notes; the science never
imports a step (``tests/test_layout.py``)."""
