"""No number on a page is typed by hand: timings, speedups, percentages and sizes come from records
and captured outputs. Quoted claims of the source articles (blockquote lines, `> `) are exempt."""
import re
from pathlib import Path
from helpers import ROOT

MEASURED = re.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)*(?:\s*[-–]\s*\d+(?:[.,]\d+)*)?\s*"
    r"(?:ms|µs|us|ns|s|sec|seconds?|minutes?|%|×|x|GB|GiB|MB|MiB|KiB|TFLOP/s|GFLOP/s|img/s|images/s|it/s)"
    r"(?![\w/])")
# Chinese runs its words into numbers ("约0.5ms", "快2倍"): only ASCII letters and digits bound a number
MEASURED_ZH = re.compile(
    r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*(?:\s*[-–~～]\s*\d+(?:[.,]\d+)*)?\s*"
    r"(?:ms|µs|us|ns|s|sec|seconds?|minutes?|%|×|x|GB|GiB|MB|MiB|KiB|TFLOP/s|GFLOP/s|img/s|images/s|it/s"
    r"|毫秒|微秒|纳秒|秒|分钟|倍)"
    r"(?![A-Za-z0-9_/])")


def measured(page: Path):
    return MEASURED_ZH if ".zh." in page.name else MEASURED


def markdown_of(path: Path) -> list[str]:
    """A page's Markdown lines; for a jupytext notebook, its Markdown cells (other lines blank)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix != ".py":
        return lines
    out, in_md = [], False
    for line in lines:
        if line.startswith("# %%"):
            in_md = "[markdown]" in line
            out.append("")
        else:
            out.append(line[2:] if in_md and line.startswith("# ") else "")
    return out


def prose_lines(path: Path):
    """(line number, text) of a page's prose: no fenced blocks, inline code, links' URLs
    or blockquotes."""
    fence = None
    for no, line in enumerate(markdown_of(path), 1):
        stripped = line.strip()
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            if fence is None:
                fence = m.group(1)
            elif stripped.startswith(fence) and stripped.strip("`~") == "":
                fence = None
            continue
        if fence is not None or stripped.startswith(">"):
            continue
        text = re.sub(r"`[^`]*`", "", line)          # inline code: APIs and their arguments
        text = re.sub(r"\]\([^)]*\)", "]", text)      # link targets
        text = re.sub(r"\{[#.:][^}]*\}", "", text)      # attribute lists: a heading's {#anchor-id}
        yield no, text


def test_the_pattern_catches_typed_measurements_and_spares_versions():
    hits = lambda s: MEASURED.findall(s)  # noqa: E731
    for typed in ("took 12 ms", "a 1.9x speedup", "2–5×", "30% faster", "24 GB", "3.5 s", "1,200 img/s"):
        assert hits(typed), typed
    for fine in ("PyTorch 2.0", "Python 3.11", "step 3", "in 2023", "x86-64", "sm_80", "0.4 merged"):
        assert not hits(fine), fine
    for typed in ("约0.5ms", "快2倍", "耗时 3.5 秒左右", "提升1.9倍）", "2-5倍", "30%的时间"):
        assert MEASURED_ZH.findall(typed), typed
    for fine in ("PyTorch 2.0 发布", "Python 3.11 以上", "第 3 步", "2023 年", "3 个进程", "ResNet-50 模型"):
        assert not MEASURED_ZH.findall(fine), fine


def test_no_page_types_a_measured_number():
    found = []
    for page in sorted([*(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*_tutorial.py")]):
        for no, text in prose_lines(page):
            for hit in measured(page).finditer(text):
                found.append(f"{page.relative_to(ROOT)}:{no}: {hit.group(0)!r} in: {text.strip()[:120]}")
    why = "typed numbers (render them from a record or a snippet, or quote them as a claim in a '> ' line)"
    assert not found, why + ":\n" + "\n".join(found)


def test_every_python_block_on_a_page_is_executed_by_the_build():
    """Code a reader may copy is a snippet file run by the tests and shown by the build: a page
    holds no hand-typed Python block, only markdown-exec blocks (which print snippets or records)."""
    typed = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for no, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            m = re.match(r"\s*(`{3,}|~{3,})\s*(python|py|pycon)\b(.*)", line)
            if m and 'exec="on"' not in m.group(3):
                typed.append(f"{page.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not typed, "hand-typed Python blocks (make them snippets):\n" + "\n".join(typed)


BUILD_MACHINE_FACT = re.compile(
    r"(?i)\b(?:this|the build'?s?|the building|one) machine\b[^.|]*?\b(?:has|had|lacks|without|no)\s+(?:a\s+)?(?:\w+\s+)?(?:GPUs?|CUDA)\b"
    r"|\bthis (?:site'?s )?build\b[^.|]*?\b(?:runs|ran|is run|has|lacks|without)\b[^.|]*?\b(?:GPUs?|CUDA|CPU|cores?)\b"
    r"|\b(?:not|never) (?:measurable|measured|run|reproduced|reproducible)\b[^.|]*?\b(?:on this machine|here)\b"
    r"|\b(?:here|on this machine)\b[^.|]*?\b(?:no|without) (?:a )?(?:GPUs?|CUDA)\b"
    r"|\bno GPU here\b"
    # the same sentences in the Chinese edition
    r"|(?:本机|这台机器|构建本站的机器|构建机器|此处|这里)[^。|]*?(?:没有|不具备|缺少|无)\s*(?:GPU|CUDA|这样的)")


def test_the_pattern_catches_typed_sentences_about_the_build_machine():
    for typed in ("This machine has no GPU.", "not measurable on this machine: it needs a CUDA GPU",
                  "This site's build runs on one machine without GPUs, so none of that is run here.",
                  "The build machine lacks CUDA.", "Here there is no GPU.", "本机没有 GPU。",
                  "构建本站的机器都不具备这样的 Python", "这里没有 CUDA"):
        assert BUILD_MACHINE_FACT.search(typed), typed
    for fine in ("A CUDA build of torch on a machine without a GPU logs a notice.",
                 "On a CPU-only machine it is shown but not run.", "the snippet runs on any machine",
                 "在没有 GPU 的机器上只显示、不运行。"):
        assert not BUILD_MACHINE_FACT.search(fine), fine


def test_no_page_types_a_fact_about_the_build_machine():
    """Whether the build's machine has a GPU, how many cores, what it could run: rendered from its
    machine facts (render.build_machine), so a GPU build tells the truth too."""
    found = []
    for page in sorted([*(ROOT / "docs").rglob("*.md"), *(ROOT / "docs").rglob("*_tutorial.py")]):
        for no, text in prose_lines(page):
            for hit in BUILD_MACHINE_FACT.finditer(text):
                found.append(f"{page.relative_to(ROOT)}:{no}: {hit.group(0)!r}")
    assert not found, "typed sentences about the build machine:\n" + "\n".join(found)
