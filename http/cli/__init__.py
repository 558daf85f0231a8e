"""Ops commands (flask CLI, run through `make cli ARGS="..."`)."""
