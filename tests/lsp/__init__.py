"""Tests of the language server and the highlighting (a package, so its conftest is its own)."""
