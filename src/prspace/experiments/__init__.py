"""The analyses: pure functions from tables and predictions to tables, by paper and topic
(``fk``: Flach & Kull's protocol and figures; ``boyd``: Boyd et al.'s experiments; ``ranking``:
ranks and the metrics' disagreement; ``noise``: the noise floor and rank sets; ``skew``: skew as the
explanation), and the step functions that run them (``steps``)."""
