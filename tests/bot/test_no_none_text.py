"""No player text shows ``None`` (trial: "Only <@None> can answer this challenge."): ``bot.i18n.t`` refuses a
placeholder filled with ``None`` and a mention of ``None`` passed in formatted. The suite runs with
``TABLEBOT_STRICT_TEXT=1`` (``tests/conftest.py``, inherited by every bot process a test starts), so any test whose
bot makes such a text fails; a running bot logs it as an error instead."""

from __future__ import annotations

import logging
import string

import pytest

from bot.i18n import MESSAGES, STRICT_ENV, NoneInText, t


def fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _l, name, _s, _c in string.Formatter().parse(template) if name}


def test_the_suite_runs_strict() -> None:
    import os

    assert os.environ.get(STRICT_ENV) == "1"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_catalogue_text_refuses_none_in_any_of_its_placeholders(lang: str) -> None:
    """Every key with placeholders, each placeholder in turn filled with ``None`` (the others with a plain value):
    refused. Filled with plain values: accepted."""
    checked = 0  # a template with a format spec ({hour:02d}) is checked before formatting, so it raises too
    for key, template in MESSAGES[lang].items():
        names = fields(template)
        if not names or any(n.isdigit() for n in names):
            continue
        plain = dict.fromkeys(names, 7)
        if "None" not in template:
            t(key, lang, **plain)  # no None: no complaint
        for name in names:
            with pytest.raises(NoneInText):
                t(key, lang, **{**plain, name: None})
            checked += 1
    assert checked > 500, checked


def test_the_trial_case_and_a_preformatted_mention() -> None:
    with pytest.raises(NoneInText, match="user"):
        t("err.not_challenged", "en", user=None)
    with pytest.raises(NoneInText):
        t("err.with_rule", "en", rule="E1", text="Only <@None> can answer")
    with pytest.raises(NoneInText):
        t("hist.vs", "es", players="<#None>")
    assert t("err.not_challenged", "en", user=42) == "Only <@42> can answer this challenge."
    assert t("hist.vs", "en", players="None of them") == "vs None of them"  # a name may say None


def test_a_running_bot_logs_it_instead(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.delenv(STRICT_ENV)
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        text = t("err.not_challenged", "en", user=None)
    assert text == "Only <@None> can answer this challenge."
    assert any("filled with None" in r.getMessage() for r in caplog.records)
