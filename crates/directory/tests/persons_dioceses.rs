mod common;

use ecclesia_directory::{Kind, Lookup, Outcome, HINT_POPE};
use serde_json::Value;

fn get(kind: Kind, q: &str) -> Value {
    match common::built()
        .directory
        .lookup(kind, Lookup::Query(q))
        .unwrap()
    {
        Outcome::Found(v) => v,
        other => panic!("{q}: {other:?}"),
    }
}

#[test]
fn counts_per_directory() {
    let c = common::built().directory.counts().unwrap();
    // 252 cardinals less the one elected pope, plus the US sample's bishops who are not cardinals
    let persons = c["person"].as_u64().unwrap();
    assert!((260..=272).contains(&persons), "{c}");
    // 2,935 LitCal sees; the 185 US sees overlay them (none is left over unmatched)
    let dioceses = c["diocese"].as_u64().unwrap();
    assert!((2935..=2945).contains(&dioceses), "{c}");
}

#[test]
fn persons_and_lineage_both_ways() {
    let t = get(Kind::Person, "Cardinal Tagle");
    assert_eq!(t["person_id"], "luis-antonio-tagle");
    assert_eq!(t["source_table"], "living");
    assert_eq!(t["cardinal_elevation"]["date"], "2012-11-24");
    assert_eq!(
        t["cardinal_elevation"]["created_by"]["pope_id"],
        "benedict-xvi"
    );
    assert_eq!(t["ordination_date"], "1982-02-27");
    for k in [
        "person_id",
        "source_table",
        "primary_name",
        "current_position",
        "image_url",
        "coat_of_arms_url",
        "ordination_date",
        "consecration_date",
        "cardinal_elevation",
        "consecrators",
        "consecrated",
        "education",
        "motto",
        "alternates",
    ] {
        assert!(t.get(k).is_some(), "missing {k}");
    }
    // Nelson Perez consecrated three Philadelphia auxiliaries, and was consecrated by William Murphy
    let p = get(Kind::Person, "Bishop Nelson Perez");
    assert_eq!(p["current_position"], "Archbishop of Philadelphia");
    let down: Vec<&str> = p["consecrated"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["person_id"].as_str().unwrap())
        .collect();
    assert_eq!(down.len(), 3, "{down:?}");
    assert_eq!(p["consecrators"][0]["name"], "William Francis Murphy");
    // Wilton Gregory (a cardinal) consecrated bishops of the US sample
    let g = get(Kind::Person, "Wilton Gregory");
    assert!(
        g["consecrated"].as_array().unwrap().len() >= 3,
        "{}",
        g["consecrated"]
    );
    let m = get(Kind::Person, "Evelio Menjivar-Ayala");
    assert_eq!(m["consecrators"][0]["person_id"], g["person_id"]);
    // the cardinal elected pope is served by pope_lookup
    let d = &common::built().directory;
    match d
        .lookup(Kind::Person, Lookup::Query("Robert Francis Prevost"))
        .unwrap()
    {
        Outcome::NotFound { hint, .. } => assert_eq!(hint.as_deref(), Some(HINT_POPE)),
        o => panic!("{o:?}"),
    }
}

#[test]
fn dioceses_by_name() {
    let m = get(Kind::Diocese, "Archdiocese of Manila");
    assert_eq!(m["source_code"], "manila_ph");
    assert_eq!(m["country"], "Philippines");
    let b = get(Kind::Diocese, "Boston");
    assert_eq!(b["source_code"], "boston_us");
    assert_eq!(b["jurisdiction_type"], "archdiocese");
    assert_eq!(b["cathedral"], "Cathedral of the Holy Cross");
    assert_eq!(b["current_bishop"]["person_id"], "richard-garth-henning");
    let s = get(Kind::Diocese, "Diocese of Springfield in Illinois");
    assert_eq!(s["source_code"], "spinil_us");
    assert_eq!(s["metropolitan"], "Archdiocese of Chicago");
    let alts = get(Kind::Diocese, "Springfield");
    assert!(!alts["alternates"].as_array().unwrap().is_empty());
    let k = get(Kind::Diocese, "Military Ordinariate of Kenya");
    assert_eq!(k["jurisdiction_type"], "military ordinariate");
    for key in [
        "source_code",
        "primary_name",
        "jurisdiction_type",
        "rite",
        "country",
        "region_primary",
        "state",
        "city",
        "metropolitan",
        "depends_on",
        "province",
        "cathedral",
        "patron_saint",
        "area",
        "erected",
        "elevated",
        "official_website",
        "image_url",
        "current_bishop",
        "recent_statistics",
        "latest_financials",
        "alternates",
    ] {
        assert!(m.get(key).is_some(), "missing {key}");
    }
    assert_eq!(m["recent_statistics"], serde_json::json!([]));
    assert_eq!(m["latest_financials"], Value::Null);
}

#[test]
fn ids_are_stable_across_ingests() {
    let b = common::built();
    let again = tempfile::tempdir().unwrap();
    common::ingest_into(again.path().to_path_buf(), Vec::new());
    let a = rusqlite_ids(&b.dir);
    let c = rusqlite_ids(again.path());
    assert_eq!(a, c);
    assert!(a.contains(&"saint/jerome".to_string()));
    assert!(a.contains(&"saint/therese-of-lisieux".to_string()));
    assert!(a.contains(&"pope/benedict-xvi".to_string()));
}

fn rusqlite_ids(dir: &std::path::Path) -> Vec<String> {
    let d = ecclesia_directory::Directory::open(dir).unwrap();
    let mut out = Vec::new();
    for k in [Kind::Saint, Kind::Pope, Kind::Person, Kind::Diocese] {
        for p in d.profiles(k).unwrap() {
            let key = match k {
                Kind::Saint => "saint_id",
                Kind::Pope => "pope_id",
                Kind::Person => "person_id",
                Kind::Diocese => "source_code",
            };
            out.push(format!("{}/{}", k.as_str(), p[key].as_str().unwrap()));
        }
    }
    out.sort();
    out
}
