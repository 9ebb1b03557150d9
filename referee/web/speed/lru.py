"""A small thread-safe least-recently-used map: what every memory of the speed layer is made of."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    """A small thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        return None

    def peek(self, key: Hashable) -> V | None:
        """The value kept for ``key`` without making it the most recently used."""
        with self.lock:
            return self.items.get(key)

    def put(self, key: Hashable, value: V) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def discard(self, key: Hashable) -> None:
        with self.lock:
            self.items.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value
