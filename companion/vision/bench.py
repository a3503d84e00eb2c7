"""Benchmark: our decoder against zxing-cpp on generated photos, side by side.

    python -m companion.vision.bench [--json] [--images N] [--seed S] [--ablation]

Images come from `synth.scenes` (half 1280x720, half 1920x1080; 1-6 stickers; random
perspective, rotation, blur, noise, low light, glare, small codes; JPEG). Generation is
not timed. Each image is then decoded by both decoders, alternating which goes first,
from the same in-memory Pillow image, so each pays its own pixel conversion. OpenCV runs
single-threaded (`cv2.setNumThreads(1)`); zxing-cpp reads on the calling thread. Only
QR codes are asked of zxing-cpp (its other options stay at their defaults, try-harder on).
Each call's CPU time (`time.process_time`, the target's measure: other work on a shared
machine does not count) and wall time are printed; the targets are checked on CPU time.

A code counts as detected when a decoder returns its exact payload text; a returned text
that is not in the image counts as wrong. zxing-cpp is optional (`pip install zxing-cpp`,
the `bench` extra); without it only our figures are reported.

`--ablation` also runs our decoder with each pipeline step switched off or each fallback
switched on, and OpenCV's own detectors alone, on the same images.

`--upload` hands our decoder each photo's JPEG bytes, as an uploaded photo reaches it
(`vision.decode`): its JPEG decoding is then timed too, and large photos are decoded
reduced first (see `qr.decode`). `--scale N` enlarges every photo N times (bicubic, JPEG
quality 90, not timed), as a phone's 12-40 megapixel photo of the same scene.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from types import ModuleType
from typing import Any, Literal

from PIL import Image

from companion.vision import qr
from companion.vision.synth import KINDS, SIZES, Scene, scenes

__all__ = ["Case", "Tally", "main", "run"]

RATE_TARGET = 0.98  # of zxing-cpp's detection rate
P95_TARGET_MS = 30.0  # CPU time per 1280x720 image

Photo = Image.Image | bytes  # a decoded image, or the encoded bytes of an upload
Decoder = Callable[[Photo], list[str]]
SCALED_QUALITY = 90  # JPEG quality of the photos --scale enlarges


@dataclass(frozen=True, slots=True)
class Case:
    """One benchmark image, kept as its JPEG (300 decoded photos would take 1.5 GB)."""

    size: tuple[int, int]
    kinds: frozenset[str]
    payloads: tuple[str, ...]
    jpeg: bytes
    scale: int = 1  # the photo is `jpeg` enlarged this many times (made when asked for)

    @classmethod
    def of(cls, scene: Scene, scale: int = 1) -> Case:
        size = (scene.size[0] * scale, scene.size[1] * scale)
        payloads = tuple(c.payload for c in scene.codes)
        return cls(size, frozenset(scene.kinds), payloads, scene.jpeg, scale)

    def encoded(self) -> bytes:
        """The photo's JPEG, enlarged `scale` times (not kept: 300 of them would not fit)."""
        if self.scale == 1:
            return self.jpeg
        with Image.open(io.BytesIO(self.jpeg)) as small:
            large = small.resize(self.size, Image.Resampling.BICUBIC)
        out = io.BytesIO()
        large.save(out, format="JPEG", quality=SCALED_QUALITY)
        return out.getvalue()

    def image(self, encoded: bytes | None = None) -> Image.Image:
        image = Image.open(io.BytesIO(self.encoded() if encoded is None else encoded))
        image.load()
        return image


@dataclass
class Tally:
    """Detections and timings of one decoder over a set of scenes."""

    found: int = 0
    present: int = 0
    wrong: int = 0
    ms: dict[str, list[float]] = field(default_factory=dict)
    cpu_ms: dict[str, list[float]] = field(default_factory=dict)
    by_kind: dict[str, list[int]] = field(default_factory=dict)

    def add(self, case: Case, payloads: Sequence[str], ms: float, cpu_ms: float) -> None:
        want = Counter(case.payloads)
        got = Counter(payloads)
        hit = sum((want & got).values())
        self.found += hit
        self.present += sum(want.values())
        self.wrong += sum((got - want).values())
        self.ms.setdefault(_size(case), []).append(ms)
        self.cpu_ms.setdefault(_size(case), []).append(cpu_ms)
        kinds: list[str] = sorted(case.kinds) or ["none"]
        for kind in kinds:
            tally = self.by_kind.setdefault(kind, [0, 0])
            tally[0] += hit
            tally[1] += len(case.payloads)

    @property
    def rate(self) -> float:
        return self.found / self.present if self.present else 0.0

    def summary(self) -> dict[str, Any]:
        every = [t for times in self.ms.values() for t in times]
        every_cpu = [t for times in self.cpu_ms.values() for t in times]
        return {
            "rate": round(self.rate, 4),
            "found": self.found,
            "present": self.present,
            "wrong": self.wrong,
            "median_ms": _round(_percentile(every, 0.5)),
            "p95_ms": _round(_percentile(every, 0.95)),
            "cpu_median_ms": _round(_percentile(every_cpu, 0.5)),
            "cpu_p95_ms": _round(_percentile(every_cpu, 0.95)),
            "by_size": {
                size: {
                    "images": len(times),
                    "median_ms": _round(_percentile(times, 0.5)),
                    "p95_ms": _round(_percentile(times, 0.95)),
                    "cpu_median_ms": _round(_percentile(self.cpu_ms[size], 0.5)),
                    "cpu_p95_ms": _round(_percentile(self.cpu_ms[size], 0.95)),
                }
                for size, times in sorted(self.ms.items())
            },
            "by_kind": {
                kind: round(hit / total, 4) if total else None
                for kind, (hit, total) in sorted(self.by_kind.items())
            },
        }


def _size(case: Case) -> str:
    return f"{case.size[0]}x{case.size[1]}"


def _round(value: float) -> float:
    return round(value, 2)


def _percentile(values: Sequence[float], quantile: float) -> float:
    """Nearest-rank percentile (what "p95" means in the report)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(quantile * len(ordered) + 0.5) - 1))]


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _zxing() -> ModuleType | None:
    try:
        return importlib.import_module("zxingcpp")
    except ImportError:
        return None


def ours(options: qr.Options = qr.DEFAULT) -> Decoder:
    def read(image: Photo) -> list[str]:
        return [c.payload for c in qr.decode(image, options=options).codes]

    return read


def zxing_decoder(zxingcpp: ModuleType) -> Decoder:
    qr_only = zxingcpp.BarcodeFormat.QRCode

    def read(image: Photo) -> list[str]:
        if isinstance(image, bytes):
            image = Image.open(io.BytesIO(image))
        return [str(r.text) for r in zxingcpp.read_barcodes(image, formats=qr_only)]

    return read


def stock(which: Literal["plain", "aruco"]) -> Decoder:
    def read(image: Photo) -> list[str]:
        return [c.payload for c in qr.decode_stock(image, which).codes]

    return read


def run(
    images: Sequence[Case], decoders: dict[str, Decoder], upload: bool = False
) -> dict[str, Tally]:
    """Decode every image with every decoder, alternating their order; time each call.

    Wall time (perf_counter) and this process's CPU time (process_time) are both kept:
    on a shared machine the CPU time is the decoder's own cost. With `upload`, decoders
    get the JPEG bytes (their decoding timed), else a decoded Pillow image.
    """
    tallies = {name: Tally() for name in decoders}
    names = list(decoders)
    if images:
        for read in decoders.values():  # first calls load code and tables: not timed
            read(images[0].image())
    for i, case in enumerate(images):
        encoded = case.encoded()  # enlarging and (without `upload`) decoding: not timed
        image: Photo = encoded if upload else case.image(encoded)
        order = names if i % 2 == 0 else names[::-1]
        for name in order:
            start, cpu_start = time.perf_counter(), time.process_time()
            payloads = decoders[name](image)
            cpu_ms = (time.process_time() - cpu_start) * 1000
            ms = (time.perf_counter() - start) * 1000
            tallies[name].add(case, payloads, ms, cpu_ms)
    return tallies


ABLATION: tuple[tuple[str, dict[str, Any]], ...] = (
    ("default", {}),
    ("no sharpening", {"sharpen": False}),
    ("no local threshold", {"local_threshold": False}),
    ("no alignment pattern (finders' grid only)", {"alignment": False}),
    ("no retry on the finders' grid", {"base_retry": False}),
    ("no perspective from the finders' sizes", {"perspective": False}),
    ("no version retry (estimate only)", {"version_retry": False}),
    ("timing gate 0.25 (more reads)", {"min_timing": 0.25}),
    ("threshold window 41 px", {"block": 41}),
    ("+ CLAHE first", {"clahe": True}),
    ("+ second binarisation (21 px, offset 1)", {"retry": ((21, 1.0),)}),
    ("+ 2x upscale fallback", {"upscale": True}),
    ("+ QRCodeDetector fallback", {"stock": "plain"}),
    ("+ QRCodeDetectorAruco fallback", {"stock": "aruco"}),
)


def _ablation(images: Sequence[Case]) -> dict[str, dict[str, Any]]:
    decoders: dict[str, Decoder] = {
        name: ours(dataclasses.replace(qr.DEFAULT, **changes)) for name, changes in ABLATION
    }
    decoders["OpenCV QRCodeDetector alone"] = stock("plain")
    decoders["OpenCV QRCodeDetectorAruco alone"] = stock("aruco")
    return {name: tally.summary() for name, tally in run(images, decoders).items()}


def _table(rows: Iterable[tuple[str, dict[str, Any]]], scale: int = 1) -> str:
    (sw, sh), (lw, lh) = ((w * scale, h * scale) for w, h in SIZES)
    lines = [
        "milliseconds per image; cpu = this process's CPU time, wall = elapsed time",
        f"{'decoder':42} {'rate':>7} {'wrong':>5} {'cpu med':>7} {'cpu p95':>7}"
        f" {f'{sh}p cpu med':>12} {f'{sh}p cpu p95':>12} {f'{lh}p cpu p95':>13}"
        f" {'wall med':>8} {'wall p95':>8}",
    ]
    for name, s in rows:
        by = s["by_size"]
        small, large = by.get(f"{sw}x{sh}", {}), by.get(f"{lw}x{lh}", {})
        lines.append(
            f"{name:42} {s['rate']:>7.2%} {s['wrong']:>5} {s['cpu_median_ms']:>7.1f}"
            f" {s['cpu_p95_ms']:>7.1f} {small.get('cpu_median_ms', 0):>12.1f}"
            f" {small.get('cpu_p95_ms', 0):>12.1f} {large.get('cpu_p95_ms', 0):>13.1f}"
            f" {s['median_ms']:>8.1f} {s['p95_ms']:>8.1f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a table, or one JSON object with --json."""
    parser = argparse.ArgumentParser(prog="python -m companion.vision.bench")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--images", type=int, default=300, help="how many images (300)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the image set (0)")
    parser.add_argument("--ablation", action="store_true", help="also time pipeline variants")
    parser.add_argument(
        "--upload", action="store_true", help="ours decodes the JPEG bytes, as an upload"
    )
    parser.add_argument("--scale", type=int, default=1, help="enlarge every photo N times (1)")
    args = parser.parse_args(argv)

    import cv2

    cv2.setNumThreads(1)

    def say(message: str) -> None:
        if not args.json:
            print(message, file=sys.stderr)

    say(f"generating {args.images} images (seed {args.seed})...")
    start = time.perf_counter()
    images = [Case.of(scene, args.scale) for scene in scenes(args.images, args.seed)]
    say(f"  {time.perf_counter() - start:.0f} s, {sum(len(c.payloads) for c in images)} codes")

    zxingcpp = _zxing()
    decoders: dict[str, Decoder] = {"ours": ours()}
    if zxingcpp is not None:
        decoders["zxing"] = zxing_decoder(zxingcpp)
    else:
        say("zxing-cpp is not installed (pip install zxing-cpp): reporting ours only")
    tallies = run(images, decoders, args.upload)
    summary = {name: tally.summary() for name, tally in tallies.items()}

    result: dict[str, Any] = {
        "ours": summary["ours"],
        "zxing": summary.get("zxing"),
        "images": len(images),
        "codes": sum(len(c.payloads) for c in images),
        "seed": args.seed,
        "upload": args.upload,
        "scale": args.scale,
        "sizes": dict(Counter(_size(s) for s in images)),
        "kinds": {k: sum(k in s.kinds for s in images) for k in KINDS},
        "threads": {"opencv": cv2.getNumThreads(), "zxing": 1},
        "versions": {
            "opencv": cv2.__version__,
            "zxing-cpp": _version("zxing-cpp") if zxingcpp else None,
        },
    }
    ours_720 = summary["ours"]["by_size"].get("1280x720", {}).get("cpu_p95_ms")
    ratio = None
    if "zxing" in summary and summary["zxing"]["rate"]:
        ratio = round(summary["ours"]["rate"] / summary["zxing"]["rate"], 4)
    result["rate_vs_zxing"] = ratio
    result["targets"] = {
        "rate_vs_zxing_min": RATE_TARGET,
        "cpu_p95_ms_1280x720_max": P95_TARGET_MS,
        "rate_met": None if ratio is None else ratio >= RATE_TARGET,
        "p95_met": None if ours_720 is None else ours_720 < P95_TARGET_MS,
    }
    if args.ablation:
        say("ablation...")
        result["ablation"] = _ablation(images)

    if args.json:
        print(json.dumps(result, indent=None))
        return 0
    print(_table(summary.items(), args.scale))
    print()
    if ratio is not None:
        print(f"ours / zxing-cpp detection rate: {ratio:.1%} (target >= {RATE_TARGET:.0%})")
    print(f"ours CPU p95 at 1280x720: {ours_720} ms (target < {P95_TARGET_MS:.0f} ms)")
    kinds = sorted({k for s in summary.values() for k in s["by_kind"]})
    print()
    print(f"{'distortion':12}" + "".join(f" {name:>8}" for name in summary))
    for kind in kinds:
        cells = "".join(f" {s['by_kind'].get(kind) or 0:>8.1%}" for s in summary.values())
        print(f"{kind:12}{cells}")
    if args.ablation:
        print()
        print(_table(result["ablation"].items(), args.scale))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
