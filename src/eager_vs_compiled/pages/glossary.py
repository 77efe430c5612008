"""The glossary: one Chinese word per English term, and where the site explains it.

Both editions render it (the {{ glossary() }} directive); the Chinese pages use the `zh` word of
each term, and a test refuses the variants listed in `avoid` on Chinese pages, so a term reads the
same on every page. English API names stay as code in both editions and are not listed here.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    en: str
    zh: str
    where: str  # a docs page (and anchor) that explains it
    avoid: tuple[str, ...] = ()  # other Chinese renderings that must not appear on Chinese pages


TERMS: tuple[Term, ...] = (
    # How compile works
    Term("eager mode", "eager 模式", "explanation/eager-mode.md", ("急切模式", "即时模式")),
    Term("graph break", "图中断", "troubleshooting/graph-breaks.md", ("图断裂", "断图", "图打断")),
    Term("guard", "守卫", "explanation/how-compile-works.md#look-inside-graphs-guards-and-a-graph-break",
         ("守护条件",)),
    Term("recompilation", "重编译", "troubleshooting/recompilations.md", ("重新编译次数",)),
    Term("operator fusion", "算子融合", "explanation/what-compile-optimises.md#operator-fusion",
         ("运算符融合", "操作融合")),
    Term("operator", "算子", "explanation/eager-mode.md#what-one-operation-costs", ("运算符",)),
    # dispatch is what the dispatcher (分发器) does to an operator; shipping a model is 交付 (below)
    Term("dispatch (an operator)", "分发", "explanation/eager-mode.md#what-happens-on-z-x-y", ("分派", "派发")),
    Term("pointwise / elementwise", "逐元素", "benchmarks/pointwise.md", ("逐点", "按元素")),
    # the short words, as torch says forward / backward; 反向传播 is the textbook's whole phrase
    Term("forward / backward (pass)", "前向 / 反向", "explanation/memory.md#what-the-backward-keeps",
         ("前向传播", "反向传播", "正向传播", "后向传播")),
    # 内核, not 核函数 (one source article's word): where 内核 could be read as the OS kernel, a page
    # writes 内核（kernel）; the glossary page names 核函数 as the other word readers meet.
    Term("kernel", "内核", "explanation/how-compile-works.md#look-inside-the-generated-kernel", ("核函数",)),
    Term("lowering", "lowering", "explanation/how-compile-works.md#the-pipeline", ("下沉", "降级")),
    Term("tracing", "追踪", "explanation/how-compile-works.md#the-pipeline", ("跟踪",)),
    Term("FX graph", "FX 图", "explanation/how-compile-works.md#the-pipeline"),
    Term("frame (Python)", "栈帧", "explanation/how-compile-works.md#compilation-is-lazy"),
    Term("backend", "后端", "how-to/debug-compiled-code.md#which-stage-backend-ablation"),
    Term("compile mode", "编译模式", "how-to/choose-a-mode.md#the-modes"),
    Term("autotuning", "自动调优", "how-to/choose-a-mode.md#the-modes"),
    Term("Python overhead", "Python 开销", "explanation/what-compile-optimises.md#python-overhead"),
    Term("launch overhead", "启动开销", "explanation/what-compile-optimises.md#launch-overhead-cuda-graphs"),
    # the feature is CUDA Graphs, one recorded graph a CUDA Graph (no plural in Chinese to tell them
    # apart), torch's manager of them CUDAGraph Trees, as its documentation spells it
    Term("CUDA Graphs", "CUDA Graphs", "troubleshooting/reduce-overhead-not-faster.md",
         ("CUDA 图", "CUDA Graph Trees")),
    Term("replay (a CUDA graph)", "重放", "explanation/what-compile-optimises.md#launch-overhead-cuda-graphs",
         ("回放",)),
    Term("stance", "stance",
         "how-to/debug-compiled-code.md#is-it-the-compiler-and-which-compiled-function-set_stance", ("姿态",)),
    Term("memory traffic", "内存访问量", "explanation/what-compile-optimises.md#memory-traffic"),
    Term("materialise", "物化", "explanation/eager-mode.md#what-happens-on-z-x-y", ("实体化",)),
    Term("in-place", "原地", "explanation/how-compile-works.md#the-pipeline", ("就地",)),
    # Shapes
    Term("dynamic shapes", "动态形状", "explanation/dynamic-shapes.md", ("动态尺寸",)),
    Term("static shape", "静态形状", "explanation/dynamic-shapes.md#why-sizes-become-symbols"),
    Term("batch size", "批大小", "troubleshooting/dynamic-shapes.md",
         ("批量", "批次大小", "batch size")),
    Term("stride", "步长", "explanation/how-compile-works.md#look-inside-graphs-guards-and-a-graph-break",
         ("步幅",)),
    Term("symbolic size (SymInt)", "符号尺寸", "explanation/dynamic-shapes.md#why-sizes-become-symbols"),
    Term("automatic dynamic", "自动动态", "explanation/dynamic-shapes.md#automatic-dynamic-call-by-call"),
    Term("specialization", "特化", "explanation/dynamic-shapes.md#why-0-and-1-are-special", ("专门化",)),
    # kept in English as torch writes them (backed / unbacked SymInt), glossed once on the page
    Term("backed / unbacked symbol", "backed / unbacked 符号",
         "explanation/dynamic-shapes.md#backed-and-unbacked-symbols", ("有提示值", "无提示值")),
    Term("data-dependent", "数据相关", "how-to/dynamic-control-flow.md", ("数据依赖型",)),
    Term("fall back (to eager)", "回退", "troubleshooting/recompilations.md#cause", ("退回",)),
    # Cost of compiling
    Term("first call", "首次调用", "troubleshooting/slow-first-call.md", ("第一次调用", "初次调用")),
    Term("compile time", "编译时间", "troubleshooting/slow-first-call.md#cause", ("编译耗时",)),
    Term("cold compile", "冷编译", "troubleshooting/slow-first-call.md", ("冷启动编译",)),
    Term("warm compile", "热编译", "benchmarks/methodology.md#derived-numbers"),
    Term("compile cache", "编译缓存", "how-to/cache-compiled-code.md"),
    Term("regional compilation", "区域编译", "how-to/compile-a-region.md", ("局部编译",)),
    Term("break-even", "回本点", "benchmarks/methodology.md#derived-numbers", ("盈亏平衡点", "收支平衡点")),
    # Measuring
    Term("time per call", "每次调用耗时", "benchmarks/methodology.md#derived-numbers",
         ("每次调用时间", "每次调用的时间", "单次调用耗时")),
    Term("bootstrap (interval)", "自助法", "benchmarks/methodology.md#derived-numbers", ("bootstrap", "自举")),
    Term("speedup", "加速比", "benchmarks/methodology.md#derived-numbers"),
    Term("median", "中位数", "benchmarks/methodology.md#timing"),
    Term("interquartile range (IQR)", "四分位距", "benchmarks/methodology.md#timing"),
    Term("confidence interval", "置信区间", "benchmarks/methodology.md#derived-numbers"),
    Term("noise floor", "噪声基底", "benchmarks/releases.md#what-the-measurements-show",
         ("噪声底线", "噪音底线", "底噪")),
    Term("throughput", "吞吐量", "benchmarks/methodology.md#derived-numbers"),
    Term("peak memory", "峰值内存", "explanation/memory.md#measured-peak-memory-of-the-process"),
    Term("GPU memory", "显存", "explanation/memory.md#measured-peak-memory-of-the-process",
         ("GPU 内存", "CUDA 内存", "设备内存")),
    Term("host memory", "内存", "explanation/memory.md#measured-peak-memory-of-the-process"),
    Term("warm-up", "预热", "how-to/benchmark-correctly.md#the-rules", ("热身",)),
    Term("steady-state call", "稳态调用", "benchmarks/methodology.md#one-workload-step-by-step",
         ("稳定调用",)),
    Term("harness", "测量框架", "benchmarks/methodology.md", ("测量工具",)),
    Term("profile (`cpu`, `gpu`)", "预设", "benchmarks/add-your-machine.md#the-one-command",
         ("`cpu` 配置", "`gpu` 配置", "cpu 配置", "gpu 配置")),
    Term("error bar (whisker)", "误差线", "benchmarks/methodology.md#derived-numbers", ("误差须",)),
    Term("roofline", "Roofline 模型", "benchmarks/resnet50-recipe.md#the-best-recipe-we-found",
         ("屋顶线",)),
    Term("workload", "工作负载", "benchmarks/index.md"),
    Term("measurement record", "测量记录", "benchmarks/methodology.md#what-makes-a-record-stale"),
    Term("snippet", "代码片段", "reference/snippets.md"),
    # Training and memory
    Term("activation", "激活值", "explanation/memory.md#what-the-backward-keeps"),
    Term("recomputation", "重计算", "how-to/compile-a-training-loop.md#trade-memory-for-speed-activation_memory_budget",
         ("再计算",)),
    Term("mixed precision", "混合精度", "how-to/compile-a-training-loop.md#compile-the-step-model-and-loss-backward-optimizer"),
    Term("gradient accumulation", "梯度累积",
         "how-to/compile-a-training-loop.md#accumulate-gradients-without-recompiling", ("梯度累加",)),
    Term("freezing", "冻结", "benchmarks/resnet50-recipe.md#the-best-recipe-we-found"),
    # Site words
    Term("recipe (troubleshooting)", "排错方案", "troubleshooting/index.md"),
    Term("recipe (settings)", "配方", "benchmarks/resnet50-recipe.md#the-best-recipe-we-found"),
    Term("knob (of a recipe)", "调节项", "benchmarks/resnet50-recipe.md#the-best-recipe-we-found", ("旋钮",)),
    Term("claim", "论断", "claims/index.md"),
    Term("source article", "原文", "claims/index.md", ("源文章",)),
    Term("verdict", "结论", "claims/index.md"),
    Term("symptom", "症状", "troubleshooting/index.md"),
    Term("minifier", "最小化工具", "how-to/debug-compiled-code.md#shrink-it-to-a-reproducer-the-minifier"),
    Term("reproducer", "复现程序", "how-to/debug-compiled-code.md#shrink-it-to-a-reproducer-the-minifier",
         ("复现用例", "复现代码", "复现脚本")),
    Term("ship (a model, an artifact)", "交付", "how-to/deploy.md", ("要分发的", "分发产物", "分发权重")),
    # Python's own words stay as Python prints them
    Term("traceback", "traceback", "troubleshooting/lazy-compile-errors.md#symptom", ("回溯", "堆栈跟踪")),
    Term("docstring", "docstring", "how-to/compile-options.md#2-pick-a-mode", ("文档字符串",)),
    Term("minor version", "次版本", "troubleshooting/python-version.md#cause", ("小版本", "次要版本")),
)

SECTIONS = {  # the nav's sections, for the nav translations and the glossary's own table
    "Home": "首页", "Tutorials": "教程", "How-to": "操作指南", "Troubleshooting": "故障排查",
    "Explanation": "原理解析", "Benchmarks": "基准测试", "Claims checked": "原文论断核查", "Reference": "参考",
}


def glossary() -> str:
    """The table of terms: English, the Chinese word the Chinese pages use, and where it is explained."""
    from .lang import tr

    head = [tr("English term"), tr("Chinese term"), tr("Explained in")]
    lines = ["| " + " | ".join(head) + " |", "|---|---|---|"]
    for term in sorted(TERMS, key=lambda t: t.en.lower()):
        where = term.where.partition("#")[0].removesuffix(".md")  # the i18n plugin links each edition to its own
        lines.append(f"| {term.en} | {term.zh} | [{where}](../{term.where}) |")
    return "\n".join(lines) + "\n"


def jieba_words() -> list[str]:
    """The Chinese terms as one word each, for the search's segmentation (Chinese parts only)."""
    import re

    words = {part for t in TERMS for part in re.findall(r"[\u4e00-\u9fff]{2,}", t.zh)}
    return sorted(words)
