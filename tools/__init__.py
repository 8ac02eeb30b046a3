"""Documentation tooling of the source checkout, not shipped in the package: the man pages
generated from the Click commands (``python -m tools.manpages man``) and the console examples
of the command pages that the man pages, the site and the tests share."""
