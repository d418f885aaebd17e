/// What an observed run says about a class's claim that its instances are used safely: `propose`'s
/// conclusion for that type (`Proposer`), read as a claim. The conclusions are the one judgement; this only
/// maps them, so `claims` and `propose` cannot disagree about a type.
///
/// | Conclusion | Marking |
/// | --- | --- |
/// | `owner`, `main`, `first-user`, `hand-off` | held, unless some instances strayed |
/// | the same, from a file whose runtime did not state the innermost-serial rule | unexercised |
/// | the same, with a stray use (a move without `handOff(to:)` only some instances made) | contradicted |
/// | `not-confinable`; `contradicted` (a declared owner missed) | contradicted |
/// | `insufficient`; the type not in the files | unexercised |
/// | a claim no class's instances test (`assumeIsolated`, a variable of another type) | not observable |
enum ClaimMarking: Equatable, Sendable {
    /// The conclusion is an owner, the main thread, each instance's first user, or hand-offs only.
    case held(String)
    /// Not confinable as observed, a stray use, or a declared owner missed.
    case contradicted(String)
    /// The files do not show the type used, not enough to judge, or were written by a runtime that
    /// could not tell the uses apart.
    case unexercised(String)
    /// No run can test the claim; the text says why.
    case notObservable(String)

    /// The labels in the order the summary counts them.
    static let labels = ["held", "contradicted", "unexercised", "not observable"]

    var label: String {
        switch self {
        case .held: "held"
        case .contradicted: "contradicted"
        case .unexercised: "unexercised"
        case .notObservable: "not observable"
        }
    }

    var evidence: String {
        switch self {
        case .held(let text), .contradicted(let text), .unexercised(let text), .notObservable(let text): text
        }
    }

    /// Orders markings for a claim several observed types match: contradicted, then held, then unexercised.
    private var weight: Int {
        switch self {
        case .contradicted: 2
        case .held: 1
        case .unexercised, .notObservable: 0
        }
    }

    /// Marks the class named `typeName` (qualified; an observed type matches by that or by its simple
    /// name, in any module) from its conclusion. When types of several modules match, the gravest marking
    /// stands and names its type.
    static func mark(typeName: String, simpleName: String, in judged: [(type: Observation.Store.TypeEntry, entry: Proposal.Entry)]) -> Self {
        let matching = judged.filter { $0.type.type == typeName || $0.type.type == simpleName }
        let markings = matching.map { mark($0.entry, type: $0.type) }
        guard let gravest = markings.indices.max(by: { markings[$0].weight < markings[$1].weight }) else {
            return .unexercised("'\(typeName)' is not in the observation files; observe it ('adopt \(typeName)'), then run the tests")
        }
        guard matching.count > 1 else { return markings[gravest] }
        let prefix = "'\(matching[gravest].entry.qualifiedName)': "
        switch markings[gravest] {
        case .held(let text): return .held(prefix + text)
        case .contradicted(let text): return .contradicted(prefix + text)
        case .unexercised(let text): return .unexercised(prefix + text)
        case .notObservable(let text): return .notObservable(prefix + text)
        }
    }

    /// One conclusion as a marking; the text starts with the conclusion (`owner: …`) and carries its evidence.
    static func mark(_ entry: Proposal.Entry, type: Observation.Store.TypeEntry) -> Self {
        let evidence = sentences(entry.evidence)
        switch entry.conclusion {
        case .owner, .main, .firstUser, .handOff:
            guard !entry.strayMoves.isEmpty else {
                // "Held" only from uses the run could tell apart: a runtime without the innermost-serial
                // rule put a use inside another queue's `sync` on the bound thread in that thread's
                // context, so a wrong-queue use there could not have shown.
                let unresolved = type.unresolvedFiles.uniqued { $0 }
                guard unresolved.isEmpty else {
                    let more = unresolved.count > 3 ? " and \(unresolved.count - 3) more" : ""
                    return .unexercised("the run could not have shown a violation: \(unresolved.prefix(3).joined(separator: ", "))\(more) \(unresolved.count == 1 ? "was" : "were") written by a runtime that did not tell a use inside another queue's sync apart from the thread running it (no 'resolution: \(Observation.File.innermostSerial)'); observe again with this version. Propose says \(entry.conclusion.rawValue): \(evidence)")
                }
                return .held("\(entry.conclusion.rawValue): \(evidence)")
            }
            // Propose keeps the owner where instances start and lists the moves; its evidence follows.
            let strays = entry.strayMoves.map {
                "used from \($0.to.description) at \(Proposer.site($0.site)) after \($0.from.description), without a handOff(to:)"
            }
            let sites = entry.strayMoves.map { Proposal.Use(context: $0.to, member: $0.member, site: $0.site) }
            return .contradicted("stray use: \(strays.joined(separator: "; ")); propose says \(entry.conclusion.rawValue): \(evidence)\(files(of: sites, in: type))")
        case .notConfinable:
            return .contradicted("not-confinable: \(evidence)\(files(of: entry.uses, in: type))")
        case .contradicted:
            return .contradicted("\(evidence)\(files(of: entry.uses, in: type))")
        case .insufficient:
            return .unexercised("insufficient: \(evidence)")
        }
    }

    /// Evidence lines as one: a line ending in `:` introduces the next, the others are separated by `;`.
    private static func sentences(_ lines: [String]) -> String {
        var text = ""
        for line in lines {
            text += text.isEmpty ? "" : text.hasSuffix(":") ? " " : "; "
            text += line
        }
        return text
    }

    /// ` [run-1.json]`: the observation files whose kept instances show one of `uses`, or, when only the
    /// members lists show them, every file the type is in (at most three named).
    private static func files(of uses: [Proposal.Use], in type: Observation.Store.TypeEntry) -> String {
        let showing = type.instances.filter { instance in
            instance.steps.contains { step in uses.contains { $0.context == step.context && $0.member == step.member && $0.site == step.site } }
        }
        var names = showing.map(\.file).uniqued { $0 }
        if names.isEmpty { names = type.files.uniqued { $0 } }
        guard !names.isEmpty else { return "" }
        let more = names.count > 3 ? " and \(names.count - 3) more" : ""
        return " [\(names.prefix(3).joined(separator: ", "))\(more)]"
    }
}
