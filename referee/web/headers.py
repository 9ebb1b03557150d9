"""Security headers on every response.

Pages use only this app's own script and style sheet (no inline script, no third party), so the
Content-Security-Policy can be strict; QR codes are inline SVG markup, not images. Frames are
refused (no clickjacking of a score button), types are never sniffed, and other sites never see
our addresses in a Referer.
"""

from __future__ import annotations

from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",  # the web app manifest (issue 19); the service worker is a script
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def security_headers(response: Response) -> Response:
    """Add the security headers (a view that set one of its own keeps it)."""
    # Not ``headers.setdefault``: werkzeug raises and catches an exception for each header that
    # is missing, which was a tenth of the cost of serving a static file.
    present = {name.lower() for name, _value in response.headers.items()}
    for name, value in HEADERS.items():
        if name.lower() not in present:
            response.headers.add(name, value)
    return response
