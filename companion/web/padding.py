"""Same size, whatever the secret: what a seat's phone receives is padded to a size bucket.

A seat's view carries its hidden squares, so its length would tell a device on the table's
network (which sees every packet's size, encrypted or not) a Ninja step from a skip. Every
answer to a seat's requests and every message of its stream is padded to ``bucket(n)``: at
least ``MIN_BUCKET`` bytes, else the next power of two. A seat's view is 1 to 3 kB through a
whole game, so in practice every message takes the smallest bucket; the hidden part of a view
(a Ninja's square, its steps) is a few dozen bytes, far below the bucket's width.

The padding is where clients never look: spaces after the JSON value (JSON allows them, and
``JSON.parse`` and ``response.json()`` ignore them), spaces after an HTML page's last tag, an
SSE comment line before an event. The phone pads its own requests the same way (seat.js).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

MIN_BUCKET = 8 * 1024
REQUEST_BUCKET = 512     # the phone's requests (seat.js pads to this size too)


def bucket(n: int, smallest: int = MIN_BUCKET) -> int:
    """The padded size of an ``n``-byte message."""
    return max(smallest, 1 << max(0, n - 1).bit_length())


def pad_body(body: bytes) -> bytes:
    """A JSON or HTML body with trailing spaces up to its bucket."""
    return body + b" " * (bucket(len(body)) - len(body))


def pad_event(chunk: str | bytes) -> bytes:
    """An SSE chunk preceded by a comment line that brings it to its bucket."""
    data = chunk.encode() if isinstance(chunk, str) else chunk
    # ":" + spaces + "\n" is a comment line: at least 2 bytes.
    size = bucket(len(data) + 2)
    return b":" + b" " * (size - len(data) - 2) + b"\n" + data


def padded_events(chunks: Iterable[str | bytes]) -> Iterator[bytes]:
    """Every chunk of a stream padded; closing this closes the stream under it."""
    try:
        for chunk in chunks:
            yield pad_event(chunk)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def pad_response(response) -> None:
    """Pads a Flask response in place: a stream chunk by chunk, a body as a whole."""
    if response.mimetype == "text/event-stream":
        response.response = padded_events(response.response)
    elif not response.direct_passthrough and not response.is_streamed:
        response.set_data(pad_body(response.get_data()))
