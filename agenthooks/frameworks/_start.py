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
