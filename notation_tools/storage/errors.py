"""The error of a results database that cannot be used, in a module of its own: the query
commands (``search``, ``explore``) catch it without importing the writer (which brings the
archive readers and the parallel runner with it).

Does not print.
"""

from __future__ import annotations


class DatabaseError(Exception):
    """A results database that cannot be used: not a database, another schema version, a
    full disk. The message names the file."""
