#!/usr/bin/env python3
"""Multi-core speed-up of the `brwhash` CLI on a file in the page cache (issue 7's CLI target).

Builds the release CLI, writes a file of random bytes (1 GiB by default) to a temporary
directory, reads it once so that it is in the page cache, then times `brwhash digest
--threads 1` against `--threads N` for each algorithm: wall time, median of alternating runs.
vecHash2L algorithms hash the file as two components (its two halves, as two files).

    python3 scripts/cli_speed.py [--mib 1024] [--threads 2] [--runs 7] [--algs A,B,...]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ALGS = "Poly1305,4-decBRWHash1305,8-decBRWHash1305,Hash2L128,vecHash2L128"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=1024, help="file size in MiB")
    ap.add_argument("--threads", type=int, default=2, help="threads of the parallel runs")
    ap.add_argument("--runs", type=int, default=7, help="runs of each row (median)")
    ap.add_argument("--algs", default=DEFAULT_ALGS, help="comma-separated algorithm names")
    args = ap.parse_args()

    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "brwhash-cli"], cwd=ROOT, check=True
    )
    exe = ROOT / "target" / "release" / "brwhash"
    key_len = {}
    for line in subprocess.run(
        [exe, "list"], check=True, capture_output=True, text=True
    ).stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            key_len[parts[0]] = int(parts[1])

    with tempfile.TemporaryDirectory() as tmp:
        size = args.mib << 20
        whole, halves = Path(tmp, "whole"), [Path(tmp, "half1"), Path(tmp, "half2")]
        data = os.urandom(size)
        whole.write_bytes(data)
        halves[0].write_bytes(data[: size // 2])
        halves[1].write_bytes(data[size // 2 :])
        del data
        for f in [whole, *halves]:  # into the page cache
            with open(f, "rb") as fh:
                while fh.read(1 << 24):
                    pass

        def run(alg: str, files: list[Path], threads: int) -> float:
            key = "5a" * key_len[alg]
            cmd = [exe, "digest", "--alg", alg, "--key", key, "--threads", str(threads)]
            t = time.perf_counter()
            subprocess.run(
                [*cmd, *files], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            return time.perf_counter() - t

        print(
            f"{args.mib} MiB in the page cache, wall time, median of {args.runs} alternating "
            f"runs: --threads 1 vs --threads {args.threads}"
        )
        for alg in args.algs.split(","):
            if alg not in key_len:
                print(f"unknown algorithm {alg!r}", file=sys.stderr)
                return 2
            files = halves if alg.lower().startswith("vechash2l") else [whole]
            one, many = [], []
            for _ in range(args.runs):
                one.append(run(alg, files, 1))
                many.append(run(alg, files, args.threads))
            a, b = statistics.median(one), statistics.median(many)
            gb = size / 1e9
            print(
                f"{alg:<18} 1 thread {a:.3f} s ({gb / a:5.2f} GB/s)  {args.threads} threads "
                f"{b:.3f} s ({gb / b:5.2f} GB/s)  speed-up {a / b:.2f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
