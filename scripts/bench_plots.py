"""Draws the benchmark pictures of docs/benchmarks.md from zest-bench --json files.

    python3 scripts/bench_plots.py OUT_DIR RUN.json [RUN.json ...]

Each RUN.json is one zest-bench run against one libzstd version (the file
names the version). Writes, into OUT_DIR:

  compression-levels.svg   compression speed against ratio, one point per
                           level, for zest and every libzstd version given,
                           with the Pareto front over all of them (the corpus
                           set's c-* cases, summed over its inputs);
  decompression.svg        decompression speed per workload (corpus,
                           columnar and stream cases), zest and each libzstd;
  decompression-context.svg
                           nanoseconds per message (context set, d-* cases).

Needs matplotlib (Debian: python3-matplotlib). scripts/bench_plots.sh runs
the benchmarks and then this script.
"""
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402

# Same drawing every run: fixed fonts, no timestamps in the SVG.
plt.rcParams["svg.hashsalt"] = "zest"
plt.rcParams["font.family"] = "DejaVu Sans"
plt.rcParams["font.size"] = 9
METADATA = {"Date": None, "Creator": "scripts/bench_plots.py"}


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append(json.load(f))
    return runs


def side(case, name):
    for s in case["sides"]:
        if s["name"] == name and s["ok"]:
            return s
    return None


def cases_of(runs):
    """The cases of several runs, each (set, case) once: the first run's wins."""
    seen = set()
    for r in runs:
        for c in r["cases"]:
            key = (c["set"], c["case"])
            if key not in seen:
                seen.add(key)
                yield c


def compression_points(runs, who):
    """{level: (MB/s, ratio)} over the corpus set's compression cases."""
    acc = defaultdict(lambda: [0.0, 0.0, 0.0])  # input bytes, compressed bytes, seconds
    for c in cases_of(runs):
        if c["set"] != "corpus" or c["operation"] != "compress":
            continue
        s = side(c, who)
        if s is None or s["median_mbps"] <= 0:
            continue
        size = c["zest_compressed_bytes"] if who == "zest" else c["compressed_bytes"]
        if not size:
            continue
        a = acc[c["level"]]
        a[0] += c["input_bytes"]
        a[1] += size
        a[2] += c["input_bytes"] / (s["median_mbps"] * 1e6)
    return {lvl: (a[0] / a[2] / 1e6, a[0] / a[1]) for lvl, a in acc.items() if a[2] > 0}


def pareto(points):
    """Points no other point beats on both speed and ratio, fastest first."""
    front = []
    for p in sorted(points, key=lambda q: (-q[0], -q[1])):
        if not front or p[1] > front[-1][1]:
            front.append(p)
    return front


def series(runs):
    """[(label, runs, side name)]: zest once (its cases from every run), then
    libzstd once per version (the runs against that version)."""
    out = [(f"zest {runs[0]['zest_version']}", runs, "zest")]
    versions = []
    for r in runs:
        if r["libzstd_version"] not in versions:
            versions.append(r["libzstd_version"])
    for v in versions:
        out.append((f"libzstd {v}", [r for r in runs if r["libzstd_version"] == v], "libzstd"))
    return out


def plot_levels(runs, path):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    everything = []
    markers = ["o", "s", "^", "D", "v"]
    for i, (label, group, who) in enumerate(series(runs)):
        pts = compression_points(group, who)
        if not pts:
            continue
        levels = sorted(pts)
        xs = [pts[l][1] for l in levels]
        ys = [pts[l][0] for l in levels]
        ax.plot(xs, ys, marker=markers[i % len(markers)], linestyle="-", linewidth=0.8, markersize=4, label=label)
        for l in levels:
            if i == 0:
                ax.annotate(str(l), (pts[l][1], pts[l][0]), textcoords="offset points", xytext=(3, 3), fontsize=7)
        everything += [(pts[l][0], pts[l][1]) for l in levels]
    front = pareto(everything)
    if front:
        ax.plot([p[1] for p in front], [p[0] for p in front], linestyle="--", color="black", linewidth=1,
                label="Pareto front (all)")
    ax.set_yscale("log")
    ax.set_xlabel("compression ratio (corpus inputs together)")
    ax.set_ylabel("compression speed, MB/s (log scale)")
    ax.set_title("Compression: speed against ratio, one point per level (labels: zest's levels)")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata=METADATA)
    plt.close(fig)


def grouped_bars(ax, names, groups, unit_label):
    """Horizontal bars, one group per case (first case on top)."""
    height = 0.8 / max(1, len(groups))
    for i, (label, values) in enumerate(groups):
        ys = [k + (i - (len(groups) - 1) / 2) * height for k in range(len(names))]
        ax.barh(ys, [values.get(n, 0) for n in names], height, label=label)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(unit_label)
    ax.grid(True, axis="x", linewidth=0.3)
    ax.legend(loc="lower right")


def decompress_values(runs, who, sets, unit):
    out = {}
    for c in cases_of(runs):
        if c["operation"] != "decompress" or c["set"] not in sets:
            continue
        s = side(c, who)
        if s is None:
            continue
        key = c["case"] if len(sets) == 1 else f"{c['set']}/{c['case']}"
        out[key] = s["median_mbps"] if unit == "mbps" else s["median_ns"] / 1000
    return out


def plot_decompression(runs, path, sets, unit, title, ylabel):
    groups = [(label, decompress_values(group, who, sets, unit)) for label, group, who in series(runs)]
    names = []
    for _, vals in groups:
        for n in vals:
            if n not in names:
                names.append(n)
    if not names:
        return False
    fig, ax = plt.subplots(figsize=(8, 1 + 0.1 * len(names) * (len(groups) + 1)))
    grouped_bars(ax, names, groups, ylabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, metadata=METADATA)
    plt.close(fig)
    return True


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 1
    out_dir, runs = argv[1], load(argv[2:])
    plot_levels(runs, f"{out_dir}/compression-levels.svg")
    plot_decompression(runs, f"{out_dir}/decompression.svg", {"corpus", "columnar", "stream"}, "mbps",
                       "Decompression speed per workload (higher is faster)", "MB/s of decompressed data")
    plot_decompression(runs, f"{out_dir}/decompression-context.svg", {"context"}, "ns",
                       "Decompressing one message (lower is faster)", "microseconds per message")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
