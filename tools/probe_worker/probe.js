// The probe page's script (classic, after heartbeat.js, so it runs before anything else): the
// heartbeats, then the worker. Results in window.__probe.
(() => {
  const P = window.__probeStart();
  const rel = (at) => at - performance.timeOrigin;
  P.crossOriginIsolated = self.crossOriginIsolated;
  P.sharedArrayBuffer = typeof SharedArrayBuffer !== "undefined";
  P.workerCreated = performance.now();
  const worker = new Worker("./worker.js", { type: "module" });
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
