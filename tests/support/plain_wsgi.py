"""A WSGI app that answers every request 200 with a short body: for tests of the production server's
own settings (http/gunicorn_conf.py), apart from the service's app."""

import app as _service  # noqa: F401  (mounts http/ as httpapi, which the config's worker hook imports)


def app(environ, start_response):
    body = b'{"ok":true}'
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]
