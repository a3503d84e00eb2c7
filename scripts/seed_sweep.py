"""The suite's randomized parts again, with other seeds than the tests' fixed ones.

    .venv/bin/python scripts/seed_sweep.py [--seeds N ...] [--examples 25] [--games 40]

The tests run their Hypothesis properties derandomized (the same examples every run) and
the simulator on fixed seeds. This sweep, which `.ci/run` runs after them, tries others:

- every Hypothesis test (`pytest -m hypothesis` over the files that have them) under the
  `sweep` profile of tests/conftest.py (fresh examples, no example database), once per
  `--hypothesis-seed=N`;
- `python -m companion.sim` (every state checked against the invariants, every finished
  game replayed) in six set-ups: solo Mentat, two players, solo Kwisatz Haderach with
  Rise of Ix, two players with Rise of Ix and Epic, three players, four players with
  Rise of Ix and Epic (these two with a half and a quarter of `--games`), from game seed
  N * 10000 on.

Seeds: 1 and one taken from the commit (HEAD's hash), so each commit also tries a new
one; a seed's run is the same every time (a fixed second seed, 2, was dropped to keep
`.ci/run` within its 20 minutes; `--seeds 1 2` runs it). The runs go on side by side, one a core
(`--jobs`). Each command is printed when it ends, with whether it passed; a
failure prints the command that reproduces it and the sweep exits 1 after the rest ran.
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HYPOTHESIS_FILES = (
    "tests/rules/test_properties.py",
    "tests/web/test_fuzz.py",
    "tests/vision/test_payload.py",
    "tests/lookup/test_pages.py",
)
SIM_SETUPS = (
    ("--mode", "solo", "--difficulty", "mentat"),
    ("--mode", "2p"),
    ("--mode", "solo", "--difficulty", "kwisatz", "--expansion", "ix"),
    ("--mode", "2p", "--expansion", "ix", "--epic"),
    ("--mode", "3p"),
    ("--mode", "4p", "--expansion", "ix", "--epic"),
)
# The three- and four-player set-ups play fewer games: a four-player game with Rise of Ix
# costs about five solo ones, and the sweep should stay within a minute and a half.
SIM_GAMES_SHARE = {"3p": 0.5, "4p": 0.25}
SIM_SEED_STEP = 10_000  # sweep seed N plays games N * 10000, N * 10000 + 1...


def commit_seed() -> int:
    """A seed from HEAD's hash (3 to 99,999), or 3 outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        return 3 + int(head[:8], 16) % 99_997
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 3


def _run(label: str, env: dict[str, str], command: list[str], quiet: bool) -> bool:
    """Run one command from the repository root; then say what it was and whether it
    passed, in one print (runs go on side by side), with its output when it failed or
    when not `quiet`."""
    shown = " ".join(f"{k}={v}" for k, v in env.items())
    line = f"{shown} {shlex.join(command)}".strip()
    start = time.perf_counter()
    done = subprocess.run(
        command, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    report = [f"[sweep] {label}: {line}"]
    if done.returncode != 0 or not quiet:
        report += [done.stdout[-6000:].rstrip(), done.stderr[-6000:].rstrip()]
    if done.returncode == 0:
        report.append(f"[sweep]   passed in {seconds:.1f} s")
    else:
        report.append(f"[sweep]   FAILED ({label}); reproduce with:\n[sweep]     {line}")
    print("\n".join(part for part in report if part), flush=True)
    return done.returncode == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/seed_sweep.py")
    parser.add_argument("--seeds", type=int, nargs="+", help="seeds (1 and the commit's)")
    parser.add_argument("--examples", type=int, default=25, help="Hypothesis examples (25)")
    parser.add_argument("--games", type=int, default=40, help="simulated games per run (40)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="runs side by side (one a core)"
    )
    args = parser.parse_args(argv)
    seeds = args.seeds or [1, commit_seed()]
    python = sys.executable
    start = time.perf_counter()
    print(f"[sweep] seeds {seeds}, {args.jobs} side by side", flush=True)
    runs: list[tuple[str, dict[str, str], list[str], bool]] = []
    for seed in seeds:
        env = {"HYPOTHESIS_PROFILE": "sweep", "SWEEP_EXAMPLES": str(args.examples)}
        command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "hypothesis"]
        command += [f"--hypothesis-seed={seed}", *HYPOTHESIS_FILES]
        runs.append((f"Hypothesis, seed {seed}", env, command, False))
    for seed in seeds:
        for setup in SIM_SETUPS:
            games = max(1, round(args.games * SIM_GAMES_SHARE.get(setup[1], 1)))
            command = [python, "-m", "companion.sim", "--games", str(games)]
            command += ["--seed", str(seed * SIM_SEED_STEP), *setup]
            label = f"simulator, seed {seed * SIM_SEED_STEP}, {' '.join(setup[1::2])}"
            runs.append((label, {}, command, True))
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        passed = list(pool.map(lambda run: _run(*run), runs))
    failed = [label for (label, *_), ok in zip(runs, passed, strict=True) if not ok]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - start
    cpu = children.ru_utime + children.ru_stime
    print(f"[sweep] {len(runs)} runs in {wall:.0f} s ({cpu:.0f} s CPU); {len(failed)} failed")
    for what in failed:
        print(f"[sweep] FAILED: {what}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
