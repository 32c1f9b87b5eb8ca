"""What the play page's browser tests share: the server, one Chromium per module, pages
(desktop, a 375x667 phone, the dark scheme), screenshots, and axe-core.

Playwright drives Debian's `chromium`; axe-core (MPL-2.0, not vendored) is installed with
npm into a cache folder on first use, and the accessibility tests skip, saying so, when
npm cannot fetch it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi", reason="the play server needs fastapi (pip install fastapi)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="browser tests need the playwright package "
                                      "(pip install playwright)")

from cpsudoku.web.server import running  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("browser tests need Debian's chromium package (apt-get install chromium)",
                allow_module_level=True)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
INKALA = (ROOT / "examples" / "inkala.txt").read_text().strip().splitlines()[-1]
KILLER = (ROOT / "examples" / "variants" / "killer.toml").read_text()
HAS_LOGIC = importlib.util.find_spec("cpsudoku.logic") is not None
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 667}
AXE_VERSION = "4"


@pytest.fixture(scope="module")
def server():
    with running() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots():
    # A fixed folder by default: pytest prunes its older temporary folders.
    default = Path(tempfile.gettempdir()) / "cpsudoku-artifacts"
    folder = Path(os.environ.get("CPSUDOKU_ARTIFACTS") or default) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_page(browser, viewport=DESKTOP, scheme="light", touch=False):
    context = browser.new_context(viewport=viewport, color_scheme=scheme, has_touch=touch,
                                  is_mobile=touch)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    return tab


@pytest.fixture
def page(browser, shots, request):
    """A desktop page in a fresh context (empty localStorage)."""
    tab = new_page(browser)
    yield tab
    tab.screenshot(path=str(shots / f"{request.node.name}.png"))
    tab.context.close()


def wait_loaded(page):
    page.wait_for_function("document.querySelector('[data-role=status]').textContent"
                           ".includes('loaded')")


def open_puzzle(page, server, text):
    page.goto(f"{server}?puzzle={quote(text)}")
    wait_loaded(page)


def load_pasted(page, text, expect="loaded"):
    page.locator('[data-role="paste"]').fill(text)
    page.locator('[data-action="load"]').click()
    page.wait_for_function("t => document.querySelector('[data-role=status]').textContent"
                           ".includes(t)", arg=expect)


def status(page):
    return page.locator('[data-role="status"]').text_content()


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def has_class(page, name, cls):
    return cls in (cell(page, name).get_attribute("class") or "").split()


def box(page, selector: str, nth: int = 0) -> dict:
    """The nth match's bounding box, read in one step once it exists: the board repaints
    its marks when the server's check comes back, so a located element may be replaced
    between finding it and measuring it."""
    return page.wait_for_function("""([s, n]) => {
        const e = document.querySelectorAll(s)[n];
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height}; }""",
                                  arg=[selector, nth]).json_value()


def show_candidates(page):
    """Auto candidates on, through the settings panel."""
    panel = page.locator('[data-role="settings"]')
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").click()
    page.locator('[data-action="candidates"]').check()
    page.wait_for_selector(".auto text")


def axe_source() -> str:
    """axe.min.js from the npm cache folder, installed there on first use."""
    cache = Path(os.environ.get("CPSUDOKU_NPM_CACHE")
                 or Path.home() / ".cache" / "cpsudoku-tests" / "npm")
    script = cache / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("axe-core needs npm to install it (apt-get install npm)")
        cache.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix",
                                   str(cache), f"axe-core@{AXE_VERSION}"],
                                  capture_output=True, text=True, timeout=180)
        except subprocess.TimeoutExpired:
            pytest.skip("npm could not install axe-core within 180 s (no network?)")
        if done.returncode != 0 or not script.exists():
            pytest.skip(f"npm could not install axe-core: {done.stderr.strip()[-200:]}")
    return script.read_text()


def axe_violations(page, source: str) -> list[dict]:
    """axe-core's WCAG 2 A and AA rules on the page as it is: what they report."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=source)
    return page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
        return r.violations.map(v => ({id: v.id, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
    }""")


def luminance(rgb: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", rgb)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def css(page, selector: str, prop: str) -> str:
    return page.evaluate("([s, p]) => getComputedStyle(document.querySelector(s))[p]",
                         [selector, prop])
