"""A stable JSON form for frozen dataclasses, driven by their type hints.

Events, options and states are plain frozen dataclasses; this module turns them into JSON-ready
values (dicts, lists, strings, numbers) and back. Tuples become lists, frozensets become sorted
lists, enums become their values, so the same value always gives the same JSON.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar

from companion.core.errors import FormatError

T = TypeVar("T")
JSON = Any  # dict | list | str | int | float | bool | None


def to_json(value: Any) -> JSON:
    """The JSON-ready form of a dataclass, enum, collection or primitive."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: to_json(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, frozenset | set):
        return sorted((to_json(item) for item in value), key=_sort_key)
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key.value if isinstance(key, enum.Enum) else key): to_json(item)
                for key, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"no JSON form for {type(value).__name__}")


def _sort_key(item: JSON) -> str:
    return repr(item)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(target: Any, data: JSON, where: str = "value") -> Any:
    """Rebuild a value of type `target` from its JSON form; FormatError says where it is wrong."""
    origin = typing.get_origin(target)
    arguments = typing.get_args(target)
    if target is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in arguments:
            return None
        errors = []
        for option in arguments:
            if option is type(None):
                continue
            try:
                return from_json(option, data, where)
            except FormatError as error:
                errors.append(str(error))
        raise FormatError("; ".join(errors))
    if origin is typing.Literal:
        if data not in arguments:
            raise FormatError(f"{where}: expected one of {list(arguments)}, got {data!r}")
        return data
    if origin in (tuple, frozenset, list) or target in (tuple, frozenset):
        if not isinstance(data, list):
            raise FormatError(f"{where}: expected a list, got {type(data).__name__}")
        if origin is tuple and arguments and arguments[-1] is not Ellipsis:
            if len(arguments) != len(data):
                raise FormatError(f"{where}: expected {len(arguments)} items, got {len(data)}")
            return tuple(from_json(arg, item, f"{where}[{i}]")
                         for i, (arg, item) in enumerate(zip(arguments, data, strict=True)))
        item_type = arguments[0] if arguments else Any
        items = [from_json(item_type, item, f"{where}[{i}]") for i, item in enumerate(data)]
        return frozenset(items) if origin is frozenset else tuple(items)
    if origin in (dict, Mapping) or target in (dict, Mapping):
        if not isinstance(data, dict):
            raise FormatError(f"{where}: expected an object, got {type(data).__name__}")
        key_type, value_type = arguments or (str, Any)
        return {from_json(key_type, key, where): from_json(value_type, item, f"{where}.{key}")
                for key, item in data.items()}
    if isinstance(target, type) and issubclass(target, enum.Enum):
        try:
            return target(data)
        except ValueError:
            raise FormatError(f"{where}: {data!r} is not a valid {target.__name__}") from None
    if isinstance(target, type) and dataclasses.is_dataclass(target):
        return _dataclass_from_json(target, data, where)
    if target is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if target in (int, str, bool) and type(data) is target:
        return data
    if target is type(None) and data is None:
        return None
    # NewType ids are plain strings underneath.
    supertype = getattr(target, "__supertype__", None)
    if supertype is not None:
        return from_json(supertype, data, where)
    raise FormatError(f"{where}: expected {getattr(target, '__name__', target)}, got {data!r}")


def _dataclass_from_json(cls: type[T], data: JSON, where: str) -> T:
    if not isinstance(data, dict):
        raise FormatError(f"{where}: expected an object, got {type(data).__name__}")
    hints = _hints(cls)
    values = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        if field.name in data:
            values[field.name] = from_json(hints[field.name], data[field.name], f"{where}.{field.name}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise FormatError(f"{where}: missing field {field.name!r}")
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise FormatError(f"{where}: {error}") from None
