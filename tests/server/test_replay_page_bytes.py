"""The replay page's heavy parts travel as bytes and are spliced into the rendered page,
so that the event loop does not join and encode a long match's 4 MB (test_loop_stalls.py
measures the loop)."""

from __future__ import annotations

import html
import json

import pytest
from jinja2 import Environment
from markupsafe import Markup

from belote.server.replay import DEALS_MARK, FRAMES_MARK, ReplayPage, replay_page, splice
from tests.server.test_replay_analysis import finished_record

TEMPLATE = '<p>é {{ title }}</p><div data-frames="{{ frames }}"></div>{{ deals }}<p>fin</p>'


def test_the_spliced_page_is_the_page_the_template_would_have_rendered() -> None:
    page = replay_page(finished_record(5, 300), "it")  # accented sentences: UTF-8 matters
    template = Environment(autoescape=True).from_string(TEMPLATE)
    whole = template.render(title="<Partita>", deals=Markup(page.deals.decode()),
                            frames=Markup(page.frames.decode())).encode()
    marked = template.render(title="<Partita>", deals=Markup(DEALS_MARK),
                             frames=Markup(FRAMES_MARK)).encode()
    assert splice(marked, page) == whole
    # the steps still read back as the JSON they were
    attribute = whole.split(b'data-frames="')[1].split(b'"')[0].decode()
    steps = json.loads(html.unescape(attribute))
    assert steps and {"position", "text", "hands"} <= set(steps[0])


@pytest.mark.parametrize("body", [b"<p>no marks</p>",
                                  (DEALS_MARK * 2 + FRAMES_MARK).encode(),
                                  (DEALS_MARK + FRAMES_MARK * 2).encode()])
def test_a_mark_missing_or_repeated_is_an_error_not_a_page(body: bytes) -> None:
    with pytest.raises(ValueError, match="marks"):
        splice(body, ReplayPage(b"deals", b"frames"))


def test_the_parts_are_inserted_as_they_are_never_searched_for_marks() -> None:
    body = f"<a>{FRAMES_MARK}</a><b>{DEALS_MARK}</b>".encode()
    spliced = splice(body, ReplayPage(FRAMES_MARK.encode(), b"[1]"))
    assert spliced == f"<a>[1]</a><b>{FRAMES_MARK}</b>".encode()
