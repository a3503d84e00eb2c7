"""The photo generator: deterministic, truthful about where its codes are."""

from __future__ import annotations

import json

import pytest

from companion.vision import bench
from companion.vision.synth import KINDS, SIZES, make_scene, scenes


def test_same_seed_same_picture_other_seed_other_picture():
    a = make_scene(5, SIZES[0])
    assert make_scene(5, SIZES[0]).jpeg == a.jpeg
    assert make_scene(6, SIZES[0]).jpeg != a.jpeg


@pytest.mark.parametrize("size", SIZES)
def test_scenes_have_the_asked_size_codes_and_kinds(size):
    scene = make_scene(3, size, count=5, kinds=("glare", "small"))
    assert scene.image.size == size
    assert scene.kinds == {"glare", "small"}
    assert 1 <= len(scene.codes) <= 5
    for code in scene.codes:
        assert code.modules >= 21
        assert 1.7 <= code.module_px <= 3.5
        assert all(0 <= x < size[0] and 0 <= y < size[1] for x, y in code.corners)


def test_benchmark_set_mixes_sizes_counts_and_distortions():
    batch = list(scenes(12, seed=1))
    assert {s.size for s in batch} == set(SIZES)
    assert {len(s.codes) for s in batch} >= {1, 2} or max(len(s.codes) for s in batch) > 2
    assert set().union(*(s.kinds for s in batch)) <= set(KINDS)


def test_bench_json_reports_both_decoders(capsys):
    assert bench.main(["--images", "4", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == 4
    assert set(report["ours"]) >= {"rate", "median_ms", "p95_ms", "by_size"}
    assert 0 <= report["ours"]["rate"] <= 1
    if report["zxing"] is not None:
        assert set(report["zxing"]) >= {"rate", "median_ms", "p95_ms"}
