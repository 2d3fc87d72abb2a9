"""How every registered command starts a hook: `bash -p HOOK.sh FRAMEWORK ...`.

Privileged mode makes bash read no BASH_ENV or ENV, import no functions from the
environment (`BASH_FUNC_cd%%`, `BASH_FUNC_printf%%`, ...), and ignore SHELLOPTS
(`xtrace`), BASHOPTS, CDPATH and GLOBIGNORE, on bash 3.2 as on 5.x. So nothing the host's
environment holds can print before the hook's output or trace it on stderr, and it costs
no process: it is an option of the bash the command starts anyway. Ownership of an entry
is by the hook's path (`_jsonhooks.OURS_RE`), so an older command without `-p` is
replaced on install and removed on uninstall like the current one."""
from __future__ import annotations

BASH = "bash -p"


# ---- Windows: starting Git Bash from a host's own Windows shell ---------------------------
#
# Hosts that run a hook through PowerShell or cmd.exe on Windows (Copilot CLI's `powershell`
# command, Codex's `commandWindows`) must start Git for Windows' bash.exe by path: `bash` on
# PATH is often C:\Windows\System32\bash.exe, WSL's, which cannot run our hooks against this
# checkout, and the Git for Windows installer's default puts only Git\cmd (git.exe) on PATH, not
# Git\bin. So the bash is looked for where Git for Windows installs it: beside the git.exe on
# PATH (Git\cmd\git.exe -> Git\bin\bash.exe, which also finds a custom install folder), then the
# machine-wide default (%ProgramFiles%\Git) and the per-user one (%LOCALAPPDATA%\Programs\Git).
# No Git Bash: exit 0 quietly, as a hook that finds no repo does. Everything is PowerShell
# builtins: no process is started before bash itself.

def ps_word(text: str) -> str:
    """text as one PowerShell single-quoted (verbatim) string: no $ or backtick expansion;
    a quote inside is doubled."""
    return "'" + text.replace("'", "''") + "'"


FIND_GIT_BASH = (
    "$b = $null; "
    "$g = Get-Command git.exe -CommandType Application -ErrorAction Ignore | Select-Object -First 1; "
    "$c = @(); if ($g) { $c += (Split-Path (Split-Path $g.Source)) + '\\bin\\bash.exe' }; "
    "$c += \"$env:ProgramFiles\\Git\\bin\\bash.exe\"; "
    "$c += \"$env:LOCALAPPDATA\\Programs\\Git\\bin\\bash.exe\"; "
    "foreach ($x in $c) { if (Test-Path -LiteralPath $x -PathType Leaf) { $b = $x; break } }; "
    "if (-not $b) { exit 0 }; "
)


def git_bash_ps(script: str, *args: str) -> str:
    """A PowerShell command line that runs `bash.exe -p SCRIPT ARGS...` with Git for Windows'
    bash (script relative to the working directory, or a PowerShell expression in
    parentheses), passing on the hook's stdin and exit status."""
    target = script if script.startswith("(") else ps_word(script)
    words = " ".join(ps_word(a) for a in args)
    return f"{FIND_GIT_BASH}& $b -p {target} {words}; exit $LASTEXITCODE"


def walk_up_ps(hook: str, *args: str) -> str:
    """git_bash_ps for a host with no project-dir variable: walks up from the working directory
    to the nearest folder holding .agent/hooks/HOOK.sh (none: exit 0), and hands bash the
    script as C:/a/b/... (forward slashes: a path MSYS opens as it is)."""
    rel = f".agent/hooks/{hook}.sh"
    find = ("$d = (Get-Location).ProviderPath; "
            f"while (-not (Test-Path -LiteralPath (Join-Path $d {ps_word(rel)}) -PathType Leaf)) "
            "{ $p = Split-Path -Parent $d; if (-not $p -or $p -eq $d) { exit 0 }; $d = $p }; ")
    return find + git_bash_ps(f"($d.Replace('\\', '/') + {ps_word('/' + rel)})", *args)


def encoded_powershell(script: str) -> str:
    """A command line with no quote, $ or % in it that runs script in Windows PowerShell
    (powershell.exe, on PATH in every Windows 10 and 11): valid alike when a host hands it to
    cmd.exe /C or to PowerShell, where each would read quotes and variables its own way."""
    import base64

    payload = base64.b64encode(script.encode("utf-16-le")).decode("ascii")
    return f"powershell -NoLogo -NoProfile -NonInteractive -EncodedCommand {payload}"
