"""The Chinese of the render layer: every phrase the page functions pass to `lang.tr`, keyed by its
English (a str.format template; the placeholders are kept). The glossary's terms are used
(pages/glossary.py); a test checks that every phrase has its Chinese and that none is left over."""

WORDS = {
    # --- provenance lines, stamps, units of wording ---------------------------------------------
    "Measured on {machine}": "测量于 {machine}",
    "Measured on {machine} · {when} · torch {torch} · {profile} profile; {what}":
        "测量于 {machine} · {when} · torch {torch} · {profile} 配置；{what}",
    "Measured on {machine} · {when} · torch {torch} · Python {python} · sizes and sample counts per workload on the "
    "[benchmark page](benchmarks/index.md)":
        "测量于 {machine} · {when} · torch {torch} · Python {python} · 各工作负载的规模与样本数见"
        "[基准测试页](benchmarks/index.md)",
    "conditions of each workload beside its table on its family page": "各工作负载的测量条件见其所属分组页面中表格旁的说明",
    "{first} to {last}": "{first} 至 {last}",
    "{threads} threads": "{threads} 个线程",
    "n = {lo}–{hi} samples per mode": "每种模式 n = {lo}–{hi} 个样本",
    "no samples": "无样本",
    "{profile} profile": "{profile} 配置",
    "harness v{version}": "测量工具 v{version}",
    ", commit {commit}": "，提交 {commit}",
    "{label} (this build)": "{label}（本次构建）",
    "{label} (committed)": "{label}（已提交）",
    "Committed records skipped": "已跳过的已提交记录",
    "These records of other machines cannot be read by this version of the site, so they are not shown:":
        "本站的这个版本无法读取其他机器的以下记录，因此不予显示：",
    "Numbers measured": "数据测量",
    "Snippets run": "代码片段运行",
    "Errors captured": "错误捕获",
    "on {machine} ({when}, torch {torch})": "于 {machine}（{when}，torch {torch}）",
    "No measured numbers on this page": "本页没有测量数据",
    ". Built {today} on {slug} with torch {torch}.": "。本页于 {today} 在 {slug} 上用 torch {torch} 构建。",
    ". ": "。",
    "; ": "；",
    ".": "。",
    " and ": "和",
    "none": "无",
    "Raw data": "原始数据",
    "measure it again on your machine": "在你的机器上重新测量",
    "all records (zip)": "全部记录（zip）",
    # --- speed words: they follow the interval --------------------------------------------------
    "faster": "更快",
    "slower": "更慢",
    "no measurable difference": "无可测差异",
    "within the noise": "在噪声范围内",
    "{n} calls": "{n} 次调用",
    "never (slower)": "永不回本（更慢）",
    "— (no measurable difference)": "—（无可测差异）",
    # --- the record table -----------------------------------------------------------------------
    "Mode": "模式",
    "Median ± ½ IQR (n)": "中位数 ± ½ 四分位距 (n)",
    "Throughput": "吞吐量",
    "Speedup vs eager": "相对 eager 的加速比",
    "Compile cold / warm": "编译：冷 / 热",
    "Break-even": "回本点",
    "Peak memory": "峰值内存",
    "Max rel. error": "最大相对误差",
    "Status": "状态",
    "ok ⚠ noisy": "ok ⚠ 噪声大",
    "not shown: output differs from eager": "不显示：输出与 eager 不一致",
    "1× (baseline)": "1×（基线）",
    "{speedup}: {verdict} (eager {eager})": "{speedup}：{verdict}（eager {eager}）",
    "Eager's median differed between processes on this machine ({low} to {high}): compare each mode with the eager "
    "run beside it (the speedup), not absolute times across rows.":
        "在这台机器上，eager 的中位数在不同进程之间有差异（{low} 至 {high}）：请把每种模式与同一进程中的 eager 比较"
        "（即加速比），不要跨行比较绝对时间。",
    # --- benchmark pages ------------------------------------------------------------------------
    "Not measured yet": "尚未测量",
    "This workload is measured in the {profiles} profile only when asked for, and no machine has committed a record "
    "of it yet ({how} writes one; see [add your machine](add-your-machine.md)).":
        "该工作负载在 {profiles} 配置中只按需测量，目前还没有任何机器提交它的测量记录（运行 {how} 即可生成；见"
        "[添加你的机器](add-your-machine.md)）。",
    "This workload is in the {profiles} profile only, and no machine has committed a record of it yet ({how} writes "
    "one; see [add your machine](add-your-machine.md)).":
        "该工作负载只属于 {profiles} 配置，目前还没有任何机器提交它的测量记录（运行 {how} 即可生成；见"
        "[添加你的机器](add-your-machine.md)）。",
    "This machine also measured it with torch {releases}, kept as history: [torch releases compared](releases.md).":
        "这台机器还用 torch {releases} 测量过它，作为历史记录保留：[torch 版本对比](releases.md)。",
    "Workload `{name}`.": "工作负载 `{name}`。",
    "Speedup of torch.compile over eager, every workload, on {machine}; whiskers: 95% interval; grey: no measurable "
    "difference":
        "{machine} 上各工作负载 torch.compile 相对 eager 的加速比；误差线：95% 置信区间；灰色：无可测差异",
    "speedup vs eager (×), same process": "相对 eager 的加速比（×），同一进程",
    "process peak RSS": "进程峰值 RSS",
    "peak CUDA memory allocated": "CUDA 峰值已分配内存",
    "Peak memory, eager vs fastest compiled mode ({what}, MiB), on {machine}":
        "{machine} 上的峰值内存：eager 与最快编译模式（{what}，MiB）",
    "`{mode}` was not measured here ({status}).": "`{mode}` 未在此测量（{status}）。",
    "absent": "缺失",
    "{title}: cumulative time of eager vs `{mode}` (cold compile first) on {machine}":
        "{title}：{machine} 上 eager 与 `{mode}` 的累计时间（先计入冷编译）",
    "they cross after **{calls}**": "两条线在 **{calls}** 后相交",
    "the compiled line never catches up: compiled is slower here": "编译后的曲线始终追不上：这里编译后更慢",
    "the difference per call is inside the noise, so no break-even is given": "每次调用的差异在噪声范围内，因此不给出回本点",
    "Eager {eager} per call; `{mode}` {compiled} per call after a {cold} cold compile ({warm} with a warm cache): "
    "{crossing}.":
        "eager 每次调用 {eager}；`{mode}` 经过 {cold} 的冷编译（缓存命中时热编译 {warm}）后每次调用 {compiled}："
        "{crossing}。",
    "| Workload | Mode | Cold cache | Warm cache | Mega-Cache artifacts | Break-even |":
        "| 工作负载 | 模式 | 冷缓存 | 热缓存 | Mega-Cache 产物 | 回本点 |",
    "| N (eager kernels) | Eager time | Eager traffic | Eager GB/s | Compiled time | Fused traffic (read + write once) "
    "| Compiled GB/s | Speedup |":
        "| N（eager 内核数） | eager 时间 | eager 内存访问量 | eager GB/s | 编译后时间 | 融合后访问量（读写各一次） "
        "| 编译后 GB/s | 加速比 |",
    "compiled (default)": "编译后（default）",
    "Time per call vs chain length on {machine}": "{machine} 上每次调用时间随链长的变化",
    "N, elementwise ops in the chain": "N：链中逐元素算子的个数",
    "ms per call": "每次调用毫秒数",
    "This machine's measured copy bandwidth: **{bw} GB/s**. ": "这台机器实测的拷贝带宽：**{bw} GB/s**。",
    # --- charts ---------------------------------------------------------------------------------
    "not measured": "未测量",
    "compiled": "编译后",
    "compiled (cold compile first)": "编译后（先计入冷编译）",
    "break-even ≈ {n} calls": "回本点 ≈ {n} 次调用",
    "calls": "调用次数",
    "cumulative seconds": "累计秒数",
    "roof: measured matmul peak and copy bandwidth": "屋顶：实测矩阵乘峰值与拷贝带宽",
    "arithmetic intensity (FLOP per byte of eager traffic)": "算术强度（每字节 eager 内存访问的 FLOP 数）",
    "speedup vs eager (×)": "相对 eager 的加速比（×）",
    # --- the home page ----------------------------------------------------------------------------
    "| Workload | Eager (same process) | Best compiled | Speedup | Compile (cold) | Break-even |":
        "| 工作负载 | eager（同一进程） | 最佳编译模式 | 加速比 | 编译（冷） | 回本点 |",
    "no compiled mode finished": "没有编译模式完成",
    "Speedup of torch.compile over eager on {machine}; whiskers: 95% interval":
        "{machine} 上 torch.compile 相对 eager 的加速比；误差线：95% 置信区间",
    # --- snippets ---------------------------------------------------------------------------------
    "Not run on this machine": "未在这台机器上运行",
    "requires {what}": "需要 {what}",
    "This snippet {why}; this build ran on {machine} (torch {torch}).": "该代码片段{why}；本次构建运行在 {machine}（torch {torch}）上。",
    "cached from a run on": "缓存自一次运行，运行于",
    "ran on": "运行于",
    "Noisy timings in this run": "本次运行的计时噪声较大",
    "The snippet measured a spread above its threshold ({n} line{s} flagged below): the machine was busy while it "
    "ran. Compare the timings with care, or run it again on an idle machine.":
        "该代码片段测得的离散度超过了阈值（下方有 {n} 行被标记）：运行时机器较忙。比较这些计时时请谨慎，"
        "或在空闲的机器上重新运行。",
    "Output — {when} {date}, `{machine}`, torch {torch}, in {seconds:.1f} s:":
        "输出 — {when} {date}，`{machine}`，torch {torch}，耗时 {seconds:.1f} s：",
    "| Snippet | What it shows | Ran on |": "| 代码片段 | 展示内容 | 运行于 |",
    "not run: {why}": "未运行：{why}",
    # --- machines ---------------------------------------------------------------------------------
    "**{cpu}, {cores} cores** (`{slug}`), with {has}": "**{cpu}，{cores} 核**（`{slug}`），{has}",
    "{n} CUDA GPU{s} ({names})": "配有 {n} 块 CUDA GPU（{names}）",
    "no CUDA GPU": "没有 CUDA GPU",
    "Needs a CUDA GPU": "需要 CUDA GPU",
    "{what} needs a CUDA GPU. This build ran on {machine}, so it is not measured on this page; a build on a machine "
    "with one measures it ([add your machine](../benchmarks/add-your-machine.md)).":
        "{what}需要 CUDA GPU。本次构建运行在 {machine} 上，因此本页没有测量它；在有 GPU 的机器上构建即可测量"
        "（[添加你的机器](../benchmarks/add-your-machine.md)）。",
    "| machine | folder | profile | workloads measured | dates | torch | files |":
        "| 机器 | 目录 | 配置 | 已测工作负载 | 日期 | torch | 文件 |",
    " (this build's machine and torch)": "（本次构建的机器与 torch）",
    " (this build's machine; history)": "（本次构建的机器；历史记录）",
    "{done} of {planned} with a compiled result": "{planned} 个中 {done} 个有编译结果",
    ", {asked} on demand": "，另有 {asked} 个按需测量",
    "{n} records": "{n} 条记录",
    "No machine has committed records yet.": "还没有任何机器提交测量记录。",
    "Every record of each machine, all releases, as one archive: {links}": "每台机器全部版本的所有记录，打包下载：{links}",
    "No committed record of `{name}` yet.": "还没有 `{name}` 的已提交记录。",
    "(units as stored: seconds, bytes):": "（单位与文件中一致：秒、字节）：",
    "| field | value in this record |": "| 字段 | 本记录中的值 |",
    "one entry per mode: ": "每种模式一项：",
    "replaying a CUDA graph": "回放 CUDA Graphs",
    # --- methodology ------------------------------------------------------------------------------
    "| Workload | Mode | Harness | `Timer.blocked_autorange` | Difference | Harness, main run (for reference) |":
        "| 工作负载 | 模式 | 测量工具 | `Timer.blocked_autorange` | 差异 | 测量工具，主测量（供参考） |",
    "Largest difference: **{worst:.1%}**; tolerance {tolerance:.0%} — ": "最大差异：**{worst:.1%}**；容差 {tolerance:.0%} — ",
    "the harness agrees with `Timer`.": "测量工具与 `Timer` 一致。",
    "**outside** the tolerance: read the noisy flags in the tables before trusting small differences on this machine.":
        "**超出**容差：在相信这台机器上的细小差异之前，请先看表中的噪声标记。",
    "| Profile | Min. sample length | Samples (min–max) | Time budget per mode | Stops at median precision | Flagged "
    "noisy above IQR/median | Timeout per process |":
        "| 配置 | 最短样本时长 | 样本数（最少–最多） | 每种模式的时间预算 | 中位数达到此精度即停止 | 四分位距/中位数超过此值标记为噪声大 "
        "| 每个进程的超时 |",
    "Speedup intervals: {confidence:.0%} percentile bootstrap of the interleaved pairs, {resamples:,} resamples. "
    "Harness version {version}, from `src/eager_vs_compiled/timing.py`.":
        "加速比区间：对交错配对样本做 {confidence:.0%} 百分位自助法（bootstrap），重采样 {resamples:,} 次。"
        "测量工具版本 {version}，取自 `src/eager_vs_compiled/timing.py`。",
    # --- claims -----------------------------------------------------------------------------------
    "measured on `{slug}`, {date}, torch {torch}, [table](../benchmarks/{family}.md)":
        "测量于 `{slug}`，{date}，torch {torch}，[表格](../benchmarks/{family}.md)",
    "{title}: **{status}**, not measured ({where})": "{title}：**{status}**，未测量（{where}）",
    "{speedup} with `{mode}`, {verdict} (eager {eager} → {compiled})":
        "`{mode}` 加速比 {speedup}，{verdict}（eager {eager} → {compiled}）",
    "compile **{cold}** cold, {warm} warm (`{mode}`)": "冷编译 **{cold}**，热编译 {warm}（`{mode}`）",
    "peak memory eager {eager}, `{mode}` {compiled}": "峰值内存：eager {eager}，`{mode}` {compiled}",
    " (process peak RSS; the compiled process ran from a warm cache)": "（进程峰值 RSS；编译模式的进程使用了热缓存）",
    "Claim (original)": "论断（原文）",
    "Verdict": "结论",
    "Evidence": "证据",
    "**Tally** of the {n} claims: {parts}.": "全部 {n} 条论断的**统计**：{parts}。",
    "† A verdict computed from this build's records by the rules under [how the verdicts are "
    "computed](index.md#how-the-verdicts-are-computed); the others rest on the cited sources.":
        "† 表示该结论由本次构建的测量记录按[结论的计算规则](index.md#how-the-verdicts-are-computed)算出；"
        "其余结论依据所引用的资料。",
    "true": "正确",
    "false": "错误",
    "misleading": "有误导性",
    "depends": "视情况而定",
    "unverifiable": "无法验证",
    "not shown here": "本站未能证明",
    "a claimed speedup range: **true** when the measured 95% interval lies inside it, **false** when it lies wholly "
    "outside it, **depends** when it overlaps a boundary":
        "声称的加速比范围：实测 95% 置信区间完全落在范围内为**正确**，完全落在范围外为**错误**，跨越边界为**视情况而定**",
    "a claim that compiling makes a workload faster: **true** when the interval lies above 1×, **false** when it "
    "lies below, **depends** when it straddles 1×":
        "声称编译使某个工作负载更快：区间完全高于 1× 为**正确**，完全低于 1× 为**错误**，跨越 1× 为**视情况而定**",
    "a claim that one model gains more than another: **true** when the first one's interval lies wholly above the "
    "second one's, **false** when wholly below, **not shown here** when they overlap":
        "声称一个模型比另一个获益更多：前者的区间完全高于后者为**正确**，完全低于后者为**错误**，两者重叠为**本站未能证明**",
    "a claim that compiling lowers peak memory: **true** when the compiled process peaks more than {noise:.0%} lower "
    "than eager's, **false** when more than {noise:.0%} higher, **depends** in between":
        "声称编译降低峰值内存：编译模式进程的峰值比 eager 低 {noise:.0%} 以上为**正确**，高 {noise:.0%} 以上为**错误**，"
        "介于两者之间为**视情况而定**",
    "a claimed range of compile times: **true** when the cold compile lies inside it, **false** outside":
        "声称的编译时间范围：冷编译时间落在范围内为**正确**，落在范围外为**错误**",
    "a claim about most models: **true** when most measured workloads' best intervals lie wholly above the claimed "
    "speedup, **false** when most lie wholly below it, **depends** otherwise":
        "关于大多数模型的论断：多数实测工作负载的最佳区间完全高于所称加速比为**正确**，多数完全低于为**错误**，"
        "否则为**视情况而定**",
    "a claim that compiling never costs: **false** when any measured workload is slower compiled (interval below 1×) "
    "or pays a cold compile, which every one does":
        "声称编译没有任何代价：只要有一个实测工作负载编译后更慢（区间低于 1×）或需要付出冷编译时间，即为**错误**——"
        "而每个工作负载都要付出冷编译时间",
    # --- recipes ----------------------------------------------------------------------------------
    "{share:.0%} of {peak:.3g} ({dtype})": "{peak:.3g} 的 {share:.0%}（{dtype}）",
    " (bf16 tolerance)": "（bf16 容差）",
    "1× (fp32 eager)": "1×（fp32 eager）",
    "batch {n}": "批大小 {n}",
    "Not in the ranking:": "未进入排名：",
    "| # | Recipe | Batch | Images/s | vs fp32 eager, same batch | Compile cold / warm | Break-even | TFLOP/s | Share "
    "of measured peak | Max rel. error ≤ tolerance |":
        "| # | 配方 | 批大小 | 图像/秒 | 相对同批大小的 fp32 eager | 编译：冷 / 热 | 回本点 | TFLOP/s | 占实测峰值的比例 "
        "| 最大相对误差 ≤ 容差 |",
    "**Best recipe here: {mode} at batch {batch}**, {rate} images/s, {share} of the measured peak":
        "**这里的最佳配方：批大小 {batch} 的 {mode}**，每秒 {rate} 张图像，达到实测峰值的 {share}",
    "; over fp32 eager at the same batch: {x}": "；相对同批大小的 fp32 eager：{x}",
    "; over the default `torch.compile`: {x}": "；相对默认的 `torch.compile`：{x}",
    "; over eager measured in its own process: {x}": "；相对在独立进程中测量的 eager：{x}",
    "Recipes measured in different processes differ by up to ±{floor:.0%} with nothing changed (the largest eager "
    "difference between processes in these records): a margin inside that is called within the noise.":
        "在不同进程中测量的配方，即使什么都没变，也会相差最多 ±{floor:.0%}（这些记录中不同进程间 eager 的最大差异）："
        "落在此范围内的差距一律视为在噪声范围内。",
    "No recipe measured yet": "尚未测量任何配方",
    "The recipes are measured on demand, not by every site build: `./evc.sh measure --family resnet` (about a quarter "
    "of an hour on two cores) measures {names} and writes their records.":
        "配方按需测量，而不是每次构建站点都测：`./evc.sh measure --family resnet`（两核机器上约一刻钟）会测量 {names} "
        "并写入记录。",
    "{arch} recipes on the roofline of {machine} (roof: measured {dtype} matmul and copy bandwidth; bf16 recipes can "
    "pass it)":
        "{arch} 各配方在 {machine} 屋顶线模型上的位置（屋顶：实测 {dtype} 矩阵乘与拷贝带宽；bf16 配方可以超过它）",
    "Roof measured on this machine on {date}: matmul {matmul} ({n}² matrices), copy {copy:.1f} GB/s ({mib} MiB, read "
    "+ write).":
        "屋顶于 {date} 在这台机器上测得：矩阵乘 {matmul}（{n}² 矩阵），拷贝 {copy:.1f} GB/s（{mib} MiB，读 + 写）。",
    "The winner reaches {share:.0%} of the measured peak: no breakdown needed.": "最佳配方达到实测峰值的 {share:.0%}：无需细分。",
    "| Op | Self CPU time | Share | Calls |": "| 算子 | 自身 CPU 时间 | 占比 | 调用次数 |",
    "The winner, {mode}, reaches {share:.0%} of the measured peak. A `torch.profiler` run of {calls} of its calls, in "
    "a fresh process, on this machine, by this build:":
        "最佳配方 {mode} 达到实测峰值的 {share:.0%}。本次构建在这台机器上的一个新进程中，用 `torch.profiler` 记录了它的 "
        "{calls} 次调用：",
    "Convolutions (oneDNN) take **{conv:.0%}** of the profiled CPU time; the generated Inductor kernels {inductor:.0%}.":
        "卷积（oneDNN）占所记录 CPU 时间的 **{conv:.0%}**；Inductor 生成的内核占 {inductor:.0%}。",
    # --- torch releases compared ------------------------------------------------------------------
    "Workload": "工作负载",
    "{new} vs {old}": "{new} 对比 {old}",
    "one release only": "只有一个版本",
    "{pct}, within the noise": "{pct}，在噪声范围内",
    "| torch release | torch build | harness | Python | measured | records | role |":
        "| torch 版本 | torch 构建 | 测量工具 | Python | 测量时间 | 记录数 | 角色 |",
    "this build": "本次构建",
    "history": "历史记录",
    "Speedup of torch.compile over eager per torch release on {machine}; whiskers: 95% interval; dashed line: as "
    "fast as eager":
        "{machine} 上各 torch 版本中 torch.compile 相对 eager 的加速比；误差线：95% 置信区间；虚线：与 eager 一样快",
    "Nothing to compare yet": "尚无可比较的数据",
    "No machine has records of two torch releases. Machines and their releases: {listed}.":
        "还没有机器拥有两个 torch 版本的记录。各机器及其版本：{listed}。",
    "Who measured each release (*this build*: measured or checked fresh by this build; *history*: shown as "
    "committed):":
        "各版本由谁测量（*本次构建*：由本次构建测量或确认为最新；*历史记录*：按已提交的内容显示）：",
    "A change between releases is called one only when its 95% interval lies wholly outside ±{floor:.0%}: the largest "
    "difference this machine showed between two processes measuring the same eager call, or the harness's noisy "
    "threshold, whichever is larger. Compile times and memory are one measurement per release, so only that "
    "threshold applies to them.":
        "只有当 95% 置信区间完全落在 ±{floor:.0%} 之外时，才把版本之间的差异算作变化；这个阈值取这台机器上两个进程测量"
        "同一个 eager 调用时出现的最大差异与测量工具的噪声阈值中较大的一个。编译时间和内存每个版本只测一次，"
        "因此只适用该阈值。",
    "Eager time per call": "eager 每次调用时间",
    "Median of the eager samples (95% bootstrap interval of the median)": "eager 样本的中位数（中位数的 95% 自助法区间）",
    "Speedup over eager": "相对 eager 的加速比",
    "Eager median / compiled median, same process (95% bootstrap interval of the interleaved pairs)":
        "eager 中位数 / 编译后中位数，同一进程（交错配对样本的 95% 自助法区间）",
    "bigger speedup": "加速比更大",
    "smaller speedup": "加速比更小",
    "Cold compile": "冷编译",
    "First call minus a steady call, empty compiler cache (one measurement per release)":
        "首次调用减去一次稳定调用，编译缓存为空（每个版本测一次）",
    "faster compile": "编译更快",
    "slower compile": "编译更慢",
    "Warm compile": "热编译",
    "The same in a new process with the cache the cold run left (one measurement)":
        "同样的测量，在新进程中使用冷编译留下的缓存（测一次）",
    "Of the process (CPU: peak RSS) or of CUDA allocations (one measurement)": "进程的峰值（CPU：峰值 RSS）或 CUDA 分配的峰值（测一次）",
    "less memory": "内存更少",
    "more memory": "内存更多",
    "no difference beyond the noise in {n} comparisons.": "{n} 组比较中没有超出噪声的差异。",
    "{n} of {total} comparisons changed beyond the noise; the largest: {top}.": "{total} 组比较中有 {n} 组的变化超出噪声；最大的：{top}。",
    "On **{machine}** (`{slug}`), torch {new} against {old}:": "在 **{machine}**（`{slug}`）上，torch {new} 对比 {old}：",
    "No machine has records of two torch releases yet.": "还没有机器拥有两个 torch 版本的记录。",
    # --- your model -------------------------------------------------------------------------------
    "The same report as a standalone HTML file, as the command wrote it: {link}.": "命令写出的同一份报告的独立 HTML 文件：{link}。",
    # --- troubleshooting --------------------------------------------------------------------------
    "captured while building this page on": "构建本页时捕获，运行于",
    "Printed by `snippets/{rel}` — {when} {date}, `{machine}`, torch {torch}.":
        "由 `snippets/{rel}` 输出 — {when} {date}，`{machine}`，torch {torch}。",
    " (by an earlier version of the snippet)": "（由该代码片段的早期版本捕获）",
    "Captured on {machine}{info}, torch {torch}, {date}{older}; committed under `measurements/`. This build ran on "
    "`{here}`, where the snippet {why}.":
        "捕获于 {machine}{info}，torch {torch}，{date}{older}；已提交到 `measurements/`。本次构建运行在 `{here}` 上，"
        "该代码片段在那里{why}。",
    "**Not reproduced here**: the snippet {why} and no machine that has one has captured it yet. Above is the line of "
    "the installed torch {torch} that raises or logs it, `{where}` line {line}; the printed message fills in the "
    "placeholders.":
        "**未在此复现**：该代码片段{why}，而具备该条件的机器还没有捕获过它。上面是已安装的 torch {torch} 中抛出或记录"
        "该消息的源码行，`{where}` 第 {line} 行；实际输出的消息会填入其中的占位符。",
    "Not reproduced here: the snippet {why}.": "未在此复现：该代码片段{why}。",
    "Reproduce it: snippets/{rel}": "复现：snippets/{rel}",
    "| Message (first line, as printed) | Recipe | Where the text comes from |": "| 消息（原样输出的第一行） | 排错方案 | 文本来源 |",
    "(not reproduced on this machine)": "（未在这台机器上复现）",
    "committed capture": "已提交的捕获",
    "torch source (not reproduced here)": "torch 源码（未在此复现）",
    # --- the workloads (titles and what they measure) ---------------------------------------------
    "One tiny op per call": "每次调用一个极小算子",
    "`x + 1` on a one-element tensor: the time per call is the framework's overhead.":
        "对只有一个元素的张量执行 `x + 1`：每次调用的时间就是框架本身的开销。",
    "MLP inference": "MLP 推理",
    "Three linear layers with GELU, float32, a batch of vectors.": "三个带 GELU 的线性层，float32，输入为一批向量。",
    "MLP training step": "MLP 训练步",
    "The same MLP: forward, cross-entropy, backward and an SGD step.": "同一个 MLP：前向、交叉熵、反向传播和一步 SGD。",
    "Transformer encoder block inference": "Transformer 编码器块推理",
    "One pre-norm `nn.TransformerEncoderLayer` (self-attention + GELU MLP), float32.":
        "一个 pre-norm 的 `nn.TransformerEncoderLayer`（自注意力 + GELU MLP），float32。",
    "Transformer encoder block training step": "Transformer 编码器块训练步",
    "The same block: forward, loss, backward and an SGD step.": "同一个块：前向、损失、反向传播和一步 SGD。",
    "ResNet-18 inference, fp32": "ResNet-18 推理，fp32",
    "torchvision resnet18, random weights, 224×224 images.": "torchvision resnet18，随机权重，224×224 图像。",
    "ResNet-50 inference, fp32": "ResNet-50 推理，fp32",
    "torchvision resnet50, random weights, 224×224 images.": "torchvision resnet50，随机权重，224×224 图像。",
    "ResNet-50 inference, fp32, channels_last": "ResNet-50 推理，fp32，channels_last",
    "ResNet-50 inference, bf16 weights": "ResNet-50 推理，bf16 权重",
    "ResNet-50 inference, bf16 weights, channels_last": "ResNet-50 推理，bf16 权重，channels_last",
    "ResNet-18 training, fp32": "ResNet-18 训练，fp32",
    "ResNet-50 training, fp32": "ResNet-50 训练，fp32",
    "ResNet-50 training, AMP bf16, channels_last": "ResNet-50 训练，AMP bf16，channels_last",
    "ViT-B/16 inference, fp32": "ViT-B/16 推理，fp32",
    "torchvision vit_b_16, random weights, 224×224 images.": "torchvision vit_b_16，随机权重，224×224 图像。",
    "ViT-B/16 inference, bf16 weights": "ViT-B/16 推理，bf16 权重",
    "ViT-B/16 training, fp32": "ViT-B/16 训练，fp32",
    "ViT-B/16 training, AMP bf16": "ViT-B/16 训练，AMP bf16",
    "ResNet-50 inference, every recipe": "ResNet-50 推理，全部配方",
    "ResNet-50 inference, the best recipes at another batch size": "ResNet-50 推理，换一个批大小的最佳配方",
}
for _n in (1, 2, 4, 8, 16, 32):
    WORDS[f"Pointwise chain, N = {_n}"] = f"逐元素算子链，N = {_n}"
    WORDS[f"{_n} elementwise op(s) (multiply, add, relu in turn) on one large float32 tensor."] = \
        f"在一个很大的 float32 张量上依次执行 {_n} 个逐元素算子（乘、加、relu 轮流）。"
