"""Contract path: generation, the CCB document, signature outcome and expiry, cancel and withdrawal."""
