"""Which sounds a move makes (web/ui/sounds.py), in CPython: the Web Audio part is the e2e's."""

from __future__ import annotations

from web.ui.sounds import BIG_GAIN, NOTES, cues, enabled


def test_a_plain_move_a_big_play_and_the_end() -> None:
    assert cues("scarabeo", 12, False, False, False) == ["move"]
    assert cues("scarabeo", BIG_GAIN["scarabeo"], False, False, False) == ["big"]
    assert cues("thot", 4, False, True, False) == ["big"]  # a person's own capture: no "your turn"
    assert cues("thot", -3, False, False, False) == ["move"]
    assert cues("scarabya", 40, True, True, True) == ["end"]  # the end alone


def test_your_turn_after_the_computer() -> None:
    assert cues("thot", 1, False, True, True) == ["move", "turn"]
    assert cues("scarabeo", 90, False, True, True) == ["big", "turn"]
    assert cues("thot", 1, False, False, True) == ["move"]  # computer after computer


def test_every_cue_has_notes_and_the_setting_defaults_on() -> None:
    for name in ("move", "big", "turn", "end"):
        assert NOTES[name] and all(f > 0 and n > 0 for f, _s, n, _w in NOTES[name])
    assert enabled({}) and enabled({"sounds": True}) and not enabled({"sounds": False})
