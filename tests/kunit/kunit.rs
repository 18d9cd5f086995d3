// SPDX-License-Identifier: GPL-2.0

//! Test-only items of the crate, built with `CONFIG_SCHED_RUST_CFS_KUNIT_TEST` alone: the KUnit
//! suites of the pure arithmetic, and the entry points through which the C parity suite
//! (`kernel/sched/tests/sched_rust_kunit.c`, prototypes in `sched_rust_kunit.h`) reads a group's
//! state the Rust way. Nothing here is part of the production crate.

/// The group state's accessors, the Rust way.
#[cfg(CONFIG_FAIR_GROUP_SCHED)]
pub mod tg_state {
    use kernel::cpu::CpuId;
    use kernel::prelude::*;
    use kernel::sched::{ffi, group};

    /// Rust twin of `tg_cfs_rq()`, for the parity tests.
    ///
    /// # Safety
    ///
    /// `tg` must be a valid, initialised group and `cpu` a possible CPU.
    #[export]
    pub unsafe extern "C" fn sched_rust_tg_cfs_rq(
        tg: *mut ffi::task_group,
        cpu: c_int,
    ) -> *mut ffi::cfs_rq {
        // SAFETY: `tg` is a valid, initialised group for the call (safety requirements).
        let tg = unsafe { group::TaskGroup::from_raw(tg) };
        CpuId::from_i32(cpu)
            .and_then(|cpu| tg.cfs_rq(cpu))
            .unwrap_or(core::ptr::null_mut())
    }

    /// Rust twin of `tg_se()`, for the parity tests.
    ///
    /// # Safety
    ///
    /// `tg` must be a valid, initialised group and `cpu` a possible CPU.
    #[export]
    pub unsafe extern "C" fn sched_rust_tg_se(
        tg: *mut ffi::task_group,
        cpu: c_int,
    ) -> *mut ffi::sched_entity {
        // SAFETY: `tg` is a valid, initialised group for the call (safety requirements).
        let tg = unsafe { group::TaskGroup::from_raw(tg) };
        CpuId::from_i32(cpu)
            .and_then(|cpu| tg.se(cpu))
            .unwrap_or(core::ptr::null_mut())
    }

    /// Rust twin of `cfs_rq_se()`, for the parity tests.
    ///
    /// # Safety
    ///
    /// `cfs_rq` must be valid and belong to a valid, initialised group.
    #[export]
    pub unsafe extern "C" fn sched_rust_cfs_rq_se(
        cfs_rq: *mut ffi::cfs_rq,
    ) -> *mut ffi::sched_entity {
        // SAFETY: `cfs_rq` is valid and belongs to a valid, initialised group (safety
        // requirements).
        unsafe { group::cfs_rq_se(cfs_rq) }
    }

    /// Rust twin of `__schedstats_from_se()` for group entities, for the parity tests.
    ///
    /// # Safety
    ///
    /// `se` must be the entity of a group's per-CPU state.
    #[export]
    pub unsafe extern "C" fn sched_rust_group_se_stats(
        se: *mut ffi::sched_entity,
    ) -> *mut ffi::sched_statistics {
        // SAFETY: `se` is the entity of a group's per-CPU state (safety requirements).
        unsafe { group::group_se_stats(se) }
    }
}

/// The LLC decay on values.
#[cfg(CONFIG_SCHED_CACHE)]
mod llc {
    use crate::llc::{shr_field, DecayState};

    /// Returns `v >> n`, or 0 for `n >= 64`.
    ///
    /// Equivalent to `__shr_u64()` on a value.
    #[inline]
    pub(crate) fn shr_u64(v: u64, n: u64) -> u64 {
        shr_field(|| v, n)
    }

    /// The decay state as values: `(cpu_epoch, cpu_epoch_next, cpu_runtime)` of the runqueue and
    /// `(runtime, epoch)` of the process on this CPU, for the tests.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub(crate) struct Decay {
        /// `rq->cpu_epoch`.
        pub(crate) epoch: u64,
        /// `rq->cpu_epoch_next`, in jiffies.
        pub(crate) epoch_next: u64,
        /// `rq->cpu_runtime`.
        pub(crate) cpu_runtime: u64,
        /// `pcpu_sched->runtime`.
        pub(crate) runtime: u64,
        /// `pcpu_sched->epoch`.
        pub(crate) pcpu_epoch: u64,
    }

    impl DecayState for Decay {
        fn epoch(&self) -> u64 {
            self.epoch
        }
        fn set_epoch(&mut self, v: u64) {
            self.epoch = v;
        }
        fn epoch_next(&self) -> u64 {
            self.epoch_next
        }
        fn set_epoch_next(&mut self, v: u64) {
            self.epoch_next = v;
        }
        fn cpu_runtime(&self) -> u64 {
            self.cpu_runtime
        }
        fn set_cpu_runtime(&mut self, v: u64) {
            self.cpu_runtime = v;
        }
        fn runtime(&self) -> u64 {
            self.runtime
        }
        fn set_runtime(&mut self, v: u64) {
            self.runtime = v;
        }
        fn pcpu_epoch(&self) -> u64 {
            self.pcpu_epoch
        }
        fn set_pcpu_epoch(&mut self, v: u64) {
            self.pcpu_epoch = v;
        }
    }

    #[kernel::macros::kunit_tests(sched_rust_llc)]
    mod tests {
        use super::*;
        use crate::llc::*;
        use kernel::sched::NICE_0_LOAD;

        #[test]
        fn shr_saturates() {
            assert_eq!(shr_u64(u64::MAX, 0), u64::MAX);
            assert_eq!(shr_u64(8, 3), 1);
            assert_eq!(shr_u64(u64::MAX, 63), 1);
            assert_eq!(shr_u64(u64::MAX, 64), 0);
            assert_eq!(shr_u64(u64::MAX, u64::MAX), 0);
            // A count of 2^32 or more is not taken modulo 2^32.
            assert_eq!(shr_u64(u64::MAX, (1 << 32) + 1), 0);
        }

        #[test]
        fn decay_halves_per_epoch() {
            let mut d = Decay {
                epoch: 0,
                epoch_next: 100,
                cpu_runtime: 1 << 20,
                runtime: 1 << 10,
                pcpu_epoch: 0,
            };
            // Not yet at the epoch boundary: nothing changes.
            assert!(!update_mm_sched(&mut d, 100, 10));
            assert_eq!((d.epoch, d.cpu_runtime, d.runtime), (0, 1 << 20, 1 << 10));
            // 25 jiffies past it with a period of 10: three epochs (rounded up).
            assert!(update_mm_sched(&mut d, 125, 10));
            assert_eq!((d.epoch, d.epoch_next), (3, 130));
            assert_eq!(
                (d.cpu_runtime, d.runtime, d.pcpu_epoch),
                (1 << 17, 1 << 7, 3)
            );
            // A period of 0 counts as 1.
            assert!(update_mm_sched(&mut d, 131, 0));
            assert_eq!((d.epoch, d.epoch_next), (4, 131));
        }

        #[test]
        fn decay_clears_after_2_pow_32_epochs() {
            // 2^32 + 1 epochs elapse: the runtime is cleared (not halved once, as when
            // `__shr_u64()` took the count as `unsigned int`).
            let mut d = Decay {
                epoch: 0,
                epoch_next: 0,
                cpu_runtime: 1 << 40,
                runtime: 0,
                pcpu_epoch: 0,
            };
            assert!(update_mm_sched(&mut d, (1 << 32) + 1, 1));
            assert_eq!(d.epoch, (1 << 32) + 1);
            assert_eq!(d.cpu_runtime, 0);
        }

        #[test]
        fn avg_scale_steps_and_truncates_like_c() {
            // LLC of 4 CPUs: divisor clamped up to 2; of 64: clamped down to 8; of 16: 4.
            assert_eq!(update_avg_scale(0, 10, 4), 5);
            assert_eq!(update_avg_scale(0, 80, 64), 10);
            assert_eq!(update_avg_scale(0, 80, 16), 20);
            // Truncation towards zero: 1 above the sample stays there.
            assert_eq!(update_avg_scale(3, 2, 4), 3);
            assert_eq!(update_avg_scale(2, 3, 4), 2);
            // A negative size converts to a huge u32: divisor 8.
            assert_eq!(update_avg_scale(0, 80, -1), 10);
            // The difference wraps through s64.
            assert_eq!(update_avg_scale(0, u64::MAX, 4), 0);
            assert_eq!(update_avg_scale(u64::MAX, 1, 4), 0);
        }

        #[test]
        fn fraction_is_share_of_cpu_runtime() {
            let mut d = Decay {
                epoch: 0,
                epoch_next: 0,
                cpu_runtime: 999,
                runtime: 500,
                pcpu_epoch: 0,
            };
            assert_eq!(fraction(d.runtime, d.cpu_runtime), NICE_0_LOAD / 2);
            d.cpu_runtime = u64::MAX;
            assert_eq!(fraction(d.runtime, d.cpu_runtime), 0);
        }
    }
}

#[kernel::macros::kunit_tests(sched_rust_eevdf)]
mod eevdf {
    use crate::eevdf::*;

    use kernel::sched::NICE_0_LOAD as NICE_0;

    #[test]
    fn vruntime_sub_wraps() {
        assert_eq!(vruntime_sub(0, u64::MAX), 1);
        assert_eq!(vruntime_sub(u64::MAX, 0), -1);
        assert_eq!(vruntime_sub(1 << 63, 0), i64::MIN);
        assert_eq!(vruntime_sub(5, 7), -2);
    }

    #[test]
    fn weight_scaling() {
        assert_eq!(avg_vruntime_weight(0, 3), 3);
        assert_eq!(avg_vruntime_weight(1, NICE_0), NICE_0 / 2);
        // Never below 2.
        assert_eq!(avg_vruntime_weight(10, 15), 2);
        assert_eq!(avg_vruntime_weight(3, 88761 << 10), (88761 << 10) / 8);
    }

    #[test]
    fn eligible_is_lag_sign() {
        // Two entities of weight NICE_0 at keys -100 and +100: the average is 0.
        let elig = Eligibility::new(0, 2 * NICE_0, 1000, 0, None);
        assert!(elig.eligible(1000 - 100));
        assert!(elig.eligible(1000));
        assert!(!elig.eligible(1000 + 1));
        // The origin wraps: keys are computed modulo 2^64.
        let elig = Eligibility::new(0, 2 * NICE_0, u64::MAX - 10, 0, None);
        assert!(elig.eligible(u64::MAX - 10));
        assert!(elig.eligible(u64::MAX - 20));
        assert!(!elig.eligible(5));
    }

    #[test]
    fn curr_counts_in_the_average() {
        // Tree: one entity at key 0; curr at key 300 with twice the weight. V = 200.
        let elig = Eligibility::new(0, NICE_0, 0, 0, Some((300, 2 * NICE_0)));
        assert!(elig.eligible(200));
        assert!(!elig.eligible(201));
    }

    #[test]
    fn eligible_at_multiply_overflow_boundary() {
        // key * load just below and just above 2^63: load = 2^32, key = +-2^31.
        let load: u64 = 1 << 32;
        let big = 1u64 << 31;
        let elig = Eligibility::new(i64::MAX, load, 0, 0, None);
        // key = 2^31 - 1: key * load = 2^63 - 2^32 <= i64::MAX.
        assert!(elig.eligible(big - 1));
        // key = 2^31: the product is 2^63, above every s64 average: not eligible.
        assert!(!elig.eligible(big));
        let elig = Eligibility::new(i64::MIN, load, 0, 0, None);
        // key = -2^31: the product is exactly i64::MIN, which equals the average.
        assert!(elig.eligible(0u64.wrapping_sub(big)));
        // key = -2^31 - 1: the product is below every s64 average: eligible.
        assert!(elig.eligible(0u64.wrapping_sub(big + 1)));
        // key = -2^31 + 1: the product is i64::MIN + 2^32 > i64::MIN: not eligible.
        assert!(!elig.eligible(0u64.wrapping_sub(big - 1)));
    }
}
