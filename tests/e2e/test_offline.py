"""Issue 9: the installed, offline site. The service worker pre-caches the build; then the server
can stop and everything still works; a new version is offered and applied."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import Guard, watch

pytestmark = pytest.mark.e2e


def wait_offline_ready(page: Any) -> None:
    page.wait_for_function(
        "navigator.serviceWorker.ready.then(r => !!r.active) && navigator.serviceWorker.controller !== null",
        timeout=60_000)
    page.wait_for_function(
        """async () => { const keys = await caches.keys();
                         const c = await caches.open(keys.find(k => k.startsWith('scarab-')));
                         return (await c.keys()).length > 40; }""", timeout=60_000)


class TestOffline:
    def test_reload_with_server_stopped(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        base = own_server("offline/scarab")
        page = watch(context_factory(service_workers="allow").new_page(), guard)
        page.goto(base)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        wait_offline_ready(page)
        own_server.stop()
        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.get_by_role("link", name="Settings").click()
        page.get_by_label("Dark").check()
        # the handler runs after the change event (patch.js delivers event messages in a microtask)
        page.wait_for_function("() => JSON.parse(localStorage.getItem('scarab:settings') || '{}').theme === 'dark'")
        assert json.loads(page.evaluate("localStorage.getItem('scarab:settings')"))["theme"] == "dark"
        page.get_by_role("button", name="Check a word").click()
        field = page.get_by_label("Words to check")
        field.fill("scarabeo")
        field.press("Enter")
        page.get_by_text("SCARABEO: valid").wait_for(timeout=30_000)

    def test_new_version_is_offered_and_applied(self, context_factory: Any, guard: Guard, own_server: Any) -> None:
        base = own_server("update/scarab")
        page = watch(context_factory(service_workers="allow").new_page(), guard)
        page.goto(base)
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        wait_offline_ready(page)
        old_keys = page.evaluate("caches.keys()")
        # Publish a new version: a changed file gives a new manifest version inside sw.js.
        site = own_server.root / "update" / "scarab"
        worker = (site / "sw.js").read_text()
        version = worker.split('const VERSION = "')[1].split('"')[0]
        (site / "sw.js").unlink()  # a hard link to dist/: replace, never edit in place
        (site / "sw.js").write_text(worker.replace(version, version[::-1]))
        page.evaluate("window.scarabBoot.checkForUpdate()")
        banner = page.locator("#update")
        banner.wait_for(timeout=60_000)
        assert "new version" in banner.inner_text()
        # The running version keeps working while the update waits.
        page.get_by_role("link", name="About").click()
        page.get_by_role("heading", name="About").wait_for()
        with page.expect_navigation():
            page.get_by_role("button", name="Reload to update").click()
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.wait_for_function("caches.keys().then(k => k.length === 1)", timeout=30_000)
        assert page.evaluate("caches.keys()") != old_keys


class TestInstallable:
    def test_manifest_and_icons(self, page: Any, open_site: Any, server: str) -> None:
        open_site(page)
        href = page.locator("link[rel=manifest]").get_attribute("href")
        manifest = page.evaluate(f"fetch('{href}').then(r => r.json())")
        assert manifest["start_url"] == "./" and manifest["display"] in ("fullscreen", "standalone")
        sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
        assert {"192x192", "512x512"} <= sizes
        assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
        for icon in manifest["icons"]:
            info = page.evaluate(
                f"""fetch('{icon["src"]}').then(async r => [r.status, r.headers.get('content-type'),
                    (await r.arrayBuffer()).byteLength])""")
            assert info[0] == 200 and info[1] == icon["type"] and info[2] > 500
            if icon["type"] == "image/png":
                w, h = icon["sizes"].split("x")
                dims = page.evaluate(
                    f"""new Promise(ok => {{ const i = new Image(); i.onload = () => ok([i.naturalWidth, i.naturalHeight]);
                        i.src = '{icon["src"]}'; }})""")
                assert dims == [int(w), int(h)]
