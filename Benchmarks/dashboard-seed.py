#!/usr/bin/env python3
"""Seeds a running collector with N distinct breaking fields through POST /v1/reports.

Groups: 50 endpoints x (N / 50) paths of one app, reported by 3 app versions and 400 installs at
times spread over the last 24 hours, with decode counts so that rates exist; each group is reported
H times (default 1: one rollup row per group; 24 fills most hours of the day for every group, as a
field that breaks for everyone does). Batches hold 1,000 reports (the ingest limit) and are
deflate-compressed like the SDK's.

Usage: Benchmarks/dashboard-seed.py http://127.0.0.1:18082 10000 [H]
"""
import datetime
import json
import random
import sys
import urllib.request
import uuid
import zlib


def main(base, groups, hits):
    random.seed(11)
    now = datetime.datetime.now(datetime.timezone.utc)
    reports = []
    for index in [group for _ in range(hits) for group in range(groups)]:
        endpoint = f"GET /v2/resource{index % 50}"
        occurred = now - datetime.timedelta(seconds=random.randint(60, 86_000))
        reports.append({
            "occurred_at": occurred.strftime("%Y-%m-%dT%H:%M:%SZ"), "endpoint": endpoint, "type": "Item",
            "path": ["items", 0, f"field{index // 50}"], "kind": ["keyNotFound", "typeMismatch"][index // 50 % 2],
            "expected": "String", "count": random.randint(1, 50),
            "message": f"No value associated with key field{index // 50}.",
            "snippet": json.dumps({"id": index, "field": None}),
        })
    sent = 0
    for start in range(0, len(reports), 1000):
        batch = {
            "batch_id": str(uuid.uuid4()), "sent_at": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "app": {"id": "com.example.shop", "platform": "iOS", "version": random.choice(["5.1.0", "5.2.0", "5.3.0"])},
            "install_id": f"install-{random.randint(1, 400)}", "sdk": {"name": "decodewatch-swift", "version": "0.1.0"},
            "decodes": [{"endpoint": f"GET /v2/resource{e}", "count": 5000} for e in range(50)],
            "reports": reports[start:start + 1000],
        }
        body = zlib.compress(json.dumps(batch).encode())
        request = urllib.request.Request(
            base + "/v1/reports", data=body, method="POST",
            headers={"Content-Type": "application/json", "Content-Encoding": "deflate"})
        with urllib.request.urlopen(request) as answer:
            if answer.status != 202:
                raise SystemExit(f"ingest answered {answer.status}")
        sent += len(batch["reports"])
    print(f"seeded {sent} reports in {groups} groups")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10_000, int(sys.argv[3]) if len(sys.argv) > 3 else 1)
