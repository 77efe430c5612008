"""A ratio as the pages print it: two decimals, and more where two would round a value off 1 onto
"1.00". The words beside an interval (faster, slower, no measurable difference) follow the unrounded
interval, so a bound of 0.996 printed as 1.00 would show a reader an interval that holds 1 beside the
word "slower" (2026-12-07: the transformer block's default mode on the reference machine, printed
0.98× (0.97–1.00): slower). Standard library only."""

from __future__ import annotations

MAX_DIGITS = 9


def ratio(x: float, digits: int = 2) -> str:
    """`x` with `digits` decimals, or as many more as it takes to tell it from 1 (0.996, 1.004)."""
    text = f"{x:.{digits}f}"
    while x != 1 and float(text) == 1 and digits < MAX_DIGITS:
        digits += 1
        text = f"{x:.{digits}f}"
    return text


def with_interval(point: float, low: float, high: float) -> str:
    """'0.98× (0.97–0.996)': a ratio and its interval, each bound on its own side of 1 as printed."""
    return f"{ratio(point)}× ({ratio(low)}–{ratio(high)})"
