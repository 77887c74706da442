"""Drive an Ecclesia server with the official A2A Python SDK (a2a-sdk 0.3.26).

Usage: sdk_client.py BASE_URL [SKILL_ID DATA_JSON]
Prints one "OK <step>" line per verified step; exits non-zero on any failure.
"""
import asyncio, json, sys, uuid

import httpx
from webhook import webhook_receiver
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import (AgentCard, DataPart, GetTaskPushNotificationConfigParams,
                       GetTaskRequest, Message, Part, PushNotificationConfig, Role,
                       SendMessageResponse, Task, TaskQueryParams, TextPart)


async def main(url: str, skill: str, data: dict) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        AgentCard.model_validate(card.model_dump())
        assert card.preferred_transport == "JSONRPC", card.preferred_transport
        assert any(s.id == skill for s in card.skills), [s.id for s in card.skills]
        print("OK card", card.name, len(card.skills), "skills")

        def message():
            return Message(role=Role.user, message_id=str(uuid.uuid4()), metadata={"skillId": skill},
                           parts=[Part(root=TextPart(text="hello from the SDK")),
                                  Part(root=DataPart(data=data))])

        # message/send
        client = ClientFactory(ClientConfig(streaming=False, httpx_client=http)).create(card)
        task = None
        async for ev in client.send_message(message()):
            task = ev[0] if isinstance(ev, tuple) else ev
        assert isinstance(task, Task), type(task)
        assert task.status.state.value == "completed", task.status
        assert task.artifacts and task.artifacts[0].parts, task
        print("OK send", task.id, task.artifacts[0].name)

        # tasks/get with historyLength
        got = await client.get_task(TaskQueryParams(id=task.id, history_length=1))
        assert got.id == task.id and got.history is not None and len(got.history) <= 1, got
        print("OK get", got.status.state.value)

        # message/stream
        sclient = ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create(card)
        events = []
        async for ev in sclient.send_message(message()):
            events.append(ev)
        last = events[-1]
        final_task = last[0] if isinstance(last, tuple) else last
        assert final_task.status.state.value == "completed", final_task.status
        assert final_task.artifacts, final_task
        print("OK stream", len(events), "events")

        # Push notifications: a config with the message, delivered to a local webhook.
        if card.capabilities.push_notifications:
            url, got = webhook_receiver()
            pconfig = PushNotificationConfig(url=url, token="sdk-token")
            pclient = ClientFactory(ClientConfig(streaming=False, httpx_client=http,
                                                 push_notification_configs=[pconfig])).create(card)
            ptask = None
            async for ev in pclient.send_message(message()):
                ptask = ev[0] if isinstance(ev, tuple) else ev
            for _ in range(200):
                if any(b.get("status", {}).get("state") == "completed" for _, b in got):
                    break
                await asyncio.sleep(0.05)
            done = [(h, b) for h, b in got if b.get("status", {}).get("state") == "completed"]
            assert done, got
            headers, body = done[-1]
            assert Task.model_validate(body).id == ptask.id, body
            assert {k.lower(): v for k, v in headers.items()}["x-a2a-notification-token"] == "sdk-token"
            cfg = await client.get_task_callback(
                GetTaskPushNotificationConfigParams(id=ptask.id,
                                                    push_notification_config_id=ptask.id))
            assert cfg.push_notification_config.url == url, cfg
            print("OK push", len(got), "notifications")


if __name__ == "__main__":
    base = sys.argv[1]
    skill = sys.argv[2] if len(sys.argv) > 2 else "echo"
    data = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {"city": "Rome", "n": 3}
    asyncio.run(main(base, skill, data))
