from web.i18n import Messages, load_catalogue, missing_translations, preferred_language


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
