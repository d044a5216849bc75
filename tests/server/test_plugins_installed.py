"""Bot plug-ins as users install them (issue 21, item 14): a real ``belote.bots`` entry
point in the room, and ``belote arena module:Class`` through the real console script.

Findings: "installing a bot plug-in (entry point ``belote.bots``) that the room offers as a
level makes ``GET /`` answer 500 for everyone and the table socket raise KeyError";
"``belote arena module:Class`` fails from the console script ("No module named ...")
although the docs show it".

Nothing here touches the test's own environment and nothing needs the network: a tiny
plug-in package (a wheel written here) is installed by pip into a folder of its own, and the
room and the ``belote`` console script (the one installed with the project) run in
subprocesses that have that folder on their path, as an installed package would be.  The
current directory is never on their path: the console script's own ``sys.path``.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

TINY_BOT = '''
class TinyBot:
    """Always its last legal action."""

    name = "tiny-bot"

    def __init__(self, seed=None):
        self.seed = seed

    def notify(self, event):
        pass

    def choose(self, observation):
        return max(observation.legal_actions)
'''

ENTRY_POINTS = """[belote.bots]
tiny = belote_tiny_bot:TinyBot
"""

# A bot module in the current directory only: what the docs run with ``belote arena``.
CWD_BOT = '''
class CwdBot:
    name = "cwd-bot"

    def notify(self, event):
        pass

    def choose(self, observation):
        return min(observation.legal_actions)
'''

# The room in the throwaway environment, driven as the room's tests drive it.
ROOM_CHECK = '''
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[2])  # the checkout, for the tests' helpers

from belote.server.levels import LEVELS
from belote.server.app import create_app
from tests.server.conftest import client_for, make_settings
from tests.server.helpers import connect, create_table, first_legal, guest, my_turn, send, until

assert "tiny" in LEVELS, LEVELS
app = create_app(make_settings(Path(sys.argv[1])))
with client_for(app) as client:
    lobby = client.get("/")
    assert lobby.status_code == 200, lobby.text[-2000:]
    assert "tiny-bot" in lobby.text  # the live list's strings
    guest(client, "Ada")
    table = create_table(client)
    with connect(client, table) as ws:
        send(ws, "sit", seat=0)
        for seat in (1, 2):
            send(ws, "bot", seat=seat, level="tiny")
        until(ws, lambda f: f["t"] == "update" and sum(
            s["kind"] == "bot" for s in f["d"]["view"]["seats"]) == 2)
        lobby = client.get("/")
        assert lobby.status_code == 200, lobby.text[-2000:]
        picker = '<option value="tiny" >tiny-bot</option>'
        assert picker in lobby.text, "the empty seat's level picker"
        send(ws, "bot", seat=3, level="tiny")
        seated = until(ws, lambda f: f["t"] == "update" and sum(
            s["kind"] == "bot" for s in f["d"]["view"]["seats"]) == 3)
        names = [s["name"] for s in seated["d"]["view"]["seats"]]
        assert any("tiny-bot" in name for name in names), names
        assert "tiny-bot" in client.get("/").text
        send(ws, "start")
        # the plug-in plays: its seats' moves reach the human's socket
        bot_moves, last_turn = 0, None
        while bot_moves < 6:
            frame = until(ws, lambda f: f["t"] == "update")
            view = frame["d"]["view"]
            assert not view.get("finished")
            if last_turn in (1, 2, 3) and view.get("turn") != last_turn:
                bot_moves += 1
            last_turn = view.get("turn")
            if my_turn(frame):
                send(ws, "act", a=72 if view["belote"] and view["turn"] != 0
                     else first_legal(view))
    page = client.get(f"/table/{table}")
    assert page.status_code == 200
print("room ok")
'''


def _wheel(folder: Path) -> Path:
    """The tiny plug-in as a wheel, written as any build backend would (no build backend
    needed: the test runs offline)."""
    name, version = "belote_tiny_bot", "0.1"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{name}.py": TINY_BOT,
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: belote-tiny-bot\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
        f"{info}/entry_points.txt": ENTRY_POINTS,
    }
    record = [f"{path},sha256={_digest(text)},{len(text.encode())}"
              for path, text in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def _digest(text: str) -> str:
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny plug-in installed by pip (from its wheel, no network) into a folder of its
    own: its entry point is found by whatever Python has the folder on its path."""
    base = tmp_path_factory.mktemp("plugin")
    target = base / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         "--disable-pip-version-check", "--target", str(target), str(_wheel(base))],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (target / "belote_tiny_bot-0.1.dist-info" / "entry_points.txt").exists()
    return target


def _run(args: list[str], cwd: Path, *path: Path) -> subprocess.CompletedProcess[str]:
    """``args`` run as a user would, from ``cwd``, with ``path`` (this checkout, the
    plug-in's folder) on PYTHONPATH; never the current directory."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in path)
    env["COLUMNS"] = "200"  # Rich's tables in full
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600,
                          env=env)


def _console_script() -> Path:
    """The ``belote`` console script of the environment running the tests (pip wrote it
    from ``[project.scripts]``)."""
    script = Path(sys.executable).parent / "belote"
    assert script.exists() and "belote.cli" in script.read_text(), script
    return script


def test_belote_arena_module_class_fails_from_the_console_script(
        plugin_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "cwd_bot.py").write_text(CWD_BOT)
    script = str(_console_script())
    done = _run([script, "arena", "cwd_bot:CwdBot", "random", "--deals", "2",
                 "--preset", "classic"], tmp_path, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "cwd_bot:CwdBot" in done.stdout and "No module named" not in done.stderr
    # the installed entry point works from the console script too
    done = _run([script, "arena", "tiny", "random", "--deals", "2", "--preset", "classic"],
                tmp_path, ROOT, plugin_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "│ tiny " in done.stdout


def test_an_installed_bot_plugin_makes_the_lobby_answer_500_and_the_socket_raise(
        plugin_dir: Path, tmp_path: Path) -> None:
    check = tmp_path / "room_check.py"
    check.write_text(textwrap.dedent(ROOM_CHECK))
    env_root = tmp_path / "room"
    env_root.mkdir()
    done = _run([sys.executable, str(check), str(env_root), str(ROOT)], tmp_path, ROOT,
                plugin_dir)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert "room ok" in done.stdout
