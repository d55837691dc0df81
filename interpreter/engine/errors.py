"""Errors the engine raises. None of them is a Python traceback for the user: the CLI
prints each with its location and exits non-zero."""

from __future__ import annotations

from ...dsl.ast import Span


class EngineError(Exception):
    """Base of every error the engine reports to a user."""

    def __init__(self, message: str, span: Span | None = None, rule: str | None = None):
        self.message = message
        self.full = message  # the message whole, hidden values and all (see `hide`)
        self.span = span
        self.rule = rule
        where = f"{span}: " if span is not None and span.line else ""
        super().__init__(f"{where}{message}")

    def hide(self, message: str) -> None:
        """Say `message` instead: the same with what no player may see written `?`. `full` keeps
        the whole message, for a caller that asks for it (a game of hidden information raises
        only the hidden form from its API: interpreter/engine/game.py, SecretsGame)."""
        if message == self.message:
            return
        self.message = message
        where = f"{self.span}: " if self.span is not None and self.span.line else ""
        self.args = (f"{where}{message}",)


class RuleFailure(EngineError):
    """A rule could not be carried out (a failed assertion, an empty choice, a bad index)."""


class InvariantBroken(RuleFailure):
    """The state breaks one or more of the ruleset's invariants; `broken` lists each as
    'file:line:col: message' (`Game.broken_invariants()`)."""

    def __init__(self, broken: list[str]):
        super().__init__("the state breaks an invariant: " + "; ".join(broken))
        self.broken = broken


class Abandoned(Exception):  # noqa: N818 - control flow, not an error the user sees
    """Raised by `abandon "reason"` inside an action; the engine rolls the action back."""

    def __init__(self, reason: str, span: Span | None = None):
        super().__init__(reason)
        self.reason = reason
        self.span = span


class IllegalAction(EngineError):
    """An action that is not legal now; `reason` says which precondition failed."""


class BudgetExceeded(EngineError):
    """A step or trigger-chain budget ran out: a runaway rule."""


class SaveError(EngineError):
    """A saved game that cannot be loaded (corrupt, wrong ruleset, newer format)."""


# Python's own errors that generated rule code can raise: each is the rule's failure, located
# and said in the rule author's words (locate.py), never a traceback
RULE_ERRORS = (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, AttributeError,
               RecursionError, OverflowError, MemoryError)
