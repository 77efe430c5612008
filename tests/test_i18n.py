"""The Chinese edition: every page in both languages, the same executed blocks, one word per term."""
import ast
import io
import re
import tokenize

import pytest
import yaml
from helpers import ROOT

from eager_vs_compiled.pages import glossary, lang, zh
from eager_vs_compiled.pages.zhstyle import cjk_spacing_problems

DOCS = ROOT / "docs"
DIRECTIVE = re.compile(r"^[ \t]*\{\{ *\w+\(.*?\) *\}\}[ \t]*$", re.M)


def english_pages() -> list:
    return sorted(p for p in [*DOCS.rglob("*.md"), *DOCS.glob("tutorials/*_tutorial.py")]
                  if ".zh." not in p.name)


def chinese(page):
    return page.with_name(f"{page.stem}.zh{page.suffix}")


def test_every_page_has_its_other_language_and_no_page_is_alone():
    missing = [p.relative_to(DOCS).as_posix() for p in english_pages() if not chinese(p).is_file()]
    orphans = [p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.zh.*")
               if not p.with_name(p.name.replace(".zh.", ".")).is_file()]
    assert not missing, f"pages with no Chinese edition: {missing}"
    assert not orphans, f"Chinese pages with no English one: {orphans}"


@pytest.mark.parametrize("page", english_pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_both_editions_of_a_page_execute_the_same_blocks(page):
    """Directives (snippets, records, reports) run once and show in both: a pair lists the same ones,
    in the same order; a notebook pair has the same code cells, token for token: only the `#`
    comments differ, each in its page's language."""
    en, zh_text = page.read_text(encoding="utf-8"), chinese(page).read_text(encoding="utf-8")
    if page.suffix == ".py":
        def code_cells(text):
            cells = re.split(r"^# %%.*$", text, flags=re.M)
            heads = re.findall(r"^# %%.*$", text, flags=re.M)
            def tokens(code):
                return [(t.type, t.string) for t in tokenize.generate_tokens(io.StringIO(code + "\n").readline)
                        if t.type not in (tokenize.COMMENT, tokenize.NL)]
            return [tokens(c.strip()) for h, c in zip(heads, cells[1:]) if "[markdown]" not in h]
        en_cells, zh_cells = code_cells(en), code_cells(zh_text)
        assert en_cells and en_cells == zh_cells
        return
    strip = lambda found: [d.strip() for d in found]  # noqa: E731
    assert strip(DIRECTIVE.findall(en)) == strip(DIRECTIVE.findall(zh_text))
    assert en.count("```") == zh_text.count("```"), "a fenced block was added or lost in translation"


def test_the_chinese_pages_use_the_glossarys_word_for_each_term():
    found = []
    for page in DOCS.rglob("*.zh.*"):
        if page.name == "glossary.zh.md":  # it names the variants it refuses
            continue
        text = page.read_text(encoding="utf-8")
        for term in glossary.TERMS:
            found += [f"{page.relative_to(DOCS)}: {bad!r} (say {term.zh!r})" for bad in term.avoid if bad in text]
    assert not found, found


def test_the_render_layers_chinese_uses_the_glossarys_word_for_each_term():
    """The phrases of pages/zh.json render on Chinese pages too: the same words are refused there."""
    found = [f"{en!r}: {bad!r} (say {term.zh!r})" for en, text in zh.WORDS.items()
             for term in glossary.TERMS for bad in term.avoid if bad in text]
    assert not found, found


def test_the_chinese_edition_quotes_with_curly_quotes_only():
    """“” everywhere, never the corner brackets 「」 that some pages had drifted to."""
    texts = {page.relative_to(DOCS).as_posix(): page.read_text(encoding="utf-8")
             for page in DOCS.rglob("*.zh.*")}
    texts |= {f"zh.json {en!r}": text for en, text in zh.WORDS.items()}
    found = [where for where, text in texts.items() if "「" in text or "」" in text]
    assert not found, found


@pytest.mark.parametrize(("text", "problems"), [
    ("在 GPU 上运行 `torch.compile`，第 3 行。", []),  # spaced Latin, digits; full-width punctuation
    ("在GPU 上", ["no space between a Latin letter or digit and a Chinese character"]),
    ("在 GPU上", ["no space between a Latin letter or digit and a Chinese character"]),
    ("第3行", ["no space between a Latin letter or digit and a Chinese character"] * 2),
    ("编译很慢,然后", ["half-width punctuation directly after a Chinese character"]),
    ("为什么?", ["half-width punctuation directly after a Chinese character"]),
    ("CUDA Graphs: 重放", []),  # half-width after a Latin word is English punctuation
    ("先预热。 然后计时", ["a space after full-width punctuation"]),
    ("加速比（eager） 更快", ["a space after full-width punctuation"]),
    ("先预热。\n然后计时", []),  # a line break is not a space
    ("（GPU）上、CPU 上", []),  # full-width brackets need no space
    ("重放 CUDA Graph需要 CUDA GPU", ["no space between a Latin letter or digit and a Chinese character"]),
    ("only English, no Chinese: 3 s, 2x", []),
    ("叫作“守卫”的检查，报“No working C++ compiler found”时", []),  # curly quotes sit tight against Chinese
    ("叫作 “守卫” 的检查", ["a space between a quotation mark and a Chinese character"] * 2),
    ("会抛出 “Could not guard”。", ["a space between a quotation mark and a Chinese character"]),
    ("“ 守卫”和“图中断\u3000”", ["a space between a quotation mark and a Chinese character"] * 2),
    ("the “eager” mode, then `x` “y”", []),  # English quoting is English
])
def test_cjk_spacing_problems_finds_each_rule_and_nothing_else(text, problems):
    found = cjk_spacing_problems(text)
    assert [f.partition(":")[0] for f in found] == problems, found
    assert all(f.count("…") == 2 for f in found), "each problem shows the text around it"


def test_every_glossary_link_points_at_a_page_of_the_site():
    for term in glossary.TERMS:
        assert (DOCS / term.where.partition("#")[0]).is_file(), term


def _tr_phrases() -> list[str]:
    """Every literal the render layer passes to `tr`."""
    out = []
    for path in sorted((ROOT / "src" / "eager_vs_compiled" / "pages").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args:
                arg = node.args[0]
                options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                out += [o.value for o in options if isinstance(o, ast.Constant) and isinstance(o.value, str)]
    return out


def test_every_phrase_of_the_render_layer_has_its_chinese():
    phrases = _tr_phrases()
    assert len(phrases) > 50, "the scan found too few phrases to be looking at the right code"
    missing = sorted({p for p in phrases if p not in zh.WORDS})
    assert not missing, f"add to pages/zh.json: {missing}"


def test_a_phrase_with_no_chinese_fails_the_chinese_page_naming_it():
    with lang.using("zh"), pytest.raises(KeyError, match="a phrase nobody translated"):
        lang.tr("a phrase nobody translated")
    with lang.using("en"):
        assert lang.tr("Measured on {machine}", machine="x") == "Measured on x"
    with lang.using("zh"):
        assert lang.tr("Measured on {machine}", machine="x") == "测量于 x"


def test_the_chinese_phrases_keep_the_placeholders_of_their_english():
    """Every value the English fills in shows in the Chinese too; only `{s}`, the English plural, may go."""
    bad = {en: text for en, text in zh.WORDS.items()
           if set(re.findall(r"\{(\w*)\}", en)) - {"s"} != set(re.findall(r"\{(\w*)\}", text))}
    assert not bad, bad


def test_the_chinese_nav_translates_every_title():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    i18n = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    words = next(lang_["nav_translations"] for lang_ in i18n["languages"] if lang_["locale"] == "zh")

    def titles(items):
        for item in items:
            if isinstance(item, dict):
                for title, value in item.items():
                    yield title
                    if isinstance(value, list):
                        yield from titles(value)

    untranslated = [t for t in titles(config["nav"]) if t not in words]
    assert not untranslated, f"nav titles with no Chinese: {untranslated}"
