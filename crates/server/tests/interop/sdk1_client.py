"""Drive an Ecclesia server with the official A2A Python SDK 1.x (a2a-sdk 1.3.0), which speaks
A2A 1.0 and picks the 1.0 JSON-RPC interface from the card's supportedInterfaces.

Usage: sdk1_client.py BASE_URL [SKILL_ID]
Prints one "OK <step>" line per verified step; exits non-zero on any failure.
"""
import asyncio, json, sys, uuid

import httpx
from webhook import webhook_receiver
from google.protobuf import struct_pb2
from a2a.client import ClientConfig, ClientFactory
from a2a.types import (CancelTaskRequest, GetTaskPushNotificationConfigRequest, GetTaskRequest,
                       ListTaskPushNotificationConfigsRequest, ListTasksRequest, Message, Part,
                       Role, SendMessageRequest, SubscribeToTaskRequest,
                       TaskPushNotificationConfig, TaskState)


def message(skill: str, text: str) -> Message:
    meta = struct_pb2.Struct()
    meta.update({"skillId": skill})
    return Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER,
                   parts=[Part(text=text)], metadata=meta)


async def last_task(client, request):
    task = None
    async for ev in client.send_message(request):
        if ev.HasField("task"):
            task = ev.task
        elif ev.HasField("status_update") and task is not None:
            task.status.CopyFrom(ev.status_update.status)
        elif ev.HasField("artifact_update") and task is not None:
            task.artifacts.append(ev.artifact_update.artifact)
    return task


async def main(url: str, skill: str) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        # SendMessage (non-streaming), through the card's 1.0 JSON-RPC interface.
        client = await ClientFactory(ClientConfig(streaming=False, httpx_client=http)).create_from_url(url)
        task = await last_task(client, SendMessageRequest(message=message(skill, "hello from SDK 1.x")))
        assert task is not None, "no task"
        assert task.status.state == TaskState.TASK_STATE_COMPLETED, task.status
        assert task.artifacts and task.artifacts[0].parts, task
        print("OK send", task.id)

        got = await client.get_task(GetTaskRequest(id=task.id, history_length=1))
        assert got.id == task.id and len(got.history) <= 1, got
        print("OK get", TaskState.Name(got.status.state))

        # ListTasks: the call the 0.3 fallback could not make.
        listed = await client.list_tasks(ListTasksRequest(page_size=10))
        assert any(t.id == task.id for t in listed.tasks), listed
        print("OK list", len(listed.tasks), "of", listed.total_size)

        # SendStreamingMessage.
        streaming = await ClientFactory(ClientConfig(streaming=True, httpx_client=http)).create_from_url(url)
        done = await last_task(streaming, SendMessageRequest(message=message(skill, "streamed")))
        assert done is not None and done.status.state == TaskState.TASK_STATE_COMPLETED, done
        print("OK stream", done.id)

        # The HTTP+JSON (REST) binding, chosen from the card's supportedInterfaces.
        rest_config = ClientConfig(streaming=False, httpx_client=http,
                                   supported_protocol_bindings=["HTTP+JSON"])
        rest = await ClientFactory(rest_config).create_from_url(url)
        over_rest = await last_task(rest, SendMessageRequest(message=message(skill, "over REST")))
        assert over_rest is not None and over_rest.status.state == TaskState.TASK_STATE_COMPLETED, over_rest
        again = await rest.get_task(GetTaskRequest(id=over_rest.id))
        assert again.id == over_rest.id, again
        page = await rest.list_tasks(ListTasksRequest(page_size=50))
        assert any(t.id == over_rest.id for t in page.tasks), page
        try:
            await rest.get_task(GetTaskRequest(id="no-such-task"))
            raise AssertionError("a missing task must be an error")
        except Exception as e:  # the SDK maps the ErrorInfo reason to TaskNotFoundError
            assert type(e).__name__ == "TaskNotFoundError", repr(e)
        print("OK rest", over_rest.id)

        # CancelTask of a finished task: the SDK's TaskNotCancelableError, task unchanged.
        try:
            await client.cancel_task(CancelTaskRequest(id=task.id))
            raise AssertionError("a completed task must not be cancelable")
        except Exception as e:
            assert type(e).__name__ == "TaskNotCancelableError", repr(e)
        print("OK cancel refused", task.id)

        # SubscribeToTask of a finished task: its final state (the contract completes
        # synchronously, so there is no running task to follow), or the spec's refusal.
        try:
            events = [ev async for ev in streaming.subscribe(SubscribeToTaskRequest(id=task.id))]
            assert events, "no event from SubscribeToTask"
        except Exception as e:
            assert type(e).__name__ == "UnsupportedOperationError", repr(e)
        print("OK resubscribe", task.id)

        # Push notifications: a webhook given with the message, delivered to a local receiver
        # with the caller's token; the config reads back through the 1.0 methods.
        card = (await http.get(f"{url}/.well-known/agent-card.json",
                               headers={"A2A-Version": "1.0"})).json()
        if card["capabilities"].get("pushNotifications"):
            hook, got = webhook_receiver()
            pconfig = TaskPushNotificationConfig(url=hook, token="sdk1-token")
            pclient = await ClientFactory(ClientConfig(streaming=False, httpx_client=http,
                                                       push_notification_config=pconfig)).create_from_url(url)
            ptask = await last_task(pclient, SendMessageRequest(message=message(skill, "pushed")))
            assert ptask is not None and ptask.status.state == TaskState.TASK_STATE_COMPLETED, ptask
            for _ in range(200):
                if any("TASK_STATE_COMPLETED" in json.dumps(b) for _, b in got):
                    break
                await asyncio.sleep(0.05)
            done = [(h, b) for h, b in got if "TASK_STATE_COMPLETED" in json.dumps(b)]
            assert done, got
            headers, body = done[-1]
            assert ptask.id in json.dumps(body), body
            assert headers["x-a2a-notification-token"] == "sdk1-token", headers
            configs = await client.list_task_push_notification_configs(
                ListTaskPushNotificationConfigsRequest(task_id=ptask.id))
            assert any(c.url == hook for c in configs.configs), configs
            one = await client.get_task_push_notification_config(
                GetTaskPushNotificationConfigRequest(task_id=ptask.id, id=configs.configs[0].id))
            assert one.url == hook and one.task_id == ptask.id, one
            print("OK push", len(got), "notifications")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "echo"))
