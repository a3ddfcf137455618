"""The seed (taskgen_seed.py, a verbatim copy of shared/seed/taskgen.py) with its research-codebase imports
stubbed, so parity tests can call its own functions. Tests set the stubs' values before calling."""
import os
import sys
import types
from pathlib import Path

ROOT = Path(os.environ.get("TASKGEN_SEED_ROOT", "/nonexistent-taskgen-root"))


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


_module("helpers")
_module("helpers.paths", REPO_ROOT=ROOT)
_module("miniwebgen")
config = _module("miniwebgen.config", SITEMAP_DIR=ROOT / "sitemaps", SPLIT_PATH=ROOT / "split.json")
sys.modules["miniwebgen"].config = config

CALLS = []  # every LLMClient.complete call: {"model", "temperature", "prompt", **kwargs}
REPLIES = []  # scripted replies, in order; a dict {"raise": "message"} raises instead
HUMAN_TASKS = []  # what miniwebagent.evaluate.human_tasks returns


def script(replies):
    """Sets the replies the stubbed LLMClient gives, in order (the last one repeats), and clears CALLS."""
    REPLIES[:] = list(replies)
    CALLS.clear()


class LLMClient:
    def __init__(self, model=None, temperature=None):
        self.model, self.temperature = model, temperature

    def complete(self, prompt, **kwargs):
        CALLS.append({"model": self.model, "temperature": self.temperature, "prompt": prompt, **kwargs})
        reply = REPLIES[min(len(CALLS), len(REPLIES)) - 1] if REPLIES else ""
        if isinstance(reply, dict) and "raise" in reply:
            raise RuntimeError(reply["raise"])
        return reply


_module("helpers.llm", LLMClient=LLMClient)
_module("miniwebagent")
_module("miniwebagent.evaluate", human_tasks=lambda split="all": list(HUMAN_TASKS))

sys.path.insert(0, str(Path(__file__).parent))
import taskgen_seed as seed  # noqa: E402


class PageClient:
    """Stands in for the Flask test client: pages from a dict; a missing page raises like a failed render."""

    def __init__(self, pages):
        self.pages = pages

    def get(self, path, follow_redirects=True):
        if path not in self.pages:
            raise KeyError(path)
        body = self.pages[path]
        return types.SimpleNamespace(get_data=lambda as_text=True: body)
