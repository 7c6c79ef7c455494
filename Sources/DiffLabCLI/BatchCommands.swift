import DiffLabBatch
import DiffLabCore
import DiffLabEngines
import DiffLabJSON
import DiffLabResults

/// `difflab validate UPDATE.json`.
enum ValidateCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let file = Positionals("UPDATE.json", count: 1...1) { "validate needs one file, UPDATE.json (got \($0))" }
        init() {}
    }

    static let name = "validate"
    static let abstract = "check a batch update against UIKit's rules"
    static let discussion = """
        Checks one UICollectionView batch update against UIKit's performBatchUpdates rules.
        UPDATE.json ('-' for standard input) holds:
          {"before":[item counts per section],"after":[...],
           "insertSections":[s,..],"deleteSections":[s,..],"reloadSections":[s,..],
           "moveSections":[{"from":a,"to":b},..],
           "insertItems":[[s,i],..],"deleteItems":[[s,i],..],"reloadItems":[[s,i],..],
           "moveItems":[{"from":[s,i],"to":[s,i]},..]}
        Absent keys mean empty. Deletes, reloads and move sources address the state before the
        update; inserts and move destinations the state after it. Item counts are integers from
        0 to 9223372036854775807 (items are never materialised, so any count costs the same);
        indices any 64-bit integers (out of bounds is a violation). Validation takes
        O(S + k log k) time for S sections and k listed operations.

        OUTPUT
          valid                  (exit 0) when UIKit accepts the update;
          one line per violation (exit 1), with UIKit's exception message.
        """
    static let epilogue = """
        EXIT STATUS
          0 valid, 1 invalid, 64 bad command line, 65 malformed input, 66 input file unreadable
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let path = parsed[\.file][0]
        let document = try readJSON(path)
        let update: BatchUpdate
        do { update = try BatchUpdateJSON.decode(document, what: path) } catch { throw CommandError(error) }
        let violations = update.violations()
        if violations.isEmpty {
            console.out("valid\n")
            return .success
        }
        console.out(violations.map { $0.message + "\n" }.joined())
        return .failure
    }
}

/// `difflab stages OLD.json NEW.json [--engine E] [--strings R]`.
enum StagesCommand: DeclaredCommand {
    struct Options: DeclaredOptions {
        let files = Positionals("OLD.json NEW.json", count: 2...2) { "stages needs two files, OLD.json and NEW.json (got \($0))" }
        let engine = Option.engine(
            "engine", default: BuiltInEngines.Name.hashmap, help: "pairs sections and items: an engine that exposes its pairing",
            among: { $0.level == .pairing })
        let strings = Option.strings
        init() {}
    }

    static let name = "stages"
    static let abstract = "split a sectioned diff into valid batch-update stages"
    static let discussion = """
        Splits a sectioned diff into stages that are each a valid batch update on their own
        intermediate data (as DifferenceKit's StagedChangeset): updates, then deletes, then
        section inserts and moves, then item inserts and moves (across sections too).

        INPUT
          Each file holds [{"id": S, "items": [elements]}, ...]: S a string or number, elements
          as in 'difflab diff' (a scalar, or {"id": ..., "content": ...}). Numbers and strings
          compare as in 'difflab diff': integers exactly, strings literally by default (with
          --strings canonical, the data shows the first spelling read, OLD before NEW).

        OUTPUT
          A JSON array of stages: {"data": [sections, as the input], "changes": {the keys of
          'difflab validate' input, without before/after}}. The last stage's data is NEW.
        """
    static let epilogue = """
        EXIT STATUS
          0 success, 64 bad command line, 65 bad input data, 66 input file unreadable
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let files = parsed[\.files]
        let engine = parsed.required(\.engine)
        var decoder = ElementDecoder(strings: parsed.required(\.strings))
        let old = try model(try readJSON(files[0]), what: files[0], &decoder)
        let new = try model(try readJSON(files[1]), what: files[1], &decoder)
        let changeset = try engine.stages(old, new)
        let stages: [JSONValue] = changeset.stages.map { stage in
            .object(JSONObject([("data", stage.data.json), ("changes", BatchUpdateJSON.encodeChanges(stage.changes))]))
        }
        console.out(JSONValue.array(stages).serialized() + "\n")
        return .success
    }

    /// Decodes a sectioned list (``JSONSections/init(json:what:decoder:)``); `decoder` applies the
    /// `--strings` rule to section ids and items.
    static func model(_ value: JSONValue, what: String, _ decoder: inout ElementDecoder) throws(CommandError) -> JSONSections {
        do { return try JSONSections(json: value, what: what, decoder: &decoder) } catch { throw CommandError(error) }
    }
}
