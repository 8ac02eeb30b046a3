

def test_9_2_a_cached_syntax_error_keeps_no_traceback():
    """§9.2: token syntax is cached, errors too; a cached error must not keep its traceback,
    whose frames would keep every caller's records and positions alive (found by the select
    fuzz target: memory grew with the number of bad tokens)."""
    import gc
    import weakref

    from notation_tools.games.maka import notation

    class Holder:
        pass

    def parse_in_a_frame(text):
        holder = Holder()  # a local of a caller's frame
        ref = weakref.ref(holder)
        try:
            notation.parse_pattern(text)
        except Exception:  # noqa: BLE001 - the error is what is cached
            pass
        return ref

    ref = parse_in_a_frame("Zz99zz-not-a-move")
    gc.collect()
    assert ref() is None
    cached = notation._parse_cached("Zz99zz-not-a-move", "tsa")
    assert cached.__traceback__ is None
