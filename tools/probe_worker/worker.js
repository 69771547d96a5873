// Issue 38, step 0 (a probe, never shipped): our own module worker starts the vendored Pyodide with the
// site's app.zip, imports the engines, runs a small computation and posts its timings to the page.
// Times are absolute (timeOrigin + now) so the page can put them on its own clock.
const T = () => performance.timeOrigin + performance.now();
const marks = { start: T() };
const stage = (name) => { marks[name] = T(); self.postMessage({ kind: "stage", name, at: marks[name] }); };

// Storage: every touch of indexedDB or caches in this worker is counted (Pyodide's start should touch
// neither); with ?storage=refused each touch throws as Safari, Brave or strict Firefox do in a frame of
// another site (tools/probe_worker.py --storage-refused). CSP violations in the worker are kept too.
const params = new URL(import.meta.url).searchParams;
const refuse = params.get("storage") === "refused";
const storageTouched = [];
for (const name of ["indexedDB", "caches"]) {
  const real = self[name];
  Object.defineProperty(self, name, {
    configurable: true,
    get() {
      storageTouched.push(name);
      if (refuse) throw new DOMException("The operation is insecure.", "SecurityError");
      return real;
    },
  });
}
// After the run (so these touches are not counted): is storage refused here, is eval allowed here (the
// worker's own policy, if its response carried one)?
const checks = () => {
  const c = { storageTouched: storageTouched.slice() };
  try { c.workerIndexedDB = self.indexedDB ? "granted" : "absent"; } catch (err) { c.workerIndexedDB = err.name; }
  try { c.workerEval = (0, eval)("1 + 1") === 2 ? "allowed" : "?"; } catch (err) { c.workerEval = err.name; }
  return c;
};
const violations = [];
self.addEventListener("securitypolicyviolation", (e) => violations.push(`worker: ${e.violatedDirective} ${e.blockedURI}`));

const COMPUTE = `
import json, time
from game.core import Rng
from game.scarabeo.game import ScarabeoState
from game.scarabeo.randomplay import random_move
from game.thot.state import ThotState
from game.thot.search import best_move
t0 = time.perf_counter()
s = ScarabeoState.new(2, 1)
rng = Rng(1)
n = 0
while not s.is_over() and n < 20:
    s.push(random_move(s, rng))
    n += 1
t1 = time.perf_counter()
res = best_move(ThotState.new(seed=1), 3, time_budget=1.0)
t2 = time.perf_counter()
json.dumps({"scarabeo_moves": n, "scarabeo_ms": round((t1 - t0) * 1e3, 1),
            "thot_move": str(res.move), "thot_ms": round((t2 - t1) * 1e3, 1)})
`;

try {
  const base = new URL("../", import.meta.url);
  const { loadPyodide } = await import(new URL("vendor/pyodide/pyodide.mjs", base).href);
  stage("loader");
  const zip = fetch(new URL("app.zip", base)).then((r) => {
    if (!r.ok) throw new Error(`app.zip: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const py = await loadPyodide({ indexURL: new URL("vendor/pyodide/", base).href });
  stage("pyodide");
  const bytes = await zip;
  // What PyScript's [files] "./app.zip" = "./*" does: unpack into the working directory.
  py.unpackArchive(bytes, "zip", { extractDir: "/home/pyodide" });
  stage("unpacked");
  py.runPython(`
import sys
if "/home/pyodide" not in sys.path:
    sys.path.insert(0, "/home/pyodide")
import game.scarabeo, game.scarabeo.game, game.scarabeo.randomplay, game.thot, game.thot.search
`);
  stage("engines");
  const out = py.runPython(COMPUTE);
  stage("computed");
  // Then Python sent by the page (tools/bench_patch.py --pyodide) runs here: {kind: "run", code} is answered
  // {kind: "ran", ok, out} with the value of the code's last line as a string, or {kind: "ran", ok: false, error}.
  self.onmessage = (e) => {
    if (!e.data || e.data.kind !== "run") return;
    try {
      self.postMessage({ kind: "ran", ok: true, out: String(py.runPython(e.data.code)) });
    } catch (err) {
      self.postMessage({ kind: "ran", ok: false, error: String((err && err.stack) || err) });
    }
  };
  self.postMessage({ kind: "done", ok: true, marks, out: JSON.parse(out), zipBytes: bytes.byteLength,
                    ...checks(), violations });
} catch (err) {
  self.postMessage({ kind: "done", ok: false, marks, error: String((err && err.stack) || err),
                    ...checks(), violations });
}
