#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""LTTng's column of the benchmark: bench/lttng-guest.sh's lines to Markdown.

Usage: lttng-report.py BENCH_TXT. Prints the section on stdout: per CPU
set, hackbench's guest seconds with no tracing, ftrace, rbtrace and LTTng
(same boot, same events), the overhead over no tracing, the events
recorded and the cost per event recorded, with ratios against ftrace.
Under -icount shift=0 a guest nanosecond is one instruction, so "ns per
event" is instructions per event.
"""
import statistics
import sys

IMPLS = [("off", "tracepoints off"), ("ftrace", "ftrace"),
         ("rbtrace", "rbtrace"), ("lttng", "LTTng 2.13 (snapshot session)")]


def fields(line):
    """key=value pairs of a line, the first word under "tag"."""
    words = line.split()
    out = {"tag": words[0]} if words else {}
    for w in words[1:]:
        if "=" in w:
            k, v = w.split("=", 1)
            out[k] = v
    return out


def main():
    try:
        with open(sys.argv[1]) as f:
            raw = [l.rstrip("\n") for l in f if l.strip()]
    except OSError as e:
        raw = [f"lttng-status failed reason=the boot left no results ({e.strerror}: {sys.argv[1]})"]
    lines = [fields(l) for l in raw]
    print("### LTTng as a third column: hackbench on Debian's stock 6.1 kernel "
          "(QEMU -icount, one vCPU, one boot)\n")
    status = next((l for l in raw if l.startswith("lttng-status ")), None)
    if status is None or status.split()[1] != "ok":
        reason = status.split("reason=", 1)[-1] if status else "the guest wrote no status line"
        print(f"LTTng could not run: {reason}\n")
        return
    setup = next(l for l in raw if l.startswith("lttng-setup "))
    args = setup.split("args=", 1)[1].split(" runs=", 1)[0]
    setup = fields(setup)
    print(f"`hackbench {args}`, {setup['runs']} runs of each set-up interleaved; "
          "every buffer overwriting and unread during the run: ftrace's and "
          "rbtrace's 4 MiB per CPU, LTTng's a snapshot session of 8 x 4 MiB "
          "sub-buffers per CPU, large enough for the whole run since only what "
          "is left in it can be counted, the snapshot taken after the run. Events recorded: ftrace's and rbtrace's entries + "
          "overrun over the CPUs; LTTng's, the events babeltrace2's counter sink "
          "finds in the snapshot. Cost per event: (median - median off) / median "
          "recorded, in guest ns = instructions (-icount shift=0; the consumer "
          "daemon and everything else the guest runs are included). Events: "
          f"{', '.join('`' + e + '`' for e in setup['events'].split(','))}; "
          f"LTTng's names: {', '.join('`' + e + '`' for e in setup['lttng'].split(','))}.\n")
    runs = [l for l in lines if l["tag"] == "lttng-hackbench"]
    for cpus in dict.fromkeys(l["cpus"] for l in runs):
        title = "all CPUs" if cpus == "all" else f"pinned to CPU {cpus}"
        print(f"**{title}**\n")
        print("| tracing | runs s | median s | overhead | events recorded (median) "
              "| ns per event recorded | overhead / ftrace's | per event / ftrace's |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        med = {}
        for impl, _ in IMPLS:
            rs = [l for l in runs if l["cpus"] == cpus and l["impl"] == impl]
            secs = [float(l["seconds"]) for l in rs]
            rec = [int(l["recorded"]) for l in rs]
            med[impl] = (statistics.median(secs), statistics.median(rec), secs)
        off = med["off"][0]
        for impl, name in IMPLS:
            t, rec, secs = med[impl]
            if impl == "off":
                print(f"| {name} | {' '.join(f'{s:.3f}' for s in secs)} | {t:.3f} "
                      "| - | 0 | - | - | - |")
                continue
            ovh = (t - off) / off
            per = (t - off) * 1e9 / rec if rec else float("nan")
            ft, frec, _ = med["ftrace"]
            fovh = (ft - off) / off
            fper = (ft - off) * 1e9 / frec if frec else float("nan")
            r_ovh = f"{ovh / fovh:.2f}x" if fovh > 0 else "-"
            r_per = f"{per / fper:.2f}x" if fper > 0 else "-"
            print(f"| {name} | {' '.join(f'{s:.3f}' for s in secs)} | {t:.3f} "
                  f"| {ovh * 100:+.1f}% | {rec:,.0f} | {per:.0f} | {r_ovh} | {r_per} |")
        print()
    disc = [l for l in runs if l["impl"] == "lttng" and l.get("discarded_msgs", "0") != "0"]
    if disc:
        print(f"LTTng's snapshots had discarded-event or discarded-packet messages in "
              f"{len(disc)} runs: its counts there are a lower bound.\n")


main()
