"""Plural forms in every language (bot/i18n.py ``tn`` and ``image_words``): "1 card" / "2 cards", "1 carta" /
"2 cartas", never "1 cards"; a language lacking a form falls back to English's."""

from __future__ import annotations

from bot.i18n import MESSAGES, image_words, tn


def test_tn_picks_one_or_other_in_english_and_spanish() -> None:
    assert tn("cn.ev_drew", 1, "en-US", name="Ana") == "Ana drew 1 card."
    assert tn("cn.ev_drew", 2, "en-US", name="Ana") == "Ana drew 2 cards."
    assert tn("cn.ev_drew", 0, None, name="Ana") == "Ana drew 0 cards."
    assert tn("cn.ev_drew", 1, "es-ES", name="Ana") == "Ana robó 1 carta."
    assert tn("cn.ev_drew", 2, "es-419", name="Ana") == "Ana robó 2 cartas."
    assert tn("cn.ev_drew", 1_000_000, "es-ES", name="Ana") == "Ana robó 1000000 de cartas."  # CLDR "many"
    assert tn("cn.ev_drew", 1_000_000, "en-US", name="Ana") == "Ana drew 1000000 cards."


def test_image_words_count_the_hand_in_the_viewers_language() -> None:
    en, es = image_words("en-GB"), image_words("es-ES")
    assert (en.count("cn.hand_title", 1), en.count("cn.hand_title", 3)) == ("Your hand · 1 card", "Your hand · 3 cards")
    assert (es.count("cn.hand_title", 1), es.count("cn.hand_title", 3)) == ("Tu mano · 1 carta", "Tu mano · 3 cartas")
    assert es.count("cn.legal", 1) == "1 legal" and es.count("cn.legal", 4) == "4 legales"
    assert image_words("pt-BR").lang == "en"  # a language without a catalogue reads English


def test_every_plural_key_has_its_other_form() -> None:
    for lang, catalogue in MESSAGES.items():
        for key in catalogue:
            if key.endswith((".one", ".many")):
                base = key.rsplit(".", 1)[0]
                assert f"{base}.other" in catalogue, (lang, key)
