"""The errors the logic raises; their messages are written for the people at the table."""


class TablemateError(ValueError):
    """Base of every error the game logic raises on purpose."""


class InvalidEvent(TablemateError):
    """An event that cannot happen at this table now; the state it was offered to is unchanged."""


class InvalidSetup(TablemateError):
    """A match that cannot be set up as asked (player count, dealer, options)."""


class InvalidName(TablemateError):
    """A player name that is refused (empty, too long, or already taken)."""


class FormatError(TablemateError):
    """Stored or imported data that does not follow the documented format."""
