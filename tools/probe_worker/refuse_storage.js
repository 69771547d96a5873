// tools/probe_worker.py --storage-refused: what Safari, Brave and strict Firefox do to a frame from another
// site, storage refused on first touch — the init script of tests/e2e/test_trust.py (REFUSE_STORAGE), here
// for any frame (the probe's frame is localhost inside 127.0.0.1). It reaches the frame's window only; the
// worker refuses its own storage when its address says ?storage=refused (worker.js).
if (window.top !== window) {
  const refuse = () => { throw new DOMException("The operation is insecure.", "SecurityError"); };
  Object.defineProperty(window, "localStorage", { get: refuse, configurable: true });
  Object.defineProperty(window, "indexedDB", { get: refuse, configurable: true });
  Object.defineProperty(Navigator.prototype, "serviceWorker", { get: refuse, configurable: true });
}
