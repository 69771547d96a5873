// `python -m game scarabeo bench --pyodide`: run the engine's bench inside Pyodide (the browser's
// Python, here under Node) with the same modules the site ships. Prints one JSON line.
import { loadPyodide } from "../../node_modules/pyodide/pyodide.mjs";
import { readFileSync, readdirSync } from "fs";
import { fileURLToPath } from "url";
import { dirname, join } from "path";

const here = dirname(fileURLToPath(import.meta.url));
const gameDir = dirname(here);
const n = process.argv[2] || "2000";
const py = await loadPyodide();
for (const pkg of ["", "core", "scarabeo"]) {
  const src = pkg ? join(gameDir, pkg) : gameDir;
  const dst = "/home/pyodide/game" + (pkg ? "/" + pkg : "");
  py.FS.mkdirTree(dst);
  for (const f of readdirSync(src)) {
    if (f.endsWith(".py")) py.FS.writeFile(dst + "/" + f, readFileSync(join(src, f)));
  }
}
const out = await py.runPythonAsync(`
import json, sys
sys.path.insert(0, "/home/pyodide")
from game.scarabeo.bench import run_bench
json.dumps(run_bench(${Number(n)}))
`);
console.log(out);
