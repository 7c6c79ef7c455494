import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess

/// Path dependencies of a package built in a gate worktree.
///
/// A user's package usually depends on DiffLab by a relative path (`.package(path: "../DiffLab")`).
/// SwiftPM resolves such a path from the manifest's folder, so in a worktree under
/// `.build/gate/` it points somewhere else. The gate therefore nests the worktree deep enough
/// that every relative path stays inside the worktree's own folder, and puts a symbolic link
/// where each one lands, to the folder it names from the real checkout. Absolute paths need
/// nothing; a path inside the repository is checked out with it.
enum GateWorktree {
    /// The relative paths (from the package's folder) of the package's path dependencies that lie
    /// outside `root`, the repository: what a worktree must link. Read from
    /// `swift package dump-package`, whose paths are absolute, resolved from `packagePath`.
    ///
    /// - Parameter scratch: a file for the command's output (in DiffLab's own `.build/gate/`).
    /// - Throws: ``CommandError`` (status 1) when the manifest cannot be read.
    static func externalPaths(packagePath: String, root: String, scratch: String) throws(CommandError) -> [String] {
        let status = try asCommandError { () throws(ProcessError) in
            try runProcess(
                "swift", ["package", "dump-package", "--package-path", packagePath], stdout: scratch, stderr: scratch + ".err")
        }
        defer {
            try? FileSystem.removeFile(scratch)
            try? FileSystem.removeFile(scratch + ".err")
        }
        guard status == 0 else {
            throw CommandError(.failure, "cannot read the package manifest in \(packagePath) (`swift package dump-package` exited \(status))")
        }
        let manifest: JSONValue
        do { manifest = try JSONValue.parse(bytes: try readInputFile(scratch)) } catch {
            throw CommandError(.failure, "`swift package dump-package` printed malformed JSON: \(error)")
        }
        var paths: [String] = []
        for dependency in manifest["dependencies"]?.arrayValue ?? [] {
            for entry in dependency["fileSystem"]?.arrayValue ?? [] {
                guard let path = entry["path"]?.stringValue else { continue }
                let absolute = normalized(path)
                if absolute == root || absolute.hasPrefix(root + "/") { continue }
                paths.append(relative(from: normalized(packagePath), to: absolute))
            }
        }
        return paths
    }

    /// How many folders deep under its gate folder a worktree must sit so that `paths`, relative
    /// to the package at `prefix` inside the repository, all stay below that folder.
    static func nesting(for paths: [String], prefix: String) -> Int {
        let depth = prefix.split(separator: "/").count
        let ups = paths.map { $0.split(separator: "/").prefix { $0 == ".." }.count }.max() ?? 0
        return max(0, ups - depth)
    }

    /// Links where each of `paths` lands from `workPackage` to the folder it names from
    /// `realPackage`, when that folder exists and nothing is there yet; each link must land
    /// inside `folder` (the gate's folder for this build), or the path is left alone.
    static func link(_ paths: [String], workPackage: String, realPackage: String, inside folder: String) throws(CommandError) {
        for path in paths {
            let landing = normalized(workPackage + "/" + path)
            let target = normalized(realPackage + "/" + path)
            guard landing.hasPrefix(folder + "/"), pathExists(target), !pathExists(landing) else { continue }
            if let slash = landing.lastIndex(of: "/") {
                try asCantCreate { () throws(OutputFileError) in try makeDirectories(String(landing[..<slash])) }
            }
            do throws(PlatformError) {
                try FileSystem.makeSymbolicLink(at: landing, to: target)
            } catch {
                throw CommandError(.failure, "cannot link \(landing) to \(target): \(error.message)")
            }
        }
    }

    /// `path` made absolute (from the working directory) with `.` and `..` resolved lexically.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The relative path from folder `base` to `target`, both absolute and normalized.
    static func relative(from base: String, to target: String) -> String {
        let a = base.split(separator: "/")
        let b = target.split(separator: "/")
        var common = 0
        while common < a.count && common < b.count && a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
