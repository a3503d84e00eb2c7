"""Undo and redo over the action log. The state is always rebuilt by replay.

Each action in the log is one human intent; the rival turns and phase changes it
triggered are part of applying it, so undoing the intent removes them too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from companion.rules.actions import Action, IllegalAction
from companion.rules.engine import apply, replay
from companion.rules.i18n import N_
from companion.rules.state import GameState


@dataclass(frozen=True)
class History:
    """A game's initial state, its applied actions, and the undone ones that can be redone."""

    initial: GameState
    actions: tuple[Action, ...] = ()
    undone: tuple[Action, ...] = ()  # most recently undone last

    @cached_property
    def state(self) -> GameState:
        return replay(self.initial, self.actions)

    def do(self, action: Action) -> History:
        """Apply a new intent; it clears the redo list."""
        after = apply(self.state, action)
        done = History(self.initial, (*self.actions, action), ())
        done.__dict__["state"] = after
        return done

    def undo(self) -> History:
        """Remove the last intent and everything it triggered."""
        if not self.actions:
            raise IllegalAction(N_("Nothing to undo."))
        return History(self.initial, self.actions[:-1], (*self.undone, self.actions[-1]))

    def redo(self) -> History:
        """Re-apply the most recently undone intent."""
        if not self.undone:
            raise IllegalAction(N_("Nothing to redo."))
        action = self.undone[-1]
        after = apply(self.state, action)
        done = History(self.initial, (*self.actions, action), self.undone[:-1])
        done.__dict__["state"] = after
        return done
