"""Credit path services (issue #4): start, contact and token, analysis, simulation, pre-accept."""
