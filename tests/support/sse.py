"""Reading a server-sent event stream the way a browser's EventSource does, for the tests'
phones and the table robot."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def sse_events(lines: Iterable[bytes]) -> Iterator[tuple[str, str]]:
    """Each event of the stream as (name, data text), in order, until the stream ends."""
    name, data = "", []
    for raw in lines:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif not line and data:
            yield name, "\n".join(data)
            name, data = "", []
