//! The page frame (head, navigation, footer) and the response headers every
//! console page carries: a strict Content-Security-Policy, no sniffing, no referrer.

use crate::html::{esc, url_enc};
use crate::i18n::{t, Lang, LANGS};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// The policy of every console page: our own styles and script only, no
/// inline script, no external anything; `connect-src 'self'` for the
/// streaming answer and the explorer.
pub const CSP: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// Where the style sheet and the script are served.
pub const CSS_PATH: &str = "/console/static/console.css";
/// See [`CSS_PATH`].
pub const JS_PATH: &str = "/console/static/console.js";

/// The request's language and address, for links that keep the language.
#[derive(Debug, Clone, Default)]
pub struct Ctx {
    /// The interface language.
    pub lang: Lang,
    /// True when `?lang=` chose it (then links carry it on).
    pub explicit: bool,
    /// The request path.
    pub path: String,
    /// The raw query pairs other than `lang` (still percent-encoded).
    pub other_query: Vec<String>,
    /// The request headers (for the gate).
    pub headers: std::sync::Arc<axum::http::HeaderMap>,
}

impl Ctx {
    /// A link to `path` with `pairs`, carrying `?lang=` when it was given.
    pub fn link(&self, path: &str, pairs: &[(&str, &str)]) -> String {
        let mut all: Vec<(&str, &str)> = pairs.to_vec();
        if self.explicit {
            all.push(("lang", self.lang.code()));
        }
        format!("{path}{}", crate::html::query(&all))
    }

    /// This page in another language.
    fn in_lang(&self, lang: Lang) -> String {
        let mut q = self.other_query.clone();
        q.push(format!("lang={}", url_enc(lang.code())));
        format!("{}?{}", self.path, q.join("&"))
    }

    /// The interface text of `key`.
    pub fn t(&self, key: &str) -> &'static str {
        t(self.lang, key)
    }
}

/// One console page, ready to be sent.
#[derive(Debug)]
pub struct Page {
    lang: Lang,
    title: String,
    active: &'static str,
    body: String,
    status: StatusCode,
    ctx: Option<Ctx>,
    body_attrs: String,
}

impl Page {
    /// A page titled `title` (plain text, escaped here) with `body` (HTML, already escaped).
    pub fn new(lang: Lang, title: &str, active: &'static str, body: String) -> Self {
        Page {
            lang,
            title: title.to_string(),
            active,
            body,
            status: StatusCode::OK,
            ctx: None,
            body_attrs: String::new(),
        }
    }

    /// A page for the request `ctx` (language links keep its query).
    pub fn for_ctx(ctx: &Ctx, title: &str, active: &'static str, body: String) -> Self {
        let mut p = Page::new(ctx.lang, title, active, body);
        p.ctx = Some(ctx.clone());
        p
    }

    /// Answer with `status`.
    pub fn status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    /// Extra attributes on `<body>` (already escaped), e.g. `data-page="calendar"`.
    pub fn body_attrs(mut self, attrs: String) -> Self {
        self.body_attrs = attrs;
        self
    }

    /// The whole document.
    pub fn render(&self) -> String {
        let ctx = self.ctx.clone().unwrap_or(Ctx {
            lang: self.lang,
            explicit: self.lang != Lang::En,
            path: "/".into(),
            other_query: Vec::new(),
            headers: Default::default(),
        });
        let nav_items = [
            ("/", "nav.home", "home"),
            ("/readings", "nav.readings", "readings"),
            ("/calendar", "nav.calendar", "calendar"),
            ("/ask", "nav.ask", "ask"),
            ("/lookup", "nav.lookup", "lookup"),
            ("/search", "nav.search", "search"),
            ("/explorer", "nav.explorer", "explorer"),
        ];
        let mut nav = String::new();
        for (href, key, id) in nav_items {
            let current = if id == self.active {
                " aria-current=\"page\""
            } else {
                ""
            };
            nav.push_str(&format!(
                "<li><a href=\"{}\"{current}>{}</a></li>",
                esc(&ctx.link(href, &[])),
                t(self.lang, key)
            ));
        }
        let mut langs = String::new();
        for l in LANGS {
            let current = if l == self.lang {
                " aria-current=\"true\""
            } else {
                ""
            };
            langs.push_str(&format!(
                "<li><a href=\"{}\" lang=\"{}\" hreflang=\"{}\"{current}>{}</a></li>",
                esc(&ctx.in_lang(l)),
                l.code(),
                l.code(),
                l.native_name()
            ));
        }
        format!(
            "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title} · {app}</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"{CSS_PATH}\">\n<script src=\"{JS_PATH}\" defer></script>\n</head>\n<body{battrs}>\n<a class=\"skip\" href=\"#main\">{skip}</a>\n<header class=\"top\">\n<a class=\"brand\" href=\"{home}\">{app}</a>\n<nav aria-label=\"{navlabel}\"><ul>{nav}</ul></nav>\n</header>\n<main id=\"main\" tabindex=\"-1\">\n{body}\n</main>\n<footer>\n<nav aria-label=\"{langlabel}\"><ul class=\"langs\">{langs}</ul></nav>\n<p class=\"small\">{nojs}</p>\n</footer>\n</body>\n</html>\n",
            lang = self.lang.code(),
            title = esc(&self.title),
            app = t(self.lang, "app.name"),
            battrs = if self.body_attrs.is_empty() { String::new() } else { format!(" {}", self.body_attrs) },
            skip = t(self.lang, "nav.skip"),
            home = esc(&ctx.link("/", &[])),
            navlabel = "Main",
            langlabel = t(self.lang, "form.language"),
            body = self.body,
            nojs = t(self.lang, "nojs"),
        )
    }
}

/// Headers every console response carries.
pub fn secure_headers(resp: &mut Response) {
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let html = self.render();
        let mut resp = (
            self.status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            html,
        )
            .into_response();
        secure_headers(&mut resp);
        resp.headers_mut().insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(self.lang.code()),
        );
        resp
    }
}
