"""A small JSON-RPC client that drives `regelwerk lsp` as an editor would: a real subprocess,
Content-Length framed messages on its stdin and stdout."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT = 30.0


def uri(path: Path | str) -> str:
    return Path(path).resolve().as_uri()


class LspClient:
    """Starts the server, answers its requests, collects its notifications."""

    def __init__(self, env: dict[str, str] | None = None, init_options: dict | None = None):
        exe = Path(sys.executable).with_name("regelwerk")
        cmd = [str(exe), "lsp"] if exe.exists() else [sys.executable, "-m", "regelwerk.cli", "lsp"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
        self._next = 0
        self._responses: dict[int, dict] = {}
        self._cond = threading.Condition()
        self.notifications: queue.Queue[dict] = queue.Queue()
        self.published: list[dict] = []  # every publishDiagnostics, in order
        self.messages: list[dict] = []  # every window/showMessage
        self.stderr_lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        caps = {"workspace": {"codeLens": {"refreshSupport": True}},
                "textDocument": {"hover": {"contentFormat": ["markdown"]}},
                "general": {"positionEncodings": ["utf-16"]}}
        self.init_result = self.request("initialize", {
            "processId": os.getpid(), "rootUri": None, "capabilities": caps,
            "initializationOptions": init_options or {}})
        self.notify("initialized", {})
        self.versions: dict[str, int] = {}

    # ------------------------------------------------------------ wire
    def _send(self, msg: dict) -> None:
        body = json.dumps(msg).encode("utf-8")
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            msg = json.loads(out.read(length))
            if "id" in msg and "method" in msg:  # a request from the server: answer it
                self._send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
                self.notifications.put(msg)
            elif "id" in msg:
                with self._cond:
                    self._responses[msg["id"]] = msg
                    self._cond.notify_all()
            else:
                with self._cond:
                    if msg.get("method") == "window/showMessage":
                        self.messages.append(msg["params"])
                    if msg.get("method") == "textDocument/publishDiagnostics":
                        self.published.append(msg["params"])
                    self._cond.notify_all()
                self.notifications.put(msg)

    def _read_stderr(self) -> None:
        for raw in self.proc.stderr:
            self.stderr_lines.append(raw.decode("utf-8", "replace").rstrip())

    def request(self, method: str, params: Any) -> Any:
        self._next += 1
        msg_id = self._next
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        with self._cond:
            while msg_id not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to {method}")
                self._cond.wait(left)
            msg = self._responses.pop(msg_id)
        if "error" in msg:
            raise RuntimeError(f"{method}: {msg['error']}")
        return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    # ------------------------------------------------------------ documents
    def open(self, path: Path | str, text: str | None = None) -> str:
        u = uri(path)
        text = Path(path).read_text(encoding="utf-8") if text is None else text
        self.versions[u] = 1
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "regelwerk", "version": 1, "text": text}})
        return u

    def change(self, u: str, changes: list[dict]) -> None:
        self.versions[u] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": u, "version": self.versions[u]}, "contentChanges": changes})

    def close(self, u: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": u}})

    def mark(self) -> int:
        """A point in the stream of published diagnostics, for `diagnostics(since=...)`."""
        with self._cond:
            return len(self.published)

    def diagnostics(self, u: str, version: int | None = None, since: int = 0,
                    timeout: float = TIMEOUT) -> list[dict]:
        """The first diagnostics published for `u` after `since` (for that version, if given)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for params in self.published[since:]:
                    if params["uri"] == u and (version is None or params.get("version") == version):
                        return params["diagnostics"]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no diagnostics for {u}")
                self._cond.wait(left)

    def at(self, u: str, line: int, character: int) -> dict:
        return {"textDocument": {"uri": u}, "position": {"line": line, "character": character}}

    def shutdown(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def find(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """The LSP position (0-based line, UTF-16 character) of `needle` (+ offset) in `text`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return line, len(text[start:at].encode("utf-16-le")) // 2
