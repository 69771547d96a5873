// The probe page's only script (classic, so it runs before anything else): a long-task observer, a
// setTimeout and a requestAnimationFrame heartbeat, then the worker. Results in window.__probe.
(() => {
  const P = (window.__probe = { longtasks: [], maxTimeoutGap: 0, maxRafGap: 0, stages: {}, done: false });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) P.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (err) {
    P.observerError = String(err);
  }
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    P.maxTimeoutGap = Math.max(P.maxTimeoutGap, now - last);
    last = now;
    if (!P.done) setTimeout(tick, 10);
  };
  setTimeout(tick, 10);
  let lastFrame = null;
  const frame = (now) => {
    if (lastFrame !== null) P.maxRafGap = Math.max(P.maxRafGap, now - lastFrame);
    lastFrame = now;
    if (!P.done) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
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
