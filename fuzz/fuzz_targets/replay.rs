//! `records::fuzzing::replay` under libFuzzer (fuzz/README.md).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| records::fuzzing::replay(data));
