"""Config misreads: the hooks' bash reader and the Python reader read config.yaml as PyYAML
reads it (key : value, a BOM, # in quotes, trailing comments, False / No / Off)."""
from __future__ import annotations

from pathlib import Path

import pytest

from support.claude_runs import ALL, repo_for, run


# --- config.yaml is read as YAML reads it -------------------------------------

CONFIGS: dict[str, str] = {
    "space-before-colon": "budget_tokens : 777\nnotes_count  :   3\n",
    "bom": "\ufeffbudget_tokens: 778\n",
    "hash-in-quotes": 'summary_markers: "Summary #1|Recap # 2" # the markers\n'
                      "budget_tokens: 779 # a comment\n",
    "hash-in-single-quotes": "summary_markers: 'It''s #3|x' # c\n",
    "hash-after-a-number": "notes_count: 7   # seven\n",
    "enabled-False": "enabled: False\n", "enabled-No": "enabled: No\n",
    "enabled-Off": "enabled: Off\n", "enabled-OFF": "enabled: OFF\n",
    "enabled-yes": "enabled: yes\nbudget_tokens: 780\n",
}


def yaml_says(text: str) -> dict[str, object]:
    import yaml

    from agenthooks import config

    data = yaml.safe_load(text.lstrip("\ufeff"))
    return {k: data[k] for k in (*config.DEFAULTS, *config.BOOL_DEFAULTS) if k in data}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_python_reader_reads_what_yaml_means(tmp_path: Path, name: str) -> None:
    from agenthooks.config import read

    path = tmp_path / "config.yaml"
    path.write_text(CONFIGS[name], encoding="utf-8")
    want = yaml_says(CONFIGS[name])
    assert want, name
    got = read(path)
    assert {k: got[k] for k in want} == want


@pytest.mark.parametrize("userland", ALL)
def test_the_hooks_read_what_yaml_means(tmp_path: Path, userland: str) -> None:
    from agenthooks import config

    repo, env = repo_for(tmp_path, userland)
    cfg, values = repo / ".agent/config.yaml", repo / ".agent/log/state/config.values"
    ints = [t.key for t in config.TUNABLES if t.bounds]
    wrong = []
    for name, text in sorted(CONFIGS.items()):
        cfg.write_text(text, encoding="utf-8")
        values.unlink(missing_ok=True)
        out = run(repo, "pre_task", env)
        want = {**config.DEFAULTS, **config.BOOL_DEFAULTS, **yaml_says(text)}
        if not want["enabled"]:
            if out.stdout != "" or values.read_text().split()[1] != "0":
                wrong.append(name)
            continue
        head, markers = values.read_text().split("\n")[:2]
        got = dict(zip(ints, (int(v) for v in head.split()[2:-1] if v.isdigit())))  # board: a word
        got["summary_markers"] = markers
        if any(got[k] != want[k] for k in got) or not out.stdout:
            wrong.append(name)
    assert wrong == [], wrong
