//! A live stream: `catholic_qa`'s text deltas become content chunks as they
//! are produced; the data parts (citations) are gathered for the finish chunk.

use crate::citations::Answer;
use crate::completion::{self, Meta};
use crate::error::ApiError;
use axum::response::sse::Event;
use ecclesia_server::{Item as StreamItem, Items as ItemReceiver};
use futures::{Stream, StreamExt};
use serde_json::json;
use std::convert::Infallible;

enum Phase {
    Start,
    Body,
    Done,
}

struct Live {
    meta: Meta,
    prompt: String,
    include_usage: bool,
    rx: ItemReceiver,
    answer: Answer,
    phase: Phase,
}

fn event(v: &serde_json::Value) -> Result<Event, Infallible> {
    Ok(Event::default().data(v.to_string()))
}

/// The SSE events of a streamed completion: the role, content as it comes,
/// the finish chunk with `citations`, usage if asked, `[DONE]`. A failure
/// mid-stream is an `{"error": …}` event (what OpenAI clients raise), then the end.
pub fn events(
    meta: Meta,
    prompt: String,
    include_usage: bool,
    rx: ItemReceiver,
) -> impl Stream<Item = Result<Event, Infallible>> + Send {
    let live = Live {
        meta,
        prompt,
        include_usage,
        rx,
        answer: Answer::default(),
        phase: Phase::Start,
    };
    futures::stream::unfold(live, |mut s| async move {
        loop {
            match s.phase {
                Phase::Start => {
                    s.phase = Phase::Body;
                    let first = completion::role_chunk(&s.meta, s.include_usage);
                    return Some((vec![event(&first)], s));
                }
                Phase::Done => return None,
                Phase::Body => match s.rx.recv().await {
                    Some(Ok(StreamItem::Text(t))) if !t.is_empty() => {
                        s.answer.text.push_str(&t);
                        let c = completion::content_chunk(&s.meta, &t, s.include_usage);
                        return Some((vec![event(&c)], s));
                    }
                    Some(Ok(StreamItem::Text(_))) => {}
                    Some(Ok(StreamItem::Data(d))) => s.answer.add_data(&d),
                    Some(Err(e)) => {
                        s.phase = Phase::Done;
                        let e = ApiError::from(e);
                        let body = json!({"error": {"message": e.message, "type": e.kind,
                            "param": e.param, "code": e.code}});
                        return Some((vec![event(&body)], s));
                    }
                    None => {
                        s.phase = Phase::Done;
                        let mut out = vec![event(&completion::finish_chunk(
                            &s.meta,
                            &s.answer,
                            s.include_usage,
                        ))];
                        if s.include_usage {
                            out.push(event(&completion::usage_chunk(
                                &s.meta, &s.prompt, &s.answer,
                            )));
                        }
                        out.push(Ok(Event::default().data("[DONE]")));
                        return Some((out, s));
                    }
                },
            }
        }
    })
    .flat_map(futures::stream::iter)
}
