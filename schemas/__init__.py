"""Marshmallow schemas for request and response bodies (the OpenAPI document is built from them)."""
