"""Launch warm-up on the real engines: progress, a restored prefix, a turn that cuts in, quit."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import TurnMode
from app.core.events import TurnDone
from app.core.warmup import PrefixStatus
from app.main import Hearth
from tests.support.scripted_cli import write_settings
from tests.support.tiny_model import FEW_SKILLS, TinyModel

WAIT = 120  # generous bound for a busy CI box; tests go on as soon as the work is done
ENGINES = ["llama", "mlx"]


@pytest.fixture
def opened() -> Iterator[list[Hearth]]:
    made: list[Hearth] = []
    yield made
    for hearth in made:
        hearth.close()


@pytest.fixture
def few_tools(hearth_home: Path) -> None:
    """A prefix of four chunks: enough for progress, a restore and a takeover (MLX read the
    whole tool set's 10,400 tokens for a minute on a busy CPU). Not for the quit test: there
    the warm-up must still have chunks to go when the quit comes."""
    write_settings(hearth_home, enabled_skills=FEW_SKILLS)


def start(opened: list[Hearth], tiny_model: TinyModel, engine: str) -> Hearth:
    if engine == "mlx":
        pytest.importorskip("mlx_lm")
    hearth = Hearth()
    opened.append(hearth)
    path = tiny_model.mlx_dir if engine == "mlx" else tiny_model.gguf_path
    hearth.runner.load(hearth.make_backend(model_path=str(path), engine=engine)).result(WAIT)
    return hearth


def ask(hearth: Hearth, text: str) -> TurnDone:
    events: list[Any] = []
    handle = hearth.assistant.send(None, text, mode=TurnMode(thinking=False, max_tokens=3),
                                   on_event=events.append, confirm="deny")
    assert handle.wait(WAIT)
    return next(e for e in events if isinstance(e, TurnDone))


def wait_until(condition: Any) -> None:
    done = threading.Event()
    for _ in range(WAIT * 200):
        if condition():
            return
        done.wait(0.005)
    raise AssertionError("the condition never came true")


@pytest.mark.usefixtures("few_tools")
@pytest.mark.parametrize("engine", ENGINES)
def test_the_warmup_prepares_the_prefix_and_a_fresh_process_restores_it(
        opened: list[Hearth], tiny_model: TinyModel, engine: str) -> None:
    hearth = start(opened, tiny_model, engine)
    statuses: list[PrefixStatus] = []
    assert hearth.warmup(statuses.append).start().result(WAIT) is True  # type: ignore[union-attr]
    total = statuses[-2].total
    assert statuses[0] == PrefixStatus(ready=False) and statuses[-1].ready
    percents = [s.percent for s in statuses[1:-1]]
    assert percents == sorted(percents) and len(percents) > 2 and 0 < percents[0] < 99
    first = ask(hearth, "hello")
    assert first.usage["cached_prompt_tokens"] >= total  # the new chat starts from the warm-up
    hearth.close()

    again = start(opened, tiny_model, engine)  # the next launch, on the same HEARTH_HOME
    restored: list[PrefixStatus] = []
    assert again.warmup(restored.append).start().result(WAIT) is True  # type: ignore[union-attr]
    # Read back from disk in one step: nothing recomputed, straight to 100%.
    assert [s.percent for s in restored] == [0, 100, 100] and restored[-1].ready
    assert ask(again, "hello").usage["cached_prompt_tokens"] >= total


@pytest.mark.usefixtures("few_tools")
@pytest.mark.parametrize("engine", ENGINES)
def test_a_turn_sent_during_the_warmup_goes_first_and_continues_from_it(
        opened: list[Hearth], tiny_model: TinyModel, engine: str) -> None:
    hearth = start(opened, tiny_model, engine)
    turn: dict[str, Any] = {}

    def on_status(status: PrefixStatus) -> None:
        if not status.ready and status.done and "thread" not in turn:
            turn["computed"] = status.done
            turn["thread"] = threading.Thread(target=lambda: turn.update(done=ask(hearth, "hi")))
            turn["thread"].start()
            wait_until(hearth.runner.preempt_requested)  # the turn now waits on the runner

    warmup = hearth.warmup(on_status).start()
    assert warmup is not None and warmup.result(WAIT) is False  # it stepped aside
    turn["thread"].join(WAIT)
    done: TurnDone = turn["done"]
    # The turn took over the part already computed instead of starting again. It may find
    # more: the warm-up goes on, behind the turn, whenever the turn is not on the model thread
    # (between its own steps on a busy machine).
    assert done.usage["cached_prompt_tokens"] >= turn["computed"] > 0
    assert done.usage["completion_tokens"] > 0


def test_quit_during_the_warmup_is_immediate(opened: list[Hearth], tiny_model: TinyModel) -> None:
    hearth = start(opened, tiny_model, "llama")
    first_chunk = threading.Event()
    statuses: list[PrefixStatus] = []

    def on_status(status: PrefixStatus) -> None:
        statuses.append(status)
        if status.done:
            first_chunk.set()

    warmup = hearth.warmup(on_status).start()
    assert warmup is not None and first_chunk.wait(WAIT)
    hearth.runner.close()
    assert warmup.done()  # close() returned: the warm-up had already stopped
    progress = [s for s in statuses if s.total]
    assert progress[-1].done < progress[-1].total  # it did not run on to the end
