"""Response bodies of the API: the presenter layer between use cases and the wire."""
