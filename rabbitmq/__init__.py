"""Messaging spine: broker selection, queues, the outbox relay and the worker entry point."""
