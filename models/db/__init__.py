"""Persistence: peewee tables over SQLite (embedded) or PostgreSQL (production)."""
