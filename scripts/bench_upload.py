"""What one large uploaded photo costs the server: peak memory growth, CPU and wall time.

    .venv/bin/python scripts/bench_upload.py [--repeat 3] [--json]

A 40-megapixel JPEG (8400x4725, a `synth` scene enlarged, quality 90) with a sticker, and
the same scene with no sticker (the worst case: every pass runs), are each decoded in a
fresh process two ways (and issue 17's pixel bomb, a 30000x30000 PNG, the "after" way:
refused from its header):

- before: the pixels decoded whole (`cv2.IMREAD_GRAYSCALE`), then scanned (what an upload
  went through until the reduced decoding: `qr.decode` of that array is the same path);
- after: `companion.vision.decode(bytes)`, the uploads' entry (reduced first, full size
  only while stuck and within `qr.FULL_PASS_PIXELS`).

Peak growth is the process's VmHWM after the decode less its VmRSS just before (the
photo's bytes already read, OpenCV loaded and warmed up; the peak reset through
/proc/self/clear_refs). CPU is `time.process_time` (every thread of the process). Each
figure is the median of --repeat runs.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SIZE = (8400, 4725)  # 39.7 megapixels, under qr.MAX_PIXELS
BOMB = (30_000, 30_000)  # 900 megapixels, refused
PAYLOAD = "http://192.168.1.20:5000/c/the_spice_must_flow/3"


def _status(field: str) -> int:
    """A /proc/self/status figure in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(path: str, mode: str) -> dict[str, Any]:
    """Decode the photo at `path` once, the `mode` way, and measure it (in this process)."""
    import cv2
    import numpy as np

    from companion import vision
    from companion.vision import qr

    data = Path(path).read_bytes()
    warm = io.BytesIO()
    from PIL import Image

    Image.new("L", (640, 480), 128).save(warm, format="JPEG")
    vision.decode(warm.getvalue())  # loads OpenCV's code and tables: not measured
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS
    before = _status("VmRSS")
    cpu, wall = time.process_time(), time.perf_counter()
    codes: list[str] = []
    decoded: list[int] = []
    refused = ""
    try:
        if mode == "before":
            gray = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
            result = qr.decode(np.asarray(gray, np.uint8))
        else:
            result = vision.decode(data)
        codes, decoded = [c.payload for c in result.codes], list(result.decoded)
    except qr.ImageTooLarge as exc:  # the pixel bomb: refused from its header
        refused = str(exc)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {
        "codes": codes,
        "decoded": decoded,
        "refused": refused,
        "peak_growth_mb": (_status("VmHWM") - before) / 1024,
        "cpu_ms": cpu * 1000,
        "wall_ms": wall * 1000,
    }


def photos(folder: Path) -> dict[str, Path]:
    from PIL import Image

    from companion.vision.synth import make_scene

    made = {}
    for name, payloads in (("with a sticker", (PAYLOAD,)), ("no sticker", ())):
        scene = make_scene(11, (1280, 720), kinds=(), payloads=payloads)
        large = scene.image.resize(SIZE, Image.Resampling.BICUBIC)
        path = folder / f"{name.replace(' ', '-')}.jpg"
        large.save(path, format="JPEG", quality=90)
        made[name] = path
    # Issue 17's pixel bomb: 30000x30000 blank pixels in a PNG of about 150 KB (its
    # "before" would need 4.5 GB of memory: only the way uploads go now is measured).
    bomb = folder / "bomb.png"
    Image.new("1", BOMB).save(bomb, format="PNG", optimize=True)
    made["pixel bomb (PNG)"] = bomb
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/bench_upload.py")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--child", nargs=2, metavar=("PATH", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(*args.child)))
        return 0
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, path in photos(Path(folder)).items():
            megabytes = path.stat().st_size / 1e6
            for mode in ("after",) if name.startswith("pixel bomb") else ("before", "after"):
                runs = [
                    json.loads(
                        subprocess.run(
                            [sys.executable, __file__, "--child", str(path), mode],
                            check=True,
                            capture_output=True,
                            text=True,
                        ).stdout
                    )
                    for _ in range(args.repeat)
                ]
                results[f"{name}, {mode}"] = {
                    "file_mb": round(megabytes, 2),
                    "codes": runs[0]["codes"],
                    "decoded": runs[0]["decoded"],
                    "refused": runs[0]["refused"],
                    **{
                        key: round(statistics.median(r[key] for r in runs), 1)
                        for key in ("peak_growth_mb", "cpu_ms", "wall_ms")
                    },
                }
    if args.json:
        print(json.dumps({"size": SIZE, "repeat": args.repeat, "results": results}))
        return 0
    print(f"a {SIZE[0]}x{SIZE[1]} JPEG ({SIZE[0] * SIZE[1] / 1e6:.1f} MP), median of {args.repeat}")
    print(
        f"{'photo, path':28} {'codes':>5} {'decoded at':>11} {'peak MB':>8}"
        f" {'CPU ms':>8} {'wall ms':>8}"
    )
    for name, r in results.items():
        decoded = "refused" if r["refused"] else ",".join(f"1/{d}" for d in r["decoded"])
        print(
            f"{name:28} {len(r['codes']):>5} {decoded:>11} {r['peak_growth_mb']:>8.1f}"
            f" {r['cpu_ms']:>8.1f} {r['wall_ms']:>8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
