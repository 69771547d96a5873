// Injected (after heartbeat.js) before the first script of bench_startup.py's bare PyScript page
// (Pyodide on the main thread, the baseline): done at its "scarab:interactive" mark.
(() => {
  if (window !== window.top) return;
  window.__probeStart((P, now) => {
    const mark = performance.getEntriesByName("scarab:interactive");
    if (mark.length) {
      P.stages.pyodide = mark[0].startTime;
      P.ok = true;
      P.endedAt = now;
      P.done = true;
    }
  });
})();
