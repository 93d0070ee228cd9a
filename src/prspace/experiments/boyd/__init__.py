"""Boyd et al. (ICML 2012), "Unachievable region in precision-recall space and its effect on
empirical evaluation": the theory figures' tables, the downsampling (section 4.3) and fold-skew
(section 4.1) experiments, aggregation over tasks of different skew (section 4.2), their evidence
rows and intervals. Science only: the step functions are in :mod:`prspace.experiments.steps`."""
