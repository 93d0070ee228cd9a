"""Shared statistics: count resampling, pairwise comparisons and rank sets, bands, critical differences, AUROC bounds."""
