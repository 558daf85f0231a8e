"""What every capability uses: the unit of work (transaction + outbox), the one status writer,
locks, request context, logs, metrics and hybrid wake-ups."""
