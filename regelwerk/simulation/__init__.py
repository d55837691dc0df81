"""`regelwerk simulate` at scale: many seeded games over processes or a Dask cluster, one
deterministic report (docs/simulation.md)."""

from ..interpreter.tools.simulate import PlaySettings
from .bundle import RulesBundle, bundle_of, load_bundle
from .report import build_report, report_json, report_text, without_timing
from .run import SimulationRun, run_simulation

__all__ = [
    "PlaySettings",
    "RulesBundle",
    "SimulationRun",
    "build_report",
    "bundle_of",
    "load_bundle",
    "report_json",
    "report_text",
    "run_simulation",
    "without_timing",
]
