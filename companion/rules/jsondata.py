"""The type of the JSON-ready data the rules hand out: views, events, action lists, records."""

from typing import Any

# Any: these objects go to phones and files as JSON, and come back from files as JSON. Their
# shape depends on the mode and the kind (docs/notation.md, docs/rules.md); code that reads
# one checks what it reads, as the record loaders do.
JsonObject = dict[str, Any]
