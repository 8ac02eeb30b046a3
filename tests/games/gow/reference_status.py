"""An independent reading of the lines of communication (§6.2), square by square as the
rules describe them: the oracle the engine's bit-set computation is checked against.

Written from the rules text, as plainly as possible; not used by the package.
"""

from __future__ import annotations

from typing import Any

from notation_tools.games.gow.pieces import IS_FIGHTING, IS_RELAY, NEIGHBOURS, RAYS, SIDE_OF, SIZE

_ENEMY_FIGHTING = tuple(tuple(IS_FIGHTING[v] and SIDE_OF[v] != side for v in range(16))
                        for side in (0, 1))
_OWN_FIGHTING = tuple(tuple(IS_FIGHTING[v] and SIDE_OF[v] == side for v in range(16))
                      for side in (0, 1))
_OWN_RELAY = tuple(tuple(IS_RELAY[v] and SIDE_OF[v] == side for v in range(16))
                   for side in (0, 1))


def reference_status(board: list[int], squares: Any, side: int, sources: list[int], opts: Any,
                   blockers: Any = None) -> tuple[bytearray, set[int], set[int]]:
    """Lines of communication of ``side`` (spec §6.2).

    ``squares`` are the side's unit squares, ``sources`` its surviving arsenals; ``blockers`` is
    ``None`` (every enemy fighting unit cuts lines) or the set of squares that cut them.
    """
    own_relay = _OWN_RELAY[side]
    own_fighting = _OWN_FIGHTING[side]
    enemy = _ENEMY_FIGHTING[side]
    via_relays = opts.adjacency_via_relays
    covered = bytearray(SIZE)
    emitted: set[int] = set()
    pending = list(sources)
    while True:
        while pending:
            e = pending.pop()
            if e in emitted:
                continue
            emitted.add(e)
            covered[e] = 1
            for ray in RAYS[e]:
                for s in ray:
                    v = board[s]
                    if v:
                        if (enemy[v] if blockers is None else s in blockers):
                            break
                        if own_relay[v] and s not in emitted:
                            pending.append(s)
                    covered[s] = 1
        members = set()
        for s in squares:
            v = board[s]
            if covered[s] and (own_fighting[v] or (via_relays and own_relay[v])):
                members.add(s)
        stack = list(members)
        while stack:
            s = stack.pop()
            for n in NEIGHBOURS[s]:
                v = board[n]
                if v and n not in members and (own_fighting[v] or (via_relays and own_relay[v])):
                    members.add(n)
                    stack.append(n)
        if opts.relay_adjacent:
            extra = [s for s in squares if own_relay[board[s]] and s not in emitted
                     and any(n in members and own_fighting[board[n]] for n in NEIGHBOURS[s])]
            if extra:
                pending.extend(extra)
                continue
        break
    online = {s for s in members if own_fighting[board[s]]}
    relays = [s for s in squares if own_relay[board[s]]]
    mode = opts.relay_status
    if mode == "always":
        relays_online = set(relays)
    elif mode == "covered":
        relays_online = {s for s in relays if covered[s] or s in members}
    else:
        relays_online = {s for s in relays if covered[s] or s in members
                         or any(n in online for n in NEIGHBOURS[s])}
    return covered, online, relays_online
