//! Replays the checked-in corpus of the C API fuzz target `c_api` (`fuzz/corpus/c_api`) on the
//! stable toolchain: every file runs the same body the cargo-fuzz target runs (`fuzz/src/capi.rs`,
//! included below): a call sequence on two mirror worlds against a shadow model. Running the
//! fuzzer: README.md, "Fuzzing".

#[path = "../../../fuzz/src/capi.rs"]
mod capi;

use colldet_testkit::fuzz_corpus::replay;

#[test]
fn c_api_corpus() {
    replay("c_api", capi::c_api);
}

/// Seeded random call sequences beyond the corpus: 200 inputs of 64 to 1024 bytes.
#[test]
fn c_api_random_sequences() {
    let mut state = 0x5EED_CA11u64;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for case in 0..200 {
        let len = 64 + (next() % 961) as usize;
        let data: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if std::panic::catch_unwind(|| capi::c_api(&data)).is_err() {
            panic!("c_api fails on random sequence {case}: {data:?}");
        }
    }
}
