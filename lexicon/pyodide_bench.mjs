// `python -m lexicon bench --pyodide`: load the lexicon in Pyodide (the browser's
// Python, here under Node) exactly as the site does: the loader modules only,
// then Lexicon.from_bytes on the file's bytes; then, as the word panel does when
// it first opens, the forms file beside it and a few words' lemmas. Prints one JSON line.
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { existsSync, readFileSync } from "fs";
import { fileURLToPath } from "url";
import { dirname, join } from "path";

const here = dirname(fileURLToPath(import.meta.url));
const dawg = process.argv[2] || join(here, "data", "it.dawg");
const forms = dawg.replace(/\.dawg$/, ".forms");
const py = await loadPyodide();
py.FS.mkdirTree("/home/pyodide/lexicon");
for (const f of ["__init__.py", "automaton.py", "affixes.py", "forms.py"]) {
  py.FS.writeFile("/home/pyodide/lexicon/" + f, readFileSync(join(here, f)));
}
py.globals.set("raw", py.toPy(new Uint8Array(readFileSync(dawg))));
py.globals.set("raw_forms", py.toPy(new Uint8Array(existsSync(forms) ? readFileSync(forms) : [])));
const out = await py.runPythonAsync(`
import json, sys, time
sys.path.insert(0, "/home/pyodide")
t = time.perf_counter(); import lexicon; import_ms = (time.perf_counter() - t) * 1000
data = bytes(raw)
loads = []
for _ in range(5):
    t = time.perf_counter(); lex = lexicon.Lexicon.from_bytes(data); loads.append((time.perf_counter() - t) * 1000)
words = [w for i, w in enumerate(lex.words()) if i % 97 == 0][:20000]
queries = words + [w[:-1] + ("Z" if w[-1] != "Z" else "A") for w in words]
best = float("inf")
for _ in range(3):
    t = time.perf_counter(); found = sum(1 for w in queries if lex.contains(w)); best = min(best, time.perf_counter() - t)
panel = {}
forms_data = bytes(raw_forms)
if forms_data:  # the word panel's first opening: the forms file, then a few words
    from lexicon.forms import Forms
    t = time.perf_counter(); forms = Forms.from_bytes(forms_data, lex); first = time.perf_counter() - t
    t = time.perf_counter(); Forms.from_bytes(forms_data, lex); again = time.perf_counter() - t
    asked = {}
    for w in ("GATTI", "AMAVO", "PRENDETELI", "RIABBAIARE", "BULLIZZATE", "IERI"):
        t = time.perf_counter(); forms.lemmas(w, own_root=True); asked[w] = round((time.perf_counter() - t) * 1000, 1)
    panel = {"forms_load_ms_first": round(first * 1000, 1), "forms_load_ms_again": round(again * 1000, 1),
             "lemmas_ms": asked}
json.dumps({"python": sys.version.split()[0], "import_ms": round(import_ms, 1),
            "load_ms_first": round(loads[0], 1), "load_ms_best": round(min(loads), 1),
            "contains_per_second": int(len(queries) / best), "lookups_found": found, "lookups": len(queries),
            **panel})
`);
console.log(out);
