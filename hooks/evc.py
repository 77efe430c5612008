"""MkDocs hooks: wire the measurement package into the build.

- our logger goes to MkDocs' handlers (so its warnings count in strict mode);
- paths are anchored at the folder of mkdocs.yml, wherever mkdocs is run from;
- a line `{{ snippet("troubleshooting/x.py") }}` in a page is replaced by what that page function
  renders (eager_vs_compiled.pages.DIRECTIVES); a failure stops the build naming page and line;
- each finished page's footer stamp is read from the markers its numbers and outputs carry, and
  so is the build report (the Build object below, which this hook alone owns);
- the executed notebook is cached per machine and torch version (mkdocs-jupyter's own key is
  the notebook text only, which would keep another machine's numbers);
- with the i18n plugin, each edition is a build of its own inside the first one: the Build object
  spans them all (a snippet or a record shown by both editions counts once), each page renders in
  its file's language, and the report and the data files are written after the last edition.
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from eager_vs_compiled import paths

log = logging.getLogger("mkdocs.hooks.evc")
DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\{\{\s*(?P<name>\w+)\((?P<args>.*)\)\s*\}\}[ \t]*$", re.M)


@dataclass
class Build:
    """What this build showed and did: filled from what each page's directives showed, written at the end."""

    t0: float = field(default_factory=time.time)
    nb_cache: Path | None = None
    files: object = None
    records: dict = field(default_factory=dict)  # "slug/workload" -> marker of this machine's release
    snippets: dict = field(default_factory=dict)  # snippet path -> "ran" | "cached" | "skipped"
    shown: set = field(default_factory=set)  # (slug/workload, torch) of every record a page showed
    copies: dict = field(default_factory=dict)  # site data path -> file a page links (a model report)
    editions: list = field(default_factory=list)  # the languages built so far

    def saw(self, marks: list[dict]) -> None:
        for m in marks:
            if m["kind"] == "measured":
                self.shown.add((m["key"], m["torch"]))
            if m["kind"] == "file":
                self.copies[m["dest"]] = m["src"]
            if m["kind"] == "measured" and m.get("mine"):
                self.records[m["key"]] = m
            elif m["kind"] == "ran" and m.get("how") != "notebook":
                # ran beats cached: a snippet run once by this build and then reused by other pages
                if self.snippets.get(m["key"]) != "ran":
                    self.snippets[m["key"]] = m["how"]

    def report(self) -> dict:
        from datetime import datetime

        from eager_vs_compiled import prepare

        # measured for this build: by the prepare step that ran right before it (`./evc.sh site`), if one did
        prepared = prepare.last(self.t0)
        started = datetime.fromisoformat(prepared["started"]) if prepared else datetime.fromtimestamp(self.t0).astimezone()
        measured = sum(1 for m in self.records.values() if datetime.fromisoformat(m["date"]) >= started)
        notebooks = (sum(1 for p in self.nb_cache.glob("**/*") if p.is_file() and p.stat().st_mtime >= self.t0)
                     if self.nb_cache else 0)
        how = list(self.snippets.values())
        return {"editions": self.editions, "measured": measured, "reused": len(self.records) - measured,
                "snippets_ran": how.count("ran"), "snippets_cached": how.count("cached"),
                "snippets_skipped": how.count("skipped"), "notebooks_executed": notebooks,
                "seconds": round(time.time() - self.t0, 1)}


BUILD = Build()  # MkDocs loads a hook module once per build process


def _edition_inside(config) -> str | None:
    """The language of an edition the i18n plugin builds inside the first build, else None."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return None
    if not hasattr(i18n, "building"):
        from eager_vs_compiled.pages import shims

        _shim_failed(shims.ShimOutdated("shim 'i18n-building-flag': the i18n plugin has no `building` attribute"))
    return i18n.current_language if i18n.building else None


def _shim_failed(err: Exception):
    raise PluginError(f"eager-vs-compiled: {err}") from err


def _require_shims(config) -> None:
    """Stop the build at its start where a shim meets a version of its package it does not know."""
    from eager_vs_compiled.pages import shims

    searching = ["lunr-node-key", "han-query-words", "typed-stop-words"] if "search" in config.plugins else []
    used = [*searching, "head-alternate-links"]
    if config.plugins.get("i18n") is not None:
        used.append("i18n-building-flag")
        if config.plugins.get("mkdocs-jupyter") is not None:
            used.append("notebooks-under-i18n")
    if config.plugins.get("mkdocs-jupyter") is not None:
        used.append("notebook-cache-entry")
    try:
        for name in used:
            shims.require(name)
    except shims.ShimOutdated as err:
        _shim_failed(err)


def _language(page) -> str:
    """A page's language: its file's locale under the i18n plugin, else English."""
    return getattr(page.file, "locale", None) or "en"


def on_config(config):
    paths.anchor(Path(config.config_file_path).resolve().parent, Path(config.docs_dir))  # always this build's pages

    ours = logging.getLogger("eager_vs_compiled")
    ours.setLevel(logging.INFO)
    ours.propagate = False
    for handler in logging.getLogger("mkdocs").handlers:
        if handler not in ours.handlers:
            ours.addHandler(handler)

    from eager_vs_compiled import machine, store
    from eager_vs_compiled.pages import context

    ctx = context.use(context.BuildContext(machine.describe(), machine.versions()))  # what every page function reads
    me, versions = ctx.machine, ctx.versions
    _require_shims(config)
    edition = _edition_inside(config)
    jupyter = config.plugins.get("mkdocs-jupyter")
    if edition is not None:  # a later edition of the same build: keep what the first one counted
        BUILD.editions.append(edition)
        if jupyter is not None and BUILD.nb_cache is not None:
            # a cache folder per edition: mkdocs-jupyter evicts what the edition it just built did not use
            jupyter.config["cache_dir"] = str(BUILD.nb_cache / edition)
        return config
    nb_cache = paths.cache() / "notebooks" / f"{me['slug']}-{me['fingerprint']}-torch{versions['torch']}"
    if jupyter is not None:
        jupyter.config["cache_dir"] = str(nb_cache / config.theme.get("language", "en"))
        if store.remeasure_requested():  # execute the notebooks again, and cache the new run
            for old in nb_cache.glob("**/*.json"):
                old.unlink()
    BUILD.__init__(nb_cache=nb_cache, editions=[config.theme.get("language", "en")])
    _teach_search_the_glossary()
    log.info("eager-vs-compiled: building on %s (%s), torch %s", me["slug"], machine.label(me), versions["torch"])
    _run_snippets_first()
    return config


def _run_snippets_first() -> None:
    """Every snippet runs (or is found in the cache) before the first page renders: those that time
    nothing side by side, one per core; those that time something alone, one after another."""
    from eager_vs_compiled import snippets

    t0 = time.perf_counter()
    rels = sorted(p.relative_to(snippets.root()).as_posix() for p in snippets.root().rglob("*.py"))
    counts = snippets.prefetch(rels, os.cpu_count() or 1)
    log.info("eager-vs-compiled: snippets ready in %.0f s (%d that time nothing side by side, %d alone)",
             time.perf_counter() - t0, counts["beside"], counts["alone"])


def _teach_search_the_glossary() -> None:
    """The glossary's Chinese terms as words of jieba, which the search plugin segments Chinese with."""
    try:
        import jieba
    except ImportError:  # the search then indexes Chinese by whole runs of characters
        return
    from eager_vs_compiled.pages import glossary

    jieba.setLogLevel(logging.WARNING)
    for word in glossary.jieba_words():
        jieba.add_word(word)


@event_priority(-110)  # after the i18n plugin, which remakes every file as a plain (localized) one
def on_files(files, config):
    _notebooks_again(files, config)
    BUILD.files = files
    return files


def _notebooks_again(files, config) -> None:
    """Give mkdocs-jupyter its notebook pages back under the i18n plugin.

    mkdocs-jupyter wraps each tutorial `.py` into a page of its own in `on_files`; the i18n plugin
    runs later and remakes every file as a plain `File`, which MkDocs would copy as a static file.
    Wrap them again, keeping the place and URL the i18n plugin gave each edition."""
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None:
        return
    from mkdocs_jupyter.plugin import NotebookFile

    for f in [f for f in files if not isinstance(f, NotebookFile) and jupyter.should_include(f)]:
        nb = NotebookFile(f, **config)
        nb.dest_path, nb.abs_dest_path, nb.url = f.dest_path, f.abs_dest_path, f.url
        files.remove(f)
        files.append(nb)


def on_page_markdown(markdown, page, config, files):
    """Expand the page's one-line directives into what the page functions render, in its language."""
    from eager_vs_compiled import pages
    from eager_vs_compiled.pages import lang, provenance

    lang.set_language(_language(page))
    shown = page.meta["evc_shown"] = []  # what the page's directives showed, for the footer and the report

    def expand(match):
        name, indent = match.group("name"), match.group("indent")
        where = f"{page.file.src_uri}:{markdown.count(chr(10), 0, match.start()) + 1}"
        try:
            text = (_cli_help(match.group("args")) if name == "cli_help"
                    else pages.directive(name, match.group("args")))
        except Exception as err:  # noqa: BLE001 (every failure names the page and the directive)
            raise PluginError(f"{where}: {{{{ {name}(...) }}}} failed: {type(err).__name__}: {err}") from err
        text, marks = provenance.split_markers(text)  # the data stays here: none reaches the published page
        shown.extend(marks)
        return "\n".join(indent + line if line else line for line in text.rstrip("\n").split("\n"))

    return DIRECTIVE.sub(expand, markdown)


def _cli_help(args: str) -> str:
    """`{{ cli_help() }}`: the command's own help, which the hook asks the CLI for (the page layer does
    not import the CLI, which imports the measuring code)."""
    if args.strip():
        raise ValueError(f"cli_help takes no arguments, not {args!r}")
    from eager_vs_compiled import cli

    return cli.help_markdown()


def on_page_content(html, page, config, files):
    """The footer's freshness stamp: when and where this page's numbers and outputs came from."""
    from eager_vs_compiled.pages import context, lang, provenance

    lang.set_language(_language(page))
    marks = list(page.meta.get("evc_shown", []))
    me, versions = context.current().machine, context.current().versions
    run = _notebook_run(page, config) if page.file.src_uri.endswith(".py") and BUILD.nb_cache else None
    if run is not None:  # an executed notebook: the date of its own run, kept in our cache
        date = time.strftime("%Y-%m-%d", time.gmtime(run.stat().st_mtime))
        marks.append({"kind": "ran", "machine": me["slug"], "date": date, "torch": versions["torch"],
                      "key": page.file.src_uri, "how": "notebook"})
    BUILD.saw(marks)
    page.meta["evc_stamp"] = provenance.freshness(me["slug"], versions["torch"], time.strftime("%Y-%m-%d"), marks)
    return html


def _notebook_run(page, config) -> Path | None:
    """The cached run of a notebook page: mkdocs-jupyter's own cache entry for it (shim
    'notebook-cache-entry': its key is computed by the plugin's private function)."""
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is None or not jupyter.should_include(page.file):
        return None
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path

    from eager_vs_compiled.pages import shims

    path = _get_cache_path(jupyter.config["cache_dir"], _compute_cache_key(page.file.abs_src_path, jupyter.config, True))
    try:
        shims.applied("notebook-cache-entry", int(path.is_file()), f"mkdocs-jupyter's cache for {page.file.src_uri}")
    except shims.ShimOutdated as err:
        _shim_failed(err)
    return path


def _write_data(site_dir: Path) -> None:
    """The raw data the pages link to: each shown record as JSON and CSV, each machine as a zip."""
    import zipfile

    from eager_vs_compiled import records, store
    from eager_vs_compiled.pages import downloads

    root = store.default_root()
    out = site_dir / "data"
    for key, torch_version in sorted(BUILD.shown):
        slug, workload = key.split("/", 1)
        path = store.path_for(root, slug, workload, store.release(torch_version))
        if path.exists():
            rec = records.load(path)
            target = out / downloads.relpath(rec, "json")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(rec.to_json(), encoding="utf-8")  # as loaded: validated, derived figures recomputed
            target.with_suffix(".csv").write_text(downloads.to_csv(rec), encoding="utf-8")
    for dest, src in BUILD.copies.items():  # src: under the measurement store (a page never names the checkout)
        (out / dest).parent.mkdir(parents=True, exist_ok=True)
        (out / dest).write_bytes((root / src).read_bytes())
    for slug in store.machines(root):
        files = sorted(p for p in (root / slug).rglob("*.json"))
        if files:
            out.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(out / f"{slug}.zip", "w", zipfile.ZIP_DEFLATED) as z:
                for p in files:
                    z.write(p, p.relative_to(root).as_posix())


@event_priority(-110)  # after the i18n plugin's own post-build, which builds the other editions
def on_post_build(config):
    if _edition_inside(config) is not None:
        return  # the first build writes the data and the report, once every edition is built
    _write_data(Path(config.site_dir))
    _split_search(config)
    report = BUILD.report()
    log.info("eager-vs-compiled: editions %s; measured %d workloads, reused %d records; ran %d snippets, "
             "reused %d cached; executed %d notebooks", "+".join(report["editions"]), report["measured"],
             report["reused"], report["snippets_ran"], report["snippets_cached"], report["notebooks_executed"])
    path = paths.cache() / "last-build.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1))


def _split_search(config) -> None:
    """One search index per edition (see eager_vs_compiled.pages.search), once every edition is built."""
    from eager_vs_compiled.pages import search, shims, troubleshooting

    i18n = config.plugins.get("i18n")
    others = [lang_.locale for lang_ in i18n.config.languages if not lang_.default and lang_.build] if i18n else []
    if (Path(config.site_dir) / "search" / "search_index.json").is_file():
        counts = search.split_by_edition(Path(config.site_dir), others, troubleshooting.recipe_locations())
        try:
            now = search.patch_workers(Path(config.site_dir))
        except shims.ShimOutdated as err:
            _shim_failed(err)
        log.info("eager-vs-compiled: search index per edition: %s; search worker mended: %s, Chinese queries "
                 "cut into the index's words: %s, typed stop words left out: %s", counts,
                 now["lunr-node-key"] or "already", now["han-query-words"] or "already",
                 now["typed-stop-words"] or "already")


_MD_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]+\.(?:md|py))(#[^"]*)?"')


def on_page_context(context, page, config, nav):
    """The language menu of a notebook page leads to the same notebook in the other language.

    The i18n plugin pairs Markdown pages only; a tutorial notebook is a `.py` file to it, so its menu
    would lead to the other language's home. Runs after the plugin set the menu for this page."""
    i18n = config.plugins.get("i18n")
    menu = getattr(config.extra, "alternate", None)  # the plugin sets it as an attribute, page by page
    if i18n is None or not page.file.src_uri.endswith(".py") or not menu:
        return context
    default = next(lang_.locale for lang_ in i18n.config.languages if lang_.default)
    path = page.url
    for lang_ in i18n.config.languages:
        path = path.removeprefix(f"{lang_.locale}/") if not lang_.default else path
    for alt in menu:
        alt["link"] = path if alt["lang"] == default else f"{alt['lang']}/{path}"
    return context


def _page_url(files, src: str, page) -> str:
    """The URL of docs page `src` relative to `page` (a missing page is a warning: strict builds fail)."""
    found = files.get_file_from_path(src) if files is not None else None
    if found is None:
        log.warning("A generated link on '%s' points to '%s', which is not among the documentation files.",
                    page.file.src_uri, src)
        return src
    return found.url_relative_to(page.file)


_HEAD_ALTERNATE = re.compile(r'[ \t]*<link rel="alternate" href="[^"]*" hreflang="[^"]*">\n?')


def on_post_page(output, page, config):
    """Resolve `.md` links that bypassed MkDocs' own link rewriting.

    Also drop the theme's `<link rel="alternate" hreflang>` head links of the i18n plugin: the theme's
    script fetches `sitemap.xml` under each of them (a 404 per page and language, logged as an error
    in the reader's console), and the language menu in the header links each page's twin by itself.

    Markdown generated by markdown-exec blocks and notebook cells reaches the HTML without MkDocs
    turning `other.md` into `other/`. Rewrite each to the page's URL; a target that does not exist
    is a warning, so strict builds fail on it like any other broken link.
    """
    output, dropped = _HEAD_ALTERNATE.subn("", output)
    if getattr(config.extra, "alternate", None) and "<head" in output:
        from eager_vs_compiled.pages import shims

        try:
            shims.applied("head-alternate-links", dropped, f"the head of {page.file.src_uri}")
        except shims.ShimOutdated as err:
            _shim_failed(err)
    from eager_vs_compiled.pages.a11y import focusable_scroll_boxes

    output = focusable_scroll_boxes(output)
    files = BUILD.files
    if files is None:
        return output
    base = posixpath.dirname(page.file.src_uri)
    # Raw-data links (pages/downloads.py): into the site's data/ folder, relative to this page's URL as
    # MkDocs computes it (so with use_directory_urls off too).
    output = re.sub(r'href="evc-data:([^"]*)"', lambda m: f'href="{get_relative_url("data/" + m.group(1), page.url)}"',
                    output)
    # Links to a page of the docs (pages/downloads.py): `evc-page:<path>.md`, to its URL from this page.
    output = re.sub(r'href="evc-page:([^"#]+)', lambda m: f'href="{_page_url(files, m.group(1), page)}', output)

    def fix(match):
        target, anchor = match.group(1), match.group(2) or ""
        src = posixpath.normpath(posixpath.join(base, target))
        found = files.get_file_from_path(src)
        if found is None:
            if f"({target}" in (page.markdown or ""):
                return match.group(0)  # a link of the page's own Markdown: MkDocs has warned already
            log.warning("Doc file '%s' contains a link to '%s', which is not found in the documentation "
                        "files (in generated content).", page.file.src_uri, target)
            return match.group(0)
        return f'href="{found.url_relative_to(page.file)}{anchor}"'

    return _MD_LINK.sub(fix, output)
