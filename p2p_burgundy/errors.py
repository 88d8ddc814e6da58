"""The engine's errors: one hierarchy, each message saying what, why and where."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class IllegalAction(EngineError):
    """An action that the rules do not allow in this state (the state is left unchanged)."""


class ChanceError(EngineError):
    """Entropy given when none is needed, or of the wrong size."""


class ConfigError(EngineError):
    """A game configuration the rules cannot play."""


class EstateDataError(EngineError):
    """An estate layout that breaks the rules' assumptions (37 spaces, colour counts...)."""


class RecordError(EngineError):
    """A game record that is malformed or does not replay."""
