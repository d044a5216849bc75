"""Example code for the docs (docs/research.md)."""
