//! Running hot loops with the instructions this processor has, in one portable binary.
//!
//! The release build targets every x86-64 processor, which lacks a population count and
//! three-operand bit operations. Nearly every x86-64 processor of the last decade has them (the
//! x86-64-v3 level: AVX2, BMI1, BMI2, LZCNT, POPCNT). [`with_best_instructions`] runs a
//! closure compiled a second time for that level when the processor reports it, and as built
//! otherwise: the same code and results, chosen once at run time instead of by a `target-cpu`
//! flag at build time.

// The one place the command uses `unsafe`: calling a function compiled for instructions the
// processor might lack, after checking that it has them.
#![allow(unsafe_code)]

/// Runs `f`, compiled for x86-64-v3 when this processor has it. `f` and everything it inlines
/// (the rules' move counting and playing are `#[inline]`) get the faster instructions.
pub fn with_best_instructions<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: every feature enabled on `x86_64_v3` was detected just above.
            return unsafe { x86_64_v3(f) };
        }
    }
    f()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn x86_64_v3<R>(f: impl FnOnce() -> R) -> R {
    f()
}
