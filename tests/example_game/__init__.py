"""A complete small game in the package template, for the Development guide and the
conformance suite (docs/development.md)."""
