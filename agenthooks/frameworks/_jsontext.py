"""JSON settings as text: a parser that keeps where every value is, and the splices that
add or take out one array item or object member without touching any other byte.

It reads JSON and JSONC (`//` and `/* */` comments, trailing commas: Gemini CLI and VS
Code-style editors allow them), so a user's comments, indent, key order, final newline
and line endings survive a merge. A splice that removes an item is the exact inverse of
the splice that added it: install then uninstall gives the file back byte for byte.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # untyped in typeshed
from typing import Any, Union

_WS = " \t\r\n"
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")


class SyntaxProblem(ValueError):
    def __init__(self, text: str, pos: int, what: str) -> None:
        self.what = what
        self.line = text.count("\n", 0, pos) + 1
        self.col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        super().__init__(f"{what} (line {self.line}, column {self.col})")


@dataclass
class Value:
    """A value and its span [start, end) in the text."""
    start: int
    end: int
    data: Any = None
    items: list["Item"] = field(default_factory=list)  # array items / object members
    kind: str = "scalar"  # scalar | array | object

    def member(self, key: str) -> "Item | None":
        found = [m for m in self.items if m.key == key]
        return found[-1] if found else None


@dataclass
class Item:
    """An array item or an object member: span from its key (or value) to the value's end."""
    start: int
    value: Value
    key: str | None = None
    comma: int | None = None  # the comma after it, if any

    @property
    def end(self) -> int:
        return self.value.end


Node = Union[Value, Item]


def line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip(text: str, i: int) -> int:
    """The next position that is not whitespace or a comment."""
    n = len(text)
    while i < n:
        c = text[i]
        if c in _WS:
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise SyntaxProblem(text, i, "a comment is never closed")
            i = j + 2
        else:
            break
    return i


def _value(text: str, i: int, depth: int) -> Value:
    if depth > 200:
        raise SyntaxProblem(text, i, "nested too deeply")
    if i >= len(text):
        raise SyntaxProblem(text, i, "a value is missing")
    c = text[i]
    if c == '"':
        try:
            s, end = scanstring(text, i + 1)
        except ValueError:
            raise SyntaxProblem(text, i, "a string is not closed or has a bad escape") from None
        return Value(i, end, s)
    if c in "[{":
        close = "]" if c == "[" else "}"
        node = Value(i, i, [] if c == "[" else {}, kind="array" if c == "[" else "object")
        j = _skip(text, i + 1)
        while True:
            if j < len(text) and text[j] == close:
                node.end = j + 1
                return node
            if c == "{":
                if j >= len(text) or text[j] != '"':
                    raise SyntaxProblem(text, j, "expected a key in double quotes")
                key = _value(text, j, depth + 1)
                k = _skip(text, key.end)
                if k >= len(text) or text[k] != ":":
                    raise SyntaxProblem(text, k, "expected ':'")
                val = _value(text, _skip(text, k + 1), depth + 1)
                item = Item(j, val, key.data)
                node.data[key.data] = val.data
            else:
                val = _value(text, j, depth + 1)
                item = Item(j, val)
                node.data.append(val.data)
            node.items.append(item)
            j = _skip(text, item.end)
            if j < len(text) and text[j] == ",":
                item.comma = j
                j = _skip(text, j + 1)
            elif j >= len(text) or text[j] != close:
                raise SyntaxProblem(text, j, f"expected ',' or '{close}'")
    m = _SCALAR.match(text, i)
    if not m:
        raise SyntaxProblem(text, i, "expected a value")
    return Value(i, m.end(), json.loads(m.group()))


def parse(text: str) -> Value:
    """The document's top value. Raises SyntaxProblem (with line and column)."""
    start = _skip(text, 0)
    top = _value(text, start, 0)
    rest = _skip(text, top.end)
    if rest != len(text):
        raise SyntaxProblem(text, rest, "extra data after the end")
    return top


def duplicate(obj: Value) -> tuple[str, Item, Item] | None:
    """The first key that appears twice in an object (both members), or None."""
    seen: dict[str, Item] = {}
    for m in obj.items:
        key = m.key or ""
        if key in seen:
            return key, seen[key], m
        seen[key] = m
    return None


# --- style ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    unit: str   # one level of indent: "  ", "    ", "\t"
    nl: str     # "\n" or "\r\n"


def style_of(text: str) -> Style:
    nl = "\r\n" if text.count("\r\n") * 2 > text.count("\n") else "\n"
    widths = []
    for line in text.split("\n"):
        body = line.lstrip(" \t")
        if not body.strip() or body.startswith(("*", "/")):
            continue
        lead = line[:len(line) - len(body)]
        if lead.startswith("\t"):
            return Style("\t", nl)
        if lead:
            widths.append(len(lead))
    return Style(" " * (min(widths) if widths else 2), nl)


def _ws_before(text: str, pos: int) -> int:
    while pos > 0 and text[pos - 1] in _WS:
        pos -= 1
    return pos


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    line = text[start:pos]
    return line[:len(line) - len(line.lstrip(" \t"))]


def render(value: Any, style: Style, indent: str | None) -> str:
    """value as JSON: on several lines continuing at indent, or on one line (indent None)."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent=style.unit, ensure_ascii=False).replace("\n", style.nl + indent)


def _piece(key: str | None, value: Any, style: Style, indent: str | None) -> str:
    head = "" if key is None else json.dumps(key, ensure_ascii=False) + ": "
    return head + render(value, style, indent)


# --- splices -------------------------------------------------------------------------


def insert(text: str, container: Value, index: int, value: Any, key: str | None = None) -> str:
    """text with value (a member `key: value` in an object) at position index of container."""
    style = style_of(text)
    items = container.items
    if not items:
        close = container.end - 1
        inner = text[container.start + 1:close]
        base = _line_indent(text, container.start)
        if "\n" not in text.strip():
            return text[:container.start + 1] + _piece(key, value, style, None) + text[close:]
        piece = style.nl + base + style.unit + _piece(key, value, style, base + style.unit)
        if not inner.strip(_WS):
            return text[:container.start + 1] + piece + style.nl + base + text[close:]
        at = _ws_before(text, close)  # after the comments it holds
        return text[:at] + piece + style.nl + base + text[close:]
    if index < len(items):
        ref = items[index]
        sep = text[_ws_before(text, ref.start):ref.start]
        indent = sep.rsplit("\n", 1)[1] if "\n" in sep else None
        piece = _piece(key, value, style, indent)
        return text[:ref.start] + piece + "," + (sep if indent is not None else " ") + text[ref.start:]
    last = items[-1]
    sep = text[_ws_before(text, last.start):last.start]
    if "\n" in sep:
        indent = sep.rsplit("\n", 1)[1]
        piece = "," + style.nl + indent + _piece(key, value, style, indent)
    else:
        piece = ", " + _piece(key, value, style, None)
    return text[:last.end] + piece + text[last.end:]


def remove(text: str, container: Value, index: int) -> str:
    """text without item index of container: the inverse of insert()."""
    items = container.items
    item = items[index]
    if len(items) == 1:
        close = container.end - 1
        before = text[container.start + 1:item.start]
        after = text[item.end:close]
        if not before.strip(_WS) and not after.strip(_WS + ","):
            return text[:container.start + 1] + text[close:]
        end = item.comma + 1 if item.comma is not None else item.end
        return text[:_ws_before(text, item.start)] + text[end:]
    if index < len(items) - 1:
        assert item.comma is not None
        end = item.comma + 1
        while end < len(text) and text[end] in _WS:
            end += 1
        return text[:item.start] + text[end:]
    comma = items[index - 1].comma
    assert comma is not None
    return text[:comma] + text[comma + 1:_ws_before(text, item.start)] + text[item.end:]


def replace(text: str, value: Value, new: Any) -> str:
    """text with one value replaced by new, rendered at that value's indent."""
    indent = _line_indent(text, value.start)
    one_line = "\n" not in text.strip()
    return text[:value.start] + render(new, style_of(text), None if one_line else indent) + text[value.end:]
