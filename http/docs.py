"""Interactive API docs that work offline: Swagger UI served from the installed package."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, send_from_directory, url_for
from swagger_ui_bundle import swagger_ui_path

from models import runtime

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Payroll loan origination API</title>
<link rel="stylesheet" href="{css}"></head>
<body><div id="swagger-ui"></div>
<script src="{bundle}"></script><script src="{preset}"></script>
<script>window.onload = function () {{
  window.ui = SwaggerUIBundle({{url: "{spec}", dom_id: "#swagger-ui", deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout"}});
}};</script></body></html>"""


def install(app: Flask) -> None:
    base = runtime.current().settings.base_path
    blp = Blueprint("docs", __name__, url_prefix=f"{base}/docs")

    @blp.route("/", strict_slashes=False)
    def page():
        asset = lambda name: url_for("docs.asset", filename=name)  # noqa: E731
        html = PAGE.format(
            css=asset("swagger-ui.css"),
            bundle=asset("swagger-ui-bundle.js"),
            preset=asset("swagger-ui-standalone-preset.js"),
            spec=f"{base}/openapi.json",
        )
        return Response(html, mimetype="text/html")

    @blp.route("/assets/<path:filename>")
    def asset(filename: str):
        return send_from_directory(swagger_ui_path, filename)

    app.register_blueprint(blp)
