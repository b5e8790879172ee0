#!/usr/bin/env python3
"""The load and the verdict of Benchmarks/fault-soak.sh. Python 3 standard library only.

    fault_soak_load.py load --ports 18101,18102,18103 --seconds 600 --rate 200 --out results.json
    fault_soak_load.py verdict --results results.json --fields fields.json --http-fields http.json ...

`load` posts distinct deflate batches (docs/wire-format.md#batch) round-robin over the replicas at a bounded rate
from N worker threads. A batch is re-sent, to the next replica after a short backoff, until some replica
answers 202 or the give-up time after the load passes; connection errors, timeouts, 408, 429 and 5xx are
retried, as an SDK would. A 202 with "duplicate": true after an attempt of unknown outcome is still the
batch's acknowledgement: the first delivery was stored, and the answer carries its numbers. Every answer
is counted by minute and replica, and every 202 by second and replica, so that a replica that stopped
storing shows as a long stretch without one. After the load, each replica gets fresh batches of its own
until it stores one (or a minute passes): ingest must work again on every replica.

`verdict` compares what the collectors acknowledged with what the database holds, prints the figures,
and exits 1 on any difference or on a replica that did not come back.
"""
import argparse
import http.client
import json
import random
import socket
import sys
import threading
import time
import uuid
import zlib

APP_ID = "com.example.soak"
CLIENT_TIMEOUT = 10.0
# Answers an SDK retries: the batch was not stored, or may have been and the batch id makes a re-send safe.
RETRYABLE_STATUSES = {408, 429, 500, 502, 503, 504}
STATUS_COLUMNS = ["202", "202dup", "503", "429", "5xx", "4xx", "refused", "reset", "timeout"]


# --- Batches -------------------------------------------------------------------------------------------

VERSIONS = (("5.2.0", "5204"), ("5.2.0", "5204"), ("5.1.3", "5131"), ("5.3.0-beta", "5300"))
OS_VERSIONS = ("17.4.1", "17.5", "18.0", "16.7.8")
# (raw endpoint maker, Swift type, failure shapes: (path maker, kind, expected, message, snippet maker))
ENDPOINTS = [
    (lambda r: "GET /v2/users/%d/posts?page=%d" % (r.randrange(1, 10**7), r.randrange(1, 30)), "PostsPage", [
        (lambda r: ["results", r.randrange(40), "title"], "keyNotFound", "String",
         'No value associated with key CodingKeys(stringValue: "title", intValue: nil) ("title").',
         lambda r: {"id": r.randrange(10**6), "headline": "Post %d" % r.randrange(1000)}),
        (lambda r: ["results", r.randrange(40), "likes"], "typeMismatch", "Int",
         "Expected to decode Int but found a string/data instead.",
         lambda r: {"id": r.randrange(10**6), "likes": str(r.randrange(10**4))}),
        (lambda r: ["results", r.randrange(40), "kind"], "unknownValue", "PostKind",
         "Cannot initialize PostKind from invalid String value reel",
         lambda r: {"kind": r.choice(("reel", "story", "poll"))}),
        (lambda r: ["next_cursor"], "valueNotFound", "String", "Expected String value but found null instead.",
         lambda r: {"next_cursor": None}),
    ]),
    (lambda r: "GET https://api.example.com/v1/orders/%s" % uuid.UUID(int=r.getrandbits(128), version=4),
     "Order", [
        (lambda r: ["order", "items", r.randrange(12), "price"], "typeMismatch", "Decimal",
         "Expected to decode Decimal but found a string/data instead.",
         lambda r: {"price": "%d.%02d EUR" % (r.randrange(200), r.randrange(100))}),
        (lambda r: ["order", "status"], "unknownValue", "OrderStatus",
         "Cannot initialize OrderStatus from invalid String value on_hold", lambda r: {"status": "on_hold"}),
        (lambda r: ["order", "shipping", "eta"], "dataCorrupted", "Date",
         "Expected date string to be ISO8601-formatted.", lambda r: {"eta": "tomorrow"}),
        (lambda r: ["order", "payments", str(uuid.UUID(int=r.getrandbits(128), version=4)), "amount"],
         "typeMismatch", "Double", "Expected to decode Double but found a string/data instead.",
         lambda r: {"amount": "%d,%02d" % (r.randrange(500), r.randrange(100))}),
    ]),
    (lambda r: "POST /v2/carts/%024x/items/" % r.getrandbits(96), "CartResponse", [
        (lambda r: ["cart", "items", r.randrange(20), "quantity"], "typeMismatch", "Int",
         "Expected to decode Int but found a string/data instead.", lambda r: {"quantity": str(r.randrange(9))}),
        (lambda r: ["cart", "currency"], "unknownValue", "Currency",
         "Cannot initialize Currency from invalid String value CHF", lambda r: {"currency": "CHF"}),
        (lambda r: ["errors", r.randrange(3), "field"], "keyNotFound", "String",
         'No value associated with key CodingKeys(stringValue: "field", intValue: nil) ("field").',
         lambda r: {"message": "token expired"}),
        (lambda r: ["cart", "shipping"], "other", "Shipping", "The data couldn't be read.", lambda r: {}),
    ]),
]
INSTALLS = [str(uuid.UUID(int=random.Random(i).getrandbits(128), version=4)) for i in range(300)]


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % int(seconds % 1 * 1000)


def make_batch(r):
    """A distinct batch of 10-50 valid reports of one install and version: (batch id, deflate body, reports)."""
    now = time.time()
    version, build = r.choice(VERSIONS)
    reports = []
    decodes = {}
    for _ in range(r.randint(10, 50)):
        endpoint, swift_type, shapes = r.choice(ENDPOINTS)
        path, kind, expected, message, snippet = r.choice(shapes)
        raw = endpoint(r)
        decodes[raw.split("?")[0]] = decodes.get(raw.split("?")[0], 0) + 1
        # A few seconds in the past, as an SDK's batch period is: always inside the run's window.
        reports.append({"occurred_at": iso(now - r.random() * 3), "endpoint": raw, "type": swift_type,
                        "path": path(r), "kind": kind, "expected": expected, "message": message,
                        "snippet": json.dumps(snippet(r), separators=(",", ":")), "count": 1})
    batch_id = str(uuid.uuid4())
    batch = {"batch_id": batch_id, "sent_at": iso(now),
             "app": {"id": APP_ID, "version": version, "build": build, "platform": "iOS",
                     "os": r.choice(OS_VERSIONS)},
             "sdk": {"name": "decodewatch-swift", "version": "0.1.0"},
             "install_id": r.choice(INSTALLS),
             "decodes": [{"endpoint": e, "count": n * 20} for e, n in decodes.items()],
             "reports": reports}
    return batch_id, zlib.compress(json.dumps(batch, separators=(",", ":")).encode()), len(reports)


# --- Sending -------------------------------------------------------------------------------------------

class Tally:
    """What happened, shared by the workers: acknowledgements per batch, answers per minute and replica."""

    def __init__(self, started, replicas):
        self.lock = threading.Lock()
        self.started = started
        self.replicas = replicas
        self.acknowledged = {}        # batch id -> reports accepted in its 202
        self.sent_reports = {}        # batch id -> reports in it
        self.given_up = {}            # batch id -> (reports, whether some attempt's outcome is unknown)
        self.probes_given_up = {}     # the same for the probes after the load, which fail differently
        self.refused = {}             # batch id -> the non-retryable answer
        self.duplicate_acks = 0       # acknowledged by a duplicate answer after an unknown outcome
        self.duplicate_first = 0      # duplicate answer to a batch's first attempt: a collector bug
        self.short_acks = 0           # a 202 that accepted fewer reports than the batch held
        self.answers = {}             # (minute, column) -> count
        self.replica_answers = {}     # (replica, column) -> count
        self.stored_seconds = [set() for _ in range(replicas)]  # seconds since start with a 202, per replica
        self.attempts = 0
        self.latencies = []           # seconds each 202 took, the exchange only

    def answer(self, replica, column, latency=None):
        now = time.time()
        with self.lock:
            self.attempts += 1
            if latency is not None:
                self.latencies.append(latency)
            minute = int((now - self.started) // 60)
            self.answers[(minute, column)] = self.answers.get((minute, column), 0) + 1
            self.replica_answers[(replica, column)] = self.replica_answers.get((replica, column), 0) + 1
            if column in ("202", "202dup"):
                self.stored_seconds[replica].add(int(now - self.started))


class Client:
    """One worker's keep-alive connections, one per replica, reopened after any error."""

    def __init__(self, ports):
        self.ports = ports
        self.connections = [None] * len(ports)

    def post(self, replica, body):
        """(status, parsed JSON or None); raises OSError / http.client.HTTPException on a failed exchange."""
        connection = self.connections[replica]
        if connection is None:
            connection = http.client.HTTPConnection("127.0.0.1", self.ports[replica], timeout=CLIENT_TIMEOUT)
            self.connections[replica] = connection
        try:
            connection.request("POST", "/v1/reports", body=body, headers={
                "Content-Type": "application/json", "Content-Encoding": "deflate"})
            response = connection.getresponse()
            data = response.read()
        except BaseException:
            self.close(replica)
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.close(replica)
        try:
            return response.status, json.loads(data)
        except ValueError:
            return response.status, None

    def close(self, replica):
        if self.connections[replica] is not None:
            self.connections[replica].close()
            self.connections[replica] = None


def classify_error(error):
    if isinstance(error, ConnectionRefusedError):
        return "refused"
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timeout"
    return "reset"


def deliver(client, tally, replica, batch_id, body, reports, give_up_at, rotate=True):
    """Sends one batch until a 202, a non-retryable answer or give_up_at. Returns whether it was acknowledged."""
    with tally.lock:
        tally.sent_reports[batch_id] = reports
    unknown = False  # whether an earlier attempt may have stored the batch without our seeing the 202
    attempt = 0
    while True:
        sent = time.time()
        try:
            status, answer = client.post(replica, body)
        except (OSError, http.client.HTTPException) as error:
            column = classify_error(error)
            tally.answer(replica, column)
            # A refused connection never reached the collector; anything later might have been committed.
            unknown = unknown or column != "refused"
        else:
            if status == 202 and isinstance(answer, dict):
                duplicate = bool(answer.get("duplicate"))
                tally.answer(replica, "202dup" if duplicate else "202", time.time() - sent)
                with tally.lock:
                    tally.acknowledged[batch_id] = int(answer.get("accepted", 0))
                    if duplicate:
                        tally.duplicate_acks += 1
                        if not unknown:
                            tally.duplicate_first += 1
                    if int(answer.get("accepted", 0)) != reports:
                        tally.short_acks += 1
                return True
            if status in RETRYABLE_STATUSES:
                tally.answer(replica, "503" if status == 503 else "429" if status == 429 else "5xx")
                # A 5xx other than 503 does not promise that nothing was stored.
                unknown = unknown or status not in (429, 503)
            else:
                tally.answer(replica, "4xx")
                with tally.lock:
                    tally.refused[batch_id] = "%d %s" % (status, json.dumps(answer)[:300])
                return False
        attempt += 1
        backoff = min(1.0, 0.05 * 2 ** attempt) * (0.5 + random.random())
        if time.time() + backoff >= give_up_at:
            with tally.lock:
                tally.given_up[batch_id] = (reports, unknown)
            return False
        time.sleep(backoff)
        if rotate:
            replica = (replica + 1) % len(client.ports)


class Pacer:
    """Hands out send times at `rate` per second; after a stall it catches up by at most one second's worth."""

    def __init__(self, rate, end):
        self.lock = threading.Lock()
        self.interval = 1.0 / rate
        self.next = time.time()
        self.end = end
        self.count = 0

    def take(self):
        """(sequence number, send time), or None once the load's end has come."""
        with self.lock:
            slot = max(self.next, time.time() - 1.0)
            if slot >= self.end:
                return None
            self.next = slot + self.interval
            self.count += 1
            return self.count - 1, slot


def worker(index, ports, tally, pacer, give_up_at):
    r = random.Random("worker-%d-%s" % (index, uuid.uuid4()))
    client = Client(ports)
    while True:
        taken = pacer.take()
        if taken is None:
            return
        sequence, slot = taken
        delay = slot - time.time()
        if delay > 0:
            time.sleep(delay)
        batch_id, body, reports = make_batch(r)
        deliver(client, tally, sequence % len(ports), batch_id, body, reports, give_up_at)


def probe(ports, tally, replica, seconds):
    """Fresh batches to one replica only until it stores one: seconds it took, or None."""
    r = random.Random()
    client = Client(ports)
    started = time.time()
    deadline = started + seconds
    while time.time() < deadline:
        batch_id, body, reports = make_batch(r)
        if deliver(client, tally, replica, batch_id, body, reports, deadline, rotate=False):
            return round(time.time() - started, 2)
        # Given up at the deadline, or refused: either way, no more probes. A probe given up is not a load
        # batch given up: the probe's failure says it.
        with tally.lock:
            if batch_id in tally.given_up:
                tally.probes_given_up[batch_id] = tally.given_up.pop(batch_id)
        return None
    return None


def progress(tally, stop):
    """One line a minute, so that a run can be watched as it goes; the last one once stopped."""
    minute = 0
    while True:
        stopped = stop.wait(1.0)
        now_minute = int((time.time() - tally.started) // 60)
        while minute < now_minute or (stopped and minute <= now_minute):
            with tally.lock:
                row = {c: tally.answers.get((minute, c), 0) for c in STATUS_COLUMNS}
                acknowledged = len(tally.acknowledged)
            print("[load] minute %d: %s; batches acknowledged so far %d" % (
                minute + 1, " ".join("%s=%d" % (c, n) for c, n in row.items() if n) or "no answers", acknowledged),
                file=sys.stderr, flush=True)
            minute += 1
        if stopped:
            return


def longest_gaps(tally, until_second):
    """Per replica: the longest stretch (seconds, from, to) of the load without a 202 from it."""
    gaps = []
    for seconds in tally.stored_seconds:
        marks = sorted(s for s in seconds if s <= until_second)
        edges = [-1] + marks + [until_second + 1]
        best = max(((b - a - 1, a + 1, b) for a, b in zip(edges, edges[1:])), default=(0, 0, 0))
        gaps.append({"seconds": best[0], "from": best[1], "to": best[2]})
    return gaps


def run_load(args):
    ports = [int(p) for p in args.ports.split(",")]
    started = time.time()
    load_end = started + args.seconds
    give_up_at = load_end + args.give_up
    tally = Tally(started, len(ports))
    pacer = Pacer(args.rate, load_end)
    stop = threading.Event()
    reporter = threading.Thread(target=progress, args=(tally, stop), daemon=True)
    reporter.start()
    workers = [threading.Thread(target=worker, args=(i, ports, tally, pacer, give_up_at))
               for i in range(args.workers)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    drained = time.time()
    print("[load] over after %.0f s; retries done %.1f s later" % (load_end - started, drained - load_end),
          file=sys.stderr, flush=True)
    # Ingest must work again on every replica: a replica that only answers /healthz is not back.
    probes = [probe(ports, tally, i, args.probe_seconds) for i in range(len(ports))]
    stop.set()
    reporter.join()
    latencies = sorted(tally.latencies) or [0.0]
    results = {
        "started": started, "load_end": load_end, "finished": time.time(),
        "rate": args.rate, "workers": args.workers, "ports": ports,
        "batches_sent": len(tally.sent_reports), "reports_sent": sum(tally.sent_reports.values()),
        "batches_acknowledged": len(tally.acknowledged),
        "acknowledged_reports": sum(tally.acknowledged.values()),
        "batches_given_up": len(tally.given_up),
        "given_up_reports": sum(n for n, _ in tally.given_up.values()),
        "given_up_unknown_reports": sum(n for n, unknown in list(tally.given_up.values())
                                        + list(tally.probes_given_up.values()) if unknown),
        "probes_given_up": len(tally.probes_given_up),
        "batches_refused": len(tally.refused), "refusals": list(tally.refused.values())[:5],
        "duplicate_acks": tally.duplicate_acks, "duplicate_first_attempt": tally.duplicate_first,
        "short_acks": tally.short_acks, "attempts": tally.attempts,
        "answers": {"%d/%s" % key: n for key, n in tally.answers.items()},
        "replica_answers": {"%d/%s" % key: n for key, n in tally.replica_answers.items()},
        "longest_gaps": longest_gaps(tally, int(args.seconds) - 1),
        "probes": probes,
        "latency_202": {"p50": latencies[len(latencies) // 2], "p99": latencies[int(len(latencies) * 0.99)],
                        "max": latencies[-1]},
    }
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)
    return 0


# --- Verdict -------------------------------------------------------------------------------------------

def table(answers, rows, label):
    """rows: (label, key) pairs; answers: "key/column" -> count."""
    lines = ["  %-8s " % label + " ".join("%8s" % c for c in STATUS_COLUMNS)]
    for name, key in rows:
        lines.append("  %-8s " % name + " ".join("%8d" % answers.get("%s/%s" % (key, c), 0) for c in STATUS_COLUMNS))
    return "\n".join(lines)


def fields_total(path):
    with open(path) as f:
        document = json.load(f)
    groups = document["fields"]
    return sum(int(g["count"]) for g in groups), len(groups)


def run_verdict(args):
    with open(args.results) as f:
        results = json.load(f)
    failures = []
    acknowledged = results["acknowledged_reports"]
    stored, groups = fields_total(args.fields)
    http_stored, _ = fields_total(args.http_fields) if args.http_fields else (None, 0)
    db_batches, db_reports = (int(x) for x in args.db.split()) if args.db else (None, None)

    answers = results["answers"]
    minutes = sorted({int(key.split("/")[0]) for key in answers})
    print("answers by minute of the run (minutes past the load's end are retries and probes):")
    print(table(answers, [(str(m + 1), m) for m in minutes], "minute"))
    print("answers by replica:")
    print(table(results["replica_answers"], [(str(i + 1), i) for i in range(len(results["ports"]))], "replica"))
    print("batches: %d sent, %d acknowledged (%d by a duplicate answer after an unknown outcome), "
          "%d given up (+%d probes), %d refused; %d attempts" % (
              results["batches_sent"], results["batches_acknowledged"], results["duplicate_acks"],
              results["batches_given_up"], results["probes_given_up"], results["batches_refused"],
              results["attempts"]))
    print("reports: %d sent, %d acknowledged" % (results["reports_sent"], acknowledged))
    load_seconds = results["load_end"] - results["started"]
    latency = results["latency_202"]
    print("rate: %.0f batches/s asked, %.1f batches/s acknowledged over the load and its retries; "
          "202 in %.0f ms (p50), %.0f ms (p99), %.0f ms (max)" % (
              results["rate"], results["batches_acknowledged"] / load_seconds,
              latency["p50"] * 1000, latency["p99"] * 1000, latency["max"] * 1000))
    print("acknowledged: %d" % acknowledged)
    print("stored:       %d  (decodewatch fields, %d groups)" % (stored, groups))
    if http_stored is not None:
        print("stored:       %d  (GET /v1/fields on replica %d)" % (http_stored, args.http_replica))
    if db_batches is not None:
        print("stored:       %d  (batches table: %d batches)" % (db_reports, db_batches))
    for index, gap in enumerate(results["longest_gaps"]):
        print("replica %d: longest stretch of the load without a 202: %d s%s" % (
            index + 1, gap["seconds"], " (from second %d to %d)" % (gap["from"], gap["to"]) if gap["seconds"] else ""))
    for index, took in enumerate(results["probes"]):
        print("replica %d: ingest after the load: %s" % (
            index + 1, "stored a batch in %.2f s" % took if took is not None else "NOTHING STORED in %d s" % args.probe_seconds))
    print("every replica /readyz 200 at the end: %s (%s)" % (
        "yes" if all(s == "200" for s in args.ready.split(",")) else "NO", args.ready))

    if stored != acknowledged:
        failures.append("stored %d != acknowledged %d (difference %+d; batches given up after an attempt of unknown "
                        "outcome held %d reports)"
                        % (stored, acknowledged, stored - acknowledged, results["given_up_unknown_reports"]))
    if http_stored is not None and http_stored != acknowledged:
        failures.append("GET /v1/fields counts %d != acknowledged %d" % (http_stored, acknowledged))
    if db_batches is not None and (db_batches != results["batches_acknowledged"] or db_reports != acknowledged):
        failures.append("batches table holds %d batches / %d reports != acknowledged %d / %d" % (
            db_batches, db_reports, results["batches_acknowledged"], acknowledged))
    if groups >= args.limit:
        failures.append("the fields query returned its limit of %d groups: the sum is incomplete" % args.limit)
    if results["batches_given_up"]:
        failures.append("%d batches never acknowledged within the give-up time" % results["batches_given_up"])
    if results["batches_refused"]:
        failures.append("%d batches refused, e.g. %s" % (results["batches_refused"], results["refusals"][0]))
    if results["duplicate_first_attempt"]:
        failures.append("%d first deliveries answered as duplicates" % results["duplicate_first_attempt"])
    if results["short_acks"]:
        failures.append("%d 202 answers accepted fewer reports than sent" % results["short_acks"])
    for index, gap in enumerate(results["longest_gaps"]):
        if gap["seconds"] > args.max_gap:
            failures.append("replica %d stored nothing for %d s (second %d to %d of the load)" % (
                index + 1, gap["seconds"], gap["from"], gap["to"]))
    for index, took in enumerate(results["probes"]):
        if took is None:
            failures.append("replica %d stored nothing in %d s after the load" % (index + 1, args.probe_seconds))
    if not all(s == "200" for s in args.ready.split(",")):
        failures.append("a replica was not ready at the end (%s)" % args.ready)
    if args.fault_failures:
        with open(args.fault_failures) as f:
            failures += [line.strip() for line in f if line.strip()]
    for failure in failures:
        print("FAIL: " + failure)
    print("RESULT: %s" % ("FAIL" if failures else "PASS (stored == acknowledged)"))
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    load = commands.add_parser("load", help="send the load and write results JSON")
    load.add_argument("--ports", required=True, help="the replicas' ports, comma-separated")
    load.add_argument("--seconds", type=float, required=True)
    load.add_argument("--rate", type=float, default=200, help="batches per second in total")
    load.add_argument("--workers", type=int, default=16)
    load.add_argument("--give-up", type=float, default=60, help="seconds after the load that retries may take")
    load.add_argument("--probe-seconds", type=float, default=60)
    load.add_argument("--out", required=True)
    verdict = commands.add_parser("verdict", help="compare acknowledged with stored and print the figures")
    verdict.add_argument("--results", required=True)
    verdict.add_argument("--fields", required=True, help="decodewatch fields --format json output")
    verdict.add_argument("--http-fields", help="GET /v1/fields answer")
    verdict.add_argument("--http-replica", type=int, default=1, help="the replica that gave it")
    verdict.add_argument("--db", help="'batches reports' counted in the batches table")
    verdict.add_argument("--ready", required=True, help="each replica's final /readyz status, comma-separated")
    verdict.add_argument("--fault-failures", help="file of failures seen while injecting faults")
    verdict.add_argument("--limit", type=int, default=1000)
    verdict.add_argument("--max-gap", type=int, default=60)
    verdict.add_argument("--probe-seconds", type=int, default=60)
    args = parser.parse_args()
    return run_load(args) if args.command == "load" else run_verdict(args)


if __name__ == "__main__":
    sys.exit(main())
