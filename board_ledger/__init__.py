"""The bookkeeping of the Conquest of the World board game: board, rules 1–22, event log."""
