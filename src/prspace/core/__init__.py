"""Stage contracts and I/O: errors, paths, the predictions schema, task lists and statuses, writers."""
