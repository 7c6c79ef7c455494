#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The number of cores this process may run on, at least 1: on Linux the CPUs of its affinity
/// mask (`Cpus_allowed` in `/proc/self/status`, so `taskset -c 0` gives 1), else Foundation's
/// `ProcessInfo.activeProcessorCount` (on Darwin the active processors; on Linux it does not see
/// the affinity mask). CPU quotas of a cgroup are not seen.
///
/// DiffLabCore reads the file through Foundation, not a C library module: the vocabulary, the
/// engines and the batch model use none (see `LayeringTests`).
///
/// - Complexity: one read of a small file on Linux; O(1) elsewhere.
public func availableCores() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),  // portable: Linux branch; Foundation elsewhere
        let count = _affinityCount(status)
    {
        return count
    }
    #endif
    return max(1, ProcessInfo.processInfo.activeProcessorCount)
}

/// The CPUs of the `Cpus_allowed:` line of a `/proc/PID/status` text (hexadecimal words separated
/// by commas: its set bits), or `nil` when the line is missing, malformed or empty.
///
/// - Complexity: O(length of the text).
package func _affinityCount(_ status: String) -> Int? {
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
    var count = 0
    for c in line.dropFirst("Cpus_allowed:".count).unicodeScalars where c != "," && c != " " && c != "\t" {
        guard let digit = Int(String(c), radix: 16) else { return nil }
        count += digit.nonzeroBitCount
    }
    return count > 0 ? count : nil
}
