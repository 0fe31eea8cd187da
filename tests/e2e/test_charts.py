"""Profile charts: the data come from stored history; the picture is a real PNG/SVG."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from bot.charts import render
from core.domain.calendar import DAY
from core.domain.chart import ChartData
from core.service.queries.charts import chart_for
from tests.support.chat import Chat


async def chart(chat: Chat, name: str) -> ChartData:
    def work(repo: Any) -> ChartData | None:
        ladder = repo.ladder("console", "main")
        player = repo.player_for(ladder.id, f"console:{name}")
        return chart_for(repo, ladder, player.id, name, chat.at)

    found: ChartData | None = await chat.store.run(work, commit=False)
    assert found is not None
    return found


async def test_a_point_for_each_rated_match(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    for text in ("/report win @b", "/report loss @b", "/report win @b moves=1",
                 "/report draw @b"):
        await chat.ok("a", text)
        await chat.tick(DAY)
    await chat.ok("mod", "/mod adjust @a +10 bonus")
    data = await chart(chat, "a")
    # Three rated matches (the one-move game is unrated), at the rating after each:
    # +16; b wins from 32 below: round(32 * 0.5459) = 17; the draw 2 apart moves 0.
    assert [v for _, v in data.matches] == [1016.0, 999.0, 999.0]
    assert data.points[0][1] == 1000.0 and data.points[-1][1] == 1009.0
    assert len(data.corrections) == 1 and data.ylabel == "rating"


async def test_decay_days_are_drawn_between_games(chat: Chat) -> None:
    await chat.ladder("dutch", "confirm=false")
    await chat.join("a")
    await chat.ok("mod", "/mod adjust @a +1000 start")
    await chat.time("2026-01-08T12:00:00+00:00")
    data = await chart(chat, "a")
    assert [v for _, v in data.points] == [0, 1000, 992, 985, 978, 978]


async def test_a_rung_chart_is_upside_down(chat: Chat) -> None:
    await chat.ladder("nhwc", "confirm=false")
    await chat.join("p1", "p2", "p3")
    await chat.ok("p3", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p3", "/report win @p1 overwhelming")
    data = await chart(chat, "p3")
    assert data.inverted and data.ylabel == "rung"
    assert data.points[-1][1] == 1.0


def png_size(picture: bytes) -> tuple[int, int]:
    assert picture[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", picture[16:24])
    return width, height


async def test_png_and_svg(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "<b>")
    await chat.ok("a", "/report win @<b>")
    data = await chart(chat, "<b>")
    assert png_size(render(data)) == (800, 400)
    svg = render(data, "svg").decode()
    assert "<svg" in svg and "<script" not in svg and "<b>" not in svg


def test_the_console_saves_the_chart_beside_the_database(tmp_path: Any) -> None:
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "console", "--db", str(tmp_path / "l.db"),
         "--admin", "mod"], text=True, capture_output=True, timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        input="!time 2026-01-05T10:00:00+00:00\n@mod: /ladder create main preset=duel "
              "confirm=false\n@a: /join\n@b: /join\n@a: /report win @b\n@a: /profile\n")
    assert f"bot: [chart saved to {tmp_path / 'charts' / 'main-a.png'}]" in done.stdout
    assert png_size((tmp_path / "charts" / "main-a.png").read_bytes()) == (800, 400)


def _drawn(data: ChartData) -> Any:
    from bot.charts import draw
    figure = draw(data)
    figure.canvas.draw()  # tick labels are laid out on drawing
    return figure


def _ticks(axis: Any) -> list[str]:
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


async def test_a_first_chart_has_dates_not_seconds(chat: Chat) -> None:
    import re

    import matplotlib.pyplot as plt
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")  # every point at one instant
    figure = _drawn(await chart(chat, "a"))
    axes = figure.axes[0]
    labels = _ticks(axes.xaxis)
    assert labels and all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) for t in labels), labels
    assert all(t.startswith("2026-01") for t in labels), labels  # not an empty 2024-2028
    assert axes.xaxis.get_offset_text().get_text() == ""
    low, high = axes.get_xlim()
    assert 3 <= high - low <= 5  # days (matplotlib's date unit)
    plt.close(figure)


async def test_rung_ticks_are_whole_and_the_legend_names_every_mark(chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("nhwc", "confirm=false")
    await chat.join("p1", "p2")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p2", "/report win @p1 overwhelming")
    await chat.tick(DAY)
    await chat.ok("mod", "/mod adjust @p2 -1 test")
    data = await chart(chat, "p2")
    figure = _drawn(data)
    axes = figure.axes[0]
    rungs = _ticks(axes.yaxis)
    assert rungs and all(t.lstrip("−-").isdigit() for t in rungs), rungs
    plt.close(figure)
    legend = [t.get_text() for t in axes.get_legend().get_texts()]
    assert "correction" in legend and "rung" in legend, legend


async def test_season_lines_are_in_the_legend_and_corrections_sit_on_the_line(
        chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    await chat.tick(DAY)
    await chat.ok("mod", "/mod adjust @a +50 bonus")  # a at 1016 + 50
    await chat.time("2026-02-03T00:00:00+00:00")  # a season close on the way
    data = await chart(chat, "a")
    figure = _drawn(data)
    axes = figure.axes[0]
    legend = [t.get_text() for t in axes.get_legend().get_texts()]
    assert "season close" in legend, legend
    marks = [line for line in axes.get_lines() if line.get_label() == "correction"]
    assert [float(y) for y in marks[0].get_ydata()] == [1066.0]  # not the chart's 1000
    plt.close(figure)


async def test_the_legend_speaks_the_ladders_language(chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("nhwc", "confirm=false", "language=ru")
    await chat.join("p1", "p2")
    await chat.ok("p2", "/challenge @p1")
    await chat.ok("p1", "/accept")
    await chat.ok("p2", "/report win @p1 overwhelming")
    await chat.ok("mod", "/mod adjust @p2 -1 test")
    figure = _drawn(await chart(chat, "p2"))
    axes = figure.axes[0]
    legend = [t.get_text() for t in axes.get_legend().get_texts()]
    plt.close(figure)
    assert legend == ["ступень", "рейтинговый матч", "исправление"]
    assert axes.get_ylabel() == "ступень"


async def test_the_title_names_the_player_and_ladder_as_typed(chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("duel", "confirm=false", "language=ru")
    await chat.join("Алексей_$x^2$", "b")
    await chat.ok("b", "/report loss @Алексей_$x^2$")
    figure = _drawn(await chart(chat, "Алексей_$x^2$"))
    title = figure.axes[0].title
    assert title.get_text() == "Алексей_$x^2$ — main"
    assert not title.get_parse_math()  # dollars drawn as typed, not as formulas
    plt.close(figure)


async def test_a_name_the_font_cannot_draw_leaves_the_title_out(chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("duel", "confirm=false")
    await chat.join("王小明", "שרה", "b")
    await chat.ok("b", "/report loss @王小明")
    await chat.ok("b", "/report loss @שרה")
    for name in ("王小明", "שרה"):  # no glyphs; drawn right to left, which matplotlib cannot
        figure = _drawn(await chart(chat, name))
        assert figure.axes[0].get_title() == ""
        plt.close(figure)


async def test_corrections_at_one_instant_are_counted(chat: Chat) -> None:
    import matplotlib.pyplot as plt
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    await chat.tick(DAY)
    for amount in ("+10", "+20", "-5"):  # three at one instant
        await chat.ok("mod", f"/mod adjust @a {amount} fix")
    figure = _drawn(await chart(chat, "a"))
    axes = figure.axes[0]
    marks = [line for line in axes.get_lines() if line.get_label() == "correction"]
    assert [float(y) for y in marks[0].get_ydata()] == [1041.0]  # 1016 + 10 + 20 - 5
    assert [t.get_text() for t in axes.texts] == ["×3"]
    plt.close(figure)


@pytest.mark.parametrize(("language", "said"), [("en", "rating ± 2 RD"),
                                                 ("ru", "рейтинг ± 2 RD"),
                                                 ("nl", "rating ± 2 RD")])
async def test_a_glicko2_chart_has_its_rd_band_after_each_change(
        chat: Chat, language: str, said: str) -> None:
    """RULES.md §6 shows a rating ± 2·RD; the chart draws that band, each stretch at the RD
    the rating had after its change, as the export gave it then, on to the RD now."""
    import matplotlib.pyplot as plt
    await chat.ladder("glicko2", "confirm=false", f"language={language}")
    await chat.join("a", "b", "c")
    seen = []  # a's rating and RD after each game, from the export
    for text in ("/report win @b", "/report loss @c", "/report win @c"):
        await chat.ok("a", text)
        row = next(p for p in (await chat.export())["players"] if p["name"] == "a")
        seen.append((row["rating"], row["rd"]))
        await chat.tick(3 * DAY)  # idle days grow the RD before the next game
    data = await chart(chat, "a")
    expected = [(r - 2 * rd, r + 2 * rd) for r, rd in seen]
    assert [(low, high) for _, low, high in data.band[:3]] == expected
    assert data.band[-1][1:] == expected[-1]  # no game since: the band as after the last
    assert expected[0][1] - expected[0][0] > expected[2][1] - expected[2][0]  # it narrows
    figure = _drawn(data)
    legend = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    plt.close(figure)
    assert said in legend, legend


async def test_an_elo_chart_has_no_band(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false")
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    assert (await chart(chat, "a")).band == ()
