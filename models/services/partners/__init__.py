"""Partners: accounts and credentials, access tokens, and the HMAC of provider callbacks."""
