"""What the language server's tests share: the server's command and a client of each editor's profile."""

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

#: `arbo lsp` from this checkout, as an editor starts it.
SERVER = ClientServerConfig(
    server_command=[sys.executable, "-m", "arbo_notation", "lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)},
)

#: The client profiles pytest-lsp knows, as VS Code and Neovim announce themselves.
PROFILES = ["visual-studio-code", "neovim"]


def accept_registrations(client: LanguageClient) -> list[types.Registration]:
    """Let the server register capabilities (the watching of files), as VS Code does: the
    registrations it asks for, in a list."""
    registrations: list[types.Registration] = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    return registrations


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def opened(uri: str, text: str, version: int = 1) -> types.DidOpenTextDocumentParams:
    return types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="arbo", version=version, text=text)
    )


class RawSession:
    """`arbo lsp` spoken to byte by byte, as no well-behaved client would: garbage sent, a client
    gone, a document of 50 MB. Its messages are read by a thread into a queue."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            SERVER.server_command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=SERVER.server_env,
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def _drain(self) -> None:
        for line in self.process.stderr:
            self.stderr.append(line)

    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, method: str, params: object, *, request: bool = True) -> int | None:
        message: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        number = None
        if request:
            self.next_id += 1
            number = message["id"] = self.next_id
        body = json.dumps(message).encode()
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return number

    def receive(self, wanted: Callable[[dict], bool], timeout: float = 30) -> dict:
        """The first message that ``wanted`` accepts (the others dropped), within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if wanted(message):
                return message

    def answer(self, number: int | None, timeout: float = 30) -> dict:
        return self.receive(lambda m: m.get("id") == number and "method" not in m, timeout)

    def diagnostics(self, uri: str, timeout: float = 30) -> list[dict]:
        message = self.receive(
            lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri, timeout
        )
        return message["params"]["diagnostics"]

    def initialize(self) -> dict:
        answer = self.answer(self.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
        self.send("initialized", {}, request=False)
        return answer

    def open(self, uri: str, text: str) -> None:
        document = {"uri": uri, "languageId": "arbo", "version": 1, "text": text}
        self.send("textDocument/didOpen", {"textDocument": document}, request=False)

    def peak_memory_mb(self) -> float:
        """The server's peak resident memory so far (VmHWM), in MB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        (line,) = [line for line in status.splitlines() if line.startswith("VmHWM:")]
        return int(line.split()[1]) / 1024

    def close(self) -> int:
        """Say shutdown and exit, and the server's exit status."""
        self.answer(self.send("shutdown", None))
        self.send("exit", None, request=False)
        return self.process.wait(timeout=10)

    def __enter__(self) -> "RawSession":
        return self

    def __exit__(self, *_: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def check_json(path: Path) -> list[dict]:
    """`arbo check --json`'s diagnostics of one file, as a real command prints them."""
    run = subprocess.run(
        [sys.executable, "-m", "arbo_notation", "check", "--json", str(path)],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT)},
        check=False,
    )
    return json.loads(run.stdout)["files"][0]["diagnostics"]
