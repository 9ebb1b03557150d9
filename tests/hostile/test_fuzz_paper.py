"""Photos of paper cards under fire: whatever is uploaded as a card's photo (bytes, images
with lying headers, a real photo cut anywhere, a real card's photo for the wrong table), the
answer is a page a person can read, never a server error, and the table stays as it was."""

from __future__ import annotations

import random
import struct
import zlib
from functools import cache

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from referee.rules import Setup
from referee.store.tables import create_table, get_table
from tests.hostile.test_fuzz import answered, fuzz
from tests.links import join
from tests.paper.photos import Shot, card_photo
from tests.tools import tool

pytestmark = pytest.mark.hostile

NAMES = ("Ann", "Ben", "Cho", "Dee")
SETUP = Setup("blackout", NAMES, {"max_cards": 2}, "Ann")


@cache
def real_photo() -> bytes:
    return card_photo(random.Random(6), SETUP, Shot(tilt=10), rounds=2)[0]


def png_header(width: int, height: int, rest: bytes) -> bytes:
    head = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + head
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + rest
    )


@st.composite
def photos(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["bytes", "png", "jpeg", "cut", "flipped"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "png":
        side = st.integers(0, 2**31 - 1)
        return png_header(draw(side), draw(side), draw(st.binary(max_size=200)))
    if kind == "jpeg":
        height, width = draw(st.integers(0, 65535)), draw(st.integers(0, 65535))
        return (
            b"\xff\xd8\xff\xc0\x00\x11\x08"
            + struct.pack(">HH", height, width)
            + draw(st.binary(max_size=200))
        )
    data = real_photo()
    if kind == "cut":
        return data[: draw(st.integers(0, len(data)))]
    at = draw(st.integers(0, len(data) - 1))  # one byte changed
    return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]


@pytest.fixture(scope="module")
def paper_table(hostile_app, hostile_client) -> str:
    tool("pdftoppm")
    with hostile_app.app_context():
        table = create_table(Setup("blackout", NAMES, {"max_cards": 2}, "Ann"))
    join(hostile_app, hostile_client, table)
    return table


@fuzz(60)
@given(data=photos(), name=st.sampled_from(["card.jpg", "", "../x.png", "<b>.jpg"]))
def test_photos_under_fire(hostile_app, hostile_client, paper_table, data, name):
    import io

    form = {"photo": (io.BytesIO(data), name)}
    response = hostile_client.post(
        f"/t/{paper_table}/paper", data=form, content_type="multipart/form-data"
    )
    answered(response, what="photo")
    assert response.status_code in (200, 422)
    with hostile_app.app_context():
        assert get_table(paper_table).last_seq == 0


KEYS = [f"c-{n}.{name}.{seat}" for n in (1, 2) for name in ("bid", "took") for seat in (1, 2, 3, 4)]
KEYS += ["c-1.trump", "c-2.trump", "w-1.1", "w-2.3", "w-9.1", "w-1.9", "disputed"]
#: A card's photo as the confirmation carries it (sealed for the table by the test itself).
PHOTO = b"\xff\xd8\xff a kept card"


@st.composite
def confirmations(draw: st.DrawFn) -> dict[str, str]:
    form = {"rounds": draw(st.sampled_from(["1", "2", "0", "99", "-1", "x", ""]))}
    for key in draw(st.lists(st.sampled_from(KEYS), unique=True)):
        form[key] = draw(
            st.sampled_from(["0", "1", "2", "3", "S", "H", "X", "", "-1", "1e9", "10 20", "1:1"])
            | st.text(max_size=12)
        )
    if draw(st.booleans()):
        form[draw(st.text(min_size=1, max_size=30))] = draw(st.text(max_size=30))
    form["seal"] = draw(st.sampled_from(["sealed", "sealed", "sealed", "", "0" * 64]))
    return form


ROUND_ONE = {"rounds": "1", "c-1.trump": "S"} | {f"c-1.bid.{n}": "0" for n in (1, 2, 3, 4)}


@fuzz(80)
@given(form=confirmations())
@example(
    form=ROUND_ONE | {"c-1.took.1": "1", "c-1.took.2": "0", "c-1.took.3": "0", "c-1.took.4": "0"}
)
def test_confirmations_under_fire(hostile_app, form):
    import base64

    from referee.rules import replay
    from referee.store.tables import effective_events
    from referee.web.paper import seal

    client = hostile_app.test_client()
    with hostile_app.app_context():
        table = create_table(Setup("blackout", NAMES, {"max_cards": 2}, "Ann"))
        sealed = seal(table, PHOTO)
    join(hostile_app, client, table)
    form = dict(form, photo=base64.b64encode(PHOTO).decode())
    if form.get("seal", "sealed") == "sealed":
        form["seal"] = sealed
    response = client.post(f"/t/{table}/paper/confirm", data=form)
    answered(response, what="confirm")
    with hostile_app.app_context():
        record = get_table(table)
        assert record is not None
        replay(record.setup, effective_events(record.entries))  # strict: only legal entries
        assert record.last_seq == 0 or response.status_code == 303
