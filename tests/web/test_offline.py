"""What a phone needs to keep the app without a signal and to install it (issue 19), as served:
the service worker's script at ``/sw.js``, the web app manifest and its icons, the tab's icon.
The browser's side is tested in Chromium (``tests/e2e/test_offline.py``)."""

from __future__ import annotations

import gc
import io
import json
import re
import warnings

from PIL import Image


def test_the_service_worker_is_served_from_the_root_with_the_pages_static_files(client):
    page = client.get("/").text
    assert 'data-sw="/sw.js"' in page  # its scope is then the whole app
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    listed = json.loads(re.search(r"^const STATIC = (.*);$", worker.text, re.M).group(1))
    named = re.findall(r'(?:href|src)="(/static/(?:style|app)\.[0-9a-f]{12}\.(?:css|js))"', page)
    assert len(named) == 2 and set(named) < set(listed)  # the versions the page uses
    group_page = client.get("/g/new").text  # and the group pages' own style sheet and script
    grouped = re.findall(r'(?:href|src)="(/static/groups\.[0-9a-f]{12}\.(?:css|js))"', group_page)
    assert len(grouped) == 2
    assert len(listed) == 4 and sorted(listed) == sorted(named + grouped)
    assert re.search(r'^const VERSION = "[0-9a-f]{12}";$', worker.text, re.M)


def test_the_service_worker_is_a_304_until_the_app_changes(client):
    first = client.get("/sw.js")
    again = client.get("/sw.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_manifest_names_the_app_its_colours_and_icons_of_192_and_512_pixels(client):
    page = client.get("/").text
    address = re.search(r'<link rel="manifest" href="([^"]+)"', page).group(1)
    with client.get(address) as answer:  # a file response (speed layer off): closed when read
        assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
        manifest = json.loads(answer.data)
    assert manifest["name"] == "Table Referee" and manifest["short_name"]
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = set()
    for icon in manifest["icons"]:
        with client.get(f"/static/{icon['src']}") as drawn:
            assert drawn.status_code == 200 and drawn.mimetype == "image/png"
            width, height = Image.open(io.BytesIO(drawn.data)).size
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    # The bar's colour follows the system's light or dark.
    assert re.search(r'name="theme-color" media="\(prefers-color-scheme: light\)"', page)
    assert re.search(r'name="theme-color" media="\(prefers-color-scheme: dark\)"', page)


def test_the_tab_icon_is_there_where_browsers_ask_for_it(client):
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/png"
        assert Image.open(io.BytesIO(icon.data)).size == (48, 48)
        etag = icon.headers["ETag"]
    again = client.get("/favicon.ico", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data


def test_the_tab_icon_leaves_no_file_open(client):
    # A browser may go away before it has read the icon: nothing is left open behind it.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        response = client.get("/favicon.ico", buffered=False)
        assert response.status_code == 200
        del response
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)]
