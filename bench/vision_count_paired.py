"""Tableau count, this tree against a baseline tree, on the same photos in the same run (issue 7).

    .venv/bin/python bench/vision_count_paired.py --baseline DIR [--set held-out|tune|unseen]
                                                  [--counts 60] [--first-seed 0] [--size ...]

DIR is another checkout of the app (e.g. `git archive main | tar -x -C /tmp/base`). Each
photo is rendered once (bench/vision_tableau.py's renderer for held-out and tune,
bench/vision_tableau_unseen.py's for unseen, with those benches' seeds) and counted by both
trees, each in its own worker process, one after the other (which goes first alternates), on
one core, decode included, exactly as the benches run a count. The picture is made once, by
this tree, and given to both. Prints each tree's figures (exact counts, exact split, wrong or
missing pieces counted right (T6 undercharge), right pieces counted right), every photo
whose result changed, the CPU time per photo (median, p90) with the per-photo ratio
(this tree / baseline: the load of a shared machine falls on both alike), and peak memory
(traced on a few photos after the timed run, and each worker's peak resident size).
"""

from __future__ import annotations

import os
import sys

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"

import argparse  # noqa: E402
import pickle  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parents[1]
MEMORY_PHOTOS = 3


def worker(tree: str) -> None:
    """Count the photos sent on stdin with the app in `tree`; answer on stdout (pickles)."""
    sys.path.insert(0, tree)
    import cv2

    # the tree's own bench: its count (decode included) with that tree's vision
    from bench.vision_tableau import counted, traced_peak

    cv2.setNumThreads(1)
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but answers on the pipe

    while True:
        try:
            kind, *arguments = pickle.load(requests)
        except EOFError:
            return
        if kind == "count":
            started = time.process_time()
            count = counted(*arguments)
            answer = (time.process_time() - started,
                      (count.right, count.wrong, count.missing, count.cells, count.sure,
                       np.round(np.float64(count.grid), 1).tolist()))
        elif kind == "peak":
            answer = traced_peak(counted, *arguments)
        else:  # "rss"
            answer = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        pickle.dump(answer, answers)
        answers.flush()


class Tree:
    """A worker process counting with the app in one tree."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.process = subprocess.Popen([sys.executable, __file__, "--worker", str(tree)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, *request):
        pickle.dump(request, self.process.stdin)
        self.process.stdin.flush()
        try:
            return pickle.load(self.process.stdout)
        except EOFError:
            raise SystemExit(f"the worker for {self.tree} stopped (its error is above)") from None

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def photos(arguments):
    """(name, jpeg, picture, true cells) of each photo, rendered as the set's own bench does."""
    from bench import vision_tableau as seen
    from bench import vision_tableau_unseen as unseen_bench
    from tests.vision import render_jigsaw as render
    from tests.vision import render_jigsaw_unseen as unseen

    if arguments.set == "unseen":
        names = unseen.UNSEEN_PICTURES
        pictures = seen.pictures_for(names, unseen_bench.PICTURE_SEED, unseen.cover_photo)
        size = unseen_bench.photo_size(arguments.size)
        for index in range(arguments.counts):
            seed = arguments.first_seed + unseen_bench.COUNT_SEEDS + index
            photo = unseen.count_photo(names, seed, size)
            yield seed, photo.jpeg, pictures[photo.picture], photo.cells
        return
    names, surfaces, base_seed = seen.SETS[arguments.set]
    base_seed += arguments.first_seed
    size = tuple(int(v) for v in arguments.size.split("x"))
    pictures = seen.pictures_for(names, base_seed)
    for index in range(arguments.counts):
        seed = base_seed + 100_000 + index
        photo = render.count_photo(names, surfaces, seed, size, min(1.0, 1400 / size[0]))
        yield seed, photo.jpeg, pictures[photo.picture], photo.cells


def figures(results: list[tuple], truths: list[tuple[str, ...]]) -> Counter:
    """The summed scores of a tree's counts (bench/vision_tableau.py's `scored`)."""
    from bench.vision_tableau import scored

    return sum((scored(*result[:4], truth) for result, truth in zip(results, truths, strict=True)),
               Counter())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True)
    parser.add_argument("--set", choices=("held-out", "tune", "unseen"), default="held-out")
    parser.add_argument("--counts", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--size", default=None,
                        help="WIDTHxHEIGHT (default 4000x3000; unseen: 'random', phone sizes)")
    arguments = parser.parse_args()
    if not (arguments.baseline / "vision" / "count.py").is_file():
        parser.error(f"{arguments.baseline} is not a checkout of the app (no vision/count.py)")
    arguments.size = arguments.size or ("random" if arguments.set == "unseen" else "4000x3000")
    sys.path.insert(0, str(HERE))
    trees = {"baseline": Tree(arguments.baseline), "this tree": Tree(HERE)}
    results: dict[str, list] = {name: [] for name in trees}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    truths, seeds, kept = [], [], []
    for index, (seed, jpeg, picture, truth) in enumerate(photos(arguments)):
        for name in (list(trees) if index % 2 == 0 else list(trees)[::-1]):
            seconds, result = trees[name].ask("count", jpeg, picture)
            cpu[name].append(seconds)
            results[name].append(result)
        truths.append(tuple(truth))
        seeds.append(seed)
        if len(kept) < MEMORY_PHOTOS:
            kept.append((jpeg, picture))
    print(f"set {arguments.set}, {len(seeds)} counts, seeds {seeds[0]}..{seeds[-1]}, "
          f"size {arguments.size}; baseline {arguments.baseline}")
    tallies = {name: figures(results[name], truths) for name in trees}
    for key in ("exact", "exact split", "undercharged cells", "right cells counted right"):
        print(f"  {key:28s}" + "".join(f"{name} {tallies[name][key]:4d}   " for name in trees)
              + (f"of {tallies['baseline']['right cells']}" if key.startswith("right") else ""))
    before, after = results["baseline"], results["this tree"]
    same = [b[:5] == a[:5] for b, a in zip(before, after, strict=True)]
    print(f"results identical (counts and cells): {sum(same)}/{len(same)}; corners identical "
          f"too: {sum(b == a for b, a in zip(before, after, strict=True))}")
    for seed, truth, b, a, equal in zip(seeds, truths, before, after, same, strict=True):
        if not equal:
            was, now = (figures([result], [truth]) for result in (b, a))
            print(f"  changed {seed}: truth r{truth.count('right')} w{truth.count('wrong')} "
                  f"m{truth.count('missing')}; baseline r{b[0]} w{b[1]} m{b[2]} "
                  f"(sure {b[4]}) -> r{a[0]} w{a[1]} m{a[2]} (sure {a[4]}); "
                  f"undercharged {was['undercharged cells']} -> {now['undercharged cells']}, "
                  f"right counted right {was['right cells counted right']} -> "
                  f"{now['right cells counted right']}")
    ratios = np.array(cpu["this tree"]) / np.array(cpu["baseline"])
    for name in trees:
        print(f"CPU per count, decode included, one core ({name}): median "
              f"{np.median(cpu[name]):.3f} s, p90 {np.percentile(cpu[name], 90):.3f} s")
    print(f"paired CPU ratio this tree / baseline: median {np.median(ratios):.3f}, p90 "
          f"{np.percentile(ratios, 90):.3f}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    for name, tree in trees.items():
        peak = max(tree.ask("peak", *photo) for photo in kept)
        print(f"peak memory ({name}): traced {peak / 2**20:.0f} MiB (max of {len(kept)} "
              f"counts, untimed), worker's peak resident size {tree.ask('rss') / 2**20:.0f} MiB")
        tree.close()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2])
    else:
        main()
