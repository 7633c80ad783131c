"""Charts (flet-charts) drawn from a ChartTable, each shown above the same numbers as a table:
the table is the chart's text alternative, read by screen readers and by anyone who wants the
exact figures."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from companion.history.charts import Cell, ChartTable

CHART_HEIGHT = 220
SERIES_COLOURS = (ft.Colors.BLUE, ft.Colors.ORANGE, ft.Colors.GREEN, ft.Colors.PURPLE,
                  ft.Colors.RED, ft.Colors.TEAL)


def cell_text(value: Cell) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def table_view(table: ChartTable) -> ft.Control:
    """The rows as text, one evenly divided row per line, so any width holds them."""
    def line(cells, bold: bool = False) -> ft.Row:
        return ft.Row([ft.Text(cell_text(cell), expand=True, weight=ft.FontWeight.BOLD if bold
                               else None, max_lines=2) for cell in cells], spacing=4)

    return ft.Column([line(table.columns, bold=True), *(line(row) for row in table.rows)],
                     spacing=2)


def _numbers(values) -> list[float]:
    return [0.0 if value is None else float(value) for value in values]


def line_chart(table: ChartTable) -> ft.Control:
    """One line per series (column after the first) over the rows; x is the row's position."""
    series = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(x=x, y=y) for x, y in enumerate(_numbers(
                row[column] for row in table.rows), 1)],
            color=SERIES_COLOURS[(column - 1) % len(SERIES_COLOURS)],
            stroke_width=3,
        )
        for column in range(1, len(table.columns))
    ]
    return _framed(table, fch.LineChart(data_series=series, min_x=1, interactive=False),
                   legend=table.columns[1:])


def bar_chart(table: ChartTable, columns: tuple[int, ...]) -> ft.Control:
    """Bars of the given columns, one group per row (a player, a month)."""
    groups = [
        fch.BarChartGroup(x=position, rods=[
            fch.BarChartRod(to_y=value, width=max(2, 16 // len(columns)),
                            color=SERIES_COLOURS[index % len(SERIES_COLOURS)])
            for index, value in enumerate(_numbers(row[column] for column in columns))
        ])
        for position, row in enumerate(table.rows)
    ]
    return _framed(table, fch.BarChart(groups=groups, interactive=False, min_y=0),
                   legend=tuple(table.columns[column] for column in columns))


def _framed(table: ChartTable, chart: ft.Control, legend: tuple[str, ...]) -> ft.Control:
    key = ft.Row([ft.Text(name, color=SERIES_COLOURS[index % len(SERIES_COLOURS)],
                          weight=ft.FontWeight.BOLD) for index, name in enumerate(legend)],
                 wrap=True)
    return ft.Column([
        ft.Text(table.title, size=18, weight=ft.FontWeight.BOLD),
        ft.Semantics(label=f"Chart of {table.title}; its numbers are in the table below.",
                     content=ft.Container(content=chart, height=CHART_HEIGHT, padding=8)),
        key,
        table_view(table),
    ])
