"""The fuzz harness: hostile inputs for every reader, parser and conversion of the toolkit.

``fuzz.targets`` holds the targets and the input generators, shared by the bounded fuzz tests
(``tests/test_fuzz.py``) and the long campaign (``python -m fuzz.campaign``).
"""
