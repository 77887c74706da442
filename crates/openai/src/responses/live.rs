//! A streamed response: semantic SSE events (`event:` the type, `data:` the
//! event with its `sequence_number`), `data: [DONE]` last.
//!
//! `response.created`, `response.in_progress`, `response.output_item.added`,
//! `response.content_part.added`; one `response.output_text.delta` per text
//! delta as `catholic_qa` produces it; then `response.output_text.annotation.added`
//! for each `[n]` marker with a `source_url`, `response.output_text.done`,
//! `response.content_part.done`, `response.output_item.done` and
//! `response.completed` (the whole response, citations included). A failure
//! after the first byte is an `error` event, then `response.failed`.
//!
//! [`Encoder`] makes the events and knows nothing of where the items come
//! from; [`events`] drives it from an item receiver.

use super::annotations::annotations;
use super::object::{self, Envelope};
use crate::citations::Answer;
use crate::error::ApiError;
use axum::response::sse::Event;
use ecclesia_server::{Item as StreamItem, Items as ItemReceiver};
use futures::{Stream, StreamExt};
use serde_json::{json, Map, Value};
use std::convert::Infallible;

/// The events of one response, numbered in order.
#[derive(Debug)]
pub struct Encoder {
    env: Envelope,
    prompt: String,
    seq: u64,
    answer: Answer,
}

impl Encoder {
    /// An encoder for the response `env` to `prompt` (the question as asked).
    pub fn new(env: Envelope, prompt: String) -> Self {
        Encoder {
            env,
            prompt,
            seq: 0,
            answer: Answer::default(),
        }
    }

    fn event(&mut self, kind: &str, body: Value) -> Value {
        let mut v = json!({"type": kind, "sequence_number": self.seq});
        if let (Value::Object(o), Value::Object(b)) = (&mut v, body) {
            o.extend(b);
        }
        self.seq += 1;
        v
    }

    fn at(&self) -> Value {
        json!({"item_id": self.env.message_id, "output_index": 0, "content_index": 0})
    }

    fn at_with(&self, extra: Value) -> Value {
        let mut v = self.at();
        if let (Value::Object(o), Value::Object(e)) = (&mut v, extra) {
            o.extend(e);
        }
        v
    }

    /// The opening events, up to the empty text part.
    pub fn start(&mut self) -> Vec<Value> {
        let r = object::in_progress(&self.env);
        let item = object::message(&self.env, "in_progress", vec![]);
        let part = object::output_text("", vec![]);
        let at = self.at_with(json!({"part": part}));
        vec![
            self.event("response.created", json!({"response": r})),
            self.event("response.in_progress", json!({"response": r})),
            self.event(
                "response.output_item.added",
                json!({"output_index": 0, "item": item}),
            ),
            self.event("response.content_part.added", at),
        ]
    }

    /// A text delta (none for an empty one).
    pub fn text(&mut self, delta: &str) -> Option<Value> {
        if delta.is_empty() {
            return None;
        }
        self.answer.text.push_str(delta);
        let body = self.at_with(json!({"delta": delta, "logprobs": []}));
        Some(self.event("response.output_text.delta", body))
    }

    /// A data item (citations, related questions, grounding): kept for the end.
    pub fn data(&mut self, data: &Map<String, Value>) {
        self.answer.add_data(data);
    }

    /// The closing events, `response.completed` last.
    pub fn finish(&mut self) -> Vec<Value> {
        let text = self.answer.text.clone();
        let notes = annotations(&text, &self.answer.citations);
        let mut out = Vec::with_capacity(notes.len() + 4);
        for (i, a) in notes.iter().enumerate() {
            let body = self.at_with(json!({"annotation_index": i, "annotation": a}));
            out.push(self.event("response.output_text.annotation.added", body));
        }
        let body = self.at_with(json!({"text": text, "logprobs": []}));
        out.push(self.event("response.output_text.done", body));
        let part = object::output_text(&text, notes);
        let body = self.at_with(json!({"part": part}));
        out.push(self.event("response.content_part.done", body));
        let item = object::completed_message(&self.env, &self.answer);
        out.push(self.event(
            "response.output_item.done",
            json!({"output_index": 0, "item": item}),
        ));
        let r = object::completed(&self.env, &self.prompt, &self.answer);
        out.push(self.event("response.completed", json!({"response": r})));
        out
    }

    /// The events of a failure: `error`, then `response.failed`.
    pub fn fail(&mut self, e: &ApiError) -> Vec<Value> {
        let error = json!({"error": {"type": e.kind, "code": e.code.unwrap_or(e.kind),
            "message": e.message, "param": e.param}});
        let failed = object::failed(&self.env, e);
        vec![
            self.event("error", error),
            self.event("response.failed", json!({"response": failed})),
        ]
    }
}

fn sse(v: &Value) -> Result<Event, Infallible> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("message");
    Ok(Event::default().event(kind).data(v.to_string()))
}

fn done() -> Result<Event, Infallible> {
    Ok(Event::default().data("[DONE]"))
}

enum Phase {
    Start,
    Body,
    Done,
}

/// The SSE events of a response whose items come from `rx`.
pub fn events(
    enc: Encoder,
    rx: ItemReceiver,
) -> impl Stream<Item = Result<Event, Infallible>> + Send {
    futures::stream::unfold(
        (enc, rx, Phase::Start),
        |(mut enc, mut rx, phase)| async move {
            match phase {
                Phase::Start => {
                    let out: Vec<_> = enc.start().iter().map(sse).collect();
                    Some((out, (enc, rx, Phase::Body)))
                }
                Phase::Done => None,
                Phase::Body => loop {
                    match rx.recv().await {
                        Some(Ok(StreamItem::Text(t))) => {
                            if let Some(v) = enc.text(&t) {
                                return Some((vec![sse(&v)], (enc, rx, Phase::Body)));
                            }
                        }
                        Some(Ok(StreamItem::Data(d))) => enc.data(&d),
                        Some(Err(e)) => {
                            let e = ApiError::from(e);
                            let mut out: Vec<_> = enc.fail(&e).iter().map(sse).collect();
                            out.push(done());
                            return Some((out, (enc, rx, Phase::Done)));
                        }
                        None => {
                            let mut out: Vec<_> = enc.finish().iter().map(sse).collect();
                            out.push(done());
                            return Some((out, (enc, rx, Phase::Done)));
                        }
                    }
                },
            }
        },
    )
    .flat_map(futures::stream::iter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::responses::request::ResponsesRequest;

    fn encoder() -> Encoder {
        let req = ResponsesRequest::parse(br#"{"model": "ecclesia-1", "input": "q"}"#).unwrap();
        Encoder::new(Envelope::new(&req), "q".into())
    }

    #[test]
    fn events_are_numbered_in_order_and_the_deltas_make_the_text() {
        let mut enc = encoder();
        let mut all = enc.start();
        for d in ["Grace ", "", "perfects [1]", "."] {
            all.extend(enc.text(d));
        }
        enc.data(&Map::from_iter([(
            "citations".to_string(),
            json!([{"document_index": 0, "document_title": "T", "source_url": "https://t"}]),
        )]));
        all.extend(enc.finish());
        let kinds: Vec<&str> = all.iter().filter_map(|v| v["type"].as_str()).collect();
        assert_eq!(
            kinds,
            [
                "response.created",
                "response.in_progress",
                "response.output_item.added",
                "response.content_part.added",
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_text.annotation.added",
                "response.output_text.done",
                "response.content_part.done",
                "response.output_item.done",
                "response.completed",
            ]
        );
        for (i, v) in all.iter().enumerate() {
            assert_eq!(v["sequence_number"], i as u64);
        }
        let deltas: String = all.iter().filter_map(|v| v["delta"].as_str()).collect();
        assert_eq!(deltas, "Grace perfects [1].");
        let done = &all[8];
        assert_eq!(done["text"], deltas);
        let last = all.last().unwrap();
        assert_eq!(last["response"]["status"], "completed");
        assert_eq!(
            last["response"]["output"][0]["content"][0]["annotations"][0]["start_index"],
            15
        );
        let mut failing = encoder();
        failing.start();
        let f = failing.fail(&ApiError::internal("boom"));
        assert_eq!(f[0]["type"], "error");
        assert_eq!(f[0]["error"]["code"], "server_error");
        assert_eq!(f[1]["response"]["status"], "failed");
        assert_eq!(f[1]["sequence_number"], 5);
    }
}
