"""After signature: fraud routing, payroll endorsement and paying the customer exactly once."""
