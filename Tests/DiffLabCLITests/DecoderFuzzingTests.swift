import DiffLabCLI
import DiffLabDecodeFuzzing
import DiffLabJSON
import DiffLabPlatform
import DiffLabResults
import Testing

/// The libFuzzer target difflab-decode-fuzz runs `DecoderFuzzing.check`; its seeds and every input
/// it ever crashed on (kept in Corpus/decode-fuzz-regressions) must now pass through it. A broken
/// invariant is a precondition failure, so a regression ends the test process (and fails the run).
@Suite("difflab-decode-fuzz corpus")
struct DecoderFuzzingTests {
    static func inputs(_ folder: String) -> [String] {
        (FileSystem.directoryEntries(folder) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { folder + "/" + $0 }
    }

    @Test(arguments: inputs("Corpus/decode-fuzz-regressions") + inputs("Corpus/decode-fuzz-seeds"))
    func passesTheDecoderHarness(_ path: String) throws {
        let bytes = try readInputFile(path)
        #expect(!bytes.isEmpty)
        DecoderFuzzing.check(bytes)
    }

    /// The results decoder reads arena files (`difflab-arena/1`, with an embedded bench) as
    /// `difflab report` does, makes their report and checks that the record reads back equal.
    @Test func theResultsDecoderTakesArenaDocuments() throws {
        let text = ReportCommandTests.arena
        let results = try #require(DecoderFuzzing.checkResults(try JSONValue.parse(text)))
        guard case .arena(let arena) = results else {
            Issue.record("not read as an arena file: \(results.schema)")
            return
        }
        #expect(arena.contestants.map(\.engine) == ["listdiff", "hashmap"] && arena.bench?.measurements.count == 2)
        // Through the libFuzzer entry point: the selector byte, then the file.
        DecoderFuzzing.check([DecoderFuzzing.Decoder.results.rawValue] + Array(text.utf8))
        // A refused arena file is the expected answer to garbage, not a crash.
        #expect(DecoderFuzzing.checkResults(try JSONValue.parse(#"{"schema":"difflab-arena/1","options":{}}"#)) == nil)
    }

    @Test func theCorpusIsThere() {
        #expect(Self.inputs("Corpus/decode-fuzz-regressions").count >= 1)
        #expect(Self.inputs("Corpus/decode-fuzz-seeds").count >= 6)
        // A seed for every decoder, the costs file's included.
        let selectors = Set(Self.inputs("Corpus/decode-fuzz-seeds").compactMap { (try? readInputFile($0))?.first.map { $0 & 0x7f } })
        #expect(selectors == Set(DecoderFuzzing.Decoder.allCases.map(\.rawValue)))
    }
}
