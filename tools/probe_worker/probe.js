// The probe page's script (classic, after heartbeat.js, so it runs before anything else): the
// heartbeats, then the worker. Results in window.__probe.
(() => {
  const P = window.__probeStart();
  const rel = (at) => at - performance.timeOrigin;
  P.crossOriginIsolated = self.crossOriginIsolated;
  P.sharedArrayBuffer = typeof SharedArrayBuffer !== "undefined";
  // Where this page is: its own indexedDB and eval (refused by --storage-refused, --csp no-unsafe-eval).
  try { P.pageIndexedDB = window.indexedDB ? "granted" : "absent"; } catch (err) { P.pageIndexedDB = err.name; }
  try { P.pageEval = (0, eval)("1 + 1") === 2 ? "allowed" : "?"; } catch (err) { P.pageEval = err.name; }
  P.workerCreated = performance.now();
  // The page's query (?csp=…, ?storage=refused: tools/probe_worker.py's --csp and --storage-refused) goes on to
  // the worker's address: the server answers worker.js?csp=… with that policy as a header, the worker reads the rest.
  document.addEventListener("securitypolicyviolation", (e) => {
    (P.violations = P.violations || []).push(`page: ${e.violatedDirective} ${e.blockedURI}`);
  });
  const worker = new Worker("./worker.js" + location.search, { type: "module" });
  worker.onmessage = (e) => {
    const d = e.data;
    if (d.kind === "stage") {
      P.stages[d.name] = rel(d.at);
      return;
    }
    P.ok = d.ok;
    P.error = d.error;
    P.out = d.out;
    P.zipBytes = d.zipBytes;
    P.storageTouched = d.storageTouched;
    P.workerIndexedDB = d.workerIndexedDB;
    P.workerEval = d.workerEval;
    if (d.violations && d.violations.length) P.violations = (P.violations || []).concat(d.violations);
    for (const [k, v] of Object.entries(d.marks || {})) P.stages[k] = rel(v);
    P.endedAt = performance.now();
    P.done = true;
  };
  worker.onerror = (e) => {
    P.ok = false;
    P.error = `worker error: ${e.message || "(no message)"}`;
    P.endedAt = performance.now();
    P.done = true;
  };
})();
