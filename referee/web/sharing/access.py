"""Who may do what at a table or in a group: the links a browser holds, checked on every request.

A table opens only through one of its links (``referee.store.links``): a *keeper* link records
and corrects, a *viewer* link only looks, a *player* link looks and lets one player seal their
own secret bid. A group opens only through one of its own (``referee.store.groups``): a *keeper*
link starts tables, edits the roster, keeps and lets go of tables and starts seasons; a *viewer*
link only looks. Opening a link keeps its token, with what it opens, in the browser's session (a
signed cookie) under the table's or the group's id — tables' under ``links``, groups' under
``groups``: a table's link never opens a group, a group's never a table — and sends the browser
on, so the addresses themselves carry no power: ``/t/<id>`` or ``/g/<id>`` in a Referer, a log or
over someone's shoulder opens nothing.

``Things`` is one kind of thing a link opens, ``TABLES`` or ``GROUPS``: its session keys, its
store look-ups, its ranks and its refusals, with one set of methods that hold, check, grant, show
again and forget a browser's link of that kind. Every view of a table calls ``TABLES.require``,
of a group ``GROUPS.require``; a write needs the keeper link *and* the form's CSRF token, and
checks in its own statement that the link still opens the table (``write``) or keeps the group.

How a shared link is opened (``/j#<token>``, of either kind) is the sharing pages'
(``referee.web.sharing.routes``).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Generic, NoReturn, Protocol, TypeVar

from flask import (
    abort,
    current_app,
    g,
    request,
    session,
)
from werkzeug.exceptions import Forbidden

from referee.store.groups import GroupAccess, group_access, group_version
from referee.store.links import Access, NoAccess, access, make_link
from referee.store.models import utcnow
from referee.store.tables import (
    LogEntry,
    add_entry,
    created_since,
    current_seq,
)
from referee.web.i18n import gettext
from referee.web.loading import tables
from referee.web.polls import poll_key
from referee.web.recent import KEEP, remember


class Opened(Protocol):
    """What a link opens, as the store says: at least the kind of link."""

    @property
    def kind(self) -> str: ...


A = TypeVar("A", bound=Opened)


class LinkNeeded(Forbidden):
    """The 403 for a browser that holds no link (or a revoked one) to a table or group that is
    there (``thing``: "table" or "group"): its page says what to do — open the link kept, ask
    for one, or have the server make one — and takes a link pasted, instead of a dead end."""

    def __init__(self, description: str, thing: str) -> None:
        super().__init__(description)
        self.thing = thing


@dataclass(frozen=True)
class Things(Generic[A]):
    """One kind of thing a link opens (tables, groups), and how a browser's links to them are
    held, checked, granted, shown again and forgotten.

    ``key``: the session's dict of held links, id → ``[token, kind, *extra]`` (``fields`` long;
    a table's may be its bare token, as sessions were before they said what a link opened).
    ``shown_key``: the session's dict of links this browser made, to show again, id → kind →
    token (a group's may be a bare token, its viewer link's, as those sessions were). ``keep``:
    how many ids each holds, the newest. ``ranks``: how much each kind of link allows.

    ``find(token, id, fresh, opened)``: what a token opens of the thing (``fresh``: asked of the
    database; ``opened``: what the session says it opened, enough for a request whose write
    checks the link itself); ``find_any(token)``: what a token opens of this kind, if anything;
    ``exists(id)``; ``owner(opened)``: the id of what a link opens; ``made(id, kind, extra)``:
    what a link opens, from the session; ``extra(opened)``: what the session keeps of it beyond
    the kind; ``forget(id)``: forget what this process keeps of the thing's links (after
    revoking some); ``remember(id)``: what granting a link also keeps in the session.
    ``fresh``: whether ``find`` always asks the database. Then the sentences of the 404 (None:
    the plain page) and the 403 pages: the link was revoked, there is none, it allows too
    little."""

    key: str
    shown_key: str
    fields: int
    keep: int
    ranks: Mapping[str, int]
    find: Callable[[str, str, bool, A | None], A | None]
    find_any: Callable[[str], A | None]
    exists: Callable[[str], bool]
    owner: Callable[[A], str]
    made: Callable[[str, str, list[Any]], A]
    extra: Callable[[A], list[Any]]
    forget: Callable[[str], None]
    remember: Callable[[str], None]
    fresh: bool
    missing: Callable[[], str | None]
    revoked: Callable[[], str]
    no_link: Callable[[], str]
    too_little: Callable[[], str]
    #: What a thing is called in the pages' help ("table", "group").
    thing: str = "table"

    def held_link(self, thing_id: str) -> tuple[str, A | None] | None:
        """The link this browser holds to the thing: its token, and what it opened when the
        browser opened it (``grant``; None in a session from before sessions said so)."""
        return self.held_in(session, thing_id)

    def held_in(self, data: Mapping[str, Any], thing_id: str) -> tuple[str, A | None] | None:
        """The link a session's ``data`` holds to the thing (see ``held_link``)."""
        links = data.get(self.key)
        value = links.get(thing_id) if isinstance(links, dict) else None
        if isinstance(value, str):
            return value, None
        if (
            isinstance(value, list)
            and len(value) == self.fields
            and isinstance(value[0], str)
            and value[1] in self.ranks
            and all(v is None or isinstance(v, str) for v in value[2:])
        ):
            return value[0], self.made(thing_id, value[1], value[2:])
        return None

    def held_token(self, thing_id: str) -> str | None:
        """The token of the link this browser holds to the thing, if any."""
        found = self.held_link(thing_id)
        return None if found is None else found[0]

    def held(self, thing_id: str, fresh: bool = False, writes: bool = False) -> A | None:
        """What this browser's link opens of the thing (None: no link, or a revoked one), looked
        up once per request (``find``): from what the process knows of the links unless
        ``fresh``, which asks the database. ``writes``: the request writes with the link and the
        write checks that the link still opens the thing; so, unless the app knows the link,
        what the session says the link opened is enough to decide what it may write (a link's
        kind and player never change, and the session is signed), without reading the link
        first."""
        cache = g.setdefault(f"access:{self.key}", {})
        if thing_id not in cache or (fresh and not cache[thing_id][1]):
            link = self.held_link(thing_id)
            if link is None:
                cache[thing_id] = (None, fresh or self.fresh)
            else:
                token, opened = link
                found = self.find(token, thing_id, fresh, opened if writes else None)
                cache[thing_id] = (found, fresh or self.fresh)
        held: A | None = cache[thing_id][0]
        return held

    def keeps(self, thing_id: str) -> bool:
        """Whether this browser holds a keeper link of the thing."""
        found = self.held(thing_id)
        return found is not None and found.kind == "keeper"

    def require(self, thing_id: str, need: str = "viewer", write_checks_link: bool = False) -> A:
        """This browser's access to the thing, if it is at least ``need``; else a 404 (no such
        thing) or a 403 page that says what would let them in.

        A read trusts the links this process keeps; any other request asks the database, unless
        ``write_checks_link``: its write checks the link itself, in the statement that writes."""
        found = self.held(
            thing_id,
            fresh=request.method != "GET" and not write_checks_link,
            writes=write_checks_link,
        )
        if found is not None and self.ranks[found.kind] >= self.ranks[need]:
            return found
        if found is None and not self.exists(thing_id):
            abort(404, description=self.missing())
        if found is None and self.held_token(thing_id) is not None:
            self.refuse_revoked()
        if found is None:
            raise LinkNeeded(self.no_link(), self.thing)
        abort(403, description=self.too_little())

    def refuse_revoked(self) -> NoReturn:
        """The 403 page for a browser whose link to the thing has been revoked."""
        raise LinkNeeded(self.revoked(), self.thing)

    def grant(self, token: str, opened: A) -> None:
        """Keep ``token`` as this browser's link to what it opens, with what it opens
        (``held_link``), the newest few."""
        thing_id = self.owner(opened)
        links = session.get(self.key)
        links = dict(links) if isinstance(links, dict) else {}
        links.pop(thing_id, None)
        links[thing_id] = [token, opened.kind, *self.extra(opened)]
        session[self.key] = dict(list(links.items())[-self.keep :])
        g.pop(f"access:{self.key}", None)
        self.remember(thing_id)

    def opens(self, token: str) -> A | None:
        """What ``token`` opens of this kind, granted to this browser (None: nothing). A browser
        holding a link of the same thing that allows more keeps that one (a scorekeeper
        scanning the spectator QR code stays the scorekeeper)."""
        found = self.find_any(token)
        if found is None:
            return None
        mine = self.held(self.owner(found))
        if mine is None or self.ranks[mine.kind] <= self.ranks[found.kind]:
            self.grant(token, found)
        else:
            self.remember(self.owner(found))
        return found

    def held_ids(self) -> list[str]:
        """The things this browser holds a link of, the newest first."""
        links = session.get(self.key)
        return list(reversed(links)) if isinstance(links, dict) else []

    def shown_token(self, thing_id: str, kind: str = "viewer") -> str | None:
        """The token of a ``kind`` link this browser made for the thing, to show again."""
        shown = session.get(self.shown_key)
        tokens = shown.get(thing_id) if isinstance(shown, dict) else None
        if isinstance(tokens, str):  # a group's, as sessions kept it before
            tokens = {"viewer": tokens}
        token = tokens.get(kind) if isinstance(tokens, dict) else None
        return token if isinstance(token, str) else None

    def keep_shown(self, thing_id: str, kind: str, token: str) -> None:
        """Keep a link this browser made, so the thing's share page can show it again."""
        shown = session.get(self.shown_key)
        shown = dict(shown) if isinstance(shown, dict) else {}
        tokens = shown.pop(thing_id, None)
        if isinstance(tokens, str):
            tokens = {"viewer": tokens}
        tokens = dict(tokens) if isinstance(tokens, dict) else {}
        tokens[kind] = token
        shown[thing_id] = tokens
        session[self.shown_key] = dict(list(shown.items())[-self.keep :])


def stays() -> None:
    """Make the session permanent (Flask's 31 days), so the links in it outlive a phone closing
    its browser in the middle of a card evening."""
    if not session.permanent:  # setting it marks the session changed: a new cookie each time
        session.permanent = True


def table_link(token: str, table_id: str, fresh: bool, opened: Access | None) -> Access | None:
    """What the app's tables know of a link (``referee.web.loading``: kept ones forget a link
    revoked in another process within a sweep); ``opened``, when given, stands in for a read of
    a link the app does not know yet."""
    return tables().link(token, table_id, fresh, opened)


def forget_links(table_id: str) -> None:
    """Forget the table's links this process knows (after revoking some)."""
    tables().forget_links(table_id)


def no_table_link() -> str:
    return gettext(
        "This table opens only with one of its links. Ask the scorekeeper to show you the "
        "spectator link or its QR code."
    )


def table_link_revoked() -> str:
    return gettext(
        "The link this phone opened the table with has been revoked. Ask the scorekeeper for a "
        "new one."
    )


def not_a_scorekeeper() -> str:
    return gettext(
        "Only the scorekeeper's phone can change this table; this phone follows it. To keep "
        "score, open the scorekeeper link."
    )


def no_group() -> str:
    return gettext(
        "There is no group at this address. If someone shared its link with you, check that "
        "it was copied whole."
    )


def group_link_revoked() -> str:
    return gettext(
        "The link this phone opened the group with has been revoked. Ask someone who keeps the "
        "group for a new one."
    )


def no_group_link() -> str:
    return gettext(
        "This group opens only with one of its links. Ask someone who keeps the group to show "
        "you its link or its QR code."
    )


def not_a_group_keeper() -> str:
    return gettext(
        "This phone only follows the group: only a keeper's link can change it. Ask someone who "
        "keeps the group for a keeper link."
    )


#: A table's links: ``links`` hold [token, kind, player]; a table granted is on the browser's
#: home page (``remember``). Pages trust what the app's tables know of a link (``tables()``).
TABLES: Things[Access] = Things(
    key="links",
    shown_key="shown",
    fields=3,
    keep=2 * KEEP,
    ranks={"viewer": 0, "player": 1, "keeper": 2},
    find=table_link,
    find_any=access,
    exists=lambda table_id: current_seq(table_id) is not None,
    owner=lambda opened: opened.table_id,
    made=lambda table_id, kind, extra: Access(table_id, kind, extra[0]),
    extra=lambda opened: [opened.player],
    forget=forget_links,
    remember=remember,
    fresh=False,
    missing=lambda: None,
    revoked=table_link_revoked,
    no_link=no_table_link,
    too_little=not_a_scorekeeper,
)

#: A group's links: ``groups`` hold [token, kind]; every request asks the database.
GROUPS: Things[GroupAccess] = Things(
    key="groups",
    shown_key="group_shown",
    fields=2,
    keep=6,
    ranks={"viewer": 0, "keeper": 1},
    find=lambda token, group_id, fresh, opened: group_access(token, group_id),
    find_any=group_access,
    exists=lambda group_id: group_version(group_id) is not None,
    owner=lambda opened: opened.group_id,
    made=lambda group_id, kind, extra: GroupAccess(group_id, kind),
    extra=lambda opened: [],
    forget=lambda group_id: None,
    remember=lambda group_id: stays(),
    fresh=True,
    missing=no_group,
    revoked=group_link_revoked,
    no_link=no_group_link,
    too_little=not_a_group_keeper,
    thing="group",
)


def write(table_id: str, expected_seq: int, kind: str, payload: Mapping[str, Any]) -> LogEntry:
    """Append to the table's log (``add_entry``) with this browser's link, which the write
    checks itself: a link revoked since it was looked up writes nothing and gets the 403 page.
    ``StaleTable`` as ``add_entry``."""
    try:
        return add_entry(table_id, expected_seq, kind, payload, link=TABLES.held_token(table_id))
    except NoAccess:
        forget_links(table_id)
        TABLES.refuse_revoked()


def links_in_templates() -> dict[str, object]:
    """``keeps_score(table_id)``, ``held(table_id)`` and ``keeps_group(group_id)`` for templates
    (controls only a keeper may use are left out of everybody else's pages), and ``poll_key``."""
    return {
        "keeps_score": TABLES.keeps,
        "held": TABLES.held,
        "keeps_group": GROUPS.keeps,
        "poll_key": poll_key,
    }


def creator() -> str:
    """Who is creating a table, for the rate limit: a keyed hash of the network address (the
    address itself is never stored)."""
    address = (request.remote_addr or "").encode()
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, address, hashlib.sha256).hexdigest()[:32]


def may_create() -> bool:
    """Whether this address may create another table now: at most ``TABLE_LIMIT`` tables in
    ``TABLE_LIMIT_SECONDS`` (config), plenty for a club evening behind one address, too few to
    fill the database from a script. The early, friendly check (the form is shown again with
    everything typed); ``create_table`` enforces the limit exactly, and a creation that loses a
    race for the last place gets the page of ``refuse_creation``."""
    limit = int(current_app.config["TABLE_LIMIT"])
    window = timedelta(seconds=int(current_app.config["TABLE_LIMIT_SECONDS"]))
    return created_since(creator(), utcnow() - window) < limit


def too_many_tables() -> str:
    """What a refused creation says."""
    return gettext(
        "Too many new tables from this network in a short time. Wait a few minutes and try "
        "again; nothing you entered is lost."
    )


def open_new_table(table_id: str) -> None:
    """Make the new table's scorekeeper link (this browser's) and a spectator link to share."""
    keeper = make_link(table_id, "keeper", commit=False)
    viewer = make_link(table_id, "viewer")
    TABLES.grant(keeper, Access(table_id, "keeper", None))
    TABLES.keep_shown(table_id, "viewer", viewer)
