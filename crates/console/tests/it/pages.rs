//! The pages, fetched over HTTP and checked for real content.

use crate::fakes;
use crate::support::{enc, full, get, get_with, post_form, real};

const HOSTILE: &str = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>";

fn assert_inert(body: &str) {
    assert!(!body.contains("<script>alert"), "unescaped script in page");
    assert!(!body.contains("<img src=x"), "unescaped tag in page");
    assert!(
        !body.contains("onerror=alert(2)>"),
        "unescaped attribute in page"
    );
}

#[test]
fn trinity_sunday_readings_show_john_3() {
    let r = get(
        real(),
        &format!("/readings?q={}", enc("Trinity Sunday 2026")),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body;
    assert!(b.contains("The Most Holy Trinity"), "{b}");
    assert!(b.contains("John 3:16-18"));
    assert!(b.contains("Exodus 34:4b-6, 8-9"));
    assert!(b.contains("<dd>Solemnity</dd>") && b.contains("<dd>White</dd>"));
    assert!(b.contains("Ordinary Time"));
    assert!(b.contains("datetime=\"2026-05-31\""));
    // The reading text itself, in English, and the martyrology link.
    assert!(
        b.contains("For God so loved the world"),
        "Gospel text shown"
    );
    assert!(b.contains("lang=\"en\""));
    assert!(b.contains("href=\"/martyrology?date=2026-05-31\""));
    // The page's headers.
    let csp = r.header("content-security-policy").unwrap_or("");
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"));
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
}

#[test]
fn date_picker_calendar_and_translation_lists() {
    let r = get(
        real(),
        "/readings?date=2026-05-31&calendar=us&translation=douay-rheims",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body;
    assert!(b.contains("John 3:16-18"));
    assert!(
        b.contains("<option value=\"us\" selected>United States</option>"),
        "calendar list"
    );
    assert!(b.contains("<option value=\"ca\">Canada</option>"));
    // every nation by its name, the dioceses after them
    assert!(
        b.contains("<option value=\"pl\">Poland</option>"),
        "nations"
    );
    assert!(b.contains("<option value=\"gb-eng\">England</option>"));
    let (pl, diocese) = (
        b.find("value=\"pl\"").unwrap(),
        b.find("value=\"boston-us\"").unwrap(),
    );
    assert!(pl < diocese, "the nations before the dioceses");
    // A national calendar's day carries its own name beside the English.
    let r = get(real(), "/readings?date=2027-08-15&calendar=pl");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("The Assumption of the Blessed Virgin Mary"));
    assert!(r.body.contains("class=\"local-name\""), "local name");
    assert!(r.body.contains("Wniebowzię"));
    assert!(b.contains("<option value=\"douay-rheims\" selected>"));
    assert!(b.contains("type=\"date\" value=\"2026-05-31\""));
    assert!(
        b.contains("DRA") || b.contains("Douay"),
        "translation named"
    );
}

#[test]
fn christmas_has_other_masses_and_today_default() {
    let r = get(real(), "/readings?date=2026-12-25");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Other Masses"));
    assert!(r.body.contains("Vigil Mass") && r.body.contains("Mass at Dawn"));
    // No phrase: today (fixed at 2026-06-01 in the tests).
    let r = get(real(), "/readings");
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains("datetime=\"2026-06-01\""),
        "today by default"
    );
}

#[test]
fn june_2026_grid_has_thirty_coloured_days() {
    let r = get(real(), "/calendar?year=2026&month=6");
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body;
    assert_eq!(b.matches("data-date=\"2026-06-").count(), 30);
    for day in 1..=30 {
        let key = format!("data-date=\"2026-06-{day:02}\" data-color=\"");
        let at = b.find(&key).unwrap_or_else(|| panic!("day {day}"));
        let colour: String = b[at + key.len()..]
            .chars()
            .take_while(|c| *c != '"')
            .collect();
        assert!(
            ["WHITE", "RED", "GREEN", "VIOLET", "ROSE", "BLACK", "GOLD"].contains(&colour.as_str()),
            "day {day} colour {colour:?}"
        );
    }
    // Sts Peter and Paul: a red solemnity, standing out.
    assert!(
        b.contains("class=\"c-RED rank-SOLEMNITY\" data-date=\"2026-06-29\""),
        "{b}"
    );
    assert!(b.contains("Peter and Paul"));
    // Today is marked, neighbours linked, the feed linked.
    assert!(
        b.contains("data-date=\"2026-06-01\" data-color=\"GREEN\" aria-current=\"date\"")
            || b.contains("aria-current=\"date\"")
    );
    assert!(b.contains("id=\"prev-month\" rel=\"prev\" href=\"/calendar?year=2026&amp;month=5&amp;calendar=general-roman\""));
    assert!(b.contains("id=\"next-month\" rel=\"next\" href=\"/calendar?year=2026&amp;month=7&amp;calendar=general-roman\""));
    assert!(b.contains(
        "href=\"/calendar.ics?calendar=general-roman&amp;from=2026-06-01&amp;to=2026-06-30\""
    ));
    assert!(b.contains("data-page=\"calendar\""));
}

#[test]
fn grid_crosses_the_year_and_follows_the_calendar() {
    let r = get(real(), "/calendar?year=2026&month=12&calendar=us");
    assert_eq!(r.status, 200);
    assert_eq!(r.body.matches("data-date=\"2026-12-").count(), 31);
    assert!(r
        .body
        .contains("href=\"/calendar?year=2027&amp;month=1&amp;calendar=us\""));
    assert!(r
        .body
        .contains("class=\"c-WHITE rank-SOLEMNITY\" data-date=\"2026-12-25\""));
    let r = get(real(), "/calendar?year=2027&month=1&calendar=us");
    assert!(r
        .body
        .contains("href=\"/calendar?year=2026&amp;month=12&amp;calendar=us\""));
    let r = get(real(), "/calendar?year=2028&month=2");
    assert_eq!(
        r.body.matches("data-date=\"2028-02-").count(),
        29,
        "leap year"
    );
}

#[test]
fn martyrology_of_the_day() {
    let r = get(real(), "/martyrology?date=2026-03-19");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("Joseph"), "{}", r.body);
    assert!(r
        .body
        .contains("<article class=\"martyrology\" lang=\"en\">"));
    let r = get(real(), "/martyrology?date=2026-03-19&language=la");
    assert!(r.body.contains("lang=\"la\""));
}

#[test]
fn bad_input_is_a_400_page() {
    for path in [
        "/calendar?month=13",
        "/calendar?year=abc",
        "/calendar?year=99999",
        "/readings?date=2026-13-45",
        "/readings?calendar=nowhere",
        "/readings?translation=klingon",
        "/readings?q=the%20fortnight%20of%20never%20zzz",
        "/lookup?kind=martian&q=x",
        "/martyrology?language=xx",
        "/search?q=x&page=0",
        "/search?q=x&language=tlh",
        "/ask?q=%00",
    ] {
        let r = get(full(), path);
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        assert!(r.body.contains("role=\"alert\""), "{path}: an error page");
        assert!(r.header("content-security-policy").is_some());
    }
    // Very long input: refused with a message, not echoed whole.
    let long = "a".repeat(5000);
    for path in [
        format!("/readings?q={long}"),
        format!("/lookup?q={long}"),
        format!("/ask?q={long}"),
    ] {
        let r = get(full(), &path);
        assert_eq!(r.status, 400);
        assert!(r.body.contains("too long"));
        assert!(r.body.len() < 20_000);
    }
    assert_eq!(get(real(), "/nope").status, 404);
    assert_eq!(get(real(), "/console/static/nope.js").status, 404);
}

#[test]
fn hostile_input_is_escaped() {
    let h = enc(HOSTILE);
    for path in [
        format!("/readings?q={h}"),
        format!("/lookup?kind=saint&q={h}"),
        format!("/lookup?kind=pope&id={h}"),
        format!("/search?q={h}&author={h}"),
        format!("/ask?q={h}"),
        format!("/document?id={h}&hl={h}"),
        format!("/readings?date=2026-05-31&lang={h}"),
        format!("/calendar?year=2026&month=6&{h}={h}"),
    ] {
        let r = get(full(), &path);
        assert!(r.status < 500, "{path}: {}", r.status);
        assert_inert(&r.body);
    }
    // Echoed escaped in the form.
    let r = get(full(), &format!("/lookup?kind=saint&q={h}"));
    assert!(
        r.body
            .contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&gt;&lt;img"),
        "{}",
        r.body
    );
    // The stand-in answer carries hostile text and a hostile title: escaped too.
    let r = get(full(), "/ask?q=grace");
    assert_inert(&r.body);
    assert!(r
        .body
        .contains("Hostile &lt;script&gt;alert(1)&lt;/script&gt;."));
    assert!(r.body.contains("On Grace &lt;i&gt;test&lt;/i&gt;"));
}

#[test]
fn corpus_pages_say_not_available_without_their_store() {
    let r = get(real(), "/ask");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("id=\"ask-unavailable\""));
    assert!(r.body.contains("<button type=\"submit\" disabled>"));
    assert_eq!(get(real(), "/ask?q=What%20is%20grace%3F").status, 503);
    assert!(get(real(), "/search")
        .body
        .contains("id=\"search-unavailable\""));
    assert_eq!(get(real(), "/search?q=grace").status, 503);
    assert_eq!(get(real(), "/document?id=x").status, 503);
    // The start page says which parts are off.
    let home = get(real(), "/");
    assert_eq!(home.status, 200);
    assert!(home.body.contains("Not available on this server"));
}

#[test]
fn ask_renders_markers_sources_and_related() {
    for r in [
        get(full(), "/ask?q=What%20is%20grace%3F"),
        post_form(full(), "/ask", "q=What+is+grace%3F"),
    ] {
        assert_eq!(r.status, 200, "{}", r.body);
        let b = &r.body;
        assert!(b.contains("<strong>Grace</strong> is a gift <a class=\"marker\" href=\"/document?id=doc-grace&amp;at=2&amp;hl=Grace%20is%20the%20free"));
        assert!(b.contains("#cited\" aria-label=\"Source 1\">[1]</a>"));
        assert!(
            b.contains("source [2]."),
            "a marker without a citation stays text"
        );
        assert!(b.contains("<li id=\"src-1\">"));
        assert!(b.contains("href=\"/ask?q=What%20is%20sanctifying%20grace%3F\""));
        assert!(b.contains("&lt;b&gt;bold&lt;/b&gt; question"));
        assert!(b.contains("id=\"ask-form\"") && b.contains("data-a2a=\"/api/v1/a2a\""));
    }
}

#[test]
fn citation_opens_the_passage_highlighted() {
    let r = get(
        full(),
        &format!(
            "/document?id={}&at=2&hl={}",
            fakes::DOC_ID,
            enc(fakes::CITED)
        ),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body.contains(&format!(
            "<mark id=\"cited\" tabindex=\"-1\">{}</mark>",
            fakes::CITED
        )),
        "{}",
        r.body
    );
    assert!(r.body.contains("<p>Introduction to the letter.</p>"));
    assert!(r.body.contains("<div class=\"doc-body\" lang=\"en\">"));
    assert!(r.body.contains("<h1>On Grace &lt;i&gt;test&lt;/i&gt;</h1>"));
    // Unknown documents: 404 with the skill's text.
    let r = get(full(), "/document?id=nope");
    assert_eq!(r.status, 404);
    assert!(r.body.contains("Document not found."));
    assert_eq!(get(full(), "/document").status, 400);
}

#[test]
fn search_filters_and_pages() {
    let r = get(
        full(),
        "/search?q=grace&type=letter&author=Author&language=en",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body.matches("<a class=\"result\"").count(), 10);
    assert!(r.body.contains("<mark>Grace</mark> is the free"));
    assert!(r
        .body
        .contains("href=\"/document?id=doc-grace&amp;at=2&amp;hl=Grace%20is%20the%20free"));
    assert!(r.body.contains("<option value=\"letter\" selected>"));
    assert!(r.body.contains("id=\"next-page\" href=\"/search?q=grace&amp;type=letter&amp;author=Author&amp;language=en&amp;page=2\""));
    let r = get(full(), "/search?q=grace&page=3");
    assert_eq!(r.body.matches("<a class=\"result\"").count(), 5);
    assert!(r.body.contains("<ol class=\"results\" start=\"21\">"));
    assert!(!r.body.contains("id=\"next-page\""));
    assert!(r
        .body
        .contains("rel=\"prev\" href=\"/search?q=grace&amp;page=2\""));
    let r = get(full(), "/search?q=grace&type=scripture");
    assert!(r.body.contains("No documents matched."));
}

#[test]
fn lookups_show_profiles_and_lineage() {
    let r = get(real(), "/lookup?kind=pope&q=John%20Paul%20II");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("John Paul II"));
    assert!(r.body.contains("Karol"), "birth name shown");
    let r = get(real(), "/lookup?kind=saint&q=Therese%20of%20Lisieux");
    assert!(r.body.contains("<h2>Thérèse of Lisieux</h2>"), "{}", r.body);
    let r = get(real(), "/lookup?kind=person&q=Wilton%20Gregory");
    assert!(
        r.body.contains("<svg") && r.body.contains("class=\"lineage\""),
        "{}",
        r.body
    );
    assert!(r.body.contains("Zarama"));
    assert!(r
        .body
        .contains("href=\"/lookup?kind=person&amp;id=luis-rafael-zarama-pasqualetto\""));
    // Follow the link: his consecrator is drawn above him.
    let r = get(
        real(),
        "/lookup?kind=person&id=luis-rafael-zarama-pasqualetto",
    );
    assert!(r
        .body
        .contains("Consecrated by: <a href=\"/lookup?kind=person&amp;id=wilton-daniel-gregory\">"));
    let r = get(real(), "/lookup?kind=diocese&q=Chicago");
    assert!(r.body.contains("Holy Name Cathedral"), "{}", r.body);
    // Not found is a normal page; a pope asked of the clergy points to the popes.
    let r = get(real(), "/lookup?kind=saint&q=zzqqxx%20nobody");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Nothing matched"));
    let r = get(real(), "/lookup?kind=person&q=Pope%20Benedict%20XVI");
    assert!(r.body.contains("kind=pope"), "{}", r.body);
}

#[test]
fn explorer_lists_skills_with_requests_and_curl() {
    let r = get_with(real(), "/explorer", &[("Host", "console.example:8080")]);
    assert_eq!(r.status, 200);
    let b = &r.body;
    assert!(b.contains("id=\"skill-liturgical_readings\""));
    assert!(b.contains("id=\"skill-pope_lookup\""));
    assert!(b.contains("&quot;method&quot;: &quot;message/send&quot;"));
    assert!(b.contains("&quot;skillId&quot;: &quot;liturgical_readings&quot;"));
    assert!(b.contains("curl -sS http://console.example:8080/api/v1/a2a"));
    assert!(b.contains("data-src=\"/.well-known/agent-card.json\""));
}

#[test]
fn languages_by_query_and_header() {
    let r = get(real(), "/readings?date=2026-05-31&lang=cs");
    assert!(r.body.contains("<html lang=\"cs\">") && r.body.contains("Mešní čtení"));
    // Links keep the language.
    assert!(r.body.contains("href=\"/calendar?lang=cs\""));
    let r = get_with(
        real(),
        "/calendar?year=2026&month=6",
        &[("Accept-Language", "fr;q=0.9, zh-CN;q=0.8")],
    );
    assert!(r.body.contains("<html lang=\"zh\">") && r.body.contains("年历一览"));
    assert!(r.body.contains("2026年6月") && r.body.contains("<abbr title=\"星期日\">日</abbr>"));
    let r = get(real(), "/readings?date=2026-05-31&lang=cs");
    assert!(r.body.contains("neděle 31. května 2026"));
    let r = get_with(real(), "/", &[("Accept-Language", "bn")]);
    assert!(r.body.contains("<html lang=\"bn\">") && r.body.contains("পাঠ"));
    let r = get(real(), "/?lang=kok");
    assert!(r.body.contains("<html lang=\"kok\">") && r.body.contains("वाचपां"));
    // Untranslated strings fall back to English.
    assert!(r.body.contains("Skills explorer"));
}

#[test]
fn assets_are_served() {
    let css = get(real(), "/console/static/console.css");
    assert_eq!(css.status, 200);
    assert!(css
        .header("content-type")
        .unwrap_or("")
        .starts_with("text/css"));
    assert!(css.body.contains(":focus-visible"));
    let js = get(real(), "/console/static/console.js");
    assert!(js
        .header("content-type")
        .unwrap_or("")
        .starts_with("text/javascript"));
    assert!(js.body.contains("message/stream"));
}

#[test]
fn the_gate_applies_keys_and_limits() {
    use ecclesia_console::{ConsoleOptions, Refusal};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    let gate = move |skill: &str, headers: &axum::http::HeaderMap| {
        counter.fetch_add(1, Ordering::SeqCst);
        if skill == "pope_lookup" && headers.get("authorization").is_none() {
            return Err(Refusal {
                status: axum::http::StatusCode::TOO_MANY_REQUESTS,
                message: "limit <reached>".into(),
                retry_after: Some(7),
            });
        }
        Ok(ecclesia_console::Visitor::new("tester"))
    };
    let s = crate::support::spawn_with(
        crate::support::real_registry(),
        false,
        ConsoleOptions {
            today: Some(crate::support::today()),
            gate: Some(Arc::new(gate)),
            ..Default::default()
        },
    );
    let r = get(&s, "/lookup?kind=pope&q=Francis");
    assert_eq!(r.status, 429);
    assert_eq!(r.header("retry-after"), Some("7"));
    assert!(r.body.contains("limit &lt;reached&gt;"));
    let r = get_with(
        &s,
        "/lookup?kind=pope&q=Francis",
        &[("Authorization", "Bearer k")],
    );
    assert_eq!(r.status, 200);
    // One admission per page view, however many skill calls it makes.
    let before = seen.load(Ordering::SeqCst);
    assert_eq!(get(&s, "/calendar?year=2026&month=6").status, 200);
    assert_eq!(seen.load(Ordering::SeqCst) - before, 1);
}

#[test]
fn odd_input_never_breaks_a_page() {
    let odd = [
        "%FF",
        "%",
        "%zz",
        "%00",
        "%E2%80%AE",
        "a%0Ab",
        "+",
        "&&&",
        "=",
        "%3Cscript%3E",
        "9999999999999999999999",
        "-1",
        "2026-02-30",
        "\u{1F600}",
    ];
    let pages = [
        "/readings?q=",
        "/readings?date=",
        "/readings?calendar=",
        "/calendar?year=",
        "/calendar?month=",
        "/martyrology?date=",
        "/ask?q=",
        "/lookup?kind=person&q=",
        "/lookup?kind=",
        "/search?q=",
        "/search?page=",
        "/document?id=",
        "/document?id=doc-grace&hl=",
        "/explorer?x=",
        "/?lang=",
    ];
    for p in pages {
        for o in odd {
            let path = format!("{p}{}", o.replace('\u{1F600}', "%F0%9F%98%80"));
            let r = get(full(), &path);
            assert!(
                [200, 400, 404].contains(&r.status),
                "{path}: {} {}",
                r.status,
                &r.body[..r.body.len().min(300)]
            );
            assert!(r.body.contains("</html>"), "{path}: a whole page");
        }
    }
}

#[test]
fn oversized_form_is_a_400_page() {
    let body = format!("q={}", "a".repeat(400_000));
    let r = post_form(full(), "/ask", &body);
    assert_eq!(r.status, 400);
    assert!(r.body.contains("too large") && r.header("content-security-policy").is_some());
    let r = post_form(full(), "/ask", "q=%FF%FE");
    assert!(r.status == 200 || r.status == 400, "{}", r.status);
}

#[test]
fn the_1962_missal_in_the_day_page_and_the_grid() {
    let r = get(real(), "/readings?date=2027-01-24&calendar=1962");
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body;
    assert!(b.contains("Septuagesima Sunday"), "English title");
    assert!(b.contains("Dominica in Septuagesima"), "Latin title");
    assert!(b.contains("II class"), "class");
    assert!(b.contains("Matthew 20:1-16"), "Gospel");
    assert!(b.contains("Proper of the Mass (Latin)"), "proper");
    assert!(
        b.contains("<option value=\"1962\" selected>1962 Missal (usus antiquior)</option>"),
        "calendar list offers 1962"
    );
    let r = get(real(), "/calendar?year=2026&month=12&calendar=1962");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body.matches("data-date=\"2026-12-").count(), 31);
    assert!(
        r.body.contains("In Nativitate Domini"),
        "Christmas in the grid"
    );
    assert!(r.body.contains("c-VIOLET"), "Advent violet");
}

#[test]
fn the_start_page_opens_on_today() {
    // The tests' today is Monday 1 June 2026: St Justin.
    let r = get(real(), "/");
    assert_eq!(r.status, 200, "{}", r.body);
    let b = &r.body;
    assert!(b.contains("id=\"today\""), "today's section");
    assert!(b.contains("Justin"), "today's celebration");
    assert!(b.contains("datetime=\"2026-06-01\""), "today's date");
    assert!(b.contains("class=\"today-readings\""), "the readings");
    assert!(b.contains("Gospel — "), "a Gospel citation");
    assert!(b.contains("class=\"today-martyrology\""), "the Martyrology");
    assert!(b.contains("class=\"coming\""), "the coming feasts");
    assert!(
        b.contains("Birth of Saint John the Baptist")
            || b.contains("Nativity of Saint John the Baptist"),
        "24 June among them"
    );
    assert!(
        b.contains("href=\"/readings?date=2026-06-01&amp;calendar=general-roman\""),
        "full readings link"
    );
    // The visitor's calendar: the 1962 Missal.
    let r = get(real(), "/?calendar=1962");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body.contains("<option value=\"1962\" selected>"),
        "{}",
        r.body
    );
    assert!(r.body.contains("class=\"coming\""));
    // An unknown calendar is a clear 400.
    assert_eq!(get(real(), "/?calendar=zz").status, 400);
}

/// With no fixed day in the options, "today" is the readings skill's (read in the configured
/// time zone), not the console's own clock: here the skill's today is 1 June 2026.
#[test]
fn today_is_the_readings_skill_s_today() {
    let server = crate::support::spawn_with(
        crate::support::real_registry(),
        false,
        ecclesia_console::ConsoleOptions::default(),
    );
    let r = get(&server, "/calendar");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body.contains("from=2026-06-01&amp;to=2026-06-30") || r.body.contains("June 2026"),
        "the month of the skill's today is shown"
    );
    let r = get(&server, "/");
    assert!(
        r.body.contains("value=\"2026-06-01\""),
        "the date form starts on the skill's today"
    );
}
