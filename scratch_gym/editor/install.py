"""Fetch and cache the pinned Scratch editor, and find the Chromium binary.

The editor (``@scratch/scratch-gui``, AGPL-3.0) is fetched from the npm registry with ``npm pack``
at set-up time and unpacked into the cache; only what runs offline is kept (the standalone bundle,
its ``chunks/``, ``static/`` and ``libraries/``), not source maps or sources.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from scratch_gym.paths import cache_dir, web_dir

EDITOR_PACKAGE = "@scratch/scratch-gui"
_KEEP_PREFIXES = ("package/dist/chunks/", "package/dist/static/", "package/dist/libraries/")
_KEEP_FILES = {
    "package/dist/scratch-gui-standalone.js": "scratch-gui-standalone.js",
    "package/LICENSE": "LICENSE",
    "package/TRADEMARK": "TRADEMARK",
}
_MARKER = ".scratch-gym-installed"


class EditorNotInstalledError(RuntimeError):
    """The pinned editor is not in the cache; the message says how to install it."""


def pinned_version() -> str:
    """The editor version pinned in ``web/scratch-editor/package.json``."""
    pin = json.loads((web_dir() / "package.json").read_text())
    return pin["dependencies"][EDITOR_PACKAGE]


def editor_root(version: str | None = None) -> Path:
    """Folder served at the web root: holds ``scratch-gui-standalone.js``, ``chunks/``, ``static/``."""
    return cache_dir() / "editor" / (version or pinned_version())


def is_installed(version: str | None = None) -> bool:
    return (editor_root(version) / _MARKER).is_file()


def require_editor() -> Path:
    """The installed editor's root, or a clear error saying how to install it."""
    root = editor_root()
    if not is_installed():
        raise EditorNotInstalledError(
            f"The Scratch editor {EDITOR_PACKAGE}@{pinned_version()} is not installed in {root}. "
            "Run `scratch-gym install` (needs npm and access to the npm registry)."
        )
    return root


def install_editor(force: bool = False, quiet: bool = False) -> Path:
    """Download the pinned editor with ``npm pack`` and unpack what runs offline. Idempotent."""
    version = pinned_version()
    root = editor_root(version)
    if is_installed(version) and not force:
        return root
    npm = shutil.which("npm")
    if npm is None:
        raise EditorNotInstalledError(
            "npm is needed to fetch the Scratch editor; install Node.js/npm."
        )
    root.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root.parent) as tmp:
        if not quiet:
            print(f"fetching {EDITOR_PACKAGE}@{version} with npm pack ...", flush=True)
        out = subprocess.run(
            [npm, "pack", f"{EDITOR_PACKAGE}@{version}", "--json", "--silent"],
            cwd=tmp,
            check=True,
            capture_output=True,
            text=True,
        )
        info = json.loads(out.stdout)[0]
        staging = Path(tmp) / "editor"
        _unpack(Path(tmp) / info["filename"], staging)
        (staging / _MARKER).write_text(
            json.dumps(
                {"package": EDITOR_PACKAGE, "version": version, "integrity": info.get("integrity")}
            )
        )
        if root.exists():
            shutil.rmtree(root)
        os.replace(staging, root)
    if not quiet:
        print(f"editor installed in {root}", flush=True)
    return root


def _unpack(tarball: Path, dest: Path) -> None:
    dest.mkdir(parents=True)
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            name = member.name
            if not member.isfile() or name.endswith(".map"):
                continue
            if name in _KEEP_FILES:
                target = dest / _KEEP_FILES[name]
            elif name.startswith(_KEEP_PREFIXES):
                target = dest / name[len("package/dist/") :]
            else:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            src = tar.extractfile(member)
            assert src is not None
            with src, open(target, "wb") as fh:
                shutil.copyfileobj(src, fh)


CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def find_chromium() -> str:
    """Path of the Chromium binary: ``$SCRATCH_GYM_CHROMIUM``, else the system's chromium."""
    explicit = os.environ.get("SCRATCH_GYM_CHROMIUM")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise FileNotFoundError(f"SCRATCH_GYM_CHROMIUM={explicit} is not an executable file")
        return explicit
    for candidate in (
        *CHROMIUM_CANDIDATES,
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError(
        "No Chromium found. Install it (Debian: `apt-get install -y chromium`) or set SCRATCH_GYM_CHROMIUM."
    )
