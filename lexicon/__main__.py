"""Command line: ``python -m lexicon build|check|stats|bench|coverage|anagram|pattern|best|bench-tools``.

    build [--force] [--source DIR] [--verbose | --quiet]
                                     build data/it.dawg (skipped when its inputs are unchanged):
                                     on stderr a line when it starts, its progress and a line
                                     when done; the statistics go to data/it.dawg.stamp
                                     (--verbose: also as JSON on stdout)
    check WORD…                      JSON: word → {"valid", "abbreviation", "normalised", "source", "source_note",
                                     "lemma", "forms", "lemmas", "exclusion"}
    stats                            JSON: counts, sizes, build inputs
    bench [--lookups N] [--no-build] [--pyodide]
                                     JSON: the performance targets, measured here
    coverage [--top N] [--names] [--left-out]
                                     JSON: share of the N most frequent Italian forms accepted,
                                     and the misses not yet reviewed (needs the review extra)
    anagram RACK [--min N]           JSON: the words a rack of up to 8 tiles spells (? a scarab, at most 2)
    pattern P [--length N] [--limit N]
                                     JSON: words matching P (? one letter, * any letters), alphabetical
    best RACK [--limit N]            JSON: the best-scoring first plays of RACK on an empty board
    bench-tools [--runs N]           JSON: the word tools timed, with a baseline and the load average

Exit status: 0 ok, 2 bad arguments or a missing/corrupt lexicon (message on stderr).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from . import DEFAULT_PATH, Lexicon, LexiconError, load, normalise, read_file


def _print(obj: object) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def cmd_build(args: argparse.Namespace) -> int:
    from .build import DEFAULT_SOURCE, OUTPUT, STAMP, BuildError, build

    try:
        info = build(Path(args.source) if args.source else DEFAULT_SOURCE, force=args.force, output=OUTPUT,
                     stamp=STAMP, log=None if args.quiet else sys.stderr)
    except BuildError as exc:
        print(f"lexicon build: {exc}", file=sys.stderr)
        return 2
    if args.verbose:
        _print(info)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from .build import DICTIONARY_SOURCE, OUTPUT, excluded_path, forms_path, read_exclusions, read_sources, \
        sources_path
    from .forms import Forms
    from .sources import exclusion

    lex = load(args.lexicon)
    path = Path(args.lexicon) if args.lexicon else OUTPUT
    # Where each word comes from: the build's list of the words that are not the dictionary's.
    sources = read_sources(sources_path(path))
    # Its lemma and forms, or why it is left out: the build's forms file and excluded list (an
    # older build has neither: the lemmas are then empty and every exclusion "unknown").
    excluded = read_exclusions(excluded_path(path))
    forms = Forms.from_bytes(read_file(str(forms_path(path))), lex) if forms_path(path).is_file() else None
    results = {}
    for word in args.words:
        meaning = lex.abbreviation(word)
        valid = lex.contains(word)
        source, note = sources.get(normalise(word), (DICTIONARY_SOURCE if valid and sources else None, None))
        lemmas = forms.lemmas(word, own_root=source == DICTIONARY_SOURCE) if forms and valid else []
        why = exclusion(lex, excluded, word)
        results[word] = {
            "normalised": normalise(word),
            "valid": valid,
            "abbreviation": meaning,
            "source": source if valid else None,
            "source_note": note if valid else None,
            "lemma": lemmas[0].lemma if lemmas else None,
            "forms": lemmas[0].shortest(FORMS_SHOWN) if lemmas else [],
            "lemmas": [m.to_json(FORMS_SHOWN) for m in lemmas],
            "exclusion": {"rule": why[0], "note": why[1]} if why else None,
        }
    _print(results)
    return 0


#: Forms of a lemma that ``check`` prints (the count says how many there are).
FORMS_SHOWN = 12


def cmd_anagram(args: argparse.Namespace) -> int:
    from .tools import ToolError, anagrams

    lex = load(args.lexicon)
    try:
        found = anagrams(lex, args.rack, args.min)
    except ToolError as exc:
        print(f"lexicon anagram: {exc}", file=sys.stderr)
        return 2
    _print({"rack": normalise(args.rack).replace(" ", ""), "count": len(found),
            "words": [a.to_json() for a in found]})
    return 0


def cmd_pattern(args: argparse.Namespace) -> int:
    from .tools import ToolError, parse_pattern, pattern

    lex = load(args.lexicon)
    try:
        words, more = pattern(lex, args.pattern, args.length, args.limit)
        shown = parse_pattern(args.pattern)
    except ToolError as exc:
        print(f"lexicon pattern: {exc}", file=sys.stderr)
        return 2
    _print({"pattern": shown, "length": args.length, "count": len(words), "more": more, "words": words})
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    from .tools import ToolError, best_plays

    lex = load(args.lexicon)
    try:
        plays = best_plays(lex, args.rack, args.limit)
    except ToolError as exc:
        print(f"lexicon best: {exc}", file=sys.stderr)
        return 2
    _print({"rack": normalise(args.rack).replace(" ", ""), "plays": [p.to_json() for p in plays]})
    return 0


def cmd_bench_tools(args: argparse.Namespace) -> int:
    from .toolbench import run_tool_bench

    lex = load(args.lexicon)
    _print(run_tool_bench(lex, args.runs, baseline=not args.no_baseline))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from .build import STAMP, read_stamp

    path = args.lexicon or DEFAULT_PATH
    lex = load(path)
    data = read_file(path)
    out = {
        "path": str(path),
        "word_count": len(lex),
        "abbreviation_count": len(lex.abbreviations),
        "node_count": lex.node_count,
        "edge_count": lex.edge_count,
        "size_bytes": len(data),
        "gzip_bytes": len(gzip.compress(data, 9, mtime=0)),
        "by_length": _length_histogram(lex),
        "build": read_stamp(STAMP) if args.lexicon is None else None,
    }
    _print(out)
    return 0


def _length_histogram(lex: Lexicon) -> dict[str, int]:
    counts: dict[int, int] = {}
    for w in lex.words():
        counts[len(w)] = counts.get(len(w), 0) + 1
    return {str(k): counts[k] for k in sorted(counts)}


_BUILD_CHILD = """
import hashlib, json, resource, sys, time
from pathlib import Path
from lexicon.build import build_bytes
t = time.perf_counter()
data, report = build_bytes(Path(sys.argv[1]))
seconds = time.perf_counter() - t
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "peak_mb": peak_kb / 1024, "sha256": hashlib.sha256(data).hexdigest()}))
"""


def cmd_bench(args: argparse.Namespace) -> int:
    from .build import DEFAULT_SOURCE

    path = args.lexicon or DEFAULT_PATH
    load(path)  # a missing or corrupt file: LexiconError, exit 2
    data = read_file(path)
    out: dict[str, object] = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                                        f"{platform.python_implementation()} {platform.python_version()}"}
    # Load from bytes: best of several runs (the browser does this once).
    loads: list[float] = []
    for _ in range(5):
        t = time.perf_counter()
        lex = Lexicon.from_bytes(data)
        loads.append(time.perf_counter() - t)
    out["word_count"] = len(lex)
    out["size_bytes"] = len(data)
    gzip_bytes = len(gzip.compress(data, 9, mtime=0))
    out["gzip_bytes"] = gzip_bytes
    out["load_ms"] = round(min(loads) * 1000, 2)
    # Look-ups: a fixed mix of real words (half) and near-misses (half).
    rng = random.Random(1)
    need = max(1, args.lookups // 2)
    sample = list(itertools.islice(lex.words(), 0, 97 * need, 97))
    rng.shuffle(sample)
    words = sample[:need]
    misses = [w[:-1] + ("Z" if w[-1] != "Z" else "A") for w in words]
    queries = words + misses
    # Best of three passes: the figure is the machine's speed, not its other load.
    elapsed = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        found = sum(1 for w in queries if lex.contains(w))
        elapsed = min(elapsed, time.perf_counter() - t)
    out["lookups"] = len(queries)
    out["lookups_found"] = found
    forms_file = Path(path).with_name(Path(path).stem + ".forms")
    if forms_file.is_file():  # the word panel's first opening: the forms file, then a few words' lemmas
        from .forms import Forms

        forms_data = read_file(str(forms_file))
        t = time.perf_counter()
        forms = Forms.from_bytes(forms_data, lex)
        out["forms_load_ms"] = round((time.perf_counter() - t) * 1000, 1)
        asked = {}
        for word in ("GATTI", "AMAVO", "PRENDETELI", "RIABBAIARE", "BULLIZZATE", "IERI"):
            t = time.perf_counter()
            forms.lemmas(word, own_root=True)
            asked[word] = round((time.perf_counter() - t) * 1000, 1)
        out["lemmas_ms"] = asked
    contains_per_second = int(len(queries) / elapsed)
    out["contains_per_second"] = contains_per_second
    targets = {
        "words >= 3.5 M": len(lex) >= 3_500_000,
        "raw <= 800 KB": len(data) <= 800 * 1024,
        "gzip <= 450 KB": gzip_bytes <= 450 * 1024,
        "contains >= 200k/s": contains_per_second >= 200_000,
    }
    if not args.no_build:
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
        proc = subprocess.run([sys.executable, "-c", _BUILD_CHILD, str(args.source or DEFAULT_SOURCE)],
                              capture_output=True, text=True, env=env, check=False)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 2
        child = json.loads(proc.stdout)
        build_seconds, build_peak_mb = round(child["seconds"], 2), round(child["peak_mb"], 1)
        out["build_seconds"], out["build_peak_mb"] = build_seconds, build_peak_mb
        # The child rebuilt from scratch: identical bytes prove the build is deterministic.
        out["build_identical_to_file"] = child["sha256"] == hashlib.sha256(data).hexdigest()
    if args.pyodide:
        script = Path(__file__).resolve().parent / "pyodide_bench.mjs"
        proc = subprocess.run(["node", str(script), str(path)], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            print(f"lexicon bench --pyodide: {proc.stderr.strip()[-500:]}", file=sys.stderr)
            return 2
        pyodide_node = json.loads(proc.stdout.strip().splitlines()[-1])
        out["pyodide_node"] = pyodide_node
        targets["Pyodide load <= 150 ms"] = pyodide_node["load_ms_first"] <= 150
    if not args.no_build:
        targets["build <= 60 s"] = build_seconds <= 60
        targets["build <= 500 MB"] = build_peak_mb <= 500
    out["targets"] = targets
    _print(out)
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    from .build import DEFAULT_SOURCE, REMOVALS, BuildError, read_word_list
    from .review import FREQUENCY_PACKAGE, FREQUENCY_VERSION, FREQUENCY_WORDLIST, ReviewError, coverage, \
        frequency_list, read_review, source_names

    lex = load(args.lexicon)
    try:
        forms, version = frequency_list(args.top)
        names = source_names(Path(args.source) if args.source else DEFAULT_SOURCE)
        result = coverage(forms, lex, names, read_review(), read_word_list(REMOVALS))
    except (ReviewError, BuildError) as exc:
        print(f"lexicon coverage: {exc}", file=sys.stderr)
        return 2
    if version != FREQUENCY_VERSION:
        # Another version ranks other forms: the figures are not comparable with the docs'.
        print(f"lexicon coverage: {FREQUENCY_PACKAGE} {version} installed, the review used "
              f"{FREQUENCY_VERSION}", file=sys.stderr)
    out: dict[str, object] = {"frequency_list": f"{FREQUENCY_PACKAGE} {version}, Italian, {FREQUENCY_WORDLIST}",
                              "top": args.top}
    out.update(result.as_dict(show_names=args.names, show_left_out=args.left_out))
    _print(out)
    return 0


#: Bounds of the count options: a bench or a review of this size is already long.
MAX_LOOKUPS = 10_000_000
MAX_TOP = 1_000_000


def _count(lo: int, hi: int) -> "Callable[[str], int]":
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} is out of range ({lo} to {hi})")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lexicon", description="The Scarabeo Italian lexicon.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("build", help="build lexicon/data/it.dawg (skipped when up to date)")
    p.add_argument("--force", action="store_true", help="rebuild even if the inputs are unchanged")
    p.add_argument("--source", metavar="DIR", help="directory with index.dic and index.aff (default: node_modules/dictionary-it)")
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("--verbose", action="store_true", help="also print the statistics (JSON on stdout)")
    shown.add_argument("--quiet", action="store_true", help="no progress lines, only errors")
    p.set_defaults(func=cmd_build)
    p = sub.add_parser("check", help="check words; JSON word → valid / abbreviation meaning")
    p.add_argument("words", nargs="+", metavar="WORD")
    p.add_argument("--lexicon", metavar="FILE", help="lexicon file (default: the built one)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("stats", help="counts, sizes and build inputs (JSON)")
    p.add_argument("--lexicon", metavar="FILE")
    p.set_defaults(func=cmd_stats)
    p = sub.add_parser("bench", help="measure the targets (JSON)")
    p.add_argument("--lexicon", metavar="FILE")
    p.add_argument("--source", metavar="DIR")
    p.add_argument("--lookups", type=_count(1, MAX_LOOKUPS), default=200_000,
                   help=f"number of contains() calls (default 200000, 1 to {MAX_LOOKUPS})")
    p.add_argument("--no-build", action="store_true", help="skip measuring a full build in a child process")
    p.add_argument("--pyodide", action="store_true",
                   help="also load it in Pyodide under Node (node_modules/pyodide), as the browser does")
    p.set_defaults(func=cmd_bench)
    p = sub.add_parser("coverage", help="share of the most frequent Italian forms accepted, and the misses (JSON)")
    p.add_argument("--top", type=_count(1, MAX_TOP), default=5000,
                   help=f"how many of the most frequent forms (default 5000, 1 to {MAX_TOP})")
    p.add_argument("--lexicon", metavar="FILE")
    p.add_argument("--source", metavar="DIR", help="hunspell source whose capitalised roots are the names")
    p.add_argument("--names", action="store_true", help="also list the misses taken for names")
    p.add_argument("--left-out", action="store_true", help="also list the misses the review left out")
    p.set_defaults(func=cmd_coverage)
    p = sub.add_parser("anagram", help="the words a rack spells (JSON)")
    p.add_argument("rack", metavar="RACK", help="up to 8 tiles: letters, ? for a scarab (at most 2)")
    p.add_argument("--min", type=_count(1, 8), default=2, help="shortest word (default 2)")
    p.add_argument("--lexicon", metavar="FILE")
    p.set_defaults(func=cmd_anagram)
    p = sub.add_parser("pattern", help="words matching a pattern: ? one letter, * any letters (JSON)")
    p.add_argument("pattern", metavar="PATTERN", help="e.g. C?SA, *ARE, ??????")
    p.add_argument("--length", type=_count(1, 17), default=None, help="only words of this many letters")
    p.add_argument("--limit", type=_count(1, 100_000), default=200, help="at most this many words (default 200)")
    p.add_argument("--lexicon", metavar="FILE")
    p.set_defaults(func=cmd_pattern)
    p = sub.add_parser("best", help="the best-scoring first plays of a rack on an empty board (JSON)")
    p.add_argument("rack", metavar="RACK", help="up to 8 tiles: letters, ? for a scarab (at most 2)")
    p.add_argument("--limit", type=_count(1, 1000), default=10, help="how many words (default 10)")
    p.add_argument("--lexicon", metavar="FILE")
    p.set_defaults(func=cmd_best)
    p = sub.add_parser("bench-tools", help="time the word tools, with a baseline and the load average (JSON)")
    p.add_argument("--runs", type=_count(1, 100), default=5, help="runs of each query; the best and the median are shown")
    p.add_argument("--no-baseline", action="store_true",
                   help="skip the baseline (the move generator's whole enumeration, seconds)")
    p.add_argument("--lexicon", metavar="FILE")
    p.set_defaults(func=cmd_bench_tools)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and 2
    try:
        return int(args.func(args))
    except LexiconError as exc:
        print(f"lexicon: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
