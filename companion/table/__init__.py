"""The table service: one process that owns the game, wires the mat, the hardware and the
phones together, and keeps every action on disk."""
