"""What a server holds its games to (imports nothing extra, so `serve --help` shows them).

A served game's rules may run `TIME_LIMIT` seconds and `WORK_BUDGET` steps of work between two
decisions; beyond that the move fails and the game is rebuilt from the store, so no worker
thread is held longer. Memory keeps at most `MAX_LIVE` games, and none that nobody asked for or
watched for `IDLE_AFTER` seconds; the store keeps them all (app.Server)."""

TIME_LIMIT = 2.0
WORK_BUDGET = 5_000_000
MAX_LIVE = 256
IDLE_AFTER = 600.0
