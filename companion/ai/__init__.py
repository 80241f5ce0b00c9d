"""The computer opponent: a game-tree search on the rules' bitboard move generator, levels of
play, hidden-information play from a seat's view, and hints. It imports only
``companion.rules``."""
