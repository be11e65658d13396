"""Draws the benchmark pictures of docs/benchmarks.md from zest-bench --json files.

    python3 scripts/bench_plots.py OUT_DIR RUN.json [RUN.json ...]

Each RUN.json is one zest-bench run against one libzstd version (the file
names the version); give several runs per version. Every figure drawn is
zest's speed-up over libzstd as zest-bench measures it, side by side in one
process (above 1: zest is faster): for each case, each run gives one
speed-up (the ratio of the two sides' medians); a marker is the median of
those over the runs against one version, its whiskers the lowest and highest
run. Absolute speeds are never compared across runs: on a shared machine
they move more between runs than the two libraries differ. Writes, into
OUT_DIR:

  decompression.svg          whole buffers: the columnar set, the corpus
                             set's decompression rows, the stream set's sd-*;
  decompression-context.svg  one message per call: the context set's d-*
                             rows and the dictionary set's d-* rows;
  compression-levels.svg     compression per level over the corpus inputs
                             (the c-* rows): speed-up (geometric mean over the
                             inputs) and the size of zest's frames over
                             libzstd's;
  compression-threads.svg    the threads set: compression with 1, 2 and all
                             cores' workers against libzstd with as many
                             (wall clock), one group per worker count.

and prints the same figures as Markdown tables on stdout, with each run's
load (real time over CPU time of its rounds). Needs matplotlib (Debian:
python3-matplotlib). scripts/bench_plots.sh runs the benchmarks, then this.
"""
import json
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullLocator  # noqa: E402

# Same drawing every run: fixed fonts, no timestamps in the SVG.
plt.rcParams["svg.hashsalt"] = "zest"
plt.rcParams["font.family"] = "DejaVu Sans"
plt.rcParams["font.size"] = 9
METADATA = {"Date": None, "Creator": "scripts/bench_plots.py"}
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
MARKERS = ["o", "s", "^", "D"]


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        r["path"] = p
        runs.append(r)
    return runs


def version_key(v):
    return tuple(int(x) if x.isdigit() else 0 for x in v.split("."))


def side(case, name):
    for s in case["sides"]:
        if s["name"] == name and s["ok"]:
            return s
    return None


def speedup(case):
    """zest's speed-up in one run's case, as the tables print it, or None."""
    z, l = side(case, "zest"), side(case, "libzstd")
    if z is None or l is None:
        return None
    if case["unit"] == "mbps":
        return z["median_mbps"] / l["median_mbps"] if l["median_mbps"] > 0 else None
    return l["median_ns"] / z["median_ns"] if z["median_ns"] > 0 else None


def busy(run):
    cpu = sum(r["cpu_seconds"] for c in run["cases"] for r in c["rounds"])
    wall = sum(r["wall_seconds"] for c in run["cases"] for r in c["rounds"])
    return wall / cpu if cpu > 0 else 1.0


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


class Data:
    """Per libzstd version: for each (set, case), the speed-up of every run."""

    def __init__(self, runs):
        self.versions = sorted({r["libzstd_version"] for r in runs}, key=version_key)
        self.zest_version = runs[0]["zest_version"]
        self.runs = runs
        self.ups = {v: defaultdict(list) for v in self.versions}
        self.cases = {}  # (set, case) -> the case's JSON of the first run that has it
        self.n_runs = {v: 0 for v in self.versions}
        for r in runs:
            v = r["libzstd_version"]
            self.n_runs[v] += 1
            for c in r["cases"]:
                key = (c["set"], c["case"])
                self.cases.setdefault(key, c)
                x = speedup(c)
                if x is not None:
                    self.ups[v][key].append(x)

    def keys(self, accept):
        """(set, case) keys that `accept(case)` wants, in the order the runs measured them."""
        return [k for k, c in self.cases.items() if accept(c) and any(k in self.ups[v] for v in self.versions)]


def log_ticks(lo, hi):
    """Tick values for a log axis from lo to hi: fine steps near 1 when the
    range is narrow, coarse ones when it spans more than a factor of 4."""
    fine = [0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.5, 2, 2.5, 3]
    coarse = [0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500]
    return [t for t in (fine if hi / lo <= 4 else coarse) if lo <= t <= hi]


def runs_behind(data, v, keys):
    """How many runs against v measured these cases (the most any case has)."""
    return max((len(data.ups[v].get(k, [])) for k in keys), default=0)


def forest(data, groups, path, title, note):
    """One row per case, grouped; per version a marker at the median of the
    runs' speed-ups and whiskers to the lowest and highest run; log x axis
    with a line at 1."""
    rows = []  # (label, key) or (group title, None)
    all_keys = []
    for name, keys in groups:
        if not keys:
            continue
        means = []
        for v in data.versions:
            meds = [median(data.ups[v][k]) for k in keys if data.ups[v].get(k)]
            if meds:
                means.append(f"{geomean(meds):.2f} against {v}")
        rows.append((f"{name} (geometric mean of the medians: " + ", ".join(means) + ")", None))
        rows += [(k[1], k) for k in keys]
        all_keys += keys
    if not rows:
        return False
    nv = len(data.versions)
    fig, ax = plt.subplots(figsize=(8, 1.9 + 0.17 * len(rows)), layout="constrained")
    lo, hi = 1.0, 1.0
    for i, v in enumerate(data.versions):
        ys, xs, err_lo, err_hi = [], [], [], []
        for y, (_, key) in enumerate(rows):
            if key is None or not data.ups[v].get(key):
                continue
            vals = data.ups[v][key]
            m = median(vals)
            ys.append(y + (i - (nv - 1) / 2) * 0.3)
            xs.append(m)
            err_lo.append(m - min(vals))
            err_hi.append(max(vals) - m)
            lo, hi = min(lo, min(vals)), max(hi, max(vals))
        ax.errorbar(xs, ys, xerr=[err_lo, err_hi], fmt=MARKERS[i % len(MARKERS)], color=COLORS[i % len(COLORS)],
                    markersize=3.5, elinewidth=1, capsize=2,
                    label=f"against libzstd {v}: median of {runs_behind(data, v, all_keys)} runs, "
                          "whiskers: lowest and highest run")
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xscale("log")
    lo, hi = lo / 1.06, hi * 1.06
    ax.set_xlim(lo, hi)
    ticks = log_ticks(lo, hi)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{t:g}" for t in ticks])
    ax.set_yticks([y for y, (_, key) in enumerate(rows) if key is not None])
    ax.set_yticklabels([label for label, key in rows if key is not None], fontsize=7)
    for y, (label, key) in enumerate(rows):
        if key is None:  # a group's title across its own row
            ax.text(0.005, y, label, transform=ax.get_yaxis_transform(), fontsize=8, fontweight="bold",
                    va="center", ha="left")
            ax.axhline(y - 0.5, color="0.6", linewidth=0.6, zorder=0)
    ax.set_ylim(len(rows) - 0.5, -0.6)
    ax.grid(True, axis="x", linewidth=0.3)
    ax.set_xlabel("← libzstd is faster        zest's speed-up over libzstd, measured side by side "
                  "(log scale)        zest is faster →")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=1, fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=10)
    fig.supxlabel(note, fontsize=6.5, color="0.3")
    fig.savefig(path, metadata=METADATA)
    plt.close(fig)
    return True


def level_figures(data, v):
    """{level: ([per-run geometric mean of the inputs' speed-ups], size ratio)}
    over the corpus set's compression rows, against version v."""
    per_run = defaultdict(list)  # level -> [geomean per run]
    sizes = defaultdict(lambda: [0, 0])  # level -> [zest bytes, libzstd bytes]
    for r in data.runs:
        if r["libzstd_version"] != v:
            continue
        by_level = defaultdict(list)
        for c in r["cases"]:
            if c["set"] != "corpus" or c["operation"] != "compress":
                continue
            x = speedup(c)
            if x is None or not c["zest_compressed_bytes"]:
                continue
            by_level[c["level"]].append(x)
            if len(per_run[c["level"]]) == 0:  # sizes do not change from run to run: take the first
                sizes[c["level"]][0] += c["zest_compressed_bytes"]
                sizes[c["level"]][1] += c["compressed_bytes"]
        for level, xs in by_level.items():
            per_run[level].append(geomean(xs))
    return {l: (per_run[l], sizes[l][0] / sizes[l][1]) for l in per_run if sizes[l][1]}


def plot_levels(data, path, note):
    figs = {v: level_figures(data, v) for v in data.versions}
    levels = sorted({l for f in figs.values() for l in f})
    if not levels:
        return False
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True, gridspec_kw={"height_ratios": [3, 2]},
                                      layout="constrained")
    nv = len(data.versions)
    for i, v in enumerate(data.versions):
        f = figs[v]
        xs = [k + (i - (nv - 1) / 2) * 0.15 for k, l in enumerate(levels) if l in f]
        meds = [median(f[l][0]) for l in levels if l in f]
        lo = [median(f[l][0]) - min(f[l][0]) for l in levels if l in f]
        hi = [max(f[l][0]) - median(f[l][0]) for l in levels if l in f]
        top.errorbar(xs, meds, yerr=[lo, hi], fmt=MARKERS[i % len(MARKERS)] + "-", linewidth=0.8,
                     color=COLORS[i % len(COLORS)], markersize=4, elinewidth=1, capsize=2,
                     label=f"against libzstd {v}: median of {max(len(f[l][0]) for l in f)} runs, "
                           "whiskers: lowest and highest run")
        bottom.plot(xs, [f[l][1] for l in levels if l in f], MARKERS[i % len(MARKERS)] + "-", linewidth=0.8,
                    color=COLORS[i % len(COLORS)], markersize=4, label=f"against libzstd {v}")
    top.axhline(1.0, color="black", linewidth=1)
    top.set_ylabel("compression speed-up\n(above 1: zest is faster)")
    top.set_title("speed-up: each run's geometric mean over the corpus inputs", fontsize=8)
    top.grid(True, linewidth=0.3)
    top.legend(fontsize=7)
    bottom.axhline(1.0, color="black", linewidth=1)
    bottom.set_ylabel("zest's output size over\nlibzstd's (below 1: smaller)")
    bottom.yaxis.set_major_formatter(FormatStrFormatter("%.4f"))
    bottom.grid(True, linewidth=0.3)
    bottom.set_xticks(range(len(levels)))
    bottom.set_xticklabels([str(l) for l in levels])
    bottom.set_title("output size: zest's frames over libzstd's, the corpus inputs together", fontsize=8)
    bottom.set_xlabel("level")
    fig.suptitle("Compression per level: zest against libzstd, measured side by side", fontsize=10)
    fig.supxlabel(note, fontsize=6.5, color="0.3")
    fig.savefig(path, metadata=METADATA)
    plt.close(fig)
    return True


def markdown(data, title, keys):
    """The figures a forest picture draws, as a Markdown table."""
    out = [f"\n#### {title}\n", "| case | " + " | ".join(f"against {v}" for v in data.versions) + " |",
           "| --- |" + " ---: |" * len(data.versions)]
    for k in keys:
        cells = []
        for v in data.versions:
            vals = data.ups[v].get(k)
            cells.append(f"{median(vals):.2f} ({min(vals):.2f}-{max(vals):.2f})" if vals else "-")
        out.append(f"| `{k[0]}/{k[1]}` | " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 1
    out_dir, runs = argv[1], load(argv[2:])
    data = Data(runs)
    print("runs (real time over CPU time of their rounds: 1.00 on an idle machine):")
    for r in runs:
        print(f"  {r['path']}: libzstd {r['libzstd_version']}, {len(r['cases'])} cases, "
              f"{r['rounds']} rounds, load {busy(r):.2f}")
    pinned = sorted({r["pinned_cpu"] for r in runs if r.get("pinned_cpu") is not None})
    note = (f"zest {data.zest_version}; zest-bench: zest and libzstd in alternating rounds in one process"
            + (f", pinned to CPU {pinned[0]}" if pinned else "") + "; scripts/bench_plots.sh")

    def is_decode(sets):
        return lambda c: c["operation"] == "decompress" and c["set"] in sets

    whole = [("columnar", data.keys(is_decode({"columnar"}))),
             ("corpus", data.keys(is_decode({"corpus"}))),
             ("stream", data.keys(is_decode({"stream"})))]
    # A new context per message and a reused one tell different stories (the
    # first is mostly set-up cost): each gets its own group and mean.
    def reused(c):
        return c["case"].endswith("-reused")

    messages = []
    for name in ("context", "dictionary"):
        messages.append((f"{name}, a new context per message",
                         data.keys(lambda c: is_decode({name})(c) and not reused(c))))
        messages.append((f"{name}, one reused context", data.keys(lambda c: is_decode({name})(c) and reused(c))))
    wrote = []
    if forest(data, whole, f"{out_dir}/decompression.svg",
              "Decompression of whole buffers and streams: zest's speed-up over libzstd", note):
        wrote.append("decompression.svg")
    if forest(data, messages, f"{out_dir}/decompression-context.svg",
              "Decompressing one message per call: zest's speed-up over libzstd", note):
        wrote.append("decompression-context.svg")
    if plot_levels(data, f"{out_dir}/compression-levels.svg", note):
        wrote.append("compression-levels.svg")
    # The threads set is timed by the wall clock on every core: its runs
    # are not pinned, whatever the others were.
    workers = sorted({int(c["case"].rsplit("-T", 1)[1]) for (s, _), c in data.cases.items() if s == "threads"})
    threads = [(f"{n} worker{'s' if n > 1 else ''}",
                data.keys(lambda c, n=n: c["set"] == "threads" and c["case"].endswith(f"-T{n}")))
               for n in workers]
    threads_note = note.replace(f", pinned to CPU {pinned[0]}" if pinned else "", "") + \
        "; threads set: wall clock, not pinned"
    if forest(data, threads, f"{out_dir}/compression-threads.svg",
              "Compression with workers: zest's speed-up over libzstd with as many", threads_note):
        wrote.append("compression-threads.svg")

    # The same figures in text, for the page's tables.
    for title, groups in (("decompression", whole), ("one message per call", messages),
                          ("compression with workers", threads)):
        for name, keys in groups:
            if keys:
                print(markdown(data, f"{title}: {name}", keys))
                means = []
                for v in data.versions:
                    meds = [median(data.ups[v][k]) for k in keys if data.ups[v].get(k)]
                    if meds:
                        means.append(f"{geomean(meds):.2f} against {v} ({min(meds):.2f}-{max(meds):.2f})")
                print(f"| geometric mean of the medians | " + " | ".join(means) + " |")
    for v in data.versions:
        f = level_figures(data, v)
        if f:
            print(f"\n#### compression per level against {v}: speed-up median (lowest-highest run), size ratio\n")
            print("| level | speed-up | zest size / libzstd size |\n| ---: | ---: | ---: |")
            for l in sorted(f):
                xs, size = f[l]
                print(f"| {l} | {median(xs):.2f} ({min(xs):.2f}-{max(xs):.2f}) | {size:.4f} |")
    print("\nwrote " + ", ".join(f"{out_dir}/{w}" for w in wrote))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
