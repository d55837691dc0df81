"""The results file: one JSON line per finished game, written as games finish.

It is what makes a run resumable and an interrupted run worth something: line 1 says which
ruleset and settings the games belong to, every further line is one game's record, appended
and flushed as soon as it arrives. A run killed while writing leaves at most a torn last
line, which a resume drops; anything else that does not read is refused with its line number.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

RESULTS_FORMAT = "regelwerk-simulation-games"
RESULTS_VERSION = 1


class ResultsError(Exception):
    """A results file that cannot be resumed: message says where and why."""


def results_header(title: str, ruleset_hash: str, settings: dict[str, Any]) -> dict[str, Any]:
    return {"format": RESULTS_FORMAT, "version": RESULTS_VERSION, "ruleset": title,
            "ruleset_hash": ruleset_hash, "settings": settings}


def _line(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_results(path: str | Path, header: dict[str, Any]) -> tuple[dict[int, dict], int]:
    """The records of a results file written for `header`, by game index, and the byte
    length of its good part (a torn last line is left out)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such results file to resume") from None
    except OSError as err:
        raise ResultsError(f"{path}: cannot read: {err.strerror}") from None
    records: dict[int, dict] = {}
    good = 0
    pos = 0
    lineno = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        lineno += 1
        if end == -1:  # no newline: the last write was cut off
            break
        raw = data[pos:end]
        pos = end + 1
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ResultsError(f"{path}:{lineno}: not a results line ({err})") from None
        if lineno == 1:
            _check_header(path, obj, header)
        else:
            rec = _check_record(path, lineno, obj)
            records.setdefault(rec["game"], rec)
        good = pos
    if lineno == 0 or good == 0:
        raise ResultsError(f"{path}:1: empty results file (no header line)")
    return records, good


def _check_header(path: str | Path, obj: Any, header: dict[str, Any]) -> None:
    if not isinstance(obj, dict) or obj.get("format") != RESULTS_FORMAT:
        raise ResultsError(f"{path}:1: not a regelwerk results file")
    if obj.get("version") != RESULTS_VERSION:
        raise ResultsError(f"{path}:1: results format version {obj.get('version')!r}, "
                           f"this regelwerk reads {RESULTS_VERSION}")
    if obj.get("ruleset_hash") != header["ruleset_hash"]:
        raise ResultsError(f"{path}:1: written for other rules ({obj.get('ruleset')!r}, hash "
                           f"{str(obj.get('ruleset_hash'))[:12]}); these have {header['ruleset_hash'][:12]}")
    theirs, ours = obj.get("settings") or {}, header["settings"]
    for key in sorted(set(theirs) | set(ours)):
        if theirs.get(key) != ours.get(key):
            raise ResultsError(f"{path}:1: written with {key} {json.dumps(theirs.get(key))}, "
                               f"this run has {json.dumps(ours.get(key))}")


def _check_record(path: str | Path, lineno: int, obj: Any) -> dict:
    ok = (isinstance(obj, dict) and type(obj.get("game")) is int and obj["game"] >= 0
          and type(obj.get("seed")) is int
          and ("failure" in obj or {"winners", "length", "order"} <= obj.keys()))
    if not ok:
        raise ResultsError(f"{path}:{lineno}: not a game record")
    return obj


class ResultsWriter:
    """Appends records, one flushed line each; a new file starts with the header."""

    def __init__(self, path: str | Path, header: dict[str, Any], keep_bytes: int | None = None):
        self.path = Path(path)
        if keep_bytes is None:
            self.fh: TextIO = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
            self.fh.write(_line(header))
        else:  # resuming: drop a torn last line, then append
            with open(self.path, "r+b") as raw:
                raw.truncate(keep_bytes)
            self.fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        self.fh.flush()

    def write(self, record: dict) -> None:
        self.fh.write(_line(record))
        self.fh.flush()

    def close(self) -> None:
        if not self.fh.closed:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
