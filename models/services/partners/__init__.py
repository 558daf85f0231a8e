"""Partners: accounts and credentials, access tokens, what a partner may see (ownership), and the
HMAC of provider callbacks."""
