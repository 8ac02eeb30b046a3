"""Shared output helpers: tabular writers, and small drawing helpers games may use."""
