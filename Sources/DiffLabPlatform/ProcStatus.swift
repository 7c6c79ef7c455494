#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// The value of one field of `/proc/self/status`, or of `/proc/PID/status` for the process `pid`
/// (e.g. `VmRSS:`, `VmHWM:`, `Cpus_allowed:`), trimmed of blanks; `nil` where the file or the field
/// is missing (not Linux, no such process) or unreadable.
///
/// - Complexity: one read of the file (at most 16 KiB).
package func procStatus(_ field: String, pid: Int32? = nil) -> String? {
    _procField(field, path: pid.map { "/proc/\($0)/status" } ?? "/proc/self/status")
}

/// The memory the kernel estimates is available for starting new work without swapping
/// (`MemAvailable:` of `/proc/meminfo`), in bytes; `nil` where the file or field is missing.
///
/// - Complexity: one read of the file (at most 16 KiB).
package func availableMemoryBytes() -> Int? {
    guard let value = _procField("MemAvailable:", path: "/proc/meminfo"), value.hasSuffix(" kB"),
        let kB = Int(value.dropLast(3)), kB >= 0, kB < Int.max / 1024
    else { return nil }
    return kB * 1024
}

/// The value of `field` in a `/proc` file of `name: value` lines, trimmed of blanks.
private func _procField(_ field: String, path: String) -> String? {
    #if os(Linux)
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    for line in text.split(separator: "\n") where line.hasPrefix(field) {
        return String(line.dropFirst(field.count).drop { $0 == " " || $0 == "\t" })
    }
    return nil
    #else
    return nil
    #endif
}

/// A `kB` field of `/proc/self/status`, or of `/proc/PID/status` for the process `pid` (e.g.
/// `VmRSS:`, `VmHWM:`), in bytes; `nil` if absent or unreadable.
///
/// - Complexity: one read of the file (at most 16 KiB).
package func procStatusBytes(_ field: String, pid: Int32? = nil) -> Int? {
    guard let value = procStatus(field, pid: pid), value.hasSuffix(" kB"), let kB = Int(value.dropLast(3)), kB >= 0, kB < Int.max / 1024
    else { return nil }
    return kB * 1024
}

/// Resets this process's peak resident set size (`VmHWM`) to its current size, by writing `5`
/// into `/proc/self/clear_refs` (Linux 4.0 and later). Returns whether it did: never on Darwin,
/// which has no such reset (its `ru_maxrss` is a lifetime peak), so a peak during one call is
/// recorded as unknown there.
///
/// - Complexity: one open and one write.
package func resetPeakResidentSize() -> Bool {
    #if os(Linux)
    guard let descriptor = try? FileDescriptor.open("/proc/self/clear_refs", .writeOnly) else { return false }
    defer { descriptor.closeIgnoringErrors() }
    return (try? [UInt8(ascii: "5")].withUnsafeBytes { bytes in Result { () throws(PlatformError) in try descriptor.write(bytes) } }.get()) == 1
    #else
    return false
    #endif
}
