#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("DiffLabPlatform supports Glibc (Linux) and Darwin only")
#endif

/// What the child does with its descriptors before it runs the program (`posix_spawn` file
/// actions, applied in order).
package enum SpawnFileAction: Sendable {
    /// Opens `path` as descriptor `target` (`posix_spawn_file_actions_addopen`). The descriptor is
    /// the child's standard stream, so it is not close-on-exec.
    case open(target: FileDescriptor, path: String, access: FileDescriptor.Access, options: FileDescriptor.Options, permissions: UInt16)
    /// Makes `source` the child's `target` (`posix_spawn_file_actions_adddup2`).
    case duplicate(FileDescriptor, as: FileDescriptor)
}

/// A process to start with ``spawnProcess(_:)``.
package struct SpawnRequest: Sendable {
    /// A path (with a `/`), or a name looked up on `PATH` (`posix_spawnp`).
    package var executable: String
    /// `argv[1...]`.
    package var arguments: [String]
    /// `argv[0]`; the executable when `nil`.
    package var argumentZero: String?
    /// The child's whole environment, `NAME=value` entries.
    package var environment: [String]
    /// The folder the child starts in; this process's when `nil`.
    package var workingDirectory: String?
    /// Whether the child leads a process group of its own (its id is the group's), so a signal to
    /// the group reaches it and whatever it starts.
    package var newProcessGroup = false
    /// Signals whose handling the child starts with at the default (`POSIX_SPAWN_SETSIGDEF`),
    /// whatever this process does with them. The child's signal mask always starts empty.
    package var defaultSignals: [Signal] = []
    /// What the child does with its descriptors first.
    package var fileActions: [SpawnFileAction] = []

    /// A request to run `executable` with `arguments` in this process's environment.
    package init(_ executable: String, _ arguments: [String], environment: [String]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

/// Starts `request`'s process with `posix_spawn` (no `fork`, so it is safe in a threaded process
/// and the same on Linux and Darwin): its id.
///
/// The working directory is set by `posix_spawn_file_actions_addchdir_np`: glibc 2.29 and later;
/// macOS since 10.15 (on iOS and the other Apple systems it is private: a working directory then
/// fails with `ENOSYS`; deprecated in macOS 26 for the POSIX.1-2024 name
/// `posix_spawn_file_actions_addchdir`, which DiffLab's macOS 15 deployment target predates; see
/// https://www.austingroupbugs.net/view.php?id=1208). `posix_spawn_file_actions_t` and
/// `posix_spawnattr_t` are optional pointers on Darwin and structures on Linux
/// (``SpawnFileActions``).
///
/// - Throws: ``PlatformError`` naming `posix_spawn` and the executable (the code is the one
///   `posix_spawn` returned: `ENOENT` for a missing program).
/// - Complexity: one process creation; O(arguments + environment) to copy them.
package func spawnProcess(_ request: SpawnRequest) throws(PlatformError) -> pid_t {
    let argv = ([request.argumentZero ?? request.executable] + request.arguments).map { strdup($0) } + [nil]
    let envp = request.environment.map { strdup($0) } + [nil]
    var actions = emptySpawnFileActions()
    posix_spawn_file_actions_init(&actions)
    var attributes = emptySpawnAttributes()
    posix_spawnattr_init(&attributes)
    defer {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        for pointer in argv { free(pointer) }
        for pointer in envp { free(pointer) }
    }
    // The change of folder comes first, so a relative path of a file action is opened there
    // (actions apply in the order they were added, on Linux and Darwin alike).
    if let directory = request.workingDirectory {
        let added = _addWorkingDirectory(&actions, directory)
        guard added == 0 else { throw PlatformError(.init(rawValue: added), operation: "posix_spawn_file_actions_addchdir_np", path: directory) }
    }
    for action in request.fileActions {
        switch action {
        case .open(let target, let path, let access, let options, let permissions):
            posix_spawn_file_actions_addopen(&actions, target.rawValue, path, access.flag | options.rawValue, mode_t(permissions))
        case .duplicate(let source, let target):
            posix_spawn_file_actions_adddup2(&actions, source.rawValue, target.rawValue)
        }
    }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in request.defaultSignals { sigaddset(&defaults, signal.rawValue) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
    if request.newProcessGroup {
        posix_spawnattr_setpgroup(&attributes, 0)
        flags |= Int32(POSIX_SPAWN_SETPGROUP)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid: pid_t = 0
    let spawned =
        request.executable.contains("/")
        ? posix_spawn(&pid, request.executable, &actions, &attributes, argv, envp)
        : posix_spawnp(&pid, request.executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw PlatformError(.init(rawValue: spawned), operation: "posix_spawn", path: request.executable) }
    return pid
}

#if os(macOS)
/// macOS declares `posix_spawn_file_actions_addchdir_np` in `<spawn.h>` (macOS 10.15+).
private func _addWorkingDirectory(_ actions: inout SpawnFileActions, _ directory: String) -> Int32 {
    posix_spawn_file_actions_addchdir_np(&actions, directory)
}
#elseif canImport(Darwin)
/// iOS, tvOS, watchOS and visionOS: `<spawn.h>` marks `posix_spawn_file_actions_addchdir_np`
/// `__SPI_AVAILABLE(ios(13.0), ...)`, private to Apple, so a public SDK cannot call it: `ENOSYS`.
/// (No process is started in an iOS test target anyway: the fuzzer runs in-process there.)
private func _addWorkingDirectory(_ actions: inout SpawnFileActions, _ directory: String) -> Int32 {
    ENOSYS
}
#else
/// glibc (2.29+) has `posix_spawn_file_actions_addchdir_np`, but Swift's Glibc module does not
/// declare it (it is a GNU extension), so it is looked up by name; `ENOSYS` on an older C library.
private func _addWorkingDirectory(_ actions: inout SpawnFileActions, _ directory: String) -> Int32 {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    guard let symbol = globalSymbol("posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
    return unsafeBitCast(symbol, to: AddChdir.self)(&actions, directory)
}
#endif
