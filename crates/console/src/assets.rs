//! The style sheet and the script, compiled into the binary (no build step
//! outside Cargo), served with the console's headers and a day of caching.

use crate::layout::secure_headers;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

const CSS: &str = include_str!("../assets/console.css");
const JS: &str = include_str!("../assets/console.js");

pub(crate) async fn handler(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "console.css" => (CSS, "text/css; charset=utf-8"),
        "console.js" => (JS, "text/javascript; charset=utf-8"),
        _ => {
            let mut r = (StatusCode::NOT_FOUND, "not found").into_response();
            secure_headers(&mut r);
            return r;
        }
    };
    let mut r = (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response();
    secure_headers(&mut r);
    r
}
