"""prspace: precision-recall space evaluation, replicated.

Reproduces Boyd, Santos Costa, Davis & Page (ICML 2012), "Unachievable Region in
Precision-Recall Space and Its Effect on Empirical Evaluation", and Flach & Kull
(NIPS 2015), "Precision-Recall-Gain Curves: PR Analysis Done Right".
"""

__version__ = "0.1.0"
