import DiffLabCore
import DiffLabPlatform
import DiffLabProcess

/// Runs this executable again with `arguments` and `environment` changes (`nil` removes a
/// variable), waiting for it; standard streams are inherited. `globals` come first: by default
/// every global option of this run (``DiffLabCommand/forwardedArguments``), so the worker has the
/// same input limit and engines; a worker of one engine takes only its own
/// (``DiffLabCommand/workerGlobals(for:)``).
///
/// - Returns: the child's exit status, or 128 + the signal that ended it.
func runSelf(_ arguments: [String], globals: [String]? = nil, environment changes: [String: String?]) throws(CommandError) -> Int32 {
    let executable = try selfExecutable()
    return try asCommandError { () throws(ProcessError) in
        try runProcess(
            executable, (globals ?? DiffLabCommand.forwardedArguments) + arguments, environment: changes,
            argumentZero: CommandLine.arguments.first ?? "difflab")
    }
}

/// The path to run this executable again with (``executablePathForSpawning()``: `/proc/self/exe` on
/// Linux, the resolved path on Darwin).
///
/// - Throws: ``CommandError`` when the platform cannot say where the executable is.
func selfExecutable() throws(CommandError) -> String {
    guard let path = executablePathForSpawning() else {
        throw CommandError(.failure, "cannot find the path of this executable to start a worker process")
    }
    return path
}

/// The path of jemalloc's shared library, when installed (``JemallocLibrary/installedPath()``:
/// `libjemalloc.so.2` on Linux, Homebrew's `libjemalloc.dylib` on Darwin).
package func jemallocLibraryPath() -> String? { JemallocLibrary.installedPath() }

/// The environment changes that start a worker on jemalloc at `library` (`LD_PRELOAD` on Linux,
/// `DYLD_INSERT_LIBRARIES` on Darwin), or on the system allocator when `library` is `nil` (both
/// variables removed, so an inherited one does not decide).
func allocatorEnvironment(_ library: String?) -> [String: String?] {
    var environment: [String: String?] = [:]
    for platform in PlatformKind.allCases { environment[JemallocLibrary.insertionVariable(platform)] = .some(nil) }
    if let library { environment[JemallocLibrary.insertionVariable()] = library }
    return environment
}

/// Facts about this machine for a results file (``MachineFacts``: `uname`, and the processor's
/// model from `/proc/cpuinfo` on Linux or `sysctlbyname` on Darwin; no shell).
func machineJSONFields() -> [(String, String)] {
    let machine = MachineFacts.current()
    return [
        ("hostname", machine.hostname), ("kernel", machine.kernel), ("cpu", machine.processorModel ?? "unknown"),
        ("cores", String(onlineProcessors())), ("memoryBytes", physicalMemoryBytes().map { String($0) } ?? "unknown"),
    ]
}
