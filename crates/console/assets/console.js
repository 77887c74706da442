// Ecclesia console: progressive enhancement only. Every page works without it.
// No inline script (the CSP forbids it); all text goes in through textContent.
(function () {
  "use strict";
  var KEY = "ecclesia.apiKey";

  function apiKey() {
    try { return sessionStorage.getItem(KEY) || ""; } catch (e) { return ""; }
  }
  function headers(stream) {
    var h = { "Content-Type": "application/json", "Accept": stream ? "text/event-stream" : "application/json" };
    var k = apiKey();
    if (k) { h["Authorization"] = "Bearer " + k; }
    return h;
  }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) { Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); }); }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function msgId() { return "console-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8); }
  function langParam() {
    var m = /[?&]lang=([A-Za-z-]{2,8})/.exec(location.search);
    return m ? "&lang=" + encodeURIComponent(m[1]) : "";
  }

  // 1. The month grid: ← → (or p n) change the month.
  function calendarKeys() {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) { return; }
      var t = ev.target && ev.target.tagName;
      if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA") { return; }
      var id = null;
      if (ev.key === "ArrowLeft" || ev.key === "p") { id = "prev-month"; }
      if (ev.key === "ArrowRight" || ev.key === "n") { id = "next-month"; }
      var a = id && document.getElementById(id);
      if (a) { ev.preventDefault(); location.href = a.href; }
    });
  }

  // 2. Ask: stream the answer through message/stream.
  function citationHref(c) {
    var hl = String(c.cited_text || "").slice(0, 1500);
    return "/document?id=" + encodeURIComponent(c.document_id || "") +
      (c.document_reference ? "&at=" + encodeURIComponent(c.document_reference) : "") +
      "&hl=" + encodeURIComponent(hl) + langParam() + "#cited";
  }
  function renderText(box, text, citations) {
    box.textContent = "";
    var re = /\[(\d{1,3})\]/g, last = 0, m;
    while ((m = re.exec(text)) !== null) {
      box.appendChild(document.createTextNode(text.slice(last, m.index).replace(/\*\*/g, "")));
      var n = parseInt(m[1], 10), c = citations[n - 1];
      if (c && c.document_id) {
        var a = el("a", { "class": "marker", href: citationHref(c), "aria-label": "Source " + n }, "[" + n + "]");
        box.appendChild(a);
      } else {
        box.appendChild(document.createTextNode(m[0]));
      }
      last = re.lastIndex;
    }
    box.appendChild(document.createTextNode(text.slice(last).replace(/\*\*/g, "")));
  }
  function renderExtras(section, citations, related) {
    var old = section.querySelectorAll(".js-extra");
    for (var i = 0; i < old.length; i++) { old[i].remove(); }
    if (citations.length) {
      var h = el("h2", { "class": "js-extra" }, section.getAttribute("data-label-sources") || "Sources");
      var ol = el("ol", { "class": "sources js-extra" });
      citations.forEach(function (c, i) {
        var li = el("li", { id: "src-" + (i + 1) });
        li.appendChild(el("a", { href: citationHref(c) }, c.document_title || "(untitled)"));
        var meta = [c.document_author, c.document_year, c.document_reference].filter(function (x) { return x; }).join(" · ");
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("span", { "class": "meta" }, meta));
        li.appendChild(el("blockquote", null, String(c.cited_text || "").slice(0, 1200)));
        ol.appendChild(li);
      });
      section.appendChild(h); section.appendChild(ol);
    }
    if (related.length) {
      section.appendChild(el("h2", { "class": "js-extra" }, section.getAttribute("data-label-related") || "Related questions"));
      var ul = el("ul", { "class": "related js-extra" });
      related.slice(0, 10).forEach(function (q) {
        var li = el("li");
        li.appendChild(el("a", { href: "/ask?q=" + encodeURIComponent(q) + langParam() }, q));
        ul.appendChild(li);
      });
      section.appendChild(ul);
    }
  }
  function askStream() {
    var form = document.getElementById("ask-form");
    var section = document.getElementById("answer");
    if (!form || !section || !window.fetch || !window.TextDecoder) { return; }
    form.addEventListener("submit", function (ev) {
      var q = form.querySelector("textarea").value.trim();
      if (!q) { return; }
      ev.preventDefault();
      var button = form.querySelector("button");
      button.disabled = true;
      section.textContent = "";
      section.setAttribute("data-state", "streaming");
      section.setAttribute("aria-busy", "true");
      section.appendChild(el("h2", null, section.getAttribute("data-label-answer") || "Answer"));
      var box = el("div", { "class": "answer", id: "answer-text" });
      section.appendChild(box);
      var text = "", citations = [], related = [], gotAny = false;
      function takeArtifact(art, append) {
        if (!art || !art.parts) { return; }
        var t = "";
        art.parts.forEach(function (p) {
          if (p.kind === "text") { t += p.text; }
          if (p.kind === "data" && p.data) {
            if (Array.isArray(p.data.citations)) { citations = p.data.citations; }
            if (Array.isArray(p.data.related_questions)) { related = p.data.related_questions; }
          }
        });
        if (t) { text = append ? text + t : t; gotAny = true; }
        renderText(box, text, citations);
      }
      function handle(obj) {
        if (obj.error) { throw new Error(obj.error.message || "error"); }
        var r = obj.result || {};
        if (r.kind === "artifact-update") { takeArtifact(r.artifact, r.append); }
        if (r.kind === "task" && r.artifacts && r.artifacts.length) { takeArtifact(r.artifacts[0], false); }
      }
      var body = JSON.stringify({
        jsonrpc: "2.0", id: 1, method: "message/stream",
        params: { message: { role: "user", kind: "message", messageId: msgId(), parts: [{ kind: "text", text: q }], metadata: { skillId: form.getAttribute("data-skill") || "catholic_qa" } } }
      });
      fetch(form.getAttribute("data-a2a") || "/api/v1/a2a", { method: "POST", headers: headers(true), body: body })
        .then(function (resp) {
          if (!resp.ok || !resp.body) { throw new Error("HTTP " + resp.status); }
          var ctype = resp.headers.get("content-type") || "";
          if (ctype.indexOf("text/event-stream") < 0) {
            return resp.json().then(handle);
          }
          var reader = resp.body.getReader(), dec = new TextDecoder(), buf = "";
          function pump() {
            return reader.read().then(function (res) {
              if (res.done) { return; }
              buf += dec.decode(res.value, { stream: true });
              var idx;
              while ((idx = buf.indexOf("\n\n")) >= 0) {
                var chunk = buf.slice(0, idx); buf = buf.slice(idx + 2);
                var data = chunk.split("\n").filter(function (l) { return l.indexOf("data:") === 0; })
                  .map(function (l) { return l.slice(5).replace(/^ /, ""); }).join("\n");
                if (data) { handle(JSON.parse(data)); }
              }
              return pump();
            });
          }
          return pump();
        })
        .then(function () {
          if (!gotAny) { throw new Error("no answer"); }
          renderText(box, text, citations);
          renderExtras(section, citations, related);
          section.setAttribute("data-state", "done");
          section.removeAttribute("aria-busy");
          button.disabled = false;
        })
        .catch(function () {
          // Fall back to the server-rendered answer (no key, no stream, network).
          section.setAttribute("data-state", "fallback");
          form.submit();
        });
    });
  }

  // 3. The explorer: the card, the key kept for this tab, send and show.
  function explorer() {
    var keyInput = document.getElementById("f-key");
    if (keyInput) {
      keyInput.value = apiKey();
      keyInput.addEventListener("input", function () {
        try { sessionStorage.setItem(KEY, keyInput.value); } catch (e) { /* private mode */ }
      });
      var kf = document.getElementById("key-form");
      if (kf) { kf.addEventListener("submit", function (ev) { ev.preventDefault(); }); }
    }
    var card = document.getElementById("agent-card");
    if (card && window.fetch) {
      fetch(card.getAttribute("data-src"), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (j) { card.textContent = JSON.stringify(j, null, 2); card.setAttribute("data-state", "done"); })
        .catch(function (e) { card.textContent = "Could not load the card: " + e.message; card.setAttribute("data-state", "error"); });
    }
    var forms = document.querySelectorAll("form.explorer-form");
    Array.prototype.forEach.call(forms, function (f) {
      var button = f.querySelector("button");
      var out = f.parentNode.querySelector("pre.response");
      button.disabled = false;
      f.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var payload;
        try { payload = JSON.parse(f.querySelector("textarea").value); }
        catch (e) { out.textContent = "The request is not valid JSON: " + e.message; out.setAttribute("data-state", "error"); return; }
        if (payload && payload.params && payload.params.message) { payload.params.message.messageId = msgId(); }
        out.textContent = "…";
        out.setAttribute("data-state", "sending");
        fetch(f.getAttribute("data-a2a") || "/api/v1/a2a", { method: "POST", headers: headers(false), body: JSON.stringify(payload) })
          .then(function (r) { return r.text().then(function (t) { return { status: r.status, text: t }; }); })
          .then(function (r) {
            var shown = r.text;
            try { shown = JSON.stringify(JSON.parse(r.text), null, 2); } catch (e) { /* not JSON */ }
            out.textContent = "HTTP " + r.status + "\n" + shown;
            out.setAttribute("data-state", "done");
          })
          .catch(function (e) { out.textContent = "Request failed: " + e.message; out.setAttribute("data-state", "error"); });
      });
    });
  }

  function start() {
    var page = document.body.getAttribute("data-page");
    if (page === "calendar") { calendarKeys(); }
    if (page === "ask") { askStream(); }
    if (page === "explorer") { explorer(); }
    var cited = document.getElementById("cited");
    if (cited && location.hash === "#cited" && cited.focus) { cited.focus(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
