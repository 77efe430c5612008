"""The built site in a real browser (Debian's Chromium driven by Playwright), as a reader gets it.

Every page: loads with no console error and no failed request, asks nothing of another host,
shows no traceback, has a copy button on every code block, fits a phone's width, and passes axe-core
with no serious or critical violation. Plus: the palette toggle, search, the benchmark charts and
their provenance, and screenshots kept in a temporary folder (EVC_TEST_ARTIFACTS names another).
"""
import functools
import http.server
import json
import os
import queue
import re
import shutil
import tempfile
import threading
from pathlib import Path
from urllib.parse import urljoin, urlparse

import pytest
from helpers import ROOT, skip_unless_required

# Screenshots go to a temporary folder (the tests leave the checkout alone), or where CI asks for them.
ARTIFACTS = Path(os.environ.get("EVC_TEST_ARTIFACTS") or tempfile.mkdtemp(prefix="evc-screenshots-"))
AXE = ROOT / "tools" / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("EVC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.slow

if CHROMIUM is None:
    skip_unless_required("no Chromium: install Debian's package (`sudo apt-get install chromium`); ./evc.sh test "
                         "installs it when it can. Browser tests skipped.")
try:
    from playwright import sync_api
except ImportError:
    skip_unless_required("playwright is in the test extras: ./evc.sh test")


AXE_PATH = "/__test__/axe.min.js"  # axe-core, served beside the site so that each browser caches it


class _Quiet(http.server.SimpleHTTPRequestHandler):
    empty_index = None  # the search index to serve instead of the site's (bytes), or None

    def log_message(self, *args):
        pass

    def translate_path(self, path):
        if urlparse(path).path == AXE_PATH:
            return str(AXE)
        return super().translate_path(path)

    def do_GET(self):
        if self.empty_index is None or not urlparse(self.path).path.endswith("/search/search_index.json"):
            return super().do_GET()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.empty_index)))
        self.end_headers()
        self.wfile.write(self.empty_index)


def _serve(site_dir, empty_index: bytes | None = None):
    handler = functools.partial(type("Handler", (_Quiet,), {"empty_index": empty_index}), directory=str(site_dir))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


@pytest.fixture(scope="module")
def server(site):
    """The site as built."""
    httpd, url = _serve(site["dir"])
    yield url
    httpd.shutdown()


# On the page visits the search worker gets the site's search configuration (its languages, so their
# scripts still load) with no documents: building the whole index of both editions costs half a CPU
# second to a second per page load, by machine, and none of these checks reads it. Search itself, on the real index, is
# tested below in both languages.
@pytest.fixture(scope="module")
def visit_server(site):
    """The site as built, but for its search index: the same configuration, no documents."""
    index = json.loads((site["dir"] / "search" / "search_index.json").read_text(encoding="utf-8"))
    httpd, url = _serve(site["dir"], json.dumps({"config": index["config"], "docs": []}).encode())
    yield url
    httpd.shutdown()


# No host but this one resolves: the site must work offline, and a request elsewhere fails at once
# (each is also reported as a problem of the page that made it).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-default-apps",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
# Pages are visited by several browsers side by side: a visit mostly waits (for the network to go
# quiet, for axe), so on 2 cores three browsers take well under half the time of one.
BROWSERS = int(os.environ.get("EVC_TEST_BROWSERS") or 3)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def urls(site, visit_server):
    found = []
    for page in sorted(site["dir"].rglob("index.html")):
        rel = page.parent.relative_to(site["dir"]).as_posix()
        found.append(visit_server if rel == "." else f"{visit_server}{rel}/")
    assert len(found) >= 10, found
    return found


# The theme shows "Initializing search" until its worker has loaded the index, then the placeholder of its
# translations (the page's __config), answering the empty query. A page without search (a report) is ready.
SEARCH_READY_JS = """() => { const meta = document.querySelector('.md-search-result__meta');
    if (!meta) return true;
    const words = JSON.parse(document.getElementById('__config').textContent).translations;
    return meta.textContent.trim() === words['search.result.placeholder']; }"""


class Tab:
    """A browser tab that opens pages one after another, as a reader goes from page to page, and keeps
    what went wrong while the last one loaded. Nothing is routed: routing would turn off the browser's cache."""

    def __init__(self, context):
        self.page, self.problems, self.host = context.new_page(), [], ""
        self.page.on("request", lambda r: urlparse(r.url).netloc not in (self.host, "")
                     and self.problems.append(f"request to another host: {r.url}"))
        self.page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        self.page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))

    def open(self, url: str) -> "Tab":
        """Load `url` until it has loaded and its search is ready (the last thing a page fetches: the search
        worker's index and language scripts). Conditions, not a quiet time: nothing of the page is still loading
        when the next one is opened, however slow the machine."""
        self.problems, self.host = [], urlparse(url).netloc
        self.page.goto(url, wait_until="load")
        self.page.wait_for_function(SEARCH_READY_JS)
        return self

    def close(self):
        self.page.context.close()


def visit(browser, url: str, **options) -> Tab:
    """`url` in a tab of a fresh context of its own (close it with .close())."""
    return Tab(browser.new_context(**options)).open(url)


# Each page is seen twice: on a desktop in the light scheme, and on a phone in the dark scheme (see _visit).
# Every check of a page is made during those two visits; the tests below assert on what was seen.
VISITS = {"light": {"color_scheme": "light", "permissions": ["clipboard-read", "clipboard-write"]},
          "dark-phone": {"color_scheme": "dark", "viewport": {"width": 390, "height": 844},
                         "is_mobile": True, "has_touch": True}}
# axe-core runs on every visit, over what that visit can add: a full run costs about half a CPU second,
# half of what a visit costs here, and there are some 240 visits. The site's chrome (header, navigation, table of contents, footer) is one
# template: it is checked in full, in both visits, on the section landing pages (FULL_AXE); on the other
# pages the two sidebars are left out. The phone visit in the dark scheme of those pages runs the rules
# whose outcome changes with the colours or the layout (PHONE_RULES); every other rule reads the same
# article the light visit checked (test_the_scoped_axe_runs_still_catch_what_each_visit_is_for plants one of each).
FULL_AXE = {"", "benchmarks/", "claims/", "troubleshooting/"}  # and their Chinese twins
SIDEBARS = [[".md-sidebar--primary"], [".md-sidebar--secondary"]]
PHONE_RULES = ["color-contrast", "link-in-text-block", "scrollable-region-focusable"]
AXE_JS = """async ([context, rules]) => (await axe.run(context || document, rules
        ? {resultTypes: ['violations'], runOnly: {type: 'rule', values: rules}} : {resultTypes: ['violations']}))
    .violations.filter(x => ['serious', 'critical'].includes(x.impact))
    .map(x => `${x.id} (${x.impact}): ${x.nodes.length} nodes, e.g. ${x.nodes[0].target}`)"""


def landing(path: str) -> bool:
    """Whether the page at `path` (relative to the site root, e.g. "zh/benchmarks/") is a section landing page."""
    return path.removeprefix("zh/") in FULL_AXE


def axe_scope(path: str, how: str) -> list:
    """[context, rules] of the axe run for page `path` on visit `how`: None means the whole document, all rules."""
    if landing(path):
        return [None, None]
    return [{"exclude": SIDEBARS}, PHONE_RULES if how == "dark-phone" else None]
SWITCH_JS = """() => [...document.querySelectorAll('.md-select a[hreflang]')].map(a => [a.hreflang, a.href])"""
ORPHAN_TABLES_JS = """() => [...document.querySelectorAll('article table')].filter(t => {
    let el = t.closest('.md-typeset__scrollwrap') || t;
    for (el = el.nextElementSibling; el && !el.matches('table, h1, h2, h3, .md-typeset__scrollwrap');
         el = el.nextElementSibling) { if (el.classList.contains('evc-provenance')) return false; }
    return true; }).length"""


def _copy_checks(v: Tab, seen: dict) -> None:
    blocks = v.page.locator("article pre > code")
    buttons = v.page.locator("article pre button[data-md-type=copy]")  # Material's copy button
    if blocks.count() != buttons.count():
        seen["problems"].append(f"{blocks.count()} code blocks, {buttons.count()} copy buttons")
    for block in v.page.locator("article div.highlight:has(span.filename)").all():
        title = block.locator("span.filename").inner_text().strip()
        if title.startswith("snippets/"):
            block.locator("button[data-md-type=copy]").click()
            text = v.page.evaluate("navigator.clipboard.readText()")
            if text.rstrip("\n") != (ROOT / title).read_text().rstrip("\n"):
                seen["problems"].append(f"copying {title} gave different text")
            seen["copied"].add(title)


def _chart_checks(v: Tab, seen: dict) -> None:
    for chart in v.page.locator("svg.evc-chart:visible").all():  # other machines' charts sit in hidden tabs
        box = chart.bounding_box()
        seen["charts"].append(bool(box and box["width"] > 100 and box["height"] > 50
                                   and chart.locator("path, rect, use").count() > 3))


SCREENSHOTS = ("home", "benchmarks", "benchmarks-pointwise", "benchmarks-resnet50-recipe", "benchmarks-releases",
               "zh", "zh-benchmarks", "zh-troubleshooting-graph-breaks")


def _look(v: Tab, url: str, how: str, seen: dict) -> None:
    """The checks of the page open in `v` as it is shown now (scheme and width of visit `how`)."""
    if AXE.is_file():  # before the copy clicks: their toast fades in and out, and axe would catch it half-opaque
        if not v.page.evaluate("() => typeof axe !== 'undefined'"):
            v.page.add_script_tag(url=urljoin(url, AXE_PATH))
        seen["axe"] = v.page.evaluate(AXE_JS, axe_scope(urlparse(url).path.lstrip("/"), how))
    if how == "dark-phone":
        seen["wide"] = v.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    if unfocusable := v.page.evaluate(UNFOCUSABLE_JS):
        seen["problems"].append(f"{unfocusable} tables or code blocks without tabindex=0 ({how})")
    _chart_checks(v, seen)
    if "/benchmarks/" in url:
        seen["orphans"] = v.page.evaluate(ORPHAN_TABLES_JS)
    name = urlparse(url).path.strip("/").replace("/", "-") or "home"
    if name in SCREENSHOTS:
        v.page.screenshot(path=str(ARTIFACTS / f"{name}-{how}.png"), full_page=how == "light")


SCHEME_JS = "() => document.body.getAttribute('data-md-color-scheme')"


def _toggle_palette(v: Tab, scheme: str) -> None:
    """Switch the open page to `scheme` ("slate" dark, "default" light) with the theme's own toggle.

    Each click waits for the scheme to change; a click that changed nothing (one that landed while the
    header was laid out again after a resize) is made again, up to three times, then it fails naming
    what it saw."""
    seen = []
    for _ in range(3):
        now = v.page.evaluate(SCHEME_JS)
        seen.append(now)
        if now == scheme:
            return
        v.page.locator("form[data-md-component=palette] label:visible").first.click()
        try:
            v.page.wait_for_function(f"s => ({SCHEME_JS})() !== s", arg=now, timeout=10_000)
        except sync_api.TimeoutError:
            continue
    now = v.page.evaluate(SCHEME_JS)
    assert now == scheme, f"{v.page.url}: the palette toggle did not switch to {scheme!r} (schemes seen: {seen + [now]})"


# Every box that may scroll sideways carries tabindex="0" from the HTML on (pages/a11y.py), so a check made
# right after a load or a resize needs no wait: nothing a script does later can make it focusable "in time".
# Material's script takes the attribute off code blocks where the device cannot hover (bundle.*.min.js:
# `d&&r?e.setAttribute("tabindex","0"):e.removeAttribute("tabindex")`); docs/javascripts/a11y.js puts it back.
UNFOCUSABLE_JS = """() => [...document.querySelectorAll('article table, article pre > code, article .highlight-ipynb')]
    .filter(box => box.getAttribute('tabindex') !== '0').length"""


def _visit(tab: Tab, url: str, how: str) -> dict[str, dict]:
    """visit -> what was seen. `how` is a visit of VISITS (a page load in that context), or "both": one load
    on the light desktop, then the same page switched to the dark scheme (the theme's toggle, as a reader
    switches) at a phone's width, then back for the copy clicks. Loading a page costs about as much CPU as
    checking it, so the pages outside FULL_AXE are loaded once; the section landing pages get both loads,
    the dark scheme from the browser's preference and a phone's touch screen included."""
    fresh = lambda: {"problems": [], "copied": set(), "charts": [], "axe": [], "wide": 0, "orphans": 0,  # noqa: E731
                     "switch": {}}
    seen = {"light" if how == "both" else how: fresh()}
    v = tab.open(url)
    if "Traceback (most recent call last)" in v.page.inner_text("body"):
        seen["light" if how == "both" else how]["problems"].append("a traceback is visible")
    if how == "both":
        _look(v, url, "light", seen["light"])
        seen["light"]["problems"] += v.problems
        v.problems, seen["dark-phone"] = [], fresh()
        desktop = v.page.viewport_size
        _toggle_palette(v, "slate")
        v.page.set_viewport_size(VISITS["dark-phone"]["viewport"])
        _look(v, url, "dark-phone", seen["dark-phone"])
        v.page.set_viewport_size(desktop)
        _toggle_palette(v, "default")
        seen["dark-phone"]["problems"] += v.problems
        v.problems, how = [], "light"
    else:
        _look(v, url, how, seen[how])
    if how == "light":
        _copy_checks(v, seen["light"])
        seen["light"]["switch"] = dict(v.page.evaluate(SWITCH_JS))
    seen[how]["problems"] += v.problems
    return seen


def _visitor(todo: queue.SimpleQueue, seen: dict, failed: list) -> None:
    """One browser of its own (Playwright objects belong to the thread that made them), visiting until none is left.

    Its visits of one kind (light desktop, dark phone) go one after another in one tab, so the theme's
    scripts, axe and the search worker's are fetched and compiled once per browser and kind, as a reader's
    browser caches them (a new tab per visit costs a new page process: about 0.4 CPU s a visit on 2 cores)."""
    try:
        with sync_api.sync_playwright() as pw:
            b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            tabs = {how: Tab(b.new_context(**options)) for how, options in VISITS.items()}
            while True:
                try:
                    url, how = todo.get_nowait()
                except queue.Empty:
                    break
                seen[url].update(_visit(tabs["light" if how == "both" else how], url, how))
            b.close()
    except Exception as e:  # noqa: BLE001 -- carried to the main thread, which raises it
        failed.append(e)


@pytest.fixture(scope="module")
def seen(urls):
    """url -> visit -> what was seen there."""
    ARTIFACTS.mkdir(exist_ok=True)
    seen = {url: {} for url in urls}
    todo, failed = queue.SimpleQueue(), []
    for url in urls:
        path = urlparse(url).path.lstrip("/")
        for how in (VISITS if landing(path) else ["both"]):
            todo.put((url, how))
    threads = [threading.Thread(target=_visitor, args=(todo, seen, failed)) for _ in range(BROWSERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        raise failed[0]
    return seen


def test_every_page_loads_cleanly_offline_without_tracebacks(seen):
    bad = {f"{url} [{how}]": s["problems"] for url, visits in seen.items() for how, s in visits.items() if s["problems"]}
    assert not bad, bad


def test_every_snippet_code_block_copies_the_snippet_file(seen):
    copied = set().union(*(s["copied"] for visits in seen.values() for s in visits.values()))
    shown = {f"snippets/{rel}" for md in (ROOT / "docs").rglob("*.md")
             for rel in re.findall(r'snippet\("([^"]+)"\)', md.read_text())}
    assert shown and shown <= copied, f"never copy-tested: {sorted(shown - copied)}"


def test_charts_render_in_both_schemes_and_benchmark_tables_have_provenance(seen):
    charts = [ok for visits in seen.values() for s in visits.values() for ok in s["charts"]]
    assert len(charts) >= 10 and all(charts), f"{charts.count(False)} of {len(charts)} charts empty or tiny"
    orphans = {url: s["orphans"] for url, visits in seen.items() for s in visits.values() if s["orphans"]}
    assert not orphans, f"benchmark tables without a provenance line: {orphans}"


def test_phone_viewport_has_no_horizontal_scrolling(seen):
    wide = {url: visits["dark-phone"]["wide"] for url, visits in seen.items() if visits["dark-phone"]["wide"] > 1}
    assert not wide, f"pixels wider than the phone's screen: {wide}"


def test_axe_finds_no_serious_or_critical_violation(seen):
    if not AXE.is_file():  # then no visit ran axe either
        skip_unless_required("axe-core comes from npm: ./evc.sh test runs `npm ci` in tools/")
    found = {f"{url} [{how}]": s["axe"] for url, visits in seen.items() for how, s in visits.items() if s["axe"]}
    assert not found, found


PLANTED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>planted</title><style>
@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } .faint { color: #222; } }</style></head>
<body><div class="md-sidebar md-sidebar--primary"><img src="data:," width="9" height="9"></div>
<main><article><h1>Planted</h1><p class="faint">Dark grey on black, in the dark scheme only.</p>
<img src="data:," width="9" height="9"></article></main></body></html>"""


@pytest.mark.parametrize("path, how, found", [
    ("how-to/x/", "light", {"image-alt (critical): 1 nodes"}),  # the article's image, not the sidebar's
    ("how-to/x/", "dark-phone", {"color-contrast (serious): 1 nodes"}),  # the dark colours only
    ("zh/troubleshooting/", "dark-phone", {"image-alt (critical): 2 nodes", "color-contrast (serious): 1 nodes"}),
])
def test_the_scoped_axe_runs_still_catch_what_each_visit_is_for(browser, tmp_path, path, how, found):
    if not AXE.is_file():
        skip_unless_required("axe-core comes from npm: ./evc.sh test runs `npm ci` in tools/")
    (tmp_path / "index.html").write_text(PLANTED)
    httpd, url = _serve(tmp_path)
    v = Tab(browser.new_context(**VISITS[how])).open(url)
    v.page.add_script_tag(url=urljoin(url, AXE_PATH))
    seen = {x.split(", e.g.")[0] for x in v.page.evaluate(AXE_JS, axe_scope(path, how))}
    v.close()
    httpd.shutdown()
    assert seen == found


def _editions(url: str, server: str) -> dict[str, str]:
    """The same page in each language: /x/ and /zh/x/."""
    rel = url.removeprefix(server).removeprefix("zh/")
    return {"en": server + rel, "zh": server + "zh/" + rel}


def test_the_language_switch_leads_to_the_same_page_in_the_other_language(seen, visit_server):
    wrong = {url: visits["light"]["switch"] for url, visits in seen.items()
             if visits["light"]["switch"] != _editions(url, visit_server)}
    assert not wrong, f"language menus that lead elsewhere than the page's twin: {dict(list(wrong.items())[:5])}"
    assert any(url.startswith(visit_server + "zh/") for url in seen), "no Chinese page was visited"


def test_choosing_chinese_in_the_menu_opens_the_chinese_page(browser, server):
    v = visit(browser, f"{server}troubleshooting/graph-breaks/")
    v.page.locator(".md-select").first.hover()
    with v.page.expect_navigation():
        v.page.locator('.md-select a[hreflang="zh"]').first.click()
    assert v.page.url == f"{server}zh/troubleshooting/graph-breaks/"
    assert v.page.get_attribute("html", "lang") == "zh" and "图中断" in v.page.inner_text("h1")
    v.close()


def test_search_finds_a_chinese_term_on_the_chinese_graph_breaks_page(browser, server):
    v = visit(browser, f"{server}zh/troubleshooting/graph-breaks/")
    v.page.keyboard.press("/")
    v.page.keyboard.type("图中断", delay=50)  # typed as text, as an input method commits it ...
    v.page.keyboard.press("End")  # ... then a key is released, which is what the theme's search listens to
    # Each typed character searched (the first results may be the answer to "图"): wait for the answer to
    # the whole word, the condition itself; a search that never finds the page fails here, naming it.
    try:
        v.page.wait_for_function("""() => [...document.querySelectorAll('.md-search-result__link')]
            .some(a => a.href.includes('/zh/troubleshooting/graph-breaks/'))""", timeout=15000)
    except sync_api.TimeoutError:
        links = v.page.eval_on_selector_all(".md-search-result__link", "els => els.map(e => e.href)")
        pytest.fail(f"searching 图中断 never listed the graph-breaks page; it listed {links[:10]}")
    v.close()


def test_dark_and_light_toggle(browser, server):
    v = visit(browser, server)
    scheme = lambda: v.page.get_attribute("body", "data-md-color-scheme")  # noqa: E731
    first = scheme()
    second = {"default": "slate", "slate": "default"}[first]
    _toggle_palette(v, second)  # each waits until the page shows the scheme asked for
    _toggle_palette(v, first)
    assert scheme() == first
    v.close()


def test_search_finds_graph_break(browser, server):  # on the real index
    v = visit(browser, server)
    v.page.keyboard.press("/")  # Material's search shortcut, then type as a reader does
    v.page.keyboard.type("graph break", delay=20)
    # the answer to the whole query, not to the "g" typed first (each key searches)
    v.page.wait_for_function("""() => document.querySelectorAll('.md-search-result__item').length >= 1
        && document.querySelector('.md-search-result').innerText.toLowerCase().includes('graph break')""", timeout=15000)
    v.close()


def test_the_standalone_model_report_opens_offline(browser, server):
    v = visit(browser, f"{server}data/reports/my_model_factory-factory.html")
    assert v.page.locator("table").count() >= 1 and "Verdict" in v.page.inner_text("body")
    assert not v.problems, v.problems  # no request to another host, no console error
    v.close()


def test_a_benchmark_tables_csv_downloads_and_parses(browser, server):
    import csv
    import io

    v = visit(browser, f"{server}benchmarks/mlp-transformer/")
    link = v.page.locator("a[download]", has_text="CSV").first
    with v.page.expect_download() as info:
        link.click()
    rows = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8").read())))
    assert rows and {"workload", "mode", "median_s", "speedup_low", "speedup_high"} <= set(rows[0])
    v.close()


# --- A reader pastes the first line of their error into the search box --------------------------------
INDEX_ROWS_JS = """() => [...document.querySelectorAll('article table tbody tr')].map(
    tr => [tr.cells[0].innerText.trim(), tr.cells[1].querySelector('a').href])"""


def as_a_user_would(message: str) -> str:
    """The message as it reads on another machine: other addresses, file paths, sizes, counts and lines."""
    out = re.sub(r"0x[0-9a-fA-F]+", "0x7f3a9c2e4d10", message)
    out = re.sub(r"(?:[\w.~-]*/)+[\w.-]+\.py", "/home/ana/project/train.py", out)
    return re.sub(r"(?<![\w.])\d+(?![\w.])", lambda m: str(int(m.group()) * 3 + 7), out)


def test_a_users_altered_message_is_altered_where_it_varies():
    assert as_a_user_would("hit config.recompile_limit (8) at 0xdeadbeef in snippets/x/y.py:12") == \
        "hit config.recompile_limit (31) at 0x7f3a9c2e4d10 in /home/ana/project/train.py:43"
    assert as_a_user_would("torch._dynamo.exc.Unsupported: float32 sm_61 3.14") == \
        "torch._dynamo.exc.Unsupported: float32 sm_61 3.14"  # names and versions stay


def _search(v: Tab, query: str, paste: bool = False) -> str:
    """The link of the first result for `query` in the search box of the open page: typed, or pasted
    from the clipboard with Ctrl+V as a reader pastes an error (the tab needs the clipboard permissions)."""
    box = v.page.locator("input.md-search__input")
    box.fill("")
    v.page.keyboard.press("End")
    v.page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    if paste:
        v.page.evaluate("text => navigator.clipboard.writeText(text)", query)
        box.focus()
        v.page.keyboard.press("Control+V")
    else:
        box.fill(query)
        v.page.keyboard.press("End")  # the theme's search listens to keys
    first = v.page.locator(".md-search-result__item .md-search-result__link").first
    first.wait_for(timeout=15000)
    return first.get_attribute("href")


@pytest.mark.parametrize("edition", ["", "zh/"], ids=["en", "zh"])
def test_pasting_a_recipes_error_finds_that_recipe_first(browser, server, edition):
    """Every message of the error index, altered as a user's would be, finds its recipe in the same edition first."""
    from eager_vs_compiled.pages import troubleshooting

    v = visit(browser, f"{server}{edition}troubleshooting/", permissions=["clipboard-read", "clipboard-write"])
    rows = v.page.evaluate(INDEX_ROWS_JS)
    assert len(rows) == len(troubleshooting.recipes(ROOT / "docs")) >= 25, rows  # one row per symptom shown
    altered = [as_a_user_would(message) for message, _ in rows]
    assert sum(a != m for a, (m, _) in zip(altered, rows)) >= 5, "too few messages have variable parts to alter"
    v.page.keyboard.press("/")  # Material's search shortcut opens the box
    wrong = []
    for query, (_, recipe) in zip(altered, rows):
        found = urlparse(urljoin(v.page.url, _search(v, query, paste=True)))._replace(query="", fragment="").geturl()  # the page: no highlight query, no anchor
        if found != recipe:
            wrong.append(f"{query!r}: first result {found}, recipe {recipe}")
    v.close()
    assert not wrong, f"{len(wrong)} of {len(rows)} messages found another page first:\n" + "\n".join(wrong)


# Typed as a reader puts the problem in their own words, with no message to paste: not copied from the pages.
# At least one for every recipe, in each edition (the test checks it).
QUESTIONS = {
    "": {
        "hook not called after torch.compile": "troubleshooting/hook-after-compile/",
        "compiled model called from several threads compiles again": "troubleshooting/concurrent-first-calls/",
        "function marked as skipped with fullgraph": "troubleshooting/marked-as-skipped/",
        "graph break inside a for loop runs the whole function eager": "troubleshooting/graph-break-in-loop/",
        "torch.compile model slower than eager": "troubleshooting/no-speedup/",
        "C extension called from my autograd.Function breaks the graph": "troubleshooting/third-party-c-extension/",
        "installed triton version does not match torch": "troubleshooting/triton-version-mismatch/",
        "ptxas does not support my new GPU": "troubleshooting/ptxas-unknown-gpu/",
        "max-autotune keeps logging out of resource shared memory": "troubleshooting/max-autotune-out-of-resource/",
        "torch.compile fails on my Mac with mps": "troubleshooting/mps-compile/",
        "gradient checkpointing breaks the graph in torch.compile": "troubleshooting/checkpoint-graph-break/",
        "output of compiled model changes after I call it again with cuda graphs": "troubleshooting/cudagraphs-overwritten/",
        "torch.compile fails when output size depends on the input values": "troubleshooting/data-dependent-shapes/",
        "recompiles every time the batch size changes": "troubleshooting/dynamic-shapes/",
        "fullgraph=True raises an error I don't understand": "troubleshooting/fullgraph-errors/",
        "recompiles when I switch to torch.no_grad for inference": "troubleshooting/grad-mode-recompile/",
        "print inside compiled function causes a graph break": "troubleshooting/graph-breaks/",
        "try except around torch.compile does not catch the error": "troubleshooting/lazy-compile-errors/",
        "mark_dynamic raises a constraint error": "troubleshooting/mark-dynamic-specialized/",
        "compiled model uses more memory than eager": "troubleshooting/memory-with-compile/",
        "torch.compile fails on a CPU machine without gcc": "troubleshooting/no-cxx-compiler/",
        "compiled model gives slightly different results than eager": "troubleshooting/numerics-differ/",
        "can't load state_dict saved from a compiled model": "troubleshooting/orig-mod-prefix/",
        "which python versions does torch.compile support": "troubleshooting/python-version/",
        "distributed training times out while one GPU is still compiling": "troubleshooting/rank-compile-skew/",
        "model recompiles on every call": "troubleshooting/recompilations/",
        "why is reduce-overhead not speeding up my model": "troubleshooting/reduce-overhead-not-faster/",
        "every transformer layer gets recompiled separately": "troubleshooting/repeated-blocks-recompile/",
        "first call to the compiled model takes very long": "troubleshooting/slow-first-call/",
        "triton cannot find gcc on my GPU server": "troubleshooting/triton-c-compiler/",
        "torch.compile says triton is not installed on GPU": "troubleshooting/triton-cuda-missing/",
    },
    "zh/": {
        "编译之后注册的钩子没有执行": "troubleshooting/hook-after-compile/",
        "多个线程同时调用编译后的模型": "troubleshooting/concurrent-first-calls/",
        "函数被标记为跳过": "troubleshooting/marked-as-skipped/",
        "循环里的图中断让整个函数回退到 eager": "troubleshooting/graph-break-in-loop/",
        "为什么 torch.compile 之后模型没有加速": "troubleshooting/no-speedup/",
        "第三方库的 C 扩展让编译报错": "troubleshooting/third-party-c-extension/",
        "Triton 升级后 AttrsDescriptor 导入失败": "troubleshooting/triton-version-mismatch/",
        "新 GPU 上 Triton 的 ptxas 报错": "troubleshooting/ptxas-unknown-gpu/",
        "max-autotune 日志里一直有 out of resource": "troubleshooting/max-autotune-out-of-resource/",
        "在 Mac 的 MPS 上用 torch.compile 报错": "troubleshooting/mps-compile/",
        # Typed without spaces between the Chinese words, as a reader of Chinese types: the search worker
        # cuts them into the index's words (pages/search_words.js).
        "Triton 与 torch 版本不匹配": "troubleshooting/triton-version-mismatch/",
        "每次调用都重新编译": "troubleshooting/recompilations/",
        "批大小变化后又编译了一遍": "troubleshooting/dynamic-shapes/",
        "用了编译之后内存不够": "troubleshooting/memory-with-compile/",
        "第一次调用特别慢": "troubleshooting/slow-first-call/",
        "多卡训练时有的进程还在编译导致超时": "troubleshooting/rank-compile-skew/",
        "try包住torch.compile却捕获不到编译错误": "troubleshooting/lazy-compile-errors/",
        "保存的模型加载时报缺少键": "troubleshooting/orig-mod-prefix/",
        "编译前后输出的数值不一样": "troubleshooting/numerics-differ/",
        "梯度检查点导致图中断": "troubleshooting/checkpoint-graph-break/",
        "CUDA图的输出被下一次调用覆盖了": "troubleshooting/cudagraphs-overwritten/",
        "输出形状取决于输入数据时编译失败": "troubleshooting/data-dependent-shapes/",
        "fullgraph=True的报错看不懂": "troubleshooting/fullgraph-errors/",
        "切换到no_grad推理后又重新编译": "troubleshooting/grad-mode-recompile/",
        "在编译的函数里用print导致图中断": "troubleshooting/graph-breaks/",
        "mark_dynamic不生效还报错": "troubleshooting/mark-dynamic-specialized/",
        "CPU上编译找不到C++编译器": "troubleshooting/no-cxx-compiler/",
        "torch.compile支持哪些Python版本": "troubleshooting/python-version/",
        "用了reduce-overhead速度也没提升": "troubleshooting/reduce-overhead-not-faster/",
        "每一层都要重新编译一次": "troubleshooting/repeated-blocks-recompile/",
        "Triton找不到C编译器": "troubleshooting/triton-c-compiler/",
        "显卡太旧不能用Triton": "troubleshooting/triton-cuda-missing/",
    },
}


@pytest.mark.parametrize("edition", ["", "zh/"], ids=["en", "zh"])
def test_a_question_in_plain_words_finds_its_recipe_first(browser, server, edition):
    """A question typed in plain words, in the edition's language, finds its recipe in the same edition first."""
    from eager_vs_compiled.pages import troubleshooting

    missing = troubleshooting.recipe_locations(ROOT / "docs") - set(QUESTIONS[edition].values())
    assert not missing, f"recipes with no question in {edition or 'the English edition'}: {sorted(missing)}"
    v = visit(browser, f"{server}{edition}troubleshooting/")
    v.page.keyboard.press("/")  # Material's search shortcut opens the box
    wrong = []
    for question, recipe in QUESTIONS[edition].items():
        found = urlparse(urljoin(v.page.url, _search(v, question)))._replace(query="", fragment="").geturl()
        if found != f"{server}{edition}{recipe}":
            wrong.append(f"{question!r}: first result {found}, recipe {server}{edition}{recipe}")
    v.close()
    assert not wrong, f"{len(wrong)} of {len(QUESTIONS[edition])} questions found another page first:\n" + \
        "\n".join(wrong)


# The worker's cut of a query's Chinese (pages/search_words.js), on an index of a few words: each run of
# Chinese characters is replaced as the theme's search does, the rest of the query is kept as typed.
HAN_WORDS_JS = r"""([source, queries]) => {
    const lunr = {zh: {stopWordFilter: w => ["不", "的", "与", "有"].includes(w) ? undefined : w}};
    const evcHanWords = new Function("lunr", source + "; return evcHanWords;")(lunr);
    const index = {"版本": 1, "匹配": 1, "图": 1, "中断": 1, "图中断": 1, "有误": 1, "误差": 1};
    return queries.map(q => q.replace(/\p{sc=Han}+/gu, (run, at, text) => evcHanWords(run, at, text, index)));
}"""


def test_the_query_cut_finds_the_index_words_and_keeps_the_query_syntax(browser):
    queries = {"版本不匹配": "版本 匹配",  # 不, a stop word, is not in the index: it goes, the words after it stay
               "图中断": "图中断",  # the fewest words: the index's word, not 图 and 中断
               "有误差": "误差",  # 有 (a stop word) and 误差, not 有误 and a 差 the index lacks
               "显卡": "显卡",  # no word of the index: the run as typed
               "torch版本不匹配": "torch 版本 匹配", "Triton 与 torch": "Triton 与 torch",
               "+版本不匹配 -图中断": "+版本 匹配 -图中断", "title:版本": "title:版本", "版本不匹配~1": "版本 匹配~1",
               "版本*": "版本*", "“版本”": "“ 版本 ”"}
    page = browser.new_page()
    source = (ROOT / "src" / "eager_vs_compiled" / "pages" / "search_words.js").read_text(encoding="utf-8")
    found = page.evaluate(HAN_WORDS_JS, [source, list(queries)])
    page.close()
    assert dict(zip(queries, found)) == queries


# The worker's drop of a typed query's English stop words (pages/search_stop_words.js), with a few of
# lunr's stop words; spaces are collapsed here (the theme splits the query at any run of them).
STOP_WORDS_JS = r"""([source, queries]) => {
    const lunr = {stopWordFilter: w => ["a", "after", "i", "in", "my", "not", "the", "to"].includes(w) ? undefined : w};
    const evcTypedWords = new Function("lunr", source + "; return evcTypedWords;")(lunr);
    return queries.map(q => evcTypedWords(q).trim().split(/\s+/).join(" "));
}"""


def test_a_typed_querys_stop_words_go_and_its_last_word_and_syntax_stay(browser):
    queries = {"graph break in a loop": "graph break loop",
               "hook not called after torch.compile": "hook called torch.compile",
               "I switch to inference": "switch inference",
               "in": "in", "graph in": "graph in",  # the last word may be the start of "inductor"
               "+in the loop": "+in loop", "title:in a": "title:in a", "in* loop": "in* loop", "in~1 the": "in~1 the",
               "the 版本 in my 显卡": "版本 显卡"}
    page = browser.new_page()
    source = (ROOT / "src" / "eager_vs_compiled" / "pages" / "search_stop_words.js").read_text(encoding="utf-8")
    found = page.evaluate(STOP_WORDS_JS, [source, list(queries)])
    page.close()
    assert dict(zip(queries, found)) == queries


@pytest.mark.parametrize("query", ["mark_dynamic", "set_stance", "torch._dynamo.explain"])
def test_an_english_api_name_searched_in_the_chinese_edition_finds_a_chinese_page(browser, server, query):
    v = visit(browser, f"{server}zh/")
    v.page.keyboard.press("/")
    found = urljoin(v.page.url, _search(v, query))
    v.close()
    assert found.startswith(f"{server}zh/"), found


def test_a_pasted_message_becomes_the_words_to_search_for(browser, server):
    """Query syntax in a pasted message (quotes, +, ^, :) would break the search; paths, addresses,
    bare numbers, single letters and stop words match nothing the index holds: all become spaces."""
    v = visit(browser, server, permissions=["clipboard-read", "clipboard-write"])
    v.page.keyboard.press("/")
    pasted = ('File "/home/ana/y.py", line 3, in <module>: driver.c:9:10: fatal error: Python.h at 0x7f3a '
              "expected 8, actual 12 (L['x'].size()[1])! TORCH_LOGS=\"+dynamic\" ^~~~ torch._dynamo.exc.Unsupported:")
    _search(v, pasted, paste=True)
    assert v.page.locator("input.md-search__input").input_value() == (
        "File line module driver.c fatal error Python.h expected actual size TORCH_LOGS dynamic "
        "torch._dynamo.exc.Unsupported")
    v.close()


@pytest.mark.parametrize("edition", ["", "zh/"], ids=["en", "zh"])
def test_typed_searches_for_the_sites_own_words_find_pages(browser, server, edition):
    """The theme's lunr once failed on every search for "eager" (an ambiguous key in its automaton,
    mended by pages/search.py): the words a reader types here must find pages, with no worker error."""
    v = visit(browser, f"{server}{edition}")
    v.page.keyboard.press("/")
    for word in ("eager", "compiled", "torch.compile", "mode", "graph", "recompile", "inductor", "cuda"):
        _search(v, word)
    v.close()
    assert not [p for p in v.problems if "Invalid query" in p or "TypeError" in p], v.problems
