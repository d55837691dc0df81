"""`regelwerk serve`: games in the browser for several people, nothing lost (docs/serve.md)."""
