"""The reader of photographed cards: photos made from the printed card (``photos.py``) read
back, tilted and turned; the rules choosing between readings; bad photos refused by reason."""

from __future__ import annotations

import random
import time

import cv2
import numpy as np
import pytest

from referee.paper import photo as photos_module
from referee.paper.layout import MARKER_BITS, CardCode, card_code, card_layout, read_code
from referee.paper.photo import PhotoError
from referee.paper.reader import CardMismatch, Field, disputes, entries, read, round_cells
from referee.rules import Breach, Setup
from tests.paper.photos import Shot, card_photo, fill, photograph, play, totals_of
from tests.tools import tool

NAMES = ("Ann", "Ben", "Cho", "Dee")
BLACKOUT = Setup("blackout", NAMES, {"max_cards": 5}, "Ann")
ALLES = Setup("alles-oder-nichts", NAMES, {}, "Ben")


@pytest.fixture(scope="module", autouse=True)
def poppler():
    tool("pdftoppm")


def test_the_markers_are_opencvs():
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for number, bits in enumerate(MARKER_BITS):
        drawn = cv2.aruco.generateImageMarker(dictionary, number, 6)
        assert (drawn[1:-1, 1:-1] // 255).tolist() == [list(row) for row in bits]


def test_the_code_names_the_card_and_only_what_differs_from_the_defaults():
    options = card_layout("blackout", 4, {"max_cards": 5}).options
    assert read_code(card_code("blackout", 4, options)) == CardCode(
        1, "blackout", 4, {"max_cards": 5}, None
    )
    assert card_code("blackout", 4, options, "Tq0-x_9") == 'TR1 blackout 4 Tq0-x_9 {"max_cards":5}'
    assert read_code(card_code("blackout", 4, options, "Tq0-x_9")).table == "Tq0-x_9"
    assert read_code("https://example.org") is None
    assert read_code("TR1 blackout 4 - [1, 2]") is None
    assert read_code("TR1 blackout four - {}") is None


def checked(reading, values):
    """The reading's accepted cells are all right, and with the questions answered the card
    is the table's entries."""
    wrong = [c.key for c in reading.cells if not c.doubtful and c.value != values[c.key]]
    assert wrong == []
    answered = {c.key: values[c.key] if c.doubtful else c.value for c in reading.cells}
    assert answered == values
    entries(Setup(*_setup_of(reading)), answered, reading.rounds)


def _setup_of(reading):
    setup = BLACKOUT if reading.layout.game == "blackout" else ALLES
    return setup.game, setup.players, setup.options, setup.first


@pytest.mark.parametrize(
    ("setup", "shot"),
    [
        (BLACKOUT, Shot()),
        (BLACKOUT, Shot(tilt=25, turn=180, blur=0.8, light=0.4, shadow=True, quality=65)),
        (ALLES, Shot(tilt=18, turn=-15, blur=0.5, light=0.3, quality=75)),
    ],
    ids=["square-on", "upside-down-tilted", "alles-tilted"],
)
def test_a_photo_is_read_back_and_asks_little(setup, shot):
    data, values = card_photo(random.Random(3), setup, shot)
    started = time.process_time()
    reading = read(data, setup)
    assert time.process_time() - started < 5
    assert reading.rounds == len(card_layout(setup.game, 4, setup.options).rounds)
    checked(reading, values)
    assert len(reading.doubts()) <= 0.15 * len(reading.cells)
    for cell in reading.doubts():
        png = reading.cutout(cell)
        assert png.startswith(b"\x89PNG")


def test_a_card_filled_in_halfway_is_read_as_far_as_it_goes():
    data, values = card_photo(random.Random(4), BLACKOUT, Shot(tilt=10), rounds=4)
    reading = read(data, BLACKOUT)
    assert reading.rounds == 4
    checked(reading, values)


def odds(best: int, p: float, high: int = 3) -> dict[int, float]:
    return {v: p if v == best else (1 - p) / high for v in range(high + 1)}


def tricks(*boxes: dict[int, float]):
    layout = card_layout(BLACKOUT.game, 4, BLACKOUT.options)
    box = layout.rounds[0].players[0].took[0]
    fields = [Field(f"3.took.{n}", n, "took", box, o, False) for n, o in enumerate(boxes, 1)]
    return {c.key: c for c in round_cells(fields, layout, 3, hook=True)}


def test_the_rules_choose_the_tricks_that_add_up_to_the_hand():
    # A hand of 3: the boxes alone say 1, 1, 0 and, barely, 2 (4 tricks): the rules choose 1.
    read = tricks(odds(1, 0.97), odds(1, 0.97), odds(0, 0.97), {0: 0.01, 1: 0.4, 2: 0.58, 3: 0.01})
    assert [read[f"3.took.{n}"].value for n in range(1, 5)] == [1, 1, 0, 1]
    assert [read[f"3.took.{n}"].alone for n in range(1, 5)] == [1, 1, 0, 2]


def test_a_reading_the_rules_overrule_is_asked_about():
    # The fourth box looks like a sure 2, but the hand is 3: the reader does not know which
    # box is wrong, and asks.
    read = tricks(odds(1, 0.97), odds(1, 0.97), odds(0, 0.97), odds(2, 0.97))
    assert any(cell.doubtful for cell in read.values())
    assert sum(cell.value for cell in read.values()) == 3


def test_two_likely_readings_are_asked_about():
    read = tricks(odds(1, 0.97), odds(1, 0.97), {0: 0.5, 1: 0.48, 2: 0.01, 3: 0.01}, odds(1, 0.5))
    assert read["3.took.3"].doubtful
    assert set(read["3.took.3"].choices[:2]) == {0, 1}


def test_the_engine_refuses_a_card_that_breaks_the_hook():
    values = play(random.Random(1), BLACKOUT, rounds=1)
    hand = 1
    values["1.bid.1"], values["1.bid.2"], values["1.bid.3"], values["1.bid.4"] = 0, 0, 0, hand
    with pytest.raises(Breach):
        entries(BLACKOUT, values, 1)


@pytest.fixture(scope="module")
def blackout_photo():
    return card_photo(random.Random(8), BLACKOUT, Shot(tilt=8, turn=5), rounds=2)[0]


def reason(data: bytes, setup: Setup = BLACKOUT) -> str:
    with pytest.raises(PhotoError) as refused:
        read(data, setup)
    return refused.value.reason


def test_what_is_not_a_photo_is_refused():
    assert reason(b"") == "format"
    assert reason(b"GIF89a" + b"\x00" * 100) == "format"
    assert reason(b"%PDF-1.4 a scorecard, but not photographed") == "format"


def test_an_image_bomb_is_refused_by_its_header_before_decoding(monkeypatch):
    def never(*args):
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", never)
    bomb = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (50_000).to_bytes(4, "big") * 2 + b"\x08\x00"
    assert reason(bomb) == "large"
    _ok, jpeg = cv2.imencode(".jpg", np.zeros((8, 8), np.uint8))
    header = bytearray(jpeg.tobytes())
    at = header.index(b"\xff\xc0")
    header[at + 5 : at + 9] = (30_000).to_bytes(2, "big") * 2  # 30,000 × 30,000 claimed
    assert reason(bytes(header)) == "large"
    assert reason(b"\x00" * (photos_module.MAX_BYTES + 1)) == "large"
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (5000).to_bytes(4, "big") * 2 + b"\x08\x00"
    assert reason(png) == "large"  # 25 megapixels: a PNG is decoded whole, so fewer than a JPEG


def test_a_truncated_photo_is_refused(blackout_photo):
    assert reason(blackout_photo[: len(blackout_photo) // 3]) in ("broken", "markers")
    assert reason(blackout_photo[:200]) in ("broken", "format")


def test_a_photo_of_something_else_is_refused():
    rng = np.random.default_rng(1)
    scene = cv2.GaussianBlur(rng.integers(0, 255, (900, 1200), dtype=np.uint8), (0, 0), 3)
    _ok, jpeg = cv2.imencode(".jpg", scene)
    assert reason(jpeg.tobytes()) == "markers"


def test_a_card_whose_code_is_covered_is_refused():
    layout = card_layout(BLACKOUT.game, 4, BLACKOUT.options)
    page = fill(random.Random(2), layout, play(random.Random(2), BLACKOUT, rounds=1))
    px = page.shape[1] / 595.2756
    q = layout.qr
    page[int(q.y * px) : int((q.y + q.h) * px), int(q.x * px) : int((q.x + q.w) * px)] = 255
    assert reason(photograph(random.Random(2), page, Shot())) == "code"


def test_a_card_of_another_game_or_size_is_refused(blackout_photo):
    with pytest.raises(CardMismatch) as other:
        read(blackout_photo, ALLES)
    assert other.value.reason == "game"
    with pytest.raises(CardMismatch) as smaller:
        read(blackout_photo, Setup("blackout", NAMES[:3], {"max_cards": 5}, "Ann"))
    assert smaller.value.reason == "players"
    with pytest.raises(CardMismatch) as rules:
        read(blackout_photo, Setup("blackout", NAMES, {"max_cards": 4}, "Ann"))
    assert rules.value.reason == "options"


def test_a_50_megapixel_photo_is_read_shrunk_as_it_is_decoded(blackout_photo):
    # A phone's largest photos (8,160 × 6,120) are read, decoded at a quarter of their size;
    # one pixel more than 50 million is refused by its header.
    small = cv2.imdecode(np.frombuffer(blackout_photo, np.uint8), cv2.IMREAD_GRAYSCALE)
    tall = small.shape[0] > small.shape[1]
    big = cv2.resize(small, (6120, 8160) if tall else (8160, 6120))
    _ok, jpeg = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 85])
    started = time.process_time()
    assert read(jpeg.tobytes(), BLACKOUT).rounds == 2
    assert time.process_time() - started < 5
    header = bytearray(jpeg.tobytes())
    at = header.index(b"\xff\xc0")
    header[at + 5 : at + 9] = (6125).to_bytes(2, "big") + (8164).to_bytes(2, "big")
    assert reason(bytes(header)) == "large"


def test_a_tables_card_is_read_for_that_table_only():
    table = "HodwlAAMtcon6dy8-5H68A"  # a table's id as the app makes them: 22 characters
    data, values = card_photo(random.Random(9), BLACKOUT, Shot(tilt=15, blur=0.8), 2, table)
    checked(read(data, BLACKOUT, table), values)
    assert read(data, BLACKOUT).rounds == 2  # nothing to check it against
    with pytest.raises(CardMismatch) as other:
        read(data, BLACKOUT, "another-table-of-22-ch")
    assert other.value.reason == "table"


def test_a_blank_card_fits_any_table_like_it(blackout_photo):
    assert read(blackout_photo, BLACKOUT, "any-table").rounds == 2


def test_the_running_totals_written_are_read_and_a_slip_is_a_dispute():
    rng = random.Random(11)
    values = play(rng, ALLES)
    layout = card_layout(ALLES.game, 4, ALLES.options)
    right = totals_of(ALLES, values, 7)
    page = fill(rng, layout, values, totals=right)
    reading = read(photograph(rng, page, Shot(tilt=12, turn=4, blur=0.5)), ALLES)
    assert sum(right[place] in readings for place, readings in reading.totals.items()) >= 26
    # A total that disagrees here is a box read wrong (the total is right): its boxes are asked.
    for dispute in reading.disputes:
        assert dispute.written == right[dispute.round, dispute.seat]
        misread = [c for c in reading.cells if c.seat == dispute.seat and c.value != values[c.key]]
        assert misread and all(c.doubtful for c in misread if c.round == dispute.round)
    answered = {c.key: values[c.key] if c.doubtful else c.value for c in reading.cells}
    assert disputes(ALLES, answered, 7, reading.totals) == []
    # Ben writes 10 too many after round 3 and carries it on: one dispute, at round 3, with
    # his score there (the rule's terms); his boxes of round 3 are asked about.
    slipped = {
        (n, seat): total + (10 if seat == 2 and n >= 3 else 0) for (n, seat), total in right.items()
    }
    page = fill(random.Random(11), layout, values, totals=slipped)
    reading = read(photograph(random.Random(12), page, Shot(tilt=12, turn=4)), ALLES)
    [dispute] = reading.disputes
    assert (dispute.round, dispute.seat, dispute.player) == (3, 2, "Ben")
    assert (dispute.written, dispute.computed) == (slipped[3, 2], right[3, 2])
    assert dispute.score.terms and dispute.score.explain().startswith(
        "secret" if not values["3.open.2"] else "open"
    )
    asked = {c.key for c in reading.doubts()}
    assert {"3.bid.2", "3.took.2", "3.open.2"} <= asked
    # Answered, the card's totals no longer disagree anywhere but on Ben's slip.
    answered = {c.key: values[c.key] if c.doubtful else c.value for c in reading.cells}
    assert [(d.round, d.seat) for d in disputes(ALLES, answered, 7, reading.totals)] == [(3, 2)]
    assert disputes(ALLES, answered, 7, {place: (t,) for place, t in right.items()}) == []
