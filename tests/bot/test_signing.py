"""Signed records (issue 22, ``bot/signing.py``): a record signed by the installation's Ed25519 key checks
(signature, deal commitment, replay); every single-action edit of it is refused, as are another key's signature, a
wrong commitment and a history that does not replay even when signed; the key comes from RECORD_SIGNING_KEY or is
created once in DATA_DIR; ``python -m bot record-key`` / ``verify-record`` print and check."""

from __future__ import annotations

import copy
import json
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bot import signing
from engine.conex import Game
from engine.conex.actions import Discard
from engine.conex.ai import first_fit
from engine.conex.fair import commitment
from engine.record import export_record, load_record

SEED = 12345678901234567890123
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def conex_record() -> dict:
    g = Game.new(players=2, seed=SEED, table="small", goal=20)
    while not g.is_over:
        for q in sorted(g.pending_discards):
            g.play(Discard(q, sorted(g.hands[q])[0]))
        if not g.is_over:
            g.play(first_fit(g, g.current_player))
    return export_record(g, names=["Alice", "Bob"], meta={"game_id": 7})


@pytest.fixture(scope="module")
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def nudged(text: str) -> list[str]:
    """Every one-number edit of an action text: each number +0.1 (1 mm on coordinates) and +1 (1 degree, a card)."""
    out = []
    for m in re.finditer(r"-?\d+(?:\.\d+)?", text):
        number = m.group()
        for new in (f"{float(number) + 0.1:.1f}",) if "." in number else (str(int(number) + 1),):
            out.append(text[: m.start()] + new + text[m.end() :])
    return out


def single_action_edits(record: dict) -> list[dict]:
    """Every edit of one history entry: each number nudged, the seat changed, the entry dropped or doubled."""
    edits = []
    history = record["history"]
    for i, (seat, text) in enumerate(history):
        for new in nudged(text):
            edits.append({**record, "history": [*history[:i], [seat, new], *history[i + 1 :]]})
        edits.append({**record, "history": [*history[:i], [1 - seat, text], *history[i + 1 :]]})
        edits.append({**record, "history": [*history[:i], *history[i + 1 :]]})
        edits.append({**record, "history": [*history[: i + 1], [seat, text], *history[i + 1 :]]})
    return edits


def test_a_signed_record_checks_signature_commitment_and_replay(conex_record, key) -> None:
    signed = signing.sign(conex_record, key)
    assert signed["commitment"]["hash"] == commitment(SEED)
    assert signed["signature"]["key"] == signing.public_text(key)
    again = json.loads(json.dumps(signed, indent=1))  # as downloaded and read back
    verified = signing.verify_record(again, signing.public_text(key))
    assert verified.commitment == commitment(SEED) and verified.state.is_over
    load_record(again)  # the engine still reads a signed record


def test_every_single_action_edit_of_a_signed_record_is_refused(conex_record, key) -> None:
    signed = signing.sign(conex_record, key)
    edits = single_action_edits(signed)
    assert len(edits) > 4 * len(signed["history"])
    replaying = 0
    for edited in edits:
        with pytest.raises(signing.RecordRefused) as refused:
            signing.verify_record(copy.deepcopy(edited), signing.public_text(key))
        assert refused.value.check == "signature"
        try:  # how many of these the unsigned check alone would have let through (the finding)
            load_record(edited)
            replaying += 1
        except Exception:
            pass
    assert replaying > 0, "some edits replay: only the signature catches them"


def test_other_edits_and_keys_are_refused(conex_record, key) -> None:
    signed = signing.sign(conex_record, key)
    pub = signing.public_text(key)
    for field, value in (
        ("players", ["Alice", "Mallory"]),
        ("meta", {"game_id": 8}),
        ("setup", {**signed["setup"], "seed": SEED + 1}),
        ("commitment", {**signed["commitment"], "hash": "0" * 64}),
    ):
        with pytest.raises(signing.RecordRefused, match="signature"):
            signing.verify_record({**signed, field: value}, pub)
    forged = signing.sign({**conex_record, "players": ["Alice", "Mallory"]}, Ed25519PrivateKey.generate())
    with pytest.raises(signing.RecordRefused, match="another key"):
        signing.verify_record(forged, pub)
    with pytest.raises(signing.RecordRefused, match="not signed"):
        signing.verify_record(conex_record, pub)


def test_a_signed_record_with_a_wrong_commitment_or_a_bad_replay_is_refused(conex_record, key) -> None:
    pub = signing.public_text(key)
    bad = signing.sign(conex_record, key)
    bad["commitment"] = {**bad["commitment"], "hash": commitment(SEED + 1)}
    bad["signature"] = {**bad["signature"], "sig": _sign_as_is(bad, key)}  # a signer signing a wrong commitment
    with pytest.raises(signing.RecordRefused) as refused:
        signing.verify_record(bad, pub)
    assert refused.value.check == "commitment"

    history = conex_record["history"]
    seat, text = history[0]
    broken = {**conex_record, "history": [[seat, text.replace("place", "placed")], *history[1:]]}
    with pytest.raises(signing.RecordRefused) as refused:
        signing.verify_record(signing.sign(broken, key), pub)
    assert refused.value.check == "replay"


def _sign_as_is(record: dict, key: Ed25519PrivateKey) -> str:
    import base64

    return base64.b64encode(key.sign(signing.canonical(record))).decode("ascii")


def test_the_key_is_created_once_in_data_dir_or_taken_from_the_environment(tmp_path: Path) -> None:
    first = signing.load_key(tmp_path)
    path = tmp_path / signing.KEY_FILE
    assert path.exists() and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert signing.public_text(signing.load_key(tmp_path)) == signing.public_text(first)
    raw = bytes(range(32))
    from_env = signing.load_key(tmp_path, raw.hex())
    assert signing.public_text(from_env) == signing.public_text(Ed25519PrivateKey.from_private_bytes(raw))
    with pytest.raises(signing.SigningKeyError, match="RECORD_SIGNING_KEY"):
        signing.load_key(tmp_path, "not a key")


def test_record_key_and_verify_record_commands(conex_record, tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path / "data")}
    run = [sys.executable, "-m", "bot"]
    out = subprocess.run([*run, "record-key"], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    pub = out.stdout.strip()
    assert pub.startswith("ed25519:")
    key = signing.load_key(tmp_path / "data")
    good = tmp_path / "game-7.json"
    good.write_text(json.dumps(signing.sign(conex_record, key), indent=1))
    ok = subprocess.run(
        [*run, "verify-record", str(good), "--public-key", pub], env=env, cwd=REPO, capture_output=True, text=True
    )
    assert ok.returncode == 0 and ok.stdout.strip().endswith("OK"), ok.stdout + ok.stderr
    assert commitment(SEED) in ok.stdout
    local = subprocess.run([*run, "verify-record", str(good)], env=env, cwd=REPO, capture_output=True, text=True)
    assert local.returncode == 0, local.stdout + local.stderr  # this installation's key by default
    moved = json.loads(good.read_text())
    moved["history"][0][1] = nudged(moved["history"][0][1])[0]
    bad = tmp_path / "moved.json"
    bad.write_text(json.dumps(moved))
    refused = subprocess.run(
        [*run, "verify-record", str(bad), "--public-key", pub], env=env, cwd=REPO, capture_output=True, text=True
    )
    assert refused.returncode == 1 and "REFUSED (signature" in refused.stdout
