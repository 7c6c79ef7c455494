import DiffLabFormatting
import DiffLabResults

/// A bug report, ready to send upstream, for one failure the arena found in a library: what the
/// library produced on the shrunk input, why that is wrong, a valid answer, whether the input is
/// within the library's documented promises, and how to reproduce it.
///
/// Everything from the file is escaped: lists, updates, messages and the replay command are in
/// fenced code blocks (``Markdown/codeBlock(_:)``), quoted documentation in code spans (no
/// `@mention` or `#123` reference can ping anyone upstream), names as plain text.
struct ArenaFinding {
    let results: ArenaResults
    let contestant: ArenaContestant
    let failure: ArenaFailure

    /// The library as the title names it: `DifferenceKit 1.3.0`.
    private var libraryLabel: String {
        let name = contestant.displayName
        return contestant.about.version.isEmpty ? name : name + " " + contestant.about.version
    }

    /// What went wrong, in a few words, for the title.
    private var what: String {
        switch failure.kind {
        case .crash: return "crashes"
        case .hang: return "does not return"
        case .failure:
            switch failure.property {
            case "batch-valid": return "produces an invalid batch update"
            case "staged-valid": return "produces an invalid staged changeset"
            case "raw-sound": return "produces an unsound diff"
            default: return "fails the \(Markdown.literal(Markdown.brief(failure.property, 64))) check"
            }
        }
    }

    /// The report's markdown. O(size of the failure's texts).
    var markdown: String {
        var lines: [String] = []
        let input = failure.scope == .sectioned ? "sectioned lists" : "a list"
        lines.append(
            "# " + Markdown.text(libraryLabel)
                + " \(what) on \(input) \(failure.duplicates ? "that repeats an identifier" : "with unique identifiers")")
        lines.append("")
        lines.append(identification)
        lines.append("")
        lines.append("## The input (shrunk)")
        lines.append("")
        lines.append("Old:")
        lines.append("")
        lines.append(Markdown.codeBlock(failure.old))
        lines.append("New:")
        lines.append("")
        lines.append(Markdown.codeBlock(failure.new))
        lines.append(
            "How to read the lists: each element is an identifier, or `identifier:content` — `0:1` is identifier 0 with content 1 "
                + "(an element without `:` has content 0). Elements with the same identifier are the same item; a changed content "
                + "is an update. "
                + (failure.scope == .sectioned ? "Sectioned lists are written section by section. " : "")
                + (failure.duplicates ? "This input repeats an identifier." : "Every identifier in each list is unique."))
        lines.append("")
        lines.append("## What \(Markdown.text(contestant.displayName)) produced")
        lines.append("")
        if let batch = failure.batch {
            lines.append(
                "The batch update it gave for this input" + (contestant.about.adapter.map { " (adapter: " + Markdown.text($0) + ")" } ?? "") + ":")
            lines.append("")
            lines.append(Markdown.codeBlock(batch))
        } else {
            lines.append(
                failure.kind == .failure
                    ? "No batch update was recorded for this failure."
                    : "No batch update: the call \(failure.kind == .crash ? "crashed" : "did not return").")
            lines.append("")
        }
        lines.append("## What is wrong with it")
        lines.append("")
        lines.append(
            failure.property == "batch-valid" || failure.property == "staged-valid"
                ? "UIKit's rules for `performBatchUpdates` (as DiffLab's validator models them) say:"
                : "DiffLab's " + Markdown.literal(Markdown.brief(failure.property, 64)) + " check says:")
        lines.append("")
        lines.append(Markdown.codeBlock(failure.message))
        lines.append("## A valid update")
        lines.append("")
        if let valid = failure.validBatch {
            lines.append("For comparison, a batch update UIKit accepts that turns the old list into the new one (DiffLab's):")
            lines.append("")
            lines.append(Markdown.codeBlock(valid))
        } else {
            lines.append("Not recorded for this failure.")
            lines.append("")
        }
        lines.append("## Within the documented promises?")
        lines.append("")
        lines.append(promiseParagraph)
        lines.append("")
        for (index, source) in contestant.about.promiseSources.enumerated() { lines.append("\(index + 1). " + Markdown.literal(source)) }
        if !contestant.about.promiseSources.isEmpty { lines.append("") }
        lines.append("## How it was found")
        lines.append("")
        lines.append(howFound)
        lines.append("")
        if let replay = failure.replay {
            lines.append("To replay it:")
            lines.append("")
            lines.append(Markdown.codeBlock(replay))
        }
        var text = lines.joined(separator: "\n")
        while text.hasSuffix("\n") { text.removeLast() }
        return text + "\n"
    }

    /// The library, version, revision, source and build, on one line.
    private var identification: String {
        var parts = ["**Library:** " + Markdown.text(contestant.displayName)]
        parts.append("**version:** " + (contestant.about.version.isEmpty ? "not given" : Markdown.text(contestant.about.version)))
        if let revision = contestant.about.revision { parts.append("**revision:** " + Markdown.literal(revision)) }
        if let source = contestant.about.source { parts.append("**source:** " + Markdown.literal(source)) }
        if let build = contestant.about.build { parts.append("**built:** " + Markdown.text(build)) }
        return parts.joined(separator: " · ")
    }

    private var promiseParagraph: String {
        let promises = contestant.promises
        let declared =
            "DiffLab's adapter declares: " + ArenaSection.promisesText(promises) + "."
            + (contestant.about.promiseSources.isEmpty ? "" : " The documentation it follows:")
        if failure.outsideContract {
            return "**No.** The input is outside what the library promises"
                + (failure.duplicates && !promises.supportsDuplicates ? " (it repeats an identifier, and duplicates are not promised)" : "")
                + ", so this may be documented behaviour; it is reported so you can decide. " + declared
        }
        return "**Yes.** The input is within what the library promises"
            + (failure.duplicates ? " (duplicates are promised)" : " (every identifier is unique)") + ". " + declared
    }

    private var howFound: String {
        var text =
            "Found by DiffLab's arena, which fuzzes diff libraries for UIKit batch-update validity: \(Markdown.text(libraryLabel)) was run "
            + "through DiffLab's adapter for \(NumberStyle.seconds.format(contestant.fuzz.seconds)) (\(formatGrouped(contestant.fuzz.inputs)) "
            + "inputs) with seed " + Markdown.literal(results.options.seed) + ", and the failing input was shrunk to the one above. "
            + "Signature " + Markdown.literal(failure.signature) + "; kind `\(failure.kind.rawValue)`, scope `\(failure.scope.rawValue)`"
        if let kind = failure.elementKind { text += "; elements handed to the library as " + Markdown.literal(kind) }
        text += "."
        if let commit = results.provenance.commit { text += " DiffLab commit " + Markdown.literal(commit) + "." }
        return text
    }
}
