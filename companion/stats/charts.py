"""The geometry of the charts the templates draw as inline SVG (no chart library, no
request to another host): coordinates are computed here, the markup is in
templates/history/_charts.html."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 480
HEIGHT = 250
LEFT, RIGHT, TOP, BOTTOM = 40, 14, 14, 30  # room for the axes' labels


@dataclass(frozen=True, slots=True)
class Line:
    """One series: its label, its color class, its points ("x,y x,y ...") and its dots."""

    label: str
    color: str
    points: str
    dots: tuple[tuple[float, float, int], ...]  # x, y, value


@dataclass(frozen=True, slots=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True, slots=True)
class LineChart:
    """Lines over rounds 1..n, with the axes' ticks."""

    width: int
    height: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM


def _y_step(highest: int) -> int:
    """A tick every 1, 2, 5, 10... so the axis has at most six labels."""
    for step in (1, 2, 5, 10, 20, 50, 100):
        if highest / step <= 6:
            return step
    return 200


MAX_X_LABELS = 12


def line_chart(series: Sequence[tuple[str, str, Sequence[int]]]) -> LineChart:
    """A chart of values at points 1..n (rounds, games): (label, color, values) per series;
    at most MAX_X_LABELS points are labelled on the axis."""
    rounds = max((len(values) for _, _, values in series), default=1) or 1
    highest = max((max(values, default=0) for _, _, values in series), default=0)
    step = _y_step(max(highest, 1))
    top_value = max(step, -(-highest // step) * step)
    span_x = WIDTH - RIGHT - LEFT
    span_y = HEIGHT - BOTTOM - TOP

    def x(round_index: int) -> float:
        return round(LEFT + span_x * (round_index / max(rounds - 1, 1)), 1)

    def y(value: int) -> float:
        return round(HEIGHT - BOTTOM - span_y * value / top_value, 1)

    lines = tuple(
        Line(
            label,
            color,
            " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
            tuple((x(i), y(v), v) for i, v in enumerate(values)),
        )
        for label, color, values in series
    )
    every = -(-rounds // MAX_X_LABELS)
    x_ticks = tuple(Tick(x(i), str(i + 1)) for i in range(0, rounds, every))
    y_ticks = tuple(Tick(y(v), str(v)) for v in range(0, top_value + 1, step))
    return LineChart(WIDTH, HEIGHT, lines, x_ticks, y_ticks)
