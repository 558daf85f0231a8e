"""Route modules: each exposes a flask-smorest ``blp`` mounted under the base path (/v1)."""
