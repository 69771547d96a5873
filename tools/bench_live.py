"""Live play over WebRTC (issue 28): pairing time, the pairing code's size and QR version, and how long a
move takes over the channel.

    .venv/bin/python tools/bench_live.py [--runs 5] [--moves 6]
    .venv/bin/python tools/bench_live.py --pairings 50

Serves the built site on a free local port; in headless Chromium (the network blocked, ``iceServers:
[]``) two browser contexts are two phones, both booted first (Pyodide's start is not pairing). Each run:

- pairing: the host taps "Show a pairing code" (offer made, candidates gathered, QR code drawn), the
  guest opens the code's link and answers (its QR code drawn), the host takes the answer, until both
  pages say the other is connected: the machine's share of a pairing, without the person scanning;
- the offer's code (bytes it packs, characters) and its link's QR code version (error correction M);
- ``--moves`` Thot moves, each from the tap to the other phone having applied and saved it (protocol
  work on both phones included): one move's delivery; twice that is a move and its answer's round trip
  minus the person thinking;
- the data channel alone: a 300-character frame (a Thot move's message is ~280) echoed between two
  pages paired through the same pairing codes (``web.platform.pairing``), 20 times: its round trip;
- with ``--scarabeo N`` (issue 42), N Scarabeo games paired the same way, the deal done, then up to
  three plays (each the best play on the mover's own rack, laid with the keyboard): from the tap on
  Play until the mover's rack shows 8 tiles again while the other phone has not moved — the other
  phone's shares of the tiles drawn come at once over the channel (by links, with its next move).

With ``--pairings N`` (issue 37) it only pairs: N fresh pairs of phones (two new contexts each, booted),
from the host's tap on "Show a pairing code" until both pages say the other is connected (60 s at most):
how many connected, the median and the slowest time, and what a pair that did not connect was told.

Prints the medians over ``--runs`` and the load average (/proc/loadavg) before and after: figures
from a loaded machine spread widely. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SCARAB_QUIET", "1")

import serve  # noqa: E402
from tools.bench_remote_page import play, two_devices  # noqa: E402
from tools.bench_startup import ARGS, guard  # noqa: E402
from web.platform import pairing  # noqa: E402

LEGAL = "#thot-board .mark-legal, #thot-board .mark-turn, #thot-board .mark-stop"
RAW_OFFER = """async () => { const pc = new RTCPeerConnection({iceServers: []}); window.benchPc = pc;
  window.benchCh = pc.createDataChannel('bench');
  await pc.setLocalDescription(await pc.createOffer());
  while (pc.iceGatheringState !== 'complete') await new Promise(r => setTimeout(r, 20));
  return pc.localDescription.sdp; }"""
RAW_ANSWER = """async (sdp) => { const pc = new RTCPeerConnection({iceServers: []}); window.benchPc = pc;
  pc.ondatachannel = e => { e.channel.onmessage = m => e.channel.send(m.data); };
  await pc.setRemoteDescription({type: 'offer', sdp}); await pc.setLocalDescription(await pc.createAnswer());
  while (pc.iceGatheringState !== 'complete') await new Promise(r => setTimeout(r, 20));
  return pc.localDescription.sdp; }"""
RAW_ECHO = """async ([sdp, n]) => { await benchPc.setRemoteDescription({type: 'answer', sdp});
  const ch = benchCh; while (ch.readyState !== 'open') await new Promise(r => setTimeout(r, 10));
  const frame = 'x'.repeat(300), times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await new Promise(r => { ch.onmessage = () => r(); ch.send(frame); });
    times.push(performance.now() - t);
  }
  benchPc.close(); return times; }"""


def loadavg() -> list[float]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return [round(x, 2) for x in os.getloadavg()]


def chain(page: Any) -> int:
    save_id = page.url.rsplit("/", 1)[1]
    return len(json.loads(page.evaluate(f"localStorage.getItem('scarab:remote:{save_id}')"))["chain"])


def connected(page: Any, name: str) -> None:
    page.wait_for_function("(n) => { const p = document.getElementById('live-presence');"
                           " return p && p.textContent.includes(n); }", arg=name, timeout=60_000)


def one_run(browser: Any, base: str, moves: int) -> dict[str, Any]:
    contexts, anna, bruno = two_devices(browser, base, "#/thot/live")
    try:
        anna.fill("#remote-name", "Anna")
        anna.click("#remote-invite")
        anna.wait_for_selector("#live-offer", timeout=60_000)

        started = time.perf_counter()
        anna.click("#live-offer")
        anna.wait_for_selector("#live-qr-o[data-version]", timeout=60_000)
        offer_ms = (time.perf_counter() - started) * 1000
        link = str(anna.locator("#live-code-o").input_value())
        version = int(anna.locator("#live-qr-o").get_attribute("data-version") or 0)
        code = link.split("?o=", 1)[1]
        started = time.perf_counter()
        bruno.goto(link)  # the same document: only the route changes
        bruno.wait_for_selector("#live-join", timeout=60_000)
        bruno.fill("#live-name", "Bruno")
        bruno.click("#live-join")
        bruno.wait_for_selector("#live-qr-a[data-version]", timeout=60_000)
        answer_ms = (time.perf_counter() - started) * 1000
        answer = str(bruno.locator("#live-code-a").input_value())
        started = time.perf_counter()
        anna.fill("#live-answer", answer)
        anna.click("#live-answer-open")
        connected(anna, "Bruno")
        connected(bruno, "Anna")
        connect_ms = (time.perf_counter() - started) * 1000

        delivery: list[float] = []
        phones = [anna, bruno]
        for _ in range(moves):
            for page in phones:
                page.wait_for_selector("#remote-status")
            ready = [p for p in phones if p.locator("#remote-status").inner_text() == "Your turn."]
            if not ready:
                break
            player, other = ready[0], (bruno if ready[0] is anna else anna)
            before = chain(other)
            started = time.perf_counter()
            player.locator(LEGAL).first.click()
            if player.locator("#thot-drop").count():
                break  # an ankh to place: a person's choice, not the channel's time
            deadline = time.monotonic() + 60
            while chain(other) == before and time.monotonic() < deadline:
                time.sleep(0.005)
            delivery.append((time.perf_counter() - started) * 1000)
            time.sleep(0.3)  # the mover's page settles (its own redraw) before the next tap

        offer_sdp = anna.evaluate(RAW_OFFER)
        answer_sdp = bruno.evaluate(RAW_ANSWER, pairing.expand(pairing.compact(offer_sdp, False), False))
        echo = anna.evaluate(RAW_ECHO, [pairing.expand(pairing.compact(answer_sdp, True), True), 20])
        return {"pairing_ms": offer_ms + answer_ms + connect_ms, "offer_ms": offer_ms, "answer_ms": answer_ms,
                "connect_ms": connect_ms, "offer_code_chars": len(code),
                "offer_code_bytes": len(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))),
                "offer_sdp_bytes": len(offer_sdp.encode()), "offer_link_chars": len(link), "qr_version": version,
                "move_delivery_ms": statistics.median(delivery) if delivery else float("nan"),
                "move_round_trip_ms": 2 * statistics.median(delivery) if delivery else float("nan"),
                "channel_echo_ms": statistics.median(echo)}
    finally:
        for ctx in contexts:
            ctx.close()


def start_pairing(anna: Any, bruno: Any) -> float:
    """Anna invites and shows a code, Bruno answers, Anna takes the answer (the channel then opens by
    itself); the ``perf_counter`` of Anna's tap on "Show a pairing code"."""
    anna.fill("#remote-name", "Anna")
    anna.click("#remote-invite")
    anna.wait_for_selector("#live-offer", timeout=60_000)
    started = time.perf_counter()
    anna.click("#live-offer")
    anna.wait_for_selector("#live-qr-o[data-version]", timeout=60_000)
    bruno.goto(str(anna.locator("#live-code-o").input_value()))
    bruno.wait_for_selector("#live-join", timeout=60_000)
    bruno.fill("#live-name", "Bruno")
    bruno.click("#live-join")
    bruno.wait_for_selector("#live-qr-a[data-version]", timeout=60_000)
    anna.fill("#live-answer", str(bruno.locator("#live-code-a").input_value()))
    anna.click("#live-answer-open")
    return started


def pair_live(anna: Any, bruno: Any) -> None:
    """Anna invites and shows a code, Bruno answers, Anna takes the answer: both connected."""
    start_pairing(anna, bruno)
    connected(anna, "Bruno")
    connected(bruno, "Anna")


PRESENCE = "() => { const p = document.getElementById('live-presence'); return p ? p.textContent : ''; }"


def pairing_run(browser: Any, base: str, limit: float) -> dict[str, Any]:
    """One fresh pair of phones (360×640, touch; both booted first): from the host's tap on "Show a pairing code" until
    both pages say the other is connected, or ``limit`` seconds; what each page said meanwhile."""
    contexts = [browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True,
                                    device_scale_factor=2, locale="en-GB", service_workers="block") for _ in range(2)]
    for ctx in contexts:
        ctx.route("**/*", guard)
    anna, bruno = (ctx.new_page() for ctx in contexts)
    try:
        anna.goto(base + "#/thot/live")
        anna.wait_for_selector("#remote-invite", timeout=120_000)
        bruno.goto(base + "#/")
        bruno.wait_for_selector("body[data-ready='1']", timeout=120_000)
        started = start_pairing(anna, bruno)
        deadline = time.monotonic() + limit
        said: list[str] = []
        while time.monotonic() < deadline:
            texts = [anna.evaluate(PRESENCE), bruno.evaluate(PRESENCE)]
            if "Bruno" in texts[0] and "Anna" in texts[1]:
                return {"connected": True, "ms": (time.perf_counter() - started) * 1000}
            for text in texts:
                if text and text not in said:
                    said.append(text)
            time.sleep(0.05)
        return {"connected": False, "ms": (time.perf_counter() - started) * 1000, "said": said}
    finally:
        for ctx in contexts:
            ctx.close()


RACK = "() => document.querySelectorAll('#sc-rack [data-tile]').length"


def scarabeo_run(browser: Any, base: str, lex: Any, gen: Any, plays: int = 3) -> list[float]:
    """Milliseconds from a play's tap until the mover's rack is whole again, for each play."""
    contexts, anna, bruno = two_devices(browser, base, "#/scarabeo/live")
    refills: list[float] = []
    try:
        pair_live(anna, bruno)
        phones = [anna, bruno]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # the deal's steps go over the channel by themselves
            ready = [p for p in phones if p.locator("#remote-status").count()
                     and p.locator("#remote-status").inner_text() == "Your turn."]
            if ready and all(p.evaluate(RACK) == 8 for p in phones):
                break
            time.sleep(0.1)
        for _ in range(plays):
            ready = [p for p in phones if p.locator("#remote-status").inner_text() == "Your turn."]
            if not ready:
                break
            player = ready[0]
            player.wait_for_selector("#sc-pass")
            started = time.perf_counter()
            play(player, lex, gen)  # the best play, then a tap on Play
            player.wait_for_function(f"() => ({RACK})() < 8", timeout=60_000)
            player.wait_for_function(f"() => ({RACK})() === 8", timeout=60_000)
            refills.append((time.perf_counter() - started) * 1000)
            time.sleep(0.3)
    finally:
        for ctx in contexts:
            ctx.close()
    return refills


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, choices=range(1, 51), metavar="1-50")
    parser.add_argument("--moves", type=int, default=6, choices=range(1, 101), metavar="1-100")
    parser.add_argument("--scarabeo", type=int, default=0, choices=range(0, 21), metavar="0-20",
                        help="Scarabeo games whose racks' refill after a play is timed (issue 42)")
    parser.add_argument("--pairings", type=int, default=0, choices=range(0, 201), metavar="0-200",
                        help="only pair N fresh pairs of phones: how many connected, the median and slowest time")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = serve.make_server("127.0.0.1", 0, ROOT / "dist")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    load_before = loadavg()
    runs = []
    refills: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("SCARAB_CHROMIUM", "/usr/bin/chromium"), args=ARGS)
        try:
            if args.pairings:
                tries = []
                for _ in range(args.pairings):
                    tries.append(pairing_run(browser, base, 60.0))
                    print(json.dumps({k: (round(v) if isinstance(v, float) else v) for k, v in tries[-1].items()}),
                          file=sys.stderr)
                times = [x["ms"] for x in tries if x["connected"]]
                print(json.dumps({"pairings": len(tries), "connected": len(times),
                                  "median_ms": round(statistics.median(times)) if times else None,
                                  "slowest_ms": round(max(times)) if times else None,
                                  "failed_said": [x["said"] for x in tries if not x["connected"]],
                                  "loadavg": {"before": load_before, "after": loadavg()}}, indent=1))
                return
            for _ in range(args.runs):
                runs.append(one_run(browser, base, args.moves))
                print(json.dumps({k: round(v, 1) for k, v in runs[-1].items()}), file=sys.stderr)
            if args.scarabeo:
                import lexicon
                from game.scarabeo.movegen import MoveGenerator

                lex = lexicon.load()
                gen = MoveGenerator(lex)
                for _ in range(args.scarabeo):
                    refills += scarabeo_run(browser, base, lex, gen)
                    print(json.dumps({"rack_refill_ms": [round(x) for x in refills]}), file=sys.stderr)
        finally:
            browser.close()
            server.shutdown()
    medians = {key: round(statistics.median(r[key] for r in runs), 1) for key in runs[0]}
    if refills:
        medians["scarabeo_rack_refill_ms"] = round(statistics.median(refills), 1)
        medians["scarabeo_rack_refill_max_ms"] = round(max(refills), 1)
    print(json.dumps({"runs": len(runs), "median": medians,
                      "loadavg": {"before": load_before, "after": loadavg()}}, indent=1))


if __name__ == "__main__":
    main()
