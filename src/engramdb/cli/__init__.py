"""The `engramdb` command line (console script ``engramdb = "engramdb.cli:main"``): app.py
builds the Typer app from the command modules; options.py holds the options they share."""

from .app import app, main

__all__ = ["app", "main"]
