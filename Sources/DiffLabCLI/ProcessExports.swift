import DiffLabBench
// The formatters (`formatBytes`, `formatPlain`, `NumberStyle`, `UTCDateTime`, ...) moved from
// DiffLabResults to DiffLabFormatting (issue 44); `import DiffLabCLI` still reaches them.
@_exported import DiffLabFormatting
// The process code moved to DiffLabProcess (issue 27); `import DiffLabCLI` (the DiffLabCLI
// module) still reaches `ProcessEngine`, `WireElement` and `WireValue` under their old names.
@_exported import DiffLabProcess
import DiffLabProcess
// `JSONElement` (the element `difflab diff` reads, in `RegisteredEngine`'s inlinable code) moved
// to DiffLabResults with the other input files; `import DiffLabCLI` still reaches it.
@_exported import DiffLabResults

/// `difflab bench` reports an `--engine-command` engine's memory as its process's peak resident
/// set size (``ProcessEngine/engineProcessPeakRSSBytes()``), not with its own counters.
extension ProcessEngine: OutOfProcessEngine {}
