"""The official `openai` Python client against Ecclesia's chat completions
and Responses API.

Usage: python openai_client.py <server-binary>

The binary (`openai_fake_server`, or anything that prints
`listening <port> <API key> [<second key>]` and serves the routes, with a key
allowed 5 catholic_qa calls a minute, and a second allowed more) is started;
then: the models list, a plain completion, a streamed one (citations only in
the finish chunk, [DONE]), a follow-up turn, the magisterium-1 alias, bad
requests (unknown model, invalid role, no key), and a 429 from the pool shared
with A2A. With the second key, the Responses API: `responses.create` (its
`output_text`, `url_citation` annotations on the markers, citations), message
items with instructions, `stream=True` read to `response.completed`, the
`responses.stream` helper, and tools, images and `previous_response_id`
refused.
"""

import subprocess
import sys

import httpx2 as httpx
import openai
from openai import OpenAI

failures = []
FIELDS = ["cited_text", "cited_text_heading", "document_title", "document_index", "document_author",
          "document_year", "document_reference", "source_url"]


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"  FAIL {what}", flush=True)


def check_citations(citations, label):
    check(isinstance(citations, list) and citations, f"{label}: citations present")
    for i, c in enumerate(citations or []):
        for f in FIELDS:
            check(f in c, f"{label}: citation {i} has {f}")
        check(c.get("document_index") == i, f"{label}: citation {i} document_index is zero-based")


def check_annotations(text, annotations, label):
    check(len(annotations) >= 2, f"{label}: annotations present ({annotations!r})")
    for a in annotations:
        check(a.type == "url_citation" and a.url.startswith("http") and a.title,
              f"{label}: url_citation with url and title ({a!r})")
        marker = text[a.start_index:a.end_index]
        check(marker in ("[1]", "[2]"), f"{label}: the span is a marker ({marker!r})")


def responses(base, token):
    client = OpenAI(base_url=f"{base}/v1", api_key=token, max_retries=0)

    # 1. A string input.
    r = client.responses.create(model="ecclesia-1", input="What is grace?")
    text = r.output_text
    check(r.object == "response" and r.status == "completed", f"responses: shape {r.object} {r.status}")
    check(bool(text) and "[1]" in text and "[2]" in text, f"responses: output_text {text!r}")
    check(r.id.startswith("resp_") and r.output[0].id.startswith("msg_"), "responses: ids")
    check_annotations(text, r.output[0].content[0].annotations, "responses")
    check_citations((r.model_extra or {}).get("citations"), "responses")
    check(r.usage is not None and r.usage.total_tokens > 0, "responses: usage")

    # 2. Message items, instructions, through /api/v1 and the alias model.
    api = OpenAI(base_url=f"{base}/api/v1", api_key=token, max_retries=0)
    r = api.responses.create(model="magisterium-1", instructions="Answer briefly.", input=[
        {"role": "user", "content": "Who was Thomas Aquinas?"},
        {"role": "assistant", "content": "A Dominican friar and Doctor of the Church."},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "What did he teach about grace?"}]},
    ])
    t = r.output_text
    check("Who was Thomas Aquinas?" in t and "What did he teach about grace?" in t, f"responses: follow-up {t!r}")
    check(r.instructions == "Answer briefly." and r.model == "magisterium-1", "responses: instructions, alias")

    # 3. Streamed: semantic events to response.completed.
    stream = client.responses.create(model="ecclesia-1", input="What is grace?", stream=True)
    kinds, deltas, done_text, final, numbers = [], "", None, None, []
    for ev in stream:
        kinds.append(ev.type)
        numbers.append(ev.sequence_number)
        if ev.type == "response.output_text.delta":
            deltas += ev.delta
        elif ev.type == "response.output_text.done":
            done_text = ev.text
        elif ev.type == "response.completed":
            final = ev.response
    check(kinds[:4] == ["response.created", "response.in_progress", "response.output_item.added",
                        "response.content_part.added"], f"stream: opening events {kinds[:4]}")
    check(kinds[-1] == "response.completed", f"stream: ends with response.completed ({kinds[-1:]})")
    check(kinds.count("response.output_text.delta") > 5, "stream: text as it comes")
    check(numbers == list(range(len(numbers))), "stream: sequence numbers in order")
    check(deltas == done_text == text, f"stream: deltas make the text ({deltas!r})")
    check(final is not None and final.output_text == text, "stream: the completed response")
    if final is not None:
        check_annotations(final.output_text, final.output[0].content[0].annotations, "stream")
        check_citations((final.model_extra or {}).get("citations"), "stream (responses)")

    # 4. The client's stream helper, which rebuilds the response from the events.
    with client.responses.stream(model="ecclesia-1", input="What is grace?") as s:
        for _ in s:
            pass
        got = s.get_final_response()
    check(got.output_text == text, f"responses.stream: final response {got.output_text!r}")

    # Refused, each naming its parameter.
    bad = [
        ("tools", dict(input="x", tools=[{"type": "function", "name": "weather", "parameters": {}}])),
        ("previous_response_id", dict(input="x", previous_response_id="resp_123")),
        ("input[0].content[1]", dict(input=[{"role": "user", "content": [
            {"type": "input_text", "text": "What is this?"},
            {"type": "input_image", "image_url": "https://example.org/a.png"}]}])),
        ("input", dict(input="")),
    ]
    for param, kw in bad:
        try:
            client.responses.create(model="ecclesia-1", **kw)
            check(False, f"responses: {param} refused")
        except openai.BadRequestError as e:
            check(e.param == param, f"responses: {param} refused, param {e.param}: {e.message}")
    try:
        client.responses.create(model="gpt-4o", input="x")
        check(False, "responses: unknown model refused")
    except openai.NotFoundError as e:
        check(e.code == "model_not_found", f"responses: unknown model code {e.code}")


def main(binary):
    proc = subprocess.Popen([binary], stdout=subprocess.PIPE, text=True)
    try:
        _, port, token, *rest = proc.stdout.readline().split()
        base = f"http://127.0.0.1:{port}"
        if rest:
            responses(base, rest[0])
        else:
            print("  (no second key: the Responses API is not checked)", flush=True)
        client = OpenAI(base_url=f"{base}/api/v1", api_key=token, max_retries=0)

        models = [m.id for m in client.models.list()]
        check(models == ["ecclesia-1", "magisterium-1"], f"models: {models}")

        # 1. Plain.
        r = client.chat.completions.create(model="ecclesia-1", messages=[{"role": "user", "content": "What is grace?"}])
        text = r.choices[0].message.content
        check(r.object == "chat.completion" and r.choices[0].finish_reason == "stop", "plain: shape")
        check("[1]" in text and "[2]" in text, f"plain: footnotes in {text!r}")
        check_citations((r.model_extra or {}).get("citations"), "plain")
        check(r.usage is not None and r.usage.total_tokens > 0, "plain: usage")

        # 2. Streamed.
        stream = client.chat.completions.create(
            model="ecclesia-1", messages=[{"role": "user", "content": "What is grace?"}], stream=True)
        content, with_citations, finish = "", [], []
        for chunk in stream:
            extra = chunk.model_extra or {}
            if "citations" in extra:
                with_citations.append(chunk)
            if chunk.choices:
                content += chunk.choices[0].delta.content or ""
                if chunk.choices[0].finish_reason:
                    finish.append(chunk)
        check(content == text, f"stream: the same text ({content!r})")
        check(len(finish) == 1 and len(with_citations) == 1 and finish[0] is with_citations[0],
              "stream: citations only in the finish chunk")
        if with_citations:
            check_citations(with_citations[0].model_extra["citations"], "stream")

        # 3. A follow-up turn, through the /v1 alias path and the magisterium-1 alias model.
        v1 = OpenAI(base_url=f"{base}/v1", api_key=token, max_retries=0)
        r = v1.chat.completions.create(model="magisterium-1", messages=[
            {"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "Who was Thomas Aquinas?"},
            {"role": "assistant", "content": "A Dominican friar and Doctor of the Church."},
            {"role": "user", "content": "What did he teach about grace?"},
        ])
        t = r.choices[0].message.content
        check("Who was Thomas Aquinas?" in t and "What did he teach about grace?" in t, f"follow-up in context: {t!r}")
        check(r.model == "magisterium-1", "alias echoed")

        # Bad requests: each a clear OpenAI error.
        try:
            client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "x"}])
            check(False, "unknown model refused")
        except openai.NotFoundError as e:
            check(e.code == "model_not_found", f"unknown model code {e.code}")
        try:
            client.chat.completions.create(model="ecclesia-1", messages=[{"role": "wizard", "content": "x"}])
            check(False, "invalid role refused")
        except openai.BadRequestError as e:
            check(e.param == "messages[0].role", f"invalid role param {e.param}")
        try:
            client.chat.completions.create(model="ecclesia-1", messages=[{"role": "user", "content": "hi"}] * 5000)
            check(False, "thousands of turns refused")
        except openai.BadRequestError as e:
            check("too many messages" in e.message, f"thousands of turns: {e.message}")
        try:
            OpenAI(base_url=f"{base}/api/v1", api_key="ecc_wrong", max_retries=0).chat.completions.create(
                model="ecclesia-1", messages=[{"role": "user", "content": "x"}])
            check(False, "bad key refused")
        except openai.AuthenticationError as e:
            check(e.status_code == 401, "bad key is 401")

        # The pool shared with A2A: 3 used above, 2 more through A2A, then 429.
        for i in range(2):
            a2a = httpx.post(f"{base}/api/v1/a2a", headers={"Authorization": f"Bearer {token}"}, json={
                "jsonrpc": "2.0", "id": i, "method": "message/send", "params": {"message": {
                    "kind": "message", "role": "user", "messageId": f"m{i}",
                    "parts": [{"kind": "text", "text": "grace"}]}}})
            check(a2a.status_code == 200, f"a2a call {i}: {a2a.status_code}")
        try:
            client.chat.completions.create(model="ecclesia-1", messages=[{"role": "user", "content": "x"}])
            check(False, "429 after the pool is used up")
        except openai.RateLimitError as e:
            check(e.code == "rate_limit_exceeded", f"429 code {e.code}")
            check(e.response.headers.get("retry-after") is not None, "429 Retry-After")
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main(sys.argv[1])
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok: the official openai client passes (chat: plain, streamed, follow-up, errors, shared pool; "
          "responses: plain, follow-up, streamed, stream helper, refusals)")
