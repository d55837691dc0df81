"""The engine's limits in one leaf module: what a rule may cost before it is stopped.

Generated code, the compiler and the game all read these; none of them imports another for a
number (docs/api.md, "runaway rules").
"""

# The work budget between two decisions: loop rounds and items gone over, counted by
# generated code in chunks (so the count costs almost nothing); the clock is read only when a
# chunk runs out. No bundled ruleset comes near either.
WORK_BUDGET = 50_000_000
WORK_CHUNK = 100_000
TIME_LIMIT = 10.0  # seconds a rule may run between two decisions
# A `play` nobody can make costs this much: it listed every candidate move, so a flow that
# offers only impossible moves (a game whose set-up never ran) stops after 5,000 such turns
# in a row, in seconds, instead of after the time limit.
SKIPPED_PLAY_WORK = 10_000
CALL_WORK = 1_000  # steps of work a procedure call costs
RECURSIVE_CALL_WORK = 100  # and a call of a definition that calls itself (directly or not)
MAX_TRIGGER_CHAIN = 200  # triggers firing each other without a decision between
MAX_BITS = 4096  # a number in a rule is at most this many bits long
MEMO_LIMIT = 50_000  # answers a remembered definition keeps
UNDO_EVERY = 16  # undo keeps a full snapshot before one move in this many (game.py, a fused apply)
