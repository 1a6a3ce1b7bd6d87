"""``python -m kg`` runs the command-line interface."""

from kg.cli import app

app(prog_name="kg")
