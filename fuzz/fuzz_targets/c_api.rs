#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| colldet_fuzz::capi::c_api(data));
