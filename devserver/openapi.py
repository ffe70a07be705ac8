"""Discord's OpenAPI spec as the devserver reads it: the vendored file, the documented exceptions, the union rewrite.

``load_spec()`` reads ``devserver/spec/openapi.json`` (package data; MIT, see ``spec/README.md``), applies
``EXCEPTIONS`` (each a JSON pointer, the schema text it must still replace, the schema put there, and why) and
rewrites the unions discriminated by a required ``type`` (``discriminate``). Pure data work: no validation here
(``conformance.py`` validates requests against the result). Raises ``SpecError`` when the file cannot be read or an
exception no longer matches the spec text it replaces.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

SPEC_URI = "urn:discord-api-spec:v10"  # the base URI the spec is registered under (its "#/components/..." refs)


class SpecError(RuntimeError):
    """The vendored spec cannot be loaded or an exception no longer applies to it (the spec was updated)."""


@dataclass(frozen=True)
class SpecException:
    """A documented difference between the spec and what Discord accepts: the schema at ``pointer`` (a JSON
    pointer into the spec), which must still equal ``replaces`` (else ``SpecError``: the spec changed, review
    the exception), becomes ``schema``; ``reason`` says where Discord documents or shows it."""

    pointer: str
    replaces: dict[str, Any]
    schema: dict[str, Any]
    reason: str


SNOWFLAKE = {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"}  # the spec's SnowflakeType

EXCEPTIONS: tuple[SpecException, ...] = (
    SpecException(
        "/components/schemas/SnowflakeType",
        SNOWFLAKE,
        {"anyOf": [SNOWFLAKE, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]},
        "A snowflake may be sent as a JSON integer: Discord's API accepts it (its documentation only promises "
        "strings in what it RETURNS), and discord.py sends integers, e.g. create_dm's recipient_id and the ids "
        "of the attachments an edit keeps. Discord's documentation also gives a NEW attachment's id as the "
        "integer index n of its files[n] part (Uploading Files), listed as a known difference in the spec's "
        "README; this exception covers it.",
    ),
)


def escape_pointer(token: str) -> str:
    """One JSON pointer token (``/`` -> ``~1``, ``~`` -> ``~0``)."""
    return token.replace("~", "~0").replace("/", "~1")


def _pointer_get(doc: Any, pointer: str) -> Any:
    node = doc
    for raw in pointer.lstrip("/").split("/"):
        key = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(key)] if isinstance(node, list) else node[key]
    return node


def _apply(doc: Any, exc: SpecException) -> None:
    head, _, last = exc.pointer.rpartition("/")
    try:
        parent = _pointer_get(doc, head) if head else doc
    except (KeyError, IndexError, ValueError) as err:
        raise SpecError(f"spec exception {exc.pointer} no longer matches the spec: {err!r} missing") from err
    key = last.replace("~1", "/").replace("~0", "~")
    if parent.get(key) != exc.replaces:
        raise SpecError(f"spec exception {exc.pointer} no longer matches the spec: {parent.get(key)!r}")
    parent[key] = exc.schema


def _resolve(spec: dict[str, Any], node: Any) -> Any:
    seen = 0
    while isinstance(node, dict) and set(node) == {"$ref"} and node["$ref"].startswith("#/") and seen < 20:
        cur: Any = spec
        for key in node["$ref"][2:].split("/"):
            cur = cur[key.replace("~1", "/").replace("~0", "~")]
        node, seen = cur, seen + 1
    return node


def _kinds(spec: dict[str, Any], branch: Any) -> list[Any] | None:
    """The ``type`` discriminator values of a union branch: an object schema requiring ``type`` whose schema
    is an ``enum``/``const``; None when the branch is not of that form."""
    b = _resolve(spec, branch)
    if not isinstance(b, dict) or b.get("type") != "object" or "type" not in (b.get("required") or []):
        return None
    t = _resolve(spec, (b.get("properties") or {}).get("type"))
    if not isinstance(t, dict):
        return None
    if "const" in t:
        return [t["const"]]
    vals = t.get("enum")
    return list(vals) if isinstance(vals, list) and vals else None


def discriminate(spec: dict[str, Any]) -> int:
    """Rewrite, in place, every ``oneOf``/``anyOf`` whose branches are object schemas each requiring a ``type``
    from its own ``enum``/``const`` (disjoint between branches) into ``if type in K_i then branch_i`` clauses plus
    ``type`` in the union of the K_i. Equivalent for every instance (the branches are mutually exclusive by
    ``type``; each requires ``type: object``), but only the branch meant for the value is validated: about 3x
    less work on the command tree, and an error names the failing field instead of "not valid under any of the
    given schemas". Returns the number of unions rewritten."""
    count = 0

    def walk(node: Any) -> None:
        nonlocal count
        if isinstance(node, dict):
            for kw in ("oneOf", "anyOf"):
                branches = node.get(kw)
                notes = {k for k in node if k.startswith("x-")} | {kw, "description", "title"}
                if isinstance(branches, list) and len(branches) >= 2 and set(node) <= notes:
                    kinds = [_kinds(spec, b) for b in branches]
                    flat = [v for k in kinds if k for v in k]
                    if all(kinds) and len(flat) == len(set(map(repr, flat))):
                        del node[kw]
                        node.update(
                            {
                                "type": "object",
                                "required": ["type"],
                                "properties": {"type": {"enum": flat}},
                                "allOf": [
                                    {"if": {"properties": {"type": {"enum": k}}}, "then": b}
                                    for k, b in zip(kinds, branches, strict=True)
                                ],
                            }
                        )
                        count += 1
            for v in list(node.values()):
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(spec)
    return count


def load_spec(
    raw: dict[str, Any] | None = None, exceptions: Iterable[SpecException] = EXCEPTIONS, *, fast: bool = True
) -> dict[str, Any]:
    """The vendored spec (``devserver/spec/openapi.json``, or ``raw``) with ``exceptions`` applied (a copy),
    its ``type``-discriminated unions rewritten by ``discriminate`` (unless ``fast=False``)."""
    fresh = raw is None
    if raw is None:
        try:
            raw = json.loads(resources.files("devserver").joinpath("spec", "openapi.json").read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise SpecError(f"cannot read devserver/spec/openapi.json: {exc}") from exc
    spec = raw if fresh else copy.deepcopy(raw)
    for exc in exceptions:
        _apply(spec, exc)
    if fast:
        discriminate(spec)
    return spec
