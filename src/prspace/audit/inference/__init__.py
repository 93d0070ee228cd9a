"""What the audit's rows say: metrics pooled and per fold, the intervals (DeLong, Boyd et al.'s, the
counts bootstrap and jackknife) and which of them are printed, the paired tests and the one decision
per question, confidence sets for ranks, curve bands, what the AUROCs allow, grouped rows, and the
critical-difference tables across tasks."""
