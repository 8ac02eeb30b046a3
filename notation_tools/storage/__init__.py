"""Storing results: the SQLite results database (``database``: ``analyze --db`` and ``report``)
and Parquet datasets (``parquet``: ``analyze --parquet``), in the files the caller names. Does
not replay or print."""
