"""Raw data for readers: each benchmark table links its record as JSON and as CSV, and each machine's
records as one archive. Pages only write links (`evc-data:` placeholders); the build hook writes the
files into the built site and turns the placeholders into relative links."""

from __future__ import annotations

import csv
import io
from urllib.parse import quote

from .. import store
from ..records import Record
from .lang import colon, tr
from .provenance import esc, interval

SCHEME = "evc-data:"  # href="evc-data:<slug>/torch-<release>/<workload>.json", resolved by the hook
CSV_FIELDS = ["workload", "machine", "torch", "mode", "status", "median_s", "iqr_s", "n", "noisy", "speedup",
              "speedup_low", "speedup_high", "compile_cold_s", "compile_warm_s", "compile_mega_s",
              "peak_memory_bytes", "memory_kind", "max_rel_err", "date"]


def relpath(rec: Record, suffix: str) -> str:
    """Where a record's data file lives under the site's data/ folder."""
    rel = store.release(rec.versions["torch"])
    return f"{rec.machine['slug']}/{store.RELEASE_PREFIX}{rel}/{rec.workload}.{suffix}"


def links(rec: Record) -> str:
    """'Data: JSON · CSV · Reproduce: ...' under a record's table."""
    profile = "" if rec.profile == "cpu" else f" --profile {esc(rec.profile)}"
    # the path in a URL's own escapes: a record's slug or workload never ends the attribute or makes a link
    json_href, csv_href = quote(relpath(rec, "json")), quote(relpath(rec, "csv"))
    return (tr("Raw data") + colon() + f'<a href="{SCHEME}{json_href}" download>JSON</a> · '
            f'<a href="{SCHEME}{csv_href}" download>CSV</a> · ' + tr("measure it again on your machine")
            + colon() + f"`./evc.sh measure --workload {esc(rec.workload)}{profile} --force`\n{{: .evc-data }}\n")


def to_csv(rec: Record) -> str:
    """One row per mode: the figures of the table, the interval of the speedup, the provenance."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in rec.results:
        good = r.status == "ok"  # a wrong answer's speed is not a result: no speedup, no interval
        ci = interval(r) if good else None
        writer.writerow({"workload": rec.workload, "machine": rec.machine.get("slug"), "torch": rec.versions.get("torch"),
                         "mode": r.mode, "status": r.status, "median_s": r.median_s, "iqr_s": r.iqr_s, "n": r.n,
                         "noisy": r.noisy, "speedup": r.speedup if good else None,
                         "speedup_low": ci[0] if ci else None, "speedup_high": ci[1] if ci else None,
                         "compile_cold_s": r.compile_cold_s, "compile_warm_s": r.compile_warm_s,
                         "compile_mega_s": r.compile_mega_s,
                         "peak_memory_bytes": r.peak_memory_bytes, "memory_kind": r.memory_kind,
                         "max_rel_err": r.max_rel_err, "date": rec.date})
    return out.getvalue()


def archive_link(slug: str) -> str:
    return f'<a href="{SCHEME}{esc(slug)}.zip" download>' + tr("all records (zip)") + "</a>"
