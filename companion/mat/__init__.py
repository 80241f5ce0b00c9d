"""Reading moves from a presence-only mat: readings, the recognizer, its LED and OLED cues,
and mat traces. It knows the rules, not pins."""
