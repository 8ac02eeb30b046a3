"""The version of notation-tools, in a module of its own: code inside the package names it
from here, never through the package root (which re-exports it as ``__version__``)."""

__version__ = "0.1.0"
