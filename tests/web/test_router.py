from web.platform.router import href, parse, is_route


class TestRoutes:
    def test_home(self) -> None:
        for h in ("", "#", "#/", "#//"):
            assert parse(h).name == "home"

    def test_pages(self) -> None:
        assert parse("#/settings").name == "settings"
        assert parse("#/about").name == "about"

    def test_game_routes(self) -> None:
        r = parse("#/thot/new?seed=5")
        assert (r.name, r.game, r.page, r.query) == ("game", "thot", "new", {"seed": "5"})
        r = parse("#/scarabeo/play/ab12")
        assert (r.game, r.page, r.save_id) == ("scarabeo", "play", "ab12")

    def test_review_route(self) -> None:
        r = parse("#/thot/review/ab12")
        assert (r.name, r.game, r.page, r.save_id) == ("game", "thot", "review", "ab12")
        assert parse(href("scarabeo", "review", "x y")).save_id == "x y"
        for h in ("#/thot/review", "#/thot/review/a/b", "#/chess/review/a"):
            assert parse(h).name == "not-found"

    def test_daily_route(self) -> None:
        r = parse("#/daily/thot?date=2026-12-01")
        assert (r.name, r.game, r.query) == ("daily", "thot", {"date": "2026-12-01"})
        assert parse(href("daily", "scarabeo")).name == "daily"
        for h in ("#/daily", "#/daily/chess", "#/daily/thot/x"):
            assert parse(h).name == "not-found"

    def test_not_found(self) -> None:
        for h in ("#/chess/new", "#/thot", "#/thot/play", "#/thot/new/extra"):
            assert parse(h).name == "not-found"

    def test_href_round_trip(self) -> None:
        assert parse(href("scarabya", "play", "a b")).save_id == "a b"

    def test_in_page_anchor_is_no_route(self) -> None:
        # the skip link's #app must never open "Page not found"
        assert parse("#app").name == "home"
        assert not is_route("#app") and is_route("#/thot/new") and is_route("")
