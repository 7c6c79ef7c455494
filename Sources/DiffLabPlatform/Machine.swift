#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// The operating-system family a choice is made for: the running one (``current``) or, in tests,
/// the other, so each platform's branch of a pure decision is checked on every machine.
package enum PlatformKind: Sendable, Equatable, CaseIterable {
    case linux, darwin

    /// The running system's.
    package static let current: PlatformKind = {
        #if canImport(Darwin)
        .darwin
        #else
        .linux
        #endif
    }()
}

/// Facts about this machine for a results file: its host name, kernel and processor model.
package struct MachineFacts: Sendable {
    /// `uname`'s node name.
    package var hostname: String
    /// `uname`'s system name, release and machine, e.g. `Linux 6.1.0 x86_64`, `Darwin 24.1.0 arm64`.
    package var kernel: String
    /// The processor's marketing name, or `nil` when the system does not say.
    package var processorModel: String?

    /// This machine's facts. The processor model: Linux reads the first `model name` line of
    /// `/proc/cpuinfo` (x86; ARM boards often have none); Darwin asks
    /// `sysctlbyname("machdep.cpu.brand_string")` (`Apple M1`, `Intel(R) Core(TM) ...`; see
    /// https://developer.apple.com/documentation/kernel/1387446-sysctlbyname). No shell runs.
    ///
    /// - Complexity: one `uname`, plus one read of at most 1 MiB or one `sysctlbyname`.
    package static func current() -> MachineFacts {
        var name = utsname()
        uname(&name)
        func text<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let kernel = "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"
        #if canImport(Darwin)
        let model = _sysctlString("machdep.cpu.brand_string")
        #else
        let model = FileSystem.contents("/proc/cpuinfo", limit: 1 << 20).flatMap { cpuModel(fromCPUInfo: String(decoding: $0, as: UTF8.self)) }
        #endif
        return MachineFacts(hostname: text(name.nodename), kernel: kernel, processorModel: model)
    }
}

/// The value of the first `model name` line of a `/proc/cpuinfo` text, trimmed; `nil` when there
/// is none or it is blank. Pure, so it is tested everywhere.
///
/// - Complexity: O(text).
package func cpuModel(fromCPUInfo text: String) -> String? {
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        return value.isEmpty ? nil : String(value)
    }
    return nil
}

#if canImport(Darwin)
/// A string value of Darwin's `sysctlbyname` (sized by a first call); `nil` when absent or empty.
private func _sysctlString(_ name: String) -> String? {
    var size = 0
    guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0, size < 1 << 16 else { return nil }
    var buffer = [UInt8](repeating: 0, count: size)
    guard sysctlbyname(name, &buffer, &size, nil, 0) == 0 else { return nil }
    let text = String(decoding: buffer.prefix(size).prefix { $0 != 0 }, as: UTF8.self)
    return text.isEmpty ? nil : text
}
#else
// Linux reads /proc/cpuinfo instead.
#endif
