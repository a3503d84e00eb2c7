"""A small LRU of rendered pages, for pages many screens ask for while nothing changes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable


class PageCache:
    """The `size` pages asked for last, by key; a key must name all a page depends on."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pages: OrderedDict[Hashable, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable, render: Callable[[], str]) -> str:
        """The page kept for `key`, or `render()`'s, then kept."""
        with self.lock:
            html = self.pages.get(key)
            if html is not None:
                self.pages.move_to_end(key)
                return html
        html = render()
        with self.lock:
            self.pages[key] = html
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)
        return html

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()
