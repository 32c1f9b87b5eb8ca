"""play: the local web page to play, check, get hints and compare solvers."""

from __future__ import annotations

import typer

from .app import app


@app.command()
def play(
    host: str = typer.Option("127.0.0.1", "--host",
                             help="Address to listen on (default: this machine only)."),
    port: int = typer.Option(0, "--port", min=0, max=65535,
                             help="Port (default 0: a free port)."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in a browser."),
):
    """Start the play page's server and print its address; Ctrl-C stops it."""
    from ..web.server import serve

    def ready(url: str) -> None:
        typer.echo(f"cpsudoku play: serving on {url} (Ctrl-C to stop)", err=False)
        if open_browser:
            import webbrowser
            webbrowser.open(url)

    serve(host, port, ready=ready)
