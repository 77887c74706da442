//! The MySQL dump syntax of the lectionary tables: `INSERT ... VALUES (...), (...);`.

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Split the value tuples of MySQL `INSERT ... VALUES (...), (...);` statements.
pub(crate) fn sql_tuples(sql: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for line in sql.lines() {
        let l = line.trim();
        if !l.starts_with('(') {
            continue;
        }
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut in_str = false;
        let mut chars = l.chars().peekable();
        chars.next(); // '('
        while let Some(c) = chars.next() {
            if in_str {
                if c == '\\' {
                    cur.push(c);
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                } else if c == '\'' {
                    in_str = false;
                } else {
                    cur.push(c);
                }
            } else if c == '\'' {
                in_str = true;
            } else if c == ',' {
                fields.push(unescape(cur.trim()));
                cur.clear();
            } else if c == ')' {
                fields.push(unescape(cur.trim()));
                break;
            } else {
                cur.push(c);
            }
        }
        out.push(fields);
    }
    out
}
