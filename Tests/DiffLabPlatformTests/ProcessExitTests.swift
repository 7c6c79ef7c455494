import DiffLabPlatform
import Testing

/// Set by the handler below, which runs only when the test process ends.
nonisolated(unsafe) private var exitHandlerRan = false

/// `runAtExit` (ProcessExit.swift) registers a handler; it does not run it before the end.
@Suite("DiffLabPlatform: a handler at exit")
struct ProcessExitTests {
    @Test func aHandlerIsRegisteredAndNotRunBeforeTheProcessEnds() {
        #expect(runAtExit { exitHandlerRan = true })
        #expect(!exitHandlerRan)
    }
}
