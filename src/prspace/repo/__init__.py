"""Repository tools: verify a rerun, the numbers quoted in README/docs."""
