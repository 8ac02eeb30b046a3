"""Running replays in parallel: the batch runner (a pool of worker processes that survives a
worker's crash) and its Dask backend. It reads inputs through ``sources`` and replays them
through ``analysis``; it writes nothing itself."""
