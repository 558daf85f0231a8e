"""The money path's durable step record, its re-drive sweep and what operators see of it
(README "Contract path": "The money path converges whatever the outage")."""
