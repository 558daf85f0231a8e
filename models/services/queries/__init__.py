"""Read side: proposal listing, detail, statistics, audit records and customer-level queries."""
