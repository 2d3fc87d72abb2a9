"""Install's and uninstall's per-file verdicts, and the writes they imply: classified first
(classify.py, by kind of file: owned.py, shared.py; across files: release.py, retire.py),
written afterwards (apply.py). steps.py holds the plan they share; trust.py what a manifest
may name."""
