"""The built site in a real browser (Debian's Chromium driven by Playwright), as a reader gets it.

Every page: loads with no console error and no failed request, asks nothing of another host,
shows no traceback, has a copy button on every code block, fits a phone's width, and passes axe-core
with no serious or critical violation. Plus: the palette toggle, search, the benchmark charts and
their provenance, and screenshots kept in test-artifacts/.
"""
import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "tools" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("EVC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.slow

if CHROMIUM is None:
    pytest.skip("no Chromium: install Debian's package (`sudo apt-get install chromium`); ./evc.sh test "
                "installs it when it can. Browser tests skipped.", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extras: ./evc.sh test")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_Quiet, directory=str(site["dir"]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--disable-default-apps"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def urls(site, server):
    found = []
    for page in sorted(site["dir"].rglob("index.html")):
        rel = page.parent.relative_to(site["dir"]).as_posix()
        found.append(server if rel == "." else f"{server}{rel}/")
    assert len(found) >= 10, found
    return found


class Visit:
    """A page opened in a fresh context, with everything that went wrong while it loaded."""

    def __init__(self, browser, url, **context):
        self.context = browser.new_context(**context)
        self.problems: list[str] = []
        host = urlparse(url).netloc

        def route(r):
            if urlparse(r.request.url).netloc not in (host, ""):
                self.problems.append(f"request to another host: {r.request.url}")
                return r.abort()
            return r.continue_()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        self.page.goto(url, wait_until="networkidle")

    def close(self):
        self.context.close()


def test_every_page_loads_cleanly_offline_without_tracebacks(browser, urls):
    bad = {}
    for url in urls:
        v = Visit(browser, url)
        text = v.page.inner_text("body")
        if "Traceback (most recent call last)" in text:
            v.problems.append("a traceback is visible")
        if v.problems:
            bad[url] = v.problems
        v.close()
    assert not bad, bad


def test_every_code_block_has_a_copy_button_that_copies_the_snippet_file(browser, urls):
    copied, bad = set(), []
    for url in urls:
        v = Visit(browser, url, permissions=["clipboard-read", "clipboard-write"])
        blocks = v.page.locator("article pre > code")
        buttons = v.page.locator("article pre button[data-md-type=copy]")  # Material's copy button
        if blocks.count() != buttons.count():
            bad.append(f"{url}: {blocks.count()} code blocks, {buttons.count()} copy buttons")
        for block in v.page.locator("article div.highlight:has(span.filename)").all():
            title = block.locator("span.filename").inner_text().strip()
            if not title.startswith("snippets/"):
                continue
            block.locator("button[data-md-type=copy]").click()
            text = v.page.evaluate("navigator.clipboard.readText()")
            expected = (ROOT / title).read_text()
            if text.rstrip("\n") != expected.rstrip("\n"):
                bad.append(f"{url}: copying {title} gave different text")
            copied.add(title)
        v.close()
    assert not bad, bad
    shown = {f"snippets/{rel}" for md in (ROOT / "docs").rglob("*.md")
             for rel in re.findall(r'render\.snippet\("([^"]+)"\)', md.read_text())}
    assert shown and shown <= copied, f"never copy-tested: {sorted(shown - copied)}"


def test_dark_and_light_toggle(browser, urls):
    v = Visit(browser, urls[0])
    scheme = lambda: v.page.get_attribute("body", "data-md-color-scheme")  # noqa: E731
    first = scheme()
    v.page.locator("form[data-md-component=palette] label:visible").first.click()
    second = scheme()
    v.page.locator("form[data-md-component=palette] label:visible").first.click()
    assert {first, second} == {"default", "slate"} and scheme() == first
    v.close()


def test_search_finds_graph_break(browser, urls):
    v = Visit(browser, urls[0])
    v.page.keyboard.press("/")  # Material's search shortcut, then type as a reader does
    v.page.keyboard.type("graph break", delay=20)
    items = v.page.locator(".md-search-result__item")
    items.first.wait_for(timeout=15000)
    assert items.count() >= 1
    assert "graph break" in v.page.locator(".md-search-result").inner_text().lower()
    v.close()


def test_benchmark_charts_render_and_tables_have_provenance(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    for scheme, page in [(s, p) for s in ("default", "slate")
                         for p in ("benchmarks/", "benchmarks/pointwise/", "benchmarks/resnet50-recipe/")]:
        v = Visit(browser, f"{server}{page}", color_scheme="dark" if scheme == "slate" else "light")
        charts = v.page.locator("svg.evc-chart:visible")  # other machines' charts sit in hidden tabs
        assert charts.count() >= 1
        for chart in charts.all():
            box = chart.bounding_box()
            assert box and box["width"] > 100 and box["height"] > 50
            assert chart.locator("path, rect, use").count() > 3
        orphans = v.page.evaluate("""() => [...document.querySelectorAll('article table')].filter(t => {
            let el = t.closest('.md-typeset__scrollwrap') || t;
            for (el = el.nextElementSibling; el && !el.matches('table, h1, h2, h3, .md-typeset__scrollwrap');
                 el = el.nextElementSibling) { if (el.classList.contains('evc-provenance')) return false; }
            return true; }).length""")
        assert orphans == 0, f"{page}: {orphans} benchmark tables without a provenance line"
        name = page.strip("/").replace("/", "-")
        v.page.screenshot(path=str(ARTIFACTS / f"{name}-{scheme}.png"), full_page=True)
        v.close()
    v = Visit(browser, server)
    v.page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)
    v.close()


def test_phone_viewport_has_no_horizontal_scrolling(browser, urls, server):
    bad = {}
    for url in urls:
        v = Visit(browser, url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        wide = v.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wide > 1:
            bad[url] = f"{wide}px wider than the screen"
        if url == server:
            v.page.screenshot(path=str(ARTIFACTS / "home-phone.png"), full_page=False)
        v.close()
    assert not bad, bad


@pytest.mark.skipif(not AXE.is_file(), reason="axe-core comes from npm: ./evc.sh test runs `npm ci` in tools/")
def test_axe_finds_no_serious_or_critical_violation(browser, urls):
    found = {}
    for url in urls:
        for scheme in ("light", "dark"):
            v = Visit(browser, url, color_scheme=scheme)
            v.page.add_script_tag(path=str(AXE))
            violations = v.page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
                .violations.filter(x => ['serious', 'critical'].includes(x.impact))
                .map(x => `${x.id} (${x.impact}): ${x.nodes.length} nodes, e.g. ${x.nodes[0].target}`)""")
            if violations:
                found[f"{url} [{scheme}]"] = violations
            v.close()
    assert not found, found
