"""The official MCP Python SDK (`mcp` from PyPI) against Ecclesia's MCP server.

Usage: python mcp_client.py <server-binary>

The binary is `mcp_fake_server` (the ten skills over a test registry) or any
command that serves MCP on stdio with `<binary> stdio` and, with
`<binary> http`, prints `listening <port> <API key>` then serves `/mcp`.
Over stdio and Streamable HTTP, in each revision (2025-06-18, 2025-11-25,
2026-07-28): list the ten tools (valid JSON Schemas, readOnlyHint), call
every tool with good and bad input, an unknown tool, read a document
resource and today's readings, get a prompt. Over HTTP also: 401 without
a key, 403 for a foreign Origin.
"""

import asyncio
import subprocess
import sys

import httpx2
import jsonschema
import mcp.client.session as client_session
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

TOOLS = [
    "search", "fetch", "get_mass_readings", "get_martyrology", "get_saint", "get_person",
    "get_pope", "get_diocese", "get_diocese_statistics", "chat",
]
GOOD = {
    "search": {"query": "light of nations", "limit": 3},
    "fetch": {"id": "lg"},
    "get_mass_readings": {"date": "next Sunday"},
    "get_martyrology": {"date": "2026-03-19"},
    "get_saint": {"query": "Therese of Lisieux"},
    "get_person": {"person_id": "tagle"},
    "get_pope": {"query": "John Paul II"},
    "get_diocese": {"source_code": "dmaml"},
    "get_diocese_statistics": {"query": "Manila", "start_year": 2010, "end_year": 2020},
    "chat": {"question": "What is grace?"},
}
BAD = {
    "search": {"query": "x", "limit": 1000},
    "fetch": {"id": 12.5},
    "get_mass_readings": {"date": "blursday"},
    "get_martyrology": {},
    "get_saint": {"nickname": "x"},
    "get_person": {},
    "get_pope": {"query": ["a"]},
    "get_diocese": {"source_code": ""},
    "get_diocese_statistics": {"query": "Manila", "start_year": "soon"},
    "chat": {"question": "x" * 20001},
}
REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"  FAIL {what}", flush=True)


async def exercise(client, label):
    print(f"{label}: protocol {client.protocol_version}", flush=True)
    tools = (await client.list_tools()).tools
    check([t.name for t in tools] == TOOLS, f"{label}: the ten tools in order, got {[t.name for t in tools]}")
    for t in tools:
        try:
            jsonschema.Draft202012Validator.check_schema(t.input_schema)
        except jsonschema.SchemaError as e:
            check(False, f"{label}: {t.name} schema invalid: {e.message}")
        check(t.annotations is not None and t.annotations.read_only_hint is True, f"{label}: {t.name} readOnlyHint")
        check(bool(t.description) and len(t.description) > 40, f"{label}: {t.name} description")
        jsonschema.validate(GOOD[t.name], t.input_schema)
    for name, args in GOOD.items():
        r = await client.call_tool(name, args)
        check(not r.is_error, f"{label}: {name} good input answered isError: {r.content}")
        check(isinstance(r.structured_content, dict) and r.structured_content, f"{label}: {name} structuredContent")
        check(r.content and r.content[0].type == "text" and r.content[0].text, f"{label}: {name} text content")
    for name, args in BAD.items():
        r = await client.call_tool(name, args)
        text = r.content[0].text if r.content else ""
        check(r.is_error, f"{label}: {name} bad input {args!r:.60} not isError: {text[:100]}")
        check(bool(text), f"{label}: {name} error has a message")
    r = await client.call_tool("get_mass_readings", {"date": "blursday"})
    check("could not read the date" in r.content[0].text, f"{label}: the date error is readable")
    r = await client.call_tool("get_pope", {"query": "nobody at all"})
    check(not r.is_error and r.structured_content.get("error") == "not_found", f"{label}: not_found is a result")
    try:
        r = await client.call_tool("no_such_tool", {})
        check(r.is_error, f"{label}: an unknown tool is refused")
    except Exception as e:  # a JSON-RPC error naming the tools
        check("unknown tool" in str(e), f"{label}: unknown tool error names it: {e}")
    templates = (await client.list_resource_templates()).resource_templates
    check(any(t.uri_template.startswith("ecclesia://document/{id}") for t in templates), f"{label}: document template")
    doc = await client.read_resource("ecclesia://document/lg?ref=5")
    check(doc.contents[0].text == "Section 5 of Lumen Gentium.", f"{label}: document section read: {doc.contents[0]}")
    doc = await client.read_resource("ecclesia://document/lg")
    check("Light of nations" in doc.contents[0].text, f"{label}: document read")
    today = await client.read_resource("ecclesia://readings/today")
    check("John 6:51" in today.contents[0].text, f"{label}: today's readings")
    try:
        await client.read_resource("ecclesia://document/nope")
        check(False, f"{label}: a missing document is an error")
    except Exception as e:
        check("not found" in str(e).lower(), f"{label}: missing document error: {e}")
    prompts = (await client.list_prompts()).prompts
    check("explain_todays_gospel" in [p.name for p in prompts], f"{label}: prompt listed")
    p = await client.get_prompt("explain_todays_gospel", {"date": "today"})
    check("Gospel" in p.messages[0].content.text, f"{label}: prompt text")


def client_for(server, revision):
    if revision == "2026-07-28":
        return Client(server, mode=revision)
    client_session.LATEST_HANDSHAKE_VERSION = revision
    return Client(server, mode="legacy")


async def over_stdio(binary):
    for rev in REVISIONS:
        params = StdioServerParameters(command=binary, args=["stdio"])
        async with client_for(params, rev) as c:
            check(c.protocol_version == rev, f"stdio: negotiated {c.protocol_version}, wanted {rev}")
            await exercise(c, f"stdio {rev}")


async def over_http(binary):
    proc = subprocess.Popen([binary, "http"], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().split()
        port, token = line[1], line[2]
        url = f"http://127.0.0.1:{port}/mcp"
        async with httpx2.AsyncClient() as h:
            r = await h.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
            check(r.status_code == 401, f"http: no key is 401, got {r.status_code}")
            r = await h.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                             headers={"Authorization": f"Bearer {token}", "Origin": "https://evil.example",
                                      "Accept": "application/json, text/event-stream"})
            check(r.status_code == 403, f"http: foreign Origin is 403, got {r.status_code}")
        for rev in REVISIONS:
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with http:
                transport = streamable_http_client(url, http_client=http)
                async with client_for(transport, rev) as c:
                    check(c.protocol_version == rev, f"http: negotiated {c.protocol_version}, wanted {rev}")
                    await exercise(c, f"http {rev}")
    finally:
        proc.kill()
        proc.wait()


async def main(binary):
    await over_stdio(binary)
    await over_http(binary)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok: the official MCP Python SDK passes over stdio and Streamable HTTP in every revision")
