//! Operator ingest: a tiny synthetic directory (clearly fake figures, written here,
//! never shipped) with malformed rows that must be reported with file and line.
mod common;

use ecclesia_directory::{Directory, Kind, Lookup, Outcome};

#[test]
fn operator_files_load_and_bad_rows_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let ops = tmp.path().join("ops");
    std::fs::create_dir_all(&ops).unwrap();
    let stats = ops.join("statistics.csv");
    std::fs::write(
        &stats,
        "source_code,year,catholics,total_population,percent_catholic,total_priests,parishes,baptisms,seminarians\n\
         boston_us,2019,111,999,11.1,7,3,2,1\n\
         boston_us,2020,\"1,222\",999,,8,3,2,1\n\
         boston_us,not-a-year,1,1,1,1,1,1,1\n\
         no_such_see,2020,1,1,1,1,1,1,1\n\
         boston_us,2021,many,1,1,1,1,1,1\n\
         boston_us,2022,1,1\n",
    )
    .unwrap();
    let fins = ops.join("financials.jsonl");
    std::fs::write(
        &fins,
        "{\"source_code\":\"boston_us\",\"fiscal_year\":2020,\"currency\":\"USD\",\"total_revenue\":10,\"total_expenses\":9,\"net_assets\":5,\"total_assets\":6,\"surplus_deficit\":1}\n\
         {\"source_code\":\"boston_us\",\"fiscal_year\":2021,\"currency\":\"USD\",\"total_revenue\":12,\"total_expenses\":13,\"surplus_deficit\":-1}\n\
         {not json\n\
         {\"source_code\":\"boston_us\",\"fiscal_year\":2022,\"currency\":\"dollars\",\"total_revenue\":1}\n",
    )
    .unwrap();
    let persons = ops.join("persons.csv");
    std::fs::write(
        &persons,
        "person_id,name,current_position,birth_date,death_date,consecration_date,motto,education,diocese\n\
         test-bishop-one,Testus Primus Fictus,Bishop of Nowhere (synthetic),1900-01-02,1980-03-04,1950-05-06,Fictio Veritas,Fake Seminary;Pretend University,\n\
         ,,,,,,,,\n",
    )
    .unwrap();
    let lineage = ops.join("lineage.csv");
    std::fs::write(
        &lineage,
        "consecrated,consecrator,role,date\n\
         test-bishop-one,Luis Antonio Tagle,principal,1950-05-06\n\
         nobody-known,Luis Antonio Tagle,principal,\n",
    )
    .unwrap();
    let out = tmp.path().join("store");
    let report = common::ingest_into(out.clone(), vec![ops.clone()]);
    let w = report.warnings.join("\n");
    let s = stats.display().to_string();
    let f = fins.display().to_string();
    for needle in [
        format!("{s}:4: year \"not-a-year\""),
        format!("{s}:5: unknown diocese source_code \"no_such_see\""),
        format!("{s}:6: catholics: \"many\" is not a number"),
        format!("{s}:7: 4 fields, the header has 9"),
        format!("{f}:3: invalid JSON"),
        format!("{f}:4: currency \"DOLLARS\" is not an ISO 4217 code"),
        format!("{}:3: a person needs a name", persons.display()),
        format!(
            "{}:3: unknown consecrated person \"nobody-known\"",
            lineage.display()
        ),
    ] {
        assert!(w.contains(&needle), "missing warning {needle:?} in:\n{w}");
    }
    let d = Directory::open(&out).unwrap();
    let Outcome::Found(series) = d
        .statistics_series(Lookup::Id("boston_us"), None, None)
        .unwrap()
    else {
        panic!()
    };
    let rows = series["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["catholics"], 1222);
    assert_eq!(rows[1]["percent_catholic"], serde_json::Value::Null);
    assert_eq!(rows[0]["percent_catholic"], 11.1);
    assert_eq!(
        series["year_range"],
        serde_json::json!({"start": 2019, "end": 2020})
    );
    let Outcome::Found(b) = d
        .lookup(Kind::Diocese, Lookup::Query("Archdiocese of Boston"))
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(b["recent_statistics"][0]["year"], 2020);
    assert_eq!(b["latest_financials"]["fiscal_year"], 2021);
    assert_eq!(b["latest_financials"]["surplus_deficit"], -1);
    assert_eq!(
        b["latest_financials"]["net_assets"],
        serde_json::Value::Null
    );
    let Outcome::Found(p) = d
        .lookup(Kind::Person, Lookup::Query("Testus Fictus"))
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(p["source_table"], "historical");
    assert_eq!(p["motto"], "Fictio Veritas");
    assert_eq!(p["education"][1], "Pretend University");
    assert_eq!(p["consecrators"][0]["person_id"], "luis-antonio-tagle");
    let Outcome::Found(t) = d
        .lookup(Kind::Person, Lookup::Id("luis-antonio-tagle"))
        .unwrap()
    else {
        panic!()
    };
    assert!(t["consecrated"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["person_id"] == "test-bishop-one"));
    assert!(matches!(
        d.statistics_series(Lookup::Id("boston_us"), Some(2021), Some(2019)),
        Err(ecclesia_directory::DirectoryError::InvalidInput(_))
    ));
}
