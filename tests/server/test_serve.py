"""`python -m companion.serve`: what it does before it serves."""

from __future__ import annotations

import gc
from typing import Any

from companion import serve


def test_the_server_freezes_the_start_up_heap_before_it_serves(tmp_path, monkeypatch):
    seen: dict[str, Any] = {}

    def fake_serve(app: Any, **kwargs: Any) -> None:
        seen["frozen"] = gc.get_freeze_count()
        seen["kwargs"] = kwargs

    monkeypatch.setattr(serve, "serve", fake_serve)
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{tmp_path / 'c.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    gc.unfreeze()
    try:
        assert serve.main(["--host", "127.0.0.1", "--port", "0"]) == 0
    finally:
        gc.unfreeze()  # the other tests run with a normal heap
    assert seen["frozen"] > 0
    assert seen["kwargs"]["threads"] == 8
