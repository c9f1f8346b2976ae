"""The documentation's tooling: `python -m docs.generate` writes the reference pages (not part of the package)."""
