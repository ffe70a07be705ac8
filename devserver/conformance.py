"""Conformance of every REST request to Discord's own OpenAPI specification (``devserver/spec/openapi.json``).

``Conformance.check(method, path, query, body)`` finds the operation (path template + method) a request below
``/api/v10`` means and validates its path and query parameters and its body (JSON, or a multipart request's
``payload_json`` with its ``files[n]`` parts) against the spec's JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12),
with ``jsonschema`` over a ``referencing`` registry holding the whole spec, so every ``#/components/...`` ``$ref``
resolves as written. It returns a ``SpecCheck``: the ``operation_id`` and the ``problems`` (``SpecProblem``), each
with the HTTP answer Discord gives for it (404 unknown route, 405 wrong method, 400/50035 Invalid Form Body).

A body jsonschema-rs (a compiled validator, when installed: ~50x faster) finds valid is accepted at once; one
it refuses is validated again by ``jsonschema``, whose problems are the answer (both implement JSON Schema
2020-12; ``tests/devserver/test_conformance.py`` checks they agree). The spec is read once per process, with
its documented exceptions applied and its ``type`` unions rewritten (``openapi.load_spec``).
Raises nothing on a bad request: problems are data. ``SpecError`` only if the vendored spec itself is unusable or
jsonschema/referencing (the ``test`` extra) are not installed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from devserver.openapi import SPEC_URI, SpecError, escape_pointer, load_spec

try:  # test/dev dependencies (pyproject's "test" extra), not the bot's
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError, best_match, by_relevance
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as _missing:  # pragma: no cover - only without the test extra
    MISSING: ImportError | None = _missing
else:
    MISSING = None
try:  # optional accelerator (test extra): a compiled validator answers "valid?" ~50x faster
    import jsonschema_rs
except ImportError:  # pragma: no cover - then every body goes through jsonschema
    jsonschema_rs = None

METHODS = ("get", "put", "post", "patch", "delete")
MAX_PROBLEMS = 10
MEMO_SIZE = 256  # bodies whose verdict is kept (validation is pure: same schema + same JSON = same problems)
NO_BODY = object()  # the request carried no body at all (distinct from an empty JSON object)

# Discord-style error codes (the ``_errors[].code`` of a 50035 answer) for the JSON Schema keyword that failed.
ERROR_CODES = {
    "type": "BASE_TYPE_BAD_TYPE",
    "required": "BASE_TYPE_REQUIRED",
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "exclusiveMaximum": "NUMBER_TYPE_MAX",
    "exclusiveMinimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
    "oneOf": "UNION_TYPE_CHOICES",
    "anyOf": "UNION_TYPE_CHOICES",
    "additionalProperties": "BASE_TYPE_UNKNOWN_FIELD",
}


@dataclass(frozen=True)
class SpecProblem:
    """One way a request breaks the spec.

    ``where``: ``"route"`` (no such path), ``"method"`` (path known, method not), ``"path"``/``"query"``
    (a parameter; ``at`` = (name, ...)), ``"content_type"``, or ``"body"`` (``at`` = the path into the JSON
    body, list indexes as ints). ``code``: Discord-style error code; ``message``: English; ``schema_path``: the
    failing keyword's location in the spec (JSON pointer), for the report.
    """

    where: str
    at: tuple[str | int, ...]
    code: str
    message: str
    schema_path: str = ""


@dataclass
class SpecCheck:
    """The outcome for one request: ``operation_id`` (None when no operation matched), ``template`` (the spec's
    path template), ``problems`` (empty = conformant). ``status``/``code``: what Discord answers when not ok."""

    operation_id: str | None
    template: str | None
    problems: list[SpecProblem] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)  # path parameters by the spec's names

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def status(self) -> int:
        wheres = {p.where for p in self.problems}
        return 404 if "route" in wheres else 405 if "method" in wheres else 400

    @property
    def code(self) -> int:
        return 0 if self.status in (404, 405) else 50035

    def summary(self) -> str:
        """One line per problem: ``body 0.options.0.max_value: 9007199254740992 is greater than ...``."""
        return "; ".join(f"{p.where} {'.'.join(map(str, p.at)) or '-'}: {p.message}" for p in self.problems)

    def form_errors(self) -> dict[str, Any]:
        """Discord's nested ``errors`` object of a 50035 answer (parameters nested under their name)."""
        errors: dict[str, Any] = {}
        for p in self.problems:
            node = errors
            for key in p.at:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": p.code, "message": p.message})
        return errors


@dataclass
class SpecStats:
    """What a server checked: ``checked`` requests, ``failed`` of them, ``seconds`` spent validating (wall
    clock, the event loop's), and ``by_operation``: checked requests per ``operationId``."""

    checked: int = 0
    failed: int = 0
    seconds: float = 0.0
    by_operation: dict[str, int] = field(default_factory=dict)
    slowest: tuple[float, str] = (0.0, "")  # (seconds, operationId) of the longest single check

    def add(self, check: SpecCheck, seconds: float) -> None:
        self.checked += 1
        self.failed += not check.ok
        self.seconds += seconds
        self.slowest = max(self.slowest, (seconds, check.operation_id or "(no operation)"))
        key = check.operation_id or "(no operation)"
        self.by_operation[key] = self.by_operation.get(key, 0) + 1

    def merge(self, other: SpecStats) -> None:
        """Add ``other``'s counts (totals over several servers)."""
        self.checked += other.checked
        self.failed += other.failed
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        for key, n in other.by_operation.items():
            self.by_operation[key] = self.by_operation.get(key, 0) + n


@dataclass(frozen=True)
class _Operation:
    method: str
    template: str
    operation_id: str
    params: tuple[tuple[str, str, bool, str], ...]  # (name, "path"|"query", required, JSON pointer to its schema)
    body_required: bool
    body: dict[str, str]  # content type -> JSON pointer to its schema


class Conformance:
    """Validator of requests against one OpenAPI document (default: the vendored spec with ``EXCEPTIONS``).

    Not thread-safe (a validator cache); share it within one event loop. ``default_conformance()`` gives the
    per-process instance over the vendored spec.
    """

    def __init__(self, spec: dict[str, Any] | None = None, *, compiled: bool = True) -> None:
        if MISSING is not None:
            raise SpecError(
                f"checking requests against Discord's spec needs jsonschema and referencing "
                f"(pip install -e '.[test]'): {MISSING}"
            )
        self.spec = spec if spec is not None else load_spec()
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._validators: dict[str, Draft202012Validator] = {}
        self._memo: dict[tuple[str, str], tuple[SpecProblem, ...]] = {}  # (schema pointer, body JSON) -> problems
        self._fast: dict[str, Any] = {}
        self.disagreements = 0  # bodies jsonschema-rs refused and jsonschema accepted (expected: 0)
        self._fast_registry = (
            jsonschema_rs.Registry([(SPEC_URI, self.spec)]) if jsonschema_rs is not None and compiled else None
        )
        self._routes: list[tuple[tuple[str, ...], str, dict[str, _Operation]]] = []
        for template, item in self.spec["paths"].items():
            shared = item.get("parameters", [])
            ops = {}
            for method in METHODS:
                if method in item:
                    ops[method.upper()] = self._operation(method.upper(), template, item[method], shared)
            self._routes.append((tuple(template.strip("/").split("/")), template, ops))
        # literal segments win: /commands/permissions over /commands/{command_id}
        self._routes.sort(key=lambda r: r[1].count("{"))

    def _operation(self, method: str, template: str, op: dict[str, Any], shared: list[Any]) -> _Operation:
        base = f"/paths/{escape_pointer(template)}"
        params: dict[tuple[str, str], tuple[str, str, bool, str]] = {}
        for where, plist in (("", shared), (f"/{method.lower()}", op.get("parameters", []))):
            for i, prm in enumerate(plist):
                if prm.get("in") in ("path", "query"):
                    pointer = f"{base}{where}/parameters/{i}/schema"
                    params[(prm["name"], prm["in"])] = (prm["name"], prm["in"], bool(prm.get("required")), pointer)
        body = op.get("requestBody") or {}
        content = {
            ctype: f"{base}/{method.lower()}/requestBody/content/{escape_pointer(ctype)}/schema"
            for ctype in body.get("content", {})
        }
        return _Operation(
            method,
            template,
            op.get("operationId", f"{method} {template}"),
            tuple(params.values()),
            bool(body.get("required")),
            content,
        )

    # ------------------------------------------------------------------ lookup
    def match(self, method: str, path: str) -> tuple[str | None, dict[str, str], dict[str, _Operation]]:
        """(spec path template, path parameters, operations by method) for ``path`` (below ``/api/v10``);
        (None, {}, {}) when no template matches."""
        parts = path.strip("/").split("/")
        for segments, template, ops in self._routes:
            if len(segments) != len(parts):
                continue
            values = {}
            for seg, part in zip(segments, parts, strict=True):
                if seg.startswith("{") and seg.endswith("}") and part:
                    values[seg[1:-1]] = part
                elif seg != part:
                    break
            else:
                return template, values, ops
        return None, {}, {}

    def fast_valid(self, pointer: str, instance: Any) -> bool | None:
        """The compiled validator's verdict (jsonschema-rs, when installed and ``compiled``), or None. Only a True is
        taken as final: a body it refuses is checked again by ``jsonschema``, whose problems are the answer."""
        if self._fast_registry is None:
            return None
        v = self._fast.get(pointer)
        if v is None:
            v = jsonschema_rs.Draft202012Validator(
                {"$ref": f"{SPEC_URI}#{quote(pointer, safe='/~')}"},
                registry=self._fast_registry,
                validate_formats=False,
            )
            self._fast[pointer] = v
        return bool(v.is_valid(instance))

    def validator(self, pointer: str) -> Draft202012Validator:
        """The (cached) validator of the schema at ``pointer`` inside the spec."""
        v = self._validators.get(pointer)
        if v is None:
            v = Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self._registry)
            self._validators[pointer] = v
        return v

    # ------------------------------------------------------------------ checking
    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, list[str]] | None = None,
        body: Any = NO_BODY,
        content_type: str = "application/json",
        files: Iterable[int] = (),
    ) -> SpecCheck:
        """Validate one request. ``path`` below ``/api/v10`` (decoded); ``query``: name -> values as sent;
        ``body``: the parsed JSON (a multipart request's ``payload_json``) or ``NO_BODY``; ``content_type``:
        ``application/json`` or ``multipart/form-data``; ``files``: the indexes n of its ``files[n]`` parts."""
        template, path_values, ops = self.match(method, path)
        if template is None:
            return SpecCheck(
                None, None, [SpecProblem("route", (), "UNKNOWN_ROUTE", f"no operation of the spec has the path {path}")]
            )
        op = ops.get(method)
        if op is None:
            return SpecCheck(
                None,
                template,
                [
                    SpecProblem(
                        "method",
                        (),
                        "METHOD_NOT_ALLOWED",
                        f"{template} has no {method} operation (only {', '.join(sorted(ops)) or 'none'})",
                    )
                ],
            )
        result = SpecCheck(op.operation_id, template, params=path_values)
        query = query or {}
        for name, where, required, pointer in op.params:
            values = [path_values[name]] if where == "path" else list(query.get(name, []))
            if not values:
                if required:
                    result.problems.append(
                        SpecProblem(where, (name,), "BASE_TYPE_REQUIRED", f"the {where} parameter {name} is required")
                    )
                continue
            problem = self._check_param(name, where, values, pointer)
            if problem is not None:
                result.problems.append(problem)
        result.problems.extend(self._check_body(op, body, content_type, files))
        del result.problems[MAX_PROBLEMS:]
        return result

    def _check_param(self, name: str, where: str, values: list[str], pointer: str) -> SpecProblem | None:
        """A parameter arrives as text; it conforms if one reading of it (integer, number, boolean, text; a
        repeated or single value as an array) is valid, as Discord coerces query and path values."""
        v = self.validator(pointer)
        if len(values) > 1:
            readings: list[Any] = [[_coerce(x) for x in values], values]
        else:
            readings = [*_readings(values[0]), *([r] for r in _readings(values[0]))]
        for reading in readings:
            if v.is_valid(reading):
                return None
        err = best_match(v.iter_errors(readings[0]))
        message = _message(err) if err is not None else "invalid"
        return SpecProblem(
            where,
            (name,),
            "NUMBER_TYPE_COERCE" if where == "path" else _code(err),
            f"value {values[0]!r} of {name}: {message}",
            _schema_path(pointer, err),
        )

    def _check_body(self, op: _Operation, body: Any, content_type: str, files: Iterable[int]) -> list[SpecProblem]:
        if body is NO_BODY:
            if op.body_required:
                return [SpecProblem("body", (), "BASE_TYPE_REQUIRED", f"{op.operation_id} requires a body")]
            return []
        if not op.body:
            return [
                SpecProblem(
                    "body",
                    (),
                    "BASE_TYPE_UNKNOWN_FIELD",
                    f"{op.operation_id} takes no body ({op.method} {op.template})",
                )
            ]
        ctype = content_type.split(";")[0].strip().lower()
        pointer = op.body.get(ctype)
        if pointer is None:
            return [
                SpecProblem(
                    "content_type",
                    (),
                    "CONTENT_TYPE_INVALID",
                    f"{op.operation_id} accepts {', '.join(op.body)}, not {ctype}",
                )
            ]
        if ctype.startswith("multipart/") and isinstance(body, dict):
            body = {**body, **{f"files[{n}]": f"<file {n}>" for n in files}}
        fast = self.fast_valid(pointer, body)
        if fast:
            return []
        key = (pointer, json.dumps(body, sort_keys=True, separators=(",", ":")))
        known = self._memo.get(key)
        if known is not None:  # the same body again (without jsonschema-rs: the command tree at each start)
            return list(known)
        problems = []
        for err in self.validator(pointer).iter_errors(body):
            leaf = _leaf(err)
            problems.append(
                SpecProblem("body", tuple(leaf.absolute_path), _code(leaf), _message(leaf), _schema_path(pointer, leaf))
            )
            if len(problems) >= MAX_PROBLEMS:
                break
        if fast is False and not problems:  # jsonschema-rs refused what jsonschema accepts: count it, accept
            self.disagreements += 1
        if len(self._memo) >= MEMO_SIZE:
            del self._memo[next(iter(self._memo))]
        self._memo[key] = tuple(problems)
        return problems


@lru_cache(maxsize=1)
def default_conformance() -> Conformance:
    """The per-process validator over the vendored spec with ``EXCEPTIONS`` (built on first use)."""
    return Conformance()


def _wrong_kind(err: ValidationError) -> bool:
    """True when ``err`` (inside a oneOf/anyOf branch) says the branch is for another kind of value: the value's
    JSON type, or its ``type`` discriminator (components, options, callbacks are unions over ``type``)."""
    path = list(err.relative_path)
    return (not path and err.validator == "type") or path == ["type"]


def _leaf(err: ValidationError) -> ValidationError:
    """The precise error under a union: descend into the branch meant for this kind of value (the one whose
    ``type`` matched), taking its most relevant error; the union error itself when no branch fits the kind."""
    key = by_relevance()
    while err.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if not any(_wrong_kind(e) for e in errs)]
        if not fitting:
            return err
        err = max(min(fitting, key=len), key=key)
    return err


def _message(err: ValidationError, limit: int = 300) -> str:
    """``err.message`` without a long value's dump: sizes for the length keywords, the value cut short."""
    kw, bound, value = err.validator, err.validator_value, err.instance
    if kw in ("maxItems", "minItems", "maxLength", "minLength", "maxProperties") and hasattr(value, "__len__"):
        unit = "characters" if isinstance(value, str) else "items"
        return f"{len(value)} {unit}, {'at most' if kw.startswith('max') else 'at least'} {bound} allowed"
    text = err.message
    shown = repr(value)
    if len(shown) > 80 and shown in text:
        text = text.replace(shown, shown[:60] + "…")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _readings(raw: str) -> list[Any]:
    out: list[Any] = []
    if re.fullmatch(r"-?\d+", raw):
        out.append(int(raw))
    elif re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", raw):
        out.append(float(raw))
    if raw.lower() in ("true", "false", "1", "0"):
        out.append(raw.lower() in ("true", "1"))
    out.append(raw)
    return out


def _coerce(raw: str) -> Any:
    return _readings(raw)[0]


def _code(err: ValidationError | None) -> str:
    return ERROR_CODES.get(str(err.validator), "BASE_TYPE_INVALID") if err is not None else "BASE_TYPE_INVALID"


def _schema_path(pointer: str, err: ValidationError | None) -> str:
    """Where the failing keyword sits: the operation's schema pointer, then the keyword path (through $refs)."""
    if err is None:
        return pointer
    return pointer + "/" + "/".join(str(p) for p in err.absolute_schema_path)
