from web.platform.i18n import Messages, load_catalogue, missing_translations, preferred_language


class TestCatalogue:
    def test_every_key_has_both_languages(self) -> None:
        assert missing_translations(load_catalogue()) == []

    def test_placeholders_match_between_languages(self) -> None:
        import re

        for key, entry in load_catalogue().items():
            names = {lang: set(re.findall(r"\{(\w+)\}", text)) for lang, text in entry.items()}
            assert names["it"] == names["en"], key

    def test_lookup_and_params(self) -> None:
        t = Messages(load_catalogue(), "it")
        assert t("continue.updated", when="ieri") == "Aggiornata ieri"
        assert Messages(load_catalogue(), "en")("nav.settings") == "Settings"

    def test_missing_key_shows_key(self) -> None:
        assert Messages({}, "en")("no.such") == "no.such"


class TestPreferredLanguage:
    def test_saved_choice_wins(self) -> None:
        assert preferred_language("en", ["it-IT"]) == "en"

    def test_browser_preference(self) -> None:
        assert preferred_language(None, ["it-IT", "en"]) == "it"
        assert preferred_language(None, ["de-DE", "en-GB", "it"]) == "en"
        assert preferred_language(None, ["fr"]) == "en"


class TestGrammar:
    def test_italian_a_before_a_name_beginning_with_a(self) -> None:
        t = Messages({"k": {"it": "Passa il dispositivo a {name}", "en": "Pass the device to {name}"},
                      "s": {"it": "A {name} la mossa", "en": "{name} to move"}}, "it")
        assert t("k", name="Anna") == "Passa il dispositivo ad Anna"
        assert t("k", name="àlex") == "Passa il dispositivo ad àlex"
        assert t("k", name="Elena") == "Passa il dispositivo a Elena"  # only before an a
        assert t("k", name="Bo") == "Passa il dispositivo a Bo"
        assert t("s", name="Anna") == "Ad Anna la mossa"
        assert Messages(t.catalogue, "en")("k", name="Anna") == "Pass the device to Anna"

    def test_plurals_and_locale(self) -> None:
        cat = {"p.one": {"it": "{n} punto", "en": "{n} point"}, "p.other": {"it": "{n} punti", "en": "{n} points"}}
        it, en = Messages(cat, "it"), Messages(cat, "en")
        assert [it.plural("p", n) for n in (1, 2, 0, -1)] == ["1 punto", "2 punti", "0 punti", "-1 punto"]
        assert en.plural("p", 1) == "1 point" and en.plural("p", 7) == "7 points"
        assert (it.locale, en.locale) == ("it-IT", "en-GB")
