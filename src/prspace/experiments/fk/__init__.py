"""Flach & Kull (NIPS 2015), "Precision-Recall-Gain curves": the study's protocol and figures:
predictions scored per task (pooled over folds, as the paper), the curve points of every panel, the
tasks and models the figures draw, the tables of Figures 4 and 5, and how the primary estimates move
with the panel of models. Science only: the step functions are in :mod:`prspace.experiments.steps`."""
