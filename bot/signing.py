"""Signed game records (issue 22): every downloaded record carries the deal's commitment and an Ed25519 signature
of the installation's key, so an edited record (a placement moved 1 mm, turned 1 degree, an action dropped) is
refused, not only one that stops replaying. The crypto (``cryptography``'s Ed25519) stays here, out of ``engine/``.

**The key.** ``RECORD_SIGNING_KEY`` (the 32-byte private key, 64 hex digits or base64), else
``DATA_DIR/record-signing.key`` (PEM, PKCS#8, created on the first start with mode 0600; keep it with the
backups). ``python -m bot record-key`` prints the public key to publish: ``ed25519:<base64 of 32 bytes>``.

**What is signed.** The record (``engine.record.export_record``) plus ``"commitment"`` (a game with a hidden deal:
its kind's ``rules.deal_commitment(setup)``, e.g. ``{"scheme", "deck", "hash"}``: the SHA-256 of the seed shown at
the start), as
canonical JSON (keys sorted, no spaces, UTF-8) without the ``"signature"`` field, which is
``{"alg": "ed25519", "key": <public key>, "sig": <base64 of 64 bytes>}``.

**Checking** (:func:`verify_record`, ``python -m bot verify-record FILE [--public-key K]``): the signature by the
expected key (``K``, else this installation's key; the key inside the record is only compared, never trusted),
then the commitment against the setup's seed, then the replay of every action through the rules with the outcome
(``engine.record.load_record``).
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

KEY_FILE = "record-signing.key"
ALG = "ed25519"
PREFIX = "ed25519:"

_installed: Ed25519PrivateKey | None = None


class SigningKeyError(ValueError):
    """``RECORD_SIGNING_KEY`` or the key file is unusable; ``str(err)`` says which and what to do."""


class RecordRefused(ValueError):
    """A record that does not check: ``check`` is ``"signature"``, ``"commitment"`` or ``"replay"``."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check


@dataclass(frozen=True)
class Verified:
    """A record that checked: its public key, commitment hash (or ``None``) and the replayed game state."""

    key: str
    commitment: str | None
    state: Any


# -- keys -------------------------------------------------------------------------------------------------------
def _raw_private(text: str) -> bytes:
    text = text.strip()
    try:
        raw = bytes.fromhex(text) if len(text) == 64 else base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        raw = b""
    if len(raw) != 32:
        raise SigningKeyError("RECORD_SIGNING_KEY must be an Ed25519 private key: 32 bytes as 64 hex digits or base64")
    return raw


def load_key(data_dir: Path, env_key: str | None = None) -> Ed25519PrivateKey:
    """The signing key: ``env_key`` (``RECORD_SIGNING_KEY``) if given, else ``data_dir/record-signing.key``,
    created (mode 0600) when missing. Raises :class:`SigningKeyError` for a malformed key or an unreadable file."""
    if env_key:
        return Ed25519PrivateKey.from_private_bytes(_raw_private(env_key))
    path = Path(data_dir) / KEY_FILE
    try:
        if path.exists():
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            if not isinstance(key, Ed25519PrivateKey):
                raise SigningKeyError(f"{path} holds no Ed25519 private key: move it away to get a new one")
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        new = Ed25519PrivateKey.generate()
        pem = new.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(pem)
        return new
    except (OSError, ValueError) as err:
        if isinstance(err, SigningKeyError):
            raise
        raise SigningKeyError(f"cannot use the record signing key {path}: {err}") from err


def install(key: Ed25519PrivateKey | None) -> None:
    """Make ``key`` the one :func:`sign` uses in this process (the bot installs it at start)."""
    global _installed
    _installed = key


def installed() -> Ed25519PrivateKey | None:
    return _installed


def public_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """``ed25519:<base64 of the 32-byte public key>``, the form printed by ``record-key`` and stored in records."""
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    raw = pub.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PREFIX + base64.b64encode(raw).decode("ascii")


def parse_public(text: str) -> Ed25519PublicKey:
    """The public key of ``ed25519:<base64>`` (the prefix optional). Raises :class:`RecordRefused`."""
    body = text.strip().removeprefix(PREFIX)
    try:
        raw = base64.b64decode(body, validate=True)
        return Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, binascii.Error) as err:
        raise RecordRefused("signature", f"not an Ed25519 public key: {text[:80]!r}") from err


# -- records ----------------------------------------------------------------------------------------------------
def canonical(record: dict[str, Any]) -> bytes:
    """The signed bytes: ``record`` without ``"signature"``, as JSON with sorted keys, no spaces, UTF-8."""
    body = {k: v for k, v in record.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment_of(record: dict[str, Any]) -> dict[str, str] | None:
    """The deal's commitment a record of a game with a hidden deal carries (its kind's
    ``rules.deal_commitment(setup)``), else ``None`` (no hidden deal, or a game this bot does not know). Raises
    ``ValueError`` for a setup the kind cannot commit to."""
    from bot.core import registry

    kind = registry.kinds().get(str(record.get("game")))
    setup = record.get("setup")
    if kind is None or not isinstance(setup, dict):
        return None
    return kind.rules.deal_commitment(setup)


def sign(record: dict[str, Any], key: Ed25519PrivateKey | None = None) -> dict[str, Any]:
    """A copy of ``record`` with its ``"commitment"`` (when the game has one) and ``"signature"`` by ``key``
    (default: the installed key; none installed: the record is returned unsigned, as a test bot without a data
    directory would export it)."""
    key = key or _installed
    out = copy.deepcopy(record)
    out.pop("signature", None)
    commitment = commitment_of(out)
    if commitment is not None:
        out["commitment"] = commitment
    if key is None:
        return out
    sig = key.sign(canonical(out))
    out["signature"] = {"alg": ALG, "key": public_text(key), "sig": base64.b64encode(sig).decode("ascii")}
    return out


def verify_record(record: object, public_key: str | Ed25519PublicKey) -> Verified:
    """Check ``record`` (a parsed JSON object): signed by ``public_key``, the commitment of its setup's seed, and its
    replay (every action through the rules, the outcome equal). Returns :class:`Verified`. Raises
    :class:`RecordRefused` naming the first check that failed."""
    from engine.errors import StateError
    from engine.record import load_record

    if not isinstance(record, dict):
        raise RecordRefused("signature", "a game record is a JSON object")
    expected = parse_public(public_key) if isinstance(public_key, str) else public_key
    sig = record.get("signature")
    if not isinstance(sig, dict) or sig.get("alg") != ALG or not isinstance(sig.get("sig"), str):
        raise RecordRefused("signature", "the record is not signed (no ed25519 signature)")
    if sig.get("key") != public_text(expected):
        raise RecordRefused(
            "signature", f"signed by another key ({str(sig.get('key'))[:60]}), not {public_text(expected)}"
        )
    try:
        expected.verify(base64.b64decode(sig["sig"], validate=True), canonical(record))
    except (InvalidSignature, ValueError, binascii.Error):
        raise RecordRefused(
            "signature", "the signature does not match the record: it was changed after signing"
        ) from None
    try:
        commitment = commitment_of(record)
    except ValueError as err:
        raise RecordRefused("commitment", str(err)) from None
    if record.get("commitment") != commitment:
        raise RecordRefused(
            "commitment",
            f"the record's commitment {record.get('commitment')!r:.120} is not the one of its seed {commitment!r:.120}",
        )
    try:
        state = load_record(record)
    except StateError as err:
        raise RecordRefused("replay", str(err)) from None
    return Verified(public_text(expected), commitment["hash"] if commitment else None, state)


def verify_file(path: Path, public_key: str | None, data_dir: Path | None, env_key: str | None) -> Verified:
    """:func:`verify_record` of the JSON file ``path`` against ``public_key``, else this installation's key
    (``env_key`` or the key file in ``data_dir``, never created here). Raises :class:`RecordRefused`, or
    :class:`SigningKeyError` when no key is given and this installation has none."""
    if public_key is None:
        if env_key:
            public_key = public_text(load_key(Path("."), env_key))
        elif data_dir is not None and (Path(data_dir) / KEY_FILE).exists():
            public_key = public_text(load_key(Path(data_dir)))
        else:
            raise SigningKeyError(
                "no key to check against: give --public-key (the operator publishes it with python -m bot record-key)"
            )
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise RecordRefused("signature", f"cannot read {path} as JSON: {err}") from None
    return verify_record(data, public_key)
