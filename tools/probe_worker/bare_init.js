// Injected before the first script of bench_startup.py's bare PyScript page (Pyodide on the main thread,
// the baseline): the same observer and heartbeats as probe.js; done at its "scarab:interactive" mark.
(() => {
  if (window !== window.top) return;
  const P = (window.__probe = { longtasks: [], maxTimeoutGap: 0, maxRafGap: 0, stages: {}, done: false });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) P.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    P.maxTimeoutGap = Math.max(P.maxTimeoutGap, now - last);
    last = now;
    const mark = performance.getEntriesByName("scarab:interactive");
    if (mark.length) {
      P.stages.pyodide = mark[0].startTime;
      P.ok = true;
      P.endedAt = now;
      P.done = true;
    } else setTimeout(tick, 10);
  };
  setTimeout(tick, 10);
  let lastFrame = null;
  const frame = (now) => {
    if (lastFrame !== null) P.maxRafGap = Math.max(P.maxRafGap, now - lastFrame);
    lastFrame = now;
    if (!P.done) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
