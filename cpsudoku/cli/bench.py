"""bench: a backend over the public data sets, every answer checked."""

from __future__ import annotations

import typer

from .app import app


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
             add_help_option=False)
def bench(ctx: typer.Context):
    """Benchmark a backend over the public data sets, checking every answer; prints a
    table per set (`cpsudoku bench --help` for the options)."""
    from ..bench import main as bench_main
    code = bench_main(list(ctx.args), prog="cpsudoku bench")
    raise typer.Exit(code or 0)
