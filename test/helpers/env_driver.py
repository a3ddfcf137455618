"""Drives the environment server over its WebSocket with Debian's `websockets` (a client no one here wrote).

Usage: python3 env_driver.py PLAN.json. The plan: {"url": "http://127.0.0.1:PORT", "episodes": [...]}; each
episode {"task_id", "steps": [oracle steps], "wrong": answer-or-null, "malformed": bool, "stop_after": n-or-null}.
Oracle steps name elements by role and name; they are resolved against the observation's numbered elements here,
as a trainer's policy would pick them. Prints one JSON line per episode: the replies it got.
"""
import asyncio
import json
import re
import sys

import websockets


def norm(name):
    return re.sub(r"\s+", " ", name).strip().lower()


def to_action(step, elements):
    kind = next(iter(step))
    body = step[kind]
    if kind not in ("click", "type", "select", "check"):
        return step
    hits = [e for e in elements if norm(e["name"]) == norm(body["name"]) and (not body.get("role") or e["role"] == body["role"])]
    nth = body.get("nth", 0)
    if nth >= len(hits):
        return {"done": {"answer": "target not found: " + body["name"]}}
    index = hits[nth]["index"]
    if kind == "type":
        action = {"index": index, "text": body["text"]}
        if body.get("enter"):
            action["enter"] = True
        return {"type": action}
    if kind == "select":
        return {"select": {"index": index, "option": body["option"]}}
    return {kind: {"index": index}}


async def call(ws, message):
    await ws.send(json.dumps(message))
    return json.loads(await ws.recv())


async def call_raw(ws, text):
    await ws.send(text)
    return json.loads(await ws.recv())


async def episode(url, plan):
    out = {"task_id": plan["task_id"], "replies": []}
    async with websockets.connect(url.replace("http", "ws", 1) + "/ws", max_size=100 * 2**20) as ws:
        reply = await call(ws, {"type": "reset", "data": {"task_id": plan["task_id"]}})
        out["reset"] = summary(reply)
        if reply["type"] != "observation":
            return out
        if plan.get("malformed"):
            out["malformed"] = [
                summary(await call_raw(ws, "not json at all")),
                summary(await call(ws, {"type": "jump"})),
                summary(await call(ws, {"type": "step", "data": {"action": {"click": {"index": "x"}}}})),
            ]
            out["malformed"].append(summary(await call_raw(ws, "{broken")))
        steps = list(plan["steps"])
        if plan.get("wrong") is not None:
            steps[-1] = {"done": {"answer": plan["wrong"]}}
        for i, step in enumerate(steps):
            if plan.get("stop_after") is not None and i >= plan["stop_after"]:
                out["stopped"] = True
                return out
            obs = reply["data"]["observation"]
            action = to_action(step, obs["elements"])
            reply = await call(ws, {"type": "step", "data": {"action": action}})
            out["replies"].append(summary(reply))
            if reply["type"] != "observation" or reply["data"]["done"]:
                break
        out["state"] = (await call(ws, {"type": "state"}))["data"]
        await ws.send(json.dumps({"type": "close"}))
    return out


def summary(reply):
    if reply["type"] != "observation":
        return reply
    data = reply["data"]
    obs = data["observation"]
    return {
        "type": "observation",
        "done": data["done"],
        "reward": data["reward"],
        "url": obs["url"],
        "step": obs["step"],
        "screenshot_bytes": len(obs["screenshot"] or ""),
        "has_prompt": obs["prompt"]["user"].startswith("TASK: "),
        "metadata": obs["metadata"],
    }


async def main():
    with open(sys.argv[1]) as f:
        plan = json.load(f)
    for ep in plan["episodes"]:
        print(json.dumps(await episode(plan["url"], ep)), flush=True)


asyncio.run(main())
