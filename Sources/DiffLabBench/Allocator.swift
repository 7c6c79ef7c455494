import DiffLabPlatform
import DiffLabResults

extension MemoryAllocator {
    /// The allocator this process runs on: jemalloc when its `mallctl` is found, else the system's.
    package static var current: MemoryAllocator { JemallocStats.current == nil ? .system : .jemalloc }
}

/// jemalloc's statistics, when the process runs on jemalloc (inserted by `LD_PRELOAD` on Linux or
/// `DYLD_INSERT_LIBRARIES` on Darwin: DiffLabPlatform's `JemallocLibrary`).
///
/// DiffLab does not link jemalloc: one binary runs under the system allocator or, preloaded, under
/// jemalloc, so both can be measured side by side by two processes of the same build.
/// `mallctl` is looked up at run time.
package struct JemallocStats: @unchecked Sendable {
    typealias Mallctl =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
        ) -> Int32
    let mallctl: Mallctl
    let allocatedPointer: UnsafeMutablePointer<UInt64>

    /// The statistics of this process's jemalloc, or `nil` when malloc is not jemalloc.
    package static let current: JemallocStats? = {
        guard let symbol = globalSymbol("mallctl") else { return nil }
        let mallctl = unsafeBitCast(symbol, to: Mallctl.self)
        var pointer: UnsafeMutablePointer<UInt64>?
        var length = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
        guard mallctl("thread.allocatedp", &pointer, &length, nil, 0) == 0, let pointer else { return nil }
        return JemallocStats(mallctl: mallctl, allocatedPointer: pointer)
    }()

    /// Bytes this thread has allocated so far (`thread.allocatedp`). - Complexity: O(1).
    package var threadAllocatedBytes: UInt64 { allocatedPointer.pointee }

    /// Allocation requests of all arenas so far (`stats.arenas.<all>.{small,large}.nrequests`),
    /// after flushing this thread's cache and bumping the statistics epoch, so the count is exact.
    package func allocationRequests() -> UInt64 {
        _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
        var epoch: UInt64 = 1
        var previous: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &previous, &length, &epoch, MemoryLayout<UInt64>.size)
        return read("stats.arenas.4096.small.nrequests") + read("stats.arenas.4096.large.nrequests")
    }

    /// jemalloc's version string.
    package var version: String {
        var pointer: UnsafePointer<CChar>?
        var length = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &pointer, &length, nil, 0) == 0, let pointer else { return "unknown" }
        return String(cString: pointer)
    }

    private func read(_ name: String) -> UInt64 {
        var value: UInt64 = 0
        var length = MemoryLayout<UInt64>.size
        return mallctl(name, &value, &length, nil, 0) == 0 ? value : 0
    }
}
