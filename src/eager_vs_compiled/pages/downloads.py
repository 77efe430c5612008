"""Raw data for readers: each benchmark table links its record as JSON and as CSV, and each machine's
records as one archive. Pages only write links (`evc-data:` placeholders); the build hook writes the
files into the built site and turns the placeholders into relative links; the reference page
reference/data.md shows readers how to load them (the public `eager_vs_compiled.data`, whose rows
these CSV files are)."""

from __future__ import annotations

from urllib.parse import quote

from .. import store
from ..data import FIELDS as CSV_FIELDS  # noqa: F401 (the columns, one list for the API and the downloads)
from ..data import to_csv as _csv_of
from ..records import Record
from . import docs_root
from .lang import colon, tr
from .provenance import esc

SCHEME = "evc-data:"  # href="evc-data:<slug>/torch-<release>/<workload>.json", resolved by the hook


def relpath(rec: Record, suffix: str) -> str:
    """Where a record's data file lives under the site's data/ folder."""
    rel = store.release(rec.versions["torch"])
    return f"{rec.machine['slug']}/{store.RELEASE_PREFIX}{rel}/{rec.workload}.{suffix}"


DATA_PAGE = "reference/data.md"  # how to load these files (the public eager_vs_compiled.data)


def _data_page_link() -> str:
    """A link to the page on loading records, where this build has it (a small site of a test may not):
    `evc-page:` is resolved by the hook to the page's URL relative to the page that shows it."""
    if not (docs_root() / DATA_PAGE).is_file():
        return ""
    return f'<a href="evc-page:{DATA_PAGE}">' + tr("what to do with them") + "</a> · "


def links(rec: Record) -> str:
    """'Raw data: JSON · CSV · what to do with them · measure it again ...' under a record's table."""
    profile = "" if rec.profile == "cpu" else f" --profile {esc(rec.profile)}"
    # the path in a URL's own escapes: a record's slug or workload never ends the attribute or makes a link
    json_href, csv_href = quote(relpath(rec, "json")), quote(relpath(rec, "csv"))
    return (tr("Raw data") + colon() + f'<a href="{SCHEME}{json_href}" download>JSON</a> · '
            f'<a href="{SCHEME}{csv_href}" download>CSV</a> · '
            + _data_page_link() + tr("measure it again on your machine")
            + colon() + f"`./evc.sh measure --workload {esc(rec.workload)}{profile} --force`\n{{: .evc-data }}\n")


def to_csv(rec: Record) -> str:
    """One row per mode: the figures of the table, the interval of the speedup, the provenance
    (`eager_vs_compiled.data.rows`, which readers call on the files they download)."""
    return _csv_of([rec])


def archive_link(slug: str) -> str:
    return f'<a href="{SCHEME}{esc(slug)}.zip" download>' + tr("all records (zip)") + "</a>"
