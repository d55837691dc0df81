"""A ruleset as texts: the rules files and data files it read, by path relative to one folder.

Workers on other machines receive this, not paths: they write the texts into a private
temporary folder, load the ruleset from there with the ordinary loader (so includes and data
files are read exactly as `regelwerk.load` reads them) and check that the hash is the one the
driver computed. The layout is kept relative to the main file, so every file name in traces
and errors (relative to the rules' folder) comes out as on the driver.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..api import Ruleset, load, load_text


class BundleError(Exception):
    """A bundle that cannot be made or that loads as a different ruleset."""


@dataclass(frozen=True)
class RulesBundle:
    main: str  # the main rules file, relative to the bundle's folder
    files: dict[str, str]  # relative path -> text (rules files and data files)
    hash: str  # the ruleset hash the driver computed: a worker must load the same
    from_text: bool = False  # loaded with `load_text` (no file, no includes)


def bundle_of(ruleset: Ruleset) -> RulesBundle:
    """The texts a loaded ruleset consists of, relative to the folder that holds them all."""
    texts: dict[str, str] = {**ruleset.sources, **ruleset.model.data_files}
    if not ruleset.sources:
        raise BundleError("the ruleset has no source text")
    main_key = next(iter(ruleset.sources))  # the loader reads the main file first
    if ruleset.path is None:  # from load_text: one text, read back the same way
        return RulesBundle(main_key, {main_key: ruleset.sources[main_key]}, ruleset.hash, True)
    absolute = {key: os.path.abspath(key) for key in texts}
    root = os.path.commonpath([os.path.dirname(a) for a in absolute.values()])
    files: dict[str, str] = {}
    for key, text in texts.items():
        rel = Path(os.path.relpath(absolute[key], root)).as_posix()
        if files.get(rel, text) != text:
            raise BundleError(f"two different texts for {rel}")
        files[rel] = text
    main = Path(os.path.relpath(absolute[main_key], root)).as_posix()
    return RulesBundle(main, files, ruleset.hash)


def load_bundle(bundle: RulesBundle) -> Ruleset:
    """Load the ruleset a bundle holds and check its hash; its programs are compiled before
    the temporary folder goes away."""
    if bundle.from_text:
        ruleset = load_text(bundle.files[bundle.main], bundle.main)
    else:
        folder = tempfile.mkdtemp(prefix="regelwerk-rules-")
        try:
            for rel, text in bundle.files.items():
                target = Path(folder, *rel.split("/"))
                if not target.resolve().is_relative_to(Path(folder).resolve()):
                    raise BundleError(f"bundle path {rel!r} leaves its folder")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            ruleset = load(Path(folder, *bundle.main.split("/")), root=folder)  # files may sit above main
            ruleset.program(False)
            ruleset.program(True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    if ruleset.hash != bundle.hash:
        raise BundleError(f"the rules loaded here have hash {ruleset.hash[:12]}, the driver's "
                          f"{bundle.hash[:12]}: a different regelwerk version on this worker?")
    return ruleset

