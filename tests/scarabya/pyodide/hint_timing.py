"""Top-level hint CPU time on 36 positions (3 seeded greedy games), after one warm-up pass.

Runs in CPython directly, or in Pyodide through hint_timing.mjs (which provides ``host_cpu_ms``).
"""

import json
import sys
import time

sys.path.insert(0, "/app")  # Pyodide: where hint_timing.mjs copies the engine

from game.scarabya import ScarabyaState, solver  # noqa: E402

try:
    cpu_ms = host_cpu_ms  # type: ignore[name-defined]  # noqa: F821
except NameError:

    def cpu_ms() -> float:
        return time.process_time() * 1000


states = []
moves = []
for seed in range(3):
    s = ScarabyaState.new(1, seed=seed)
    while not s.is_over():
        states.append(ScarabyaState.from_position(s.position()))
        s.push(solver.choose(s, 2))
for st in states:  # warm-up (WebAssembly tiers up)
    moves.append(solver.hint(st)["move"])
t0 = cpu_ms()
for _ in range(3):
    for st in states:
        solver.hint(st)
per_hint = (cpu_ms() - t0) / (3 * len(states))
result = json.dumps(
    {
        "python": sys.version.split()[0],
        "hints": len(states),
        "cpu_ms_per_hint": round(per_hint, 1),
        "moves": moves,
    }
)
if sys.platform != "emscripten":
    print(result)
result  # noqa: B018 - the value runPythonAsync hands back to node
