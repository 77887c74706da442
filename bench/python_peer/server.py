"""The comparison peer of bench/throughput.sh: the official A2A Python SDK (a2a-sdk 0.3.26)
on uvicorn, answering `pope_lookup` from the same directory store SQLite file Ecclesia
serves (``<store>/<generation>/directory/directory.sqlite``).

An honest implementation of the same work: the pope names and aliases are loaded into an
in-memory index at start (as Ecclesia's directory does), each request is a full A2A task
through the SDK's DefaultRequestHandler and InMemoryTaskStore (submitted, an artifact with the
pope's profile as a data part, completed), served by uvicorn with one worker.

    python bench/python_peer/server.py --store store --port 18090
"""

import argparse
import json
import sqlite3
import unicodedata
from pathlib import Path

import uvicorn
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import AgentCapabilities, AgentCard, AgentSkill, DataPart, Part, TextPart
from a2a.utils import new_task


def fold(s: str) -> str:
    s = unicodedata.normalize("NFKD", s)
    return " ".join("".join(c for c in s if not unicodedata.combining(c)).lower().split())


def directory_db(store: Path) -> Path:
    current = (store / "CURRENT").read_text().strip()
    return store / current / "directory" / "directory.sqlite"


class PopeIndex:
    def __init__(self, db: Path):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        self.profiles = {}
        self.names = {}
        for pid, name, detail, profile in con.execute(
            "SELECT id, name, detail, profile FROM record WHERE kind = 'pope'"
        ):
            self.profiles[pid] = {"id": pid, "name": name, "detail": detail,
                                  "profile": json.loads(profile)}
            self.names.setdefault(fold(name), pid)
        for pid, name in con.execute("SELECT id, name FROM alias WHERE kind = 'pope'"):
            self.names.setdefault(fold(name), pid)
        con.close()

    def lookup(self, query: str):
        q = fold(query)
        pid = self.names.get(q)
        if pid is None:
            # A name that starts the query's words (e.g. "Pope Benedict XVI").
            for name, cand in self.names.items():
                if name.endswith(q) or q.endswith(name):
                    pid = cand
                    break
        return self.profiles.get(pid) if pid else None


class PopeLookup(AgentExecutor):
    def __init__(self, index: PopeIndex):
        self.index = index

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task or new_task(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        found = self.index.lookup(context.get_user_input())
        if found is None:
            parts = [Part(root=TextPart(text="no pope matches"))]
        else:
            parts = [Part(root=TextPart(text=f"{found['name']}: {found['detail']}")),
                     Part(root=DataPart(data=found))]
        await updater.add_artifact(parts, name="pope_lookup")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError("pope_lookup completes at once")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True, type=Path)
    ap.add_argument("--port", type=int, default=18090)
    args = ap.parse_args()
    index = PopeIndex(directory_db(args.store))
    url = f"http://127.0.0.1:{args.port}/"
    card = AgentCard(
        name="pope_lookup peer", description="a2a-sdk 0.3.26 comparison peer", url=url,
        version="0", default_input_modes=["text/plain"], default_output_modes=["application/json"],
        capabilities=AgentCapabilities(streaming=False),
        skills=[AgentSkill(id="pope_lookup", name="Pope look-up", description="A pope by name",
                           tags=["directory"])],
    )
    handler = DefaultRequestHandler(agent_executor=PopeLookup(index), task_store=InMemoryTaskStore())
    # The same JSON-RPC path as Ecclesia, so that one wrk script drives both.
    app = A2AStarletteApplication(agent_card=card, http_handler=handler).build(
        rpc_url="/api/v1/a2a")
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
