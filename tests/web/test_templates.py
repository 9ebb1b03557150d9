"""Templates only show what they are given (routes, then view models, then templates): none
calls anything on the engine's objects, reads the engine's game, or indexes the table's state.
What a page shows of the rules comes prepared by a view model (``referee/web/round/screen.py``,
each game's ``screens.py``, the history routes) as plain data.

Checked on every template's syntax tree, as the app's Jinja parses it, so a template that starts
calling ``state.winners()`` fails here whether or not a test happens to render that branch."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from jinja2 import meta, nodes

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

#: The names under which a template gets engine objects: the table's state, the round, the
#: engine's game, the next step, the entry being corrected, and the game's screens part (whose
#: methods compute from the engine, so they are the view model's to call).
ENGINE = frozenset({"state", "rnd", "game", "step", "old", "part"})

#: The round screen's one object (``RoundScreen``): ``screen.state`` is the state, and so on.
SCREEN = "screen"


def path_of(node: nodes.Node) -> tuple[str | None, str]:
    """The name an attribute or item chain starts from, and the chain as written; a chain from
    the round screen's object starts from its field (``screen.state.rounds``: ``state``)."""
    parts: list[str] = []
    while isinstance(node, (nodes.Getattr, nodes.Getitem)):
        parts.append(f".{node.attr}" if isinstance(node, nodes.Getattr) else "[…]")
        node = node.node
    if not isinstance(node, nodes.Name):
        return None, "".join(reversed(parts))
    if node.name == SCREEN and parts and parts[-1].startswith("."):
        field = parts.pop()[1:]
        return field, field + "".join(reversed(parts))
    return node.name, node.name + "".join(reversed(parts))


def engine_uses(app: Flask, source: str) -> list[str]:
    """What ``source`` asks of the engine itself, each as ``line: expression``."""
    tree = app.jinja_env.parse(source)
    found: list[tuple[int, str]] = []
    for call in tree.find_all(nodes.Call):
        name, chain = path_of(call.node)
        if name in ENGINE and chain != name:
            found.append((call.lineno, f"{chain}(…)"))
    for item in tree.find_all(nodes.Getitem):
        name, chain = path_of(item)
        if name in ENGINE:
            found.append((item.lineno, chain))
    for attr in tree.find_all(nodes.Getattr):
        if path_of(attr)[1] == "state.game":
            found.append((attr.lineno, "state.game"))
    return [f"{line}: {what}" for line, what in sorted(set(found))]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("{{ state.winners() }}", ["1: state.winners(…)"]),
        ("{{ rnd.role_map().items() }}", ["1: rnd.role_map(…)"]),
        ("{{ part.bid_choices(state, step.player) }}", ["1: part.bid_choices(…)"]),
        ("{{ state.setup.players.index(p) }}", ["1: state.setup.players.index(…)"]),
        ("{% set p = state.rounds[step.round - 2] %}", ["1: state.rounds[…]"]),
        (
            "{% for c in state.game.deck.colours %}{{ c }}{% endfor %}",
            ["1: state.game"],
        ),
        ("\n{{ game.deck.count(c) }}", ["2: game.deck.count(…)"]),
        ("{{ state.setup.players | join(', ') }} {{ rnd.tricks_total }}", []),
        ("{{ view.colours }} {{ seats[step.player] }} {{ kept.get('bid', '') }}", []),
        ("{{ _('Round %(n)s', n=step.round) }} {{ url_for('round.show', table_id=t) }}", []),
        ("{{ screen.state.winners() }}", ["1: state.winners(…)"]),
        ("{% set p = screen.state.rounds[screen.step.round - 2] %}", ["1: state.rounds[…]"]),
        ("{{ screen.state.game.title }}", ["1: state.game"]),
        ("{{ screen.part.bids(screen.state, screen.rnd) }}", ["1: part.bids(…)"]),
        ("{{ screen.seats[screen.step.player] }} {{ screen.kept.get('bid', '') }}", []),
        ("{{ screen.totals[p] }} {{ screen.state.setup.players | join(', ') }}", []),
    ],
)
def test_the_check_tells_engine_calls_from_reading_prepared_data(
    app: Flask, source: str, found: list[str]
) -> None:
    assert engine_uses(app, source) == found


def test_no_template_calls_into_the_engine(app: Flask) -> None:
    paths = sorted(TEMPLATES.rglob("*.html"))
    assert TEMPLATES / "round" / "screen.html" in paths
    assert TEMPLATES / "games" / "ebbes" / "steps" / "play.html" in paths
    offences = {
        str(path.relative_to(TEMPLATES)): uses
        for path in paths
        if (uses := engine_uses(app, path.read_text(encoding="utf-8")))
    }
    assert offences == {}


def own_names(tree: nodes.Template) -> set[str]:
    """The names a template gives itself: set, looped over, imported, or its macros."""
    names = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")}
    for found in tree.find_all(nodes.FromImport):
        names |= {name if isinstance(name, str) else name[1] for name in found.names}
    return names | {macro.name for macro in tree.find_all(nodes.Macro)}


def test_the_round_screen_reads_nothing_but_its_screen(app: Flask) -> None:
    """The round screen and the step templates it includes are given one object, ``screen`` (a
    ``RoundScreen``); any other name they read is the app's (a template global, a context
    processor's) or their own. Jinja renders a name nobody gave as nothing, so a name the route
    stopped passing would go unnoticed on the page."""
    with app.test_request_context():
        context: dict[str, object] = {}
        app.update_template_context(context)
    given = {"screen"} | set(app.jinja_env.globals) | set(context)
    paths = [
        TEMPLATES / "round" / "screen.html",
        *sorted((TEMPLATES / "round" / "steps").glob("[!_]*.html")),
        *sorted(TEMPLATES.glob("games/*/steps/*.html")),
    ]
    assert TEMPLATES / "games" / "blackout" / "steps" / "bid.html" in paths
    unknown = {}
    for path in paths:
        tree = app.jinja_env.parse(path.read_text(encoding="utf-8"))
        names = meta.find_undeclared_variables(tree) - given - own_names(tree)
        if names:
            unknown[str(path.relative_to(TEMPLATES))] = sorted(names)
    assert unknown == {}
