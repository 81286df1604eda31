"""Runtime hook for the frozen app: give a windowed process real stdio and keep HF offline.

A windowed exe on Windows (and a Finder-launched .app) starts with sys.stdout/sys.stderr set to
None and may lack file descriptors 1 and 2: logging, tqdm and llama.cpp's quiet mode (which
dup()s fds 1 and 2) would crash. Point them at the null device first."""

import os
import sys

for _fd, _name, _mode in ((1, "stdout", "w"), (2, "stderr", "w")):
    if getattr(sys, _name) is None:
        setattr(sys, _name, open(os.devnull, _mode, encoding="utf-8"))  # noqa: SIM115
    try:
        os.fstat(_fd)
    except OSError:
        _null = os.open(os.devnull, os.O_WRONLY)
        if _null != _fd:
            os.dup2(_null, _fd)

# Never reach out to a model hub implicitly; downloads are explicit, through the model manager.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
