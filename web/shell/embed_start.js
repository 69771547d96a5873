// Starts PyScript in embed.html. A game embedded in another site's page is a third-party frame, and
// Safari, Brave, strict Firefox and Chromium with third-party storage blocked refuse it IndexedDB;
// PyScript opens IndexedDB at start-up and stops there if it cannot. Where the probe below fails,
// npm's fake-indexeddb (vendored at build time) is installed first, so the game starts, in memory.
async function indexedDBUsable() {
  try {
    const request = indexedDB.open("scarab-probe");
    return await new Promise((resolve) => {
      request.onsuccess = () => {
        request.result.close();
        try { indexedDB.deleteDatabase("scarab-probe"); } catch (e) { /* nothing to clean */ }
        resolve(true);
      };
      request.onerror = (event) => { event.preventDefault(); resolve(false); };
      request.onblocked = () => resolve(true);
    });
  } catch (e) {
    return false;
  }
}

if (!(await indexedDBUsable())) {
  await import("../../vendor/fake-indexeddb/auto/index.mjs");
  document.body.dataset.storage = "memory";
}
await import("../../vendor/pyscript/core.js");
