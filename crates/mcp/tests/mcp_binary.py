"""The official MCP Python SDK (`mcp` from PyPI) against the real `ecclesia` binary.

Usage: python mcp_binary.py <base-url> <stdio command …>

`<base-url>` is a running `ecclesia serve --anonymous --today 2026-11-30` over
the real datasets (its MCP endpoint is `<base-url>/mcp`); the stdio command
(`ecclesia mcp --store … --config …`, the same store, `[time] today =
"2026-11-30"`) is launched by the SDK. Over stdio and over Streamable HTTP, in
each revision (2025-06-18, 2025-11-25, 2026-07-28): the ten tools (valid JSON
Schemas, readOnlyHint), every tool with good input (answers checked against
the real data) and with bad input (isError with a message), hostile input
(oversized and wrong-type arguments, unknown tools), a chat answer whose every
citation is found verbatim by `fetch`, a document resource (whole and one
section, the same text as `fetch`), today's readings and a prompt. Over HTTP
also: a revoked key is 401, a foreign Origin 403, an oversized body 413.
"""

import asyncio
import json
import os
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
REVISIONS = ["2025-06-18", "2025-11-25", "2026-07-28"]
BAD = {
    "search": {"query": "grace", "limit": 1000},
    "fetch": {"id": 12.5},
    "get_mass_readings": {"date": "blursday"},
    "get_martyrology": {},
    "get_saint": {"nickname": "x"},
    "get_person": {},
    "get_pope": {"query": ["John Paul II"]},
    "get_diocese": {"source_code": ""},
    "get_diocese_statistics": {"query": "Manila", "start_year": "soon"},
    "chat": {"question": "x" * 20001},
}
HOSTILE = [
    ("search", {"query": "grace " * 20000}),
    ("search", {"query": {"$gt": ""}}),
    ("search", {"query": "grace", "limit": "ten"}),
    ("get_pope", {"query": None}),
    ("get_mass_readings", {"date": 20261130}),
    ("fetch", {"id": "x" * 100000}),
    ("chat", {"question": True}),
]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"  FAIL {what}", flush=True)
    return cond


def text_of(r):
    return "\n".join(c.text for c in (r.content or []) if c.type == "text")


async def call_ok(client, label, name, args):
    r = await client.call_tool(name, args)
    check(not r.is_error, f"{label}: {name}({args!r:.80}) answered isError: {text_of(r)[:200]}")
    check(isinstance(r.structured_content, dict) and r.structured_content, f"{label}: {name} structuredContent")
    check(bool(text_of(r)), f"{label}: {name} text content")
    return r


async def good_calls(client, label):
    """Every tool with good input; the answers checked against the real data."""
    r = await call_ok(client, label, "search", {"query": "the bread of life John 6", "limit": 3})
    results = (r.structured_content or {}).get("results") or []
    check(0 < len(results) <= 3, f"{label}: search results {len(results)}")
    doc_id = results[0]["id"] if results else "bible-dr-jhn"
    r = await call_ok(client, label, "fetch", {"id": doc_id})
    check((r.structured_content or {}).get("id") == doc_id, f"{label}: fetch names {doc_id}")
    r = await call_ok(client, label, "get_mass_readings", {"date": "Easter Sunday 2026"})
    check("Gospel" in text_of(r) and "Easter" in text_of(r), f"{label}: Easter readings")
    r = await call_ok(client, label, "get_martyrology", {"date": "2026-03-19"})
    check("Joseph" in text_of(r), f"{label}: martyrology of 19 March")
    r = await call_ok(client, label, "get_saint", {"query": "Therese of Lisieux"})
    check("Th" in str((r.structured_content or {}).get("primary_name")), f"{label}: saint profile")
    r = await call_ok(client, label, "get_person", {"query": "Cardinal Tagle"})
    check("Tagle" in json.dumps(r.structured_content), f"{label}: person profile")
    r = await call_ok(client, label, "get_pope", {"query": "Giovanni Paolo II"})
    check((r.structured_content or {}).get("pope_id") == "john-paul-ii", f"{label}: pope profile")
    r = await call_ok(client, label, "get_pope", {"query": "nobody at all whatsoever"})
    check((r.structured_content or {}).get("error") == "not_found", f"{label}: not_found is a result")
    r = await call_ok(client, label, "get_diocese", {"query": "Archdiocese of Manila"})
    check("Manila" in str((r.structured_content or {}).get("primary_name")), f"{label}: diocese profile")
    r = await call_ok(client, label, "get_diocese_statistics",
                      {"query": "Manila", "start_year": 2010, "end_year": 2012})
    sc = r.structured_content or {}
    rows = sc.get("rows")
    check("Manila" in str(sc.get("diocese_name")) and isinstance(rows, list)
          and all(2010 <= (row.get("year") or 0) <= 2012 for row in rows),
          f"{label}: statistics series {json.dumps(sc)[:300]}")
    await chat_cites_real_passages(client, label)
    return doc_id


async def chat_cites_real_passages(client, label):
    r = await call_ok(client, label, "chat", {"question": "What did Jesus say about the bread of life?"})
    answer = text_of(r)
    citations = (r.structured_content or {}).get("citations") or []
    check(citations and "[1]" in answer, f"{label}: chat cites: {answer[:200]!r}")
    for i, c in enumerate(citations):
        check(c.get("document_index") == i, f"{label}: citation {i} index")
        args = {"id": c["document_id"]}
        if c.get("document_reference"):
            args["ref"] = c["document_reference"]
        f = await client.call_tool("fetch", args)
        check(not f.is_error and c["cited_text"] in text_of(f),
              f"{label}: citation {i} ({c['document_id']} {c.get('document_reference')}) not verbatim in fetch")


async def bad_calls(client, label):
    for name, args in list(BAD.items()) + HOSTILE:
        r = await client.call_tool(name, args)
        text = text_of(r)
        check(r.is_error, f"{label}: {name} bad input {json.dumps(args)[:60]} not isError: {text[:100]}")
        check(bool(text) and len(text) < 2000, f"{label}: {name} error has a short message")
    r = await client.call_tool("get_mass_readings", {"date": "blursday"})
    check("blursday" in text_of(r) and "accepted date forms" in text_of(r),
          f"{label}: the date error names the input and the forms accepted: {text_of(r)[:120]}")
    for name in ["no_such_tool", "x" * 5000, ""]:
        try:
            r = await client.call_tool(name, {})
            check(r.is_error, f"{label}: unknown tool {name[:20]!r} refused")
        except Exception as e:  # a JSON-RPC error naming the tools
            check("unknown tool" in str(e).lower(), f"{label}: unknown tool error names it: {str(e)[:200]}")


async def resources_and_prompts(client, label, doc_id):
    templates = (await client.list_resource_templates()).resource_templates
    check(any(t.uri_template.startswith("ecclesia://document/{id}") for t in templates), f"{label}: document template")
    whole = await client.read_resource(f"ecclesia://document/{doc_id}")
    fetched = await client.call_tool("fetch", {"id": doc_id})
    check(whole.contents and whole.contents[0].text.strip() and
          text_of(fetched).strip()[:200] in whole.contents[0].text,
          f"{label}: document resource {doc_id} holds the fetched text")
    part = await client.read_resource("ecclesia://document/bible-dr-jhn?ref=John%206%3A51")
    section = await client.call_tool("fetch", {"id": "bible-dr-jhn", "ref": "John 6:51"})
    verse = "If any man eat of this bread, he shall live for ever"
    check(part.contents and verse in part.contents[0].text and verse in text_of(section)
          and len(part.contents[0].text) < 2000,
          f"{label}: a section resource: {part.contents[0].text[:200] if part.contents else None!r}")
    today = await client.read_resource("ecclesia://readings/today")
    check("Andrew" in today.contents[0].text, f"{label}: today's readings (30 Nov 2026, St Andrew)")
    try:
        await client.read_resource("ecclesia://document/no-such-document")
        check(False, f"{label}: a missing document is an error")
    except Exception as e:
        check("not found" in str(e).lower(), f"{label}: missing document error: {e}")
    prompts = (await client.list_prompts()).prompts
    check("explain_todays_gospel" in [p.name for p in prompts], f"{label}: prompt listed")
    p = await client.get_prompt("explain_todays_gospel", {"date": "today"})
    check("Gospel" in p.messages[0].content.text, f"{label}: prompt text")


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
        # The schemas say what the server enforces (a date phrase is read by the skill).
        refused = not jsonschema.Draft202012Validator(t.input_schema).is_valid(BAD[t.name])
        check(refused == (t.name != "get_mass_readings"), f"{label}: {t.name} schema on {BAD[t.name]!r:.60}")
    doc_id = await good_calls(client, label)
    await bad_calls(client, label)
    await resources_and_prompts(client, label, doc_id)


def client_for(server, revision):
    if revision == "2026-07-28":
        return Client(server, mode=revision)
    client_session.LATEST_HANDSHAKE_VERSION = revision
    return Client(server, mode="legacy")


async def over_stdio(command):
    for rev in REVISIONS:
        params = StdioServerParameters(command=command[0], args=command[1:])
        async with client_for(params, rev) as c:
            check(c.protocol_version == rev, f"stdio: negotiated {c.protocol_version}, wanted {rev}")
            await exercise(c, f"stdio {rev}")


async def over_http(base):
    url = f"{base}/mcp"
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    async with httpx2.AsyncClient(timeout=60) as h:
        # The server runs with --anonymous: a revoked key is refused, an unknown one served.
        revoked = os.environ.get("ECCLESIA_REVOKED_KEY", "ecc_wrong")
        r = await h.post(url, json=ping, headers={**accept, "Authorization": f"Bearer {revoked}"})
        check(r.status_code == 401, f"http: a revoked key is 401, got {r.status_code}")
        r = await h.post(url, json=ping, headers={**accept, "Origin": "https://evil.example"})
        check(r.status_code == 403, f"http: foreign Origin is 403, got {r.status_code}")
        # A body declared over the limit is refused before it is sent in full (so read the head only).
        host, port = base.split("//", 1)[1].split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                     f"Accept: application/json, text/event-stream\r\nContent-Length: {2 * 1024 * 1024}\r\n\r\n"
                     '{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "'.encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readline(), 30)
        writer.close()
        check(head.startswith(b"HTTP/1.1 413"), f"http: an oversized body is 413, got {head!r}")
        r = await h.post(url, content=b"{not json", headers=accept)
        check(400 <= r.status_code < 500, f"http: a malformed body is refused, got {r.status_code}")
    for rev in REVISIONS:
        http = create_mcp_http_client()
        async with http:
            transport = streamable_http_client(url, http_client=http)
            async with client_for(transport, rev) as c:
                check(c.protocol_version == rev, f"http: negotiated {c.protocol_version}, wanted {rev}")
                await exercise(c, f"http {rev}")


async def main(base, command):
    await over_stdio(command)
    await over_http(base)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok: the official MCP Python SDK passes against the ecclesia binary over stdio and Streamable HTTP in every revision")
