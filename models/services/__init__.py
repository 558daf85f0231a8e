"""Application services: load, call the domain, persist, enqueue. Shared by routes and actors."""
