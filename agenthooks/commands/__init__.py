"""One module per subcommand; each defines register(app) with its typer signature only."""
