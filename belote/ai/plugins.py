"""Bots as plug-ins: any importable ``module:Class``, or a ``belote.bots`` entry point.

A plug-in class follows :class:`belote.ai.base.Player` (``name``, ``notify(event)``,
``choose(observation) -> action``) and is made with the seed if its constructor takes an
argument, else with none.  ``belote arena``, ``simulate`` and ``play`` take ``module:Class``
wherever they take a bot name; the room offers, beside its own levels, the bots that installed
packages declare as entry points (never a module path typed by a visitor, which would let
anyone import code on the server)::

    [project.entry-points."belote.bots"]
    first-legal = "examples.first_legal_bot:FirstLegalBot"

This package declares colver's agents in the group too (``colver-heuristic``...,
:mod:`belote.oracles.colver.agents`), so that ``belote.ai`` imports nothing from the oracles;
they need the arena's side channel (the whole deal), so a room never offers an entry point of
this package's own modules, only those of other packages
(:func:`belote.bot_group.room_plugin_names`, beside the group's name: one home, which the
room reads without loading the bot layer).

A ``module:Class`` is imported as ``python -m belote`` would import it, from the current
directory too: the ``belote`` console script does not put the current directory on
``sys.path`` (``python -m`` does), so the loader adds it, last, when the module is not
found elsewhere.  Entry points are never looked up there (they name installed code).
"""

from __future__ import annotations

import importlib
import inspect
import logging
import os
import sys
from collections.abc import Iterable
from importlib.metadata import entry_points
from typing import Any

from belote.ai.base import Player
from belote.bot_group import BOT_GROUP

log = logging.getLogger(__name__)


def entry_point_names() -> tuple[str, ...]:
    """Names of the bots installed packages declare in the ``belote.bots`` group, sorted."""
    return tuple(sorted({ep.name for ep in entry_points(group=BOT_GROUP)}))


def _load_class(spec: str, from_cwd: bool = False) -> Any:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"a bot plug-in is written module:Class, not {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        here = os.getcwd()
        missing = error.name or ""
        itself = module_name == missing or module_name.startswith(missing + ".")
        if not from_cwd or not itself or here in sys.path or "" in sys.path:
            raise ValueError(f"cannot import bot module {module_name!r}: {error}") from None
        # the console script's sys.path lacks the current directory (python -m has it)
        sys.path.append(here)
        try:
            module = importlib.import_module(module_name)
        except ImportError as again:
            raise ValueError(f"cannot import bot module {module_name!r} (also looked in "
                             f"{here}): {again}") from None
    except ImportError as error:
        raise ValueError(f"cannot import bot module {module_name!r}: {error}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError(f"module {module_name!r} has no {attr!r}") from None


def load_plugin(name: str, seed: int | None = None) -> Player:
    """The bot ``name`` names: ``module:Class`` or a ``belote.bots`` entry point."""
    if ":" in name:
        cls = _load_class(name, from_cwd=True)
    else:
        found = [ep for ep in entry_points(group=BOT_GROUP) if ep.name == name]
        if not found:
            raise ValueError(f"no bot plug-in {name!r}")
        cls = _load_class(found[0].value)
    if not callable(cls):
        raise ValueError(f"bot plug-in {name!r} is not a class")
    try:
        takes_seed = bool(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        takes_seed = True
    try:
        bot = cls(seed) if takes_seed else cls()
    except Exception as error:  # the plug-in's own constructor failed: say whose it was
        raise ValueError(f"bot plug-in {name!r} could not be made: {error}") from error
    for method in ("choose", "notify"):
        if not callable(getattr(bot, method, None)):
            raise ValueError(f"bot plug-in {name!r} has no {method}() method (belote.ai.base)")
    if not isinstance(getattr(bot, "name", None), str):
        raise ValueError(f"bot plug-in {name!r} has no name (belote.ai.base)")
    return bot  # type: ignore[no-any-return]


# What a room calls each plug-in it offers, made once at its start (:func:`prepare_labels`);
# and the plug-ins whose label could not be made, with why (counted, logged).
_labels: dict[str, str] = {}
label_failures: dict[str, str] = {}


def plugin_label(name: str) -> str:
    """What a room calls the installed plug-in ``name`` when its catalogs have no label
    for it: the label :func:`prepare_labels` made at the room's start, else the entry
    point's name.  Never imports or makes anything: it is asked on the event loop."""
    return _labels.get(name, name)


def _label(name: str) -> str:
    found = [ep for ep in entry_points(group=BOT_GROUP) if ep.name == name]
    if not found:
        raise ValueError(f"no bot plug-in {name!r}")
    label = getattr(_load_class(found[0].value), "name", None)
    if isinstance(label, str) and label.strip():
        return label  # the class says its name: no need to make a bot
    return load_plugin(name).name


def prepare_labels(names: Iterable[str]) -> dict[str, str]:
    """Make the labels of the plug-ins ``names`` (the levels a room offers) once, for
    :func:`plugin_label`: the class's ``name`` attribute where it has one (the bot is not
    made), else the name of a bot made for it.  This runs third-party code (imports,
    constructors): call it off the event loop, at the start.  A plug-in that fails is
    logged and counted (:data:`label_failures`) and labelled by its entry point's name."""
    for name in names:
        try:
            _labels[name] = _label(name)
            label_failures.pop(name, None)
        except Exception as error:  # a broken plug-in must not break the pages that list it
            label_failures[name] = f"{type(error).__name__}: {error}"
            _labels[name] = name
            log.warning("bot plug-in %r cannot be labelled (%s): labelled by its entry "
                        "point's name; plug-ins failing so far: %d", name, error,
                        len(label_failures))
    return dict(_labels)
