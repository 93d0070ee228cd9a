"""Is the metrics' disagreement more than noise? The noise floor (a metric's disagreement with
itself on resampled test rows), its calibration by simulation, confidence sets for ranks, and their
evidence rows. Science only: the step functions are in :mod:`prspace.experiments.steps`."""
