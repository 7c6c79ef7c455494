import DiffLabBatch
import DiffLabBench
import DiffLabCore
import DiffLabEngines
import DiffLabFuzz
import DiffLabGate
import DiffLabJSON
import DiffLabReport
import DiffLabResults

/// The body of the `difflab-decode-fuzz` libFuzzer target: every decoder of a file DiffLab reads,
/// fed the same bytes, and what each decoded value must then survive.
///
/// The first byte picks the decoder (its low 7 bits modulo ``Decoder/allCases``) and, for lists and
/// models, the string rule (its high bit: literal when clear, canonical when set); the rest is the file.
/// A decoder may reject the bytes with its typed error — that is the expected answer to garbage —
/// but must never trap, hang or allocate without bound. What it accepts is then exercised:
/// - a batch update (`difflab validate`): validated; when valid, the sanitizer leaves it unchanged;
///   the sanitizer's result is a fixed point, and keeps only the violations it documents it cannot
///   repair (section count, item count);
/// - a list pair (`difflab diff`): diffed by `heckel` and `hashmap`, which must agree, and the
///   result's indices must lie in bounds;
/// - a sectioned model (`difflab stages`): staged, and the last stage's data must be the model;
/// - a regression case (`difflab replay`): replayed;
/// - a results file (`difflab report`): made into a report (the plotting code runs on its numbers);
///   a scenario grid's crossovers and recommendations are recomputed from its runs; an arena
///   file's record (`difflab-arena/1`, with its embedded bench) must write a document that reads
///   back to an equal record;
/// - a thresholds file (`difflab gate`): read;
/// - a costs file (`difflab policy --costs`): read; the costs it gives must pass
///   ``PolicyCosts/validate()`` and cost a finite time to apply at any list size;
/// - an updaters findings file (`difflab replay`, `difflab-updaters/1`): read; its record must
///   write a document that reads back to an equal record.
///
/// A broken invariant is a `preconditionFailure` naming it, so libFuzzer keeps the input.
package enum DecoderFuzzing {
    /// The decoders, in the order the selector byte picks them.
    package enum Decoder: UInt8, CaseIterable, Sendable {
        case batchUpdate, listPair, sectionedModel, regression, results, thresholds, policyCosts, updaterFindings
    }

    /// The biggest list or model the harness diffs, so one input stays fast (decoding itself is
    /// bounded by the input size).
    static let maxElements = 2_000

    /// Runs the decoder picked by `bytes[0]` on the rest and checks what it decodes.
    ///
    /// - Complexity: bounded by the decoders' own bounds and ``maxElements``.
    package static func check(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let decoder = Decoder.allCases[Int(selector & 0x7f) % Decoder.allCases.count]
        var elements = ElementDecoder(strings: selector & 0x80 == 0 ? .literal : .canonical)
        guard let document = try? JSONValue.parse(bytes: Array(bytes.dropFirst())) else { return }
        switch decoder {
        case .batchUpdate:
            guard let update = try? BatchUpdateJSON.decode(document, what: "fuzz") else { return }
            checkSanitizer(update)
        case .listPair:
            guard case .array(let pair) = document, pair.count == 2,
                let old = try? elements.list(from: pair[0], what: "old"),
                let new = try? elements.list(from: pair[1], what: "new"),
                old.count <= maxElements, new.count <= maxElements
            else { return }
            checkDiff(old, new)
        case .sectionedModel:
            guard case .array(let pair) = document, pair.count == 2,
                let old = try? JSONSections(json: pair[0], what: "old", decoder: &elements),
                let new = try? JSONSections(json: pair[1], what: "new", decoder: &elements),
                old.sections.reduce(0, { $0 + $1.items.count }) <= maxElements,
                new.sections.reduce(0, { $0 + $1.items.count }) <= maxElements
            else { return }
            let changeset = StagedChangeset(from: old, to: new, engine: HashMapEngine())
            if let last = changeset.stages.last, last.data != new {
                preconditionFailure("stages: the last stage's data is not the new model")
            }
        case .regression:
            guard let regression = try? RegressionCase(json: document) else { return }
            _ = try? regression.replay(on: FuzzSubject.builtIns)
        case .results:
            checkResults(document)
        case .thresholds:
            _ = try? GateThresholds(json: document)
        case .policyCosts:
            guard let record = try? PolicyCostsRecord(costsFile: document, source: "fuzz") else { return }
            let costs = PolicyCosts(record)
            do throws(ConfigurationError) { try costs.validate() } catch { preconditionFailure("costs file: accepted \(error)") }
            for reload in [false, true]
            where !costs.applyCost(batchChanges: 1 << 53, listSize: PolicyConfig.listSizeRange.upperBound, reload: reload).isFinite {
                preconditionFailure("costs file: an infinite apply cost")
            }
        case .updaterFindings:
            guard let findings = try? UpdaterFindingsFile(json: document, source: "fuzz") else { return }
            // One schema, written and read by the same record: what it writes must read back equal.
            if (try? UpdaterFindingsFile(json: findings.json, source: findings.source)) != findings {
                preconditionFailure("updaters findings file: the record's document does not read back equal")
            }
        }
    }

    /// Reads `document` as `difflab report` does and makes its report; see the type's documentation
    /// for what each schema must then survive.
    ///
    /// - Returns: the file read, `nil` when it is refused (the expected answer to garbage).
    @discardableResult
    package static func checkResults(_ document: JSONValue) -> ResultsFile? {
        guard let results = try? ResultsFile(document, source: "fuzz") else { return nil }
        _ = try? makeReport([results])
        switch results {
        case .policyGrid(let grid):
            _ = PolicyAnalysis.crossovers(grid.runs)
            _ = PolicyAnalysis.recommendations(grid.runs, latencyBound: grid.options?.latencyBound ?? 0.25)
        case .arena(let arena):
            // One schema, written and read by the same record: what it writes must read back equal.
            if (try? ArenaResults(json: arena.json, source: arena.source)) != arena {
                preconditionFailure("arena file: the record's document does not read back equal")
            }
        case .traceBench(let bench):
            if (try? TraceBenchResults(json: bench.json, source: bench.source)) != bench {
                preconditionFailure("trace bench file: the record's document does not read back equal")
            }
        case .bench, .policy, .updaters:
            // An updaters findings file's round trip is checked by its own decoder (`updaterFindings`).
            break
        }
        return results
    }

    /// The sanitizer's contract on `update`; see the type's documentation.
    static func checkSanitizer(_ update: BatchUpdate) {
        let violations = update.violations()
        let sanitized = update.sanitized()
        if violations.isEmpty && sanitized != update {
            preconditionFailure("sanitizer changed a valid update")
        }
        if sanitized.sanitized() != sanitized {
            preconditionFailure("sanitizer is not idempotent")
        }
        let unrepairable: Set<String> = ["section-count", "item-count"]
        if let left = sanitized.violations().first(where: { !unrepairable.contains($0.rule) }) {
            preconditionFailure("sanitizer left a repairable violation: \(left.rule): \(left.message)")
        }
    }

    /// `heckel` and `hashmap` agree, and every index is in bounds.
    static func checkDiff(_ old: [JSONElement], _ new: [JSONElement]) {
        let heckel = HeckelEngine().diff(from: old, to: new, moves: .offsets)
        let hashmap = HashMapEngine().diff(from: old, to: new, moves: .offsets)
        if heckel != hashmap { preconditionFailure("\(BuiltInEngines.Name.heckel) and \(BuiltInEngines.Name.hashmap) disagree") }
        let oldRange = 0..<old.count
        let newRange = 0..<new.count
        guard heckel.deletes.allSatisfy(oldRange.contains), heckel.updates.allSatisfy(oldRange.contains),
            heckel.inserts.allSatisfy(newRange.contains),
            heckel.moves.allSatisfy({ oldRange.contains($0.from) && newRange.contains($0.to) })
        else { preconditionFailure("an index out of bounds") }
    }
}
