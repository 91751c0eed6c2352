//! `records::fuzzing::notation` under libFuzzer (fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| records::fuzzing::notation(data));
