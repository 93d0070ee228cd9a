"""The coverage of the interval procedure a study runs, counted in a nested simulation
(:mod:`prspace.stats.nested.procedure`): each simulated study, drawn from the study's families, runs
the whole procedure, its own level correction included."""
