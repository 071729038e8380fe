#!/usr/bin/env python3
"""Writes a large Kineto trace for the "Kineto input" benchmark (bench/README.md): the events of one real
trace repeated N times, each copy shifted past the previous one in time and in correlation ids, streamed out
(the output is never held in memory). Usage: kineto_scale.py INPUT.json.gz N OUTPUT.json"""
import gzip, json, sys

src, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with gzip.open(src, "rt") as f:
    trace = json.load(f)
events = trace.pop("traceEvents")
xs = [e for e in events if e.get("ph") == "X" and isinstance(e.get("ts"), (int, float))]
span = max(e["ts"] + e.get("dur", 0) for e in xs) - min(e["ts"] for e in xs) + 1000
corr = max((e.get("args", {}).get("correlation", 0) for e in xs if isinstance(e.get("args", {}).get("correlation", 0), int)), default=0) + 1
with open(out, "w") as f:
    head = json.dumps(trace)[:-1]
    f.write(head + ', "traceEvents": [\n')
    first = True
    for k in range(copies):
        for e in events:
            if k > 0 and e.get("ph") != "X":
                continue
            c = dict(e)
            if isinstance(c.get("ts"), (int, float)):
                c["ts"] = round(c["ts"] + k * span, 3)
            a = c.get("args")
            if isinstance(a, dict) and isinstance(a.get("correlation"), int):
                c["args"] = dict(a, correlation=a["correlation"] + k * corr)
            f.write(("" if first else ",\n") + json.dumps(c))
            first = False
    f.write("\n]}\n")
