"""Rollouts from a `taskgen env` server with OpenEnv's own Python client (docs/env-server.md).

    taskgen env --sandbox --out rollouts            # in one shell: serves http://127.0.0.1:8000
    pip install openenv-core                         # OpenEnv v0.2.3 (not installable here: no PyPI)
    python examples/openenv_client.py

The server speaks OpenEnv's WebSocket protocol, so `GenericEnvClient` needs no adapter: `reset` takes our task
picking (`task_id`, or `split` and `index`, or `seed`), `step` takes an action object of the agent's action language
(`{"action": {"click": {"index": 3}}}`) or the model's raw reply (`{"text": "..."}`), and every observation carries
the agent prompt exactly as the harness's Qwen policy sends it, with the screenshot as base64 PNG.
"""
import base64
import json
import os
import urllib.request

from openenv.core.generic_client import GenericEnvClient

URL = os.environ.get("ENV_URL", "http://127.0.0.1:8000")
TOKEN = os.environ.get("ENV_TOKEN")  # when the server runs with --token-env


class AuthedEnvClient(GenericEnvClient):
    """OpenEnv's client sends no headers; a server started with --token-env needs the bearer token on /ws."""

    async def connect(self):
        if self._ws is not None or not TOKEN:
            return await super().connect()
        from websockets.asyncio.client import connect as ws_connect

        self._ws = await ws_connect(self._ws_url, additional_headers={"Authorization": f"Bearer {TOKEN}"},
                                    open_timeout=self._connect_timeout, max_size=self._max_message_size)
        return self


def list_tasks(split="train", limit=5):
    """The server's task list (GET /tasks: our route; OpenEnv has no task listing yet)."""
    request = urllib.request.Request(f"{URL}/tasks?split={split}&limit={limit}")
    if TOKEN:
        request.add_header("Authorization", f"Bearer {TOKEN}")
    with urllib.request.urlopen(request) as reply:
        return json.load(reply)["tasks"]


def pick_action(observation):
    """A stand-in for your policy: here it follows the first link, then says done."""
    links = [e for e in observation["elements"] if e["role"] == "link"]
    if observation["step"] == 0 and links:
        return {"action": {"click": {"index": links[0]["index"]}}}
    return {"action": {"done": {"answer": "finished"}}}


def main():
    tasks = list_tasks()
    with AuthedEnvClient(base_url=URL).sync() as env:
        for task in tasks:
            result = env.reset(task_id=task["task_id"])
            obs = result.observation
            print(task["task_id"], "|", obs["instruction"])
            png = base64.b64decode(obs["screenshot"]) if obs["screenshot"] else b""
            print(f"  page {obs['url']}, {len(obs['elements'])} elements, screenshot {len(png)} bytes")
            # obs["prompt"]["system"] and obs["prompt"]["user"] are the seed's agent prompt for a VLM policy.
            while not result.done:
                result = env.step(pick_action(result.observation))
            meta = result.observation["metadata"]
            print(f"  reward {result.reward} ({meta['reward_source']}), outcome {meta['outcome']}, recorded in {meta['episode_dir']}")


if __name__ == "__main__":
    main()
