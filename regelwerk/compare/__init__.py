"""`regelwerk compare OLD NEW`: what a rules change does (docs/compare.md)."""

from .report import report_json, report_text
from .run import CompareError, Comparison, compare

__all__ = ["CompareError", "Comparison", "compare", "report_json", "report_text"]
