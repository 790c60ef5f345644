"""The package version: the one copy (pyproject.toml reads it from here)."""

__version__ = "0.1.0"
