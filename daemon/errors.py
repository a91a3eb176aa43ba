"""The error types users see. Only `cli.main` turns them into messages and exit codes."""

from __future__ import annotations


class MemvaultError(Exception):
    """A failure caused by input, configuration or the vault, with a message for the user."""


class ConfigError(MemvaultError):
    """A configuration key or value is wrong; the message names the key."""


class InputError(MemvaultError):
    """A request or message is malformed; the message names the field or message."""


class VaultError(MemvaultError):
    """A vault file could not be read or written safely."""


class ConflictError(VaultError):
    """A vault file changed between reading and writing it; the caller re-plans."""


class LockError(MemvaultError):
    """Another process holds the vault lock."""


class DistillError(MemvaultError):
    """The distiller could not produce a card (for example the model failed)."""


class TransientDistillError(DistillError):
    """The model failed in a way worth retrying later (timeout, rate limit, server error)."""


class RejectedDistillError(DistillError):
    """The server rejected the request itself (a 4xx, a validation error): sending it again fails again."""


class PartialDistillError(DistillError):
    """A conversation distilled in parts failed after some parts succeeded.

    ``card`` is the card as of the last finished part (a ``models.Card``);
    ``done`` the ids of the messages it covers; ``cause`` the failure (or the
    ``Interrupted`` stop between parts), which the caller re-raises once the card is kept.
    """

    def __init__(self, cause: MemvaultError, card: object, done: tuple[str, ...]) -> None:
        super().__init__(str(cause))
        self.cause, self.card, self.done = cause, card, done


class Interrupted(MemvaultError):
    """The daemon is stopping: work ended between two steps, and what is left stays pending or in the inbox."""


class BusyError(VaultError):
    """A vault file kept changing, or another program is still writing it; worth trying again later."""


class ReadOnlyError(VaultError):
    """The user made a vault file read-only: memvault leaves it as it is."""
