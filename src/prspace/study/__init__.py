"""The workflow glue: configuration, setup check, the rules' inputs and commands, run logs."""
