import DiffLabCore
import DiffLabEngines
import DiffLabJSON
import DiffLabResults

/// `difflab diff OLD.json NEW.json [--engine E] [--batch] [--moves S] [--sections F,T] [--strings R]`.
enum DiffCommand: DeclaredCommand {
    /// `--engine`'s details: what each of the four algorithms is.
    static var enginesHelp: String {
        typealias Name = BuiltInEngines.Name
        let lines = [
            (Name.heckel, "IGListKit's IGListDiff semantics"), (Name.hashmap, "the same output as \(Name.heckel), optimised"),
            (Name.myers, "pairing from a minimal edit script"), (Name.stdlib, "Swift's difference(from:) + inferringMoves()"),
        ]
        return lines.map { "  " + padded($0.0, 9) + $0.1 }.joined(separator: "\n")
    }

    struct Options: DeclaredOptions {
        let files = Positionals("OLD.json NEW.json", count: 2...2) { "diff needs two files, OLD.json and NEW.json (got \($0))" }
        let engine = Option.engine(
            "engine", default: BuiltInEngines.Name.heckel, help: "the engine", details: DiffCommand.enginesHelp)
        let moves = Option<MoveStrategy>.choice(
            "moves", "STRATEGY", default: .offsets, help: "which items move (pairing engines)",
            details: """
                offsets: IGListKit's rule, an item moves when oldIndex - deletesBefore + insertsBefore != newIndex
                minimal: fewest moves; a longest increasing run stays put
                """)
        let batch = Flag("batch", help: "print the result safe for one UIKit performBatchUpdates: updates become delete + insert (forBatchUpdates())")
        let sections = Option<(from: Int, to: Int)>(
            "sections", "FROM,TO", help: "address items as [section, item] index paths: old indices in section FROM, new indices in section TO",
            constraint: "two non-negative integers, e.g. 0,1", parse: DiffCommand.parseSections)
        let strings = Option.strings
        init() {}
    }

    static let name = "diff"
    static let abstract = "diff two lists with any engine"
    static let discussion = """
        Diffs two lists and prints one JSON object on standard output:
          {"inserts":[...],"deletes":[...],"updates":[...],"moves":[{"from":i,"to":j},...]}
        inserts are new indices, deletes and updates old indices (all ascending); moves go from
        an old to a new index, ascending by "to".

        INPUT
          Each file holds a JSON array ('-' reads standard input). An element is either
            a string or number      its own identifier and content (1 and "1" differ), or
            {"id": S, "content": C} identifier S (a string or number), content C (any JSON,
                                    compared as a JSON value; absent means null).
          Numbers compare by value: 1, 1.0 and 1e0 are the same; integers are exact at any size
          (18446744073709551615 and 18446744073709551614 differ) up to about 1.8e308, larger
          numbers are an error. Strings compare literally, code point for code point, as IGListKit
          compares NSString identifiers: "\\u00e9" (é) and "e\\u0301" (e + combining accent) are two
          different items. --strings canonical treats such canonically equivalent spellings as one.
        """
    static let epilogue = """
        EXIT STATUS
          0 success, 64 bad command line, 65 bad input data, 66 input file unreadable
        """

    static func run(_ parsed: Parsed<Options>, console: Console) throws(CommandError) -> ExitStatus {
        let files = parsed[\.files]
        let engine = parsed.required(\.engine)
        var decoder = ElementDecoder(strings: parsed.required(\.strings))
        let old = try readList(files[0], &decoder)
        let new = try readList(files[1], &decoder)
        if engine.level == .changeset && parsed.isGiven(\.moves) {
            throw .usage("--moves applies to pairing engines; engine '\(engine.name)' reports its own moves")
        }
        let result = try engine.diff(old, new, moves: parsed.required(\.moves), batch: parsed[\.batch])
        console.out(render(result, sections: parsed[\.sections]).serialized() + "\n")
        return .success
    }

    /// Parses `F,T` into two non-negative section indices.
    static func parseSections(_ text: String) throws(CommandError) -> (from: Int, to: Int) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), from >= 0, to >= 0 else {
            throw .usage("--sections expects FROM,TO: two non-negative integers, e.g. 0,1 (got '\(text)')")
        }
        return (from, to)
    }

    /// The output object; with sections, every index becomes `[section, item]`.
    static func render(_ result: DiffResult, sections: (from: Int, to: Int)?) -> JSONValue {
        func index(_ i: Int, section: Int?) -> JSONValue {
            guard let section else { return .integer(i) }
            return .array([.integer(section), .integer(i)])
        }
        let from = sections?.from
        let to = sections?.to
        return .object(
            JSONObject([
                ("inserts", .array(result.inserts.map { index($0, section: to) })),
                ("deletes", .array(result.deletes.map { index($0, section: from) })),
                ("updates", .array(result.updates.map { index($0, section: from) })),
                (
                    "moves",
                    .array(
                        result.moves.map {
                            .object(JSONObject([("from", index($0.from, section: from)), ("to", index($0.to, section: to))]))
                        })
                ),
            ]))
    }
}
