"""Replaying and selecting records, and what replay finds: the replay driver, selection,
conversion, perft, random games, the ``--game``/``--rules`` overrides, other programs' file
formats, and the summaries and report writers. Opens no file and prints nothing: the writers
write to the streams they are given. Replaying many inputs in parallel is
:mod:`notation_tools.parallel`; keeping results, :mod:`notation_tools.storage`; drawing pages,
:mod:`notation_tools.pages`."""
