#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// The calendar time now, in whole seconds since 1970-01-01 00:00 UTC (`time(NULL)`; Linux and
/// Darwin both count UTC seconds without leap seconds, and `time_t` is 64 bits on both of
/// DiffLab's targets). For the date a results file records, never for measuring a duration: the
/// system may set this clock back or forward (``monotonicNow()`` in DiffLabCore measures).
///
/// - Complexity: O(1) (a vDSO or commpage read on Linux and Darwin).
package func secondsSince1970() -> Int {
    Int(time(nil))
}
