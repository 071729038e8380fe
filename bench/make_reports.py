#!/usr/bin/env python3
"""Writes N synthetic report.json files of D devices and I iterations for the dashboard benchmark
(bench/dashboard.sh): each is a real report (TEMPLATE, written by gpueff analyze) with its devices, its
efficiency model, its iterations, phases and timeline replaced by generated ones, so that the families a
dashboard reads have the size of a D-device, I-iteration run and the rest (kernel tables, nsys stats) the
size of a real one. Run r starts an hour after run r-1; from run N/2 on the iterations are 5 % longer (a
regression the index must mark). Usage: make_reports.py TEMPLATE OUTDIR N [D] [I]"""
import copy
import json
import os
import random
import sys


def convention(devices, duration, rng, comm_share):
    states, useful_sum, useful_max, active_max = [], 0, 0, 0
    for d in devices:
        useful = int(duration * rng.uniform(0.70, 0.85))
        comm = int(duration * comm_share * rng.uniform(0.8, 1.2))
        idle = max(duration - useful - comm, 0)
        states.append({"id": d["id"], "useful_ns": useful, "communication_ns": comm, "idle_ns": idle})
        useful_sum += useful
        useful_max = max(useful_max, useful)
        active_max = max(active_max, useful + comm)
    n = len(devices)
    return {"parallel_efficiency": useful_sum / (n * duration), "load_balance": useful_sum / (n * useful_max),
            "communication_efficiency": useful_max / active_max, "orchestration_efficiency": active_max / duration,
            "useful_sum_ns": useful_sum, "useful_max_ns": useful_max, "active_max_ns": active_max, "devices": states}


def efficiency(devices, duration, rng):
    return {"nccl_as_communication": convention(devices, duration, rng, 0.08),
            "nccl_as_useful": convention(devices, duration, rng, 0.01)}


def main():
    template, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ndev = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    niter = int(sys.argv[5]) if len(sys.argv) > 5 else 50
    base = json.load(open(template))
    for r in range(runs):
        rng = random.Random(r)
        rep = copy.deepcopy(base)
        devices = []
        for g in range(ndev):
            d = copy.deepcopy(base["devices"][0])
            d.update({"id": f"node{g // 4}:{100 + g // 4}:{g % 4}", "task": g // 4 + 1, "gpu": g % 4, "label": f"rank {g} / GPU {g % 4}"})
            devices.append(d)
        rep["devices"] = devices
        slow = 1.05 if r >= runs // 2 else 1.0
        t, iterations = 1_000_000, []
        for i in range(niter):
            duration = int(20_000_000 * slow * rng.gauss(1.0, 0.01))
            it = copy.deepcopy(base["iterations"][0])
            it.update({"index": i, "name": f"iteration {i}", "begin_ns": t, "end_ns": t + duration,
                       "duration_ns": duration, "status": "warm-up" if i < 2 else "steady",
                       "efficiency": efficiency(devices, duration, rng)})
            it.pop("tasks", None)
            iterations.append(it)
            t += duration
        rep["iterations"] = iterations
        window = t + 1_000_000
        rep["window"].update({"begin_ns": 0, "end_ns": window, "duration_ns": window})
        rep["efficiency"] = efficiency(devices, window, rng)
        focus_ns = iterations[-1]["end_ns"] - iterations[2]["begin_ns"]
        rep["focus"].update({"first": 2, "last": niter - 1, "begin_ns": iterations[2]["begin_ns"],
                             "end_ns": iterations[-1]["end_ns"], "duration_ns": focus_ns,
                             "efficiency": efficiency(devices, focus_ns, rng)})
        for p in rep.get("phases", []):
            p["efficiency"] = efficiency(devices, max(p["time_ns"], 1), rng)
        bins = rep["timeline"]["bins"]
        rep["timeline"]["bin_ns"] = window / bins
        rep["timeline"]["devices"] = [{"device": d["id"], "kernels_in_flight": [rng.uniform(0, 2) for _ in range(bins)],
                                       "useful": [rng.uniform(0.6, 0.9) for _ in range(bins)],
                                       "communication": [rng.uniform(0, 0.1) for _ in range(bins)]} for d in devices]
        for i in rep["inputs"]:
            i["utc_start_ns"] = 1_780_000_000_000_000_000 + r * 3_600_000_000_000
            i["path"] = f"run{r:04d}.sqlite"
        d = os.path.join(out, f"run{r:04d}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "report.json"), "w") as f:
            json.dump(rep, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
