"""The Chinese of the render layer: every phrase the page functions pass to `lang.tr`, keyed by its
English (a str.format template; the placeholders are kept). The glossary's terms are used
(pages/glossary.py); a test checks that every phrase has its Chinese and that none is left over.
The phrases live in zh.json beside this file (data, not code); the workload titles of the pointwise
family are made here."""

import json
from pathlib import Path

WORDS: dict[str, str] = json.loads((Path(__file__).with_name("zh.json")).read_text(encoding="utf-8"))
for _n in (1, 2, 4, 8, 16, 32):
    WORDS[f"Pointwise chain, N = {_n}"] = f"逐元素算子链，N = {_n}"
    WORDS[f"{_n} elementwise op(s) (multiply, add, relu in turn) on one large float32 tensor."] = \
        f"在一个很大的 float32 张量上依次执行 {_n} 个逐元素算子（乘、加、relu 轮流）。"
