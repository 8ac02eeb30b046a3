"""Random legal turns for ``generate`` (§17): a policy that plays games which meet and fight,
rather than a uniform choice among a turn's thousands of action sequences.

Uses the engine's own turn machinery; changes no position it is given.
"""

from __future__ import annotations

import random

from notation_tools.games.gow import pieces
from notation_tools.games.gow.moves import Attack, Step, Turn
from notation_tools.games.gow.pieces import COLS, MOVES_PER_TURN
from notation_tools.games.gow.rules import Position

FORWARD_SHARE = 0.6
"""How often a move is drawn from the forward moves (towards the enemy's side)."""
RAID_SHARE = 0.5
"""How often a move onto an enemy arsenal is taken when there is one."""
TRIES = 4
"""Draws of a move before one that leaves the unit offline is kept."""
WINNING_ATTACK_SHARE = 0.9
ANY_ATTACK_SHARE = 0.25


class GowSampler:
    """Random legal turns for ``generate`` (spec §17)."""

    def sample(self, position: Position, rng: random.Random) -> Turn | None:
        """A random legal turn (spec §17): 0-5 random moves, then a random attack or none.

        The retreat comes first when one is pending. So that random games meet and fight,
        each move is drawn from the forward moves (towards the enemy's side of the map) with
        probability 0.6 and redrawn (up to three times) when it would leave the unit out of
        communication; a move onto an enemy arsenal is taken one time in two when there is
        one; and an attack that dislodges or destroys is declared when one exists
        (a random attack otherwise, one time in four). Attacks carry their computed outcome
        mark. Returns None when the game is over.
        """
        if position.outcome() is not None:
            return None
        work = position.copy()
        steps: list[Step] = []
        wanted = rng.randint(0, MOVES_PER_TURN)
        work._begin()
        if work._retreat_now():
            wanted = max(wanted, 1)
        forward = 1 if work.turn == 0 else -1
        while len(steps) < wanted:
            choices = work.legal_steps()
            if not choices:
                break
            ahead = [s for s in choices if (s.target // COLS - s.origin // COLS) * forward > 0]
            raids = [s for s in choices if work._enemy_arsenal(s.target, work.turn)
                     and pieces.IS_FIGHTING[work.board[s.origin]]]
            if raids and rng.random() < RAID_SHARE:
                step = rng.choice(raids)
                work.push(step)
                steps.append(step)
                if work._decided():
                    return Turn(tuple(steps))
                continue
            for attempt in range(TRIES):
                step = rng.choice(ahead if ahead and rng.random() < FORWARD_SHARE else choices)
                work.push(step)
                # Prefer moves that leave the unit in communication, so that armies stay
                # able to move and fight; the last attempt is kept whatever it does.
                if attempt == TRIES - 1 or work.is_online(step.target):
                    break
                work.pop()
            steps.append(step)
            if work._decided():
                return Turn(tuple(steps))
        attacks = [(a.target, work.combat(a.target).mark) for a in work.legal_attacks()]
        winning = [a for a in attacks if a[1] != "0"]
        if winning and rng.random() < WINNING_ATTACK_SHARE:
            return Turn(tuple(steps), Attack(*rng.choice(winning)))
        if attacks and rng.random() < ANY_ATTACK_SHARE:
            return Turn(tuple(steps), Attack(*rng.choice(attacks)))
        return Turn(tuple(steps))


SAMPLER = GowSampler()
