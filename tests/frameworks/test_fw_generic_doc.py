"""The generic example in docs/frameworks.md, run as written in an installed repo."""
from __future__ import annotations

import re
import subprocess

from support.helpers import ROOT, SAMPLE_TATTOO, install, make_repo, write_memory


def example() -> str:
    text = (ROOT / "docs/frameworks.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.S)
    (block,) = [b for b in blocks if "my-agent.sh" in b]
    return block


def test_generic_example_runs(tmp_path):  # type: ignore[no-untyped-def]
    repo = make_repo(tmp_path)
    proc = install(repo, "--framework", "generic")
    assert "bash -p .agent/hooks/pre_task.sh" in proc.stdout
    write_memory(repo, tattoo=SAMPLE_TATTOO)
    (repo / "my-agent.sh").write_text(example())
    run = subprocess.run(["bash", "my-agent.sh"], cwd=repo, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    prompt = (repo / "system_prompt.txt").read_text()
    assert prompt.startswith("You are a careful coding agent.\n\n===== AGENT MEMORY BEGIN =====")
    assert "Indent with 4 spaces" in prompt and "===== AGENT MEMORY END =====" in prompt
    assert (repo / ".agent/log/state/s1.state").is_file()
