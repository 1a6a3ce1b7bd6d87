"""Does a speed-up change any output byte? Build one fixed slice with a git rev and with the
working tree, and compare the graph files byte for byte.

    .venv/bin/python bench/same_output.py [REV] [--articles 150] [--work DIR]

The slice is ``--articles`` BBC articles (``../shared/corpora/bbc``) spread evenly over the
sorted folder, so every category is in it, plus the repository's ``seeds/``. REV (default
``main``) is checked out in a temporary ``git worktree`` and built with ``python -m kg build``
(``PYTHONPATH`` = that checkout); the working tree is built the same way. Each side keeps its
output folder under ``--work`` (default ``bench/work/same-output``) and builds into it emptied
but for kg's extraction cache, which makes a second run cheap (an earlier build's entity
registry would keep its keys and change the output); REV's output is reused as it is when
REV's commit and the slice are unchanged (a build is deterministic). Exit 0 when every
compared file is identical, 1 when one differs (each difference on one line: the file and the
first differing line), 2 on an error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpora" / "bbc"
COMPARED = ("graph.trig", "graph.ttl")


def spread(files: Sequence[Path], count: int) -> list[Path]:
    """``count`` of ``files`` spread evenly over them (all when there are fewer).

    >>> [p.name for p in spread([Path(str(i)) for i in range(10)], 3)]
    ['0', '3', '6']
    """
    if count >= len(files):
        return list(files)
    return [files[i * len(files) // count] for i in range(count)]


def make_slice(folder: Path, articles: int) -> Path:
    """A folder of ``articles`` BBC articles (with their metadata files) and the seeds."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "bbc").mkdir(parents=True)
    for file in spread(sorted(CORPUS.glob("*.txt")), articles):
        shutil.copyfile(file, folder / "bbc" / file.name)
        sidecar = file.with_name(file.stem + ".meta.json")
        if sidecar.exists():
            shutil.copyfile(sidecar, folder / "bbc" / sidecar.name)
    shutil.copytree(ROOT / "seeds", folder / "seeds")
    return folder


def slice_digest(folder: Path) -> str:
    """A digest of every file of the slice (names and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def first_difference(a: bytes, b: bytes) -> str:
    """Where two texts part, as ``line N: 'a…' vs 'b…'`` ('' when they are equal).

    >>> first_difference(b"x\\ny\\n", b"x\\nz\\n")
    "line 2: 'y' vs 'z'"
    >>> first_difference(b"x\\n", b"x\\ny\\n")
    "line 2: '' vs 'y'"
    """
    if a == b:
        return ""
    left, right = a.split(b"\n"), b.split(b"\n")
    number = next((n for n, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
                  min(len(left), len(right)))
    x = left[number] if number < len(left) else b""
    y = right[number] if number < len(right) else b""
    return f"line {number + 1}: {x[:120].decode(errors='replace')!r} vs " \
           f"{y[:120].decode(errors='replace')!r}"


def compare(old: Path, new: Path, names: Sequence[str] = COMPARED) -> list[str]:
    """One line per file of ``names`` that is not byte-identical in ``old`` and ``new``
    (missing on either side counts as different); empty when all are the same."""
    differences = []
    for name in names:
        a, b = old / name, new / name
        if not a.is_file() or not b.is_file():
            missing = " and ".join(str(p) for p in (a, b) if not p.is_file())
            differences.append(f"{name}: missing in {missing}")
            continue
        where = first_difference(a.read_bytes(), b.read_bytes())
        if where:
            differences.append(f"{name}: differs, {where}")
    return differences


def clear_output(out: Path) -> None:
    """Empty ``out`` but for kg's extraction cache: a build into a folder that holds an
    earlier build keeps that build's entity keys (``OUT/.kg/entities.json``), so only a build
    from an empty folder compares with another."""
    if not out.is_dir():
        return
    for path in out.iterdir():
        if path.name == ".kg":
            for state in path.iterdir():
                if state.name != "cache":
                    shutil.rmtree(state) if state.is_dir() else state.unlink()
        else:
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def build(code: Path, folder: Path, out: Path) -> None:
    """``python -m kg build folder --out out`` with the kg of ``code``, from an empty output
    folder (its extraction cache aside)."""
    clear_output(out)
    env = {**os.environ, "PYTHONPATH": str(code)}
    run = subprocess.run([sys.executable, "-m", "kg", "build", str(folder), "--out", str(out)],
                         env=env, cwd=code, capture_output=True, text=True)
    if run.returncode not in (0, 3):  # 3: some inputs skipped, still a build
        raise RuntimeError(f"kg build with {code} exited {run.returncode}: "
                           f"{run.stderr.strip()[-2000:]}")


def build_rev(rev: str, commit: str, folder: Path, out: Path, digest: str) -> None:
    """Build ``folder`` with the code of ``commit``, unless ``out`` already holds that build."""
    stamp = out / ".same-output.json"
    wanted = {"commit": commit, "slice": digest}
    if stamp.is_file() and json.loads(stamp.read_text()) == wanted and all(
            (out / name).is_file() for name in COMPARED):
        print(f"same_output: {rev} ({commit[:10]}) already built in {out}", file=sys.stderr)
        return
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="kg-same-output-") as tmp:
        checkout = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(checkout),
                        commit], check=True, capture_output=True)
        try:
            build(checkout, folder, out)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(checkout)], capture_output=True)
    stamp.write_text(json.dumps(wanted))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="main")
    parser.add_argument("--articles", type=int, default=150)
    parser.add_argument("--work", type=Path, default=ROOT / "bench" / "work" / "same-output")
    args = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"same_output: {CORPUS} not found", file=sys.stderr)
        return 2
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify",
                                 f"{args.rev}^{{commit}}"], check=True, capture_output=True,
                                text=True).stdout.strip()
        folder = make_slice(args.work / "slice", args.articles)
        digest = slice_digest(folder)
        old, new = args.work / "rev", args.work / "tree"
        build_rev(args.rev, commit, folder, old, digest)
        build(ROOT, folder, new)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as e:
        detail = getattr(e, "stderr", None) or e
        print(f"same_output: {str(detail).strip()}", file=sys.stderr)
        return 2
    differences = compare(old, new)
    for line in differences:
        print(line)
    if not differences:
        sizes = ", ".join(f"{n} {(new / n).stat().st_size:,} bytes" for n in COMPARED)
        print(f"identical to {args.rev} ({commit[:10]}): {sizes}")
    return 1 if differences else 0


if __name__ == "__main__":
    raise SystemExit(main())
