"""Short sounds made in the page with Web Audio: a move, a capture or a big play, your turn, the end.

No file is downloaded and none is stored: each sound is a few notes of an oscillator shaped by a
gain envelope, scheduled on the page's one ``AudioContext``. The context is made only when a sound
is first wanted with the Settings' "sounds" on (the default); with sounds off there is no
``AudioContext`` at all, and turning them off closes the one there was.

``cues`` decides which sounds a move makes from what the page knows (the game, the mover's score
before and after, who moves next, the end) and is pure Python, tested in CPython.
"""

from __future__ import annotations

from typing import Any, Sequence

#: The notes of each sound: (frequency in Hz, start in s, length in s, type of wave).
NOTES: dict[str, tuple[tuple[float, float, float, str], ...]] = {
    "move": ((520.0, 0.0, 0.07, "triangle"),),
    "big": ((523.3, 0.0, 0.09, "triangle"), (659.3, 0.08, 0.09, "triangle"), (784.0, 0.16, 0.16, "triangle")),
    "turn": ((880.0, 0.0, 0.12, "sine"), (1174.7, 0.11, 0.2, "sine")),
    "end": ((392.0, 0.0, 0.14, "triangle"), (523.3, 0.13, 0.14, "triangle"), (659.3, 0.26, 0.14, "triangle"),
            (784.0, 0.39, 0.35, "triangle")),
}
#: A play this big (the mover's score gain) sounds as a big play; in Thot any capture of a
#: scarab worth this much, in Scarabya an area closed for this much.
BIG_GAIN = {"scarabeo": 50, "thot": 3, "scarabya": 5}
#: The gap between two sounds of one move (the computer's big play, then your turn).
GAP = 0.35
VOLUME = 0.18


def cues(game: str, gain: int, over: bool, person_next: bool, by_computer: bool) -> list[str]:
    """The sounds a move makes, in order: the end alone at the end; else a big play or a plain
    move, then "turn" when the computer's move hands the turn to a person."""
    if over:
        return ["end"]
    first = "big" if gain >= BIG_GAIN.get(game, 50) else "move"
    return [first, "turn"] if by_computer and person_next else [first]


class Sounds:
    """The page's sounds; ``enabled`` follows the setting (read by the caller each time)."""

    def __init__(self) -> None:
        self.context: Any = None

    def play(self, names: Sequence[str], enabled: bool) -> None:
        if not enabled or not names:
            return
        try:
            ctx = self._context()
            if ctx is None:
                return
            if str(ctx.state) == "suspended":
                ctx.resume()
            at = float(ctx.currentTime) + 0.02
            for name in names:
                for freq, start, length, wave in NOTES.get(name, ()):
                    self._note(ctx, at + start, freq, length, wave)
                at += max(s + n for _f, s, n, _w in NOTES.get(name, ((0, 0, 0, ""),))) + GAP
        except Exception as err:  # a sound must never break the game
            from pyscript import window

            window.console.warn(f"sound: {err!r}")

    def off(self) -> None:
        """Sounds turned off: the context closes and goes (none is made again until they are on)."""
        ctx, self.context = self.context, None
        if ctx is not None:
            try:
                ctx.close()
            except Exception:
                pass

    def _context(self) -> Any:
        from pyscript import window

        if self.context is None:
            maker = getattr(window, "AudioContext", None) or getattr(window, "webkitAudioContext", None)
            if maker is None:
                return None  # a browser without Web Audio stays silent
            self.context = maker.new()
        return self.context

    @staticmethod
    def _note(ctx: Any, at: float, freq: float, length: float, wave: str) -> None:
        osc = ctx.createOscillator()
        env = ctx.createGain()
        osc.type = wave
        osc.frequency.setValueAtTime(freq, at)
        env.gain.setValueAtTime(0.0001, at)
        env.gain.exponentialRampToValueAtTime(VOLUME, at + 0.012)
        env.gain.exponentialRampToValueAtTime(0.0001, at + length)
        osc.connect(env)
        env.connect(ctx.destination)
        osc.start(at)
        osc.stop(at + length + 0.02)


#: The one player of the page (a second context would only add latency and a second permission).
SOUNDS = Sounds()


def enabled(settings: dict[str, Any]) -> bool:
    """Sounds are on unless the Settings turned them off."""
    return settings.get("sounds", True) is not False
