"""Python source for expressions and straight-line statements, from the checked AST.

No user text reaches the generated code: user names become generated identifiers
(`l3`, `p0`) or dict keys and constants written with repr(). The recorded variant (`record`)
adds the journal writes that traces and undo read; the other variant has none.

The code is specialised by the checker's types (dsl/types.py, read from `Model.types`):
writes into known maps and records are plain assignments, `add 1 to n` on an int is `n + 1`,
a map that is never replaced as a whole is bound once per function, `current` once per
function that cannot change it, aggregates (`any`, `all`, `count`, `sum`, ...) are loops
in a helper function rather than generators, library functions of squares and directions
are looked up in tables worked out when the ruleset is compiled, and data files are plain
constants of the program.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import Model
from ...dsl.check_expr import DIRECTIONS
from ...dsl.check_runaway import recursive_defines
from ...dsl.dispatch import NodeTable, node_table
from ...dsl.printer import expr_text
from ...dsl.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    RANGE,
    TEXT,
    Elem,
    ListOf,
    MapOf,
    Opt,
    Record,
    SetOf,
    Type,
    is_finite,
)
from ..engine.errors import RuleFailure
from ..engine.limits import CALL_WORK
from ..stdlib import rng
from ..stdlib.library import LIBRARY
from . import pytree
from .appends import appends_in_place
from .carry import (
    Carried,
    KeptListing,
    KeyTest,
    carried_lists,
    indexed_maps,
    kept_listing,
    key_test,
    split_first,
)
from .chargedonce import charged_once
from .chargesmerged import charges_merged
from .choicehoist import choice_hoisted
from .common_exprs import common_expressions
from .curcompare import current_compared
from .fold import folded_bool, folded_compare, folded_not, truth_of
from .fusedsteps import fused_steps_trimmed
from .guardswitch import guard_unswitched
from .hoist import Hoister, always_evaluated, fixed_parts, loop_invariants, names
from .ifany import charged_if_any
from .joined import Joining, joined_pruned
from .keptonce import kept_once
from .loophead import heads_hoisted
from .memo import MemoKey, memo_keys, plain_type, state_free
from .nonefirst import none_first
from .numbered import Numbering
from .offeredat import removed_where_offered
from .paired import Pairing
from .pendingnext import pending_with_next
from .pytree import PLACEHOLDER, Inline
from .rolllocals import roll_locals, work_local
from .shared_calls import shared_definitions
from .sharedlocal import call_graph, memo_opened, memo_unopened, memo_users, shared_in_block
from .slots import item_slots, kept_slots, split_slots
from .stepclose import finished_at_close, step_made_at_close
from .sunkbind import sunk_bindings
from .total import cannot_fail
from .unrolled import lines_unrolled
from .unswitch import unswitched_sums
from .wholesums import whole_sums

MAX_TABLE = 50_000  # entries in one precomputed table of a library function
ROLL_DRAWS = "_fast_draws"  # a device roll's local: its draws in place may take the fast path
# a device roll's locals for its batch of SplitMix64 steps (`batched draws`, rng.draws): the
# outputs, the states after each step and before it, and the next step's index
DRAW_OUTPUTS, DRAW_STATES, DRAW_BEFORE, DRAW_AT = "_draw_z", "_draw_s", "_draw_k", "_draw_i"
_WRITES = (A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.MoveStmt, A.DrawStmt, A.ShuffleStmt)
_GROUP = {"+": 0, "-": 0, "*": 1, "//": 1, "%": 1}  # operators of one precedence chain freely
MAX_INLINE_INDENT = 14  # inline loops no deeper: CPython allows 20 nested blocks per function
MAX_INLINE_DEPTH = 3  # definitions inlined into definitions inlined into ...
MAX_INLINED_PROCEDURE = 60  # nodes of a procedure's body copied in place of its call (`procedure inlined`)
MAX_INLINE_NODES = 60  # a definition this small (in expression nodes) is inlined where evaluated
MAX_OR_SPLIT = 3  # an `or` of this many parts at most is tested as nested `if`s (`CodeGen.test`)
MAX_TINY_NODES = 30  # a definition this small, one expression, is inlined as an expression (`tiny_call`)
LOOP_KINDS = ("any", "all", "count", "sum", "max", "min", "first", "streak")
COLLECT_KINDS = ("list", "set")  # aggregates built by a loop where that pays (`loop_pays`)
# comprehensions whose filter and body stand inside them (`fixed_once`; not argmax's lambda)
FIXED_KINDS = frozenset({"all", "any", "count", "sum", "max", "min", "first", "list", "set", "map"})
# names whose values differ from one game to another of the same program (CodeGen.name): a
# filter that reads one is not worked out once for the program (CodeGen.fixed_filter_keys)
_PER_GAME = frozenset({"current", "players", "Player", "player_count", "round", "current_phase"})


def _plain_key(t: Type) -> bool:
    """A value that can key a table as it is: a name of a board, enum or player, a number,
    true or false, text, or none of them."""
    b = t.base
    if isinstance(b, Opt):
        b = b.inner.base
    return isinstance(b, Elem) or b in (INT, BOOL, TEXT)


def _targets(model: Model) -> list[A.Target]:
    """Every place a statement writes: in rules, devices, the flow and scenarios."""
    roots: list[Any] = [*model.actions.values(), *model.procedures.values(), *model.triggers,
                        *model.hooks, *model.devices.values(), *model.scenarios]
    if model.flow is not None:
        roots.append(model.flow)
    return [n for r in roots for n in iter_nodes(r) if isinstance(n, A.Target)]


def write_depths(targets: list[A.Target]) -> dict[str, int]:
    """For each state variable, the most keys and fields any statement writes below it
    (`set plan[p] = ...` is 1). A value read `d` keys below a variable whose depth is at most
    `d` is never changed in place: only statements change state, and none writes into it."""
    depths: dict[str, int] = {}
    for t in targets:
        depths[t.root] = max(depths.get(t.root, 0), len(t.steps))
    return depths


@dataclass(frozen=True)
class Choice:
    """One optimisation the compiler applied, said in the rules' own terms: tests and readers
    ask `program.choices` what was done, never the generated code's names."""

    kind: str  # "remember", "memo", "rows", "share", "nested quantifier", "hoist rows", "fixed filter", ...
    rule: str  # where: the action or definition
    detail: str = ""  # what, as rules text (the definition memoised, its key, the shared part)


@dataclass(frozen=True)
class ModelFacts:
    """What code generation needs to know of the whole model, worked out once per program:
    each walks every rule, in milliseconds, and every expression compiled on its own (a
    variable's start value, the scoring) makes a CodeGen of its own."""

    replaced: frozenset[str]  # variables some statement replaces as a whole
    depths: dict[str, int]  # `write_depths`
    inlinable: set[str]  # `inlinable_defines`
    tiny: set[str]  # `tiny_defines`
    remembered: frozenset[str]  # definitions remembered for the program's life (memo.state_free)
    memo_keys: dict[str, MemoKey]  # memo.memo_keys
    shared_calls: frozenset[str]  # definitions remembered per decision (shared_calls.py)
    shared_plays: frozenset[tuple[str, ...]]  # the plays whose listings share them
    carried: dict[str, Carried]  # carry.carried_lists: kept from one decision to the next
    indexed: dict[str, str]  # carry.indexed_maps: state maps whose keys are kept by value, their key type
    kept: dict[str, KeptListing]  # carry.kept_listing: actions whose listings an untraced game keeps


def model_facts(model: Model) -> ModelFacts:
    targets = _targets(model)
    inlinable = inlinable_defines(model)
    return ModelFacts(frozenset(t.root for t in targets if not t.steps), write_depths(targets),
                      inlinable, tiny_defines(model, inlinable), frozenset(state_free(model)), memo_keys(model),
                      *shared_definitions(model), carried_lists(model), indexed_maps(model),
                      {n: k for n, a in model.actions.items() if (k := kept_listing(model, a)) is not None})


def _loops(lines: list[str]) -> bool:
    """Whether generated statements hold a loop (worth keeping their value: `once_call`)."""
    return any(line.lstrip().startswith(("for ", "while ")) for line in lines)


class CodeGen:
    """Generates the Python source of one program; its functions are exec'd together. What
    the functions refer to besides the runtime (tables, data) is collected in `constants`.
    Expressions and statements are written by one method per node class, `_ex_*` and
    `_stmt_*`, found in `_EXPRS` and `_STMTS` (set below the class; dsl/dispatch.py)."""

    _EXPRS: ClassVar[NodeTable[Callable[..., str]]]
    _STMTS: ClassVar[NodeTable[Callable[..., None]]]
    # loops where a comprehension would call, one-expression definitions inlined, domains known
    # to be distinct (`collect_loop`, `tiny_call`, actiongen.distinct); off: tests compare
    LOOP_FORMS: ClassVar[bool] = True
    # a listing's rows of inner bindings keyed by nothing (`rows ... by nothing`) kept as one
    # list in a local, made the first time, not in a dict under the key `()` (`one row list`);
    # off: tests compare
    ONE_ROW_LIST: ClassVar[bool] = True
    # `m[k] == current` (`!=`) outside comprehensions as `((t := m[k]) is cur or t is not None and
    # t == cur)`: none tested first, the look-up once (curcompare.py, `current compared`); off:
    # tests compare
    CURRENT_COMPARED: ClassVar[bool] = True
    # with it, `m[k] is cur` (`is not`): every text the rules read is canonical, one object per
    # text (engine/canonical.py; curcompare.py, `names by identity`); off: tests compare
    NAMES_BY_IDENTITY: ClassVar[bool] = True
    # `any line in T[k]: all t in line: ...` over a fixed table whose lines all have one length
    # n: the lines unpacked and the n tests written out (unrolled.py, `lines unrolled`); off:
    # tests compare
    LINES_UNROLLED: ClassVar[bool] = True
    # traced: a move played in place takes the values of the `let`s its checks worked out
    # first, not working them out again in its effect (actiongen.checks_lets_kept, `checks'
    # lets kept`); off: the effect works them out again
    CHECKS_LETS_KEPT: ClassVar[bool] = True
    # lean programs: a decision's moves played by the games' `apply` itself, the block's
    # section from the move to the next decision copied into it (machine.py `fused_apply`,
    # `fused apply`); off: `LeanGame.apply` / `LeanTracedGame.apply` calls the block
    FUSED_APPLY: ClassVar[bool] = True
    # traced: the fused apply also plays the moves whose checks its block does not work out
    # (explained at once, or their state kept and explained when read), their step opened as
    # `Game._take_recorded` opens it (game.py `recorded_step`, machine.py `fused_apply`, `fused
    # kept checks`); off: such a decision has no fused apply, its moves go `Game.apply`'s way
    FUSED_KEPT_CHECKS: ClassVar[bool] = True
    # traced, with the above: where such a move keeps the state its explain reads (`state kept
    # for checks`), the fused apply makes its step in line, the variables named and copied, no
    # call of `recorded_step` (compile.py `kept_steps_inline`, `kept step inline`); off: the call
    KEPT_STEP_INLINE: ClassVar[bool] = True
    # traced: a fused apply that plays several actions opens each move's step in its action's
    # branch, its key written in and the slots its checks set made with it (machine.py
    # `_steps_in_branches`, `step opened in its branch`); off: opened before, by the key's look-up
    STEP_IN_BRANCH: ClassVar[bool] = True
    # the fused apply's listing after a move whose writes no other move's test reads: the list
    # the move came from, less the move if its own test now fails (follows.py, machine.py
    # `listing_follows`, `listing follows the move`); off: listed in full
    LISTING_FOLLOWS: ClassVar[bool] = True
    # the fused apply's copied lines: the move's arguments unpacked once, the move's signal
    # `m = None` dropped where nothing reads it, the current player after the turn's step taken
    # from the local it was set from (fusedsteps.py, `fused steps trimmed`); off: as copied
    FUSED_STEPS_TRIMMED: ClassVar[bool] = True
    # traced: the fused apply's move step made once where it closes, from locals, where nothing
    # between reads it (stepclose.py, `step made at close`); off: opened as a list, then closed
    STEP_AT_CLOSE: ClassVar[bool] = True
    # traced, with the above: where the effect finishes the game, the step and the result kept
    # there from the step's locals, not made first and closed by `after_traced` (stepclose.py
    # `_ended_at_close`, `finish at close`); off: tests compare
    FINISH_AT_CLOSE: ClassVar[bool] = True
    # a turn's successor's pending record taken from the successor table's entry (`G._next`),
    # not looked up by name in `PLAYING` where the decision asks that successor
    # (pendingnext.py, `pending with the successor`); off: tests compare
    PENDING_WITH_NEXT: ClassVar[bool] = True
    # traced: a procedure's or device's automatic step, and its caller's as it starts, closed
    # by lines written out where it wrote and noted nothing, not by a call of `_close`
    # (recording.auto_close_code, `step closed in place`); off: the call
    AUTO_CLOSED_IN_PLACE: ClassVar[bool] = True
    # where a move surely fails its own test once played (follows.taken_by_its_move), the
    # listing that follows it drops it untested, and the fused apply counts where it found the
    # move among those offered and takes it out of the copy there by position, not `remove`'s
    # comparisons (offeredat.py, `removed where offered`); off: tests compare
    REMOVED_WHERE_OFFERED: ClassVar[bool] = True
    # the fused apply leaves the frame at the decision's op, and untraced the game's listing
    # as it was, while the move plays, setting them on every way out but the next decision's
    # (machine.py `_decision_kept`, `decision kept`); off: set first
    DECISION_KEPT: ClassVar[bool] = True
    # `other(p)` of a ruleset for exactly two players written as the conditional of its two
    # names, no library call (`fixed pair`); off: tests compare
    FIXED_PAIR: ClassVar[bool] = True
    # in a ruleset for exactly two players, `all q in players where q != p: B` (and `any`) as
    # `B` of the one other player, no loop over the two (`the other player`); off: tests compare
    OTHER_PLAYER: ClassVar[bool] = True
    # `the other player` in a test (`if not B: fail`) tested as its body is, no flag (`other
    # tested`); off: the flag
    OTHER_TESTED: ClassVar[bool] = True
    # `min_of([a, b])` / `max_of([a, b])` of a list display of two or more items (no spread)
    # as `min(a, b)` / `max(a, b)`: no list made, no library function called (`items compared`);
    # off: tests compare
    ITEMS_COMPARED: ClassVar[bool] = True
    # a display (map, record, list, set) whose items are aggregates and plain names or literals,
    # its aggregates worked out as loops ahead of it, in its order, not as a helper function
    # each (`display of aggregates`, Shogun's `tally`); off: tests compare
    DISPLAY_AGGREGATES: ClassVar[bool] = True
    # `unswitched sums` (§5): a sum's loop whose summand is a conditional on a comparison fixed
    # for the loop tests it once, one loop per branch (unswitch.py); off: tests compare
    UNSWITCHED_SUMS: ClassVar[bool] = True
    # `guard unswitched` (§5): a loop whose body opens with `if flag:`, the flag a local bound once
    # before it to an `is` comparison (`keys by value`'s keys not kept), tests it once: the loop
    # as it was where it holds, a copy without the guard where not (guardswitch.py); off: tests
    # compare
    GUARD_UNSWITCHED: ClassVar[bool] = True
    # `whole sums` (§5): a sum's loop over a finite type's every value of a map's entries, the
    # map never replaced whole, as `sum(m.values())` (wholesums.py); off: tests compare
    WHOLE_SUMS: ClassVar[bool] = True
    # `old value by key` (§5, §10): traced, a write one key deep into a state map keyed by a
    # finite type and never replaced whole reads the old value for the journal as `c[k]`: such
    # a map holds every key from its start (values.materialize, a save's `_decode_map`), so
    # `c.get(k, MISSING)` and its method call never find it missing; off: tests compare
    OLD_BY_KEY: ClassVar[bool] = True
    # `charged once` (§5): a loop whose rounds each charge the length of a list it does not
    # change (a listing's quantifier kept across its rounds) charges them all at its top where
    # the counter covers them, its tests left out (chargedonce.py); off: tests compare
    CHARGED_ONCE: ClassVar[bool] = True
    # `charges merged` (§5): two or more straight-line charges of one counter with only quiet
    # statements between them (a definition's quantifiers over one list) charged at once where
    # the counter covers them, their tests left out (chargesmerged.py); off: tests compare
    CHARGES_MERGED: ClassVar[bool] = True
    # `distinct joins` (§5): a parameter's domain `a + b` of two lists that each hold no item
    # twice and can share none (a board's `adjacent_nodes(x)` and `[burrow]`, checked on the
    # board's every row when the program is compiled) walked as it is, no `_uniq` call
    # (actiongen `_distinct_lists`); off: tests compare
    DISTINCT_JOINS: ClassVar[bool] = True
    # `open-ended moves` (§5): a last parameter's range `a..e` whose low end is known now and
    # whose high end the state gives has its first values' moves in a partial move table,
    # made once per program, not built at every listing (actiongen `move_table`); off: tests
    # compare
    OPEN_ENDED_MOVES: ClassVar[bool] = True
    # `rows of rows` (§5): `hoist rows` takes a row of a move table indexed by several outer
    # parameters out of the loop whole (`_M7[p0][p1]` ahead of the loop over p2), and the upper
    # levels of a partial table's rows too, read by `.get` (pytree.hoist_rows `chains`); off:
    # tests compare
    ROWS_OF_ROWS: ClassVar[bool] = True
    # `filtered as found` (§5): an any-move search walks a parameter's values filtered once as
    # it finds them the first time, stopping at the first move (pytree.filtered_as_found);
    # off: tests compare
    FILTERED_AS_FOUND: ClassVar[bool] = True
    # `joined walked` (§5): a listing's loop over `_joined(G, a, b, span)` (or a conditional with
    # such a branch) works the list and its charge out as statements before the loop, as
    # CodeGen.joined writes a join, without the runtime call (pytree.joined_walked); off:
    # tests compare
    JOINED_WALKED: ClassVar[bool] = True
    # `fixed rows` (§5): in a function that changes no state, a state map's row under a key
    # every game has (`warriors[Marquise]`, `warriors[current]`) indexed again in a loop is
    # looked up once at the top (pytree.fixed_rows); off: tests compare
    FIXED_ROWS: ClassVar[bool] = True
    # `triggers at once` (§5): a decision point tests every trigger's condition in one
    # generated function `FT`, the conditions written in place, and calls the engine only when
    # one changed (or a trigger waits, or a part of `simultaneously` runs), where
    # `Game.fire_triggers` called each condition's `TT_n` and made a list of them at every
    # decision; off: tests compare
    TRIGGERS_AT_ONCE: ClassVar[bool] = True
    # `explained domain` (§5): an explanation whose check is one aggregate (`all o in plan[current]:
    # ...`) works its domain out as a statement before it, recording the domain's sub-expressions
    # in locals, instead of through `_R`, a closure made at every check (the iterable of a
    # comprehension allows no assignment expression)
    EXPLAINED_DOMAIN: ClassVar[bool] = True
    # ... and the aggregate itself (`any`, `all`, `count`, ...: LOOP_KINDS) as a loop over that
    # domain's local, its value recorded as the comprehension's was (`explained loop`), not a
    # generator and a call of `all` with `_charged` each check; off: tests compare
    EXPLAINED_LOOP: ClassVar[bool] = True
    # the definitions a decision's listings share, worked out once per decision (shared_calls.py);
    # off: tests compare
    SHARED_CALLS: ClassVar[bool] = True
    # the calls of shared definitions written in a block's listings kept in locals, the
    # decision's memo dropped where nothing else reaches it (sharedlocal.py, `shared in
    # block`); off: tests compare
    SHARED_IN_BLOCK: ClassVar[bool] = True
    # a conditional between names and literals whose test compares with a literal, reading
    # nothing a loop binds, worked out into a local ahead of the loop (choicehoist.py,
    # `choice hoisted`); off: tests compare
    CHOICE_HOISTED: ClassVar[bool] = True
    # traced: an effect's tail call of a quiet procedure's tail form `PT_n` written out in place
    # (quiettail.py `tail_inlined`, `quiet tail inlined`); off: tests compare
    QUIET_TAIL_INLINED: ClassVar[bool] = True
    # `common expressions` takes `b_len(x)` of a pure value as pure too (`common lengths`);
    # off: tests compare
    COMMON_LENGTHS: ClassVar[bool] = True
    # in an explanation, a call of a small one-expression definition that reads each parameter
    # once and always, as its expression (`explained_inline`, `explained inline`); off: tests compare
    EXPLAINED_INLINE: ClassVar[bool] = True
    # untraced: `do p(...)` of a small procedure that calls none written in place
    # (`procedure_inlined`, `procedure inlined`); off: tests compare
    PROCEDURE_INLINED: ClassVar[bool] = True
    # a listing's hoisted `_uniq(X)` domain as `(t := X) and _uniq(t)`: an empty domain walked
    # without the call (actiongen `distinct_if_any`, a tree pass after `by player`, `distinct
    # if any`); off: tests compare
    DISTINCT_IF_ANY: ClassVar[bool] = True
    # definitions' values carried from one decision to the next (carry.py);
    # off: tests compare
    CARRY: ClassVar[bool] = True
    # a definition inlined in a listing with the same arguments all through it (literals,
    # `current`) worked out once per listing, when first needed; off: tests compare
    ONCE_PER_LISTING: ClassVar[bool] = True
    # an inner parameter's narrowed range worked out where its bound is known, the outer
    # value skipped when it is empty (actiongen `empty_first`); off: tests compare
    EMPTY_FIRST: ClassVar[bool] = True
    # ... and so is an inner parameter's range whose ends read outer parameters
    # (`n in 1..warriors[current][from]`); off: tests compare
    ENDS_FIRST: ClassVar[bool] = True
    # a listing's innermost loop over a range of ints that only appends each value's move from
    # a move table as one `extend` by a slice of that row kept as a tuple (actiongen
    # `moves_sliced`, `moves sliced`); off: tests compare
    MOVES_SLICED: ClassVar[bool] = True
    # `memo dropped` (§5): a listing's memo of a definition's calls whose one look-up is keyed
    # by a top-level loop's variable over distinct constant values, so never hit, made the
    # call itself, no table (memoonce.py); off: tests compare
    MEMO_DROPPED: ClassVar[bool] = True
    # the parts of an expression written as statements ahead of it (inlined calls, loops)
    # only outside parts already worked out into a local (CodeGen.value); off: tests compare
    NO_DEAD_PARTS: ClassVar[bool] = True
    # an inner parameter's values filtered once per listing by its requires that read no other
    # parameter and cannot fail (actiongen `filter_once`); off: tests compare
    FILTER_ONCE: ClassVar[bool] = True
    # `possible(a)` for the current player as a call of a's AA_n (pytree.direct_possible);
    # off: tests compare
    DIRECT_POSSIBLE: ClassVar[bool] = True
    # a `play` whose moves are all played in place picks its random move itself during
    # Game.playout (machine.py `pick_in_place`); off: tests compare
    PICKS: ClassVar[bool] = True
    # untraced: the block that asks a `choose` takes the chosen option itself when apply()
    # hands the choice back (machine.py `_op_choose`, Program.plain), without `_play_checked`,
    # `_take` and `_run` (Root: about half its decisions are choices); off: tests compare
    CHOOSE_IN_PLACE: ClassVar[bool] = True
    # a `choose` among values of a finite type lists its moves with its options from a table
    # of the program's (machine.py `choice_table`), where `legal_actions()` made them per
    # option (`game._choice_moves`, two calls); off: tests compare
    CHOICE_MOVES_LISTED: ClassVar[bool] = True
    # loops over a board that walk only the keys whose entry has the value their first test
    # asks (`cell[s] == current`), kept by the writes (carry.key_test); off: tests compare
    KEYS_BY_VALUE: ClassVar[bool] = True
    # a device roll's draws in place test the game's part of their fast path once, at the
    # roll's top (`roll_draws_test`); off: tests compare
    DRAWS_ONCE: ClassVar[bool] = True
    # `flatten(list x in D: f(x))` of a definition `f` as one loop that extends the result by
    # each call's value (`flat loop`, `flattens`); off: tests compare
    FLAT_CALLS: ClassVar[bool] = True
    # a complete table's row of an outer loop's variable looked up once ahead of an inner loop,
    # in definitions (pytree.loop_rows); off: tests compare
    LOOP_ROWS: ClassVar[bool] = True
    # a loop over a table's inner keys (directions) reads the rows hoisted before it as lists
    # by the key's number, not dicts by its name, and a row of a name no round binds is looked
    # up ahead of the loop (numbered.py, `numbered rows`, `rows ahead`); off: tests compare
    NUMBERED_ROWS: ClassVar[bool] = True
    # in a loop over the keys kept by value (`cell[s] == current`), the body's reads of that
    # entry are the value itself (known.py, `known entries`); off: tests compare
    KNOWN_ENTRIES: ClassVar[bool] = True
    # a loop over a numbered domain that reads a row by the number and skips None joined with
    # the rows when the program is compiled (joined.py, `joined rows`); off: tests compare
    JOINED_ROWS: ClassVar[bool] = True
    # a joined loop's copies of its targets written as the targets, and its tests that a
    # target whose column holds no None is None folded (joined.py `_tidy`, `joined tidy`);
    # off: tests compare
    JOINED_TIDY: ClassVar[bool] = True
    # `joined pruned` (§5): a joined loop's columns whose targets nothing reads dropped from its
    # tables (joined.py `joined_pruned`: checkers' directions in the jump scan); off: tests compare
    JOINED_PRUNED: ClassVar[bool] = True
    # consecutive rows of fixed tables with the same keys, looked up by the same name, looked
    # up once as a tuple (paired.py, `paired rows`); off: tests compare
    PAIRED_ROWS: ClassVar[bool] = True
    # a listing's value of the current player alone (breakthrough's `steps(current)`) worked
    # out per player when the program is compiled (perplayer.py, `by player`); off: tests compare
    BY_PLAYER: ClassVar[bool] = True
    # a write of an entry of a map whose keys are kept by value moves its key in place, not
    # through a call of carried._keys_moved (`keys_moved`); off: tests compare
    MOVED_IN_PLACE: ClassVar[bool] = True
    # `keys moved by identity` (§5): `keys_moved`'s test that the entry changed value is `old is
    # not new` alone where the map's values are names (or none): every name is its one canonical
    # object (`names by identity`, engine/canonical.py), so two names that are not one object
    # differ; off: tests compare
    MOVED_BY_IDENTITY: ClassVar[bool] = True
    # `kept lists once` (§5): the writes of entries of a map kept by value that follow one another
    # look its kept lists up once, the later ones taking the first's local (keptonce.py); off:
    # tests compare
    KEPT_ONCE: ClassVar[bool] = True
    # `charged if any` (§5): a loop's charge of a local domain's length made under `if d:` (an
    # empty domain charges nothing: checkers' first jumps, a short path's inner squares;
    # ifany.py); off: tests compare
    CHARGED_IF_ANY: ClassVar[bool] = True
    # `memo never opened` (§5): where no block of the program opens the decision's memo (`shared
    # in block` dropped every one), a shared definition's look-up and store there are dropped
    # (`G._shared` is always None; sharedlocal.memo_unopened); off: tests compare
    MEMO_UNOPENED: ClassVar[bool] = True
    # `heads hoisted` (§5): a loop over the program's constant lists (none empty) has its first
    # statements that every round would work out alike worked out before it (loophead.py);
    # off: tests compare
    HEADS_HOISTED: ClassVar[bool] = True
    # untraced, without hidden state or `simultaneously`: the program's games are
    # game.LeanGame, whose `apply` and `legal_actions` leave out the tests for a window, a
    # chance node and a player named (`lean apply`, compile.py `Program.lean`); off: tests compare
    LEAN_APPLY: ClassVar[bool] = True
    # an action's check (`AC_n`: `_kept_moves`' test of one value, `is_legal`) writes its lets
    # and requires as statements, small definitions inlined and loops in place, not as calls
    # (actiongen `_check_lines`, `checks inlined`); off: tests compare
    CHECKS_INLINED: ClassVar[bool] = True
    # an action's explain function (`AX_n`, copied where a traced move works out its checks)
    # writes each `let` as statements, small definitions inlined, as the checks above do
    # (actiongen `_explain_lines`, `explained lets inlined`); off: tests compare
    EXPLAINED_LETS_INLINED: ClassVar[bool] = True
    # a kept listing's commonest path (one write since, one value to test) in a function per
    # listing, `KM_n`, with the value's check written in it: one call a decision, not two
    # (actiongen `one_value_tested`, `one value tested`); off: tests compare
    ONE_VALUE_TESTED: ClassVar[bool] = True
    # untraced: a one-parameter action's moves kept from one decision to the next where its
    # requires read state only at keys fixed by the parameter (carry.kept_listing); off: tests compare
    KEPT_LISTINGS: ClassVar[bool] = True
    # ... in traced programs too (`kept listings traced`); off: tests compare
    KEPT_LISTINGS_TRACED: ClassVar[bool] = True
    # the options of `choose N of ... one per`: the chosen items' slot lists listed once, not
    # once per candidate (machine.py `one_per_options`); off: tests compare
    SLOTS_ONCE: ClassVar[bool] = True
    # a listing's memo of a definition keyed only by the arguments that change through it, the
    # fixed ones (`current`, literals) naming its table (`remembered`); off: tests compare
    MEMO_FIXED_OUT: ClassVar[bool] = True
    # in a listing, `component_of(n, items)` over items worked out once for it answered per
    # component, not per node (`components_kept`); off: tests compare
    COMPONENTS_KEPT: ClassVar[bool] = True
    # a definition's look-up `t[k]` made again in its statement list read from a local kept
    # where it is first made (common.py, `common look-ups`); off: tests compare
    COMMON_LOOKUPS: ClassVar[bool] = True
    # comparisons of two literals worked out, and a conditional or `and`/`or` whose test
    # became a literal cut to the part that runs (fold.py, `folded`); off: tests compare
    FOLD_CONSTANTS: ClassVar[bool] = True
    # in a flat loop, a round's `list i in a..b: v` as its count `b - a + 1`: charged and the
    # result extended by `[v] * n` with no range made and no `_charged` call (`repeated run`);
    # off: tests compare
    REPEATED_RUNS: ClassVar[bool] = True
    # a device roll's draw whose probability is a constant of the rules or a literal tests it
    # once at the roll's top with the game's part (`sound once`); off: tests compare
    SOUND_ONCE: ClassVar[bool] = True
    # `let xs = xs + [...]` on a local list nothing else holds appends in place
    # (appends.py, `appended in place`); off: tests compare
    APPEND_IN_PLACE: ClassVar[bool] = True
    # a block's `for x in xs: if C: ...` passes over the items failing C in one plain loop
    # (machine.py `scanned`, `scanned loop`); off: tests compare
    SCANNED_LOOPS: ClassVar[bool] = True
    # a block's `for x in xs` over a list keeps the list itself in its slot: no `_seq` call and
    # no copy (lists are values, never changed in place) (machine.py `_op_for_init`, `list
    # rounds`); off: tests compare
    LIST_ROUNDS: ClassVar[bool] = True
    # in a scanned loop, the block's locals its test reads and the work budget's counter held
    # in locals while the scan goes on, not read from the frame and the game per item
    # (machine.py `scan_held`, `scan locals`); off: tests compare
    SCAN_LOCALS: ClassVar[bool] = True
    # a scanned loop whose counter is in a local, where the counter covers one charge for every
    # item left, passes over them uncharged and charges their number where it stops (machine.py
    # `scanned`, `scan charged after`); off: tests compare
    SCAN_CHARGED_AFTER: ClassVar[bool] = True
    # in a device's roll, `G.rng` and `G.work` held in locals between the calls that hand the
    # game to other code (rolllocals.py, `roll locals`); off: tests compare
    ROLL_LOCALS: ClassVar[bool] = True
    # an action's listing copied into a block (`enum`): the work counter its scans charge in a
    # local while it runs, written back around calls that hand the game over and at its end
    # (rolllocals.work_local, `work local`); off: tests compare
    WORK_LOCAL: ClassVar[bool] = True
    # in a listing, `all o in D: o.f != x` (and `any o in D: o.f == x`) over a D the listing
    # cannot change: the fields `o.f` listed once per listing, each test `x not in` them
    # (`fields listed once`); off: tests compare
    FIELDS_ONCE: ClassVar[bool] = True
    # `x == y` / `x != y` of names where one side may be none: none and identity tested first,
    # so no text is compared with None (nonefirst.py, `none first`); off: tests compare
    NONE_FIRST: ClassVar[bool] = True
    # `list k in ITEMS: (list c in SLOTS where FITS)` (`count ... one per`): the parts of FITS
    # that read nothing of k filter SLOTS once, not once per item (slots.py, `slots filtered
    # once`); off: tests compare
    SLOTS_FILTERED: ClassVar[bool] = True
    # a test of `if C then T else E` (a require, a loop's filter; the body of a definition
    # tested there) as `if C:` with each branch tested as statements, so the loops in it are
    # written in place (`split conditional`); off: tests compare
    SPLIT_CONDITIONALS: ClassVar[bool] = True
    # a definition whose truth value is a conditional or an `and` written as tests, `return
    # False` at the first that fails (compile._tested_body, `tested body`); off: tests compare
    TESTED_BODIES: ClassVar[bool] = True
    # an inner parameter's narrowed range whose ends and bound read no parameter and cannot
    # fail, worked out once at the listing's top (actiongen `narrowed`, `narrowed once`);
    # off: tests compare
    NARROWED_ONCE: ClassVar[bool] = True
    # traced: a grouped invariant's sums (invtests.py `INVG_n`) kept from one check to the next
    # and brought up to date at the keys the journal says were written since (`INVS_n`,
    # `kept sums`); off: tests compare
    KEPT_SUMS: ClassVar[bool] = True
    # traced: those kept sums brought up to date at the keys the writes themselves logged
    # (`G._ilog`, invtests.py `kept by writes`) instead of a scan of the journal since the last
    # check; off: tests compare
    KEPT_BY_WRITES: ClassVar[bool] = True
    # traced: an invariant tested at the keys a step wrote (`INVP_n`) also as `INVK_n(G, keys)`,
    # which tests a set of keys in one call; a step's keys of those maps picked in C
    # (`Game.check_invariants`, invtests.py `keyed points`); off: tests compare
    KEYED_POINTS: ClassVar[bool] = True
    # in a definition or a listing, a pure expression (look-ups, arithmetic, comparisons)
    # evaluated again later in its statement list read from a local kept where it is first
    # evaluated (common_exprs.py, `common expressions`); off: tests compare
    COMMON_EXPRESSIONS: ClassVar[bool] = True
    # a listing's narrowed range walks only values its require lets through: that require not
    # tested again on each of them (actiongen `walk_bound`, `walked bound`); off: tests compare
    WALKED_BOUND: ClassVar[bool] = True
    # `slots filtered once`: a part of FITS that calls a small definition whose body is an
    # `and` taken as that body's parts, so those reading nothing of the item filter the slots
    # once too (slots.py `_flattened`, `slots flattened`); off: tests compare
    SLOTS_FLATTENED: ClassVar[bool] = True
    # traced: a quiet procedure called last in an action's effect (only tests of state
    # variables, `finish` and returns after it) keeps the move's step open while it writes
    # nothing (quiettail.py `PT_n`, `quiet tail`); off: tests compare
    QUIET_TAIL: ClassVar[bool] = True
    # traced: a move played in place whose checks read only state entries its effect writes
    # first keeps no checks, only the mark saying so; they are worked out from the step's
    # journal entries when the trace is read (actiongen `deferred_checks`, `deferred checks`)
    DEFERRED_CHECKS: ClassVar[bool] = True
    # traced: a listing explains its requires that need no parameter (`AXP_n`, kept in
    # `G._xpre`) in its own lines, not by a call (actiongen `kept_checks_inline`)
    KEPT_CHECKS_INLINE: ClassVar[bool] = True
    # traced: a move explained by `Game._take_recorded` whose explain reads only plain state
    # keeps copies of what it reads and is explained when the trace is read (compile
    # `state_kept`, `state kept for checks`)
    STATE_KEPT_CHECKS: ClassVar[bool] = True
    # in a device's roll, the draws in place take their SplitMix64 outputs from a batch of
    # steps worked out at once in big-int lanes (rng.draws, `batched draws`); off: tests compare
    BATCHED_DRAWS: ClassVar[bool] = True
    # with BATCHED_DRAWS, a draw's one identity test says both that the batch goes on from the
    # generator's state and that its output is at most rng.SAFE (`safe in batch`); off: tests compare
    SAFE_IN_BATCH: ClassVar[bool] = True
    # `hoisted tests` (§5): a listing's part of a require hoisted ahead of an inner loop that is a
    # call of a boolean definition (`rules(current, from)`) tested in place into its local, in a
    # one-round `while True:` left by `break`, not called (hoistedtest.py); off: tests compare
    HOISTED_TESTS: ClassVar[bool] = True
    # `options unrolled` (§5): a `choose` among `list x in E where W` of a small enum whose moves
    # are listed with the options tests W once per value in place, the value a literal, not a
    # comprehension calling W's definition per value (optionsunrolled.py); off: tests compare
    OPTIONS_UNROLLED: ClassVar[bool] = True
    # `bindings sunk` (§5): a block's state maps and constants read only inside the dispatch's
    # segments bound at the top of each segment that reads them, not in the prologue at every
    # entry (sunkbind.py); off: tests compare
    BINDINGS_SUNK: ClassVar[bool] = True

    def __init__(self, model: Model, record: bool, elements: dict[str, tuple], boards: Any = None,
                 players: tuple[str, ...] = (), facts: ModelFacts | None = None):
        self.m = model
        self.record = record
        self.elements = elements
        self.boards = boards  # for library tables worked out at compile time
        self.players = players  # every declared player name
        self.lines: list[str] = []
        self.counter = 0
        self.constants: dict[str, Any] = {}  # namespace name -> value, for generated code
        self.move_texts: dict[int, str] = {}  # id of a move in a move table -> its text
        # move tables by action and parameter values, with their texts: the program's, shared
        # with the ruleset's other programs (Program.move_tables)
        self.move_tables: dict[tuple, tuple] = {}
        # constants whose texts are canonical as made (move tables: engine/canonical.py), and those
        # made canonical already (compile.py `_interned_constants`): not walked (again)
        self.canonical_consts: set[str] = set()
        # the program's moves of a `choose` by option's type and option (Program.choice_moves)
        self.choice_moves: dict[type, dict] = {}
        self.in_block = False  # generating a block function: `current` may change inside it
        # state variable -> the triggers whose conditions read it (reads.trigger_watch): tested
        # right after a statement writes it (Game.fire_now); empty where no trigger may fire
        # (a scenario's `given`, expressions). `fire_here` is False inside a device, which
        # cannot run another rule's body halfway: its triggers wait (Game._deferred).
        self.fire_after: dict[str, tuple[int, ...]] = {}
        self.fire_here = True
        # while a device's roll is generated: the draws written in place in it (`drawn`), which
        # test ROLL_DRAWS, set once at the roll's top (`roll_draws_test`); None elsewhere
        self.roll_draws: list[str] | None = None
        self.roll_sound: dict[str, str] = {}  # a roll's probability test -> its local (`sound_once`)
        self.roll_batched = False  # the roll's draws take a batch's outputs (`batched_draw`)
        self.quiet_tails: set[int] = set()  # quiet procedures with a tail form `PT_n` (quiettail.py)
        # a local that a `let` grows by itself plus items -> (rule, the let's text): appends.py
        self.grown: dict[str, tuple[str, str]] = {}
        self.subst: dict[int, str] = {}  # node id -> a local holding its value (hoisted)
        # explain mode: sub-expression values go to locals _x<i>, or through _R where Python
        # allows no assignment expression (the iterable of a comprehension)
        self.rec_in_iterable = False
        self.rec_closure: set[int] = set()
        self.domain_done: dict[int, str] = {}  # explain mode: a domain worked out already -> its local
        self.in_iterable = False  # writing a comprehension's iterable: no assignment expression there
        facts = facts or model_facts(model)
        self.write_depths = facts.depths
        self.stable = {n: i for i, n in enumerate(model.vars)
                       if n not in facts.replaced and isinstance(model.var_types[n], (MapOf, Record))}
        self.var_index = {n: i for i, n in enumerate(model.vars)}
        # generating a function that changes no state (a definition, an aggregate's helper, the
        # listing of an action's moves): every variable it reads is bound once, at its top
        self.still = False
        self._tables: dict[tuple, str] = {}
        # tables made now for every value of their arguments' types (library calls, moves): a
        # row of one may be looked up ahead of a loop (actiongen.rows_hoisted)
        self.complete_tables: set[str] = set()
        self.made_fixed: set[str] = set()  # constants passes made from fixed tables (`fixed_const`)
        self.numbering = Numbering(self.constants, self.complete_tables, self.fixed_const)  # numbered.py
        self.pairing = Pairing(self.constants, self.fixed_table, self.fixed_const)  # paired.py
        self.joining = Joining(self.constants, self.fixed_table, self.fixed_const)  # joined.py
        self.joining.tidy = self.JOINED_TIDY
        self._row_keys: dict[str, tuple[frozenset, bool]] | None = None  # row_keys
        self.partial_tables: set[str] = set()  # move tables whose last level may miss a value (actiongen.move_table)
        # a move table whose last level is ints lo..hi (0 <= lo <= MAX_SLICE_LOW) -> its key in
        # move_tables, its depth and lo, hi; and its copy with that level a tuple, once made (`moves sliced`)
        self.int_tables: dict[str, tuple[tuple, int, int, int]] = {}
        self.sliced_tables: dict[str, str] = {}
        self._shallow: dict[str, int] | None = None  # shallow()
        # definitions remembered per decision are called, not inlined: the call looks them up
        self.inlinable = facts.inlinable - facts.shared_calls if self.SHARED_CALLS else facts.inlinable
        self.tiny = facts.tiny - facts.shared_calls if self.SHARED_CALLS else facts.tiny
        self.remembered_defines = facts.remembered
        # while an enumeration body is generated: define name -> the local dict remembering its
        # calls (interpreter/compiler/memo.py); None elsewhere, where the state may change between calls
        self.memo_keys = facts.memo_keys
        self.shared_calls = facts.shared_calls if self.SHARED_CALLS else frozenset()
        self.shared_plays = facts.shared_plays if self.SHARED_CALLS else frozenset()
        # the definitions carried across decisions, and the variables whose writes they
        # must hear of (each write of one is logged while a value is kept: engine/carried.py)
        self.carried = facts.carried if self.CARRY else {}
        # untraced: the actions whose listings are kept (carry.kept_listing), whose reads are
        # logged likewise
        self.kept = facts.kept if self.KEPT_LISTINGS and (self.KEPT_LISTINGS_TRACED or not record) else {}
        self.carried_reads = frozenset(v for c in [*self.carried.values(), *self.kept.values()] for v in c.reads)
        # traced: the maps whose entries' writes are logged for grouped invariants' kept sums
        # (invtests.logged_maps, `kept by writes`); set by compile._codegen
        self.logged_maps: frozenset[str] = frozenset()
        # state map -> its key type, for the maps whose keys are kept by value (carry.indexed_maps)
        self.indexed = facts.indexed if self.KEYS_BY_VALUE else {}
        self._positions: dict[str, str] = {}  # board or enumeration -> the constant of its places
        self.enum_memo: dict[str, str] | None = None
        # while a listing is written: the definitions it works out once (`once_call`), by
        # definition and arguments, each to its local (declared not yet worked out at its top)
        self.enum_once: dict[tuple[str, tuple[str, ...]], str] | None = None
        self.enum_loops: list[str] = []  # ... and the locals of its parameters' loops opened so far
        self.enum_sets: dict[str, str] = {}  # state map -> the local holding its values as a set
        self.const_ids: dict[str, int] = {}  # constant or option -> i of its local _kc<i>
        self.inlines: list[Inline] = []  # what each placeholder `__inline__(n)` copies (machine.py)
        self.hosts: list[str] = []  # the functions holding placeholders
        # the procedures' functions are written into this module (compile_model; not a
        # scenario's `given`, compiled alone): their bodies may be copied (`procedure inlined`)
        self.own_procedures = False
        self._pending_inlines = False
        self.fused_kept: int | None = None  # `decision kept`: the op the fused apply's frame stays at
        self.taken_by_move: set[str] = set()  # actions whose following listing always drops the move
        self.fused_taken = False  # the fused apply's one action is such an action (offeredat.py)
        # traced, `fused kept checks`: the actions whose step the fused apply opens by
        # `_RECORDED_STEP` (machine.py `fused_apply`; compile.py `kept_steps_inline`)
        self.fused_unchecked: tuple[str, ...] = ()
        self.tree_passes: dict[str, list] = {}  # function name -> passes over its tree (finish)
        self.any_fns: dict[str, str] = {}  # action -> its any-move search, AA_n (pytree.direct_possible)
        self.choices: list[Choice] = []  # the optimisations applied (Program.choices)
        self.rule_now = ""  # the rule being generated, for `choices`
        self.data_names = {n: f"_D{i}" for i, n in enumerate(model.data)}
        for n, py in self.data_names.items():
            self.constants[py] = model.data_values.get(n)

    def chose(self, kind: str, detail: str = "", rule: str | None = None) -> None:
        """Note an optimisation applied (once per kind, rule and detail)."""
        c = Choice(kind, self.rule_now if rule is None else rule, detail)
        if c not in self.choices:
            self.choices.append(c)

    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return f"_{prefix}{self.counter}"

    def fixed_table(self, name: str) -> bool:
        """Whether the constant `name` is a table no generated code changes and that holds every
        value of its keys' type: made complete when the program was compiled, or made by a pass
        from such tables (numbered rows and domains, paired rows, a player's values)."""
        return name in self.complete_tables or name in self.made_fixed

    def fixed_const(self, value: Any, prefix: str = "C") -> str:
        """`const`, for a table a pass makes from fixed tables (`fixed_table`)."""
        name = self.const(value, prefix)
        self.made_fixed.add(name)
        return name

    def const(self, value: Any, prefix: str = "C") -> str:
        """A name for a value computed now that generated code uses as a constant."""
        name = self.fresh(prefix)
        self.constants[name] = value
        return name

    # ------------------------------------------------------------------ expressions
    def static_type(self, e: A.Node, sc: dict | None = None) -> Type:
        """The checker's type of an expression (dsl/check_expr.py records every one)."""
        return self.m.type_of(e)

    def ex_recorded(self, e: A.Node, sc: dict, rec: list) -> str:
        """`ex` in explain mode, where `e` itself may have been worked out into a local already
        (`explained loop`): that local, recorded as `e`'s value."""
        local = self.subst.get(id(e))
        if local is None:
            return self.ex(e, sc, rec)
        rec.append(e)
        return f"(_x{len(rec) - 1} := {local})"

    def ex(self, e: A.Node, sc: dict, rec: list | None = None) -> str:
        """Python source for expression `e`; `rec` (explain mode) collects sub-expressions."""
        if id(e) in self.subst and rec is None:  # computed once already (interpreter/compiler/hoist.py)
            return self.subst[id(e)]
        code = self._ex(e, sc, rec)
        if rec is not None and self._worth_recording(e, sc):
            rec.append(e)
            i = len(rec) - 1
            if self.rec_in_iterable:  # an assignment expression may not stand there
                self.rec_closure.add(i)
                return f"_R({i}, {code})"
            return f"(_x{i} := {code})"
        return code

    def _worth_recording(self, e: A.Node, sc: dict) -> bool:
        """Sub-expressions whose values explain a check: not literals, constants or whole maps."""
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.ListLit, A.MapLit)):
            return False
        if isinstance(e, A.Name):
            if e.name in sc or e.name == "current":
                return True
            if e.name in self.m.vars:
                return not isinstance(self.m.var_types[e.name].base, (MapOf, ListOf, SetOf))
            return False
        return True

    def current(self) -> str:
        return "G.current" if self.in_block else "_cur"

    def var(self, name: str) -> str:
        """A state variable: a map or record never replaced as a whole is bound once per function,
        and so is every variable a function reads when it only reads (`still`)."""
        i = self.stable.get(name)
        if i is None and self.still:
            i = self.var_index[name]
        return f"V[{name!r}]" if i is None else f"_sv{i}"

    def _ex(self, e: A.Node, sc: dict, rec: list | None) -> str:
        """One method per node class (_EXPRS); a subclass takes its base's."""
        return self._EXPRS[type(e)](self, e, sc, rec)

    def _ex_other(self, e: A.Node, sc: dict, rec: list | None) -> str:
        raise RuleFailure(f"cannot compile {type(e).__name__}", e.span)

    def _ex_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        return repr(e.value)

    def _ex_none_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        return "None"

    def _ex_name(self, e: A.Node, sc: dict, rec: list | None) -> str:
        return self.name(e, sc)

    def _ex_list_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        if e.items and rec is None and all(self.literal_value(x, sc) for x in e.items):
            return self.const([self.literal_value(x, sc)[0] for x in e.items], "L")  # made once
        return "[" + ", ".join(sub(x) for x in e.items) + "]"

    def _ex_map_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        if not e.items and isinstance(self.m.type_of(e).base, SetOf):
            return "frozenset()"  # `{}` where a set is compared (issue 9: an empty set literal)
        return "{" + ", ".join(f"{sub(k)}: {sub(v)}" for k, v in e.items) + "}"

    def _ex_set_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        return "frozenset([" + ", ".join(sub(x) for x in e.items) + "])"

    def _ex_index(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        bt = self.static_type(e.base, sc).base
        base, key = sub(e.base), sub(e.key)
        if isinstance(bt, MapOf) and bt.total and not is_finite(bt.key):
            return f"{base}.get({key}, {bt.val.default()!r})"  # a state map: total (see MapOf)
        if isinstance(bt, (MapOf, ListOf)):  # a missing key fails loudly: a rule failure
            return f"{base}[{key}]"
        return f"_index({base}, {key})"

    def _ex_field(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        return f"{sub(e.base)}[{e.name!r}]"

    def _ex_record_literal(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        return "{" + ", ".join(f"{n!r}: {sub(v)}" for n, v in e.fields) + "}"

    def _ex_call(self, e: A.Node, sc: dict, rec: list | None) -> str:
        return self.call(e, sc, rec)

    def _ex_bin_op(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        chain = [e]
        while isinstance(chain[-1].left, A.BinOp) and _GROUP[chain[-1].left.op] == _GROUP[e.op] \
                and id(chain[-1].left) not in self.subst:
            chain.append(chain[-1].left)
        text = sub(chain[-1].left)
        for node in reversed(chain):
            if node.op == "*":  # numbers may not grow without bound (runtime._mul)
                text = f"_mul({text}, {sub(node.right)})"
            elif node.op in ("//", "%") and not (isinstance(node.right, A.IntLit) and node.right.value):
                # a divisor that may be 0 fails as the rules' error (runtime._div, _mod)
                text = f"{'_div' if node.op == '//' else '_mod'}({text}, {sub(node.right)})"
            elif node.op == "+" and isinstance(self.static_type(node, sc).base, ListOf):
                # joining lists copies them: charged to the work budget by their length
                text = f"_joined(G, {text}, {sub(node.right)}, SPANS[{self.span_id(node.span)}])"
            else:
                text += f" {node.op} {sub(node.right)}"
        return f"({text})"

    def _ex_compare(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        if e.op in ("==", "!=") and isinstance(e.right, A.NoneLit):  # none is one object
            if _is_value(e.left) or self.literal_value(e.left, sc):  # `ace != none`: no `is` of a literal
                return f"({sub(e.left)} {e.op} None)"
            return f"({sub(e.left)} {'is' if e.op == '==' else 'is not'} None)"
        left, right = sub(e.left), sub(e.right)
        if self.FOLD_CONSTANTS and (value := folded_compare(left, e.op, right)) is not None:
            self.chose("folded", "comparisons of literals")
            return value
        if self.NAMES_BY_IDENTITY and rec is None and e.op in ("==", "!=") and self.names_both(e, left, right, sc):
            self.chose("names by identity", "comparisons of names")
            return f"({left} {'is' if e.op == '==' else 'is not'} {right})"
        if self.NONE_FIRST and rec is None and e.op in ("==", "!="):
            guarded = self.none_tested_first(e, left, right, sc)
            if guarded is not None:
                return guarded
        return f"({left} {e.op} {right})"

    def names_both(self, e: A.Compare, left: str, right: str, sc: dict) -> bool:
        """Whether both sides of `e` are names (of a board, an enum, Direction or Player, or
        none where the type allows it), neither written as a literal: then `==` is `is`, since
        every name the rules read is the one canonical object for its text (engine/canonical.py,
        `names by identity`). A literal is left to `==` (`is` on one is a SyntaxWarning)."""
        lt, rt = self.static_type(e.left, sc), self.static_type(e.right, sc)
        if not (isinstance(lt.base, Elem) and isinstance(rt.base, Elem)) or "bool" in (lt.base.name, rt.base.name):
            return False
        return not (_literal_code(left) or _literal_code(right))

    def none_tested_first(self, e: A.Compare, left: str, right: str, sc: dict) -> str | None:
        """`left op right` with none tested first, when both sides are names (texts or none)
        and one of them may be none (nonefirst.py)."""
        lt, rt = self.static_type(e.left, sc), self.static_type(e.right, sc)
        if not (isinstance(lt.base, Elem) and isinstance(rt.base, Elem)):
            return None
        other = e.right if isinstance(lt, Opt) else e.left  # the side that is not none by its type
        current = isinstance(other, A.Name) and other.name == "current"  # and never None at run time
        code = none_first(left, e.op, right, isinstance(lt, Opt), isinstance(rt, Opt), current)
        if code is not None:
            self.chose("none first", "comparisons of names that may be none")
        return code

    def _ex_bool_op(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        items = [sub(x) for x in e.items]
        if self.FOLD_CONSTANTS and rec is None and (kept := folded_bool(e.op, items)) is not None:
            self.chose("folded", f"{e.op} of a literal")
            items = kept
        return "(" + f" {e.op} ".join(items) + ")"

    def _ex_not(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        operand = sub(e.operand)
        if self.FOLD_CONSTANTS and (value := folded_not(operand)) is not None:
            self.chose("folded", "not of a literal")
            return value
        return f"(not {operand})"

    def _ex_neg(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        return f"(-{sub(e.operand)})"

    def _ex_range(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        return f"range({sub(e.low)}, {sub(e.high)} + 1)"

    def _ex_cond_expr(self, e: A.Node, sc: dict, rec: list | None) -> str:
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        test = sub(e.test)
        if self.FOLD_CONSTANTS and rec is None and (truth := truth_of(test)) is not None:
            self.chose("folded", "conditional of a literal")  # only the branch that runs is written
            return f"({sub(e.then if truth else e.orelse)})"
        return f"({sub(e.then)} if {test} else {sub(e.orelse)})"

    def _ex_let_expr(self, e: A.Node, sc: dict, rec: list | None) -> str:
        """A definition's `let` inside one expression (where `value` cannot write statements:
        deep nesting): an assignment expression, or a lambda's parameter in a comprehension's
        iterable, where Python allows no assignment expression."""
        local, inner = self.let_local(e, sc)
        value = self.ex(e.value, sc, rec)
        if self.in_iterable:
            return f"(lambda {local}: {self.ex(e.body, inner, rec)})({value})"
        return f"({local} := {value}, {self.ex(e.body, inner, rec)})[1]"

    def let_local(self, e: A.LetExpr, sc: dict) -> tuple[str, dict]:
        """A new local for a definition's `let`, and the scope of its body: a local holding a
        collection the ruleset bounds (a board, a constant list) stays bounded."""
        local = self.fresh("l")
        inner = dict(sc)
        inner[e.name] = (local, "bounded" if self.bounded(e.value, sc) else None)
        return local, inner

    def _ex_aggregate(self, e: A.Node, sc: dict, rec: list | None) -> str:
        if rec is None and e.kind in LOOP_KINDS:
            return self.agg_call(e, sc)
        return self.aggregate(e, sc, rec)

    def literal_value(self, e: A.Node, sc: dict) -> tuple | None:
        """(value,) of a literal or a named value (a square, a member, a direction), else None."""
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit)):
            return (e.value,)
        if isinstance(e, A.Name) and e.name not in sc and e.name not in self.m.vars and (
                e.name in self.m.element_type or e.name in DIRECTIONS):
            return (e.name,)
        return None

    def name(self, e: A.Name, sc: dict) -> str:
        m = self.m
        n = e.name
        if n in sc:
            return sc[n][0]
        if n in m.vars:
            return self.var(n)
        if n in m.data:
            return self.data_names[n]
        if n in m.consts or n in m.options:  # fixed for the game: bound once per function
            i = self.const_ids.setdefault(n, len(self.const_ids))
            return f"_kc{i}"
        if n == "current":
            return self.current()
        if n in ("players", "Player"):
            return "G.player_list"
        if n == "player_count":
            return "len(G.players)"
        if n == "round":
            return "G.round"
        if n == "current_phase":
            return "G.phase"
        if n in self.elements:
            return self.element_list(n)
        if n in m.element_type or n in DIRECTIONS:
            return repr(n)
        raise RuleFailure(f"unresolved name {n!r}", e.span)

    def row_keys(self) -> dict[str, tuple[frozenset, bool]]:
        """For `fixed rows`: each state map keyed by named values (a board, an enum, the
        players), as its `_sv` name, with the keys every game has — a board's or enum's values,
        the players every game has (the declaration's first, as many as the fewest) — and
        whether `_cur` is one."""
        if self._row_keys is None:
            d = self.m.players
            players = frozenset(d.names[:d.min_count]) if d is not None else frozenset()
            self._row_keys = {}
            for name, decl in self.m.vars.items():
                t = decl.type
                if not (isinstance(t, A.MapType) and isinstance(t.key, A.NamedType)):
                    continue
                k = t.key.name
                if k == "Player":
                    self._row_keys[f"_sv{self.var_index[name]}"] = (players, True)
                elif k in self.elements:
                    self._row_keys[f"_sv{self.var_index[name]}"] = (frozenset(self.elements[k]), False)
        return self._row_keys

    def fixed_pair(self) -> tuple[str, str] | None:
        """The two players of every game, when the ruleset is for exactly two (`G.players` is
        always the first names of the declaration, as many as the game has)."""
        d = self.m.players
        if d is None or not d.min_count == d.max_count == 2:
            return None
        return d.names[0], d.names[1]

    def shallow(self) -> dict[str, int]:
        """Each state variable some statement writes, with the fewest keys and fields any write
        goes below it (0: written whole; `whole sums`: a map keeps every key it was made with
        where no write replaces it or its row), worked out when first asked."""
        if self._shallow is None:
            self._shallow = {}
            for t in _targets(self.m):
                self._shallow[t.root] = min(self._shallow.get(t.root, len(t.steps)), len(t.steps))
        return self._shallow

    def element_list(self, type_name: str) -> str:
        """The values of a board, enum, Direction or bool, as a constant of the program."""
        key = ("elements", type_name)
        if key not in self._tables:
            self._tables[key] = self.const(list(self.elements[type_name]), "E")  # a list value, as the type says
        return self._tables[key]

    def call(self, e: A.Call, sc: dict, rec: list | None) -> str:
        m = self.m
        if e.func == "possible":
            who = self.ex(e.args[1], sc, rec) if len(e.args) > 1 else "None"
            return f"c_possible(G, {e.args[0].name!r}, {who})"
        if e.func in ("min_of", "max_of") and rec is None and self.ITEMS_COMPARED and e.func not in m.defines:
            items = self.items_compared(e, sc)
            if items is not None:
                return items
        args = [self.ex(a, sc, rec) for a in e.args]
        joined = ", ".join(args)
        if e.func in m.defines:
            if rec is not None and self.EXPLAINED_INLINE:
                inlined = self.explained_inline(e, args)
                if inlined is not None:
                    return inlined
            held = self.held_call(e, args) if self.enum_memo is not None and rec is None else None
            if held is not None:
                return held
            if rec is None and self.LOOP_FORMS and e.func in self.tiny and all(
                    _is_name(a) or _is_literal(a) for a in args):
                return self.tiny_call(e.func, args)
            code = f"D_{self.define_ids[e.func]}(G{', ' if args else ''}{joined})"
            if self.enum_memo is not None and rec is None and e.func in self.memo_keys:
                return self.remembered(e.func, args, code) or code
            return code
        if e.func in m.devices:
            return f"DV_{self.device_ids[e.func]}(G{', ' if args else ''}{joined})"
        b = LIBRARY[e.func]
        if e.func == "other" and self.FIXED_PAIR and _is_name(args[0]) and (pair := self.fixed_pair()):
            # every game has the same two players: `other(p)` is the one `p` is not, as
            # `game_other` answers it (the first player for anything but the first), no call
            self.chose("fixed pair", "other(...) of a game for exactly two players")
            return f"({pair[1]!r} if {args[0]} == {pair[0]!r} else {pair[0]!r})"
        if b.kind in ("chance", "game"):
            return f"c_{e.func}(G{', ' if args else ''}{joined})"
        if e.func == "component_of" and rec is None:
            kept = self.components_kept(e, args)
            if kept is not None:
                return kept
        table = self.table(e, args) if b.tabulable and rec is None else None
        return table or f"b_{e.func}({joined})"

    def items_compared(self, e: A.Call, sc: dict) -> str | None:
        """`min_of([a, b, ...])` (`max_of`) of a list display of two or more plain items and no
        default as the builtin's call on the items, `min(a, b, ...)`: the items evaluated in the
        same order, and the same item answered (the first smallest, as `min` of the list answers
        it; a list of two or more is never empty, so the default is never taken) and the same
        TypeError where two cannot be compared. Shogun's tower asks `min_of([lower[c],
        inside[c]])` for every colour, twice a throw, and its settle once: each a list and a
        Python call of `library._min_of`. Not in an explanation (`rec`), which records the
        display as a sub-expression of its own."""
        if len(e.args) != 1 or type(e.args[0]) is not A.ListLit:
            return None
        items = e.args[0].items
        if len(items) < 2:
            return None
        self.chose("items compared", f"{e.func}([...]) of {len(items)} items")
        return f"{e.func[:3]}({', '.join(self.ex(i, sc, None) for i in items)})"

    def components_kept(self, e: A.Call, args: list[str]) -> str | None:
        """In a listing, `component_of(n, items)` over items worked out once for it (`once per
        listing`) answered from a table of the listing's, which each call fills for every node
        of the component it found (`_component_kept`): the nodes of one component share their
        answer, so a component is flooded once per listing, not once per node asked (Root's
        `wood_for(c)`: the wood reachable from each ruled clearing with an open slot). The
        items never change while moves are listed, and lists are values (never changed in
        place), so the shared answer is what each call would make. None where it does not apply."""
        if not self.COMPONENTS_KEPT or self.enum_memo is None or not self.enum_once or len(args) != 2 \
                or args[1] not in self.enum_once.values() or not (_is_name(args[0]) or _is_literal(args[0])):
            return None
        table = self.enum_memo.setdefault(f"component_of/{args[1]}", self.fresh("cp"))
        node = args[0]
        self.chose("components kept", expr_text(e))
        return f"({table}[{node}] if {node} in {table} else _component_kept({table}, {node}, b_component_of({node}, {args[1]})))"

    def tiny_call(self, func: str, args: list[str]) -> str:
        """A call of a one-line definition (`enemy_on(p, s) = cell[s] != none and cell[s] != p`)
        as its expression, the parameters replaced by the arguments (names or literals, so
        nothing is evaluated twice): no call where a comprehension or an `and` keeps it from
        being inlined as statements."""
        self.chose("inlined expression", func)
        d = self.m.defines[func]
        subst, self.subst = self.subst, {}  # the caller's parts are not the definition's
        try:
            return f"({self.ex(d.value, {p.name: (a, None) for p, a in zip(d.params, args, strict=True)})})"
        finally:
            self.subst = subst

    def explained_inline(self, e: A.Call, args: list[str]) -> str | None:
        """In an explanation, a call of a small one-expression definition (no `let`, no
        aggregate, no memo of its own, not recursive) in which each parameter is read exactly
        once and wherever the body is evaluated, as its expression, each parameter the
        argument's recorded code (`(_x0 := _cur)`): the call's value is recorded as before, and
        the definition's own parts never were; each argument is evaluated once, as the call
        evaluated it, and a definition changes nothing, so its value is the call's. Checkers'
        `not can_capture(current)` is `jump_paths(current) != []`: the listing's kept check then
        calls `jump_paths` itself, which `shared in block` keeps in a local with the jump
        listing's call (`explained inline`; None where it does not apply)."""
        m = self.m
        d = m.defines[e.func]
        if e.func not in self.inlinable or e.func in self.remembered_defines or e.func in self.shared_calls \
                or e.func in self.carried or len(d.params) != len(args):
            return None
        nodes = list(iter_nodes(d.value))
        if len(nodes) > MAX_TINY_NODES or any(isinstance(n, (A.LetExpr, A.Aggregate)) for n in nodes):
            return None
        params = {p.name for p in d.params}
        always = {id(n) for n in always_evaluated(d.value)}
        reads = [n for n in nodes if isinstance(n, A.Name) and n.name in params]
        if sorted(n.name for n in reads) != sorted(params) or not all(id(n) in always for n in reads):
            return None
        self.chose("explained inline", e.func)
        subst, self.subst = self.subst, {}  # the caller's parts are not the definition's
        try:
            return f"({self.ex(d.value, {p.name: (a, None) for p, a in zip(d.params, args, strict=True)})})"
        finally:
            self.subst = subst

    def held_call(self, e: A.Call, args: list[str]) -> str | None:
        """While moves are listed: a call of a definition whose body is `any r in K: m[r] == x`
        (Khan's `ruler_on(s)`) as `x in` the set of m's values made for the enumeration, where
        it is not inlined anyway (behind an `and`): no call, and no memo that a new square
        misses. None for any other definition."""
        d = self.m.defines[e.func]
        if not isinstance(d.value, A.Aggregate) or e.func not in self.inlinable:
            return None
        subst, self.subst = self.subst, {}
        try:
            held = self.held_value(d.value, {p.name: (a, None) for p, a in zip(d.params, args, strict=True)})
        finally:
            self.subst = subst
        if held is not None:
            self.chose("held values", f"{e.func}({', '.join(p.name for p in d.params)})")
        return held

    def remembered(self, func: str, args: list[str], code: str) -> str | None:
        """`code` (a call of definition `func`) looked up in this enumeration's memo first, keyed
        by what the definition reads of its arguments (interpreter/compiler/memo.py); None when an
        argument is not a plain name, which the key would evaluate twice."""
        if not all(_is_name(a) or _is_literal(a) for a in args):
            return None
        if all(a == "_cur" or _is_literal(a) for a in args):  # the same call every time: made once
            return None
        d = self.m.defines[func]
        parts: list[str] = []
        for p, arg, proj in zip(d.params, args, self.memo_keys[func].parts, strict=True):
            if proj is None:
                parts.append(arg)
                continue
            scope = {p.name: (arg, None)}
            subst, self.subst = self.subst, {}
            parts.extend(dict.fromkeys(self.ex(node, scope) for node in proj))
            self.subst = subst
        # the parts the same all through the listing (`current`, literals) name the table, not
        # the key: Root's `rules(current, c)` is keyed by `c` alone, no tuple made and hashed
        # at every look-up (the table is the listing's local; `_cur` is bound at its top)
        fixed = tuple((i, part) for i, part in enumerate(parts) if part == "_cur" or _is_literal(part)) \
            if self.MEMO_FIXED_OUT else ()
        if fixed:
            parts = [part for part in parts if part != "_cur" and not _is_literal(part)]
        key = parts[0] if len(parts) == 1 else f"({', '.join(parts)})"
        name = f"{func}|{fixed}" if fixed else func
        table = self.enum_memo.get(name)
        if table is None:
            table = self.enum_memo[name] = self.fresh("mz")
        self.chose("memo", f"{func} by " + ", ".join(
            p.name if proj is None else ", ".join(expr_text(n) for n in proj)
            for p, proj in zip(d.params, self.memo_keys[func].parts, strict=True)))
        return f"({table}[{key}] if {key} in {table} else {table}.setdefault({key}, {code}))"

    # ------------------------------------------------------------------ tables of library calls
    def _values(self, arg: A.Node) -> list | None:
        """The values an argument can take, when they are few and known now: a literal, a
        square or other named value, or any expression of a finite type."""
        if isinstance(arg, A.IntLit):
            return [arg.value]
        if isinstance(arg, A.Neg) and isinstance(arg.operand, A.IntLit):
            return [-arg.operand.value]
        if isinstance(arg, A.BoolLit):
            return [arg.value]
        t = self.static_type(arg)
        if isinstance(t, Elem):
            if t.name == "Player":
                return list(self.players)
            return list(self.elements[t.name]) if t.name in self.elements else None
        return None

    def table(self, e: A.Call, args: list[str]) -> str | None:
        """`b_ray(s, d)` as `_T3[s][d]`: the call worked out now for every possible argument."""
        if self.boards is None:
            return None
        pools = [self._values(a) for a in e.args]
        if any(p is None for p in pools):
            return self.memo(e, args)
        size = 1
        for p in pools:
            size *= len(p)
        if size > MAX_TABLE:
            return None
        varying = [i for i, p in enumerate(pools) if len(p) > 1 or not isinstance(e.args[i], (A.IntLit, A.Neg, A.BoolLit))]
        key = (e.func, tuple(repr(p) if i in varying else repr(p[0]) for i, p in enumerate(pools)))
        name = self._tables.get(key)
        if name is None:
            fn = LIBRARY[e.func].bind(self.boards)
            table: dict = {}
            try:
                for combo in itertools.product(*pools):
                    k = tuple(combo[i] for i in varying)
                    if len(k) <= 1:
                        table[k[0] if k else ()] = fn(*combo)
                        continue
                    inner = table  # nested by argument: t[a][b] is two lookups, no tuple built
                    for part in k[:-1]:
                        inner = inner.setdefault(part, {})
                    inner[k[-1]] = fn(*combo)
            except Exception:  # some argument is out of reach for this function: call it instead
                return None
            name = self._tables[key] = self.const(table, "T")
            self.complete_tables.add(name)
        if not varying:
            return f"{name}[()]"
        return name + "".join(f"[{args[i]}]" for i in varying)

    def memo(self, e: A.Call, args: list[str]) -> str | None:
        """A call whose arguments are not all known now (`column_squares(col)`), remembered per
        argument value the first time it is made."""
        if not args or not all(_is_name(a) for a in args):
            return None
        name = self.const({}, "T")
        key = args[0] if len(args) == 1 else f"({', '.join(args)})"
        return f"({name}[{key}] if {key} in {name} else _memo({name}, b_{e.func}, {', '.join(args)}))"

    # ------------------------------------------------------------------ work
    def bounded(self, e: A.Node, sc: dict) -> bool:
        """Whether iterating `e` is bounded by the ruleset itself: a board, an enum, the players,
        a constant list or range, a table or board function's result, data, either branch of an
        `if` that is, a definition whose value is (not one that calls itself). Iterating
        anything else (state, a computed range) is charged to the work budget (§13 of
        docs/architecture.md), so nested loops over a large collection stop with a message."""
        if isinstance(e, A.Name):
            if e.name in sc:  # an item of a bounded collection is bounded (a run of squares)
                return sc[e.name][1] == "bounded"
            return e.name in self.elements or e.name in ("players", "Player") or e.name in self.m.data
        if isinstance(e, A.ListLit):
            return all(self.literal_value(x, sc) for x in e.items)
        if isinstance(e, A.Range):
            return isinstance(e.low, A.IntLit) and isinstance(e.high, A.IntLit) and \
                e.high.value - e.low.value < 10_000
        if isinstance(e, A.Call) and e.func not in self.m.defines and e.func in LIBRARY:
            b = LIBRARY[e.func]
            return b.tabulable or e.func in ("placements", "placements_touching", "components", "keys", "values")
        if isinstance(e, A.CondExpr):  # one of two bounded collections
            return self.bounded(e.then, sc) and self.bounded(e.orelse, sc)
        if isinstance(e, A.Call) and e.func in self.inlinable:  # a definition whose value is, whatever
            d = self.m.defines[e.func]  # its arguments: checkers' `ways(s)`, one of three lists
            return self.bounded(d.value, {p.name: (p.name, None) for p in d.params})
        return False

    def charge_call(self, span: A.Span, out: list[str], ind: str) -> None:
        """Charge a procedure call to the work budget: a loop of calls does real work in each
        round, far more than the one step its round counts (a runaway `repeat` of `do`s then
        stops on the budget in a second or two, not on the time limit)."""
        out.append(f"{ind}G.work -= {CALL_WORK}")
        out.append(f"{ind}if G.work < 0:")
        out.append(f"{ind}    G.out_of_work(SPANS[{self.span_id(span)}])")

    def charge(self, items: str, span: A.Span, out: list[str], ind: str, length: bool = True) -> None:
        """Charge iterating `items` (a name; with `length` False, a count) to the work budget."""
        out.append(f"{ind}G.work -= {f'len({items})' if length else items}")
        out.append(f"{ind}if G.work < 0:")
        out.append(f"{ind}    G.out_of_work(SPANS[{self.span_id(span)}])")

    # ------------------------------------------------------------------ aggregates
    def seq(self, code: str, e: A.Node, sc: dict) -> str:
        """Wrap a domain so sets iterate in a fixed order."""
        t = self.static_type(e, sc).base
        if isinstance(t, SetOf) or t == ANY:
            return f"_seq({code})"
        return code

    def aggregate(self, e: A.Aggregate, sc: dict, rec: list | None) -> str:
        """An aggregate as one Python expression (comprehensions, and explanations)."""
        held = self.held_value(e, sc) if rec is None else None
        if held is not None:
            return held
        done = self.domain_done.pop(id(e.domain), None) if rec is not None else None
        if done is not None:  # worked out before the check (`explained`)
            dom = self.seq(done, e.domain, sc)
        else:
            before, self.rec_in_iterable = self.rec_in_iterable, rec is not None
            outer, self.in_iterable = self.in_iterable, True
            dom = self.seq(self.ex(e.domain, sc, rec), e.domain, sc)
            self.rec_in_iterable, self.in_iterable = before, outer
        if not self.bounded(e.domain, sc):
            dom = f"_charged(G, {dom}, SPANS[{self.span_id(e.span)}])"
        v = self.fresh("a")
        inner = dict(sc)
        inner[e.var] = (v, None)
        keys = self.fixed_filter_keys(e, sc) if rec is None and e.kind != "streak" else None
        if keys is not None:  # the filter reads only fixed things and `keys`: worked out once per key
            dom = self.filtered_once(e, v, inner, dom, keys)
        repeated = self.repeated(e, sc, dom) if rec is None and keys is None else None
        if repeated is not None:
            self.chose("repeated item", expr_text(e))
            return repeated
        fixed = self.fixed_once(e, sc) if rec is None and keys is None and e.kind in FIXED_KINDS else []
        # `list k in ITEMS: (list c in SLOTS where FITS)`: FITS' parts that read nothing of k
        # filter SLOTS once (slots.py), bound like a fixed part by the first `for`
        split = split_slots(self, e.body, e.var, sc) \
            if self.SLOTS_FILTERED and self.LOOP_FORMS and rec is None and e.kind == "list" else None
        once = [(x, c) for _n, x, c in fixed]
        # sub-expressions under the bound variable are not recorded: they take many values
        where = self.ex(e.where, inner) if e.where is not None else None
        if split is not None:
            kept = self.fresh("ks")
            once.append((kept, kept_slots(self, split, sc)))
            body = item_slots(self, split, kept, inner)
            self.chose("slots filtered once", expr_text(e.body))
        else:
            body = self.ex(e.body, inner) if e.body is not None else None
        for node, _local, _code in fixed:
            del self.subst[id(node)]
        text = self._comprehension(e, v, dom, where, body)
        if once:  # a first `for` over one tuple binds them once, in the enclosing scope
            head = f" for ({', '.join(x for x, _c in once)},) in (({', '.join(c for _x, c in once)},),)"
            text = text.replace(f" for {v} in {dom}", f"{head} for {v} in {dom}", 1)
        return text

    def _comprehension(self, e: A.Aggregate, v: str, dom: str, where: str | None, body: str | None) -> str:
        """An aggregate's Python expression, its loop variable, domain, filter and body given."""
        gen_if = f" if {where}" if where else ""
        k = e.kind
        if k in ("all", "any"):
            return f"{k}({body} for {v} in {dom}{gen_if})"
        if k == "count":
            c = " and ".join(f"({p})" for p in (where, body) if p) or "True"
            return f"sum(1 for {v} in {dom} if {c})"
        if k == "sum":
            return f"sum({body} for {v} in {dom}{gen_if})"
        if k in ("max", "min"):
            return f"{k}(({body} for {v} in {dom}{gen_if}), default=None)"
        if k in ("argmax", "argmin"):
            return f"_{k}([{v} for {v} in {dom}{gen_if}], lambda {v}: {body})"
        if k == "first":
            return f"next(({body or v} for {v} in {dom}{gen_if}), None)"
        if k == "streak":
            c = " and ".join(f"({p})" for p in (where, body) if p) or "True"
            return f"_streak({dom}, lambda {v}: {c})"
        if k == "list":
            return f"[{body or v} for {v} in {dom}{gen_if}]"
        if k == "set":
            return f"frozenset({body or v} for {v} in {dom}{gen_if})"
        if k == "map":
            return f"{{{v}: {body} for {v} in {dom}{gen_if}}}"
        raise RuleFailure(f"unknown aggregate {k}", e.span)

    def fixed_once(self, e: A.Aggregate, sc: dict) -> list[tuple[A.Node, str, str]]:
        """The parts of a comprehension's filter and body that are the same in every round and
        cannot fail (hoist.fixed_parts, total.cannot_fail), each as (node, local, code); the
        locals stand for them (`subst`) until the caller has written the comprehension."""
        if not self.LOOP_FORMS:
            return []
        found = []
        for node in fixed_parts(e, lambda n: id(n) not in self.subst and cannot_fail(self.m, n)):
            code = self.ex(node, sc)
            if code.isidentifier():  # a local already: nothing to save
                continue
            local = self.fresh("fx")
            self.subst[id(node)] = local
            found.append((node, local, code))
            self.chose("fixed part", f"{expr_text(node)} in {expr_text(e)}")
        return found

    def agg_call(self, e: A.Aggregate, sc: dict) -> str:
        """An aggregate as a call of a helper function that loops (no generator per use)."""
        used = sorted({n.name for n in iter_nodes(e) if isinstance(n, A.Name) and n.name in sc})
        params = [f"q{i}" for i in range(len(used))]
        inner = {u: (p, sc[u][1] if self.LOOP_FORMS else None)  # a bounded local stays bounded
                 for u, p in zip(used, params, strict=True)}
        name = self.fresh("A")
        block, self.in_block = self.in_block, False
        subst, self.subst = self.subst, {}  # locals of the caller are not visible in the helper
        memo, self.enum_memo = self.enum_memo, None  # nor is the caller's memo
        once, self.enum_once = self.enum_once, None  # nor its values worked out once
        still, self.still = self.still, True  # the helper only reads
        roll, self.roll_draws = self.roll_draws, None  # a function of its own: no roll's local
        lines: list[str] = []
        result = self.value(e, inner, lines, "    ")
        lines.append(f"    return {result}")
        self.in_block, self.subst, self.enum_memo, self.still = block, subst, memo, still
        self.roll_draws = roll
        self.enum_once = once
        self.function(name, params, lines)
        if self.COMMON_EXPRESSIONS:  # a helper changes no state either (common_exprs.py)
            rule = self.rule_now
            self.tree_passes.setdefault(name, []).append(
                lambda fn: common_expressions(fn, self.fresh, self.COMMON_LENGTHS) and self.chose("common expressions", rule=rule))
        return f"{name}(G{''.join(', ' + sc[u][0] for u in used)})"

    def value(self, e: A.Node, sc: dict, out: list[str], ind: str, depth: int = 0) -> str:
        """Emit statements computing `e` where that is faster than one expression (an aggregate
        as loops; a call of a small definition inlined, when it is evaluated anyway); returns
        the expression that holds the value."""
        deep = len(ind) // 4 >= MAX_INLINE_INDENT  # then a helper function, which starts afresh
        if id(e) in self.subst:  # worked out once already (interpreter/compiler/hoist.py)
            return self.subst[id(e)]
        if isinstance(e, A.LetExpr) and not deep:  # a definition's `let` line: a statement
            value = self.value(e.value, sc, out, ind, depth)
            local, inner = self.let_local(e, sc)
            out.append(f"{ind}{local} = {value}")
            return self.value(e.body, inner, out, ind, depth)
        if isinstance(e, A.Aggregate) and e.kind in LOOP_KINDS and not deep:
            r = self.fresh("r")
            self.agg_loop(e, sc, r, out, ind, depth)
            return r
        if isinstance(e, A.Aggregate) and e.kind in COLLECT_KINDS and not deep and self.loop_pays(e):
            return self.collect_loop(e, sc, out, ind, depth)
        if isinstance(e, A.Not) and isinstance(e.operand, A.Aggregate) and e.operand.kind in LOOP_KINDS \
                and not deep and id(e.operand) not in self.subst:  # `require not (any ...)`: loops too
            r = self.fresh("r")
            self.agg_loop(e.operand, sc, r, out, ind, depth)
            return f"(not {r})"
        if isinstance(e, A.Call) and e.func == "bernoulli" and e.func not in self.m.defines and not deep \
                and self.LOOP_FORMS and len(e.args) == 2:
            return self.drawn(e, sc, out, ind, depth)
        if isinstance(e, A.BinOp) and e.op == "+" and not deep and self.LOOP_FORMS \
                and isinstance(self.static_type(e, sc).base, ListOf):
            return self.joined(e, sc, out, ind, depth)
        if not deep and self.DISPLAY_AGGREGATES and isinstance(e, (A.MapLit, A.RecordLit, A.ListLit, A.SetLit)):
            shown = self.display_aggregates(e, sc, out, ind, depth)
            if shown is not None:
                return shown
        inlined = []
        if depth < MAX_INLINE_DEPTH and not deep:
            # not inside a part hoisted or shared already (hoist.py): that local is read instead
            order = _post_order_always(e, self.subst if self.NO_DEAD_PARTS else None)
            flat = {id(n.args[0]) for n in order if self.flattens(n)}
            for node in order:
                if id(node) in self.subst or id(node) in flat:  # a flatten's list: built in its loop
                    continue
                if self.flattens(node):
                    self.subst[id(node)] = self.flatten_loop(node.args[0], sc, out, ind, depth)
                    inlined.append(id(node))
                    continue
                if isinstance(node, A.Call) and node.func in self.inlinable and (
                        node.func not in self.remembered_defines or not self.LOOP_FORMS):  # looked up instead
                    self.subst[id(node)] = self.once_call(node, sc, out, ind, depth) or \
                        self.inline_call(node, sc, out, ind, depth + 1)
                    inlined.append(id(node))
                elif isinstance(node, A.Aggregate) and node.kind in COLLECT_KINDS and self.loop_pays(node):
                    # worked out first, as an inlined call is: an expression draws no chance (E215)
                    # and changes nothing, so no part of it sees a difference
                    self.subst[id(node)] = self.collect_loop(node, sc, out, ind, depth)
                    inlined.append(id(node))
        code = self.ex(e, sc)
        for i in inlined:  # the locals belong to this statement only
            del self.subst[i]
        return code

    def display_aggregates(self, e: A.Node, sc: dict, out: list[str], ind: str, depth: int) -> str | None:
        """A display whose parts are aggregates (`any`, `count`, ... : LOOP_KINDS) and names or
        literals, written as each aggregate's loop ahead of it into a local, in the display's
        order, and the display of the locals: Shogun's `tally(xs)`, a map of six `count x in xs
        where x == c`, called a helper function per count (six Python calls a tally, three
        tallies a throw of the tower). A name or literal cannot fail or charge work, so the
        aggregates run in the order, with the charges and failures, they ran in. None where
        the display has no aggregate or another part."""
        if isinstance(e, A.MapLit):
            parts = [x for kv in e.items for x in kv]
        elif isinstance(e, A.RecordLit):
            parts = [v for _n, v in e.fields]
        else:
            parts = list(e.items)
        plain = (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.Name)
        loops = [p for p in parts if isinstance(p, A.Aggregate) and p.kind in LOOP_KINDS and id(p) not in self.subst]
        if not loops or any(not isinstance(p, plain) and not (isinstance(p, A.Aggregate) and p.kind in LOOP_KINDS)
                            for p in parts):
            return None
        for p in loops:
            r = self.fresh("r")
            self.agg_loop(p, sc, r, out, ind, depth)
            self.subst[id(p)] = r
        self.chose("display of aggregates", f"{len(loops)} aggregates")
        try:
            return self.ex(e, sc)
        finally:
            for p in loops:
                del self.subst[id(p)]

    def drawn(self, e: A.Call, sc: dict, out: list[str], ind: str, depth: int) -> str:
        """`bernoulli(num, den)` as statements: chance_bernoulli's fast path in place (the
        SplitMix64 step, rng.step_code), no call per draw (Shogun's tower draws thousands a
        game). Anything that path does not take (a script queue, explicit chance, a state or
        arguments out of its range, an output above rng.SAFE; in a traced program, a draw that
        is noted, outside a device's roll) calls `c_bernoulli` from the same state, which
        draws the same value, notes it or fails as it would."""
        args = []
        for a in e.args:
            code = self.value(a, sc, out, ind, depth)
            if not (code.isidentifier() or _is_literal(code)):
                local = self.fresh("v")
                out.append(f"{ind}{local} = {code}")
                code = local
            args.append(code)
        num, den = args
        s, z, r = self.fresh("s"), self.fresh("z"), self.fresh("b")
        fixed = self.literal_value(e.args[1], sc)
        if fixed is not None and type(fixed[0]) is int and 1 <= fixed[0] <= rng.SMALL_N:
            sound = f"0 <= {num} <= {den}"  # a denominator written in the rules: checked now
        else:
            sound = f"type({den}) is int and 0 <= {num} <= {den} <= {rng.SMALL_N:#x} and {den} > 0"
        call = f"c_bernoulli(G, {num}, {den})"
        if self.roll_draws is not None and self.BATCHED_DRAWS and self.SAFE_IN_BATCH:
            return self.safe_in_batch(e, num, den, sound, call, out, ind)
        out.append(f"{ind}{s} = G.rng")
        if self.roll_draws is not None:  # in a device's roll: the game's part of the test made once
            self.roll_draws.append(expr_text(e))
            once = self.sound_once(e, num, den, sound)
            out.append(f"{ind}if not {once}:" if once else f"{ind}if not {ROLL_DRAWS} or not ({sound}):")
        else:
            noted = "not G.quiet_chance or " if self.record else ""  # a traced draw is noted by the call
            out.append(f"{ind}if {noted}G.scripted or G.explicit or type({s}) is not int "
                       f"or not 0 <= {s} <= {rng.MASK64:#x} or not ({sound}):")
        out.append(f"{ind}    {r} = {call}")
        out.append(f"{ind}else:")
        if self.roll_draws is not None and self.BATCHED_DRAWS:
            out.extend(self.batched_draw(s, z, ind + "    ", expr_text(e)))
            out.append(f"{ind}    if {z} > {rng.SAFE:#x}:")
            out.append(f"{ind}        {r} = {call}")
            out.append(f"{ind}    else:")
            out.append(f"{ind}        G.rng = {DRAW_STATES}[{DRAW_AT}]")
            out.append(f"{ind}        {DRAW_AT} += 1")
        else:
            out.extend(rng.step_code(s, z, ind + "    "))
            out.append(f"{ind}    if {z} > {rng.SAFE:#x}:")
            out.append(f"{ind}        {r} = {call}")
            out.append(f"{ind}    else:")
            out.append(f"{ind}        G.rng = {s}")
        out.append(f"{ind}        {r} = {z} % {den} < {num}")
        self.chose("drawn in place", expr_text(e))
        return r

    def safe_in_batch(self, e: A.Call, num: str, den: str, sound: str, call: str, out: list[str],
                      ind: str) -> str:
        """`batched draws` with one test a draw (`safe in batch`): a batch's `DRAW_BEFORE` entry
        is None at an output above rng.SAFE (rng.draws), so the identity test that the batch goes
        on from `G.rng` also says the output is safe, and the draw reads no copy of the state
        and keeps no output in a local: `G.rng` is the batch's state after the step, the result
        the output's test, then `DRAW_AT` moves on. A batch made again that does not go on from
        the state either (its first output is above SAFE) leaves the draw to `c_bernoulli`,
        which draws it the long way. The same values, states and charges as `batched_draw`'s
        form; Shogun's tower draws some 3,500 times a game, and the state's copy, the output's
        local and its comparison with SAFE (a big-int comparison) were a fifth of a draw."""
        r = self.fresh("b")
        self.roll_draws.append(expr_text(e))
        once = self.sound_once(e, num, den, sound)
        self.roll_batched = True
        self.chose("batched draws", expr_text(e))
        self.chose("safe in batch", expr_text(e))
        take = [f"G.rng = {DRAW_STATES}[{DRAW_AT}]",
                f"{r} = {DRAW_OUTPUTS}[{DRAW_AT}] % {den} < {num}",
                f"{DRAW_AT} += 1"]
        out.append(f"{ind}if not {once}:" if once else f"{ind}if not {ROLL_DRAWS} or not ({sound}):")
        out.append(f"{ind}    {r} = {call}")
        out.append(f"{ind}elif {DRAW_BEFORE}[{DRAW_AT}] is G.rng:")
        out.extend(f"{ind}    {line}" for line in take)
        out.append(f"{ind}else:  # used up, moved the long way, or an output above SAFE: made again")
        out.append(f"{ind}    {DRAW_OUTPUTS}, {DRAW_STATES}, {DRAW_BEFORE}, {DRAW_AT} = _draws_from(G.rng)")
        out.append(f"{ind}    if {DRAW_BEFORE}[{DRAW_AT}] is G.rng:")
        out.extend(f"{ind}        {line}" for line in take)
        out.append(f"{ind}    else:")
        out.append(f"{ind}        {r} = {call}")
        self.chose("drawn in place", expr_text(e))
        return r

    def batched_draw(self, s: str, z: str, ind: str, detail: str) -> list[str]:
        """In a device's roll, the output of the SplitMix64 step from state `s` into `z` taken
        from a batch of steps worked out at once (rng.draws, `batched draws`), made again when
        the batch is used up or does not go on from `s` (anything else moved the generator:
        a shuffle, a draw the long way). The draw then sets `G.rng` to the batch's state after
        the step (`DRAW_STATES`) and moves `DRAW_AT` on. Which batch goes on from `s` is told by
        identity (`is`): the state a draw leaves is the batch's own object, so the test costs
        one look-up; an equal state that is another object only makes a batch again. Outputs
        are the step's own, so the same values are drawn in the same order."""
        self.roll_batched = True
        self.chose("batched draws", detail)
        return [f"{ind}if {DRAW_BEFORE}[{DRAW_AT}] is not {s}:",
                f"{ind}    {DRAW_OUTPUTS}, {DRAW_STATES}, {DRAW_BEFORE}, {DRAW_AT} = _draws_from({s})",
                f"{ind}{z} = {DRAW_OUTPUTS}[{DRAW_AT}]"]

    def sound_once(self, e: A.Call, num: str, den: str, sound: str) -> str | None:
        """In a device's roll, a draw whose probability is a literal or a constant or option of
        the rules (`_kc<i>`, bound at the function's top and fixed for the game) and whose
        denominator is a literal: the local that holds `ROLL_DRAWS and sound`, worked out once
        at the roll's top (`roll_sound`, written by `roll_draws_test`), or ROLL_DRAWS itself
        when the literals are sound. Both are ints (the checker's), so the comparisons cannot
        fail, wherever they are made. None otherwise: the draw tests them itself."""
        if not self.SOUND_ONCE or not den.isdigit():
            return None
        if num.lstrip("-").isdigit():
            return ROLL_DRAWS if 0 <= int(num) <= int(den) <= rng.SMALL_N and int(den) > 0 else None
        if not (num.startswith("_kc") and num[3:].isdigit()) or self.static_type(e.args[0], {}).base != INT:
            return None
        local = self.roll_sound.get(sound)
        if local is None:
            local = self.roll_sound[sound] = f"{ROLL_DRAWS}{len(self.roll_sound)}"
            self.chose("sound once", expr_text(e.args[0]))
        return local

    def roll_draws_test(self) -> list[str]:
        """The line a device's roll starts with when it draws in place (`drawn`): whether its
        draws may take the fast path, as far as the game decides that. Nothing in a roll scripts
        an outcome or sets the generator other than to a state its own draws or `c_bernoulli`
        leave, the roll is the device's (`DV_n`, which counts `quiet_chance` up around it: a
        traced draw there is not noted one by one), and explicit chance is the game's for good:
        so what holds when the roll starts holds at every draw of it. A script queued for any
        device sends every draw the long way, as before. With the sound tests made once
        (`sound_once`), one line each after it."""
        return [f"    {ROLL_DRAWS} = not (G.scripted or G.explicit) and type(G.rng) is int "
                f"and 0 <= G.rng <= {rng.MASK64:#x}",
                *(f"    {local} = {ROLL_DRAWS} and {sound}" for sound, local in self.roll_sound.items()),
                *([f"    {DRAW_OUTPUTS} = {DRAW_STATES} = {DRAW_BEFORE} = (None,)", f"    {DRAW_AT} = 0"]
                  if self.roll_batched else [])]

    def joined(self, e: A.BinOp, sc: dict, out: list[str], ind: str, depth: int) -> str:
        """`a + b` on lists as statements: the new list, then its charge, as runtime._joined
        makes and charges it, without a call (Shogun's tower appends each cube so, thousands a
        game: `let kept = kept + [s]`)."""
        parts = []
        for side in (e.left, e.right):  # a list written out gives its items, others are unpacked
            code = self.value(side, sc, out, ind, depth)
            items = code[1:-1] if isinstance(side, A.ListLit) and code.startswith("[") else f"*{code}"
            parts += [items] if items else []
        joined = self.fresh("j")
        out.append(f"{ind}{joined} = [{', '.join(parts)}]")
        self.charge(joined, e.span, out, ind)
        return joined

    def once_call(self, call: A.Call, sc: dict, out: list[str], ind: str, depth: int) -> str | None:
        """In a listing (which changes no state), a definition inlined with arguments that are
        the same all through it (literals, `current`), inside loops over the parameters or the
        body of another inlined definition: worked out the first time it is needed and kept
        in a local for the rest of the listing (`once per listing`; Root's
        `ruled_by(Marquise)` inside `wood_for(c)`, made again for every building and clearing).
        The first use is where the rules first ask, so a failure is the same; later uses cost
        no work. Only a body with a loop is kept: anything less is cheaper written out again. None where the call does not qualify (it is inlined as usual)."""
        if self.enum_once is None or not self.ONCE_PER_LISTING or self.in_block or len(ind) <= 4:
            return None  # (at the listing's top level it runs once anyway)
        args = tuple(self.ex(a, sc) for a in call.args)
        if not all(_is_literal(a) or a == "_cur" for a in args):
            return self.once_per_key(call, args, sc, out, ind, depth)
        body: list[str] = []
        code = self.inline_call(call, sc, body, ind + "    ", depth + 1)
        if not _loops(body):  # no loop: cheaper written out again than tested
            out.extend(line[4:] for line in body)  # (written one level in, for the `if`)
            return code
        key = (call.func, args)
        local = self.enum_once.get(key)
        if local is None:
            local = self.enum_once[key] = self.fresh("once")
        out.append(f"{ind}if {local} is _NOT_YET:")
        out.extend(body)
        out.append(f"{ind}    {local} = {code}")
        self.chose("once per listing", f"{call.func}({', '.join(expr_text(a) for a in call.args)})")
        return local

    def once_per_key(self, call: A.Call, args: tuple[str, ...], sc: dict, out: list[str], ind: str,
                     depth: int) -> str | None:
        """`once_call` for a definition whose arguments are parameters of the listing (and
        literals, `current`), of plain types, inside the loop of another parameter that none
        of them is: the same call comes back in every round of that loop (Root's `wood_for(c)`
        inside `cat_build`'s loop over b), so its value is kept per key in a table of the
        listing's and worked out when a key is first asked. None otherwise."""
        d = self.m.defines[call.func]
        params = {a for a in args if a in self.enum_loops}
        if not params or not all(a in params or _is_literal(a) or a == "_cur" for a in args) \
                or not set(self.enum_loops) - params \
                or not all(p.type is not None and plain_type(self.m.type_of_decl(p.type)) for p in d.params):
            return None
        body: list[str] = []
        code = self.inline_call(call, sc, body, ind + "    ", depth + 1)
        if not _loops(body):  # no loop: cheaper written out again than looked up
            out.extend(line[4:] for line in body)  # (written one level in, for the `if`)
            return code
        table = self.enum_memo.setdefault(f"{call.func}/{len(args)}/inlined", self.fresh("mk"))
        key = args[0] if len(args) == 1 else f"({', '.join(args)},)"
        local = self.fresh("once")
        out.append(f"{ind}{local} = {table}.get({key}, _NOT_YET)")
        out.append(f"{ind}if {local} is _NOT_YET:")
        out.extend(body)
        out.append(f"{ind}    {local} = {table}[{key}] = {code}")
        self.chose("once per listing", f"{call.func}({', '.join(expr_text(a) for a in call.args)}) by key")
        return local

    def inline_call(self, call: A.Call, sc: dict, out: list[str], ind: str, depth: int) -> str:
        """A definition's value computed in place: its arguments bound to locals, its body as
        statements (loops for its aggregates)."""
        inner, added = self.bind_call(call, sc, out, ind)
        try:
            return self.value(self.m.defines[call.func].value, inner, out, ind, depth)
        finally:
            for i in added:
                self.subst.pop(i, None)

    def bind_call(self, call: A.Call, sc: dict, out: list[str], ind: str) -> tuple[dict, list[int]]:
        """For a definition inlined in place: the scope of its body, its arguments bound to
        locals, and the parts of the body it works out first (their ids in `subst`, which the
        caller drops when the body is written)."""
        d = self.m.defines[call.func]
        inner = {}
        for p, arg in zip(d.params, call.args, strict=True):
            code = self.ex(arg, sc)
            if not (code.isidentifier() or _is_literal(code)):
                local = self.fresh("v")
                out.append(f"{ind}{local} = {code}")
                code = local
            # iterating the parameter is iterating the argument: bounded where that is (`area`)
            inner[p.name] = (code, "bounded" if self.LOOP_FORMS and self.bounded(arg, sc) else None)
        # parts of the body written twice or more and always evaluated (`CARDS[c].background
        # == khan or CARDS[c].background == terrain[s] or ...`): worked out once, first, as
        # the hoister does for an action's preconditions
        before: list[tuple[str, A.Node]] = []
        twice = Hoister(lambda _used: -1, self.fresh).substitutions(d.value, 0, before)
        added = [i for i in twice if i not in self.subst]
        for i in added:
            self.subst[i] = twice[i]
        for local, node in before:  # inner parts first (Hoister.substitutions): outer ones use them
            self.subst.pop(id(node), None)
            code = self.value(node, inner, out, ind) if self.LOOP_FORMS else self.ex(node, inner)
            out.append(f"{ind}{local} = {code}")
            self.subst[id(node)] = local
        return inner, added

    def test(self, e: A.Node, sc: dict, out: list[str], ind: str, fail: str, depth: int = 0) -> None:
        """Statements that run `fail` unless `e` holds. An `and` is one test per part, in order,
        and so is the body of an inlined definition that is an `and` (`has_majority(p, area) =
        own(p, area) >= 1 and (all q in players: ...)`): each part is then a statement, where
        the loops and definitions it holds are written in place instead of called."""
        deep = len(ind) // 4 >= MAX_INLINE_INDENT
        if self.LOOP_FORMS and not deep and id(e) not in self.subst:
            if isinstance(e, A.BoolOp) and e.op == "and":
                for part in e.items:
                    self.test(part, sc, out, ind, fail, depth)
                return
            if isinstance(e, A.BoolOp) and e.op == "or" and len(e.items) <= MAX_OR_SPLIT:
                # `a or b`: b is tested, as statements, only where a does not hold
                for part in e.items[:-1]:
                    out.append(f"{ind}if not {self.value(part, sc, out, ind, depth)}:")
                    ind += "    "
                self.test(e.items[-1], sc, out, ind, fail, depth)
                return
            if isinstance(e, A.CondExpr) and self.SPLIT_CONDITIONALS:
                self.conditional_test(e, sc, out, ind, fail, depth)
                return
            if isinstance(e, A.Aggregate) and self.OTHER_TESTED:  # `the other player` as a test:
                inner = self.other_scope(e, sc, out, ind)  # its body's, with no flag between
                if inner is not None:
                    self.test(e.body, inner, out, ind, fail, depth)
                    return
            body = self.m.defines[e.func].value if isinstance(e, A.Call) and e.func in self.inlinable \
                and e.func not in self.remembered_defines else None  # a remembered one is looked up instead
            if (isinstance(body, A.BoolOp) and body.op == "and"
                    or isinstance(body, A.CondExpr) and self.SPLIT_CONDITIONALS) and depth < MAX_INLINE_DEPTH:
                self.chose("split test", e.func)
                inner, added = self.bind_call(e, sc, out, ind)
                try:
                    for part in body.items if isinstance(body, A.BoolOp) else [body]:
                        self.test(part, inner, out, ind, fail, depth + 1)
                finally:
                    for i in added:
                        self.subst.pop(i, None)
                return
        value = self.value(e, sc, out, ind, depth)
        out.append(f"{ind}if not {value}:")
        out.append(f"{ind}    {fail}")

    def conditional_test(self, e: A.CondExpr, sc: dict, out: list[str], ind: str, fail: str, depth: int) -> None:
        """A test of `if C then T else E` as `if C:` with T tested under it and E under its
        `else`: C first, then the one branch, as the expression ran them; each branch a test of
        its own, so an `and` or a definition in it is split and its loops are written in place
        (Root's `rules(p, c)`: its `all q in players ...` was a helper called per clearing).
        A test that became a literal keeps only its branch (`folded`)."""
        test = self.value(e.test, sc, out, ind, depth)
        truth = truth_of(test) if self.FOLD_CONSTANTS else None
        if truth is not None:
            self.chose("folded", "conditional of a literal")
            self.test(e.then if truth else e.orelse, sc, out, ind, fail, depth)
            return
        self.chose("split conditional", expr_text(e.test))
        out.append(f"{ind}if {test}:")
        self.test(e.then, sc, out, ind + "    ", fail, depth)
        out.append(f"{ind}else:")
        self.test(e.orelse, sc, out, ind + "    ", fail, depth)

    def held_value(self, e: A.Aggregate, sc: dict) -> str | None:
        """`any r in K: m[r] == x`, with m a state map over all of K, as `x in m.values()`:
        one scan in C instead of a Python loop ("is some ruler on this square?")."""
        body = e.body
        if e.kind != "any" or e.where is not None or not isinstance(body, A.Compare) or body.op != "==":
            return None
        if not isinstance(e.domain, A.Name) or e.domain.name in sc:
            return None
        for probe, other in ((body.left, body.right), (body.right, body.left)):
            if not (isinstance(probe, A.Index) and isinstance(probe.key, A.Name) and probe.key.name == e.var
                    and isinstance(probe.base, A.Name) and probe.base.name in self.stable
                    and probe.base.name not in sc and e.var not in names(other)):
                continue
            t = self.m.var_types[probe.base.name]
            if isinstance(t, MapOf) and isinstance(t.key, Elem) and t.key.name == e.domain.name \
                    and t.key.name in self.elements and t.key.name != "Player":
                if self.enum_memo is not None and plain_type(t.val):  # state is still: a set, once
                    held = self.enum_sets.get(probe.base.name)
                    if held is None:
                        held = self.enum_sets[probe.base.name] = self.fresh("held")
                    return f"({self.ex(other, sc)} in {held})"
                return f"({self.ex(other, sc)} in {self.var(probe.base.name)}.values())"
        return None

    def agg_loop(self, e: A.Aggregate, sc: dict, r: str, out: list[str], ind: str, depth: int = 0) -> None:
        held = self.held_value(e, sc)
        if held is not None:
            out.append(f"{ind}{r} = {held}")
            return
        k = e.kind
        counted = self.counted(e, sc) if k == "count" else None
        if counted is not None:  # `count x in xs where x == v`: the list's own count, in C
            dom = self.value(e.domain, sc, out, ind, depth)
            if not self.bounded(e.domain, sc):
                items = self.fresh("d")
                out.append(f"{ind}{items} = {dom}")
                self.charge(items, e.span, out, ind)
                dom = items
            out.append(f"{ind}{r} = {dom}.count({counted})")
            self.chose("count of a value", expr_text(e))
            return
        if k in ("all", "any"):
            found = self.field_member_test(e, sc, out, ind, depth)
            if found is not None:
                out.append(f"{ind}{r} = {found}")
                return
            if self.the_other_player(e, sc, r, out, ind, depth):
                return
        start = {"any": "False", "all": "True", "count": "0", "sum": "0", "max": "None", "min": "None",
                 "first": "None", "streak": "0"}[k]
        out.append(f"{ind}{r} = {start}")
        invariant = self.invariants(e, out, ind)
        v, inner, ind2 = self.loop_head(e, sc, out, ind, depth)
        if not invariant and self.nested_quantifier(e, inner, r, out, ind2, depth):
            return
        for node, local in invariant:  # worked out in the first round that needs it (None: not yet)
            out.append(f"{ind2}if {local} is None:")
            out.append(f"{ind2}    {local} = {self.value(node, sc, out, ind2 + '    ', depth)}")
            self.subst[id(node)] = local
        try:
            body = self.value(e.body, inner, out, ind2, depth) if e.body is not None else v
        finally:
            for node, _local in invariant:
                del self.subst[id(node)]
        if k == "any":
            out.append(f"{ind2}if {body}:")
            out.append(f"{ind2}    {r} = True")
            out.append(f"{ind2}    break")
        elif k == "all":
            out.append(f"{ind2}if not {body}:")
            out.append(f"{ind2}    {r} = False")
            out.append(f"{ind2}    break")
        elif k == "count":
            if e.body is not None:
                out.append(f"{ind2}if {body}:")
                out.append(f"{ind2}    {r} += 1")
            else:
                out.append(f"{ind2}{r} += 1")
        elif k == "sum":
            out.append(f"{ind2}{r} += {body}")
        elif k in ("max", "min"):
            x = self.fresh("x")
            out.append(f"{ind2}{x} = {body}")
            out.append(f"{ind2}if {r} is None or {x} {'>' if k == 'max' else '<'} {r}:")
            out.append(f"{ind2}    {r} = {x}")
        elif k == "first":
            out.append(f"{ind2}{r} = {body}")
            out.append(f"{ind2}break")
        elif k == "streak":
            if e.body is not None:
                out.append(f"{ind2}if not {body}:")
                out.append(f"{ind2}    break")
            out.append(f"{ind2}{r} += 1")

    def the_other_player(self, e: A.Aggregate, sc: dict, r: str, out: list[str], ind: str, depth: int) -> bool:
        """`all q in players where q != p: B` (or `p != q`, or `any`) in a ruleset for exactly
        two players, `p` a player (not none) written as a local name or a literal: the loop
        over the two runs `B` once, for the player `p` is not, so `B` is worked out for that
        one, `(b if p == a else a)` as `fixed pair` names it (a literal where `p` is one), no
        loop, filter or flag. `G.player_list` is always the declaration's two names, a
        player value is one of them, and the domain is not charged (bounded): the same value
        and failures. Root's `rules(p, c)`, the other faction's strength, at every clearing of
        every listing and search. Emitted into `r`, or False where it does not apply."""
        inner = self.other_scope(e, sc, out, ind)
        if inner is None:
            return False
        body = self.value(e.body, inner, out, ind, depth)
        out.append(f"{ind}{r} = {'True' if e.kind == 'all' else 'False'}")
        out.append(f"{ind}if {'not ' if e.kind == 'all' else ''}{body}:")
        out.append(f"{ind}    {r} = {'False' if e.kind == 'all' else 'True'}")
        return True

    def other_scope(self, e: A.Aggregate, sc: dict, out: list[str], ind: str) -> dict | None:
        """`the other player`'s scope for `e`'s body, its variable bound to the other player
        (a local it emits, or a literal); None where the form does not apply."""
        pair = self.fixed_pair() if self.OTHER_PLAYER and self.LOOP_FORMS else None
        w = e.where
        if pair is None or not (e.kind in ("all", "any") and isinstance(e.domain, A.Name)
                                and e.domain.name in ("players", "Player") and e.domain.name not in sc
                                and e.body is not None and isinstance(w, A.Compare) and w.op == "!="
                                and self.bounded(e.domain, sc)):
            return None
        sides = [(w.left, w.right), (w.right, w.left)]
        p = next((o for q, o in sides if isinstance(q, A.Name) and q.name == e.var
                  and e.var not in names(o)), None)
        if p is None:
            return None
        t = self.static_type(p)
        if not (isinstance(t, Elem) and t.name == "Player"):  # `Player?` may be none: not one of two
            return None
        code = self.ex(p, sc)
        if code == repr(pair[0]) or code == repr(pair[1]):
            other = repr(pair[1] if code == repr(pair[0]) else pair[0])  # folded: the literal
        elif _is_name(code):
            other = self.fresh("a")
            out.append(f"{ind}{other} = ({pair[1]!r} if {code} == {pair[0]!r} else {pair[0]!r})")
        else:
            return None
        self.chose("the other player", expr_text(e))
        inner = dict(sc)
        inner[e.var] = (other, "bounded")
        return inner

    def field_member_test(self, e: A.Aggregate, sc: dict, out: list[str], ind: str, depth: int) -> str | None:
        """In a listing (which changes no state), inside a loop: `all o in D: o.f != x` as `x not
        in` the list of the items' `f`, and `any o in D: o.f == x` as `x in` it, that list made
        the first time it is needed and kept for the rest of the listing (`fields listed once`:
        Shogun's `assign(a, q)` asked `all o in plan[current]: o.act != a` for every action
        space). Only where D reads nothing the listing binds (so it is the same list all
        through it), D, the field and `x` cannot fail, and `x` does not read `o`; D is charged
        to the work budget at each test as the loop charged it. `in` tests `item == x` (an
        item that is `x` is equal to it), as the loop did. None otherwise."""
        b = e.body
        if not self.FIELDS_ONCE or self.enum_once is None or self.in_block or len(ind) <= 4 \
                or e.where is not None or not isinstance(b, A.Compare) or b.op != ("!=" if e.kind == "all" else "=="):
            return None
        for field, x in ((b.left, b.right), (b.right, b.left)):
            if isinstance(field, A.Field) and isinstance(field.base, A.Name) and field.base.name == e.var \
                    and e.var not in names(x):
                break
        else:
            return None
        if names(e.domain) & set(sc) or not all(cannot_fail(self.m, n) for n in (e.domain, field, x)):
            return None
        dom = self.seq(self.value(e.domain, sc, out, ind, depth), e.domain, sc)
        if not self.bounded(e.domain, sc):  # charged as the loop over it was, at every test
            items = self.fresh("d")
            out.append(f"{ind}{items} = {dom}")
            self.charge(items, e.span, out, ind)
            dom = items
        item = self.fresh("a")
        key = ("fields", (expr_text(e.domain), field.name))
        local = self.enum_once.get(key)
        if local is None:
            local = self.enum_once[key] = self.fresh("once")
        out.append(f"{ind}if {local} is _NOT_YET:")
        out.append(f"{ind}    {local} = [{self.ex(field, {**sc, e.var: (item, None)})} for {item} in {dom}]")
        self.chose("fields listed once", expr_text(e))
        return f"({self.ex(x, sc)} {'not in' if e.kind == 'all' else 'in'} {local})"

    def counted(self, e: A.Aggregate, sc: dict) -> str | None:
        """For `count x in xs where x == v` over a list, `v` is a literal or a local (nothing
        that can fail or differs by round): its code, so `xs.count(v)` counts it (Shogun's tower
        tallies what fell out so, by colour). None otherwise."""
        w = e.where
        if not self.LOOP_FORMS or e.body is not None or not isinstance(w, A.Compare) or w.op != "==" \
                or not isinstance(self.static_type(e.domain, sc).base, ListOf):
            return None
        for this, other in ((w.left, w.right), (w.right, w.left)):
            if isinstance(this, A.Name) and this.name == e.var and not (
                    isinstance(other, A.Name) and other.name == e.var):
                if self.literal_value(other, sc) is not None or (isinstance(other, A.Name) and other.name in sc):
                    return self.ex(other, sc)
        return None

    def repeated(self, e: A.Aggregate, sc: dict, dom: str) -> str | None:
        """`list i in D: v` whose item is a literal or a local other than `i` (Shogun's `list i in
        1..counts[c]: c`): `[v] * len(D)`, the domain charged as the comprehension charges it.
        None otherwise."""
        b = e.body
        if not self.LOOP_FORMS or e.kind != "list" or e.where is not None or b is None \
                or (isinstance(b, A.Name) and b.name == e.var):
            return None
        if self.literal_value(b, sc) is None and not (isinstance(b, A.Name) and b.name in sc):
            return None
        return f"[{self.ex(b, sc)}] * len({dom})"

    def loop_pays(self, e: A.Aggregate) -> bool:
        """Whether a `list` or `set` is built by a loop rather than a comprehension: when its
        filter or body calls a definition that is inlined where evaluated, or holds a loop of its
        own. A comprehension must call them; a loop has them in place (checkers' `first_jumps`,
        whose filter asks `jumpable`, a definition with `let`s)."""
        if not self.LOOP_FORMS:
            return False
        for part in (e.where, e.body):
            for n in iter_nodes(part) if part is not None else ():
                if (isinstance(n, A.Call) and n.func in self.inlinable) or (
                        isinstance(n, A.Aggregate) and (n.kind in LOOP_KINDS or n.kind in COLLECT_KINDS)):
                    return True
        return False

    def flattens(self, n: A.Node) -> bool:
        """Whether `n` is `flatten(list ...)` of the library, written as one loop: when the list's
        items are lists made by a loop of their own, or its filter or body holds one (loop_pays),
        or each item is a definition's value (checkers' `jump_paths`, `series_from` per first
        jump: a loop that extends the result by each call's list makes no list of lists, no
        comprehension and no `flatten` call, and costs nothing when the domain is empty, as it
        is in most positions)."""
        if not (self.LOOP_FORMS and isinstance(n, A.Call) and n.func == "flatten" and n.func not in self.m.defines
                and len(n.args) == 1 and isinstance(n.args[0], A.Aggregate) and n.args[0].kind == "list"):
            return False
        agg = n.args[0]
        return (isinstance(agg.body, A.Aggregate) and agg.body.kind == "list") or self.loop_pays(agg) or (
            self.FLAT_CALLS and isinstance(agg.body, A.Call) and agg.body.func in self.m.defines)

    def flatten_loop(self, agg: A.Aggregate, sc: dict, out: list[str], ind: str, depth: int) -> str:
        """`flatten(list x in D where W: B)` as one loop that puts B's items straight into the
        result, in the same order: no list per round joined afterwards (checkers' `first_jumps`,
        a list of jumps per own piece, all of them empty in most positions). When B is a `list`
        that a loop pays for itself, its loop appends each item; else each round extends the
        result by B's value (Shogun's `list i in 1..counts[c]: c`, a `repeated item`)."""
        self.chose("flat loop", expr_text(agg))
        r = self.fresh("r")
        out.append(f"{ind}{r} = []")
        v, inner, ind2 = self.loop_head(agg, sc, out, ind, depth)
        body = agg.body
        if isinstance(body, A.Aggregate) and body.kind == "list" and self.loop_pays(body):
            v2, inner2, ind3 = self.loop_head(body, inner, out, ind2, depth)
            item = self.value(body.body, inner2, out, ind3, depth) if body.body is not None else v2
            out.append(f"{ind3}{r}.append({item})")
        elif not self.repeated_run(body, inner, r, out, ind2):
            items = self.value(body, inner, out, ind2, depth) if body is not None else v
            out.append(f"{ind2}{r}.extend({items})")
        return r

    def repeated_run(self, body: A.Node | None, sc: dict, r: str, out: list[str], ind: str) -> bool:
        """A flat loop's round `list i in a..b: v` (v a literal or a local other than `i`:
        Shogun's tower lists each colour's cubes, `list i in 1..on_upper(c): c`) written as its
        count: `n = b + 1 - a`, and when `n > 0` the work charged and `r` extended by `[v] *
        n`. The `repeated item` form made a range and called `_charged` for each round, which
        charged `len(range(a, b + 1))`, the same `n` or 0; a charge of 0 cannot run the budget
        out (generated code never leaves `G.work` below 0: `out_of_work` sets it anew), so
        skipping it changes nothing. The ends are ints (the checker's), evaluated once each, in
        the same order. False where the form does not apply (the caller writes the round)."""
        if not (self.REPEATED_RUNS and self.LOOP_FORMS and isinstance(body, A.Aggregate) and body.kind == "list"
                and isinstance(body.domain, A.Range) and body.where is None and body.body is not None):
            return False
        b = body.body
        if isinstance(b, A.Name) and b.name == body.var:
            return False
        if self.literal_value(b, sc) is None and not (isinstance(b, A.Name) and b.name in sc):
            return False
        if id(body) in self.subst or any(id(n) in self.subst for n in iter_nodes(body.domain)):
            return False
        low = self.value(body.domain.low, sc, out, ind)
        high = self.value(body.domain.high, sc, out, ind)
        n = self.fresh("n")
        count = f"{high}" if low == "1" else f"{high} + 1 - ({low})"
        out.append(f"{ind}{n} = {count}")
        out.append(f"{ind}if {n} > 0:")
        if not self.bounded(body.domain, sc):
            self.charge(n, body.span, out, ind + "    ", length=False)
        out.append(f"{ind}    {r}.extend([{self.ex(b, sc)}] * {n})")
        self.chose("repeated run", expr_text(body))
        return True

    def collect_loop(self, e: A.Aggregate, sc: dict, out: list[str], ind: str, depth: int) -> str:
        """A `list` or `set` aggregate as a loop that appends; returns the expression of its
        value. A set is made from the list, so its items go in in the same order as from the
        comprehension it replaces."""
        self.chose("loop", expr_text(e))
        r = self.fresh("r")
        out.append(f"{ind}{r} = []")
        v, inner, ind2 = self.loop_head(e, sc, out, ind, depth)
        body = self.value(e.body, inner, out, ind2, depth) if e.body is not None else v
        out.append(f"{ind2}{r}.append({body})")
        return r if e.kind == "list" else f"frozenset({r})"

    def invariants(self, e: A.Aggregate, out: list[str], ind: str) -> list[tuple[A.Node, str]]:
        """The calls of definitions and the aggregates in a loop's body that read nothing the
        loop binds (hoist.loop_invariants), each with a local set to None ahead of the loop. A
        value that is none is worked out again: correct, only not saved."""
        if isinstance(e.body, A.Aggregate):  # a nested quantifier: its own loops
            return []
        found = []
        for node in loop_invariants(e, self.costly):
            if id(node) in self.subst:
                continue
            local = self.fresh("iv")
            out.append(f"{ind}{local} = None")
            found.append((node, local))
            self.chose("loop invariant", f"{expr_text(node)} in {expr_text(e)}")
        return found

    def costly(self, n: A.Node) -> bool:
        """A part worth keeping across a loop's rounds: a call of a definition, or a loop."""
        return (isinstance(n, A.Call) and n.func in self.m.defines) or (
            isinstance(n, A.Aggregate) and n.kind in LOOP_KINDS)

    def loop_head(self, e: A.Aggregate, sc: dict, out: list[str], ind: str, depth: int) -> tuple[str, dict, str]:
        """The loop of an aggregate: its domain (charged to the work budget when unbounded),
        the `for`, and its `where` (a `streak` ends at the first miss, the others skip it).
        Returns the loop variable, the scope inside the loop and the body's indentation."""
        v = self.fresh("a")
        inner = dict(sc)
        inner[e.var] = (v, "bounded" if self.bounded(e.domain, sc) else None)
        dom = self.value(e.domain, sc, out, ind, depth) if self.LOOP_FORMS else self.ex(e.domain, sc)
        dom = self.seq(dom, e.domain, sc)
        if not self.bounded(e.domain, sc):
            items = self.fresh("d")
            out.append(f"{ind}{items} = {dom}")
            self.charge(items, e.span, out, ind)
            dom = items
        keys = self.fixed_filter_keys(e, sc) if e.kind != "streak" else None
        unkept = by_value = None
        if keys is not None:  # the filter reads only fixed things and `keys`: worked out once per key
            dom, unkept = self.kept_once(e, v, inner, dom, keys, out, ind)
        elif e.kind != "streak" and self.LOOP_FORMS:
            kt = key_test(self.m, e.domain, e.var, e.where, sc.__contains__)
            if kt is not None and kt.var in self.indexed:
                walked = self.keys_by_value(kt, sc, dom, out, ind, expr_text(e))
                by_value = self.fresh("ku")  # the list could not be made: the whole domain, tested
                out.append(f"{ind}{by_value} = {walked} is {dom}")
                dom = walked
        out.append(f"{ind}for {v} in {dom}:")
        ind2 = ind + "    "
        if by_value is not None:  # the kept keys passed the first test: tested only when not kept
            first, rest = split_first(e.where)
            out.append(f"{ind2}if {by_value}:  # not kept: the first test as written")
            self.test(first, inner, out, ind2 + "    ", "continue", depth)
            for part in rest:
                self.test(part, inner, out, ind2, "continue", depth)
        elif e.where is not None:  # kept items passed it: tested only where they were not kept
            # tested part by part (`test`: an `and` as tests in a row, an `or` as nested ifs):
            # each part a statement of its own, where the definitions it calls are inlined
            at = ind2
            if unkept is not None:
                out.append(f"{ind2}if {unkept}:  # not kept: the filter as written")
                at = ind2 + "    "
            self.test(e.where, inner, out, at, "break" if e.kind == "streak" else "continue", depth)
        return v, inner, ind2

    def keys_by_value(self, kt: KeyTest, sc: dict, dom: str, out: list[str], ind: str, where: str) -> str:
        """The local holding the keys of `kt.var` whose entry is `kt.value`, in the order of
        `dom` (the board): the game's kept list, made the first time (engine/carried.py
        `_keys_with`), or `dom` itself when it cannot be made, where the loop tests its first
        test on each item as written."""
        self.chose("keys by value", where)
        held, keys = self.fresh("kv"), self.fresh("ks")
        value = self.ex(kt.value, sc)
        name = "=" + kt.var
        if not _is_name(value) and not _is_literal(value):
            v = self.fresh("kx")
            out.append(f"{ind}{v} = {value}")
            value = v
        out.append(f"{ind}{held} = G._carried.get({name!r})")
        out.append(f"{ind}{keys} = {held}.get({value}) if {held} is not None else None")
        out.append(f"{ind}if {keys} is None:")
        out.append(f"{ind}    {keys} = _keys_with(G, {name!r}, {kt.var!r}, {value}, {dom})")
        return keys

    def positions(self, domain: str) -> str:
        """A constant: each value of a board or enumeration -> its place in the order walked."""
        if domain not in self._positions:
            self._positions[domain] = self.const({x: i for i, x in enumerate(self.elements[domain])}, "KP")
        return self._positions[domain]

    def fixed_filter_keys(self, e: A.Aggregate, sc: dict) -> list[str] | None:
        """The locals an aggregate's `where` reads besides its own variable, when its domain
        and its `where` read nothing else that may differ from one game or one position to
        another: no state, option, constant of the game, player, round or phase, no chance,
        only data, boards and literals (Khan's `any u in Tile where TILES[u].form ==
        TILES[t].form`); each local a plain value (a name, a number, true or false). None
        otherwise."""
        if e.where is None:
            return None
        free: dict[str, A.Name] = {}
        if not self._fixed(e.domain, sc, set(), free) or free:
            return None
        if not self._fixed(e.where, sc, {e.var}, free):
            return None
        if len(free) > 3 or not all(_plain_key(self.static_type(n)) for n in free.values()):
            return None
        return sorted(free)

    def _fixed(self, node: A.Node, sc: dict, bound: set[str], free: dict[str, A.Name],
               seen: frozenset[str] = frozenset(), consts: bool = False) -> bool:
        """Whether `node` reads only fixed things (see fixed_filter_keys); the locals of `sc` it
        reads go to `free`. With `consts`, the rules' constants and options count as fixed too
        (the caller keys by the game's constants: `_Listing.prefiltered`)."""
        m = self.m
        for n in iter_nodes(node):
            if isinstance(n, (A.LetExpr, A.Aggregate, A.RecordLit, A.SetLit, A.MapLit)):
                return False  # a binding of its own, or a value that is no plain key
            if isinstance(n, A.Name):
                name = n.name
                if name in bound:
                    continue
                if name in sc:
                    free.setdefault(name, n)
                elif consts and (name in m.consts or name in m.options) and name not in m.vars:
                    continue
                elif name in m.vars or name in m.consts or name in m.options or name in _PER_GAME:
                    return False
                elif not (name in m.data or name in self.elements or name in m.element_type
                          or name in DIRECTIONS):
                    return False
            elif isinstance(n, A.Call):
                if n.func in m.defines:
                    d = m.defines[n.func]
                    if n.func in seen or not self._fixed(d.value, {}, {p.name for p in d.params}, free,
                                                         seen | {n.func}, consts):
                        return False
                elif n.func in m.devices or n.func not in LIBRARY or LIBRARY[n.func].kind in ("game", "chance"):
                    return False
        return True

    def filtered_once(self, e: A.Aggregate, v: str, inner: dict, dom: str, keys: list[str]) -> str:
        """The items of `dom` that pass `e.where`, kept in a table of the program by the values
        of `keys` (its `where` reads nothing else that changes: `fixed_filter_keys`); the
        caller tests `e.where` again on each (runtime._kept_rows)."""
        table = self.const({}, "FW")
        key = "(" + "".join(inner[k][0] + ", " for k in keys) + ")"
        self.chose("fixed filter", expr_text(e))
        return kept_rows(table, key, f"[{v} for {v} in {dom} if {self.ex(e.where, inner)}]", dom)

    def kept_once(self, e: A.Aggregate, v: str, inner: dict, dom: str, keys: list[str], out: list[str],
                  ind: str) -> tuple[str, str]:
        """`filtered_once` as statements: the local holding the items, and the local that says
        whether they were not kept (working them out failed, or the table is full), when the
        loop must test `e.where` on each as written."""
        table = self.const({}, "FW")
        key, rows, unkept = self.fresh("kk"), self.fresh("kr"), self.fresh("ku")
        self.chose("fixed filter", expr_text(e))
        out.append(f"{ind}{key} = (" + "".join(inner[k][0] + ", " for k in keys) + ")")
        out.append(f"{ind}{rows} = {table}.get({key})")
        out.append(f"{ind}{unkept} = {rows} is None")
        out.append(f"{ind}if {unkept}:")
        out.append(f"{ind}    {rows} = _kept_rows({table}, {key}, lambda: [{v} for {v} in {dom} if "
                   f"{self.ex(e.where, inner)}], lambda: {dom})")
        out.append(f"{ind}    {unkept} = {table}.get({key}) is not {rows}")
        return rows, unkept

    def nested_quantifier(self, e: A.Aggregate, sc: dict, r: str, out: list[str], ind: str, depth: int) -> bool:
        """`any line in L: all t in line: cell[t] == p` as two loops and no flag for the inner
        one: the inner loop's `break` or its `else` decides the outer value (one test and two
        stores less per round). False when the body is not such a quantifier."""
        q = e.body
        if not (isinstance(q, A.Aggregate) and q.kind in ("any", "all") and e.kind in ("any", "all")) \
                or id(q) in self.subst or self.held_value(q, sc) is not None:
            return False
        self.chose("nested quantifier", expr_text(e))
        v, inner, ind2 = self.loop_head(q, sc, out, ind, depth)
        body = self.value(q.body, inner, out, ind2, depth) if q.body is not None else v
        # the inner loop breaks when its value is settled early: `any` found one, `all` met a miss
        out.append(f"{ind2}if {'' if q.kind == 'any' else 'not '}{body}:")
        out.append(f"{ind2}    break")
        # the inner value is True after a break for `any`, after no break for `all`; the outer
        # loop is settled when that value is True for `any`, False for `all`
        settled_on_break = (q.kind == "any") == (e.kind == "any")
        if settled_on_break:
            out.append(f"{ind}else:")
            out.append(f"{ind}    continue")
            out.append(f"{ind}{r} = {e.kind == 'any'}")
            out.append(f"{ind}break")
        else:
            out.append(f"{ind}else:")
            out.append(f"{ind}    {r} = {e.kind == 'any'}")
            out.append(f"{ind}    break")
        return True

    # ------------------------------------------------------------------ writes
    def target_parts(self, t: A.Target, sc: dict, out: list[str], ind: str) -> tuple[str, str, str, Type, Type]:
        """Emit code that finds the container and key; returns (container, key, path, the
        written type, the container's type)."""
        ty = self.m.type_of(t)
        if not t.steps:
            return "V", repr(t.root), f"({t.root!r},)", ty, Record("state")
        cont = self.var(t.root)
        ctype = self.m.var_types[t.root].base
        keys = []
        for i, step in enumerate(t.steps):
            code = repr(step) if isinstance(step, str) else self.ex(step, sc)
            if code.isidentifier() or _is_literal(code):  # a local or a constant: used as it is
                k = code
            else:
                k = self.fresh("k")
                out.append(f"{ind}{k} = {code}")
            keys.append(k)
            if i < len(t.steps) - 1:
                c2 = self.fresh("c")
                direct = isinstance(ctype, (MapOf, Record)) and not (isinstance(ctype, MapOf) and ctype.total
                                                                     and not is_finite(ctype.key))
                out.append(f"{ind}{c2} = {cont}[{k}]" if direct else f"{ind}{c2} = _index({cont}, {k})")
                cont = c2
                ctype = (self.m.record_fields.get(ctype.name, {}).get(step, ANY) if isinstance(ctype, Record)
                         and isinstance(step, str) else ctype.value).base
        c = cont
        if not _is_name(cont):
            c = self.fresh("c")
            out.append(f"{ind}{c} = {cont}")
        # a write one key deep (most writes: `cell[s]`) names only its variable: the path is
        # (name, key), made when the step is read (recording.entry_path), not a tuple per write
        path = repr(t.root) if len(keys) == 1 else "(" + ", ".join([repr(t.root)] + keys) + ",)"
        return c, keys[-1], path, ty, ctype

    def every_key(self, t: A.Target, ctype: Any) -> bool:
        """`old value by key`: whether the write's container is a state map that holds every key
        of its finite key type (an `Elem`'s values, filled in at the start and required of a
        save) whenever the write runs: the variable itself, one key deep, never replaced
        whole (`stable`). The key is of that type and never none (the checker, E245)."""
        return (len(t.steps) == 1 and isinstance(ctype, MapOf) and isinstance(ctype.key, Elem)
                and t.root in self.stable)

    def write(self, t: A.Target, sc: dict, value_fn: Any, out: list[str], ind: str, needs_old: bool) -> None:
        """Emit `container[key] = value_fn(old)`, with journaling in the recorded variant."""
        c, k, path, ty, ctype = self.target_parts(t, sc, out, ind)
        is_dict = isinstance(ctype, (MapOf, Record))
        default = ty.default() if isinstance(ctype, MapOf) and not is_finite(ctype.key) else None
        old = self.fresh("o")
        if self.record:  # the old value, MISSING for an entry not there yet (undo deletes it)
            if c == "V":  # every declared variable is in V
                out.append(f"{ind}{old} = V[{k}]")
            elif is_dict and self.OLD_BY_KEY and self.every_key(t, ctype):
                out.append(f"{ind}{old} = {c}[{k}]")
                self.chose("old value by key", t.root)
            elif is_dict:
                out.append(f"{ind}{old} = {c}.get({k}, MISSING)")
            else:
                out.append(f"{ind}{old} = {c}.get({k}, MISSING) if type({c}) is dict else {c}[{k}]")
            base = old if default is None else f"({default!r} if {old} is MISSING else {old})"
        elif needs_old:
            if is_dict and default is not None:
                out.append(f"{ind}{old} = {c}.get({k}, {default!r})")
            elif is_dict or c == "V":  # every declared variable is in V
                out.append(f"{ind}{old} = {c}[{k}]")
            else:
                out.append(f"{ind}{old} = {c}.get({k}, MISSING) if type({c}) is dict else {c}[{k}]")
            base = old
        else:
            base = old
        new = value_fn(base, ty)
        indexed = t.root in self.indexed and len(t.steps) <= 1
        if indexed and t.steps and not self.record and not needs_old:  # the key leaves this value's list
            out.append(f"{ind}{old} = {c}[{k}]")
        carried = t.root in self.carried_reads
        if carried and not t.steps:  # the old value, before it is replaced
            out.append(f"{ind}if G._carried:")
            out.append(f"{ind}    _carry_note(G, ({t.root!r}, _WHOLE, V[{t.root!r}]))")
        if self.record:
            n = new
            if not (new.isidentifier() or _is_literal(new)):  # kept for the journal: computed once
                n = self.fresh("n")
                out.append(f"{ind}{n} = {new}")
            out.append(f"{ind}{c}[{k}] = {n}" if is_dict else f"{ind}_store({c}, {k}, {n})")
            # a variable written whole, or one key deep (most writes), is found again by its path
            # when undone (recording.container_of): no container in the entry, so the collector
            # untracks the entries of plain values (a traced game keeps them all to its end)
            held = "None" if c == "V" or len(t.steps) == 1 else c
            # the entry's slots appended flat (recording.ENTRY): no tuple kept per write
            out.append(f"{ind}J.extend(({held}, {k}, {old}, {n}, {path}))")
            if t.root in self.logged_maps:  # a kept sum reads it (invtests.py `kept by writes`)
                if len(t.steps) == 1:  # the key logged while sums are kept
                    out.append(f"{ind}if G._invg is not None:")
                    out.append(f"{ind}    G._ilog.append({k})")
                else:  # written whole: the kept sums are worked out again
                    out.append(f"{ind}G._invg = None")
            if _may_hold_dict(ty) and self.write_depths.get(t.root, 0) > len(t.steps):
                # a dict written that a deeper write can change in place later: the step's
                # changes are worked out at once (recording.py); else they stay as written
                out.append(f"{ind}G._jdict = True")
        else:
            out.append(f"{ind}{c}[{k}] = {new}" if is_dict else f"{ind}_store({c}, {k}, {new})")
        if carried and t.steps:  # an entry: its key, or (deeper) the whole map
            out.append(f"{ind}if G._carried:")
            if len(t.steps) == 1:  # carried._note's steps written out: a call less a write
                out.append(f"{ind}    G._wlog.append(({t.root!r}, {k}))")  # (connect four: 2% of a game)
                out.append(f"{ind}    if len(G._wlog) > _carry_mod.LOG_LIMIT:")  # read as it runs
                out.append(f"{ind}        _carry_drop(G)")
            else:
                out.append(f"{ind}    _carry_note(G, ({t.root!r}, _WHOLE, None))")
        if indexed:  # the kept keys by value (carry.key_test): the entry's key moved, or all dropped
            out.append(f"{ind}if G._carried:")
            if t.steps and self.MOVED_IN_PLACE:
                # the value written, where it is a name or a literal (a dict holds it as it is)
                written = n if self.record else new
                stored = written if is_dict and (written.isidentifier() or _is_literal(written)) else f"{c}[{k}]"
                names = self.MOVED_BY_IDENTITY and isinstance(ty.base, Elem) and ty.base.name != "bool"
                self.keys_moved(f"{'=' + t.root!r}", k, old, stored, self.indexed[t.root], out, ind + "    ", names)
            elif t.steps:
                out.append(f"{ind}    _keys_moved(G, {'=' + t.root!r}, {k}, {old}, {c}[{k}], "
                           f"{self.positions(self.indexed[t.root])})")
            else:
                out.append(f"{ind}    G._carried.pop({'=' + t.root!r}, None)")

    def keys_moved(self, key: str, k: str, old: str, new: str, domain: str, out: list[str], ind: str,
                   names: bool = False) -> None:
        """carried.py `_keys_moved` written in place (`keys moved in place`): the entry `k` went
        from `old` to `new`, so `k` leaves the kept list of `old` and joins that of `new` at its
        place in the board's order. Every write of an indexed entry runs it (checkers' step
        writes two, a jump four or more): without the call, its frame and its six arguments.
        `names`: the map's values are names or none, compared by identity alone (`keys moved
        by identity`)."""
        self.chose("keys moved in place", key[2:-1])
        kv, kn, kl = self.fresh("kv"), self.fresh("kn"), self.fresh("kl")
        out.append(f"{ind}{kv} = G._carried.get({key})")
        out.append(f"{ind}{kn} = {new}")
        if names:  # canonical names: not one object, not equal (engine/canonical.py)
            self.chose("keys moved by identity", key[2:-1])
            out.append(f"{ind}if {kv} is not None and {old} is not {kn}:")
        else:
            # `old != kn` with identity and None tested first (a square emptied or filled compares
            # None with a text: CPython's slow path, nonefirst.py); exact for texts, numbers, None
            out.append(f"{ind}if {kv} is not None and {old} is not {kn} and ({old} is None or {kn} is None or {old} != {kn}):")
        out.append(f"{ind}    {kl} = {kv}.get({old})")
        out.append(f"{ind}    if {kl} is not None:")
        out.append(f"{ind}        {kl}.remove({k})")
        out.append(f"{ind}    {kl} = {kv}.get({kn})")
        out.append(f"{ind}    if {kl} is not None:")
        out.append(f"{ind}        _insort({kl}, {k}, key={self.positions(domain)}.__getitem__)")

    # ------------------------------------------------------------------ statements
    def stmts(self, body: tuple, sc: dict, out: list[str], ind: str) -> None:
        before = len(out)
        for s in body:
            self.stmt(s, sc, out, ind)
        if len(out) == before:  # empty, or only trace-only lines (log, reveal) when untraced
            out.append(f"{ind}pass")

    def stmt(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        """One statement, its first line marked `# @S<n>` with the index of its span in SPANS,
        so a Python error inside it is reported at the statement (interpreter/engine/locate.py)."""
        first = len(out)
        self._stmt(s, sc, out, ind)
        span = getattr(s, "span", None)
        if len(out) > first and span is not None:
            out[first] += f"  # @S{self.span_id(span)}"
        if self.fire_after and isinstance(s, _WRITES):
            self.fire_triggers_after(s, out, ind)

    def fire_triggers_after(self, s: A.Node, out: list[str], ind: str) -> None:
        """"As soon as": the triggers whose conditions read what `s` wrote are tested right
        after it (docs/language.md §10); a body that finished the game ends this rule too."""
        roots = (s.source.root, s.dest.root) if isinstance(s, (A.MoveStmt, A.DrawStmt)) else (s.target.root,)
        ids = tuple(sorted({i for r in roots for i in self.fire_after.get(r, ())}))
        if not ids:
            return
        if self.fire_here:
            out.append(f"{ind}if G.fire_now({ids!r}):")
            out.append(f"{ind}    return True")
        else:
            out.append(f"{ind}G.fire_now({ids!r}, False)")

    def _stmt(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        """One method per node class (_STMTS); a subclass takes its base's."""
        return self._STMTS[type(s)](self, s, sc, out, ind)

    def _stmt_other(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        raise RuleFailure(f"'{type(s).__name__}' cannot run here", s.span)

    def _stmt_set(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        val = self.value(s.value, sc, out, ind)
        vt = self.static_type(s.value, sc).base

        def stored(old: str, ty: Type) -> str:
            base = ty.base
            if isinstance(base, SetOf):  # the declared container decides: `set pool = Colour`
                return val if isinstance(vt, SetOf) else f"_as_set({val})"
            if isinstance(base, ListOf):
                plain = isinstance(vt, ListOf) and not _may_hold_dict(vt.elem)
                return val if plain else f"_as_list({val})"
            return f"_own({val})" if self._may_be_record(s.value, sc) else val

        self.write(s.target, sc, stored, out, ind, needs_old=False)

    def _stmt_add_or_remove(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        val = self.value(s.value, sc, out, ind)
        adding = isinstance(s, A.AddStmt)
        self.write(s.target, sc, lambda old, ty: _changed(adding, old, val, ty), out, ind, needs_old=True)

    def _stmt_clear(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def cleared(old: str, ty: Type) -> str:
            if isinstance(ty, (Opt, ListOf, SetOf)) or ty in (INT, BOOL, TEXT):
                return repr(ty.default())
            return f"_cleared({old})"

        ty = self.m.type_of(s.target)
        plain = isinstance(ty, (Opt, ListOf, SetOf)) or ty in (INT, BOOL, TEXT)
        self.write(s.target, sc, cleared, out, ind, needs_old=not plain)

    def _stmt_let(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        known = sc.get(s.name)
        value = self.value(s.value, sc, out, ind)
        # rebinding a name in scope updates it (so a loop can accumulate); a new name is new
        name = known[0] if known is not None and known[0] is not None else self.fresh("l")
        out.append(f"{ind}{name} = {value}")
        v = s.value
        if isinstance(v, A.BinOp) and v.op == "+" and isinstance(v.left, A.Name) and v.left.name == s.name:
            self.grown.setdefault(name, (self.rule_now, f"let {s.name} = {expr_text(v)}"))  # appends.py
        sc[s.name] = (name, None)

    def _stmt_move(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        item = self.fresh("i")
        out.append(f"{ind}{item} = {ex(s.item)}")
        self.write(s.source, sc, lambda old, ty: _changed(False, old, item, ty), out, ind, needs_old=True)
        self.write(s.dest, sc, lambda old, ty: _changed(True, old, item, ty), out, ind, needs_old=True)

    def _stmt_draw(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        n = self.fresh("i")
        drawn = self.fresh("d")
        out.append(f"{ind}{n} = {ex(s.count)}")
        out.append(f"{ind}{drawn} = []")
        self.write(s.source, sc, lambda old, ty: f"_draw({old}, {n}, {drawn})", out, ind, needs_old=True)
        self.write(s.dest, sc, lambda old, ty: f"_add_all({old}, {drawn})", out, ind, needs_old=True)

    def _stmt_shuffle(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        self.write(s.target, sc, lambda old, ty: f"c_shuffled(G, {old})", out, ind, needs_old=True)

    def _stmt_require(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        msg = s.message or f"requirement failed: {expr_text(s.test)}"
        out.append(f"{ind}if not {self.value(s.test, sc, out, ind)}:")
        out.append(f"{ind}    raise RuleFailure({msg!r}, SPANS[{self.span_id(s.span)}])")

    def _stmt_finish(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        if s.kind == "ranking":
            v = self.fresh("r")
            inner = {**sc, s.var: (v, None)}
            keys = ", ".join(self.ex(x, inner) for x in s.exprs)
            args = f"lambda {v}: ({keys},)"
        else:
            args = ", ".join(ex(x) for x in s.exprs)
        out.append(f"{ind}G.finish({s.kind!r}, [{args}], {self.span_id(s.span)})")
        out.append(f"{ind}return True")

    def _stmt_do(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        codes = [ex(a) for a in s.args]
        args = ", ".join(codes)
        self.charge_call(s.span, out, ind)
        if self.PROCEDURE_INLINED and self.procedure_inlined(s, codes, out, ind):
            return
        out.append(f"{ind}if P_{self.proc_ids[s.name]}(G{', ' if args else ''}{args}):")
        out.append(f"{ind}    return True")

    def procedure_inlined(self, s: A.Node, codes: list[str], out: list[str], ind: str) -> bool:
        """Untraced, outside blocks: `do p(args)` of a small procedure that calls none as a copy
        of its function's body in place (a placeholder `pytree.expand` fills: `prepare_inline`,
        kind "procedure"), its parameters the arguments (a name or literal as it is, anything
        else worked out into a local first, once, where the call made it): no call, no prologue
        and no `return False` (`procedure inlined`: checkers' `crown(to)` after every move). The
        copy keeps the procedure's own lines, so an error in it is reported in the procedure,
        as from the call. Only where the program's own module is written (a scenario's `given`
        is compiled alone, without the procedures' functions to copy) and not in a device. It
        reads and writes the same state and charges the same work, and it may only leave by
        `return True` (a finish, or `result`: none then), which ends the caller as the call's
        `return True` did. `current` is the caller's `_cur`: `P_n` read
        `G.current` when called, and a function outside a block never changes it. Traced, a
        procedure is a step of its own, so it keeps its call (`quiet tail inlined` copies a
        quiet one's tail form)."""
        if self.record or self.in_block or not self.own_procedures or self.rule_now.startswith("device "):
            return False  # (a device's roll keeps the work counter in a local: `roll locals`)
        p = self.m.procedures.get(s.name)
        if p is None or s.name in self.m.suspends or len(p.params) != len(codes):
            return False
        nodes = list(iter_nodes(p.body))
        if len(nodes) > MAX_INLINED_PROCEDURE or any(isinstance(n, (A.DoStmt, A.ResultStmt)) for n in nodes):
            return False
        args = []
        for code in codes:
            if not (code.isidentifier() or _is_literal(code)):
                local = self.fresh("pa")
                out.append(f"{ind}{local} = {code}")
                code = local
            args.append(code)
        self.chose("procedure inlined", s.name)
        out.append(ind + self.inline(Inline("procedure", f"P_{self.proc_ids[s.name]}", args=tuple(args))))
        return True

    def _stmt_log(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        if self.record:
            out.append(f"{ind}G.note_log({s.message!r})")

    def _stmt_reveal(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        to = ex(s.to) if s.to is not None else "None"
        out.append(f"{ind}G.reveal({expr_text(s.value)!r}, {ex(s.value)}, {to})")

    def _stmt_break(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        out.append(f"{ind}break")

    def _stmt_abandon(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        out.append(f"{ind}raise Abandoned({s.reason!r}, SPANS[{self.span_id(s.span)}])")

    def _stmt_result(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        detail = ex(s.detail) if s.detail is not None else "None"
        if self.roll_batched:  # the batch's steps left for the next roll or shuffle (rng.LEFT)
            out.append(f"{ind}_DRAWS_LEFT[0] = ({DRAW_OUTPUTS}, {DRAW_STATES}, {DRAW_BEFORE}, {DRAW_AT})")
        out.append(f"{ind}return ({ex(s.value)}, {detail})")

    def _stmt_if(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        first, *rest = s.branches
        out.append(f"{ind}if {self.value(first[0], sc, out, ind)}:")
        self.stmts(first[1], dict(sc), out, ind + "    ")
        orelse_ind = ind
        for test, body in rest:  # an elif whose test needs statements nests in an else
            pre: list[str] = []
            cond = self.value(test, sc, pre, orelse_ind + "    ")
            if pre:
                out.append(f"{orelse_ind}else:")
                out.extend(pre)
                orelse_ind += "    "
                out.append(f"{orelse_ind}if {cond}:")
            else:
                out.append(f"{orelse_ind}elif {cond}:")
            self.stmts(body, dict(sc), out, orelse_ind + "    ")
        if s.orelse:
            out.append(f"{orelse_ind}else:")
            self.stmts(s.orelse, dict(sc), out, orelse_ind + "    ")

    def _stmt_for(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        v = self.fresh("f")
        inner = dict(sc)
        inner[s.var] = (v, None)
        items = self.fresh("d")
        out.append(f"{ind}{items} = {self.seq(ex(s.domain), s.domain, sc)}")
        if not self.bounded(s.domain, sc):
            self.charge(items, s.span, out, ind)  # before it is made a list: 1..10^12 stops here
        t = self.static_type(s.domain, sc).base
        if self.LOOP_FORMS and (isinstance(t, ListOf) or t == RANGE):  # a list is never changed
            out.append(f"{ind}for {v} in {items}:")  # in place (a write makes a new one): no copy
        else:
            out.append(f"{ind}for {v} in list({items}):")
        self.stmts(s.body, inner, out, ind + "    ")

    def _stmt_loop(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        if isinstance(s, A.RepeatStmt) and s.times is not None:  # counted rounds
            rounds = self.fresh("d")
            out.append(f"{ind}{rounds} = range({ex(s.times)})")
            self.charge(rounds, s.span, out, ind)
            out.append(f"{ind}for _ in {rounds}:")
            self.stmts(s.body, dict(sc), out, ind + "    ")
            return
        test = "True" if isinstance(s, A.RepeatStmt) else ex(s.test)
        out.append(f"{ind}while {test}:")
        out.append(f"{ind}    G.work -= 1")
        out.append(f"{ind}    if G.work < 0:")
        out.append(f"{ind}        G.out_of_work(SPANS[{self.span_id(s.span)}])")
        self.stmts(s.body, dict(sc), out, ind + "    ")

    def explained(self, e: A.Node, sc: dict, out: list[str], ind: str, packed: bool = False) -> tuple[str, str]:
        """Emit code evaluating `e` while keeping the values of its sub-expressions; returns
        (the value's expression, a list expression of (text, value) for those evaluated). A
        value that can still change (a dict) is copied, so it shows what the check saw.
        `packed` (a traced move's checks, made records only when the trace is read): instead of
        the list, `TEXTS, value, ...`, the texts a constant and MISSING for one not evaluated,
        the values the check entry's own last items (recording.cooked_checks): one tuple per
        check, not two, where a traced game keeps every decided step's checks to its end."""
        rec: list = []
        self.rec_closure = set()
        first: list[str] = []
        if self.EXPLAINED_DOMAIN and isinstance(e, A.Aggregate) and id(e) not in self.subst:
            # the check is one aggregate: its domain, evaluated first anyway (the iterable of
            # the comprehension), as a statement before it, its parts recorded in locals (the
            # same order of `rec`: the domain's parts come first in either form)
            d = self.fresh("d")
            first.append(f"{ind}{d} = {self.ex(e.domain, sc, rec)}")
            self.domain_done[id(e.domain)] = d
            self.chose("explained domain", expr_text(e))
            if self.EXPLAINED_LOOP and e.kind in LOOP_KINDS:
                # `explained loop`: the aggregate as the loop a definition's would be, over the
                # domain's local (its parts, recorded, are all of it that is recorded: the body
                # takes many values), charged as `_charged` charged it; its value recorded last
                r = self.fresh("r")
                self.subst[id(e.domain)] = d
                try:
                    self.agg_loop(e, sc, r, first, ind)
                finally:
                    del self.subst[id(e.domain)]
                self.domain_done.clear()
                self.subst[id(e)] = r
                self.chose("explained loop", expr_text(e))
        try:
            code = self.ex_recorded(e, sc, rec)
        finally:
            self.subst.pop(id(e), None)
        self.domain_done.clear()
        names = [f"_x{i}" for i in range(len(rec))]
        always = {id(n) for n in _post_order_always(e)}  # assigned whenever `e` is evaluated
        unset = [names[i] for i, node in enumerate(rec) if id(node) not in always and i not in self.rec_closure]
        if unset:  # the others may be skipped (`and`, `or`, `if`): MISSING says so
            out.append(f"{ind}{' = '.join(unset)} = MISSING")
        if self.rec_closure:  # before the domain's statement too: its comprehension may record
            out.append(f"{ind}seen = {{}}")
            out.append(f"{ind}def _R(i, v, seen=seen):")
            out.append(f"{ind}    seen[i] = v")
            out.append(f"{ind}    return v")
        out += first
        value = self.fresh("value")
        out.append(f"{ind}{value} = {code}")
        if packed:
            texts = self.const(tuple(expr_text(node) for node in rec), "X")
            shown = []
            for i, node in enumerate(rec):
                v = f"seen.get({i}, MISSING)" if i in self.rec_closure else names[i]
                shown.append(v if self.stays(node, sc) else f"{self.freezer(node, sc)}({v})")
            return value, f"{texts}{''.join(', ' + x for x in shown)}"
        subs = self.fresh("subs")
        out.append(f"{ind}{subs} = []")
        for i, node in enumerate(rec):
            v = f"seen.get({i}, MISSING)" if i in self.rec_closure else names[i]
            shown = v if self.stays(node, sc) else f"_fz({v})"
            out.append(f"{ind}if {v} is not MISSING:")
            out.append(f"{ind}    {subs}.append(({expr_text(node)!r}, {shown}))")
        return value, subs

    def freezer(self, e: A.Node, sc: dict) -> str:
        """How a check keeps the value of `e`, which can still change: `_fz` makes a JSON copy;
        a map whose values hold no dict needs only a shallow one (`_fz_map`), which the trace
        makes JSON when it is read (Root's `warriors[current]`, a map of counts)."""
        t = self.static_type(e, sc).base
        return "_fz_map" if isinstance(t, MapOf) and not _may_hold_dict(t.val) else "_fz"

    def stays(self, e: A.Node, sc: dict) -> bool:
        """Whether the value of `e` can be kept as it is for an explanation: it holds no dict,
        or it is read from state below every place a statement writes (`write_depths`)."""
        if not _may_hold_dict(self.static_type(e, sc)):
            return True
        depth = 0
        while isinstance(e, (A.Index, A.Field)):
            e, depth = e.base, depth + 1
        return isinstance(e, A.Name) and e.name not in sc and e.name in self.m.var_types \
            and self.write_depths.get(e.name, 0) <= depth

    def _may_be_record(self, e: A.Node, sc: dict) -> bool:
        """Whether a stored value could be a dict shared with a constant or another path."""
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.Compare, A.BoolOp, A.Not,
                          A.BinOp, A.Neg, A.ListLit)):
            return False
        t = self.static_type(e, sc).base
        return t == ANY or isinstance(t, (Record, MapOf))

    def span_id(self, span: A.Span) -> int:
        self.spans.append(span)
        return len(self.spans) - 1

    def function(self, name: str, params: list[str], body_lines: list[str]) -> None:
        """Write `def name(G, *params)`; the bindings its body reads (state, constants, journal,
        current player, maps bound once) are added on the tree (`finish`)."""
        if self._pending_inlines:  # its body copies other functions' bodies (pytree.expand)
            self.hosts.append(name)
            self._pending_inlines = False
        self.lines.append(f"def {name}({', '.join(['G'] + params)}):")
        self.lines.extend(body_lines or ["    pass"])
        self.lines.append("")

    def inline(self, spec: Inline) -> str:
        """The placeholder statement for a copy of another function's body (pytree.expand),
        in the body of the next function written."""
        self.inlines.append(spec)
        self._pending_inlines = True
        return f"{PLACEHOLDER}({len(self.inlines) - 1})"

    def lines_of_text(self) -> list[str]:
        """The program's text by line: the tree's nodes keep these line numbers, and a line's
        `# @S<n>` mark says which rule statement it belongs to (interpreter/engine/locate.py)."""
        return self.lines + [""]

    def finish(self) -> ast.Module:
        """The program's text as a tree, with every change made on the tree: the passes asked
        for (`tree_passes`), the placeholders expanded, dead `pc` stores dropped, `not not`
        tests written plainly, and each function's bindings at its top."""
        text = "\n".join(self.lines) + "\n"
        module = pytree.parse(text)
        fns = pytree.functions(module)
        for name, passes in self.tree_passes.items():
            for p in passes:
                p(fns[name])
        if self.APPEND_IN_PLACE and self.LOOP_FORMS and self.grown:  # before the copies, as above
            growing = {part.split("(", 1)[0] for part in ("\n" + text).split("\ndef ")[1:] if " = [*" in part}
            for name in sorted(growing & fns.keys()):
                for local in appends_in_place(fns[name]):
                    if local in self.grown:
                        rule, detail = self.grown[local]
                        self.chose("appended in place", detail, rule=rule)
        if self.ROLL_LOCALS and self.LOOP_FORMS:  # after the appends (their pattern reads G.work)
            for device, i in self.device_ids.items():
                fn = fns.get(f"DR_{i}")
                if fn is not None and roll_locals(fn):
                    self.chose("roll locals", "the generator and the work counter", rule=f"device {device}")
        if self.DIRECT_POSSIBLE and self.LOOP_FORMS:  # before the copies: they copy the result
            asking = {part.split("(", 1)[0] for part in ("\n" + text).split("\ndef ")[1:] if "c_possible(" in part}
            for name in asking & fns.keys():  # walked only where it is asked: a walk of every
                pytree.direct_possible(fns[name], self.any_fns)  # function costs Root's compile 0.07 s
        if self.JOINED_PRUNED:  # before the copies: a block reads more names than its listings
            self.pruned(fns)
        self._names_of: dict[str, set[str]] = {}
        for name in self.hosts:
            pytree.expand(fns[name], self.inlines, fns, self.prepare_inline)
            if name.startswith(("B_", "BA_")):
                pytree.drop_dead_pc(fns[name])
            if name.startswith("BA_"):
                self.fused_finished(fns[name])
        if self.SHARED_IN_BLOCK and self.shared_plays:  # after the copies: the listings are in the blocks
            users = memo_users(fns)
            graph = call_graph(fns) if users else {}
            for name in sorted(n for n in fns if n.startswith(("B_", "BA_"))):
                if users and shared_in_block(fns[name], users, graph, self.fresh):
                    self.chose("shared in block", f"the shared calls of {name}'s listings in locals", rule="")
        if self.MEMO_UNOPENED and self.shared_calls:  # after `shared in block`
            self.memo_finished(fns)
        for name, fn in fns.items():
            pytree.drop_double_not(fn)
            if self.CHOICE_HOISTED and choice_hoisted(fn, self.fresh):
                self.chose("choice hoisted", f"a choice between fixed values ahead of a loop in {name}", rule="")
            if self.CURRENT_COMPARED and not name.startswith("AX") and \
                    current_compared(fn, self.fresh, self.NAMES_BY_IDENTITY):
                self.chose("current compared", f"look-ups compared with the current player in {name}", rule="")
            if self.LINES_UNROLLED and lines_unrolled(fn, self.constants, self.fixed_table, self.fresh):
                self.chose("lines unrolled", f"a quantifier over a table's lines in {name}", rule="")
            if self.UNSWITCHED_SUMS and not name.startswith("AX") and unswitched_sums(fn):
                self.chose("unswitched sums", f"a sum's loop in {name}", rule="")
            if self.GUARD_UNSWITCHED and guard_unswitched(fn):
                self.chose("guard unswitched", f"a loop's guard on a fixed flag in {name}", rule="")
            if self.FIXED_ROWS and self.LOOP_FORMS and name.startswith(("D_", "_A", "INV")) \
                    and pytree.fixed_rows(fn, self.fresh, self.row_keys()):
                self.chose("fixed rows", f"a state map's row under a fixed key in {name}", rule="")
            if self.WHOLE_SUMS and not name.startswith("AX") \
                    and whole_sums(fn, self.constants, self.elements, self.var_index, self.m.var_types, self.shallow()):
                self.chose("whole sums", f"a sum of a map's every entry in {name}", rule="")
            if self.CHARGED_ONCE and self.LOOP_FORMS and name.startswith("B_") and charged_once(fn):
                self.chose("charged once", f"a loop's fixed charges at its top in {name}", rule="")
            if self.CHARGES_MERGED and self.LOOP_FORMS and charges_merged(fn):
                self.chose("charges merged", f"straight-line charges taken at once in {name}", rule="")
            self.writes_finished(name, fn)  # after `charged once`, whose charges it reads as written
            self.prologue(fn)
        return module

    def writes_finished(self, name: str, fn: ast.FunctionDef) -> None:
        """The passes over a function's final tree that lighten its writes, charges and loops:
        `kept lists once` (keptonce.py), `charged if any` (ifany.py, after `charged once`) and
        `heads hoisted` (loophead.py), and `pending with the successor` (pendingnext.py)."""
        if self.KEPT_ONCE and kept_once(fn):
            self.chose("kept lists once", f"the kept lists of the writes that follow one another in {name}", rule="")
        if self.CHARGED_IF_ANY and charged_if_any(fn):
            self.chose("charged if any", f"a local domain's charge under its test in {name}", rule="")
        if self.HEADS_HOISTED and heads_hoisted(fn, self.constants, self.fresh):
            self.chose("heads hoisted", f"a loop's first statements ahead of it in {name}", rule="")
        if self.PENDING_WITH_NEXT and name.startswith(("B_", "BA_")) and pending_with_next(fn):
            self.chose("pending with the successor", f"the next player's pending record in {name}", rule="the engine")

    def memo_finished(self, fns: dict[str, ast.FunctionDef]) -> None:
        """`memo never opened` (sharedlocal.memo_unopened): where no function of the program
        opens the decision's memo, the shared definitions look nothing up there."""
        if memo_opened(fns):
            return
        for name in sorted(memo_users(fns)):
            if memo_unopened(fns[name]):
                self.chose("memo never opened", f"{name}'s look-up in the decision's memo", rule="")

    def fused_finished(self, fn: ast.FunctionDef) -> None:
        """A fused apply (machine.py `fused_apply`) once its copies are in: the block's returns
        made apply's, then its own steps trimmed (fusedsteps.py) and, traced, its move's step
        made where it closes (stepclose.py)."""
        after = "_after_traced" if self.record else "_after_block"
        if self.fused_kept is None:
            pytree.returns_after(fn, after)
        else:  # `decision kept`: the frame's op (and untraced the decision) set on the way out
            pytree.returns_after(fn, after + "_kept", ("F", self.fused_kept))
        if self.FUSED_STEPS_TRIMMED and fused_steps_trimmed(fn):
            self.chose("fused steps trimmed", f"{fn.name}'s copied lines", rule="the engine")
        if self.REMOVED_WHERE_OFFERED and self.fused_taken and removed_where_offered(fn):
            self.chose("removed where offered", f"{fn.name}'s move taken out of the next listing", rule="the engine")
        if self.record and self.STEP_AT_CLOSE and step_made_at_close(fn, self.FINISH_AT_CLOSE):
            self.chose("step made at close", f"{fn.name}'s move step", rule="the engine")
            if finished_at_close(fn):
                self.chose("finish at close", f"{fn.name}'s move step where the game ends", rule="the engine")

    def pruned(self, fns: dict[str, ast.FunctionDef]) -> None:
        """`joined pruned` over every function, before the copies (a block binds the names of its
        moves' parameters again, so the copied loops' targets would be read there)."""
        for name, fn in fns.items():
            if joined_pruned(fn, self.joining):
                self.chose("joined pruned", f"a joined loop's unread columns in {name}", rule="")

    def procedure_copy(self, spec: Inline, source: ast.FunctionDef) -> list[ast.stmt]:
        """A copy of procedure function `source` (`P_n`; traced, its tail form `PT_n`) for
        `if P_n(G, args): return True`: its parameters the arguments `spec.args` (names or
        literals: nothing in the body binds them), its last `return False` left off. The tail
        form's `if G._watched: return P_n(G, p0)` goes on to the procedure's steps: `if
        P_n(...): return True` there, the rest of the body under its `else`. Any other way out
        of the body but `return True` (none is written: `procedure_inlined`, `tail_procedure`)
        keeps the call."""
        params = [a.arg for a in source.args.args[1:]]
        body = source.body
        call = ast.If(ast.Call(ast.Name(source.name, ast.Load()), [ast.Name("G", ast.Load()), *(
            ast.parse(a, mode="eval").body for a in spec.args)], []), [ast.Return(ast.Constant(True))], [])
        if len(params) != len(spec.args) or not body or not (
                isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Constant)
                and body[-1].value.value is False):
            return [pytree.located(call, source)]
        body = body[:-1]
        watched = None
        if spec.kind == "tail":
            first = body[0]
            if not (isinstance(first, ast.If) and len(first.body) == 1 and isinstance(first.body[0], ast.Return)
                    and isinstance(first.body[0].value, ast.Call) and not first.orelse):
                return [pytree.located(call, source)]
            watched, body = first, body[1:]
        if any(isinstance(n, ast.Return) and not (isinstance(n.value, ast.Constant) and n.value.value is True)
               for st in body for n in ast.walk(st)):
            return [pytree.located(call, source)]
        stored = {n.id for st in body for n in ast.walk(st) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        mapping = {p: a for p, a in zip(params, spec.args, strict=True) if not _is_literal(a)}
        mapping |= {n: self.fresh("q" + n.strip("_").rstrip("0123456789")) for n in sorted(stored)}  # its own
        body = pytree.renamed(body, mapping)  # locals, its own in each copy (a block copies two effects)
        literals = {p: a for p, a in zip(params, spec.args, strict=True) if _is_literal(a)}
        if literals:  # a literal argument in place of its parameter
            body = [_Literals(literals).visit(b) for b in body]
        if watched is not None:
            inner = watched.body[0].value
            assert isinstance(inner, ast.Call)
            steps = ast.If(pytree.renamed([ast.Expr(inner)], mapping)[0].value, [ast.Return(ast.Constant(True))], [])
            body = [ast.If(watched.test, [pytree.located(steps, watched)], body or [ast.Pass()])]
            body = [pytree.located(b, watched) for b in body]
        return body

    def _names(self, fn: ast.FunctionDef) -> set[str]:
        """The names `fn`'s body uses, worked out once per function copied from."""
        used = self._names_of.get(fn.name)
        if used is None:
            used = self._names_of[fn.name] = pytree.names_read(fn.body)
        return used

    def prologue(self, fn: ast.FunctionDef) -> None:
        """Bind at the function's top what its body reads: `V`, `K`, `J`, `_cur`, the frame's
        locals `L`, and each state variable or constant bound once (`_sv<i>`, `_kc<i>`)."""
        used = pytree.names_read(fn.body)
        stable = sorted(int(n[3:]) for n in used if n.startswith("_sv") and n[3:].isdigit())
        konst = sorted(int(n[3:]) for n in used if n.startswith("_kc") and n[3:].isdigit())
        B = pytree.binding
        head = []
        if "L" in used and any(a.arg == "F" for a in fn.args.args):
            head.append(B("L", "F", 2))
        if "V" in used or stable:
            head.append(B("V", "G", attr="vars"))
        if "K" in used or konst:
            head.append(B("K", "G", attr="consts"))
        if "J" in used:
            head.append(B("J", "G", attr="journal"))
        if "_cur" in used:
            head.append(B("_cur", "G", attr="current"))
        names, knames = list(self.m.vars), list(self.const_ids)
        binds = {f"_sv{i}": B(f"_sv{i}", "V", names[i]) for i in stable}
        binds |= {f"_kc{i}": B(f"_kc{i}", "K", knames[i]) for i in konst}
        if self.BINDINGS_SUNK and binds:
            left = sunk_bindings(fn, {n: pytree.located(b, fn) for n, b in binds.items()})
            if len(left) < len(binds):
                self.chose("bindings sunk", f"bindings made in the segments that read them in {fn.name}", rule="")
            binds = left
        head += binds.values()
        fn.body[:0] = [pytree.located(h, fn) for h in head]

    def prepare_inline(self, spec: Inline, source: ast.FunctionDef) -> list[ast.stmt]:
        """A copy of `source`'s body made fit for the place it is copied to (pytree.Inline)."""
        body = source.body
        if spec.kind in ("procedure", "tail"):
            return self.procedure_copy(spec, source)
        if spec.kind == "any":
            body = pytree.renamed(body, {})
            pytree.appends_to_returns(body, spec.lists)
            pytree.drop_kept_checks(body)
            if self.FILTERED_AS_FOUND:
                pytree.filtered_as_found(body)
            return body
        if spec.kind == "effect" and body and isinstance(body[-1], ast.Return):
            body = body[:-1]  # the effect's `return False`: the block goes on instead
        if not body:
            return []
        used = self._names(source)
        mapping = {"_cur": "_mover"}
        head: list[ast.stmt] = []
        where = body[0]
        if spec.kind == "enum":
            mapping["out"] = "legal"
            stable = set(self.stable.values())  # maps no statement replaces: bound at the block's top
            names = list(self.m.vars)
            for i in sorted(int(n[3:]) for n in used if n.startswith("_sv") and n[3:].isdigit()):
                if i not in stable:  # a move may replace it: read where the listing starts
                    mapping[f"_sv{i}"] = f"_se{i}"
                    head.append(pytree.located(pytree.binding(f"_se{i}", "V", names[i]), where))
        if "_cur" in used:
            head.append(pytree.located(pytree.binding("_mover", "G", attr="current"), where))
        body = pytree.renamed(body, mapping)
        if spec.kind == "enum" and pytree.has_bare_return(body):  # a precondition fails: leave
            pytree.returns_to_breaks(body)
            loop = ast.While(ast.Constant(True), [*body, ast.Break()], [])
            body = [pytree.located(loop, where)]
        if spec.kind == "enum" and self.WORK_LOCAL and self.LOOP_FORMS:  # the scans' charges to a local
            local = work_local(body)
            if local is not None:
                body = local
                self.chose("work local", f"the work counter in a local through {spec.source}'s listing", rule="")
        if spec.kind == "check":  # an offered move's check (`AC_n`): `args`, the lines run where
            # it fails (machine.py `listing_follows`)
            failing = [stmt for line in spec.args for stmt in ast.parse(line).body]
            body = pytree.check_to_verdict(body, len(source.args.args) - 1, failing)
            body = [pytree.located(ast.While(ast.Constant(True), [*body, ast.Break()], []), where)]
        if spec.kind == "checks":  # a traced move's checks, before its effect (machine.py)
            last = body[-1]
            if isinstance(last, ast.Return) and last.value is not None \
                    and not any(isinstance(n, ast.Return) for s in body[:-1] for n in ast.walk(s)):
                # one way out, at the end: its value is the result, no loop needed
                body[-1] = pytree.located(ast.Assign([ast.Name("_ck", ast.Store())], last.value), last)
            else:
                pytree.value_returns_to_breaks(body, "_ck")
                body = [pytree.located(ast.While(ast.Constant(True), [*body, ast.Break()], []), where)]
        return head + body


class _Literals(ast.NodeTransformer):
    """Each read of a parameter in `values` (name -> a literal's code) as that literal."""

    def __init__(self, values: dict[str, str]):
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:  # noqa: N802 - the visitor's protocol
        code = self.values.get(node.id)
        if code is None or not isinstance(node.ctx, ast.Load):
            return node
        return ast.copy_location(ast.parse(code, mode="eval").body, node)


def _may_hold_dict(t: Type) -> bool:
    """Whether a value of type `t` is or holds a map or record: a dict, changed in place."""
    t = t.base
    if isinstance(t, (MapOf, Record)):
        return True
    if isinstance(t, (ListOf, SetOf)):
        return _may_hold_dict(t.elem)
    return not isinstance(t, Elem) and t not in (INT, BOOL, TEXT, NONE, RANGE)


def _is_value(e: A.Node) -> bool:
    """A literal written as a Python display: `is` on it would be a SyntaxWarning."""
    return isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.ListLit, A.MapLit, A.SetLit, A.RecordLit, A.Range))


_LITERAL_START = re.compile(r"\(*(?:['\"0-9-]|(?:None|True|False)\b)")


def _literal_code(code: str) -> bool:
    """Whether generated code `code` starts with a literal (a text, a number, None)."""
    return _LITERAL_START.match(code) is not None


def _is_name(code: str) -> bool:
    return code.isidentifier()


def kept_rows(table: str, key: str, make: str, dom: str) -> str:
    """Code for the rows of a table kept for the program's life (runtime._kept_rows), read
    from the table in place when it has them: no lambdas made, no call, at every use."""
    return f"({table}.get({key}) or _kept_rows({table}, {key}, lambda: {make}, lambda: {dom}))"


def _is_literal(code: str) -> bool:
    return code in ("None", "True", "False") or code.lstrip("-").isdigit() or (
        len(code) >= 2 and code[0] == code[-1] == "'" and "\\" not in code)


def _post_order_always(e: A.Node, done: dict[int, str] | None = None) -> list[A.Node]:
    """The always-evaluated sub-expressions of `e`, innermost first (arguments before calls);
    none inside a node `done` maps to a local already (what reads it reads the local: a part
    written as statements there would be worked out for nothing)."""
    from .hoist import _children_always

    out: list[A.Node] = []

    def walk(n: A.Node) -> None:
        if done is None or id(n) not in done:
            for c in _children_always(n):
                walk(c)
        out.append(n)

    walk(e)
    return out


def tiny_defines(model: Model, inlinable: set[str]) -> set[str]:
    """Inlinable definitions that are one small expression: no `let`, no aggregate, no call
    but of library functions that neither draw chance nor read the game, or of other tiny
    definitions (`tiny_call`)."""
    tiny: set[str] = set()
    changed = True
    while changed:  # a definition calling a tiny one is tiny once that one is known
        changed = False
        for name in inlinable - tiny:
            body = model.defines[name].value
            nodes = list(iter_nodes(body))
            if len(nodes) > MAX_TINY_NODES or any(isinstance(n, (A.LetExpr, A.Aggregate)) for n in nodes):
                continue
            if all(not isinstance(n, A.Call) or n.func in tiny or (
                    n.func not in model.defines and n.func not in model.devices and n.func in LIBRARY
                    and LIBRARY[n.func].kind not in ("chance", "game")) for n in nodes):
                tiny.add(name)
                changed = True
    return tiny


def inlinable_defines(model: Model) -> set[str]:
    """Definitions small enough to inline and not (even indirectly) calling themselves."""
    recursive = recursive_defines(model)
    return {name for name, d in model.defines.items()
            if name not in recursive and sum(1 for _ in iter_nodes(d.value)) <= MAX_INLINE_NODES}


def _changed(adding: bool, old: str, val: str, ty: Type) -> str:
    """`add`/`remove`, specialised by the written type (an optional one may be none)."""
    base = ty
    if base == INT:
        return f"({old} {'+' if adding else '-'} {val})"
    if adding and isinstance(base, ListOf):
        return f"({old} + [{val}])"
    if adding and isinstance(base, SetOf):
        return f"({old} | {{{val}}})"
    return f"_add({old}, {val})" if adding else f"_remove({old}, {val})"


CodeGen._STMTS = node_table("a statement", {
    A.SetStmt: CodeGen._stmt_set,
    A.AddStmt: CodeGen._stmt_add_or_remove,
    A.RemoveStmt: CodeGen._stmt_add_or_remove,
    A.ClearStmt: CodeGen._stmt_clear,
    A.LetStmt: CodeGen._stmt_let,
    A.MoveStmt: CodeGen._stmt_move,
    A.DrawStmt: CodeGen._stmt_draw,
    A.ShuffleStmt: CodeGen._stmt_shuffle,
    A.RequireStmt: CodeGen._stmt_require,
    A.FinishStmt: CodeGen._stmt_finish,
    A.DoStmt: CodeGen._stmt_do,
    A.LogStmt: CodeGen._stmt_log,
    A.RevealStmt: CodeGen._stmt_reveal,
    A.BreakStmt: CodeGen._stmt_break,
    A.AbandonStmt: CodeGen._stmt_abandon,
    A.ResultStmt: CodeGen._stmt_result,
    A.IfStmt: CodeGen._stmt_if,
    A.ForStmt: CodeGen._stmt_for,
    A.RepeatStmt: CodeGen._stmt_loop,
    A.WhileStmt: CodeGen._stmt_loop,
    A.Node: CodeGen._stmt_other,
})


CodeGen._EXPRS = node_table("an expression", {
    A.IntLit: CodeGen._ex_literal,
    A.StrLit: CodeGen._ex_literal,
    A.BoolLit: CodeGen._ex_literal,
    A.NoneLit: CodeGen._ex_none_literal,
    A.Name: CodeGen._ex_name,
    A.ListLit: CodeGen._ex_list_literal,
    A.MapLit: CodeGen._ex_map_literal,
    A.SetLit: CodeGen._ex_set_literal,
    A.Index: CodeGen._ex_index,
    A.Field: CodeGen._ex_field,
    A.RecordLit: CodeGen._ex_record_literal,
    A.Call: CodeGen._ex_call,
    A.BinOp: CodeGen._ex_bin_op,
    A.Compare: CodeGen._ex_compare,
    A.BoolOp: CodeGen._ex_bool_op,
    A.Not: CodeGen._ex_not,
    A.Neg: CodeGen._ex_neg,
    A.Range: CodeGen._ex_range,
    A.CondExpr: CodeGen._ex_cond_expr,
    A.Aggregate: CodeGen._ex_aggregate,
    A.LetExpr: CodeGen._ex_let_expr,
    A.Node: CodeGen._ex_other,
})
