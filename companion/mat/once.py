"""A property worked out once per object, kept in the object's ``__dict__``."""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar, overload

T = TypeVar("T")


class once(Generic[T]):  # noqa: N801 (a decorator, named as ``functools.cached_property``)
    """``functools.cached_property`` without its lock: Python 3.11's takes a lock at each
    first read, and a look reads a new node's ``board_hash`` and ``occupancy`` first for up
    to hundreds of nodes (the lock was most of that read). The recognizer runs in one thread.
    A non-data descriptor: once the value is in the object's ``__dict__``, a read finds it
    there, without calling this."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> "once[T]": ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> "T | once[T]":
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value
