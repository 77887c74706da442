"""The official `openai` Python client against Ecclesia's chat completions.

Usage: python openai_client.py <server-binary>

The binary (`openai_fake_server`, or anything that prints
`listening <port> <API key>` and serves the routes, with a key allowed 5
catholic_qa calls a minute) is started; then: the models list, a plain
completion, a streamed one (citations only in the finish chunk, [DONE]), a
follow-up turn, the magisterium-1 alias, bad requests (unknown model,
invalid role, no key), and a 429 from the pool shared with A2A.
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


def main(binary):
    proc = subprocess.Popen([binary], stdout=subprocess.PIPE, text=True)
    try:
        _, port, token = proc.stdout.readline().split()
        base = f"http://127.0.0.1:{port}"
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
    print("ok: the official openai client passes (plain, streamed, follow-up, errors, shared pool)")
