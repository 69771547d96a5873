// `python -m game daily --bench --pyodide`: the day's puzzles computed inside Pyodide (the
// browser's Python, here under Node) from the same modules and lexicon file the site ships.
// Prints one JSON line: the Python version, the generator set-up and per-game seconds, and the
// puzzles (the command line compares them with CPython's).
import { loadPyodide } from "../../node_modules/pyodide/pyodide.mjs";
import { readFileSync, readdirSync } from "fs";
import { fileURLToPath } from "url";
import { dirname, join } from "path";

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const dates = (process.argv[2] || "2026-12-01").split(",");
if (!dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))) throw new Error("dates are YYYY-MM-DD");
const py = await loadPyodide();
for (const pkg of ["game", "game/core", "game/daily", "game/scarabeo", "game/thot", "game/scarabya", "lexicon"]) {
  const dst = "/home/pyodide/" + pkg;
  py.FS.mkdirTree(dst);
  for (const f of readdirSync(join(root, pkg))) {
    if (f.endsWith(".py")) py.FS.writeFile(dst + "/" + f, readFileSync(join(root, pkg, f)));
  }
}
py.FS.writeFile("/home/pyodide/it.dawg", readFileSync(join(root, "lexicon", "data", "it.dawg")));
const out = await py.runPythonAsync(`
import datetime, json, platform, sys, time
sys.path.insert(0, "/home/pyodide")
from lexicon import Lexicon
from game import daily
with open("/home/pyodide/it.dawg", "rb") as f:
    lex = Lexicon.from_bytes(f.read())
t = time.perf_counter()
daily.scarabeo.ai.generator_for(lex)
setup = time.perf_counter() - t
days = []
for text in ${JSON.stringify(dates)}:
    day = datetime.date.fromisoformat(text)
    seconds = {}
    found = {}
    for game in daily.GAMES:
        t = time.perf_counter()
        found[game] = daily.run(daily.generate_one(game, day, lex))
        seconds[game] = round(time.perf_counter() - t, 3)
    days.append({"date": text, "seconds": seconds, "puzzles": found})
json.dumps({"python": platform.python_version(), "generator_setup_s": round(setup, 3), "days": days})
`);
console.log(out);
