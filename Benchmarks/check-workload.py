#!/usr/bin/env python3
"""Checks that two directories of ingest batches have the same shape, figure by figure.

    Benchmarks/check-workload.py SWIFT_DIR PYTHON_DIR

Inflates every *.bin batch of both directories (zlib, HTTP `deflate`) and prints side by side: mean deflate and JSON
sizes, reports per batch, distinct raw endpoints, the shares of normalized endpoints (docs/wire-format.md: method
upper-cased, scheme/host/query dropped, digit/UUID/16+-hex segments -> {id}), the shares of kinds, the number of
distinct groups after templating paths (digit/UUID/16+-hex keys and indexes -> [*]), the top-5 group shares, the
shares of versions and OS versions, distinct installs and batch ids, decodes per batch, and snippet lengths. Exits 1
when a figure differs by more than its tolerance: sizes, counts and snippet lengths +-10 % (relative), shares +-0.03
(absolute), the group count, reports per batch and distinct batch ids exactly. Meant for `IngestBench generate`
against `realistic_batches.py`, 2,000 batches each.
Python 3 standard library only.
"""
import collections
import json
import os
import re
import sys
import zlib

UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
HEX16 = re.compile(r"^[0-9a-fA-F]{16,}$")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RELATIVE = 0.10
SHARE = 0.03


def is_id(text):
    return text.isdigit() or bool(UUID.match(text)) or bool(HEX16.match(text))


def normalize(endpoint):
    """The endpoint as docs/wire-format.md normalizes it (without configured route templates)."""
    method, target = endpoint.split(" ", 1)
    target = target.split("#", 1)[0].split("?", 1)[0]
    if "://" in target:
        target = "/" + target.split("://", 1)[1].partition("/")[2]
    segments = [s for s in target.split("/") if s]
    segments = ["{id}" if is_id(s) or (s.startswith("{") and s.endswith("}")) else s for s in segments]
    return "%s /%s" % (method.upper(), "/".join(segments))


def render(path):
    """The coding path as the collector's JSONPath with wildcards."""
    out = "$"
    for element in path:
        if isinstance(element, int) or is_id(element):
            out += "[*]"
        elif IDENTIFIER.match(element):
            out += "." + element
        else:
            out += "['%s']" % element.replace("\\", "\\\\").replace("'", "\\'")
    return out


def shares(counter):
    total = sum(counter.values()) or 1
    return {key: count / total for key, count in counter.items()}


def measure(folder):
    """The figures of one directory's batches."""
    files = sorted(f for f in os.listdir(folder) if f.endswith(".bin"))
    deflate = raw = reports = 0
    endpoints, normalized, kinds, groups = set(), collections.Counter(), collections.Counter(), collections.Counter()
    versions, systems, installs, snippets = collections.Counter(), collections.Counter(), set(), []
    batch_ids, decodes = set(), 0
    for name in files:
        with open(os.path.join(folder, name), "rb") as f:
            body = f.read()
        text = zlib.decompress(body)
        deflate += len(body)
        raw += len(text)
        batch = json.loads(text)
        versions[batch["app"]["version"]] += 1
        systems[batch["app"].get("os", "(none)")] += 1
        installs.add(batch["install_id"])
        batch_ids.add(batch["batch_id"])
        decodes += sum(entry["count"] for entry in batch["decodes"])
        for report in batch["reports"]:
            reports += 1
            endpoints.add(report["endpoint"])
            endpoint = normalize(report["endpoint"])
            normalized[endpoint] += 1
            kinds[report["kind"]] += 1
            groups[(endpoint, render(report["path"]), report["kind"])] += 1
            snippets.append(len(report.get("snippet", "").encode()))
    n = max(1, len(files))
    group_shares = sorted(shares(groups).values(), reverse=True)
    return {
        "batches": len(files),
        "distinct batch ids": len(batch_ids),
        "mean deflate bytes": deflate / n,
        "mean JSON bytes": raw / n,
        "reports per batch": reports / n,
        "distinct raw endpoints": len(endpoints),
        "decodes per batch": decodes / n,
        "normalized endpoints": shares(normalized),
        "kinds": shares(kinds),
        "distinct groups": len(groups),
        "top-5 group shares": {"#%d" % (i + 1): s for i, s in enumerate(group_shares[:5])},
        "versions": shares(versions),
        "OS versions": shares(systems),
        "distinct installs": len(installs),
        "snippet bytes min": min(snippets, default=0),
        "snippet bytes max": max(snippets, default=0),
        "snippet bytes mean": sum(snippets) / max(1, len(snippets)),
    }


EXACT = {"distinct groups", "reports per batch", "distinct batch ids"}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    swift, python = measure(sys.argv[1]), measure(sys.argv[2])
    failures = []
    print("%-36s %14s %14s  %s" % ("figure", "swift", "python", "tolerance"))

    def row(label, a, b, tolerance, kind, name=None):
        if kind == "exact":
            ok = a == b
        elif kind == "share":
            ok = abs(a - b) <= tolerance
        else:
            ok = abs(a - b) <= tolerance * max(abs(a), abs(b))
        note = {"exact": "exact", "share": "+-%.2f" % tolerance, "relative": "+-%d %%" % (tolerance * 100)}[kind]
        fmt = "%14.3f" if kind == "share" else "%14.1f" if isinstance(a, float) or isinstance(b, float) else "%14d"
        print(("%-36s " + fmt + " " + fmt + "  %s%s") % (label, a, b, note, "" if ok else "  DIFFERS"))
        if not ok:
            failures.append(name or label)

    for key in swift:
        a, b = swift[key], python[key]
        if key == "batches":
            print("%-36s %14d %14d" % (key, a, b))
        elif isinstance(a, dict):
            print(key + ":")
            for sub in sorted(set(a) | set(b), key=lambda k: -(b.get(k, 0) + a.get(k, 0))):
                row("  " + str(sub), a.get(sub, 0.0), b.get(sub, 0.0), SHARE, "share", "%s %s" % (key, sub))
        else:
            row(key, a, b, 0, "exact") if key in EXACT else row(key, a, b, RELATIVE, "relative")
    print("shapes match" if not failures else "shapes differ: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
