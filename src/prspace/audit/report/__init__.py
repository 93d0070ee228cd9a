"""What the audit says: its findings, the sentences on where the rankings disagree, the headline, how
it prints numbers, which estimator popular tools compute, and the reports (text, Markdown, HTML)
and figures of a record."""
