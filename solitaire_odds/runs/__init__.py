"""Runs over numbered deals: solving them in resumable chunks on local or Dask workers
(:mod:`.runner`), the run folders and their Parquet chunks (:mod:`.store`), the committed
verdict files (:mod:`.verdicts`, :mod:`.catalog`), deepening a file's unknown deals
(:mod:`.deepen`), one record per run (:mod:`.records`) and the one-call API (:mod:`.estimate`)."""
