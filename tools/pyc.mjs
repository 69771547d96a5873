// Bytecode for the site's Python, compiled by the Pyodide the site ships (tools/build.py, `compile_python`).
//
//     node tools/pyc.mjs <pyodide folder> <source folder>
//
// Loads the Pyodide of <pyodide folder> (npm `pyodide`: its Python is the page's, not the build machine's),
// mounts <source folder> and writes, for every .py under it, `__pycache__/<name>.<cache tag>.pyc` beside it:
// unchecked-hash pycs (the page's unzipped sources get new mtimes, so timestamp pycs would never be used;
// app.zip's content is fixed by the build's manifest). Prints one JSON line: {ok, magic (hex), tag, version,
// output (compileall's messages)}.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, srcDir] = process.argv.slice(2);
if (!pyodideDir || !srcDir) {
  console.error("usage: node tools/pyc.mjs <pyodide folder> <source folder>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.resolve(pyodideDir, "pyodide.mjs")).href);
const output = [];
const py = await loadPyodide({ stdout: (line) => output.push(line), stderr: (line) => output.push(line) });
py.FS.mkdirTree("/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(srcDir) }, "/src");
const result = py.runPython(`
import compileall, importlib.util, json, py_compile, sys
ok = compileall.compile_dir("/src", quiet=1, stripdir="/src", workers=1,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
json.dumps({"ok": bool(ok), "magic": importlib.util.MAGIC_NUMBER.hex(), "tag": sys.implementation.cache_tag,
            "version": sys.version.split()[0]})
`);
console.log(JSON.stringify({ ...JSON.parse(result), output: output.join("\n") }));
