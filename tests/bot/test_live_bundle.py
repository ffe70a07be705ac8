"""The live table's one prebuilt script, ``bot/web/static/discord-sdk.js``: Discord's Embedded App SDK bundled by
``web/build.mjs`` (``cd web && npm ci && npm run build``). No Node at test time: these read the committed files.
The bundle must exist, carry (in its banner) the SDK and esbuild versions ``web/package-lock.json`` pins, be
loaded by the page before ``app.js``, and be shipped as package data; the old home-made protocol client is gone."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "web" / "static"
BUNDLE = STATIC / "discord-sdk.js"
WEB = ROOT / "web"
SDK = "@discord/embedded-app-sdk"


def locked(name: str) -> str:
    lock = json.loads((WEB / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"][f"node_modules/{name}"]["version"]


def banner() -> str:
    text = BUNDLE.read_text(encoding="utf-8")
    assert text.startswith("/*"), "the bundle starts with the banner web/build.mjs writes"
    return text[: text.index("*/")]


def test_package_json_pins_exact_versions_the_lock_holds() -> None:
    manifest = json.loads((WEB / "package.json").read_text(encoding="utf-8"))
    pinned = {**manifest["dependencies"], **manifest["devDependencies"]}
    assert SDK in pinned and "esbuild" in pinned
    for name, version in pinned.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name}: exact version, not a range ({version})"
        assert locked(name) == version, f"{name}: package.json and package-lock.json disagree"


def test_bundle_carries_the_locked_sdk_and_esbuild_versions() -> None:
    head = banner()
    assert f"{SDK} {locked(SDK)} " in head
    assert f"esbuild {locked('esbuild')}." in head
    text = BUNDLE.read_text(encoding="utf-8")
    assert f"--- {SDK} {locked(SDK)} ---" in text, "the bundled packages' licences close the file"
    # the wrapper's calls are in it, with the scopes the page asks for
    for needle in ("window.LiveSDK", '"identify","guilds"', "commands.authorize", "commands.authenticate"):
        assert needle in text, needle


def test_page_loads_the_bundle_before_app_and_the_home_made_client_is_gone() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="/static/([^"]+)"', page)
    assert scripts.index("discord-sdk.js") < scripts.index("app.js")
    for name in scripts:
        assert (STATIC / name).is_file(), name
    assert not (STATIC / "sdk.js").exists()


def test_bundle_is_package_data() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = project["tool"]["setuptools"]["package-data"]["bot.web"]
    assert any(fnmatch.fnmatch("static/discord-sdk.js", glob) for glob in globs)
