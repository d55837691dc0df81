"""A throw-away PostgreSQL cluster for the tests: $REGELWERK_PG_URL when set, else one made
with the local PostgreSQL's initdb in a temp folder (as the `postgres` user when running as
root, since PostgreSQL refuses to run as root), listening only on a unix socket."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


@contextmanager
def cluster() -> Iterator[str]:
    """A PostgreSQL URL to a server for this test session; RuntimeError says why there is none."""
    if os.environ.get("REGELWERK_PG_URL"):
        yield os.environ["REGELWERK_PG_URL"]
        return
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("no PostgreSQL server reachable: set REGELWERK_PG_URL, or install the Debian "
                           "package postgresql (make test does)")
    as_user: list[str] = []
    folder = tempfile.mkdtemp(prefix="regelwerk-pg-")
    if os.geteuid() == 0:
        import pwd

        pw = pwd.getpwnam("postgres")
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(folder, "data")
    run = lambda *cmd: subprocess.run([*as_user, *cmd], check=True, capture_output=True, text=True)  # noqa: E731
    try:
        run(initdb, "-D", data, "-A", "trust", "-U", "regelwerk", "--no-sync")
        run(pg_ctl, "-D", data, "-w", "-l", os.path.join(folder, "log"), "-o",
            f"-k {folder} -c listen_addresses='' -c fsync=on -p 54329", "start")
    except (subprocess.CalledProcessError, OSError) as err:
        shutil.rmtree(folder, ignore_errors=True)
        detail = err.stderr.strip() if isinstance(err, subprocess.CalledProcessError) else str(err)
        raise RuntimeError(f"could not start a local PostgreSQL cluster: {detail}") from None
    try:
        yield f"postgresql://regelwerk@/postgres?host={folder}&port=54329"
    finally:
        subprocess.run([*as_user, pg_ctl, "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
