"""Skew as the explanation of the metrics' disagreement: skew moved with the same models and scores
(controlled skew), the trend against pi across tasks, the counterfactual at a reference study's pi,
and their evidence rows. Science only: the step functions are in :mod:`prspace.experiments.steps`."""
