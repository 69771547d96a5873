// Time Scarabya hints in Pyodide (WebAssembly) the way docs/scarabya.md reports them.
// Run from the repository root:  node tests/scarabya/pyodide/hint_timing.mjs
// Compare with:                  .venv/bin/python tests/scarabya/pyodide/hint_timing.py
import { loadPyodide } from "../../../node_modules/pyodide/pyodide.mjs";
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const py = await loadPyodide({ indexURL: path.join(root, "node_modules/pyodide/") });

function copyDir(src, dst) {
  py.FS.mkdirTree(dst);
  for (const name of fs.readdirSync(src)) {
    if (name === "__pycache__") continue;
    const s = path.join(src, name);
    const d = dst + "/" + name;
    if (fs.statSync(s).isDirectory()) copyDir(s, d);
    else if (name.endsWith(".py")) py.FS.writeFile(d, fs.readFileSync(s));
  }
}
py.FS.mkdirTree("/app/game");
py.FS.writeFile("/app/game/__init__.py", fs.readFileSync(path.join(root, "game/__init__.py")));
copyDir(path.join(root, "game/core"), "/app/game/core");
copyDir(path.join(root, "game/scarabya"), "/app/game/scarabya");
// CPU time of the whole node process (all threads), in ms, for the Python side to call
py.globals.set("host_cpu_ms", () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
});
console.log(await py.runPythonAsync(fs.readFileSync(path.join(here, "hint_timing.py"), "utf8")));
