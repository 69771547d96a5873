"""What the Continue list says of a game by links (web/shell/app.py ``save_facts``: "Your turn" or
"Waiting for <name>", from the save's ``meta.remote`` as each device stored it): after a move, the
device to move says "Your turn", the other waits for the mover-to-be by name, in both languages.
The e2e test (tests/e2e/test_remote.py, TestThot) reads the same words off both home pages."""

from __future__ import annotations

from web.platform.i18n import Messages, load_catalogue
from web.platform.remote import RemoteSession, remote_meta

from tests.web.remote_pair import pair

T = {lang: Messages(load_catalogue(), lang) for lang in ("it", "en")}


def continue_words(session: RemoteSession, lang: str) -> str:
    """The Continue list's words for this device's save, read back from its storage."""
    t = T[lang]
    remote = remote_meta(session.store.load(session.save.id).state)
    assert remote is not None
    return str(t("remote.continue.yours") if remote.get("your_turn") else
               t("remote.continue.waiting", name=str(remote.get("waiting_for") or "…")))


def test_after_each_move_one_device_has_the_turn_and_the_other_waits_for_it_by_name() -> None:
    anna, bruno = pair("thot", {"short": True})
    names = {anna: "Anna", bruno: "Bruno"}
    for _ in range(3):
        mover = anna if anna.your_turn() else bruno
        other = bruno if mover is anna else anna
        assert continue_words(mover, "en") == "Your turn" and continue_words(mover, "it") == "Tocca a te"
        assert continue_words(other, "en") == f"Waiting for {names[mover]}"
        assert continue_words(other, "it") == f"In attesa di {names[mover]}"
        state = mover.state
        played = mover.play(str(state.move_text(state.legal_moves()[0])))
        assert played.send is not None
        other.open_message(played.send)
        # the move made, the words change sides
        assert continue_words(other, "en") == "Your turn"
        assert continue_words(mover, "en") == f"Waiting for {names[other]}"
