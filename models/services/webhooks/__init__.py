"""Outgoing webhooks: status-change events and auction proposals, their deliveries and replays."""
