"""Groups through the web client as phones use them: create one, open its links, start a table,
read what a page says."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.store.groups import get_group, make_group_link
from tests.links import open_shared

SIX = ("Ann", "Ben", "Cho", "Dee", "Eve", "Fay")


def new_group(client: FlaskClient, name: str = "Friday club", players=SIX) -> str:
    """A new group made from the home page's form; ``client`` keeps it."""
    response = client.post(
        "/groups/new",
        data={"name": name, "players": "\n".join(players), "time_zone": "Europe/Berlin"},
    )
    assert response.status_code == 303, response.text[-2000:]
    location = response.headers["Location"]
    assert location.startswith("/g/")
    return group_id_at(location)


def group_id_at(location: str) -> str:
    """The group's id in the address of one of its pages (a new group's first page is its
    keeper link's, ``/g/<id>/my-link?made=1``)."""
    found = re.search(r"/g/([^/?#]+)", location)
    assert found is not None, location
    return found[1]


def group_link(app: Flask, group_id: str, kind: str = "viewer") -> str:
    with app.app_context():
        return make_group_link(group_id, kind)


def join_group(app: Flask, client: FlaskClient, group_id: str, kind: str = "viewer") -> str:
    """Open a new ``kind`` link of the group in ``client`` (as shared: ``/j#<token>``)."""
    token = group_link(app, group_id, kind)
    response = open_shared(client, f"/j#{token}")
    assert response.status_code == 303, response.status_code
    assert response.headers["Location"].endswith(f"/g/{group_id}")
    return token


def stored(app: Flask, group_id: str):
    with app.app_context():
        return get_group(group_id)


def start(client: FlaskClient, group_id: str, game: str = "blackout", **fields) -> object:
    """Post the group's start form: ``here`` (chip values), ``dealer``, ``guests``, options."""
    data = {"game": game, "dealer": "next", **fields}
    return client.post(f"/g/{group_id}/new", data=data)


def start_table(client, group_id: str, here: list[str], game: str = "blackout") -> str:
    """Tonight's next table of the group, started by its keeper ``client`` with ``here``."""
    response = start(client, group_id, game, here=here)
    assert response.status_code == 303, main_text(response)
    return response.headers["Location"].rsplit("/", 1)[-1]


def main_text(response) -> str:
    """The words of a page's ``<main>``, tags taken out, spaces squeezed."""
    page = response.get_data(as_text=True)
    main = page.split("<main>", 1)[-1].split("</main>", 1)[0]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", main))).strip()


def error_text(response) -> str:
    found = re.findall(r'<(p|div) class="error-box"[^>]*>(.*?)</\1>', response.text, re.S)
    assert found, "no error on the page"
    text = " ".join(inside for _tag, inside in found)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text))).strip()


def chip_values(page: str, name: str = "here") -> list[str]:
    return re.findall(rf'<input type="(?:checkbox|radio)" name="{name}" value="([^"]*)"', page)


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found, "no version on the page"
    return found.group(1)


def import_group_file(client: FlaskClient, data: bytes, time_zone: str = "Europe/Berlin"):
    """Post a group file to ``/groups/import`` and follow the page that says how far its
    loading is until it is over (the response: a 303 to the new group, or the page with why it
    was refused)."""
    import io

    response = client.post(
        "/groups/import",
        data={"group": (io.BytesIO(data), "group.json"), "time_zone": time_zone},
        content_type="multipart/form-data",
    )
    return loaded(client, response)


def loaded(client: FlaskClient, response, seconds: float = 30.0):
    """Follow an upload's answer while it sends to the page of its loading, asking that page
    as a browser does, until the loading is over: its last answer."""
    import time

    deadline = time.monotonic() + seconds
    while response.status_code in (200, 303) and "/groups/import/" in (
        response.headers.get("Location", "")
        if response.status_code == 303
        else response.request.path
    ):
        if response.status_code == 303:
            response = client.get(response.headers["Location"])
            continue
        assert time.monotonic() < deadline, "the group file was still loading"
        time.sleep(0.05)
        response = client.get(response.request.path)
    return response


@contextmanager
def loading_here(start: bool = True) -> Iterator[None]:
    """Meanwhile a group file uploaded is loaded in the request that uploads it, by the loader's
    own ``work``, not by a process of its own (which takes seconds to start: for tests that
    upload many); with ``start`` false, no loader is started and the job waits."""
    from flask import current_app

    from referee.web.groups import transfer
    from referee.web.groups.import_job import lock_path, work

    def here() -> None:
        if start:
            work(current_app._get_current_object(), lock_path(current_app))  # type: ignore[attr-defined]

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(transfer, "start_loader", here)
        yield


def imported(client: FlaskClient, data: bytes) -> str:
    """The id of a new group loaded from ``data`` (``client`` keeps it), by the loader's own
    ``work`` in this process (``loading_here``): the tests of a group's numbers load many, and
    the loader's process is tested where it matters (``import_group_file``, in
    ``test_groups_transfer.py`` and the browser tests)."""
    with loading_here():
        response = import_group_file(client, data)
    assert response.status_code == 303, error_text(response)
    return group_id_at(response.headers["Location"])
