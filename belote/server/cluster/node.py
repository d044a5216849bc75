"""This process as one of the room's processes: questions to another process, and news to all.

- ``call(address, method, args)``: ask the process at ``address`` (the owner of a table) and
  wait for its answer (a timeout gives ``NodeUnavailable``).  The handlers are the room's
  methods by table id (:mod:`belote.server.directory`): plain data in and out.
- ``tell_all(kind, data)``: news for every process, this one included (a session ended:
  close its sockets everywhere; a lobby chat line; "a process started: say what you run").

Messages go over the :class:`~belote.server.cluster.wire.PgWire`: a channel per process for
the questions and their answers, one for the news.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from belote.server.cluster.wire import PgWire

log = logging.getLogger(__name__)

NEWS = "belote_news"
ANSWER_SECONDS = 3.0  # a process that does not answer in this time is taken for gone

Handler = Callable[[dict[str, Any]], Awaitable[Any]]
NewsHandler = Callable[[dict[str, Any]], None]


class NodeUnavailable(Exception):
    """The process asked did not answer (it died, or is cut off)."""


class RemoteError(Exception):
    """The process asked answered with an error: its ``code`` (a TableError's, say)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def channel_of(address: str) -> str:
    """The channel a process listens on for questions and answers."""
    return "belote_to_" + re.sub(r"[^A-Za-z0-9]", "_", address)


class Node:
    def __init__(self, wire: PgWire) -> None:
        self.wire = wire
        self.address = wire.name
        self._handlers: dict[str, Handler] = {}
        self._news: dict[str, NewsHandler] = {}
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        self.unanswered = 0  # questions that timed out (each logged)
        wire.listen(channel_of(self.address), self._on_message)
        wire.listen(NEWS, self._on_news)

    def handle(self, method: str, handler: Handler) -> None:
        self._handlers[method] = handler

    def on_news(self, kind: str, handler: NewsHandler) -> None:
        self._news[kind] = handler

    async def call(self, address: str, method: str, args: dict[str, Any]) -> Any:
        qid = next(self._ids)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[qid] = answer
        self.wire.send(channel_of(address), {"q": qid, "method": method, "args": args,
                                              "reply": self.address})
        try:
            return await asyncio.wait_for(answer, ANSWER_SECONDS)
        except TimeoutError:
            self.unanswered += 1
            log.warning("cluster: %s did not answer %s within %.0f s", address, method,
                        ANSWER_SECONDS)
            raise NodeUnavailable(address) from None
        finally:
            self._waiting.pop(qid, None)

    def tell_all(self, kind: str, data: dict[str, Any]) -> None:
        """News for every process; this one hears it at once (not through the wire)."""
        self._dispatch_news({"kind": kind, "data": data})
        self.wire.send(NEWS, {"kind": kind, "data": data})

    def _on_news(self, message: dict[str, Any]) -> None:
        if message.get("from") != self.address:
            self._dispatch_news(message)

    def _dispatch_news(self, message: dict[str, Any]) -> None:
        handler = self._news.get(str(message.get("kind")))
        if handler is None:
            return
        try:
            handler(dict(message.get("data") or {}))
        except Exception:
            log.exception("cluster: news %s failed", message.get("kind"))

    def _on_message(self, message: dict[str, Any]) -> None:
        if "a" in message:  # an answer to one of ours
            waiting = self._waiting.get(int(message["a"]))
            if waiting is not None and not waiting.done():
                if "error" in message:
                    code, text = message["error"]
                    waiting.set_exception(RemoteError(str(code), str(text)))
                else:
                    waiting.set_result(message.get("result"))
            return
        task = asyncio.create_task(self._answer(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: dict[str, Any]) -> None:
        reply = {"a": message.get("q")}
        handler = self._handlers.get(str(message.get("method")))
        try:
            if handler is None:
                raise RemoteError("unknown", f"no method {message.get('method')!r}")
            reply["result"] = await handler(dict(message.get("args") or {}))
        except Exception as error:
            code = str(getattr(error, "code", type(error).__name__))
            if not isinstance(error, RemoteError) and code == type(error).__name__:
                log.exception("cluster: %s failed", message.get("method"))
            reply["error"] = [code, str(error)]
        self.wire.send(channel_of(str(message.get("reply"))), reply)
