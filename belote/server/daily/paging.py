"""Pages of a day's long lists (its ranking, a deal's results): what one view of the daily's
pages shows is :data:`PAGE_LINES` lines at most, and the reader's own line wherever it is.

A day may have thousands of entrants; formatting and rendering every line on every view held
the event loop for about a second (issue 28's review, M1).  A page of 100 lines costs the same
whatever the day's size, and its numbered pages are plain links (previous, next): a
screen-reader user hears a table of a hundred rows, not of thousands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
PAGE_LINES = 100  # lines of a ranking or of a deal's results on one page
PREVIEW_LINES = 10  # lines of each deal on a closed day's own page (the rest: the deal's)


class NoSuchPage(ValueError):
    """A page number that is not one of the list's (the route answers 404)."""


@dataclass(frozen=True, slots=True)
class Paged(Generic[T]):
    """One page of a list, and where the reader's own line is."""

    lines: Sequence[T]  # this page's lines
    page: int  # from 1
    pages: int  # at least 1 (an empty list has one empty page)
    count: int  # lines in the whole list
    first: int  # the position (from 1) of this page's first line; 0: none
    size: int  # lines a page
    mine: T | None = None  # the reader's line, on this page or another
    mine_page: int | None = None  # the page it is on
    mine_position: int | None = None  # and its position in the list (from 1)

    @property
    def last(self) -> int:
        """The position of this page's last line (0: none)."""
        return self.first + len(self.lines) - 1 if self.lines else 0

    def span(self, page: int) -> tuple[int, int]:
        """The positions of the first and last lines of ``page`` (for a link's words)."""
        return (page - 1) * self.size + 1, min(page * self.size, self.count)


def page_number(text: str | None) -> int:
    """The page asked in a query (``?page=3``); none: 1.  Anything but a positive number in
    plain digits is :class:`NoSuchPage`."""
    if text is None:
        return 1
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise NoSuchPage(text)
    return int(text)


def page_of(lines: Sequence[T], page: int, size: int = PAGE_LINES,
            mine: Callable[[T], bool] | None = None) -> Paged[T]:
    """Page ``page`` (from 1) of ``lines``, ``size`` a page, with the first line ``mine``
    says is the reader's (a scan of the list: a comparison per line, no formatting)."""
    pages = max(1, -(-len(lines) // size))
    if not 1 <= page <= pages:
        raise NoSuchPage(str(page))
    start = (page - 1) * size
    shown = lines[start:start + size]
    own: T | None = None
    own_position: int | None = None
    if mine is not None:
        for position, line in enumerate(lines):
            if mine(line):
                own, own_position = line, position + 1
                break
    return Paged(shown, page, pages, len(lines), start + 1 if shown else 0, size, own,
                 None if own_position is None else (own_position - 1) // size + 1,
                 own_position)
