"""GRPO on the web tasks of `taskgen env` servers with TRL (docs/env-server.md). It cannot run here (no PyPI, no GPU).

    taskgen env --sandbox --out rollouts --port 8000          # one server per node (or the Slurm/Kubernetes examples)
    pip install trl openenv-core                                # a TRL with GRPOTrainer(environment_factory=...)
    ENV_URLS=http://node1:8000,http://node2:8000 python examples/trl_grpo.py

TRL's `environment_factory` makes one environment object per rollout: `reset(**row)` starts the row's task and
returns the first page as text (appended to the prompt), the other public methods are the tools the model calls (our
action language), and the reward function reads each environment's reward: 1 or 0 from the task's verifier, checked
on the server's own evidence. Every rollout is also recorded on the server in the run-dir formats (`--out`), so the
same episodes can be judged, selected into rows and exported afterwards.
"""
import itertools
import json
import os
import urllib.request

from datasets import Dataset
from openenv.core.generic_client import GenericEnvClient
from trl import GRPOConfig, GRPOTrainer

URLS = os.environ.get("ENV_URLS", "http://127.0.0.1:8000").split(",")
_next_url = itertools.cycle(URLS)  # sessions spread over the servers, one server per node


def load_tasks(split="train", limit=2000):
    """The training set from the first server's task list (GET /tasks)."""
    with urllib.request.urlopen(f"{URLS[0]}/tasks?split={split}&limit={limit}") as reply:
        tasks = json.load(reply)["tasks"]
    return Dataset.from_list([
        {"prompt": [{"role": "user", "content": f"Complete this task on the website: {t['instruction']}\n\n"}], "task_id": t["task_id"]}
        for t in tasks
        if t["reward_source"] != "none"  # only tasks something can grade
    ])


class WebTaskEnv:
    """One browser session of a `taskgen env` server; its public methods are the model's tools."""

    def __init__(self):
        self.client = GenericEnvClient(base_url=next(_next_url), message_timeout_s=180).sync()
        self.client.connect()
        self.result = None

    def reset(self, task_id, **row):
        self.result = self.client.reset(task_id=task_id)
        return self._page()

    def _act(self, action):
        if self.result is None or self.result.done:
            return "The episode is over."
        self.result = self.client.step({"action": action})
        return self._page()

    def _page(self):
        obs = self.result.observation
        if self.result.done:
            return f"Episode over: reward {self.result.reward}."
        # The user text of the harness's agent prompt: the task, the previous actions, the page and its elements.
        return obs["prompt"]["user"].replace("<image>", "")

    def click(self, index: int) -> str:
        """Click an element of the page.

        Args:
            index: The element's number, as in [12] button "Add to cart".
        """
        return self._act({"click": {"index": index}})

    def type_text(self, index: int, text: str, enter: bool = False) -> str:
        """Replace the text of a field.

        Args:
            index: The field's number.
            text: The text to type.
            enter: Press Enter afterwards.
        """
        return self._act({"type": {"index": index, "text": text, "enter": enter}})

    def select(self, index: int, option: str) -> str:
        """Choose an option of a dropdown by its text.

        Args:
            index: The dropdown's number.
            option: The option's text.
        """
        return self._act({"select": {"index": index, "option": option}})

    def check(self, index: int) -> str:
        """Tick or untick a checkbox, or choose a radio button.

        Args:
            index: The checkbox's or radio button's number.
        """
        return self._act({"check": {"index": index}})

    def scroll(self, direction: str) -> str:
        """Scroll the page.

        Args:
            direction: "down" or "up".
        """
        return self._act({"scroll": {"direction": direction}})

    def goto(self, path: str) -> str:
        """Open a page of this website by its path.

        Args:
            path: The page's path, such as /sites/shop-01/cart.
        """
        return self._act({"goto": {"path": path}})

    def done(self, answer: str) -> str:
        """Finish the task.

        Args:
            answer: For a question, the requested fact; otherwise what you did, briefly.
        """
        return self._act({"done": {"answer": answer}})

    @property
    def reward(self):
        # An episode the model left unfinished gets 0 (the server drops it, unrecorded, at the next reset).
        return float(self.result.reward or 0.0) if self.result is not None and self.result.done else 0.0


def verifier_reward(environments, **kwargs):
    return [env.reward for env in environments]


if __name__ == "__main__":
    trainer = GRPOTrainer(
        model="Qwen/Qwen3-4B",
        train_dataset=load_tasks(),
        reward_funcs=verifier_reward,
        args=GRPOConfig(
            output_dir="grpo-web",
            num_generations=8,
            max_completion_length=4096,
            chat_template_kwargs={"enable_thinking": False},
            logging_steps=1,
        ),
        environment_factory=WebTaskEnv,
    )
    trainer.train()
