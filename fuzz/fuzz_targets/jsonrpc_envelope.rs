//! The JSON-RPC endpoint's decoding: envelope, id, method, params, parts.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let code = ecclesia_server::fuzzing::decode_request(data);
    assert!(
        code == 0 || (-32768..=-32000).contains(&code),
        "code {code}"
    );
});
