"""Runtime hook for the frozen app: give a windowed process real stdio; keep the Hub quiet.

A windowed exe on Windows (and a Finder-launched .app) starts with sys.stdout/sys.stderr set to
None and may lack file descriptors 1 and 2: logging, tqdm and llama.cpp's quiet mode (which
dup()s fds 1 and 2) would crash. Point them at the null device first."""

import os
import sys

for _fd, _name in ((1, "stdout"), (2, "stderr")):
    try:
        os.fstat(_fd)
    except OSError:  # no such descriptor: give it the null device, so dup(1)/dup(2) work
        _null = os.open(os.devnull, os.O_WRONLY)
        if _null != _fd:
            os.dup2(_null, _fd)
            os.close(_null)
    if getattr(sys, _name) is None:
        setattr(sys, _name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115

# Model downloads go through the model manager (it needs the Hub online, so no HF_HUB_OFFLINE);
# nothing else should phone home or fork tokenizer threads.
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
