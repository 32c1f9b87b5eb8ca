"""backends, variants: what is installed and what rules exist."""

from __future__ import annotations

from .app import app


@app.command("backends")
def list_backends():
    """List the backends: name, available, version, description."""
    from rich.console import Console
    from rich.table import Table

    from .. import backends as registry

    table = Table("backend", "available", "version", "description")
    for name in registry.names():
        backend = registry.load(name)
        available = backend.is_available()
        table.add_row(name, "yes" if available else "no", backend.version(),
                      backend.description)
    Console().print(table)


@app.command()
def variants():
    """List the variant rules (for --rules or a puzzle file's `rules`) and the per-puzzle
    elements a puzzle file can hold, with a one-line description each."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from ..rules import describe_all, describe_elements, get

    rules = Table("rule", "aliases", "description",
                  title="rules (--rules NAME,... or rules = [...]; any alias, any case)")
    for name, text in describe_all():
        aliases = ", ".join(a for a in getattr(get(name), "aliases", ()) if a != name)
        rules.add_row(escape(name), escape(aliases), escape(text))
    elements = Table("key", "description", title="per-puzzle elements (puzzle files)")
    for key, text in describe_elements():
        elements.add_row(escape(key), escape(text))
    console = Console() if Console().is_terminal else Console(width=120)
    console.print(rules)
    console.print(elements)
