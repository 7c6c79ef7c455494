import DiffLabCore
import DiffLabPlatform
import DiffLabProcess

/// Runs this executable again with `arguments` and `environment` changes (`nil` removes a
/// variable), waiting for it; standard streams are inherited. The global options of this run
/// (``DiffLabCommand/forwardedArguments``) come first, so the worker has the same input limit and
/// engines.
///
/// - Returns: the child's exit status.
func runSelf(_ arguments: [String], environment changes: [String: String?]) throws(CommandError) -> Int32 {
    let executable = try selfExecutable()
    return try asCommandError { () throws(ProcessError) in
        try runProcess(
            executable, DiffLabCommand.forwardedArguments + arguments, environment: changes,
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

/// The path of jemalloc's shared library, when installed.
package func jemallocLibraryPath() -> String? {
    let candidates = [
        "/lib/x86_64-linux-gnu/libjemalloc.so.2", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
        "/lib/aarch64-linux-gnu/libjemalloc.so.2", "/usr/lib/aarch64-linux-gnu/libjemalloc.so.2",
        "/usr/lib/libjemalloc.so.2", "/usr/local/lib/libjemalloc.so.2",
    ]
    return candidates.first { access($0, R_OK) == 0 }
}

/// Facts about this machine for a results file.
func machineJSONFields() -> [(String, String)] {
    var fields: [(String, String)] = []
    var name = utsname()
    uname(&name)
    func text<T>(_ value: T) -> String {
        withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    fields.append(("hostname", text(name.nodename)))
    fields.append(("kernel", "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))"))
    // Linux names the model in /proc/cpuinfo; Darwin answers sysctl.
    let model =
        "grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' | grep . || sysctl -n machdep.cpu.brand_string 2>/dev/null"
    fields.append(("cpu", commandOutput(model) ?? "unknown"))
    fields.append(("cores", String(onlineProcessors())))
    fields.append(("memoryBytes", physicalMemoryBytes().map { String($0) } ?? "unknown"))
    return fields
}
