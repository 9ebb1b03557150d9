"""From uploaded bytes to a straightened card: size checks before decoding, the corner
markers, the perspective, the QR code.

Every refusal is a ``PhotoError`` with a ``reason`` code the web page words in the reader's
language: ``format`` (not a JPEG, PNG or WebP image), ``large`` (more pixels than a phone
camera makes: checked from the file's header, before anything is decoded), ``broken`` (it
does not decode), ``markers`` (fewer than three corner squares found), ``code`` (no readable
card code) and ``version`` (a card of a layout this reader does not know).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from referee.paper.layout import (
    PAGE_HEIGHT,
    PAGE_WIDTH,
    VERSION,
    Box,
    CardCode,
    markers,
    read_code,
)

#: The most pixels a photo may have (a 48-megapixel phone camera's), and the longest side. A
#: JPEG is decoded at a half or a quarter of its size as it goes; a PNG or WebP is decoded
#: whole (and may hold 8 bytes a pixel), so it is held to fewer: a phone saves photos as JPEG.
MAX_PIXELS = 50_000_000
MAX_PIXELS_WHOLE = 20_000_000
MAX_SIDE = 12_000
#: The largest upload, in bytes.
MAX_BYTES = 16 * 1024 * 1024
#: A photo is worked on with its longer side at most this long (finer adds time, not reading).
WORK_SIDE = 2400
#: The straightened card's pixels per point.
SCALE = 2.5


class PhotoError(ValueError):
    """A photo that cannot be read as a card; ``reason`` says why (see the module)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Card:
    """A straightened card: its grey image (``SCALE`` pixels a point) and what its code says."""

    image: NDArray[np.uint8]
    code: CardCode


def image_size(data: bytes) -> tuple[str, int, int]:
    """The format, width and height a JPEG, PNG or WebP file's header gives (``PhotoError``
    ``format`` for anything else or a header that says nothing)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp", *_webp_size(data)
    if data.startswith(b"\xff\xd8"):
        return "jpeg", *_jpeg_size(data)
    raise PhotoError("format", "not a JPEG, PNG or WebP image")


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """A JPEG's size from its first frame header (SOF0–SOF15 but DHT, JPG and DAC)."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if at + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise PhotoError("format", "a JPEG without a frame header")


def _webp_size(data: bytes) -> tuple[int, int]:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    raise PhotoError("format", "a WebP without a size")


def decode(data: bytes) -> NDArray[np.uint8]:
    """The photo as a grey image, its longer side at most ``WORK_SIDE``: refused by its header
    when too large, before any pixel is decoded."""
    import cv2

    if len(data) > MAX_BYTES:
        raise PhotoError("large", f"{len(data)} bytes")
    kind, width, height = image_size(data)
    if width <= 0 or height <= 0:
        raise PhotoError("broken", "an image without pixels")
    most = MAX_PIXELS if kind == "jpeg" else MAX_PIXELS_WHOLE
    if width > MAX_SIDE or height > MAX_SIDE or width * height > most:
        raise PhotoError("large", f"{width} × {height} pixels")
    flags = cv2.IMREAD_GRAYSCALE
    longest = max(width, height)
    if longest >= 4 * WORK_SIDE:  # let the JPEG decoder shrink it on the way
        flags = cv2.IMREAD_REDUCED_GRAYSCALE_4
    elif longest >= 2 * WORK_SIDE:
        flags = cv2.IMREAD_REDUCED_GRAYSCALE_2
    image: NDArray[Any] | None = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None or image.size == 0:
        raise PhotoError("broken", "the image does not decode")
    scale = WORK_SIDE / max(image.shape)
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.asarray(image, np.uint8)


def page_corners(box: Box) -> list[tuple[float, float]]:
    """A marker's four corners in points, clockwise from its top left (ArUco's order)."""
    return [
        (box.x, box.y),
        (box.x + box.w, box.y),
        (box.x + box.w, box.y + box.h),
        (box.x, box.y + box.h),
    ]


def straighten(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The card seen square on, ``SCALE`` pixels a point, from at least three corner markers
    (``PhotoError`` ``markers`` otherwise). Whichever way up the photo was taken, the markers'
    ids put the card upright."""
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(dictionary, parameters)
    corners, ids, _rejected = detector.detectMarkers(image)
    places = markers()
    seen: dict[int, NDArray[Any]] = {}
    if ids is not None:
        for found, number in zip(corners, ids.ravel(), strict=True):
            if 0 <= number < len(places) and number not in seen:
                seen[int(number)] = found.reshape(4, 2)
    if len(seen) < 3:
        raise PhotoError("markers", f"{len(seen)} of the 4 corner squares found")
    source = np.concatenate([seen[n] for n in sorted(seen)]).astype(np.float32)
    target = np.array(
        [point for n in sorted(seen) for point in page_corners(places[n])], np.float32
    )
    homography, _mask = cv2.findHomography(source, target * SCALE, 0)
    if homography is None:
        raise PhotoError("markers", "the corner squares do not make a page")
    size = (round(PAGE_WIDTH * SCALE), round(PAGE_HEIGHT * SCALE))
    straight = cv2.warpPerspective(image, homography, size, flags=cv2.INTER_LINEAR, borderValue=255)
    return np.asarray(straight, np.uint8)


def read_card_code(straight: NDArray[np.uint8], qr: Box) -> str:
    """The text of the QR code at ``qr`` on a straightened card ('' when it cannot be read)."""
    import cv2

    pad = 6 * SCALE
    x0, y0 = max(0, int(qr.x * SCALE - pad)), max(0, int(qr.y * SCALE - pad))
    x1, y1 = int((qr.x + qr.w) * SCALE + pad), int((qr.y + qr.h) * SCALE + pad)
    crop = straight[y0:y1, x0:x1]
    detector = cv2.QRCodeDetector()
    for factor in (1, 2, 3):  # a blurred or coarse code often reads at another size or contrast
        tried = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
        sharp = cv2.addWeighted(tried, 2.0, cv2.GaussianBlur(tried, (0, 0), 1.5 * factor), -1, 0)
        binary = cv2.threshold(sharp, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
        for attempt in (tried, sharp, binary):
            text, _points, _straight = detector.detectAndDecode(attempt)
            if text:
                return str(text)
    return ""


def card_of(data: bytes, qr: Box) -> Card:
    """The photo ``data`` as a straightened card with what its QR code (at ``qr``, where every
    version of the card has it) says."""
    straight = straighten(decode(data))
    text = read_card_code(straight, qr)
    named = read_code(text) if text else None
    if named is None:
        raise PhotoError("code", "no card code found" if not text else "not a card's code")
    if named.version != VERSION:
        raise PhotoError("version", f"layout version {named.version}")
    return Card(straight, named)
