import DiffLabCore
import DiffLabFormatting
import DiffLabFuzz
import DiffLabJSON
import DiffLabPlatform
import DiffLabProcess
import DiffLabResults
import DiffLabUpdaters

/// Crash isolation for `difflab updaters`, as `difflab fuzz` isolates engines: each updater's
/// campaign runs in a process of its own — a forked copy of this process (Linux), or this program
/// started again as a worker (`--isolation spawn`, where `fork` is unavailable) — which writes the
/// updater's record (``UpdaterFindingsFile/Updater``) to a file of the run's private folder and
/// exits 0. An updater whose code traps (or crashes) ends only that process: its record says so
/// (`crash`), with no shrunk run; one that hangs inside a step (a loop the step budget cannot
/// see, as it counts steps, not the work inside one) is stopped after `seconds`.
///
/// What is not isolated: `difflab replay` of a findings file re-runs each finding in this
/// process (a trap there ends the replay); and a crash is not narrowed down to the run or the
/// step that caused it (the campaign's process is gone, and with it the runs it had made).
struct UpdatersIsolation: Sendable {
    /// Fork or spawn (never `none`).
    var how: FuzzIsolationChoice
    /// A campaign still running after this long has hung.
    var seconds: Double
    /// The most bytes of a record read back.
    var maxRecordBytes: Int
    /// The worker command line for an updater, `--isolation-job` last: the result file's path is appended.
    var worker: @Sendable (UpdaterSubject) -> FuzzWorkerCommand

    /// Why an isolated campaign could not run: a failure of the machinery, never of the updater.
    enum Failure: Error, CustomStringConvertible {
        case process(ProcessError)
        case worker(String, status: Int32)
        case unreadable(String)

        var description: String {
            switch self {
            case .process(let error): error.description
            case .worker(let name, let status):
                "the campaign process of \(name) exited with status \(status) without its results (see its message above)"
            case .unreadable(let reason): "the campaign process's results are unreadable: \(reason)"
            }
        }
    }

    /// Runs `subject`'s campaign in an isolated process; its record, or one saying it crashed or hung.
    func campaign(
        _ subject: UpdaterSubject, engine: UpdaterEngine, campaign: UpdaterFindingsFile.Campaign
    ) throws(Failure) -> UpdaterFindingsFile.Updater {
        let folder: String
        do { folder = try Cleanup.shared.makeTemporaryDirectory("difflab-updaters") } catch { throw .process(error) }
        defer { Cleanup.shared.removeTemporaryDirectory(folder) }
        let path = folder + "/updater.json"
        let pid: Int32
        do throws(ProcessError) {
            switch how {
            case .spawn:
                let command = worker(subject)
                pid = try spawnProcess(command.executable, command.arguments + [path], environment: ["SWIFT_BACKTRACE": "enable=no"])
            case .fork, .none:
                pid = try forkChild {
                    restoreDefaultCrashHandling()
                    Self.writeRecordAndEnd(UpdatersCommand.campaignRecord(subject, engine: engine, campaign: campaign), to: path)
                }
            }
        } catch {
            throw .process(error)
        }
        let deadline = monotonicNow() + seconds
        while !processHasEnded(pid) {
            if monotonicNow() > deadline {
                try? sendSignal(.kill, to: pid)
                _ = waitProcessStatus(pid)
                return UpdaterFindingsFile.Updater(
                    name: subject.name, checked: [], findings: [],
                    crash: .init(kind: .hung, message: "its campaign ran past --campaign-seconds \(formatPlain(seconds)) s and was stopped"))
            }
            sleep(seconds: 0.005)
        }
        let status = waitProcessStatus(pid)
        let signal = status & 0x7f
        if signal != 0 {
            return UpdaterFindingsFile.Updater(
                name: subject.name, checked: [], findings: [],
                crash: .init(
                    kind: .crashed,
                    message: "its campaign process died by \(signalName(signal)) (a trap is a failed precondition, a range check or a force-unwrap)"))
        }
        guard (status >> 8) & 0xff == 0 else { throw .worker(subject.name, status: (status >> 8) & 0xff) }
        let bytes: [UInt8]
        do { bytes = try readFile(path, limit: maxRecordBytes, regularOnly: true) } catch { throw .unreadable(error.description) }
        do {
            let record = try UpdaterFindingsFile.Updater(
                json: try JSONValue.parse(bytes: bytes), source: path, runs: campaign.runs)
            guard record.name == subject.name else { throw Failure.unreadable("a record of \(record.name), not of \(subject.name)") }
            return record
        } catch let error as Failure {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// In a spawned worker (`difflab updaters --updaters NAME --isolation-job FILE`): runs the
    /// campaign of `subject` and writes its record to `path`, then ends the process (0; 3 when the
    /// record cannot be written).
    static func runWorker(job path: String, subject: UpdaterSubject, engine: UpdaterEngine, campaign: UpdaterFindingsFile.Campaign) -> Never {
        restoreDefaultCrashHandling()
        writeRecordAndEnd(UpdatersCommand.campaignRecord(subject, engine: engine, campaign: campaign), to: path)
    }

    /// Writes `record` to a new file at `path` (never through a link, never over a file) and ends
    /// the process: 0 when written, 3 otherwise.
    static func writeRecordAndEnd(_ record: UpdaterFindingsFile.Updater, to path: String) -> Never {
        do throws(PlatformError) {
            let descriptor = try FileDescriptor.open(path, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o600)
            defer { descriptor.closeIgnoringErrors() }
            try descriptor.writeAll(Array(record.json.serialized().utf8))
        } catch {
            try? FileDescriptor.standardError.writeAll(Array("updaters worker: cannot write \(path): \(error.message)\n".utf8))
            endChild(3)
        }
        endChild(0)
    }
}
