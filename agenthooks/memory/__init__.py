"""Memory tools: inspect, lint, drill, archive and promote .agent/memory/."""
