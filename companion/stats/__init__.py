"""Game history and statistics: a summary of each finished game (written when the game
ends, rebuilt from the event logs by `flask --app wsgi stats rebuild`), the statistics
computed from those summaries, and the exports (BG Stats, CSV, JSON) and JSON import."""
