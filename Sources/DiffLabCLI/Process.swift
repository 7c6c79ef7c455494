import DiffLabCore
import DiffLabProcess

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs this executable again with `arguments` and `environment` changes (`nil` removes a
/// variable), waiting for it; standard streams are inherited. The global options of this run
/// (``DiffLabCommand/forwardedArguments``) come first, so the worker has the same input limit and
/// engines.
///
/// - Returns: the child's exit status.
func runSelf(_ arguments: [String], environment changes: [String: String?]) throws(CommandError) -> Int32 {
    try asCommandError { () throws(ProcessError) in
        try runProcess(
            "/proc/self/exe", DiffLabCommand.forwardedArguments + arguments, environment: changes,
            argumentZero: CommandLine.arguments.first ?? "difflab")
    }
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
    fields.append(("cpu", commandOutput("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'") ?? "unknown"))
    fields.append(("cores", String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    fields.append(("memoryBytes", String(sysconf(Int32(_SC_PHYS_PAGES)) * sysconf(Int32(_SC_PAGESIZE)))))
    return fields
}
