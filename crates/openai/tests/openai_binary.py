"""The official `openai` Python client (and the MCP SDK, for the pool) against the real `ecclesia` binary.

Usage: python openai_binary.py <base-url> <key> <tiny-key>

`<base-url>` is a running `ecclesia serve` over the real datasets; `<key>` a
key on a plan with room for the checks (`enterprise`), `<tiny-key>` one on a
plan of 6 calls and 2 `catholic_qa` a minute, unused so far. Checks: the models
list; a plain and a streamed completion whose every citation's `cited_text`
is found verbatim by A2A `document_fetch` of that document and section, and
whose markers all name a citation; a follow-up turn whose retrieval uses the
earlier turns; bad requests and hostile input, each a clear OpenAI error; the
Search API (shape, categories, errors); and one rate-limit pool across A2A,
MCP, chat and search: the tiny key's calls through all four use it up, then
each surface refuses (429 with Retry-After, or an MCP tool error).
"""

import asyncio
import os
import re
import sys

import httpx2 as httpx
import openai
from openai import OpenAI

failures = []
FIELDS = ["cited_text", "cited_text_heading", "document_title", "document_index", "document_author",
          "document_year", "document_reference", "source_url", "document_id"]
QUESTION = "What did Jesus say about the bread of life?"


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"  FAIL {what}", flush=True)
    return cond


def a2a(base, key, skill, parts, i=0):
    body = {"jsonrpc": "2.0", "id": i, "method": "message/send", "params": {"message": {
        "kind": "message", "role": "user", "messageId": f"m{i}", "parts": parts,
        "metadata": {"skillId": skill}}}}
    return httpx.post(f"{base}/api/v1/a2a", headers={"Authorization": f"Bearer {key}"}, json=body, timeout=120)


def fetch_text(base, key, doc_id, ref):
    data = {"id": doc_id}
    if ref:
        data["ref"] = ref
    r = a2a(base, key, "document_fetch", [{"kind": "data", "data": data}]).json()
    parts = r["result"]["artifacts"][0]["parts"]
    return "\n".join(p.get("text", "") for p in parts if p.get("kind") == "text")


def check_answer(base, key, text, citations, label):
    check(isinstance(citations, list) and citations, f"{label}: citations present")
    check("[1]" in (text or ""), f"{label}: markers in {text[:200]!r}")
    for n in re.findall(r"\[(\d+)\]", text or ""):
        check(1 <= int(n) <= len(citations or []), f"{label}: marker [{n}] names a citation")
    for i, c in enumerate(citations or []):
        for f in FIELDS:
            check(f in c, f"{label}: citation {i} has {f}")
        check(c.get("document_index") == i, f"{label}: citation {i} document_index is zero-based")
        body = fetch_text(base, key, c["document_id"], c.get("document_reference"))
        check(c["cited_text"] and c["cited_text"] in body,
              f"{label}: citation {i} ({c['document_id']} {c.get('document_reference')}) verbatim in document_fetch")


def completions(base, key):
    client = OpenAI(base_url=f"{base}/api/v1", api_key=key, max_retries=0, timeout=300)
    models = [m.id for m in client.models.list()]
    check(models == ["ecclesia-1", "magisterium-1"], f"models: {models}")

    r = client.chat.completions.create(model="ecclesia-1", messages=[{"role": "user", "content": QUESTION}],
                                       max_tokens=400, temperature=0.2)
    text = r.choices[0].message.content
    check(r.object == "chat.completion" and r.choices[0].finish_reason == "stop", "plain: shape")
    check(r.usage is not None and r.usage.total_tokens > 0, "plain: usage")
    check_answer(base, key, text, (r.model_extra or {}).get("citations"), "plain")

    stream = client.chat.completions.create(
        model="magisterium-1", messages=[{"role": "user", "content": QUESTION}], stream=True,
        stream_options={"include_usage": True})
    content, with_citations, finish, usage = "", [], [], None
    for chunk in stream:
        extra = chunk.model_extra or {}
        if "citations" in extra:
            with_citations.append(chunk)
        if chunk.usage:
            usage = chunk.usage
        if chunk.choices:
            content += chunk.choices[0].delta.content or ""
            if chunk.choices[0].finish_reason:
                finish.append(chunk)
    check(len(finish) == 1 and len(with_citations) == 1 and finish[0] is with_citations[0],
          "stream: citations only in the finish chunk")
    check(usage is not None and usage.total_tokens > 0, "stream: usage chunk")
    if with_citations:
        check_answer(base, key, content, with_citations[0].model_extra["citations"], "stream")

    # A follow-up: "it" is the bread of life only in the context of the earlier turns.
    v1 = OpenAI(base_url=f"{base}/v1", api_key=key, max_retries=0, timeout=300)
    follow = "Where in the Gospel does he say that?"
    r = v1.chat.completions.create(model="ecclesia-1", messages=[
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": text},
        {"role": "user", "content": follow},
    ])
    cs = (r.model_extra or {}).get("citations") or []
    check_answer(base, key, r.choices[0].message.content, cs, "follow-up")
    about_bread = [c for c in cs if "bread" in c["cited_text"].lower()]
    check(about_bread, f"follow-up: retrieval used the earlier turns (a citation about bread): "
                       f"{[c['cited_text'][:60] for c in cs]}")
    alone = v1.chat.completions.create(model="ecclesia-1", messages=[{"role": "user", "content": follow}])
    alone_cs = (alone.model_extra or {}).get("citations") or []
    check(not any("bread" in c["cited_text"].lower() for c in alone_cs),
          "follow-up: without the earlier turns the same words find no bread (the check above means something)")
    return client


def bad_requests(base, key, client):
    def expect(exc, what, **kw):
        try:
            client.chat.completions.create(**kw)
            check(False, f"{what}: refused")
            return None
        except exc as e:
            check(bool(e.message), f"{what}: a message")
            return e
        except openai.APIError as e:
            check(False, f"{what}: wrong error {type(e).__name__}: {e}")
            return None

    msg = [{"role": "user", "content": "What is grace?"}]
    e = expect(openai.NotFoundError, "unknown model", model="gpt-4o", messages=msg)
    check(e is None or e.code == "model_not_found", "unknown model code")
    e = expect(openai.BadRequestError, "invalid role", model="ecclesia-1",
               messages=[{"role": "wizard", "content": "x"}])
    check(e is None or e.param == "messages[0].role", "invalid role param")
    e = expect(openai.BadRequestError, "thousands of turns", model="ecclesia-1",
               messages=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}] * 2500 + msg)
    check(e is None or "too many messages" in e.message, "thousands of turns message")
    e = expect(openai.BadRequestError, "a question over the limit", model="ecclesia-1",
               messages=[{"role": "user", "content": "grace " * 5000}])
    check(e is None or "too long" in e.message, "long question message")
    expect(openai.APIStatusError, "an oversized body", model="ecclesia-1",
           messages=[{"role": "user", "content": "x" * (2 * 1024 * 1024)}])
    e = expect(openai.BadRequestError, "content of the wrong type", model="ecclesia-1",
               messages=[{"role": "user", "content": 42}])
    check(e is None or e.param == "messages[0].content", "wrong type param")
    e = expect(openai.BadRequestError, "no messages", model="ecclesia-1", messages=[])
    e = expect(openai.BadRequestError, "temperature out of range", model="ecclesia-1", messages=msg, temperature=7)
    check(e is None or e.param == "temperature", "temperature param")
    e = expect(openai.BadRequestError, "the last turn is not the user's", model="ecclesia-1",
               messages=msg + [{"role": "assistant", "content": "x"}])
    e = expect(openai.BadRequestError, "stream of the wrong type", model="ecclesia-1", messages=msg,
               extra_body={"stream": "yes"})
    # The server runs with --anonymous: a token that matches no key is served as anonymous (as
    # Ollama and vLLM do), a revoked key is refused.
    revoked = os.environ.get("ECCLESIA_REVOKED_KEY", "ecc_wrong")
    try:
        OpenAI(base_url=f"{base}/api/v1", api_key=revoked, max_retries=0).chat.completions.create(
            model="ecclesia-1", messages=msg)
        check(False, "revoked key refused")
    except openai.AuthenticationError as e:
        check(e.status_code == 401, "revoked key is 401")
    r = httpx.post(f"{base}/api/v1/chat/completions", headers={"Authorization": f"Bearer {key}"},
                   content=b"{not json", timeout=30)
    check(r.status_code == 400 and "error" in r.json(), f"malformed JSON is 400: {r.status_code}")


def search_api(base, key):
    h = {"Authorization": f"Bearer {key}"}
    r = httpx.post(f"{base}/api/v1/search", headers=h, json={"query": "the bread of life", "numResults": 5}, timeout=120)
    check(r.status_code == 200, f"search: {r.status_code} {r.text[:200]}")
    v = r.json()
    results = v.get("results") or []
    check(v.get("object") == "search.results" and 0 < len(results) <= 5, f"search: shape {str(v)[:200]}")
    for i, res in enumerate(results):
        check(res.get("rank") == i + 1 and res.get("document_id") and res.get("document_title"),
              f"search: result {i} {str(res)[:200]}")
        check("cited_text" in res and "score" in res and "source_url" in res, f"search: result {i} fields")
    if results:
        body = fetch_text(base, key, results[0]["document_id"], None)
        check(bool(body), "search: the first result's document is fetchable")
    for category, magisterial in [("magisterial", True), ("scholarly", False)]:
        r = httpx.post(f"{base}/api/v1/search", headers=h,
                       json={"query": "grace and salvation", "numResults": 20, "category": category}, timeout=120)
        res = r.json().get("results") or []
        check(r.status_code == 200 and res and all(x["magisterial"] is magisterial for x in res),
              f"search: category {category}: {[(x['document_id'], x['magisterial']) for x in res][:5]}")
    for body, param in [({"query": "x" * 1025}, "query"), ({"query": "x", "numResults": 0}, "numResults"),
                        ({"query": "x", "numResults": 101}, "numResults"), ({"query": "x", "category": "papal"}, "category"),
                        ({"query": ["x"]}, "query"), ({}, "query")]:
        r = httpx.post(f"{base}/api/v1/search", headers=h, json=body, timeout=30)
        check(r.status_code == 400 and r.json()["error"]["param"] == param, f"search: {str(body)[:40]} is 400 on {param}: {r.text[:200]}")
    r = httpx.post(f"{base}/api/v1/search", headers={"Authorization": "Bearer ecc_wrong"}, json={"query": "x"}, timeout=60)
    check(r.status_code == 200, f"search: an unknown key on an anonymous server is served, got {r.status_code}")
    revoked = os.environ.get("ECCLESIA_REVOKED_KEY", "ecc_wrong")
    r = httpx.post(f"{base}/api/v1/search", headers={"Authorization": f"Bearer {revoked}"}, json={"query": "x"}, timeout=30)
    check(r.status_code == 401, f"search: a revoked key is 401, got {r.status_code}")


async def mcp_tool(base, key, name, args):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
    async with http:
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http), mode="2026-07-28") as c:
            return await c.call_tool(name, args)


def shared_pool(base, tiny):
    """6 calls a minute, 2 of them catholic_qa, for A2A, MCP, chat and search together."""
    chat = OpenAI(base_url=f"{base}/api/v1", api_key=tiny, max_retries=0, timeout=300)
    q = [{"role": "user", "content": "What is grace?"}]
    r = a2a(base, tiny, "catholic_qa", [{"kind": "text", "text": "What is grace?"}], 1)
    check(r.status_code == 200 and "result" in r.json(), f"pool: A2A catholic_qa {r.status_code}")
    r = asyncio.run(mcp_tool(base, tiny, "chat", {"question": "What is grace?"}))
    check(not r.is_error, f"pool: MCP chat answered: {r.content[0].text[:200] if r.content else ''}")
    try:
        chat.chat.completions.create(model="ecclesia-1", messages=q)
        check(False, "pool: the third catholic_qa (chat after A2A and MCP) is refused")
    except openai.RateLimitError as e:
        check(e.code == "rate_limit_exceeded", f"pool: 429 code {e.code}")
        check(e.response.headers.get("retry-after") is not None, "pool: 429 Retry-After")
    # The common pool: 2 used (or 3 if the refusal counted); fill it across the surfaces.
    used = [a2a(base, tiny, "pope_lookup", [{"kind": "data", "data": {"query": "Leo XIII"}}], 2).status_code]
    r = asyncio.run(mcp_tool(base, tiny, "get_pope", {"query": "Leo XIII"}))
    used.append(429 if r.is_error else 200)
    for _ in range(4):
        used.append(httpx.post(f"{base}/api/v1/search", headers={"Authorization": f"Bearer {tiny}"},
                               json={"query": "grace"}, timeout=120).status_code)
        if used[-1] == 429:
            break
    check(used[:2] == [200, 200] and used[-1] == 429 and used.count(200) in (3, 4),
          f"pool: A2A, MCP and search fill the same pool, then 429: {used}")
    r = httpx.post(f"{base}/api/v1/search", headers={"Authorization": f"Bearer {tiny}"}, json={"query": "grace"}, timeout=30)
    check(r.status_code == 429 and r.headers.get("retry-after") and r.json()["error"]["code"] == "rate_limit_exceeded",
          f"search: 429 with Retry-After: {r.status_code} {r.text[:200]}")
    r = a2a(base, tiny, "pope_lookup", [{"kind": "data", "data": {"query": "Leo XIII"}}], 3)
    check(r.status_code == 429 and r.json()["error"]["code"] == -32029, f"pool: A2A refused too: {r.status_code}")
    r = asyncio.run(mcp_tool(base, tiny, "get_pope", {"query": "Leo XIII"}))
    check(r.is_error and (r.structured_content or {}).get("error") == "rate_limited",
          f"pool: MCP refused too: {r.structured_content}")


def main(base, key, tiny):
    client = completions(base, key)
    bad_requests(base, key, client)
    search_api(base, key)
    shared_pool(base, tiny)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok: the official openai client passes against the ecclesia binary (completions, citations, follow-up, "
          "errors, search, one pool across A2A, MCP, chat and search)")
