"""The events feed (GET /v1/events): every announced status change of an origin, in order, for
partners who pull instead of receiving webhooks or who reconcile the webhooks they missed."""
