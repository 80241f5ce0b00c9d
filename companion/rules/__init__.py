"""The rules of Onitama and every way of playing it: cards, positions, moves, the move
generator, the referees and their records. This layer knows nothing of the mat, the table
service or the web."""
