"""Tables that play one game over an MQTT broker (docs/tables.md). The only package that
knows MQTT, as only ``companion.web`` knows HTTP: it sits beside the web layer, on top of the
table service, and sees the service through ``companion.table.tables``."""
