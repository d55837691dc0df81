"""The files a ruleset names (includes, data, board files): inside its root folder, regular
files only, of a bounded size, decoded as UTF-8 with the bad byte located.

A rules file is text from someone else. Without these limits `data x from "/etc/shadow"`
puts any readable file into a trace, `/dev/zero` reads until memory runs out and a FIFO
blocks `check` for ever. The root folder is the folder of the file given on the command
line (or an explicit `--root`); a name that leaves it, by `..`, an absolute path or a
symbolic link, is refused before the file is opened.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_DATA_BYTES = 5_000_000
MAX_SOURCE_BYTES = 2_000_000  # a .rules file


class FileRefused(Exception):
    """A file a ruleset may not read, or cannot: the message says why, without its contents."""


def inside(root: Path, base: Path, rel: str) -> Path:
    """The file `rel` names, relative to the folder `base`, checked to stay inside `root`
    (after following symbolic links). Returns the path as written (base / rel)."""
    if "\x00" in rel:
        raise FileRefused("the name holds a NUL character")
    if os.path.isabs(rel) or rel.startswith("~"):
        raise FileRefused("an absolute path; name files relative to the rules file")
    path = base / rel
    try:
        real = path.resolve()
        top = root.resolve()
    except (OSError, RuntimeError) as err:  # a symlink loop
        raise FileRefused(f"cannot be resolved ({type(err).__name__})") from None
    if real != top and top not in real.parents:
        raise FileRefused(f"it is outside the ruleset's folder {top}")
    return path


def read_text(path: Path, limit: int = MAX_DATA_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise FileRefused("No such file or directory") from None
    except OSError as err:
        raise FileRefused(err.strerror or type(err).__name__) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileRefused("it is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file (a device, pipe or socket)")
        if info.st_size > limit:
            raise FileRefused(f"larger than {limit:,} bytes")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise FileRefused(f"larger than {limit:,} bytes")
            chunks.append(chunk)
    except OSError as err:
        raise FileRefused(err.strerror or type(err).__name__) from None
    finally:
        os.close(fd)
    return decode_utf8(b"".join(chunks))


def decode_utf8(data: bytes) -> str:
    """`data` as text; a byte that is not UTF-8 is reported by line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col = byte_position(data, err.start)
        raise BadEncoding(f"not UTF-8 text: byte 0x{data[err.start]:02x} at line {line}, column {col}",
                          line, col) from None


class BadEncoding(FileRefused):
    """Text that is not UTF-8, with the line and column (in characters) of the first bad byte."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.line = line
        self.column = column


def byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """The 1-based line and column (in characters) of byte `offset`."""
    start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[start:offset].decode("utf-8", errors="replace")) + 1
    return line, column
