"""The audit's calibration by simulation (its intervals, all-pairs procedures and grouped resampling,
across skew: the rule tables of ``audit/data/``), and the power and sample size of ``prspace power``."""
