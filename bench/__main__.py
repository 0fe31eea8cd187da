"""`python -m bench [--quick] [--json] [--only KEY ...]`: Ladderbot's benchmarks.

Synthetic ladders are built through the real command layer and storage (commands run
through `core.service.dispatch.handle` in SQLite transactions), then measured. Every number is
the median of several runs; the machine is reported with them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from bench import imports, measures
from bench.ladders import ladders_per_process
from bench.machine import describe_machine, peak_rss_mb
from bench.run import run_all
from bench.scale_out import scale_out

KEYS = ["sqlite_raw_tx_per_s", "report_rate_per_s", "old_correction_s",
        "recent_correction_ms", "decay_s", "standings_ms", "profile_ms",
        "engine_vs_openskill", "web_player_p50_ms", "report_wait_beside_web_ms",
        "glicko2_replay_per_s", "openskill_replay_per_s", "openskill_vs_library",
        "glicko2_old_correction_s", "peak_rss_mb"]

TARGETS = {
    "report_rate_per_s": ("at least 40% of sqlite_raw_tx_per_s", None),
    "old_correction_s": ("at most 1.5", 1.5),
    "recent_correction_ms": ("at most 50", 50),
    "decay_s": ("at most 1.5", 1.5),
    "standings_ms": ("at most 5", 5),
    "profile_ms": ("at most 20", 20),
    "engine_vs_openskill": ("at least 30", 30),
    "glicko2_replay_per_s": ("at least 200,000", 200_000),
    "openskill_vs_library": ("at least 0.9 (our bookkeeping under 10%)", 0.9),
    "glicko2_old_correction_s": ("at most 1.5", 1.5),
    "peak_rss_mb": ("at most 1000", 1000),
}


def verdicts(results: dict[str, float]) -> dict[str, bool]:
    """Whether each measured number meets its target."""
    met = {}
    for key, (_, limit) in TARGETS.items():
        if key not in results:
            continue
        value = results[key]
        if key == "report_rate_per_s":
            raw = results.get("sqlite_raw_tx_per_s")
            met[key] = raw is not None and value >= 0.4 * raw
        elif key in ("engine_vs_openskill", "glicko2_replay_per_s", "openskill_vs_library"):
            met[key] = limit is not None and value >= limit
        else:
            met[key] = limit is not None and value <= limit
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the small sizes (seconds)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--only", nargs="*", choices=KEYS, help="measure only these keys")
    parser.add_argument("--dir", help="where to build the databases (default: a temp dir)")
    parser.add_argument("--scale-out", action="store_true",
                        help="only commands per second over 20 ladders: SQLite, PostgreSQL "
                        "with one process and with two (bench/scale_out.py)")
    parser.add_argument("--ladders", action="store_true",
                        help="only commands per second over 20, 200 and 2,000 ladders in one "
                        "process, SQLite and PostgreSQL, and a big ladder's cold load "
                        "(bench/ladders.py)")
    parser.add_argument("--import", dest="imports", action="store_true",
                        help="only `ladderbot import`'s matches a second into SQLite, and "
                        "a what-if on the ladder it made (bench/imports.py)")
    args = parser.parse_args(argv)
    if args.imports:
        return _measured(imports.imports, args, imports.show)
    if args.scale_out:
        return _measured(scale_out, args, _show_scale_out)
    if args.ladders:
        return _measured(ladders_per_process, args, _show_ladders)
    sizes = measures.QUICK if args.quick else measures.FULL
    wanted = set(args.only or KEYS)
    started = time.perf_counter()
    results = asyncio.run(run_all(sizes, wanted, args.dir, progress=not args.json))
    if "peak_rss_mb" in wanted:
        results["peak_rss_mb"] = round(peak_rss_mb(), 1)
    report = {
        **{k: results[k] for k in KEYS if k in results},
        "targets_met": verdicts(results),
        "mode": "quick" if args.quick else "full",
        "sizes": sizes.as_dict(),
        "seconds": round(time.perf_counter() - started, 1),
        "machine": describe_machine(),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"\nLadderbot benchmarks ({results['mode']}, {results['seconds']} s) on "
              f"{report['machine']['cpu']} ({report['machine']['cores']} cores), "
              f"Python {report['machine']['python']}, SQLite {report['machine']['sqlite']}")
        for key in KEYS:
            if key in results:
                target = TARGETS.get(key, ("", None))[0]
                met = report["targets_met"].get(key)
                mark = "" if met is None else ("  ok" if met else "  MISSED")
                print(f"  {key:<22} {results[key]:>12}   {target}{mark}")
    return 0


def _measured(measure: Callable[..., dict[str, Any]], args: argparse.Namespace,
              show: Callable[[dict[str, Any]], None]) -> int:
    """Run `measure`; its results with the mode, the time taken and the machine printed as
    JSON, or by `show`."""
    started = time.perf_counter()
    results = measure(args.quick, progress=not args.json, folder=args.dir)
    report = {**results, "mode": "quick" if args.quick else "full",
              "seconds": round(time.perf_counter() - started, 1), "machine": describe_machine()}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        show(report)
    return 0


def _show_scale_out(results: dict[str, Any]) -> None:
    """`--scale-out`'s figures, a configuration a line."""
    machine = results["machine"]
    print(f"\nScale-out ({results['mode']}, {results['seconds']} s) on {machine['cpu']} "
          f"({machine['cores']} cores): commands per second over {results['sizes']['ladders']} "
          "ladders")
    sqlite = results["sqlite_1_process"]
    for key in ("sqlite_1_process", "postgresql_1_process", "postgresql_2_processes"):
        met = results["targets_met"].get(key)
        mark = "" if met is None else ("  ok" if met else "  MISSED")
        cpu = results["bot_cpu_ms_per_command"][key]
        server = results["server_cpu_ms_per_command"][key]
        print(f"  {key:<24} {results[key]:>8,}  {results[key] / sqlite:>5.0%} of SQLite  "
              f"CPU a command: bot {cpu:.2f} ms, server {server:.2f} ms{mark}")


def _show_ladders(results: dict[str, Any]) -> None:
    """`--ladders`' figures, a database and ladder count a line, then the targets."""
    machine = results["machine"]
    print(f"\nLadders per process ({results['mode']}, {results['seconds']} s) on {machine['cpu']} "
          f"({machine['cores']} cores), {results['sizes']['total_commands']:,} commands each")
    for kind in ("sqlite", "postgresql"):
        for count in results["sizes"]["ladders"]:
            row = results[f"{kind}_{count}"]
            print(f"  {kind:<10} {count:>5} ladders {row['commands_per_s']:>7,}/s  CPU a command: "
                  f"bot {row['bot_cpu_ms']:.2f} ms, server {row['server_cpu_ms']:.2f} ms  "
                  f"peak {row['peak_mb']:.0f} MB")
    print(f"  a command on a cold {results['sizes']['big_ladder_players']:,}-player ladder: "
          + ", ".join(f"{kind} {ms} ms" for kind, ms in results["cold_command_ms"].items())
          + "; after a crash (a replay): "
          + ", ".join(f"{kind} {ms} ms" for kind, ms in results["cold_after_crash_ms"].items()))
    for target, met in results["targets_met"].items():
        print(f"  {target:<28} {'ok' if met else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
