// The measuring half of both probed pages (the worker's probe page and the bare PyScript baseline):
// window.__probe with a long-task observer and setTimeout / requestAnimationFrame heartbeats, which
// run until P.done. ``onTick(P, now)``, if given, runs at each setTimeout beat (the baseline watches
// for its "interactive" mark there).
window.__probeStart = (onTick) => {
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
    if (onTick) onTick(P, now);
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
  return P;
};
