//! `records::fuzzing::records` under libFuzzer (fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| records::fuzzing::records(data));
