"""Storing results: the SQLite results database and Parquet tables."""
